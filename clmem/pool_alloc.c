/* >>pool_alloc (implementation): the buffer and SVM allocators (PyOpenCL's AllocatorBase,
   SVMAllocator), what buffer and SVM pools take their blocks from */
#include "pool.h"
#include "buffer.h"

/* ---- reference counts (both kinds of allocator) ---- */

typedef struct clmem__refs {
    clmem__mutex lock;
    unsigned long n;
} clmem__refs;

static void clmem__refs_init(clmem__refs *r) {
    clmem__mutex_init(&r->lock);
    r->n = 1;
}
static void clmem__refs_add(clmem__refs *r) {
    clmem__lock(&r->lock);
    ++r->n;
    clmem__unlock(&r->lock);
}
/* drop one; true when it was the last (the lock is then destroyed) */
static bool clmem__refs_drop(clmem__refs *r) {
    unsigned long left;
    clmem__lock(&r->lock);
    left = --r->n;
    clmem__unlock(&r->lock);
    if (left) return false;
    clmem__mutex_destroy(&r->lock);
    return true;
}

/* ---- buffer allocators ---- */

struct clmem_allocator {
    clmem_allocator_ops ops;
    void *user;
    cl_context context;      /* what handed-out handles report */
    cl_mem_flags flags;
    cl_command_queue queue;  /* immediate allocator: retained */
    bool owns_context;       /* built-in allocators retain their context */
    clmem__refs refs;
};

static cl_int clmem__deferred_allocate(void *user, size_t size, cl_mem *mem) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    cl_int err = CL_SUCCESS;
    *mem = clCreateBuffer(a->context, a->flags, size, NULL, &err);
    return err;
}

/* Resident now, so that a lack of memory shows here: a blocking write of up to 4 zero
   bytes, on every device. Not PyOpenCL's clEnqueueMigrateMemObjects (1.2+): NVIDIA's
   driver 580 crashes when a migration is enqueued onto a queue while another thread
   enqueues onto it (bare calls, 4 threads: every run), and a pool calls this from
   whichever threads miss at once; concurrent writes are safe there. Blocking, because
   the block may next be written on another queue (another device of the context): a
   write still pending on the allocator's queue could land after that one and zero its
   first bytes (multidev_subdevices:pool_both_devices caught it). A miss costs a
   round trip more; a hit costs nothing. */
static cl_int clmem__immediate_allocate(void *user, size_t size, cl_mem *mem) {
    static const unsigned zero = 0;
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(a->context, a->flags, size, NULL, &err);
    if (err != CL_SUCCESS) return err;
    err = clEnqueueWriteBuffer(a->queue, m, CL_TRUE, 0, size < sizeof zero ? size : sizeof zero, &zero, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(m); /* PyOpenCL leaked it */
        return err;
    }
    *mem = m;
    return CL_SUCCESS;
}

static void clmem__cl_free(void *user, cl_mem mem) {
    (void)user;
    clReleaseMemObject(mem);
}

static clmem_allocator *clmem__allocator_new(const clmem_allocator_ops *ops, void *user, cl_context context,
                                             cl_mem_flags flags, cl_int *errcode_ret, const char *fn) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, clmem__alloc_for(sizeof *a, fn, "the allocator", errcode_ret));
    if (!a) return NULL;
    memset(a, 0, sizeof *a);
    a->ops = *ops;
    a->user = user ? user : a;
    a->context = context;
    a->flags = flags;
    clmem__refs_init(&a->refs);
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return a;
}

CLMEM_API clmem_allocator *clmem_allocator_create(const clmem_allocator_ops *ops, void *user, cl_context context,
                                                  cl_mem_flags flags, cl_int *errcode_ret) {
    static const char fn[] = "clmem_allocator_create";
    if (CLMEM__CHECKS && (ops == NULL || ops->allocate == NULL || ops->free == NULL)) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "%s", ops == NULL ? "ops is NULL"
                                                : ops->allocate == NULL ? "ops->allocate is NULL"
                                                                        : "ops->free is NULL"));
        return NULL;
    }
    return clmem__allocator_new(ops, user ? user : NULL, context, flags, errcode_ret, fn);
}

static cl_int clmem__check_allocator_flags(const char *fn, cl_mem_flags flags) {
    char text[160];
    if (CLMEM__CHECKS && (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "flags %s: an allocator cannot specify CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR "
                           "(it has no host memory to give)",
                           clmem__mem_flags_text(flags, text, sizeof text));
    return CL_SUCCESS;
}

/* clmem's own allocators over a context (deferred: queue NULL) or a queue's context
   (immediate), the context or queue already checked: flags checked, then (immediate)
   the queue's context; the allocator holds the context and the queue. */
static clmem_allocator *clmem__own_allocator_new(const char *fn, const clmem_allocator_ops *ops, cl_context context,
                                                 cl_command_queue queue, cl_mem_flags flags, cl_int *errcode_ret) {
    clmem_allocator *a;
    cl_int err;
    if ((err = clmem__check_allocator_flags(fn, flags)) != CL_SUCCESS ||
        (queue && (err = clmem__queue_context_of(fn, queue, &context)) != CL_SUCCESS))
        return CLMEM__CAST(clmem_allocator *, clmem__null_with(errcode_ret, err));
    a = clmem__allocator_new(ops, NULL, context, flags ? flags : CL_MEM_READ_WRITE, errcode_ret, fn);
    if (a) {
        clRetainContext(context);
        if (queue) clRetainCommandQueue(queue);
        a->owns_context = true;
        a->queue = queue;
    }
    return a;
}

CLMEM_API clmem_allocator *clmem_deferred_allocator_create(cl_context context, cl_mem_flags flags,
                                                           cl_int *errcode_ret) {
    static const char fn[] = "clmem_deferred_allocator_create";
    static const clmem_allocator_ops ops = {clmem__deferred_allocate, clmem__cl_free, NULL, NULL, true};
    if (CLMEM__CHECKS && context == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL"));
        return NULL;
    }
    return clmem__own_allocator_new(fn, &ops, context, NULL, flags, errcode_ret);
}

CLMEM_API clmem_allocator *clmem_immediate_allocator_create(cl_command_queue queue, cl_mem_flags flags,
                                                            cl_int *errcode_ret) {
    static const char fn[] = "clmem_immediate_allocator_create";
    static const clmem_allocator_ops ops = {clmem__immediate_allocate, clmem__cl_free, NULL, NULL, false};
    cl_int err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_allocator *, clmem__null_with(errcode_ret, err));
    return clmem__own_allocator_new(fn, &ops, NULL, queue, flags, errcode_ret);
}

CLMEM_API clmem_buffer clmem_allocator_allocate(clmem_allocator *alloc, size_t size, cl_int *errcode_ret) {
    static const char fn[] = "clmem_allocator_allocate";
    clmem_buffer b;
    cl_mem mem = NULL;
    cl_int err;
    memset(&b, 0, sizeof b);
    if (CLMEM__CHECKS && alloc == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "alloc is NULL"));
        return b;
    }
    if (size == 0) { /* PyOpenCL: None */
        clmem__set_err(errcode_ret, CL_SUCCESS);
        return b;
    }
    err = alloc->ops.allocate(alloc->user, size, &mem);
    if (clmem__is_oom(err)) { /* one more try after the release hook */
        if (alloc->ops.try_release_blocks) alloc->ops.try_release_blocks(alloc->user);
        mem = NULL;
        err = alloc->ops.allocate(alloc->user, size, &mem);
    }
    if (err != CL_SUCCESS) {
        clmem__set_err(errcode_ret, clmem__fail(err, fn, "allocating %zu bytes failed with %s (%d)", size,
                                                clmem_error_string(err), (int)err));
        return b;
    }
    if (mem == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                "the allocator succeeded for %zu bytes but returned no cl_mem", size));
        return b;
    }
    b.mem = mem;
    b.context = alloc->context;
    b.size = size;
    b.flags = alloc->flags;
    b.root = mem;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return b;
}

CLMEM_API bool clmem_allocator_is_deferred(const clmem_allocator *alloc) { return alloc && alloc->ops.is_deferred; }

CLMEM_API void clmem_allocator_retain(clmem_allocator *alloc) {
    if (alloc) clmem__refs_add(&alloc->refs);
}

CLMEM_API cl_int clmem_allocator_release(clmem_allocator *alloc) {
    if (!alloc || !clmem__refs_drop(&alloc->refs)) return CL_SUCCESS;
    if (alloc->ops.destroy) alloc->ops.destroy(alloc->user);
    if (alloc->queue) clReleaseCommandQueue(alloc->queue);
    if (alloc->owns_context) clReleaseContext(alloc->context);
    CLMEM_FREE(alloc);
    return CL_SUCCESS;
}

/* ---- SVM allocators ---- */

struct clmem_svm_allocator {
    cl_context context;      /* retained */
    cl_uint alignment;
    cl_svm_mem_flags flags;
    cl_command_queue queue;  /* retained, or NULL */
    clmem__refs refs;
};

CLMEM_API clmem_svm_allocator *clmem_svm_allocator_create(cl_context context, cl_uint alignment, cl_svm_mem_flags flags,
                                                          cl_command_queue queue, cl_int *errcode_ret) {
    static const char fn[] = "clmem_svm_allocator_create";
    clmem_svm_allocator *a;
    if (CLMEM__CHECKS && context == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL"));
        return NULL;
    }
#ifndef CL_VERSION_2_0
    (void)alignment; (void)flags; (void)queue; (void)a;
    clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_OPERATION, fn,
                                            "SVM needs OpenCL 2.0 headers (CL_TARGET_OPENCL_VERSION >= 200)"));
    return NULL;
#else
    {
        /* the SVM allocation's own checks, so that what an allocator accepts, every
           allocation from it accepts too */
        cl_int err = clmem__svm_check_args(fn, context, alignment, flags, queue);
        if (err == CL_SUCCESS && CLMEM__CHECKS) err = clmem__svm_check_devices(fn, context, 0, alignment, flags);
        if (err != CL_SUCCESS) return CLMEM__CAST(clmem_svm_allocator *, clmem__null_with(errcode_ret, err));
    }
    a = CLMEM__CAST(clmem_svm_allocator *, clmem__alloc_for(sizeof *a, fn, "the allocator", errcode_ret));
    if (!a) return NULL;
    a->context = context;
    a->alignment = alignment;
    a->flags = flags ? flags : CL_MEM_READ_WRITE;
    a->queue = queue;
    clmem__refs_init(&a->refs);
    clRetainContext(context);
    if (queue) clRetainCommandQueue(queue);
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return a;
#endif
}

CLMEM_API clmem_svm_allocation clmem_svm_allocator_allocate(clmem_svm_allocator *alloc, size_t size,
                                                            cl_int *errcode_ret) {
    clmem_svm_allocation a;
    memset(&a, 0, sizeof a);
    if (CLMEM__CHECKS && alloc == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, "clmem_svm_allocator_allocate", "alloc is NULL"));
        return a;
    }
    if (size == 0) {
        clmem__set_err(errcode_ret, CL_SUCCESS);
        return a;
    }
    return clmem_svm_allocation_create(alloc->context, size, alloc->alignment, alloc->flags, alloc->queue,
                                       errcode_ret);
}

CLMEM_API void clmem_svm_allocator_retain(clmem_svm_allocator *alloc) {
    if (alloc) clmem__refs_add(&alloc->refs);
}

CLMEM_API cl_int clmem_svm_allocator_release(clmem_svm_allocator *alloc) {
    if (!alloc || !clmem__refs_drop(&alloc->refs)) return CL_SUCCESS;
    if (alloc->queue) clReleaseCommandQueue(alloc->queue);
    clReleaseContext(alloc->context);
    CLMEM_FREE(alloc);
    return CL_SUCCESS;
}
