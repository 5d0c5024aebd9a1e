/* >>registered (implementation): the table of live registrations and the registered
   copy. */
#include "registered.h"
#include "quirks.h"

/* A live registration: its range, context, wrapping buffer and registry id. The table
   holds pointers to these, in no order (a program registers a handful of regions; the
   copy path scans them only while one is live). */
typedef struct clmem__hostreg {
    char *lo, *hi; /* [lo, hi) */
    cl_context context;
    cl_mem mem;
    uint64_t id;
} clmem__hostreg;

#define CLMEM__HOSTREG_TAG 1
static clmem__registry clmem__hostreg_ids = CLMEM__REGISTRY_INIT;
static clmem__mutex clmem__hostreg_lock = CLMEM__MUTEX_INIT;
static clmem__hostreg **clmem__hostregs;
static size_t clmem__hostreg_count, clmem__hostreg_capacity;
/* clmem__hostreg_live mirrors clmem__hostreg_count for the lock-free question of the
   copy path: with no registration it must cost nothing. */
#if defined(__GNUC__) || defined(__clang__)
static size_t clmem__hostreg_live;
#define CLMEM__HOSTREG_PUBLISH() __atomic_store_n(&clmem__hostreg_live, clmem__hostreg_count, __ATOMIC_RELAXED)
#define CLMEM__HOSTREG_ANY() (__atomic_load_n(&clmem__hostreg_live, __ATOMIC_RELAXED) != 0)
#else
#define CLMEM__HOSTREG_PUBLISH() ((void)0)
#define CLMEM__HOSTREG_ANY() 1
#endif

CLMEM_API int clmem__host_registrations_live(void) { return CLMEM__HOSTREG_ANY(); }

/* clmem__hostreg_unlist(rec): rec out of the table (clmem__hostreg_lock held); the
   table is freed when it empties */
static void clmem__hostreg_unlist(const clmem__hostreg *rec) {
    size_t i;
    for (i = 0; i < clmem__hostreg_count; ++i)
        if (clmem__hostregs[i] == rec) {
            clmem__hostregs[i] = clmem__hostregs[--clmem__hostreg_count];
            break;
        }
    CLMEM__HOSTREG_PUBLISH();
    if (clmem__hostreg_count == 0) {
        CLMEM_FREE(clmem__hostregs);
        clmem__hostregs = NULL;
        clmem__hostreg_capacity = 0;
    }
}

static const char clmem__hostreg_create_fn[] = "clmem_host_registration_create";

CLMEM_API clmem_host_registration clmem_host_registration_create(cl_context context, void *ptr, size_t size,
                                                                 cl_int *errcode_ret) {
    const char *fn = clmem__hostreg_create_fn;
    clmem_host_registration reg;
    clmem__hostreg *rec = NULL;
    cl_int err = CL_SUCCESS;
    size_t i;
    char *lo = CLMEM__CAST(char *, ptr);
    memset((void *)&reg, 0, sizeof reg);
    if (!context) {
        err = clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
        goto out;
    }
    if (!ptr) {
        err = clmem__fail(CL_INVALID_HOST_PTR, fn, "ptr is NULL");
        goto out;
    }
    if (size == 0) {
        err = clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size is 0 (ptr %p)", ptr);
        goto out;
    }
    if ((uintptr_t)lo + size < (uintptr_t)lo) {
        err = clmem__fail(CL_INVALID_VALUE, fn, "ptr %p + size %zu wraps around the address space", ptr, size);
        goto out;
    }
    rec = CLMEM__CAST(clmem__hostreg *, CLMEM_MALLOC(sizeof *rec));
    if (!rec) {
        err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no host memory for the registration's record");
        goto out;
    }
    rec->lo = lo;
    rec->hi = lo + size;
    rec->context = context;
    rec->mem = NULL;
    /* Claim the range first (under the lock), so that two threads registering
       overlapping ranges cannot both succeed; the buffer is made outside the lock. */
    clmem__lock(&clmem__hostreg_lock);
    for (i = 0; i < clmem__hostreg_count; ++i) {
        const clmem__hostreg *o = clmem__hostregs[i];
        if (o->lo < rec->hi && lo < o->hi) {
            err = clmem__fail(CL_INVALID_VALUE, fn,
                              "[%p, %p) (%zu bytes) overlaps the live registration [%p, %p) (%zu bytes, context %p): "
                              "release it first, or register the union once",
                              ptr, (void *)rec->hi, size, (void *)o->lo, (void *)o->hi, (size_t)(o->hi - o->lo),
                              (void *)o->context);
            break;
        }
    }
    if (err == CL_SUCCESS && clmem__hostreg_count == clmem__hostreg_capacity) {
        size_t cap = clmem__hostreg_capacity ? 2 * clmem__hostreg_capacity : 8;
        clmem__hostreg **t =
            CLMEM__CAST(clmem__hostreg **, CLMEM_REALLOC(clmem__hostregs, cap * sizeof *clmem__hostregs));
        if (!t)
            err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no host memory for the registration table");
        else {
            clmem__hostregs = t;
            clmem__hostreg_capacity = cap;
        }
    }
    if (err == CL_SUCCESS) clmem__hostregs[clmem__hostreg_count++] = rec; /* claimed; mem NULL: not found yet */
    clmem__unlock(&clmem__hostreg_lock);
    if (err != CL_SUCCESS) goto out;

    reg.buffer = clmem_buffer_create(context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, size, ptr, &err);
    if (err != CL_SUCCESS) { /* in this function's name, with the buffer's words */
        char why[sizeof clmem__message];
        snprintf(why, sizeof why, "%s", clmem_last_error_message());
        err = clmem__fail(err, fn, "the CL_MEM_USE_HOST_PTR buffer over [%p, +%zu bytes): %s", ptr, size, why);
    } else {
        rec->id = clmem__reg_add(&clmem__hostreg_ids, rec, CLMEM__HOSTREG_TAG);
        if (!rec->id) err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no host memory for the registration's id");
    }
    clmem__lock(&clmem__hostreg_lock);
    if (err == CL_SUCCESS) {
        rec->mem = reg.buffer.mem;
        CLMEM__HOSTREG_PUBLISH();
    } else {
        clmem__hostreg_unlist(rec);
    }
    clmem__unlock(&clmem__hostreg_lock);
    if (err != CL_SUCCESS) {
        if (reg.buffer.mem) clmem_buffer_release(&reg.buffer); /* keeps the message: release succeeds */
        goto out;
    }
    reg.ptr = ptr;
    reg.size = size;
    reg.context = context;
    reg.id = rec->id;
    rec = NULL;
out:
    if (rec) CLMEM_FREE(rec);
    if (err != CL_SUCCESS) memset((void *)&reg, 0, sizeof reg);
    if (errcode_ret) *errcode_ret = err;
    return reg;
}

CLMEM_API cl_int clmem_host_registration_release(clmem_host_registration *reg) {
    static const char fn[] = "clmem_host_registration_release";
    clmem__hostreg *rec;
    cl_int err;
    if (!reg || (!reg->ptr && !reg->id && !reg->buffer.mem)) return CL_SUCCESS; /* nothing to release */
    rec = CLMEM__CAST(clmem__hostreg *, clmem__reg_find(&clmem__hostreg_ids, reg->id, CLMEM__HOSTREG_TAG, true));
    if (!rec)
        return clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                           "the registration of [%p, +%zu bytes) was released already (a second release, or a copy of "
                           "a released handle)",
                           reg->ptr, reg->size);
    clmem__lock(&clmem__hostreg_lock);
    clmem__hostreg_unlist(rec);
    clmem__unlock(&clmem__hostreg_lock);
    clmem__reg_remove(&clmem__hostreg_ids, rec->id);
    err = clReleaseMemObject(rec->mem);
    CLMEM_FREE(rec);
    memset((void *)reg, 0, sizeof *reg);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clReleaseMemObject");
}

/* clmem__hostreg_lookup(ctx, host, count, &off): the wrapping buffer (retained: the
   caller releases it) of the live registration for ctx holding [host, host + count),
   and the offset of host in it; NULL when none. */
static cl_mem clmem__hostreg_lookup(cl_context ctx, const void *host, size_t count, size_t *off) {
    const char *lo = CLMEM__CAST(const char *, host);
    cl_mem mem = NULL;
    size_t i;
    clmem__lock(&clmem__hostreg_lock);
    for (i = 0; i < clmem__hostreg_count; ++i) {
        const clmem__hostreg *r = clmem__hostregs[i];
        if (r->mem && r->context == ctx && r->lo <= lo && lo < r->hi && count <= (size_t)(r->hi - lo)) {
            mem = r->mem;
            *off = (size_t)(lo - r->lo);
            clRetainMemObject(mem);
            break;
        }
    }
    clmem__unlock(&clmem__hostreg_lock);
    return mem;
}

CLMEM_API bool clmem_host_registered(cl_context context, const void *ptr, size_t size) {
    size_t off;
    cl_mem mem;
    if (!CLMEM__HOSTREG_ANY() || !ptr || !size) return false;
    mem = clmem__hostreg_lookup(context, ptr, size, &off);
    if (mem) clReleaseMemObject(mem);
    return mem != NULL;
}

/* The device-side copy of a registered transfer: from (write) or to the wrapping buffer
   at byte woff (the first host byte the transfer touches), waiting for n events, its
   event in *done; what it is depends on the pair. */
typedef struct clmem__registered_pair {
    const char *call; /* the OpenCL call, for messages */
    cl_int (*enqueue)(const struct clmem__registered_pair *pr, const clmem__registered_xfer *x, cl_mem wrapper,
                      size_t woff, cl_uint n, const cl_event *wait, cl_event *done);
    cl_mem obj;                 /* the buffer or image */
    size_t offset, count;       /* linear */
    const size_t *region;       /* rectangular and image: the region */
    const size_t *origin;       /* the buffer's or image's origin */
    size_t row, slice;          /* the buffer's pitches (rect) */
    size_t host_row, host_slice;
    bool gaps;                  /* the host range has bytes the copy does not write (rect) */
} clmem__registered_pair;

/* clmem__registered_run(x, ctx, first, span, pair, &result): the coherence around the pair's
   copy, for the host bytes [first, first + span). A write maps the range with
   CL_MAP_WRITE_INVALIDATE_REGION (the host memory holds the new bytes) and unmaps it
   before the copy; a read maps it with CL_MAP_READ after the copy (the host memory then
   holds the device's bytes) and unmaps it. A read whose range has bytes the copy does
   not write (a rectangle's gaps between rows) first does as a write does: the map for
   reading writes the whole range back, and those bytes must be the host's, not an
   older device copy's. The commands wait for each other by events; the caller's event
   is the last one's. */
/* clmem__registered_push: the host's bytes [host, host + span) into the device's view
   of the registration (a map with CL_MAP_WRITE_INVALIDATE_REGION and its unmap, after
   the n events of wait); *done is the unmap's event */
static cl_int clmem__registered_push(const clmem__registered_xfer *x, cl_mem mem, size_t off, size_t span,
                                     void *host, cl_uint n, const cl_event *wait, cl_event *done, const char **call) {
    cl_event mapped = NULL;
    cl_int err;
    void *p;
    *call = "clEnqueueMapBuffer";
    p = clEnqueueMapBuffer(x->queue, mem, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, off, span, n, wait, &mapped, &err);
    if (err == CL_SUCCESS && p != host) {
        /* The spec promises the host pointer for CL_MEM_USE_HOST_PTR; a driver
           that maps elsewhere gets the bytes copied in. */
        *call = "clWaitForEvents";
        if ((err = clWaitForEvents(1, &mapped)) == CL_SUCCESS) memcpy(p, host, span);
    }
    if (err == CL_SUCCESS) {
        *call = "clEnqueueUnmapMemObject";
        err = clEnqueueUnmapMemObject(x->queue, mem, p, 1, &mapped, done);
    }
    if (mapped) clReleaseEvent(mapped);
    return err;
}

static bool clmem__registered_run(const clmem__registered_xfer *x, cl_context ctx, const void *first, size_t span,
                                  const clmem__registered_pair *pr, cl_int *result) {
    cl_event ev[3] = {NULL, NULL, NULL}, *last = x->event ? x->event : (x->blocking ? &ev[2] : NULL);
    const char *call = "clEnqueueMapBuffer";
    void *host = clmem__unconst(first);
    size_t off = 0;
    cl_mem mem;
    void *p = NULL;
    cl_int err = CL_SUCCESS;
    if (!CLMEM__HOSTREG_ANY() || span == 0 || !(mem = clmem__hostreg_lookup(ctx, first, span, &off))) return false;
    if (clmem__quirk_queue(x->queue, CLMEM__QUIRK_HOST_PTR_SYNC)) { /* quirks.h: the driver's host transfers */
        clReleaseMemObject(mem);
        return false;
    }
    if (x->write) {
        err = clmem__registered_push(x, mem, off, span, host, x->num_wait_for, x->wait_for, &ev[1], &call);
        if (err == CL_SUCCESS) {
            call = pr->call;
            err = pr->enqueue(pr, x, mem, off, 1, &ev[1], last);
        }
    } else {
        cl_uint n = x->num_wait_for;
        const cl_event *wait = x->wait_for;
        if (pr->gaps) { /* the bytes the copy leaves must be the host's when the map writes them back */
            err = clmem__registered_push(x, mem, off, span, host, n, wait, &ev[1], &call);
            n = 1;
            wait = &ev[1];
        }
        if (err == CL_SUCCESS) {
            call = pr->call;
            err = pr->enqueue(pr, x, mem, off, n, wait, &ev[0]);
        }
        if (ev[1]) {
            clReleaseEvent(ev[1]);
            ev[1] = NULL;
        }
        if (err == CL_SUCCESS) {
            call = "clEnqueueMapBuffer";
            p = clEnqueueMapBuffer(x->queue, mem, CL_FALSE, CL_MAP_READ, off, span, 1, &ev[0], &ev[1], &err);
        }
        if (err == CL_SUCCESS && p != host) { /* as above: a driver that maps elsewhere */
            call = "clWaitForEvents";
            if ((err = clWaitForEvents(1, &ev[1])) == CL_SUCCESS) memcpy(host, p, span);
        }
        if (err == CL_SUCCESS) {
            call = "clEnqueueUnmapMemObject";
            err = clEnqueueUnmapMemObject(x->queue, mem, p, 1, &ev[1], last);
        }
    }
    if (err == CL_SUCCESS && x->blocking) {
        call = "clWaitForEvents";
        err = clWaitForEvents(1, last);
    }
    if (ev[0]) clReleaseEvent(ev[0]);
    if (ev[1]) clReleaseEvent(ev[1]);
    if (ev[2]) clReleaseEvent(ev[2]);
    clReleaseMemObject(mem); /* the lookup's reference; the enqueued commands hold theirs */
    *result = err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, x->fn, call);
    return true;
}

static cl_int clmem__registered_linear(const clmem__registered_pair *pr, const clmem__registered_xfer *x, cl_mem wrapper,
                                       size_t woff, cl_uint n, const cl_event *wait, cl_event *done) {
    return x->write ? clEnqueueCopyBuffer(x->queue, wrapper, pr->obj, woff, pr->offset, pr->count, n, wait, done)
                    : clEnqueueCopyBuffer(x->queue, pr->obj, wrapper, pr->offset, woff, pr->count, n, wait, done);
}

/* the host rectangle starts at linear byte woff of the wrapper: origin {woff, 0, 0}
   with the host's pitches addresses the same bytes as the host origin did */
static cl_int clmem__registered_rect(const clmem__registered_pair *pr, const clmem__registered_xfer *x, cl_mem wrapper,
                                     size_t woff, cl_uint n, const cl_event *wait, cl_event *done) {
    size_t w[3];
    w[0] = woff;
    w[1] = w[2] = 0;
    return x->write ? clEnqueueCopyBufferRect(x->queue, wrapper, pr->obj, w, pr->origin, pr->region, pr->host_row,
                                              pr->host_slice, pr->row, pr->slice, n, wait, done)
                    : clEnqueueCopyBufferRect(x->queue, pr->obj, wrapper, pr->origin, w, pr->region, pr->row,
                                              pr->slice, pr->host_row, pr->host_slice, n, wait, done);
}

static cl_int clmem__registered_img(const clmem__registered_pair *pr, const clmem__registered_xfer *x, cl_mem wrapper,
                                    size_t woff, cl_uint n, const cl_event *wait, cl_event *done) {
    return x->write ? clEnqueueCopyBufferToImage(x->queue, wrapper, pr->obj, woff, pr->origin, pr->region, n, wait, done)
                    : clEnqueueCopyImageToBuffer(x->queue, pr->obj, wrapper, pr->origin, pr->region, woff, n, wait, done);
}

CLMEM_API bool clmem__registered_buffer(const clmem__registered_xfer *x, clmem_buffer buf, void *host, size_t offset,
                                        size_t count, const size_t *region, const size_t buf_origin[3], size_t buf_row,
                                        size_t buf_slice, size_t host_start, size_t host_end, size_t host_row,
                                        size_t host_slice, cl_int *result) {
    clmem__registered_pair pr;
    if (!CLMEM__HOSTREG_ANY() || !host) return false; /* the copy path's question: one load */
    memset((void *)&pr, 0, sizeof pr);
    pr.obj = buf.mem;
    if (!region) {
        pr.call = "clEnqueueCopyBuffer";
        pr.enqueue = clmem__registered_linear;
        pr.offset = offset;
        pr.count = count;
        return clmem__registered_run(x, buf.context, host, count, &pr, result);
    }
    pr.call = "clEnqueueCopyBufferRect";
    pr.enqueue = clmem__registered_rect;
    pr.region = region;
    pr.origin = buf_origin;
    pr.row = buf_row;
    pr.slice = buf_slice;
    pr.host_row = host_row;
    pr.host_slice = host_slice;
    pr.gaps = host_end - host_start != region[0] * region[1] * region[2];
    return clmem__registered_run(x, buf.context, CLMEM__CAST(char *, host) + host_start, host_end - host_start, &pr,
                                 result);
}

CLMEM_API bool clmem__registered_image(const clmem__registered_xfer *x, clmem_image img, void *host,
                                       const size_t origin[3], const size_t region[3], size_t row, size_t slice,
                                       cl_int *result) {
    clmem__registered_pair pr;
    size_t packed_row, packed_slice, span;
    bool one_d_array = img.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    if (!CLMEM__HOSTREG_ANY() || !host) return false;
    /* clEnqueueCopyBufferToImage reads packed rows and slices (a 1-D array's rows are
       its slices); the checks before made these products safe */
    packed_row = region[0] * img.element_size;
    packed_slice = one_d_array ? packed_row : packed_row * region[1];
    if ((row && row != packed_row) || (slice && slice != packed_slice)) return false;
    span = one_d_array ? packed_slice * region[1] : packed_slice * region[2];
    memset((void *)&pr, 0, sizeof pr);
    if (img.type == CL_MEM_OBJECT_IMAGE1D_BUFFER && img.buffer) { /* through its buffer, as transfer_image.c does */
        pr.obj = img.buffer;
        pr.call = "clEnqueueCopyBuffer";
        pr.enqueue = clmem__registered_linear;
        pr.offset = origin[0] * img.element_size;
        pr.count = packed_row;
        return clmem__registered_run(x, img.context, host, packed_row, &pr, result);
    }
    pr.obj = img.mem;
    pr.call = x->write ? "clEnqueueCopyBufferToImage" : "clEnqueueCopyImageToBuffer";
    pr.enqueue = clmem__registered_img;
    pr.origin = origin;
    pr.region = region;
    return clmem__registered_run(x, img.context, host, span, &pr, result);
}
