/* >>pool_svm (implementation): SVM pools (PyOpenCL's SVMPool and PooledSVM), the pool core
   with the SVM backend: blocks from a clmem_svm_allocator */
#include "pool.h"
#include "svm.h"

struct clmem_svm_pool { clmem__pool core; };

#if CLMEM__GNU && defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
CLMEM__STATIC_ASSERT(sizeof(clmem_pooled_svm) == 32 && offsetof(clmem_pooled_svm, svm.pool) == 16 &&
                         offsetof(clmem_pooled_svm, svm.generation) == 24,
                     "clmem_pooled_svm: ptr, size, pool, generation (clmem__pooled_svm_handle writes them so)");
#endif

/* ---- SVM pools ---- */

/* the SVM backend: blocks from clSVMAlloc with the allocator's flags and alignment;
   a block's free is enqueued behind the work on its queue */
static cl_int clmem__pool_svm_make(void *user, size_t size, void **ptr, void **mem) {
    (void)mem;
#ifdef CL_VERSION_2_0
    {
        clmem_svm_allocator *a = CLMEM__CAST(clmem_svm_allocator *, user);
        *ptr = clSVMAlloc(a->context, a->flags, size, a->alignment);
        return *ptr ? CL_SUCCESS : CL_MEM_OBJECT_ALLOCATION_FAILURE; /* PyOpenCL ignored a NULL */
    }
#else
    (void)user; (void)size; (void)ptr;
    return CL_INVALID_OPERATION;
#endif
}

static void clmem__pool_svm_free(void *user, clmem__pool_block *blk) {
#ifdef CL_VERSION_2_0
    cl_context ctx = CLMEM__CAST(clmem_svm_allocator *, user)->context;
    if (blk->queue) {
        /* after the work enqueued on its queue, the way SVM allocations are freed */
        cl_int err = clmem__svm_free_after(blk->queue, ctx, blk->ptr);
        if (err == CL_SUCCESS) {
            clFlush(blk->queue);
            return;
        }
        clmem__warn("clmem_svm_pool", "clEnqueueSVMFree failed with %s (%d); waiting for the queue instead",
                    clmem_error_string(err), (int)err);
        clFinish(blk->queue);
    }
    clSVMFree(ctx, blk->ptr);
#else
    (void)user; (void)blk;
#endif
}

static void clmem__pool_svm_destroy(void *user) { clmem_svm_allocator_release(CLMEM__CAST(clmem_svm_allocator *, user)); }

static const clmem__pool_backend clmem__pool_svm_backend = {clmem__pool_svm_make, clmem__pool_svm_free, NULL,
                                                            clmem__pool_svm_destroy, true};

/* the SVM allocator behind an SVM pool */
static clmem_svm_allocator *clmem__svm_pool_allocator(clmem_svm_pool *pool) {
    return CLMEM__CAST(clmem_svm_allocator *, pool->core.user);
}

CLMEM_API clmem_svm_pool *clmem_svm_pool_create(clmem_svm_allocator *allocator, unsigned leading_bits_in_bin_id,
                                                cl_int *errcode_ret) {
    clmem__pool *p = clmem__pool_over("clmem_svm_pool_create", allocator, allocator,
                                      allocator ? allocator->context : NULL, leading_bits_in_bin_id,
                                      &clmem__pool_svm_backend, errcode_ret);
    if (!p) return NULL;
    clmem_svm_allocator_retain(allocator);
    return CLMEM__CAST(clmem_svm_pool *, (void *)p);
}

static clmem_pooled_svm clmem__pooled_svm_empty(void) {
    clmem_pooled_svm r;
    memset(&r, 0, sizeof r);
    return r;
}

/* the handle of an SVM block just handed out: two 16-byte pairs where the layout
   allows (see clmem__pool_handle) */
static inline clmem_pooled_svm clmem__pooled_svm_handle(const clmem__pool_block *blk, size_t size) {
    clmem_pooled_svm r;
#if CLMEM__GNU && defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
    typedef uint64_t clmem__u64x2 __attribute__((vector_size(16)));
    const clmem__u64x2 v[2] = {{(uint64_t)(uintptr_t)blk->ptr, (uint64_t)size},
                               {(uint64_t)(uintptr_t)blk, blk->owner.gen}};
    memcpy(&r, v, sizeof v);
#else
    r.svm.ptr = blk->ptr;
    r.svm.size = size;
    r.svm.pool = clmem__unconst(blk);
    r.svm.generation = blk->owner.gen;
#endif
    return r;
}

/* always inlined, as the buffer pool's: the plain allocate is the fast path alone */
CLMEM__INLINE clmem_pooled_svm clmem__svm_pool_allocate(clmem_svm_pool *pool, size_t size, bool on_queue,
                                                        cl_command_queue queue, cl_int *errcode_ret, const char *fn,
                                                        const char *file, int line) {
    clmem__pool_block *blk = NULL;
    cl_int err;
    if (CLMEM__CHECKS && pool == NULL) {
        clmem__set_err(errcode_ret, clmem__pool_null(fn));
        return clmem__pooled_svm_empty();
    }
    if (on_queue) {
        if ((err = clmem__pool_check_queue(&pool->core, queue, fn)) != CL_SUCCESS ||
            (CLMEM__CHECKS && queue != clmem__svm_pool_allocator(pool)->queue &&
             (err = clmem__check_in_order(fn, queue, "pooled SVM is ordered by its queue")) != CL_SUCCESS)) {
            clmem__set_err(errcode_ret, err);
            return clmem__pooled_svm_empty();
        }
    } else {
        queue = clmem__svm_pool_allocator(pool)->queue;
    }
    err = clmem__pool_get(&pool->core, size, queue, fn, file, line, &blk);
    clmem__set_err(errcode_ret, err);
    if (err != CL_SUCCESS) return clmem__pooled_svm_empty();
    return clmem__pooled_svm_handle(blk, size);
}

CLMEM__POOL_ALLOCATE(svm_pool, clmem_pooled_svm, clmem__svm_pool_allocate)

CLMEM__POOL_COMMON(svm_pool)

static cl_int clmem__pooled_svm_release(clmem_pooled_svm *p, const char *fn) {
    if (!p || !p->svm.pool) return CL_SUCCESS;
    return clmem__pool_give_back(p, sizeof *p, p->svm.pool, p->svm.generation, p->svm.ptr, p->svm.size, NULL, false, fn);
}

CLMEM_API cl_int clmem_pooled_svm_release(clmem_pooled_svm *p) {
    return clmem__pooled_svm_release(p, "clmem_pooled_svm_release");
}

/* the block of a handle that must still be active */
static cl_int clmem__pooled_svm_check(clmem_pooled_svm p, const char *fn, clmem__pool_block **out) {
    if (!p.svm.pool) return clmem__fail(CL_INVALID_VALUE, fn, "the pooled SVM handle is empty");
    *out = clmem__pool_live(p.svm.pool, p.svm.generation);
    if (!*out)
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn, "pooled SVM block %p (%zu bytes) was already released",
                           p.svm.ptr, p.svm.size);
    return CL_SUCCESS;
}

static cl_int clmem__pooled_svm_bind(clmem_pooled_svm p, cl_command_queue queue, const char *fn) {
    clmem__pool_block *blk = NULL;
    cl_int err;
    if ((err = clmem__pooled_svm_check(p, fn, &blk)) != CL_SUCCESS) return err;
    if (queue == NULL) return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL");
    if (blk->queue == queue) return CL_SUCCESS;
    if ((err = clmem__pool_check_queue(blk->pool, queue, fn)) != CL_SUCCESS ||
        (err = clmem__check_in_order(fn, queue, "pooled SVM is ordered by its queue")) != CL_SUCCESS)
        return err;
    if ((err = clmem__queue_follow(fn, &blk->queue, queue, "clEnqueueMarkerWithWaitList",
                                   "clEnqueueMarkerWithWaitList")) != CL_SUCCESS)
        return err;
    blk->ooo = false;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pooled_svm_bind_to_queue(clmem_pooled_svm p, cl_command_queue queue) {
    return clmem__pooled_svm_bind(p, queue, "clmem_pooled_svm_bind_to_queue");
}

CLMEM_API cl_int clmem_pooled_svm_unbind_from_queue(clmem_pooled_svm p) {
    static const char fn[] = "clmem_pooled_svm_unbind_from_queue";
    clmem__pool_block *blk = NULL;
    cl_int err;
    if ((err = clmem__pooled_svm_check(p, fn, &blk)) != CL_SUCCESS) return err;
    return clmem__queue_unbind(fn, &blk->queue);
}

CLMEM_API cl_command_queue clmem_pooled_svm_queue(clmem_pooled_svm p) {
    clmem__pool_block *blk = clmem__pool_live(p.svm.pool, p.svm.generation);
    return blk ? blk->queue : NULL;
}

CLMEM_API clmem_svm_pool *clmem_pooled_svm_pool(clmem_pooled_svm p) {
    return CLMEM__CAST(clmem_svm_pool *, (void *)clmem__pool_of_live(p.svm.pool, p.svm.generation, &clmem__pool_svm_backend));
}

CLMEM_API cl_int clmem_pooled_svm_enqueue_release(clmem_pooled_svm *p, cl_command_queue queue) {
    static const char fn[] = "clmem_pooled_svm_enqueue_release";
    cl_int err;
    if (!p || !p->svm.pool) return CL_SUCCESS;
    if (queue && (err = clmem__pooled_svm_bind(*p, queue, fn)) != CL_SUCCESS) return err;
    return clmem__pooled_svm_release(p, fn);
}
