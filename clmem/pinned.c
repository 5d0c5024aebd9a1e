/* >>pinned (implementation) */
#include "pinned.h"

#define CLMEM__PINNED_ACCESS (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)

/* ---- making and freeing pinned memory ---- */

static cl_int clmem__pinned_flags(const char *fn, cl_mem_flags flags, cl_mem_flags *out) {
    cl_mem_flags access = flags & CLMEM__PINNED_ACCESS;
    char text[200];
    if (CLMEM__CHECKS && (flags & ~(cl_mem_flags)(CLMEM__PINNED_ACCESS | CL_MEM_ALLOC_HOST_PTR)))
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "flags %s: pinned memory takes only the device's access (CL_MEM_READ_WRITE, "
                           "CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY) and CL_MEM_ALLOC_HOST_PTR; the host always "
                           "reads and writes it", clmem__mem_flags_text(flags, text, sizeof text));
    if (CLMEM__CHECKS && (access & (access - 1)))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s combine more than one of READ_WRITE, READ_ONLY, WRITE_ONLY",
                           clmem__mem_flags_text(flags, text, sizeof text));
    *out = (access ? access : CL_MEM_READ_WRITE) | CL_MEM_ALLOC_HOST_PTR;
    return CL_SUCCESS;
}

/* What a queue tells: its context, device and the device's allocation limit. */
static cl_int clmem__pinned_queue_facts(const char *fn, cl_command_queue queue, cl_context *ctx, cl_device_id *dev,
                                        cl_ulong *max_alloc) {
    cl_int err;
    if (queue == NULL) return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL");
    if ((err = clmem__queue_context_of(fn, queue, ctx)) != CL_SUCCESS ||
        (err = clmem__queue_device_of(fn, queue, dev)) != CL_SUCCESS)
        return err;
    if ((err = clmem__device_max_alloc(fn, *dev, max_alloc)) != CL_SUCCESS) return err;
    if (*max_alloc == 0) *max_alloc = (cl_ulong)SIZE_MAX; /* the driver states no limit */
    return CL_SUCCESS;
}

/* where and how pinned memory is made (a pinned pool's backend state) */
typedef struct clmem__pinned_facts {
    cl_command_queue queue; /* a pool's is retained: maps and unmaps the blocks */
    cl_context context;
    cl_mem_flags flags;
    cl_ulong max_alloc;
} clmem__pinned_facts;

/* clmem__pinned_facts_of(fn, queue, flags, &f, &dev): the facts of pinned memory on
   queue: the queue's (clmem__pinned_queue_facts), then the flags (clmem__pinned_flags) */
static cl_int clmem__pinned_facts_of(const char *fn, cl_command_queue queue, cl_mem_flags flags, clmem__pinned_facts *f,
                                     cl_device_id *dev) {
    cl_int err;
    f->queue = queue;
    f->context = NULL;
    f->flags = 0;
    if ((err = clmem__pinned_queue_facts(fn, queue, &f->context, dev, &f->max_alloc)) != CL_SUCCESS) return err;
    return clmem__pinned_flags(fn, flags, &f->flags);
}

/* clmem__staging_pays(fn, dev, &pays): whether copies through pinned memory pay on
   dev: not on a CPU device nor on one that shares the host's memory (both copy
   pageable memory as fast as pinned). A failed query is its code, named; but
   CL_DEVICE_HOST_UNIFIED_MEMORY is deprecated from OpenCL 2.0, and a driver that no
   longer knows it (CL_INVALID_VALUE) has said "not known to be unified". The one rule
   of the stager's and the device link's default thresholds. */
static cl_int clmem__staging_pays(const char *fn, cl_device_id dev, bool *pays) {
    cl_device_type type = 0;
    cl_bool unified = CL_FALSE;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    *pays = false;
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_TYPE");
    if (type & CL_DEVICE_TYPE_CPU) return CL_SUCCESS;
    err = clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    if (err != CL_SUCCESS && err != CL_INVALID_VALUE)
        return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_HOST_UNIFIED_MEMORY");
    *pays = err != CL_SUCCESS || !unified;
    return CL_SUCCESS;
}

/* A buffer of `flags` (ALLOC_HOST_PTR included) and `size` bytes, mapped for reading
   and writing; on failure the error code and, in *call, the OpenCL call that failed. */
static cl_int clmem__pinned_make(cl_command_queue queue, cl_context ctx, cl_mem_flags flags, size_t size, cl_mem *mem,
                                 void **ptr, const char **call) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, flags, size, NULL, &err);
    void *p;
    *call = "clCreateBuffer";
    if (err != CL_SUCCESS) return err;
    if (m == NULL) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    p = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &err);
    if (err == CL_SUCCESS && p == NULL) err = CL_MAP_FAILURE;
    if (err != CL_SUCCESS) {
        *call = "clEnqueueMapBuffer";
        clReleaseMemObject(m);
        return err;
    }
    *mem = m;
    *ptr = p;
    return CL_SUCCESS;
}

/* Unmap on `queue` after `after` (a queue whose work may still use the memory, or
   NULL), flushed, not waited for, and release; the unmap's code. */
static cl_int clmem__pinned_unmake_after(cl_command_queue queue, cl_mem mem, void *ptr, cl_command_queue after) {
    cl_event ev = NULL;
    cl_int err;
    if (after && after != queue && clEnqueueMarkerWithWaitList(after, 0, NULL, &ev) == CL_SUCCESS) clFlush(after);
    else if (after && after != queue) clFinish(after); /* no marker: wait here */
    err = clEnqueueUnmapMemObject(queue, mem, ptr, ev ? 1 : 0, ev ? &ev : NULL, NULL);
    if (ev) clReleaseEvent(ev);
    if (err == CL_SUCCESS) clFlush(queue);
    clReleaseMemObject(mem);
    return err;
}

/* Unmap (flushed, not waited for) and release; the unmap's code. */
static cl_int clmem__pinned_unmake(cl_command_queue queue, cl_mem mem, void *ptr) {
    return clmem__pinned_unmake_after(queue, mem, ptr, NULL);
}

/* ---- plain allocations ----
   A plain allocation's record is a pool record of no pool (clmem__pool_record_global):
   its handle carries the record and the hand-out's generation, as pooled handles do,
   so a release of a copy is recognised the same way. */

/* the handle of a record handed out (pooled or not) */
static clmem_pinned_allocation clmem__pinned_handle(const clmem__pool_block *blk, size_t size) {
    clmem_pinned_allocation a;
    a.ptr = blk->ptr;
    a.size = size;
    a.mem = CLMEM__CAST(cl_mem, blk->mem);
    a.pool = clmem__unconst(blk);
    a.generation = clmem__pool_generation(blk);
    return a;
}

CLMEM_API clmem_pinned_allocation clmem_pinned_allocation_create(cl_command_queue queue, size_t size,
                                                                 cl_mem_flags flags, cl_int *errcode_ret) {
    static const char fn[] = "clmem_pinned_allocation_create";
    clmem_pinned_allocation a;
    clmem__pool_block *blk;
    clmem__pinned_facts pf;
    cl_device_id dev = NULL;
    cl_mem mem = NULL;
    void *ptr = NULL;
    const char *call = "";
    cl_int err;
    memset(&a, 0, sizeof a);
    if ((err = clmem__pinned_facts_of(fn, queue, flags, &pf, &dev)) != CL_SUCCESS || size == 0) {
        clmem__set_err(errcode_ret, err);
        return a;
    }
    if (CLMEM__CHECKS && (err = clmem__check_max_alloc(fn, dev, "size", size, pf.max_alloc)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return a;
    }
    blk = clmem__pool_record_global();
    if (!blk) {
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a record"));
        return a;
    }
    err = clmem__pinned_make(queue, pf.context, pf.flags, size, &mem, &ptr, &call);
    if (err != CL_SUCCESS) {
        clmem__pool_record_unused(blk);
        clmem__set_err(errcode_ret, clmem__fail(err, fn, "%s of %zu pinned bytes failed with %s (%d)", call, size,
                                                clmem_error_string(err), (int)err));
        return a;
    }
    clRetainCommandQueue(queue);
    blk->queue = queue;
    blk->ptr = ptr;
    blk->mem = mem;
    blk->size = size;
    clmem__pool_record_hand_out(blk);
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return clmem__pinned_handle(blk, size);
}

/* a plain allocation's release, ordered after the work on `after` (NULL: none) */
static cl_int clmem__pinned_plain_release(clmem__pool_block *blk, uint64_t gen, cl_command_queue after,
                                          const void *ptr, const char *fn) {
    cl_int err;
    if (!clmem__pool_record_give_back(blk, gen))
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                           "pinned allocation %p was already released, through this handle or a copy", ptr);
    err = clmem__pinned_unmake_after(blk->queue, CLMEM__CAST(cl_mem, blk->mem), blk->ptr, after);
    clReleaseCommandQueue(blk->queue);
    clmem__pool_record_unused(blk);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueUnmapMemObject");
    return CL_SUCCESS;
}

/* release a (pooled or plain) allocation, ordered on `queue` (NULL: plain release) */
static cl_int clmem__pinned_release(clmem_pinned_allocation *a, cl_command_queue queue, const char *fn) {
    clmem__pool_block *blk;
    uint64_t gen;
    void *ptr;
    size_t size;
    bool ooo = false;
    cl_int err;
    if (!a || !a->pool) {
        if (a) memset(a, 0, sizeof *a);
        return CL_SUCCESS;
    }
    blk = CLMEM__CAST(clmem__pool_block *, a->pool);
    gen = a->generation;
    if (!clmem__pool_live(blk, gen)) /* nothing is done, the handle is left as it is */
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                           "pinned allocation %p (%zu bytes) was already released, through this handle or a copy",
                           a->ptr, a->size);
    if (queue) { /* refused before anything is released: a queue of the allocation's context */
        cl_context ctx = NULL;
        err = blk->pool ? clmem__pool_check_release_queue(blk, gen, queue, fn, &ooo)
                        : clmem__queue_context_of(fn, blk->queue, &ctx);
        if (err == CL_SUCCESS && !blk->pool) err = clmem__same_context(fn, queue, ctx, "the pinned allocation");
        if (err != CL_SUCCESS) return err;
    }
    ptr = a->ptr;
    size = a->size;
    a->ptr = NULL;
    a->size = 0;
    a->mem = NULL; /* the identity stays: a second release of this handle is recognised */
    if (!blk->pool) return clmem__pinned_plain_release(blk, gen, queue, ptr, fn);
    return clmem__pool_put(blk, gen, queue, ooo, ptr, size, fn);
}

CLMEM_API cl_int clmem_pinned_allocation_release(clmem_pinned_allocation *a) {
    return clmem__pinned_release(a, NULL, "clmem_pinned_allocation_release");
}

CLMEM_API cl_int clmem_pinned_allocation_enqueue_release(clmem_pinned_allocation *a, cl_command_queue queue) {
    static const char fn[] = "clmem_pinned_allocation_enqueue_release";
    if (CLMEM__CHECKS && a && a->pool && queue == NULL)
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL (a plain release is "
                                                         "clmem_pinned_allocation_release)");
    return clmem__pinned_release(a, queue, fn);
}

/* ---- pinned pools: the pool core with the pinned backend ---- */

struct clmem_pinned_pool { clmem__pool core; };

static cl_int clmem__pool_pinned_make(void *user, size_t size, void **ptr, void **mem) {
    const clmem__pinned_facts *f = CLMEM__CAST(const clmem__pinned_facts *, user);
    cl_mem m = NULL;
    const char *call = "";
    cl_int err = clmem__pinned_make(f->queue, f->context, f->flags, size, &m, ptr, &call);
    *mem = m;
    return err;
}

/* unmapped on the pool's queue, after the work on the queue it was released on */
static void clmem__pool_pinned_free(void *user, clmem__pool_block *blk) {
    const clmem__pinned_facts *f = CLMEM__CAST(const clmem__pinned_facts *, user);
    cl_int err = clmem__pinned_unmake_after(f->queue, CLMEM__CAST(cl_mem, blk->mem), blk->ptr,
                                            blk->pending ? blk->queue : NULL);
    if (err != CL_SUCCESS)
        clmem__warn("clmem_pinned_pool", "clEnqueueUnmapMemObject failed with %s (%d); the buffer was released",
                    clmem_error_string(err), (int)err);
}

/* the pool holds the queue and its copy of the facts (clmem__pool_with_facts) */
static const clmem__pool_backend clmem__pool_pinned_backend = {clmem__pool_pinned_make, clmem__pool_pinned_free,
                                                               NULL, NULL, false};

CLMEM_API clmem_pinned_pool *clmem_pinned_pool_create(cl_command_queue queue, cl_mem_flags flags,
                                                      unsigned leading_bits_in_bin_id, cl_int *errcode_ret) {
    static const char fn[] = "clmem_pinned_pool_create";
    clmem__pinned_facts f;
    clmem__pool *p;
    cl_device_id dev = NULL;
    cl_int err;
    if ((err = clmem__pinned_facts_of(fn, queue, flags, &f, &dev)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_pinned_pool *, clmem__null_with(errcode_ret, err));
    p = clmem__pool_with_facts(fn, leading_bits_in_bin_id, &clmem__pool_pinned_backend, &f, sizeof f, f.context,
                               queue, errcode_ret);
    if (p) p->flags = f.flags;
    return CLMEM__CAST(clmem_pinned_pool *, (void *)p);
}

/* a request whose block would be above the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE (a
   block is below twice its request: only a large request can pass the limit) */
CLMEM__INLINE cl_int clmem__pinned_pool_check(const clmem_pinned_pool *pool, size_t size, const char *fn) {
    const clmem__pinned_facts *f = CLMEM__CAST(const clmem__pinned_facts *, pool->core.user);
    size_t asz = (cl_ulong)size > f->max_alloc / 2 ? clmem_alloc_size(pool->core.L, clmem__bin_of(pool->core.L, size))
                                                   : size;
    if ((cl_ulong)asz <= f->max_alloc) return CL_SUCCESS;
    return clmem__fail(CL_INVALID_BUFFER_SIZE, fn,
                       "size %zu needs a block of %zu bytes, above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes) of the "
                       "pool's device", size, asz, (unsigned long long)f->max_alloc);
}

static inline clmem_pinned_allocation clmem__pinned_pool_handle(const clmem_pinned_pool *pool,
                                                                clmem__pool_block *blk, size_t size) {
    (void)pool;
    return clmem__pinned_handle(blk, size);
}

CLMEM__POOL_KIND_ALLOCATE(pinned_pool, clmem_pinned_allocation, clmem__pinned_pool_check, clmem__pinned_pool_handle)

CLMEM__POOL_COMMON(pinned_pool)
