/* >>transfer (implementation): buffer and host pairs. Image pairs are in
   transfer_image.c, SVM pairs in transfer_svm.c, raw cl_mem dispatch and fills in
   transfer_dispatch.c. */
#include "transfer.h"
#include "quirks.h"
#include "loader.h"

CLMEM__UNSET_TABLE(clmem_copy_options, CLMEM__COPY_UNSET)
/* the options a copy runs with (CLMEM__OPTIONS_IN): the caller's (those from
   CLMEM_COPY_OPTIONS_INIT read into *local), or the defaults for NULL */
static const clmem_copy_options *clmem__copy_opts_or_none(const clmem_copy_options *opts, clmem_copy_options *local) {
    return CLMEM__OPTIONS_IN(clmem_copy_options, opts, local);
}
/* clmem__copy_opts_made(fn, &opts, local): *opts as clmem__copy_opts_or_none makes
   it, then clmem__check_made on it (SVM, USM pairs; their wait list is checked with
   the destination, clmem__svm_check_enqueue, clmem__usm_check_enqueue) */
static cl_int clmem__copy_opts_made(const char *fn, const clmem_copy_options **opts, clmem_copy_options *local) {
    *opts = clmem__copy_opts_or_none(*opts, local);
    return clmem__check_made(fn, (*opts)->given);
}
#define CLMEM__COPY "clmem_enqueue_copy"

/* Host transfers block unless .is_blocking was written and is false (memobj.h). */
static cl_bool clmem__blocking(const clmem_copy_options *o) { return clmem__host_blocking(o->given, o->is_blocking); }
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

/* Checks every pair shares: queue, wait list (no event of it already failed), a live handle. */
static cl_int clmem__check_common(cl_command_queue queue, const clmem_copy_options *o) {
    cl_int err;
    if ((err = clmem__check_queue(CLMEM__COPY, queue)) != CL_SUCCESS) return err;
    if ((err = clmem__check_made(CLMEM__COPY, o->given)) != CL_SUCCESS) return err;
    return clmem__check_wait_list(CLMEM__COPY, o->wait_for, o->num_wait_for);
}
static cl_int clmem__check_buffer(const char *what, clmem_buffer b) {
    return CLMEM__CHECKS ? clmem__buffer_invalid(CLMEM__COPY, what, b) : CL_SUCCESS;
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

/* ---- buffer <- host, host <- buffer: the host-transfer plan ----

   Every host transfer resolves and checks its arguments here, once, and every
   refusal is worded here, in the name of the public function the caller called
   (plan.fn): clmem_enqueue_copy's buffer <-> host pairs (the inline hot path in
   transfer.h uses the same predicates, from memobj.h, and hands everything it does
   not pass to this path), clmem_stager_copy (stager.c: both its direct and its staged
   path), and the image <-> host pairs (transfer_image.c, through
   clmem__host_plan_side). Maps share the worded check of host access
   (clmem__host_access_check in memobj.c). The rules:
   - queue: not NULL; the object: a live handle (not empty, released or a stale copy
     of a pooled handle); the host pointer: not NULL;
   - host access: the object's HOST_* flags allow it (CL_INVALID_OPERATION);
   - wait list: well formed; no event of it has already failed, blocking or not
     (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST): clmem__check_wait_list, as every
     enqueue's;
   - context: the object's is the queue's;
   - linear (no .region): the offset is the buffer side's (.dst_offset of a write,
     .src_offset of a read; the host side's is refused: offset the pointer), within the
     buffer; .byte_count written means its value (0: nothing), left out everything
     after the offset; within the buffer and .host_size when given;
   - rectangular (.region): origins and pitches within the buffer and .host_size;
   - blocking: unless .is_blocking was written and is false;
   - live maps: a buffer mapped for writing draws a warning (clmem__map_note_use). */

/* clmem__host_plan_side(fn, queue, queue_ctx, what, ctx, flags, host, write, o,
   &blocking): the rules of every host transfer that do not depend on the kind of
   object: the host pointer, host access, wait list and blocking, context (ctx NULL:
   checked by the caller; queue_ctx: the queue's context when the caller knows it,
   else asked). */
static cl_int clmem__host_plan_side(const char *fn, cl_command_queue queue, cl_context queue_ctx, const char *what,
                                    cl_context ctx, cl_mem_flags flags, const void *host, bool write,
                                    const clmem_copy_options *o, cl_bool *blocking) {
    cl_int err;
    *blocking = clmem__blocking(o);
    if (!CLMEM__CHECKS) return CL_SUCCESS;
    if (!host) return clmem__fail(CL_INVALID_VALUE, fn, "the host pointer (%s) is NULL", write ? "src" : "dst");
    if ((err = clmem__host_access_check(fn, what, flags, write, "")) != CL_SUCCESS) return err;
    if ((err = clmem__check_wait_list(fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS) return err;
    if (!ctx || ctx == queue_ctx) return CL_SUCCESS;
    if (queue_ctx)
        return clmem__fail(CL_INVALID_CONTEXT, fn, "%s belongs to context %p but the queue to %p", what, (void *)ctx,
                           (void *)queue_ctx);
    /* One driver query on the full path: not every driver compares the contexts
       (Oclgrind 21.10 reads another context's buffer), and CL_INVALID_CONTEXT is
       documented. The inline hot path leaves it to the driver (see transfer.h). */
    return clmem__same_context(fn, queue, ctx, what);
}

/* clmem__host_plan_make(fn, queue, queue_ctx, buf, host, write, o, &p): resolve and
   check a buffer <-> host transfer (the rules above). */
static cl_int clmem__host_plan_make(const char *fn, cl_command_queue queue, cl_context queue_ctx, clmem_buffer buf,
                                    const void *host, bool write, const clmem_copy_options *o, clmem__host_plan *p) {
    const char *oname = write ? "dst_offset" : "src_offset";
    size_t host_offset = write ? o->src_offset : o->dst_offset;
    cl_int err;
    memset(p, 0, sizeof *p);
    p->fn = fn;
    p->what = write ? "dst" : "src";
    p->write = write;
    if (CLMEM__CHECKS) {
        if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
        if ((err = clmem__check_made(fn, o->given)) != CL_SUCCESS) return err;
        if ((err = clmem__buffer_invalid(fn, p->what, buf)) != CL_SUCCESS) return err;
        if ((err = clmem__buffer_queue_ok(fn, p->what, buf, queue)) != CL_SUCCESS) return err;
    }
    if ((err = clmem__host_plan_side(fn, queue, queue_ctx, p->what, buf.context, buf.flags, host, write, o,
                                     &p->blocking)) != CL_SUCCESS)
        return err;
    if ((o->given & CLMEM_GIVEN_REGION) || (o->region[0] | o->region[1] | o->region[2])) {
        p->rect = clmem__region(fn, (o->given & CLMEM_GIVEN_REGION) != 0, o->region, p->region, &err);
        if (err != CL_SUCCESS || p->region[0] == 0) return err; /* all zero: nothing to copy */
        if ((err = clmem__rect_make(fn, "buffer", o->buffer_origin, o->buffer_pitches, p->region, buf.size, &p->br)) !=
            CL_SUCCESS)
            return err;
        p->count = 1; /* something to copy */
        return clmem__rect_make(fn, "host", o->host_origin, o->host_pitches, p->region,
                                (o->given & CLMEM_GIVEN_HOST_SIZE) || o->host_size ? o->host_size : SIZE_MAX, &p->hr);
    }
    p->offset = write ? o->dst_offset : o->src_offset;
    if (CLMEM__CHECKS) {
        if (host_offset != 0)
            return clmem__fail(CL_INVALID_VALUE, fn,
                               "%s %zu does not apply: the host side has no offset (offset the pointer); the buffer's "
                               "offset is %s", write ? "src_offset" : "dst_offset", host_offset, oname);
        if (p->offset > buf.size)
            return clmem__fail(CL_INVALID_VALUE, fn, "%s %zu is beyond the buffer's %zu bytes", oname, p->offset, buf.size);
    }
    p->count = clmem__host_count(o->given, o->byte_count, buf.size, p->offset);
    if (CLMEM__CHECKS) {
        if (!clmem__range_ok(p->offset, p->count, buf.size))
            return clmem__fail(CL_INVALID_VALUE, fn, "%s %zu + byte_count %zu is beyond the buffer's %zu bytes", oname,
                               p->offset, p->count, buf.size);
        if (((o->given & CLMEM_GIVEN_HOST_SIZE) || o->host_size) && p->count > o->host_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "byte_count %zu is more than host_size %zu", p->count, o->host_size);
    }
    return CL_SUCCESS;
}

/* clmem__host_failed: a host transfer the driver refused; a context mismatch gets the
   same words as clmem's own checks. */
static cl_int clmem__host_failed(const char *fn, cl_int err, cl_command_queue queue, clmem_buffer buf, const char *call) {
    if (err == CL_INVALID_CONTEXT && clmem__same_context(fn, queue, buf.context, "the buffer") != CL_SUCCESS)
        return CL_INVALID_CONTEXT;
    return clmem__cl_fail(err, fn, call);
}

/* clmem__host_plan_run(queue, buf, host, &p, wait_for, n, event): enqueue a planned
   transfer (count 0: only the event, a marker, when one is asked for). */
static cl_int clmem__host_plan_run(cl_command_queue queue, clmem_buffer buf, void *host, const clmem__host_plan *p,
                                   const cl_event *wait_for, cl_uint n, cl_event *event) {
    const char *call;
    cl_int err = CL_SUCCESS; /* set by clmem__registered_buffer when it takes the transfer */
    if (p->count == 0) return clmem__nothing_to_do(p->fn, queue, wait_for, n, event);
    clmem__map_note_use(buf.mem, p->fn);
    {   /* registered host memory (registered.c) */
        clmem__registered_xfer x = {p->fn, queue, p->write, p->blocking, wait_for, n, event};
        if (clmem__registered_buffer(&x, buf, host, p->offset, p->count, p->rect ? p->region : NULL, p->br.origin,
                                     p->br.row, p->br.slice, p->hr.start, p->hr.end, p->hr.row, p->hr.slice, &err))
            return err;
    }
    if (p->rect) {
        if (clmem__quirk_rect_host(p->fn, queue, buf.mem, p->write, p->blocking, p->br.origin, p->hr.origin, p->region,
                                   p->br.row, p->br.slice, p->hr.row, p->hr.slice, host, wait_for, n, event, &err))
            return err; /* as rows: the driver drops host pitches (quirks.c) */
        call = p->write ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect";
        err = p->write ? clEnqueueWriteBufferRect(queue, buf.mem, p->blocking, p->br.origin, p->hr.origin, p->region,
                                                  p->br.row, p->br.slice, p->hr.row, p->hr.slice, host, n, wait_for, event)
                       : clEnqueueReadBufferRect(queue, buf.mem, p->blocking, p->br.origin, p->hr.origin, p->region,
                                                 p->br.row, p->br.slice, p->hr.row, p->hr.slice, host, n, wait_for, event);
    } else {
        call = p->write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
        err = p->write ? clEnqueueWriteBuffer(queue, buf.mem, p->blocking, p->offset, p->count, host, n, wait_for, event)
                       : clEnqueueReadBuffer(queue, buf.mem, p->blocking, p->offset, p->count, host, n, wait_for, event);
    }
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__host_failed(p->fn, err, queue, buf, call);
}

static cl_int clmem__host_transfer(cl_command_queue queue, clmem_buffer buf, void *host, bool write,
                                   const clmem_copy_options *o) {
    clmem__host_plan p;
    clmem_copy_options local;
    cl_int err;
    o = clmem__copy_opts_or_none(o, &local);
    if ((err = clmem__host_plan_make(CLMEM__COPY, queue, NULL, buf, host, write, o, &p)) != CL_SUCCESS) return err;
    return clmem__host_plan_run(queue, buf, host, &p, o->wait_for, o->num_wait_for, o->event);
}

/* For the inline hot path in transfer.h: a simple linear copy its quick checks did
   not pass goes the full way, which checks everything and words the refusal. */
CLMEM_API cl_int clmem__copy_host_linear(cl_command_queue queue, clmem_buffer buf, void *host, int write, unsigned given,
                                         size_t byte_count, size_t offset, size_t host_offset, int is_blocking,
                                         cl_event *event) {
    clmem_copy_options o;
    memset((void *)&o, 0, sizeof o); /* (void *): C++14 options have default member initializers */
    o.given = given;
    o.byte_count = byte_count;
    o.dst_offset = write ? offset : host_offset;
    o.src_offset = write ? host_offset : offset;
    o.is_blocking = is_blocking;
    o.event = event;
    return clmem__host_transfer(queue, buf, host, write != 0, &o);
}

/* For the inline hot path in transfer.h: a refusal by the driver, worded. */
CLMEM_API cl_int clmem__copy_host_failed(cl_int err, cl_command_queue queue, clmem_buffer buf, int write) {
    return clmem__host_failed(CLMEM__COPY, err, queue, buf, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
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

/* The byte count of a linear buffer <- buffer copy (.byte_count, or the smaller of what
   both sides hold after their offsets) and its checks: offsets, ranges, overlap within
   one buffer. Shared by clmem_enqueue_copy and clmem_device_link_copy. */
static cl_int clmem__buffer_pair_count(const char *fn, clmem_buffer dst, clmem_buffer src, const clmem_copy_options *o,
                                       size_t *out) {
    size_t count;
    if (CLMEM__CHECKS && (o->src_offset > src.size || o->dst_offset > dst.size))
        return clmem__fail(CL_INVALID_VALUE, fn, "src_offset %zu or dst_offset %zu is beyond its buffer (%zu, %zu bytes)",
                           o->src_offset, o->dst_offset, src.size, dst.size);
    count = o->byte_count;
    if (!(o->given & CLMEM_GIVEN_BYTE_COUNT) && !count) {
        size_t a = src.size - o->src_offset, b = dst.size - o->dst_offset;
        count = a < b ? a : b;
    }
    if (CLMEM__CHECKS) {
        if (!clmem__range_ok(o->src_offset, count, src.size))
            return clmem__fail(CL_INVALID_VALUE, fn, "src_offset %zu + byte_count %zu is beyond src's %zu bytes",
                               o->src_offset, count, src.size);
        if (!clmem__range_ok(o->dst_offset, count, dst.size))
            return clmem__fail(CL_INVALID_VALUE, fn, "dst_offset %zu + byte_count %zu is beyond dst's %zu bytes",
                               o->dst_offset, count, dst.size);
        if (src.root == dst.root && count) {
            size_t s = src.origin + o->src_offset, d = dst.origin + o->dst_offset;
            if (s < d + count && d < s + count)
                return clmem__fail(CL_MEM_COPY_OVERLAP, fn,
                                   "src bytes [%zu, %zu) and dst bytes [%zu, %zu) of the same buffer overlap", s, s + count,
                                   d, d + count);
        }
    }
    *out = count;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem__copy_buffer_from_buffer(cl_command_queue queue, clmem_buffer dst, clmem_buffer src,
                                                const clmem_copy_options *o) {
    size_t region[3], count = 0;
    bool rect;
    cl_int err;
    cl_event own = NULL;
    clmem_copy_options local;
    o = clmem__copy_opts_or_none(o, &local);
    if (CLMEM__CHECKS) {
        if ((err = clmem__check_common(queue, o)) != CL_SUCCESS) return err;
        if ((err = clmem__check_buffer("dst", dst)) != CL_SUCCESS || (err = clmem__check_buffer("src", src)) != CL_SUCCESS)
            return err;
        if ((err = clmem__buffer_queue_ok(CLMEM__COPY, "dst", dst, queue)) != CL_SUCCESS ||
            (err = clmem__buffer_queue_ok(CLMEM__COPY, "src", src, queue)) != CL_SUCCESS)
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
    if ((err = clmem__buffer_pair_count(CLMEM__COPY, dst, src, o, &count)) != CL_SUCCESS) return err;
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

/* ---- AMD peer-to-peer copies ---- */

typedef cl_int(CL_API_CALL *clmem__p2p_fn)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                                            const cl_event *, cl_event *);
typedef struct clmem__p2p_fns {
    clmem__p2p_fn copy;
} clmem__p2p_fns;
#define CLMEM__P2P_ENTRIES(X, T) X(T, copy, "clEnqueueCopyBufferP2PAMD", 1)
CLMEM__ENTRY_SET(clmem__p2p_set, clmem__p2p_fns, CLMEM__P2P_ENTRIES, "cl_amd_copy_buffer_p2p", NULL);

CLMEM_API cl_int clmem_enqueue_copy_buffer_p2p_amd_opts(cl_platform_id platform, cl_command_queue queue, clmem_buffer src,
                                                        clmem_buffer dst, const clmem_copy_options *o) {
    static const char fn[] = "clmem_enqueue_copy_buffer_p2p_amd";
    clmem__p2p_fn p2p;
    const void *found = NULL;
    cl_int err;
    size_t size;
    clmem_copy_options local;
    o = clmem__copy_opts_or_none(o, &local);
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
    if ((err = clmem__ext_of_platform(fn, platform, &clmem__p2p_set, &found)) != CL_SUCCESS) return err;
    p2p = CLMEM__CAST(const clmem__p2p_fns *, found)->copy;
    err = p2p(queue, src.mem, dst.mem, o->src_offset, o->dst_offset, size, o->num_wait_for, o->wait_for, o->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueCopyBufferP2PAMD");
}
