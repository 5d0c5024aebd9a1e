/* >>transfer (implementation): buffer and host pairs, raw cl_mem dispatch, fills,
   kernel arguments. Image pairs are in transfer_image.c, SVM pairs in transfer_svm.c. */

static const clmem_copy_options clmem__copy_defaults = CLMEM_OPTIONS_INIT;
#define CLMEM__COPY "clmem_enqueue_copy"

/* Host transfers block unless .is_blocking was written and is false. */
static cl_bool clmem__blocking(const clmem_copy_options *o) {
    return (o->given & CLMEM_GIVEN_IS_BLOCKING) && !o->is_blocking ? CL_FALSE : CL_TRUE;
}
/* Device-side copies never block unless .is_blocking was written and is true. */
static bool clmem__device_wait(const clmem_copy_options *o) {
    return (o->given & CLMEM_GIVEN_IS_BLOCKING) && o->is_blocking;
}

/* clmem__region(fn, given, in, out): a region as written ({x, y} means {x, y, 1});
   false (and out all zero) when no region was written. A region written as all zero
   is empty (out[0] == 0: nothing to copy). Zero before a non-zero component is an
   error (*err set). */
static bool clmem__region(const char *fn, bool given, const size_t in[3], size_t out[3], cl_int *err) {
    *err = CL_SUCCESS;
    out[0] = in[0];
    out[1] = in[1] ? in[1] : 1;
    out[2] = in[2] ? in[2] : 1;
    if (!given) given = in[0] || in[1] || in[2]; /* *_opts callers that left .given out */
    if (!given || (!in[0] && !in[1] && !in[2])) {
        out[0] = 0;
        if (!given) out[1] = out[2] = 0;
        return given;
    }
    if (CLMEM__CHECKS && (in[0] == 0 || (in[1] == 0 && in[2] != 0)))
        *err = clmem__fail(CL_INVALID_VALUE, fn, "region {%zu, %zu, %zu} has a zero component", in[0], in[1], in[2]);
    return true;
}

/* A rectangle in linear memory: origin, pitches (resolved), and the byte range it spans. */
typedef struct clmem__rect {
    size_t origin[3];
    size_t row, slice;   /* resolved pitches */
    size_t start, end;   /* first byte and one past the last byte touched */
} clmem__rect;

/* clmem__rect_make(fn, what, origin, pitches, region, size, &r): resolve pitches (0:
   packed), check them, and check that the rectangle lies within `size` bytes
   (SIZE_MAX: unknown size, only overflow is checked). */
static cl_int clmem__rect_make(const char *fn, const char *what, const size_t origin[3], const size_t pitches[2],
                               const size_t region[3], size_t size, clmem__rect *r) {
    size_t a, b, c, span;
    r->origin[0] = origin[0];
    r->origin[1] = origin[1];
    r->origin[2] = origin[2];
    r->row = pitches[0] ? pitches[0] : region[0];
    if (CLMEM__CHECKS && r->row < region[0])
        return clmem__fail(CL_INVALID_VALUE, fn, "%s row pitch %zu is less than region[0] %zu", what, r->row, region[0]);
    if (!clmem__mul_ok(region[1], r->row, &a))
        return clmem__fail(CL_INVALID_VALUE, fn, "%s row pitch %zu x region[1] %zu overflows", what, r->row, region[1]);
    r->slice = pitches[1] ? pitches[1] : a;
    if (CLMEM__CHECKS && (r->slice < a || r->slice % r->row))
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "%s slice pitch %zu must be at least region[1] x row pitch (%zu) and a multiple of the row "
                           "pitch %zu", what, r->slice, a, r->row);
    /* start = z*slice + y*row + x; span = (rz-1)*slice + (ry-1)*row + rx */
    if (!clmem__mul_ok(origin[2], r->slice, &a) || !clmem__mul_ok(origin[1], r->row, &b) || !clmem__add_ok(a, b, &c) ||
        !clmem__add_ok(c, origin[0], &r->start))
        return clmem__fail(CL_INVALID_VALUE, fn, "%s origin {%zu, %zu, %zu} with pitches %zu, %zu overflows", what,
                           origin[0], origin[1], origin[2], r->row, r->slice);
    if (!clmem__mul_ok(region[2] - 1, r->slice, &a) || !clmem__mul_ok(region[1] - 1, r->row, &b) ||
        !clmem__add_ok(a, b, &c) || !clmem__add_ok(c, region[0], &span) || !clmem__add_ok(r->start, span, &r->end))
        return clmem__fail(CL_INVALID_VALUE, fn, "%s region {%zu, %zu, %zu} with pitches %zu, %zu overflows", what,
                           region[0], region[1], region[2], r->row, r->slice);
    if (CLMEM__CHECKS && size != SIZE_MAX && r->end > size)
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "%s origin {%zu, %zu, %zu} + region {%zu, %zu, %zu} (pitches %zu, %zu) reaches byte %zu, "
                           "beyond its %zu bytes", what, origin[0], origin[1], origin[2], region[0], region[1], region[2],
                           r->row, r->slice, r->end, size);
    return CL_SUCCESS;
}

/* clmem__rects_meet(a, ar, as, b, br, bs, region): do two rectangles of one region,
   starting at linear byte offsets a and b of one allocation, with pitches (ar, as)
   and (br, bs), share a byte? Exact, for equal and for different pitches (sibling
   sub-buffers may be copied with different pitches): each row of the first that lies
   within the second's byte span is tested against the second's rows in O(1) (a row of
   region[0] bytes meets rows of at most 3 slices of the other, whose slice pitch is at
   least its slice size), so the cost is at most one step per row of the copy, what the
   driver spends anyway. Both rectangles are known to lie within the allocation (no
   wrapping). The spec's Appendix D rule is the equal-pitch case of this. */
static bool clmem__row_meets_rect(size_t p, size_t rx, size_t b, size_t br, size_t bs, const size_t region[3]) {
    size_t lo = p + 1 >= rx ? p + 1 - rx : 0, hi = p + rx - 1; /* a row of b starting in [lo, hi] meets [p, p+rx) */
    size_t last_row = (region[1] - 1) * br, zb, zb_lo, zb_hi;
    if (hi < b) return false;
    zb_lo = lo <= b + last_row ? 0 : (lo - b - last_row + bs - 1) / bs;
    zb_hi = (hi - b) / bs;
    if (zb_hi > region[2] - 1) zb_hi = region[2] - 1;
    for (zb = zb_lo; zb <= zb_hi; ++zb) {
        size_t base = b + zb * bs, y_lo, y_hi;
        if (base > hi) break;
        y_lo = lo <= base ? 0 : (lo - base + br - 1) / br;
        y_hi = (hi - base) / br;
        if (y_hi > region[1] - 1) y_hi = region[1] - 1;
        if (y_lo <= y_hi) return true;
    }
    return false;
}
static bool clmem__rects_meet(size_t a, size_t ar, size_t as, size_t b, size_t br, size_t bs, const size_t region[3]) {
    size_t rx = region[0], a_end = a + (region[2] - 1) * as + (region[1] - 1) * ar + rx;
    size_t b_end = b + (region[2] - 1) * bs + (region[1] - 1) * br + rx, za;
    if (a_end <= b || b_end <= a) return false;
    for (za = 0; za < region[2]; ++za) {
        size_t base = a + za * as, y, y_lo, y_hi;
        if (base >= b_end) break;
        if (base + (region[1] - 1) * ar + rx <= b) continue;
        y_lo = base + rx > b ? 0 : (b - rx - base) / ar + 1;
        y_hi = (b_end - 1 - base) / ar;
        if (y_hi > region[1] - 1) y_hi = region[1] - 1;
        for (y = y_lo; y <= y_hi; ++y)
            if (clmem__row_meets_rect(base + y * ar, rx, b, br, bs, region)) return true;
    }
    return false;
}

/* clmem__copy_rect_check(dst, src, region, o, &dr, &sr): every check of a rectangular
   buffer-to-buffer copy that needs no driver (pure: tests/fuzz/rect_copy.c compares it
   with a byte-level model). Per the spec: pitch and bounds rules -> CL_INVALID_VALUE;
   one buffer object as src and dst with different row or slice pitches ->
   CL_INVALID_VALUE; src and dst in one allocation (the same object, a sub-buffer and
   its parent, sibling sub-buffers) sharing a byte -> CL_MEM_COPY_OVERLAP. Sibling
   sub-buffers with different pitches that do not overlap are valid. */
static cl_int clmem__copy_rect_check(clmem_buffer dst, clmem_buffer src, const size_t region[3],
                                     const clmem_copy_options *o, clmem__rect *dr, clmem__rect *sr) {
    cl_int err;
    if ((err = clmem__rect_make(CLMEM__COPY, "src", o->src_origin, o->src_pitches, region, src.size, sr)) != CL_SUCCESS ||
        (err = clmem__rect_make(CLMEM__COPY, "dst", o->dst_origin, o->dst_pitches, region, dst.size, dr)) != CL_SUCCESS)
        return err;
    if (CLMEM__CHECKS && src.root == dst.root) {
        if (src.mem == dst.mem && (sr->row != dr->row || sr->slice != dr->slice))
            return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY,
                               "a rectangular copy within one buffer object needs equal pitches (src %zu, %zu; dst %zu, "
                               "%zu)", sr->row, sr->slice, dr->row, dr->slice);
        if (clmem__rects_meet(src.origin + sr->start, sr->row, sr->slice, dst.origin + dr->start, dr->row, dr->slice,
                              region))
            return clmem__fail(CL_MEM_COPY_OVERLAP, CLMEM__COPY,
                               "src origin {%zu, %zu, %zu} (pitches %zu, %zu) and dst origin {%zu, %zu, %zu} (pitches "
                               "%zu, %zu) with region {%zu, %zu, %zu} share bytes of one buffer%s",
                               o->src_origin[0], o->src_origin[1], o->src_origin[2], sr->row, sr->slice,
                               o->dst_origin[0], o->dst_origin[1], o->dst_origin[2], dr->row, dr->slice, region[0],
                               region[1], region[2], src.mem == dst.mem ? "" : " (sub-buffers of one parent)");
    }
    return CL_SUCCESS;
}

/* Checks every pair shares: queue, wait list, a live handle. */
static cl_int clmem__check_common(cl_command_queue queue, const clmem_copy_options *o) {
    cl_int err;
    if ((err = clmem__check_queue(CLMEM__COPY, queue)) != CL_SUCCESS) return err;
    if ((err = clmem__check_made(CLMEM__COPY, o->given)) != CL_SUCCESS) return err;
    return clmem__check_wait_list(CLMEM__COPY, o->wait_for, o->num_wait_for);
}
static cl_int clmem__check_buffer(const char *what, clmem_buffer b) {
    return CLMEM__CHECKS ? clmem__buffer_invalid(CLMEM__COPY, what, b) : CL_SUCCESS;
}
static cl_int clmem__check_host_access(const char *what, clmem_buffer b, bool write) {
    cl_mem_flags forbidden = write ? (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
                                   : (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
    char text[200];
    if (CLMEM__CHECKS && (b.flags & forbidden))
        return clmem__fail(CL_INVALID_OPERATION, CLMEM__COPY, "the host may not %s %s: its flags are %s",
                           write ? "write" : "read", what, clmem__mem_flags_text(b.flags, text, sizeof text));
    return CL_SUCCESS;
}

/* clmem__finish_device_copy: a device-to-device copy asked to block waits for it. */
static cl_int clmem__after_device_copy(const clmem_copy_options *o, cl_event *own) {
    cl_int err = CL_SUCCESS;
    if (clmem__device_wait(o)) {
        cl_event ev = o->event ? *o->event : *own;
        err = clWaitForEvents(1, &ev);
        if (err != CL_SUCCESS) err = clmem__cl_fail(err, CLMEM__COPY, "clWaitForEvents");
    }
    if (*own) clReleaseEvent(*own);
    return err;
}

/* ---- buffer <- host, host <- buffer ---- */

/* clmem__host_failed: a host transfer the driver refused; a context mismatch gets the
   same words as clmem's own checks. */
static cl_int clmem__host_failed(cl_int err, cl_command_queue queue, clmem_buffer buf, const char *call) {
    if (err == CL_INVALID_CONTEXT && clmem__same_context(CLMEM__COPY, queue, buf.context, "the buffer") != CL_SUCCESS)
        return CL_INVALID_CONTEXT;
    return clmem__cl_fail(err, CLMEM__COPY, call);
}

static cl_int clmem__host_rect(cl_command_queue queue, clmem_buffer buf, void *host, bool write, const size_t region[3],
                               const clmem_copy_options *o) {
    clmem__rect br, hr;
    cl_int err;
    if ((err = clmem__rect_make(CLMEM__COPY, "buffer", o->buffer_origin, o->buffer_pitches, region, buf.size, &br)) !=
        CL_SUCCESS)
        return err;
    if ((err = clmem__rect_make(CLMEM__COPY, "host", o->host_origin, o->host_pitches, region,
                                (o->given & CLMEM_GIVEN_HOST_SIZE) || o->host_size ? o->host_size : SIZE_MAX, &hr)) !=
        CL_SUCCESS)
        return err;
    clmem__map_note_use(buf.mem, CLMEM__COPY);
    if (write)
        err = clEnqueueWriteBufferRect(queue, buf.mem, clmem__blocking(o), br.origin, hr.origin, region, br.row, br.slice,
                                       hr.row, hr.slice, host, o->num_wait_for, o->wait_for, o->event);
    else
        err = clEnqueueReadBufferRect(queue, buf.mem, clmem__blocking(o), br.origin, hr.origin, region, br.row, br.slice,
                                      hr.row, hr.slice, host, o->num_wait_for, o->wait_for, o->event);
    return err == CL_SUCCESS ? CL_SUCCESS
                             : clmem__host_failed(err, queue, buf, write ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect");
}

static cl_int clmem__host_linear(cl_command_queue queue, clmem_buffer buf, void *host, bool write,
                                 const clmem_copy_options *o) {
    size_t offset = write ? o->dst_offset : o->src_offset, count;
    const char *oname = write ? "dst_offset" : "src_offset";
    cl_int err;
    if (CLMEM__CHECKS && offset > buf.size)
        return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY, "%s %zu is beyond the buffer's %zu bytes", oname, offset, buf.size);
    count = (o->given & CLMEM_GIVEN_BYTE_COUNT) || o->byte_count ? o->byte_count : buf.size - offset;
    if (CLMEM__CHECKS) {
        if (!clmem__range_ok(offset, count, buf.size))
            return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY, "%s %zu + byte_count %zu is beyond the buffer's %zu bytes",
                               oname, offset, count, buf.size);
        if (((o->given & CLMEM_GIVEN_HOST_SIZE) || o->host_size) && count > o->host_size)
            return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY, "byte_count %zu is more than host_size %zu", count,
                               o->host_size);
    }
    if (count == 0) return clmem__nothing_to_do(CLMEM__COPY, queue, o->wait_for, o->num_wait_for, o->event);
    clmem__map_note_use(buf.mem, CLMEM__COPY);
    if (write)
        err = clEnqueueWriteBuffer(queue, buf.mem, clmem__blocking(o), offset, count, host, o->num_wait_for, o->wait_for,
                                   o->event);
    else
        err = clEnqueueReadBuffer(queue, buf.mem, clmem__blocking(o), offset, count, host, o->num_wait_for, o->wait_for,
                                  o->event);
    return err == CL_SUCCESS ? CL_SUCCESS
                             : clmem__host_failed(err, queue, buf, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
}

static cl_int clmem__host_transfer(cl_command_queue queue, clmem_buffer buf, void *host, bool write,
                                   const clmem_copy_options *o) {
    const char *what = write ? "dst" : "src";
    size_t region[3];
    bool rect;
    cl_int err;
    if (!o) o = &clmem__copy_defaults;
    if (CLMEM__CHECKS) {
        if ((err = clmem__check_common(queue, o)) != CL_SUCCESS) return err;
        if ((err = clmem__check_buffer(what, buf)) != CL_SUCCESS) return err;
        if (!host)
            return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY, "the host pointer (%s) is NULL", write ? "src" : "dst");
        if ((err = clmem__check_host_access(what, buf, write)) != CL_SUCCESS) return err;
        if (clmem__blocking(o) &&
            (err = clmem__wait_list_ok(CLMEM__COPY, o->wait_for, o->num_wait_for)) != CL_SUCCESS)
            return err;
        /* One driver query on the full path: not every driver compares the contexts
           (Oclgrind 21.10 reads another context's buffer), and CL_INVALID_CONTEXT is
           documented. The inline hot path leaves it to the driver (see transfer.h). */
        if ((err = clmem__same_context(CLMEM__COPY, queue, buf.context, what)) != CL_SUCCESS) return err;
    }
    if (!(o->given & CLMEM_GIVEN_REGION) && !(o->region[0] | o->region[1] | o->region[2]))
        return clmem__host_linear(queue, buf, host, write, o);
    rect = clmem__region(CLMEM__COPY, (o->given & CLMEM_GIVEN_REGION) != 0, o->region, region, &err);
    if (err != CL_SUCCESS) return err;
    if (rect && region[0] == 0) return clmem__nothing_to_do(CLMEM__COPY, queue, o->wait_for, o->num_wait_for, o->event);
    return rect ? clmem__host_rect(queue, buf, host, write, region, o) : clmem__host_linear(queue, buf, host, write, o);
}

/* For the inline hot path in transfer.h: a simple linear copy its quick checks did
   not pass goes the full way, which checks everything and words the refusal. */
CLMEM_API cl_int clmem__copy_host_linear(cl_command_queue queue, clmem_buffer buf, void *host, int write, unsigned given,
                                         size_t byte_count, size_t offset, int is_blocking, cl_event *event) {
    clmem_copy_options o;
    memset((void *)&o, 0, sizeof o); /* (void *): C++14 options have default member initializers */
    o.given = given;
    o.byte_count = byte_count;
    if (write)
        o.dst_offset = offset;
    else
        o.src_offset = offset;
    o.is_blocking = is_blocking;
    o.event = event;
    return clmem__host_transfer(queue, buf, host, write != 0, &o);
}

/* For the inline hot path in transfer.h: a refusal by the driver, worded. */
CLMEM_API cl_int clmem__copy_host_failed(cl_int err, cl_command_queue queue, clmem_buffer buf, int write) {
    return clmem__host_failed(err, queue, buf, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
}

CLMEM_API cl_int clmem__copy_buffer_from_host(cl_command_queue queue, clmem_buffer dst, const void *src,
                                              const clmem_copy_options *opts) {
    /* OpenCL takes the source of a write as const void *; the cast only shares code. */
    return clmem__host_transfer(queue, dst, clmem__unconst(src), true, opts);
}

CLMEM_API cl_int clmem__copy_host_from_buffer(cl_command_queue queue, void *dst, clmem_buffer src,
                                              const clmem_copy_options *opts) {
    return clmem__host_transfer(queue, src, dst, false, opts);
}

/* ---- buffer <- buffer ---- */

/* clmem__copy_rect_rows: a rectangular copy between sub-buffers of one buffer with
   different pitches (valid: they are different objects). Through the root, the path
   PoCL 3.1 survives (see below), src and dst would be one object, where different
   pitches are refused; so the rows go as linear copies within the root (they do not
   overlap: checked before). One enqueue per row: the driver's own rect copy makes as
   many row copies. Every row waits for the wait list; the event (or a blocking wait) is
   a marker after the last row. A refused row leaves the rows before it enqueued. */
static cl_int clmem__copy_rect_rows(cl_command_queue queue, clmem_buffer src, clmem_buffer dst, const clmem__rect *sr,
                                    const clmem__rect *dr, const size_t region[3], const clmem_copy_options *o) {
    size_t y, z;
    cl_int err;
    cl_event own = NULL;
    clmem__map_note_use(src.mem, CLMEM__COPY);
    clmem__map_note_use(dst.mem, CLMEM__COPY);
    for (z = 0; z < region[2]; ++z)
        for (y = 0; y < region[1]; ++y) {
            size_t so = src.origin + sr->start + z * sr->slice + y * sr->row;
            size_t d = dst.origin + dr->start + z * dr->slice + y * dr->row;
            err = clEnqueueCopyBuffer(queue, src.root, dst.root, so, d, region[0], o->num_wait_for, o->wait_for, NULL);
            if (err != CL_SUCCESS) return clmem__cl_fail(err, CLMEM__COPY, "clEnqueueCopyBuffer");
        }
    if (o->event || clmem__device_wait(o)) {
        err = clEnqueueMarkerWithWaitList(queue, 0, NULL, o->event ? o->event : &own);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, CLMEM__COPY, "clEnqueueMarkerWithWaitList");
    }
    return clmem__after_device_copy(o, &own);
}

static cl_int clmem__copy_rect(cl_command_queue queue, clmem_buffer dst, clmem_buffer src, const size_t region[3],
                               const clmem_copy_options *o) {
    clmem__rect sr, dr;
    size_t so[3], dO[3];
    cl_int err;
    cl_event own = NULL;
    if ((err = clmem__copy_rect_check(dst, src, region, o, &dr, &sr)) != CL_SUCCESS) return err;
    if (src.root == dst.root && src.mem != dst.mem && (sr.row != dr.row || sr.slice != dr.slice))
        return clmem__copy_rect_rows(queue, src, dst, &sr, &dr, region, o);
    /* PoCL 3.1 crashes on rectangular copies of sub-buffers: go through the root, whose
       linear offset formula takes the sub-buffer's origin in origin[0]. */
    memcpy(so, sr.origin, sizeof so);
    memcpy(dO, dr.origin, sizeof dO);
    so[0] += src.origin;
    dO[0] += dst.origin;
    clmem__map_note_use(src.mem, CLMEM__COPY);
    clmem__map_note_use(dst.mem, CLMEM__COPY);
    err = clEnqueueCopyBufferRect(queue, src.root, dst.root, so, dO, region, sr.row, sr.slice, dr.row, dr.slice,
                                  o->num_wait_for, o->wait_for,
                                  o->event ? o->event : (clmem__device_wait(o) ? &own : NULL));
    if (err != CL_SUCCESS) return clmem__cl_fail(err, CLMEM__COPY, "clEnqueueCopyBufferRect");
    return clmem__after_device_copy(o, &own);
}

CLMEM_API cl_int clmem__copy_buffer_from_buffer(cl_command_queue queue, clmem_buffer dst, clmem_buffer src,
                                                const clmem_copy_options *o) {
    size_t region[3], count;
    bool rect;
    cl_int err;
    cl_event own = NULL;
    if (!o) o = &clmem__copy_defaults;
    if (CLMEM__CHECKS) {
        if ((err = clmem__check_common(queue, o)) != CL_SUCCESS) return err;
        if ((err = clmem__check_buffer("dst", dst)) != CL_SUCCESS || (err = clmem__check_buffer("src", src)) != CL_SUCCESS)
            return err;
        if (src.context != dst.context)
            return clmem__fail(CL_INVALID_CONTEXT, CLMEM__COPY, "src (context %p) and dst (context %p) differ in context",
                               (void *)src.context, (void *)dst.context);
        if ((err = clmem__same_context(CLMEM__COPY, queue, dst.context, "dst")) != CL_SUCCESS) return err;
    }
    rect = clmem__region(CLMEM__COPY, (o->given & CLMEM_GIVEN_REGION) != 0, o->region, region, &err);
    if (err != CL_SUCCESS) return err;
    if (rect && region[0] == 0) return clmem__nothing_to_do(CLMEM__COPY, queue, o->wait_for, o->num_wait_for, o->event);
    if (rect) return clmem__copy_rect(queue, dst, src, region, o);
    if (CLMEM__CHECKS && (o->src_offset > src.size || o->dst_offset > dst.size))
        return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY, "src_offset %zu or dst_offset %zu is beyond its buffer (%zu, %zu bytes)",
                           o->src_offset, o->dst_offset, src.size, dst.size);
    count = o->byte_count;
    if (!(o->given & CLMEM_GIVEN_BYTE_COUNT) && !count) {
        size_t a = src.size - o->src_offset, b = dst.size - o->dst_offset;
        count = a < b ? a : b;
    }
    if (CLMEM__CHECKS) {
        if (!clmem__range_ok(o->src_offset, count, src.size))
            return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY, "src_offset %zu + byte_count %zu is beyond src's %zu bytes",
                               o->src_offset, count, src.size);
        if (!clmem__range_ok(o->dst_offset, count, dst.size))
            return clmem__fail(CL_INVALID_VALUE, CLMEM__COPY, "dst_offset %zu + byte_count %zu is beyond dst's %zu bytes",
                               o->dst_offset, count, dst.size);
        if (src.root == dst.root && count) {
            size_t s = src.origin + o->src_offset, d = dst.origin + o->dst_offset;
            if (s < d + count && d < s + count)
                return clmem__fail(CL_MEM_COPY_OVERLAP, CLMEM__COPY,
                                   "src bytes [%zu, %zu) and dst bytes [%zu, %zu) of the same buffer overlap", s, s + count,
                                   d, d + count);
        }
    }
    if (count == 0) return clmem__nothing_to_do(CLMEM__COPY, queue, o->wait_for, o->num_wait_for, o->event);
    clmem__map_note_use(src.mem, CLMEM__COPY);
    clmem__map_note_use(dst.mem, CLMEM__COPY);
    /* Through the roots as well: PoCL 3.1 checks a source sub-buffer against its parent. */
    err = clEnqueueCopyBuffer(queue, src.root, dst.root, src.origin + o->src_offset, dst.origin + o->dst_offset, count,
                              o->num_wait_for, o->wait_for,
                              o->event ? o->event : (clmem__device_wait(o) ? &own : NULL));
    if (err != CL_SUCCESS) return clmem__cl_fail(err, CLMEM__COPY, "clEnqueueCopyBuffer");
    return clmem__after_device_copy(o, &own);
}

/* ---- raw cl_mem: dispatched at run time by CL_MEM_TYPE ---- */

typedef struct clmem__any {
    bool is_image;
    clmem_buffer buffer;
    clmem_image image;
} clmem__any;

/* clmem__refail(err, what, mem): a wrapping helper failed; its message named itself:
   say it again in the name of clmem_enqueue_copy, which the user called. */
static cl_int clmem__refail(cl_int err, const char *what, cl_mem mem) {
    char why[768];
    const char *m = clmem_last_error_message(), *colon = strstr(m, ": ");
    snprintf(why, sizeof why, "%s", colon ? colon + 2 : m);
    return clmem__fail(err, CLMEM__COPY, "%s (cl_mem %p): %s", what, (void *)mem, why);
}

static cl_int clmem__any_of(cl_mem mem, const char *what, clmem__any *a) {
    cl_mem_object_type type = 0;
    cl_int err;
    memset(a, 0, sizeof *a);
    if (!mem) return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s is a NULL cl_mem", what);
    err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_INVALID_MEM_OBJECT)
        return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s (%p) is not a valid memory object", what, (void *)mem);
    if (err != CL_SUCCESS)
        return clmem__fail(err, CLMEM__COPY, "clGetMemObjectInfo(%s %p, CL_MEM_TYPE) failed with %s (%d)", what,
                           (void *)mem, clmem_error_string(err), (int)err);
    if (type == CL_MEM_OBJECT_BUFFER) { /* the five facts a copy needs, not every mem_info */
        clmem_buffer *b = &a->buffer;
        cl_mem parent = NULL;
        size_t offset = 0;
        if ((err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof b->context, &b->context, NULL)) != CL_SUCCESS ||
            (err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof b->size, &b->size, NULL)) != CL_SUCCESS ||
            (err = clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof b->flags, &b->flags, NULL)) != CL_SUCCESS ||
            (err = clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL)) != CL_SUCCESS ||
            (parent && (err = clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof offset, &offset, NULL)) != CL_SUCCESS))
            return clmem__fail(err, CLMEM__COPY, "clGetMemObjectInfo(%s %p) failed with %s (%d)", what, (void *)mem,
                               clmem_error_string(err), (int)err);
        b->mem = mem;
        b->root = parent ? parent : mem;
        b->origin = parent ? offset : 0;
        return CL_SUCCESS;
    }
#ifdef CL_VERSION_2_0
    if (type == CL_MEM_OBJECT_PIPE)
        return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s is a pipe; pipes cannot be copied", what);
#endif
    if (!clmem__is_image_type(type))
        return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s (%p) has CL_MEM_TYPE 0x%x, neither a buffer nor an image",
                           what, (void *)mem, (unsigned)type);
    a->is_image = true;
    a->image = clmem_image_from_int_ptr(mem, false, &err);
    return err == CL_SUCCESS ? err : clmem__refail(err, what, mem);
}

CLMEM_API cl_int clmem__copy_mem_from_mem(cl_command_queue queue, cl_mem dst, cl_mem src, const clmem_copy_options *o) {
    clmem__any d, s;
    cl_int err;
    if ((err = clmem__any_of(dst, "dst", &d)) != CL_SUCCESS || (err = clmem__any_of(src, "src", &s)) != CL_SUCCESS)
        return err;
    if (d.is_image)
        return s.is_image ? clmem__copy_image_from_image(queue, d.image, s.image, o)
                          : clmem__copy_image_from_buffer(queue, d.image, s.buffer, o);
    return s.is_image ? clmem__copy_buffer_from_image(queue, d.buffer, s.image, o)
                      : clmem__copy_buffer_from_buffer(queue, d.buffer, s.buffer, o);
}
CLMEM_API cl_int clmem__copy_mem_from_host(cl_command_queue queue, cl_mem dst, const void *src, const clmem_copy_options *o) {
    clmem__any d;
    cl_int err = clmem__any_of(dst, "dst", &d);
    if (err != CL_SUCCESS) return err;
    return d.is_image ? clmem__copy_image_from_host(queue, d.image, src, o) : clmem__copy_buffer_from_host(queue, d.buffer, src, o);
}
CLMEM_API cl_int clmem__copy_host_from_mem(cl_command_queue queue, void *dst, cl_mem src, const clmem_copy_options *o) {
    clmem__any s;
    cl_int err = clmem__any_of(src, "src", &s);
    if (err != CL_SUCCESS) return err;
    return s.is_image ? clmem__copy_host_from_image(queue, dst, s.image, o) : clmem__copy_host_from_buffer(queue, dst, s.buffer, o);
}
CLMEM_API cl_int clmem__copy_mem_from_buffer(cl_command_queue queue, cl_mem dst, clmem_buffer src, const clmem_copy_options *o) {
    clmem__any d;
    cl_int err = clmem__any_of(dst, "dst", &d);
    if (err != CL_SUCCESS) return err;
    return d.is_image ? clmem__copy_image_from_buffer(queue, d.image, src, o) : clmem__copy_buffer_from_buffer(queue, d.buffer, src, o);
}
CLMEM_API cl_int clmem__copy_buffer_from_mem(cl_command_queue queue, clmem_buffer dst, cl_mem src, const clmem_copy_options *o) {
    clmem__any s;
    cl_int err = clmem__any_of(src, "src", &s);
    if (err != CL_SUCCESS) return err;
    return s.is_image ? clmem__copy_buffer_from_image(queue, dst, s.image, o) : clmem__copy_buffer_from_buffer(queue, dst, s.buffer, o);
}
CLMEM_API cl_int clmem__copy_mem_from_image(cl_command_queue queue, cl_mem dst, clmem_image src, const clmem_copy_options *o) {
    clmem__any d;
    cl_int err = clmem__any_of(dst, "dst", &d);
    if (err != CL_SUCCESS) return err;
    return d.is_image ? clmem__copy_image_from_image(queue, d.image, src, o) : clmem__copy_buffer_from_image(queue, d.buffer, src, o);
}
CLMEM_API cl_int clmem__copy_image_from_mem(cl_command_queue queue, clmem_image dst, cl_mem src, const clmem_copy_options *o) {
    clmem__any s;
    cl_int err = clmem__any_of(src, "src", &s);
    if (err != CL_SUCCESS) return err;
    return s.is_image ? clmem__copy_image_from_image(queue, dst, s.image, o) : clmem__copy_image_from_buffer(queue, dst, s.buffer, o);
}

CLMEM_API cl_int clmem__copy_unsupported(cl_command_queue queue, ...) {
    (void)queue;
    return clmem__fail(CL_INVALID_OPERATION, CLMEM__COPY, "OpenCL has no copy between these types");
}

/* ---- fills ---- */

static cl_int clmem__fill_run(cl_command_queue queue, clmem__fill_target dst, const void *pattern, size_t pattern_size,
                              size_t size, const clmem_fill_options *o) {
    static const clmem_fill_options none = CLMEM__ZERO;
    clmem_enqueue_options eo;
    if (!o) o = &none;
    if (!dst.buffer.mem && dst.svm.ptr) return clmem__fill_svm(queue, dst.svm, pattern, pattern_size, size, o);
    if (CLMEM__CHECKS && !dst.buffer.mem && !dst.svm.ptr)
        return clmem__fail(CL_INVALID_MEM_OBJECT, "clmem_enqueue_fill", "dst is an empty or released handle");
    eo.given = 0;
    eo.wait_for = o->wait_for;
    eo.num_wait_for = o->num_wait_for;
    eo.event = o->event;
    {
        cl_int err = clmem_enqueue_fill_buffer_opts(queue, dst.buffer, pattern, pattern_size, o->offset, size, &eo);
        /* the message names clmem_enqueue_fill, the function the user called */
        return err == CL_SUCCESS ? err : clmem__refail_as("clmem_enqueue_fill", err);
    }
}

#define CLMEM__FILL_DEF(T, name)                                                                          \
    CLMEM_API cl_int clmem__fill_##name(cl_command_queue queue, clmem__fill_target dst, T pattern, size_t size, \
                                        const clmem_fill_options *opts) {                                 \
        if (CLMEM__CHECKS && opts && opts->pattern_size && opts->pattern_size != sizeof pattern)          \
            return clmem__fail(CL_INVALID_VALUE, "clmem_enqueue_fill",                                    \
                               "pattern_size %zu contradicts the pattern's type " #T " (%zu bytes)",       \
                               opts->pattern_size, sizeof pattern);                                       \
        return clmem__fill_run(queue, dst, &pattern, sizeof pattern, size, opts);                         \
    }
CLMEM__PATTERN_TYPES(CLMEM__FILL_DEF)
#undef CLMEM__FILL_DEF

CLMEM_API cl_int clmem__fill_ptr(cl_command_queue queue, clmem__fill_target dst, const void *pattern, size_t size,
                                 const clmem_fill_options *opts) {
    if (CLMEM__CHECKS && (!opts || !opts->pattern_size))
        return clmem__fail(CL_INVALID_VALUE, "clmem_enqueue_fill",
                           "the pattern is a pointer, so .pattern_size must say how many bytes it has");
    return clmem__fill_run(queue, dst, pattern, opts->pattern_size, size, opts);
}

/* ---- kernel arguments ---- */

/* The check of a value against the kernel parameter's declared type
   (clGetKernelArgInfo, available where the program was built with
   -cl-kernel-arg-info; otherwise CL_KERNEL_ARG_INFO_NOT_AVAILABLE and nothing is
   checked). One query for a scalar (the type name), two for a buffer or an SVM
   pointer (type name and address space), one for local memory (address space); more
   only on the way to a rejection. No cache: a cl_kernel's address is reused by the
   next kernel once it is released, and OpenCL tells nobody. CLMEM_NO_VALIDATION or
   CLMEM_NO_KERNEL_ARG_CHECK compiles it out. */
#if defined(CL_VERSION_1_2) && !defined(CLMEM_NO_KERNEL_ARG_CHECK)
enum {
    CLMEM__PARAM_UNKNOWN = 0, /* a struct, a typedef name, queue_t, ...: not checked */
    CLMEM__PARAM_SCALAR,      /* a scalar or vector of a built-in type */
    CLMEM__PARAM_POINTER,     /* a pointer (to __global, __constant or __local) */
    CLMEM__PARAM_IMAGE,
    CLMEM__PARAM_SAMPLER
};

typedef struct clmem__param_type {
    int kind;
    size_t size;   /* scalars: bytes; 0 when device-dependent (size_t, ptrdiff_t, ...) */
    int floating;  /* scalars: 1 float/double, 0 integer, 2 half (any 2-byte value) */
} clmem__param_type;

/* The parameter type from its CL_KERNEL_ARG_TYPE_NAME (whitespace removed). */
static clmem__param_type clmem__param_classify(const char *t) {
    static const struct {
        const char *name;
        unsigned char len, size, floating;
    } scalars[] = {{"char", 4, 1, 0},          {"uchar", 5, 1, 0},          {"short", 5, 2, 0},
                   {"ushort", 6, 2, 0},        {"int", 3, 4, 0},            {"uint", 4, 4, 0},
                   {"long", 4, 8, 0},          {"ulong", 5, 8, 0},          {"half", 4, 2, 2},
                   {"float", 5, 4, 1},         {"double", 6, 8, 1},         {"unsignedchar", 12, 1, 0},
                   {"unsignedshort", 13, 2, 0}, {"unsignedint", 11, 4, 0},  {"unsignedlong", 12, 8, 0},
                   {"signedchar", 10, 1, 0},   {"size_t", 6, 0, 0},         {"ptrdiff_t", 9, 0, 0},
                   {"intptr_t", 8, 0, 0},      {"uintptr_t", 9, 0, 0}};
    clmem__param_type p;
    size_t len = strlen(t), base = len, i;
    unsigned width = 1;
    p.kind = CLMEM__PARAM_UNKNOWN;
    p.size = 0;
    p.floating = 0;
    if (len == 0) return p;
    if (t[len - 1] == '*') {
        p.kind = CLMEM__PARAM_POINTER;
        return p;
    }
    if (strcmp(t, "sampler_t") == 0) {
        p.kind = CLMEM__PARAM_SAMPLER;
        return p;
    }
    if (strncmp(t, "image", 5) == 0 && len > 7 && strcmp(t + len - 2, "_t") == 0) {
        p.kind = CLMEM__PARAM_IMAGE;
        return p;
    }
    while (base > 0 && t[base - 1] >= '0' && t[base - 1] <= '9') --base;
    if (base < len) {
        width = 0;
        for (i = base; i < len && width < 100; ++i) width = width * 10 + (unsigned)(t[i] - '0');
        if (width != 2 && width != 3 && width != 4 && width != 8 && width != 16) return p;
    }
    for (i = 0; i < sizeof scalars / sizeof scalars[0]; ++i)
        if (scalars[i].len == base && memcmp(t, scalars[i].name, base) == 0) {
            if (width > 1 && scalars[i].size == 0) return p; /* no size_t4 */
            p.kind = CLMEM__PARAM_SCALAR;
            p.size = (size_t)scalars[i].size * (width == 3 ? 4 : width);
            p.floating = scalars[i].floating;
            return p;
        }
    return p;
}

static const char *clmem__arg_kind_text(int kind) {
    switch (kind) {
    case CLMEM__ARG_KIND_BUFFER: return "a buffer";
    case CLMEM__ARG_KIND_MEM: return "a cl_mem";
    case CLMEM__ARG_KIND_LOCAL: return "local memory (a size, no value)";
    case CLMEM__ARG_KIND_SVM: return "an SVM pointer";
    case CLMEM__ARG_KIND_IMAGE: return "an image";
    case CLMEM__ARG_KIND_SAMPLER: return "a sampler";
    case CLMEM__ARG_KIND_PIPE: return "a pipe";
    default: return "a value";
    }
}

/* Reject argument `index` with code: "argument 2 ('n', declared __global float*) is
   given <what>: <why>". */
static cl_int clmem__arg_reject(cl_int code, cl_kernel kernel, cl_uint index, const char *declared, const char *space,
                                int kind, const char *value_type, size_t size, const char *why) {
    char name[64] = "?", given[96];
    if (kind == CLMEM__ARG_KIND_INT || kind == CLMEM__ARG_KIND_FLOAT)
        snprintf(given, sizeof given, "%s %s (%zu byte%s)", strchr("aeiou", value_type[0]) ? "an" : "a", value_type, size,
                 size == 1 ? "" : "s");
    else
        snprintf(given, sizeof given, "%s", clmem__arg_kind_text(kind));
#if defined(CL_VERSION_1_2)
    if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS)
        snprintf(name, sizeof name, "?");
    name[sizeof name - 1] = '\0';
#else
    (void)kernel;
#endif
    return clmem__fail(code, "clmem_set_kernel_arg", "argument at index %u ('%s', declared %s%s) is given %s: %s", index, name,
                       space, declared, given, why);
}

#endif

CLMEM_API cl_int clmem__check_kernel_arg(cl_kernel kernel, cl_uint index, int kind, size_t size, const void *value,
                                         const char *value_type) {
#if !defined(CL_VERSION_1_2) || defined(CLMEM_NO_KERNEL_ARG_CHECK)
    (void)kernel; (void)index; (void)kind; (void)size; (void)value; (void)value_type;
    return CL_SUCCESS;
#else
    const cl_kernel_arg_type_qualifier pipe_bit = (cl_kernel_arg_type_qualifier)1 << 3; /* CL_KERNEL_ARG_TYPE_PIPE */
    cl_kernel_arg_address_qualifier aq = 0;
    cl_kernel_arg_type_qualifier tq = 0;
    clmem__param_type p;
    char raw[128], type[128];
    const char *space = "";
    size_t i, j;
    if (!CLMEM__CHECKS || !kernel) return CL_SUCCESS;
    if (kind == CLMEM__ARG_KIND_LOCAL) { /* the common case in one query */
        if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) != CL_SUCCESS)
            return CL_SUCCESS;
        if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) return CL_SUCCESS;
    }
    /* not available (no -cl-kernel-arg-info), a bad index or kernel (the driver says
       so in clSetKernelArg), a name longer than the buffer: not checked */
    if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_NAME, sizeof raw - 1, raw, NULL) != CL_SUCCESS)
        return CL_SUCCESS;
    raw[sizeof raw - 1] = '\0';
    for (i = j = 0; raw[i]; ++i)
        if (raw[i] != ' ' && raw[i] != '\t') type[j++] = raw[i];
    type[j] = '\0';
    /* the common case: a value of exactly the declared type (value_type is its OpenCL
       name; C's long is not always OpenCL's) */
    if ((kind == CLMEM__ARG_KIND_INT || kind == CLMEM__ARG_KIND_FLOAT) && strcmp(type, value_type) == 0 &&
        ((type[0] != 'l' && type[0] != 'u') || (strcmp(type, "long") != 0 && strcmp(type, "ulong") != 0)))
        return CL_SUCCESS;
    p = clmem__param_classify(type);
    if (p.kind == CLMEM__PARAM_POINTER && kind != CLMEM__ARG_KIND_LOCAL &&
        clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) != CL_SUCCESS)
        return CL_SUCCESS;
    if (p.kind == CLMEM__PARAM_POINTER)
        space = aq == CL_KERNEL_ARG_ADDRESS_LOCAL      ? "__local "
                : aq == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "__constant "
                : aq == CL_KERNEL_ARG_ADDRESS_GLOBAL   ? "__global "
                                                       : "";
    /* a pipe is declared with its element type: "pipe int p" says "int" */
    if ((p.kind == CLMEM__PARAM_SCALAR || p.kind == CLMEM__PARAM_UNKNOWN) &&
        (kind == CLMEM__ARG_KIND_BUFFER || kind == CLMEM__ARG_KIND_MEM || kind == CLMEM__ARG_KIND_PIPE ||
         kind == CLMEM__ARG_KIND_IMAGE || kind == CLMEM__ARG_KIND_SVM) &&
        clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL) == CL_SUCCESS &&
        (tq & pipe_bit)) {
        if (kind == CLMEM__ARG_KIND_PIPE) return CL_SUCCESS;
        if (kind == CLMEM__ARG_KIND_MEM && value && *(const cl_mem *)value) {
            cl_mem_object_type mt = 0;
            if (clGetMemObjectInfo(*(const cl_mem *)value, CL_MEM_TYPE, sizeof mt, &mt, NULL) == CL_SUCCESS &&
                mt == 0x10F7 /* CL_MEM_OBJECT_PIPE */)
                return CL_SUCCESS;
        }
        return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, "pipe ", kind, value_type, size, "a pipe parameter needs a pipe");
    }

    switch (p.kind) {
    case CLMEM__PARAM_POINTER:
        if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) {
            return clmem__arg_reject(CL_INVALID_ARG_VALUE, kernel, index, type, space, kind, value_type, size,
                                     "a __local parameter takes local memory: clmem_local_memory(bytes)");
        }
        if (kind == CLMEM__ARG_KIND_BUFFER || kind == CLMEM__ARG_KIND_SVM) return CL_SUCCESS;
        if (kind == CLMEM__ARG_KIND_MEM) {
            cl_mem m = *(const cl_mem *)value;
            cl_mem_object_type mt = 0;
            if (!m) return CL_SUCCESS; /* a NULL buffer: OpenCL passes a NULL pointer */
            if (clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof mt, &mt, NULL) != CL_SUCCESS)
                return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                         "the cl_mem is not a valid memory object");
            if (mt == CL_MEM_OBJECT_BUFFER) return CL_SUCCESS;
            return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                     "the cl_mem is an image or a pipe, a pointer parameter needs a buffer");
        }
        return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                 kind == CLMEM__ARG_KIND_LOCAL
                                     ? "local memory fits only a __local pointer; this one needs a buffer or an SVM pointer"
                                     : "a pointer parameter needs a buffer or an SVM pointer (clmem_buffer, clmem_svm)");
    case CLMEM__PARAM_IMAGE:
        if (kind == CLMEM__ARG_KIND_IMAGE) return CL_SUCCESS;
        if (kind == CLMEM__ARG_KIND_MEM && *(const cl_mem *)value) {
            cl_mem_object_type mt = 0;
            if (clGetMemObjectInfo(*(const cl_mem *)value, CL_MEM_TYPE, sizeof mt, &mt, NULL) != CL_SUCCESS)
                return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                         "the cl_mem is not a valid memory object");
            if (mt != CL_MEM_OBJECT_BUFFER && mt != 0x10F7 /* pipe */) return CL_SUCCESS;
        }
        return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                 "an image parameter needs an image (clmem_image)");
    case CLMEM__PARAM_SAMPLER:
        if (kind == CLMEM__ARG_KIND_SAMPLER) return CL_SUCCESS;
        return clmem__arg_reject(CL_INVALID_SAMPLER, kernel, index, type, space, kind, value_type, size,
                                 "a sampler_t parameter needs a sampler (clmem_sampler)");
    case CLMEM__PARAM_SCALAR:
        if (kind != CLMEM__ARG_KIND_INT && kind != CLMEM__ARG_KIND_FLOAT)
            return clmem__arg_reject(CL_INVALID_ARG_VALUE, kernel, index, type, space, kind, value_type, size,
                                     "a scalar or vector parameter needs a value of its type");
        if (p.size && p.size != size) {
            char why[96];
            snprintf(why, sizeof why, "the parameter is %zu bytes; pass a value of its type", p.size);
            return clmem__arg_reject(CL_INVALID_ARG_SIZE, kernel, index, type, space, kind, value_type, size, why);
        }
        if (p.floating != 2 && (p.floating == 1) != (kind == CLMEM__ARG_KIND_FLOAT))
            return clmem__arg_reject(CL_INVALID_ARG_VALUE, kernel, index, type, space, kind, value_type, size,
                                     p.floating ? "the parameter is floating-point and the value an integer (its bits "
                                                  "would be read as a floating-point number)"
                                                : "the parameter is an integer and the value floating-point (its bits "
                                                  "would be read as an integer)");
        return CL_SUCCESS;
    default:
        return CL_SUCCESS;
    }
#endif
}

static cl_int clmem__set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value, const char *what) {
    cl_int err;
    if (CLMEM__CHECKS && !kernel) return clmem__fail(CL_INVALID_KERNEL, "clmem_set_kernel_arg", "kernel is NULL");
    err = clSetKernelArg(kernel, index, size, value);
    if (err != CL_SUCCESS)
        return clmem__fail(err, "clmem_set_kernel_arg", "clSetKernelArg(index %u, %s of %zu bytes) failed with %s", index,
                           what, size, clmem_error_string(err));
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem__set_arg_buffer(cl_kernel kernel, cl_uint index, clmem_buffer value) {
    cl_int err;
    if (CLMEM__CHECKS && (!value.mem || clmem__buffer_stale(value))) {
        char what[32];
        snprintf(what, sizeof what, "argument %u", index);
        return clmem__buffer_invalid("clmem_set_kernel_arg", what, value);
    }
    if (CLMEM__CHECKS && kernel &&
        (err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_BUFFER, sizeof value.mem, &value.mem, "clmem_buffer")) !=
            CL_SUCCESS)
        return err;
    return clmem__set_arg(kernel, index, sizeof value.mem, &value.mem, "a buffer");
}
CLMEM_API cl_int clmem__set_arg_mem(cl_kernel kernel, cl_uint index, cl_mem value) {
    cl_int err;
    if (CLMEM__CHECKS && kernel &&
        (err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_MEM, sizeof value, &value, "cl_mem")) != CL_SUCCESS)
        return err;
    return clmem__set_arg(kernel, index, sizeof value, &value, "a cl_mem");
}
CLMEM_API cl_int clmem__set_arg_local(cl_kernel kernel, cl_uint index, clmem_local_memory value) {
    cl_int err;
    if (CLMEM__CHECKS && value.size == 0)
        return clmem__fail(CL_INVALID_ARG_SIZE, "clmem_set_kernel_arg", "argument %u: local memory of 0 bytes", index);
    if (CLMEM__CHECKS && kernel &&
        (err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_LOCAL, value.size, NULL, "clmem_local_memory")) !=
            CL_SUCCESS)
        return err;
    return clmem__set_arg(kernel, index, value.size, NULL, "local memory");
}
/* The kind of a scalar or vector value from its clmem__set_arg_ name. */
static int clmem__arg_value_kind(const char *name) {
    return (name[0] == 'f' || name[0] == 'd') ? CLMEM__ARG_KIND_FLOAT : CLMEM__ARG_KIND_INT; /* float*, double* */
}
/* ... and its name as OpenCL C spells it (for messages and the exact-type shortcut) */
static const char *clmem__arg_value_name(const char *name) {
    if (name[0] == 's' && name[1] == 'c') return "signed char";                          /* schar */
    if (name[0] == 'l' && name[1] == 'l') return "long long";                            /* llong */
    if (name[0] == 'u' && name[1] == 'l' && name[2] == 'l') return "unsigned long long"; /* ullong */
    return name;
}
#define CLMEM__ARG_DEF(T, name)                                                                                 \
    CLMEM_API cl_int clmem__set_arg_##name(cl_kernel kernel, cl_uint index, T value) {                          \
        cl_int err;                                                                                             \
        if (CLMEM__CHECKS && kernel &&                                                                          \
            (err = clmem__check_kernel_arg(kernel, index, clmem__arg_value_kind(#name), sizeof value, &value,    \
                                           clmem__arg_value_name(#name))) != CL_SUCCESS)                        \
            return err;                                                                                         \
        return clmem__set_arg(kernel, index, sizeof value, &value, "a " #T);                                    \
    }
CLMEM__PATTERN_TYPES(CLMEM__ARG_DEF)
#undef CLMEM__ARG_DEF
CLMEM_API cl_int clmem__set_arg_unsupported(cl_kernel kernel, cl_uint index, ...) {
    (void)kernel;
    return clmem__fail(CL_INVALID_ARG_VALUE, "clmem_set_kernel_arg",
                       "argument %u: a pointer is not a kernel argument (wrap it: clmem_svm, clmem_buffer)", index);
}

/* ---- AMD peer-to-peer copies ---- */

typedef cl_int(CL_API_CALL *clmem__p2p_fn)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                                            const cl_event *, cl_event *);

CLMEM_API cl_int clmem_enqueue_copy_buffer_p2p_amd_opts(cl_platform_id platform, cl_command_queue queue, clmem_buffer src,
                                                        clmem_buffer dst, const clmem_copy_options *o) {
    static const char fn[] = "clmem_enqueue_copy_buffer_p2p_amd";
    clmem__p2p_fn p2p;
    cl_int err;
    size_t size;
    if (!o) o = &clmem__copy_defaults;
    if (CLMEM__CHECKS) {
        if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
        if ((err = clmem__check_made(fn, o->given)) != CL_SUCCESS) return err;
        if ((err = clmem__check_wait_list(fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS) return err;
        if ((err = clmem__buffer_invalid(fn, "src", src)) != CL_SUCCESS) return err;
        if ((err = clmem__buffer_invalid(fn, "dst", dst)) != CL_SUCCESS) return err;
        if (!platform) return clmem__fail(CL_INVALID_PLATFORM, fn, "platform is NULL");
        if (o->src_offset > src.size || o->dst_offset > dst.size)
            return clmem__fail(CL_INVALID_VALUE, fn, "src_offset %zu or dst_offset %zu is beyond its buffer", o->src_offset,
                               o->dst_offset);
    }
    size = o->byte_count;
    if (!(o->given & CLMEM_GIVEN_BYTE_COUNT) && !size) {
        size_t a = src.size - o->src_offset, b = dst.size - o->dst_offset;
        size = a < b ? a : b;
    }
    if (CLMEM__CHECKS && (!clmem__range_ok(o->src_offset, size, src.size) || !clmem__range_ok(o->dst_offset, size, dst.size)))
        return clmem__fail(CL_INVALID_VALUE, fn, "byte_count %zu at offsets %zu/%zu is beyond the buffers (%zu, %zu bytes)", size,
                           o->src_offset, o->dst_offset, src.size, dst.size);
    {
        void *addr = clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueCopyBufferP2PAMD");
        p2p = NULL;
        if (addr) memcpy(&p2p, &addr, sizeof p2p); /* ISO C has no object-to-function pointer cast */
    }
    if (!p2p)
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "the platform has no cl_amd_copy_buffer_p2p (clEnqueueCopyBufferP2PAMD is not available)");
    err = p2p(queue, src.mem, dst.mem, o->src_offset, o->dst_offset, size, o->num_wait_for, o->wait_for, o->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueCopyBufferP2PAMD");
}
