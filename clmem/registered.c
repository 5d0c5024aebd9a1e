/* >>registered (implementation): the table of live registrations and the registered
   copy. */
#include "registered.h"

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
    if (err == CL_SUCCESS) {
        rec->id = clmem__reg_add(&clmem__hostreg_ids, rec, CLMEM__HOSTREG_TAG);
        if (!rec->id) err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no host memory for the registration's id");
    }
    clmem__lock(&clmem__hostreg_lock);
    if (err == CL_SUCCESS) {
        rec->mem = reg.buffer.mem;
        CLMEM__HOSTREG_PUBLISH();
    } else {
        for (i = 0; i < clmem__hostreg_count; ++i)
            if (clmem__hostregs[i] == rec) clmem__hostregs[i] = clmem__hostregs[--clmem__hostreg_count];
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
    size_t i;
    cl_int err;
    if (!reg || (!reg->ptr && !reg->id && !reg->buffer.mem)) return CL_SUCCESS; /* nothing to release */
    rec = CLMEM__CAST(clmem__hostreg *, clmem__reg_find(&clmem__hostreg_ids, reg->id, CLMEM__HOSTREG_TAG, true));
    if (!rec)
        return clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                           "the registration of [%p, +%zu bytes) was released already (a second release, or a copy of "
                           "a released handle)",
                           reg->ptr, reg->size);
    clmem__lock(&clmem__hostreg_lock);
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

CLMEM_API bool clmem__registered_copy(const char *fn, cl_command_queue queue, clmem_buffer buf, size_t offset,
                                      size_t count, void *host, bool write, cl_bool blocking, const cl_event *wait_for,
                                      cl_uint num_wait_for, cl_event *event, cl_int *result) {
    cl_event ev[3] = {NULL, NULL, NULL}, *last = event ? event : (blocking ? &ev[2] : NULL);
    const char *call = "clEnqueueMapBuffer";
    size_t off = 0;
    cl_mem mem;
    void *p = NULL;
    cl_int err;
    if (!CLMEM__HOSTREG_ANY() || !(mem = clmem__hostreg_lookup(buf.context, host, count, &off)))
        return false;
    if (write) {
        /* The host memory holds the new bytes: map the range for writing with
           invalidation (no device-to-host copy), unmap (the implementation takes the
           host's bytes), then the DMA copy from the wrapping buffer. */
        p = clEnqueueMapBuffer(queue, mem, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, off, count, num_wait_for, wait_for,
                               &ev[0], &err);
        if (err == CL_SUCCESS && p != host) {
            /* The spec promises the host pointer for CL_MEM_USE_HOST_PTR; a driver
               that maps elsewhere gets the bytes copied in. */
            call = "clWaitForEvents";
            if ((err = clWaitForEvents(1, &ev[0])) == CL_SUCCESS) memcpy(p, host, count);
        }
        if (err == CL_SUCCESS) {
            call = "clEnqueueUnmapMemObject";
            err = clEnqueueUnmapMemObject(queue, mem, p, 1, &ev[0], &ev[1]);
        }
        if (err == CL_SUCCESS) {
            call = "clEnqueueCopyBuffer";
            err = clEnqueueCopyBuffer(queue, mem, buf.mem, off, offset, count, 1, &ev[1], last);
        }
    } else {
        /* The DMA copy into the wrapping buffer, then a map for reading (the host
           memory then holds the latest bytes) and its unmap. */
        call = "clEnqueueCopyBuffer";
        err = clEnqueueCopyBuffer(queue, buf.mem, mem, offset, off, count, num_wait_for, wait_for, &ev[0]);
        if (err == CL_SUCCESS) {
            call = "clEnqueueMapBuffer";
            p = clEnqueueMapBuffer(queue, mem, CL_FALSE, CL_MAP_READ, off, count, 1, &ev[0], &ev[1], &err);
        }
        if (err == CL_SUCCESS && p != host) { /* as above: a driver that maps elsewhere */
            call = "clWaitForEvents";
            if ((err = clWaitForEvents(1, &ev[1])) == CL_SUCCESS) memcpy(host, p, count);
        }
        if (err == CL_SUCCESS) {
            call = "clEnqueueUnmapMemObject";
            err = clEnqueueUnmapMemObject(queue, mem, p, 1, &ev[1], last);
        }
    }
    if (err == CL_SUCCESS && blocking) {
        call = "clWaitForEvents";
        err = clWaitForEvents(1, last);
    }
    if (ev[0]) clReleaseEvent(ev[0]);
    if (ev[1]) clReleaseEvent(ev[1]);
    if (ev[2]) clReleaseEvent(ev[2]);
    clReleaseMemObject(mem); /* the lookup's reference; the enqueued commands hold theirs */
    *result = err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, call);
    return true;
}
