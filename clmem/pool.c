/* >>pool (implementation) */

/* ---- bins (PyOpenCL's bin_number / alloc_size, mempool.hpp) ---- */

static unsigned clmem__bitlog2(size_t v) {
    unsigned l = 0;
#if defined(__GNUC__) || defined(__clang__)
    if (v) l = (unsigned)(sizeof(unsigned long long) * 8 - 1) - (unsigned)__builtin_clzll((unsigned long long)v);
#else
    while (v >>= 1) ++l;
#endif
    return l;
}

CLMEM_API uint32_t clmem_bin_number(unsigned leading_bits, size_t size) {
    unsigned L = leading_bits > CLMEM_POOL_MAX_LEADING_BITS ? CLMEM_POOL_MAX_LEADING_BITS : leading_bits;
    unsigned l;
    size_t shifted;
    if (size == 0) return 0;
    l = clmem__bitlog2(size);
    shifted = l >= L ? size >> (l - L) : size << (L - l); /* the top L+1 bits of size */
    CLMEM_ASSERT(shifted & ((size_t)1 << L));
    return ((uint32_t)l << L) | (uint32_t)(shifted & (((size_t)1 << L) - 1));
}

CLMEM_API size_t clmem_alloc_size(unsigned leading_bits, uint32_t bin) {
    unsigned L = leading_bits > CLMEM_POOL_MAX_LEADING_BITS ? CLMEM_POOL_MAX_LEADING_BITS : leading_bits;
    uint32_t e = bin >> L;
    size_t head = ((size_t)1 << L) | (size_t)(bin & ((1u << L) - 1));
    if (e >= sizeof(size_t) * 8) return SIZE_MAX; /* no such bin: no size reaches it */
    if (e < L) return head >> (L - e);
    return (head << (e - L)) | (((size_t)1 << (e - L)) - 1);
}

static bool clmem__is_oom(cl_int err) {
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY;
}

/* ---- buffer allocators ---- */

struct clmem_allocator {
    clmem_allocator_ops ops;
    void *user;
    cl_context context;      /* what handed-out handles report */
    cl_mem_flags flags;
    cl_command_queue queue;  /* immediate allocator: retained */
    bool owns_context;       /* built-in allocators retain their context */
    clmem__mutex lock;
    unsigned long refs;
};

static cl_int clmem__deferred_allocate(void *user, size_t size, cl_mem *mem) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    cl_int err = CL_SUCCESS;
    *mem = clCreateBuffer(a->context, a->flags, size, NULL, &err);
    return err;
}

static cl_int clmem__immediate_allocate(void *user, size_t size, cl_mem *mem) {
    static const unsigned zero = 0; /* static: PyOpenCL wrote from the stack, non-blocking */
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(a->context, a->flags, size, NULL, &err);
    if (err != CL_SUCCESS) return err;
    /* make the memory resident now, so that a lack of it shows here */
    if (clmem__device_version(clmem__queue_device(a->queue)) >= 120)
        err = clEnqueueMigrateMemObjects(a->queue, 1, &m, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL);
    else
        err = clEnqueueWriteBuffer(a->queue, m, CL_TRUE, 0, size < sizeof zero ? size : sizeof zero, &zero, 0, NULL,
                                   NULL);
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
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, CLMEM_MALLOC(sizeof *a));
    if (!a) {
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the allocator"));
        return NULL;
    }
    memset(a, 0, sizeof *a);
    a->ops = *ops;
    a->user = user ? user : a;
    a->context = context;
    a->flags = flags;
    a->refs = 1;
    clmem__mutex_init(&a->lock);
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

CLMEM_API clmem_allocator *clmem_deferred_allocator_create(cl_context context, cl_mem_flags flags,
                                                           cl_int *errcode_ret) {
    static const char fn[] = "clmem_deferred_allocator_create";
    clmem_allocator_ops ops = {clmem__deferred_allocate, clmem__cl_free, NULL, NULL, true};
    clmem_allocator *a;
    cl_int err;
    if (CLMEM__CHECKS && context == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL"));
        return NULL;
    }
    if ((err = clmem__check_allocator_flags(fn, flags)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return NULL;
    }
    a = clmem__allocator_new(&ops, NULL, context, flags ? flags : CL_MEM_READ_WRITE, errcode_ret, fn);
    if (a) {
        clRetainContext(context);
        a->owns_context = true;
    }
    return a;
}

CLMEM_API clmem_allocator *clmem_immediate_allocator_create(cl_command_queue queue, cl_mem_flags flags,
                                                            cl_int *errcode_ret) {
    static const char fn[] = "clmem_immediate_allocator_create";
    clmem_allocator_ops ops = {clmem__immediate_allocate, clmem__cl_free, NULL, NULL, false};
    clmem_allocator *a;
    cl_context ctx;
    cl_int err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return NULL;
    }
    if ((err = clmem__check_allocator_flags(fn, flags)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return NULL;
    }
    ctx = clmem__queue_context(queue);
    if (ctx == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is not a valid command queue",
                                                (void *)queue));
        return NULL;
    }
    a = clmem__allocator_new(&ops, NULL, ctx, flags ? flags : CL_MEM_READ_WRITE, errcode_ret, fn);
    if (a) {
        clRetainContext(ctx);
        clRetainCommandQueue(queue);
        a->owns_context = true;
        a->queue = queue;
    }
    return a;
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
    if (!alloc) return;
    clmem__lock(&alloc->lock);
    ++alloc->refs;
    clmem__unlock(&alloc->lock);
}

CLMEM_API cl_int clmem_allocator_release(clmem_allocator *alloc) {
    unsigned long left;
    if (!alloc) return CL_SUCCESS;
    clmem__lock(&alloc->lock);
    left = --alloc->refs;
    clmem__unlock(&alloc->lock);
    if (left) return CL_SUCCESS;
    if (alloc->ops.destroy) alloc->ops.destroy(alloc->user);
    if (alloc->queue) clReleaseCommandQueue(alloc->queue);
    if (alloc->owns_context) clReleaseContext(alloc->context);
    clmem__mutex_destroy(&alloc->lock);
    CLMEM_FREE(alloc);
    return CL_SUCCESS;
}

/* ---- SVM allocators ---- */

struct clmem_svm_allocator {
    cl_context context;      /* retained */
    cl_uint alignment;
    cl_svm_mem_flags flags;
    cl_command_queue queue;  /* retained, or NULL */
    clmem__mutex lock;
    unsigned long refs;
};

#if defined(CL_VERSION_2_0)
#define CLMEM__POOL_SVM 1
#else
#define CLMEM__POOL_SVM 0
#endif

CLMEM_API clmem_svm_allocator *clmem_svm_allocator_create(cl_context context, cl_uint alignment, cl_svm_mem_flags flags,
                                                          cl_command_queue queue, cl_int *errcode_ret) {
    static const char fn[] = "clmem_svm_allocator_create";
    clmem_svm_allocator *a;
    if (CLMEM__CHECKS && context == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL"));
        return NULL;
    }
#if !CLMEM__POOL_SVM
    (void)alignment; (void)flags; (void)queue; (void)a;
    clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_OPERATION, fn,
                                            "SVM needs OpenCL 2.0 headers (CL_TARGET_OPENCL_VERSION >= 200)"));
    return NULL;
#else
    if (CLMEM__CHECKS) {
        const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                                   CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
        cl_uint i, ndev = 0;
        cl_device_id *devs;
        bool svm = false;
        if (alignment & (alignment - 1)) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "alignment %u is not 0 or a power of two",
                                                    alignment));
            return NULL;
        }
        if (flags & ~known) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                    "flags 0x%llx has bits no cl_svm_mem_flags has (0x%llx)",
                                                    (unsigned long long)flags, (unsigned long long)(flags & ~known)));
            return NULL;
        }
        if (queue) {
            cl_command_queue_properties props = 0;
            cl_context qctx = clmem__queue_context(queue);
            if (qctx == NULL ||
                clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) != CL_SUCCESS) {
                clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_COMMAND_QUEUE, fn,
                                                        "queue %p is not a valid command queue", (void *)queue));
                return NULL;
            }
            if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
                clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_COMMAND_QUEUE, fn,
                                                        "queue %p is out-of-order; an SVM allocator needs an "
                                                        "in-order queue to order frees and reuse",
                                                        (void *)queue));
                return NULL;
            }
            if (qctx != context) {
                clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn,
                                                        "queue belongs to context %p, not to context %p",
                                                        (void *)qctx, (void *)context));
                return NULL;
            }
        }
        cl_device_svm_capabilities need = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
        cl_uint max_align = 0;
        if (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) need = CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
        if (flags & CL_MEM_SVM_ATOMICS) need |= CL_DEVICE_SVM_ATOMICS;
        devs = clmem__context_devices(context, &ndev);
        for (i = 0; i < ndev; ++i) {
            cl_device_svm_capabilities caps = 0;
            cl_uint al = 0;
            if (clGetDeviceInfo(devs[i], CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) == CL_SUCCESS &&
                (caps & need) == need)
                svm = true;
            if (clGetDeviceInfo(devs[i], CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof al, &al, NULL) == CL_SUCCESS &&
                (max_align == 0 || al < max_align))
                max_align = al;
        }
        CLMEM_FREE(devs);
        if (!svm) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_OPERATION, fn,
                                                    "no device of context %p has the SVM capabilities 0x%llx that "
                                                    "flags 0x%llx need", (void *)context,
                                                    (unsigned long long)need, (unsigned long long)flags));
            return NULL;
        }
        if (max_align && alignment > max_align) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                    "alignment %u is above CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE "
                                                    "(%u bytes) of the context's devices", alignment, max_align));
            return NULL;
        }
    }
    a = CLMEM__CAST(clmem_svm_allocator *, CLMEM_MALLOC(sizeof *a));
    if (!a) {
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the allocator"));
        return NULL;
    }
    a->context = context;
    a->alignment = alignment;
    a->flags = flags ? flags : CL_MEM_READ_WRITE;
    a->queue = queue;
    a->refs = 1;
    clmem__mutex_init(&a->lock);
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
    if (!alloc) return;
    clmem__lock(&alloc->lock);
    ++alloc->refs;
    clmem__unlock(&alloc->lock);
}

CLMEM_API cl_int clmem_svm_allocator_release(clmem_svm_allocator *alloc) {
    unsigned long left;
    if (!alloc) return CL_SUCCESS;
    clmem__lock(&alloc->lock);
    left = --alloc->refs;
    clmem__unlock(&alloc->lock);
    if (left) return CL_SUCCESS;
    if (alloc->queue) clReleaseCommandQueue(alloc->queue);
    clReleaseContext(alloc->context);
    clmem__mutex_destroy(&alloc->lock);
    CLMEM_FREE(alloc);
    return CL_SUCCESS;
}

/* ---- the pool core, shared by buffer and SVM pools ---- */

enum { CLMEM__BLOCK_ACTIVE = 1, CLMEM__BLOCK_HELD = 2, CLMEM__BLOCK_FREED = 3 };

typedef struct clmem__pool clmem__pool;

/* One block record. Records live as long as the pool (a stale handle still points
   at valid memory and is recognised); a record whose block was freed is reused. */
typedef struct clmem__pool_block {
    clmem__buffer_owner owner;            /* first: what clmem_buffer_release calls */
    clmem__pool *pool;
    struct clmem__pool_block *next;       /* in its bin's held list, or the spare list */
    struct clmem__pool_block *prev_active, *next_active;
    void *ptr;                            /* cl_mem or SVM pointer */
    cl_command_queue queue;               /* SVM: the queue it is bound to (retained) */
    size_t size;                          /* requested by the current holder */
    uint64_t gen;                         /* hand-outs so far (SVM handles carry it) */
    const char *file;
    int line;
    uint32_t bin;
    int state;
} clmem__pool_block;

/* The pool's lock guards a few pointer and counter updates and is never held across
   a driver call, an allocator call or a callback. Where the compiler has atomic
   builtins it is a spinlock that yields the processor when it has to wait (an
   uncontended pthread mutex pair costs as much as the rest of a pooled allocation);
   elsewhere it is a clmem__mutex. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(CLMEM_POOL_USE_MUTEX)
#include <sched.h>
typedef int clmem__pool_lock_t;
static void clmem__pool_lock_init(clmem__pool_lock_t *l) { __atomic_store_n(l, 0, __ATOMIC_RELAXED); }
static void clmem__pool_lock_destroy(clmem__pool_lock_t *l) { (void)l; }
static void clmem__pool_lock(clmem__pool_lock_t *l) {
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
        unsigned spins = 0;
        while (__atomic_load_n(l, __ATOMIC_RELAXED))
            if (++spins == 64) {
                spins = 0;
                sched_yield();
            }
    }
}
static void clmem__pool_unlock(clmem__pool_lock_t *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }
#else
typedef clmem__mutex clmem__pool_lock_t;
static void clmem__pool_lock_init(clmem__pool_lock_t *l) { clmem__mutex_init(l); }
static void clmem__pool_lock_destroy(clmem__pool_lock_t *l) { clmem__mutex_destroy(l); }
static void clmem__pool_lock(clmem__pool_lock_t *l) { clmem__lock(l); }
static void clmem__pool_unlock(clmem__pool_lock_t *l) { clmem__unlock(l); }
#endif

typedef struct clmem__pool_bin {
    clmem__pool_block *held;
    size_t nheld, nactive;
} clmem__pool_bin;

struct clmem__pool {
    clmem__pool_lock_t lock;
    unsigned L;
    bool is_svm;
    bool stop_holding;
    bool released;
    uint32_t nbins;
    clmem__pool_bin *bins;
    clmem__pool_block *spare;
    clmem__pool_block *active;            /* most recent first */
    clmem_pool_stats st;
    clmem_pool_oom_fn oom_fn;
    void *oom_user;
    clmem_allocator *alloc;
    clmem_svm_allocator *svm_alloc;
};

struct clmem_memory_pool { clmem__pool core; };
struct clmem_svm_pool { clmem__pool core; };

static cl_int clmem__pool_release_buffer(clmem_buffer *buf);

static void clmem__pool_peaks(clmem__pool *p) {
    if (p->st.managed_bytes > p->st.peak_managed_bytes) p->st.peak_managed_bytes = p->st.managed_bytes;
    if (p->st.active_bytes > p->st.peak_active_bytes) p->st.peak_active_bytes = p->st.active_bytes;
    if (p->st.active_blocks > p->st.peak_active_blocks) p->st.peak_active_blocks = p->st.active_blocks;
}

/* under the lock: a held block of `bin`, or NULL */
static clmem__pool_block *clmem__pool_pop(clmem__pool *p, uint32_t bin) {
    clmem__pool_bin *b = &p->bins[bin];
    clmem__pool_block *blk = b->held;
    if (!blk) return NULL;
    b->held = blk->next;
    --b->nheld;
    --p->st.held_blocks;
    blk->next = NULL;
    return blk;
}

/* under the lock: hand out blk for a request of `size` */
static void clmem__pool_activate(clmem__pool *p, clmem__pool_block *blk, size_t size, const char *file, int line,
                                 bool hit) {
    blk->state = CLMEM__BLOCK_ACTIVE;
    blk->size = size;
    ++blk->gen;
    blk->file = file;
    blk->line = line;
    blk->prev_active = NULL;
    blk->next_active = p->active;
    if (p->active) p->active->prev_active = blk;
    p->active = blk;
    ++p->bins[blk->bin].nactive;
    ++p->st.active_blocks;
    p->st.active_bytes += size;
    ++p->st.allocations;
    if (hit) ++p->st.hits;
    else ++p->st.misses;
    clmem__pool_peaks(p);
}

/* under the lock: take blk off the active list */
static void clmem__pool_deactivate(clmem__pool *p, clmem__pool_block *blk) {
    if (blk->prev_active) blk->prev_active->next_active = blk->next_active;
    else p->active = blk->next_active;
    if (blk->next_active) blk->next_active->prev_active = blk->prev_active;
    blk->prev_active = blk->next_active = NULL;
    --p->bins[blk->bin].nactive;
    --p->st.active_blocks;
    p->st.active_bytes -= blk->size;
}

/* under the lock: the held block of the highest non-empty bin, taken out of the
   accounting (managed bytes included); NULL when nothing is held */
static clmem__pool_block *clmem__pool_take_highest(clmem__pool *p) {
    uint32_t i;
    if (p->st.held_blocks == 0) return NULL;
    for (i = p->nbins; i-- > 0;) {
        if (p->bins[i].held) {
            clmem__pool_block *blk = clmem__pool_pop(p, i);
            p->st.managed_bytes -= clmem_alloc_size(p->L, i);
            ++p->st.allocator_frees;
            blk->state = CLMEM__BLOCK_FREED;
            return blk;
        }
    }
    return NULL;
}


/* without the lock: give a block's memory back to the allocator */
static void clmem__pool_backend_free(clmem__pool *p, clmem__pool_block *blk) {
    if (!p->is_svm) {
        p->alloc->ops.free(p->alloc->user, CLMEM__CAST(cl_mem, blk->ptr));
    } else {
#if CLMEM__POOL_SVM
        cl_context ctx = p->svm_alloc->context;
        if (blk->queue) {
            /* after the work enqueued on its queue, the way SVM allocations are freed */
            cl_int err = clmem__svm_free_after(blk->queue, ctx, blk->ptr);
            if (err == CL_SUCCESS) clFlush(blk->queue);
            if (err != CL_SUCCESS) {
                clmem__warn("clmem_svm_pool", "clEnqueueSVMFree failed with %s (%d); waiting for the queue instead",
                            clmem_error_string(err), (int)err);
                clFinish(blk->queue);
                clSVMFree(ctx, blk->ptr);
            }
            clReleaseCommandQueue(blk->queue);
            blk->queue = NULL;
        } else {
            clSVMFree(ctx, blk->ptr);
        }
#endif
    }
    blk->ptr = NULL;
}

/* under the lock: keep a record whose block was freed */
static void clmem__pool_spare(clmem__pool *p, clmem__pool_block *blk) {
    blk->state = CLMEM__BLOCK_FREED;
    blk->next = p->spare;
    p->spare = blk;
}

static void clmem__pool_destroy(clmem__pool *p) {
    clmem__pool_block *blk;
    CLMEM_ASSERT(p->st.active_blocks == 0 && p->st.held_blocks == 0);
    while ((blk = p->spare) != NULL) {
        p->spare = blk->next;
        CLMEM_FREE(blk);
    }
    CLMEM_FREE(p->bins);
    clmem__pool_lock_destroy(&p->lock);
    if (p->alloc) clmem_allocator_release(p->alloc);
    if (p->svm_alloc) clmem_svm_allocator_release(p->svm_alloc);
    CLMEM_FREE(p);
}

static clmem__pool *clmem__pool_new(const char *fn, unsigned L, size_t struct_size, cl_int *errcode_ret) {
    clmem__pool *p;
    if (CLMEM__CHECKS && L > CLMEM_POOL_MAX_LEADING_BITS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                "leading_bits_in_bin_id %u is above the maximum %d", L,
                                                CLMEM_POOL_MAX_LEADING_BITS));
        return NULL;
    }
    p = CLMEM__CAST(clmem__pool *, CLMEM_MALLOC(struct_size));
    if (p) {
        memset(p, 0, struct_size);
        p->L = L;
        p->nbins = (uint32_t)(sizeof(size_t) * 8) << L; /* bin numbers are below 64 << L */
        p->bins = CLMEM__CAST(clmem__pool_bin *, CLMEM_MALLOC(sizeof(clmem__pool_bin) * p->nbins));
        if (!p->bins) {
            CLMEM_FREE(p);
            p = NULL;
        } else {
            memset(p->bins, 0, sizeof(clmem__pool_bin) * p->nbins);
            clmem__pool_lock_init(&p->lock);
        }
    }
    if (!p) clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the pool"));
    else clmem__set_err(errcode_ret, CL_SUCCESS);
    return p;
}

/* without the lock: a fresh block's memory of asz bytes, within the limit */
static cl_int clmem__pool_fresh(clmem__pool *p, size_t asz, void **ptr, bool *limited, bool *null_ret) {
    cl_int err = CL_SUCCESS;
    *limited = false;
    *null_ret = false;
    clmem__pool_lock(&p->lock);
    if (p->st.limit && (asz > p->st.limit || p->st.managed_bytes > p->st.limit - asz)) {
        clmem__pool_unlock(&p->lock);
        *limited = true;
        return CLMEM_ERROR_LIMIT_EXCEEDED;
    }
    p->st.managed_bytes += asz; /* reserved now, so that threads cannot pass the limit together */
    clmem__pool_unlock(&p->lock);
    *ptr = NULL;
    if (!p->is_svm) {
        cl_mem m = NULL;
        err = p->alloc->ops.allocate(p->alloc->user, asz, &m);
        if (err == CL_SUCCESS && m == NULL) {
            err = CL_INVALID_VALUE;
            *null_ret = true;
        }
        *ptr = m;
    } else {
#if CLMEM__POOL_SVM
        *ptr = clSVMAlloc(p->svm_alloc->context, p->svm_alloc->flags, asz, p->svm_alloc->alignment);
        if (*ptr == NULL) err = CL_MEM_OBJECT_ALLOCATION_FAILURE; /* PyOpenCL ignored this */
#else
        err = CL_INVALID_OPERATION;
#endif
    }
    if (err != CL_SUCCESS) {
        clmem__pool_lock(&p->lock);
        p->st.managed_bytes -= asz;
        clmem__pool_unlock(&p->lock);
    }
    return err;
}

/* without the lock: an SVM block taken from a bin is made safe for the allocator's
   queue (PyOpenCL's hand_out_existing_block, with the marker event released) */
static cl_int clmem__pool_svm_handout(clmem__pool *p, clmem__pool_block *blk, const char *fn) {
#if CLMEM__POOL_SVM
    cl_command_queue q = p->svm_alloc->queue;
    cl_int err;
    if (q) {
        if (blk->queue && blk->queue != q) {
            cl_event ev = NULL;
            err = clEnqueueMarkerWithWaitList(blk->queue, 0, NULL, &ev);
            if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
            err = clEnqueueMarkerWithWaitList(q, 1, &ev, NULL);
            clReleaseEvent(ev);
            if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
        }
        if (blk->queue != q) {
            clRetainCommandQueue(q);
            if (blk->queue) clReleaseCommandQueue(blk->queue);
            blk->queue = q;
        }
    } else if (blk->queue) {
        err = clFinish(blk->queue);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clFinish");
        clReleaseCommandQueue(blk->queue);
        blk->queue = NULL;
    }
#else
    (void)p; (void)blk; (void)fn;
#endif
    return CL_SUCCESS;
}

/* return an active block to its pool (or to the allocator after stop_holding) */
static cl_int clmem__pool_put(clmem__pool_block *blk, const void *ptr, size_t size, uint64_t gen, const char *fn) {
    clmem__pool *p = blk->pool;
    bool destroy = false;
    clmem__pool_lock(&p->lock);
    if (blk->state != CLMEM__BLOCK_ACTIVE || blk->ptr != ptr || blk->size != size || (gen && blk->gen != gen)) {
        int state = blk->state;
        clmem__pool_unlock(&p->lock);
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                           "pooled block %p (%zu bytes) was already released to its pool (%s); "
                           "a copy of a released handle was released again",
                           ptr, size, state == CLMEM__BLOCK_HELD ? "it is held for reuse"
                                      : state == CLMEM__BLOCK_FREED ? "its memory was freed"
                                                                    : "it now belongs to another allocation");
    }
    clmem__pool_deactivate(p, blk);
    if (!p->stop_holding) {
        blk->state = CLMEM__BLOCK_HELD;
        blk->next = p->bins[blk->bin].held;
        p->bins[blk->bin].held = blk;
        ++p->bins[blk->bin].nheld;
        ++p->st.held_blocks;
        clmem__pool_unlock(&p->lock);
        return CL_SUCCESS;
    }
    blk->state = CLMEM__BLOCK_FREED;
    p->st.managed_bytes -= clmem_alloc_size(p->L, blk->bin);
    ++p->st.allocator_frees;
    clmem__pool_unlock(&p->lock);
    clmem__pool_backend_free(p, blk);
    clmem__pool_lock(&p->lock);
    clmem__pool_spare(p, blk);
    destroy = p->released && p->st.active_blocks == 0;
    clmem__pool_unlock(&p->lock);
    if (destroy) clmem__pool_destroy(p);
    return CL_SUCCESS;
}

/* the allocation algorithm of PyOpenCL's memory_pool::allocate, plus the limit and the
   out-of-memory callback */
static cl_int clmem__pool_get(clmem__pool *p, size_t size, const char *fn, const char *file, int line,
                              clmem__pool_block **out) {
    uint32_t bin = clmem_bin_number(p->L, size);
    size_t asz = clmem_alloc_size(p->L, bin);
    clmem__pool_block *blk;
    void *ptr = NULL;
    cl_int err;
    bool limited = false, hooked = false, counted = false, null_ret = false, reused;
    unsigned attempt = 0;

    clmem__pool_lock(&p->lock);
    blk = clmem__pool_pop(p, bin);
    if (blk) {
        clmem__pool_activate(p, blk, size, file, line, true);
        clmem__pool_unlock(&p->lock);
        goto handout;
    }
    clmem__pool_unlock(&p->lock);

    CLMEM_ASSERT(clmem_bin_number(p->L, asz) == bin && asz >= size);
    for (;;) {
        err = clmem__pool_fresh(p, asz, &ptr, &limited, &null_ret);
        if (err == CL_SUCCESS) break;
        if (!limited && !clmem__is_oom(err)) {
            if (null_ret)
                return clmem__fail(err, fn, "the allocator succeeded for %zu bytes but returned no memory", asz);
            return clmem__fail(err, fn, "allocating a block of %zu bytes (for %zu asked) failed with %s (%d)", asz,
                               size, clmem_error_string(err), (int)err);
        }
        clmem__pool_lock(&p->lock);
        if (!counted) ++p->st.oom_events;
        counted = true;
        clmem__pool_unlock(&p->lock);
        if (!hooked) { /* stage 1: the release hook (PyOpenCL: gc), then the bin again */
            hooked = true;
            if (!p->is_svm && p->alloc->ops.try_release_blocks) p->alloc->ops.try_release_blocks(p->alloc->user);
        }
        clmem__pool_lock(&p->lock);
        blk = clmem__pool_pop(p, bin);
        if (blk) {
            clmem__pool_activate(p, blk, size, file, line, true);
            clmem__pool_unlock(&p->lock);
            goto handout;
        }
        blk = clmem__pool_take_highest(p); /* stage 2: free one held block, largest bin first */
        clmem__pool_unlock(&p->lock);
        if (blk) {
            clmem__pool_backend_free(p, blk);
            clmem__pool_lock(&p->lock);
            clmem__pool_spare(p, blk);
            clmem__pool_unlock(&p->lock);
            continue;
        }
        if (p->oom_fn && p->oom_fn(asz, ++attempt, p->oom_user)) continue; /* stage 3: the callback */
        if (limited) {
            size_t managed, limit;
            clmem__pool_lock(&p->lock);
            managed = p->st.managed_bytes;
            limit = p->st.limit;
            clmem__pool_unlock(&p->lock);
            return clmem__fail(CLMEM_ERROR_LIMIT_EXCEEDED, fn,
                               "a block of %zu bytes (for %zu asked) would take managed bytes from %zu past the "
                               "pool's limit of %zu bytes, and no held block is left to free",
                               asz, size, managed, limit);
        }
        return clmem__fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, fn,
                           "failed to free memory for an allocation of %zu bytes (block of %zu): the allocator "
                           "reported %s (%d) and no held block is left to free",
                           size, asz, clmem_error_string(err), (int)err);
    }

    clmem__pool_lock(&p->lock);
    blk = p->spare;
    if (blk) p->spare = blk->next;
    clmem__pool_unlock(&p->lock);
    reused = blk != NULL;
    if (!blk) blk = CLMEM__CAST(clmem__pool_block *, CLMEM_MALLOC(sizeof *blk));
    if (!blk) {
        clmem__pool_block tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.ptr = ptr;
#if CLMEM__POOL_SVM
        if (p->is_svm && p->svm_alloc->queue) { /* a fresh block is not in use on any queue */
            clSVMFree(p->svm_alloc->context, ptr);
            tmp.ptr = NULL;
        }
#endif
        if (tmp.ptr) clmem__pool_backend_free(p, &tmp);
        clmem__pool_lock(&p->lock);
        p->st.managed_bytes -= asz;
        clmem__pool_unlock(&p->lock);
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a block record");
    }
    {
        uint64_t gen = reused ? blk->gen : 0; /* a reused record keeps counting */
        memset(blk, 0, sizeof *blk);
        blk->gen = gen;
    }
    blk->owner.release = clmem__pool_release_buffer;
    blk->pool = p;
    blk->ptr = ptr;
    blk->bin = bin;
#if CLMEM__POOL_SVM
    if (p->is_svm && p->svm_alloc->queue) {
        clRetainCommandQueue(p->svm_alloc->queue);
        blk->queue = p->svm_alloc->queue;
    }
#endif
    clmem__pool_lock(&p->lock);
    clmem__pool_activate(p, blk, size, file, line, false);
    clmem__pool_unlock(&p->lock);
    *out = blk;
    return CL_SUCCESS;

handout:
    if (p->is_svm && (err = clmem__pool_svm_handout(p, blk, fn)) != CL_SUCCESS) {
        clmem__pool_put(blk, blk->ptr, size, 0, fn);
        return err;
    }
    *out = blk;
    return CL_SUCCESS;
}

static cl_int clmem__pool_free_held(clmem__pool *p) {
    /* lowest bin first, as PyOpenCL; take the lot under the lock, free outside */
    clmem__pool_block *list = NULL, *tail = NULL, *blk;
    uint32_t i;
    clmem__pool_lock(&p->lock);
    for (i = 0; i < p->nbins && p->st.held_blocks; ++i) {
        while ((blk = clmem__pool_pop(p, i)) != NULL) {
            p->st.managed_bytes -= clmem_alloc_size(p->L, i);
            ++p->st.allocator_frees;
            blk->state = CLMEM__BLOCK_FREED;
            if (tail) tail->next = blk;
            else list = blk;
            tail = blk;
        }
    }
    clmem__pool_unlock(&p->lock);
    while ((blk = list) != NULL) {
        list = blk->next;
        clmem__pool_backend_free(p, blk);
        clmem__pool_lock(&p->lock);
        clmem__pool_spare(p, blk);
        clmem__pool_unlock(&p->lock);
    }
    return CL_SUCCESS;
}

static void clmem__pool_stats(clmem__pool *p, clmem_pool_stats *s) {
    uint32_t i;
    clmem__pool_lock(&p->lock);
    *s = p->st;
    s->nonempty_bins = 0;
    for (i = 0; i < p->nbins; ++i)
        if (p->bins[i].nheld || p->bins[i].nactive) ++s->nonempty_bins;
    clmem__pool_unlock(&p->lock);
}

static cl_int clmem__pool_bins(clmem__pool *p, clmem_pool_bin_info *out, size_t capacity, size_t *count) {
    uint32_t i;
    size_t n = 0;
    clmem__pool_lock(&p->lock);
    for (i = 0; i < p->nbins; ++i) {
        if (!p->bins[i].nheld && !p->bins[i].nactive) continue;
        if (out && n < capacity) {
            out[n].bin = i;
            out[n].alloc_size = clmem_alloc_size(p->L, i);
            out[n].held = p->bins[i].nheld;
            out[n].active = p->bins[i].nactive;
        }
        ++n;
    }
    clmem__pool_unlock(&p->lock);
    *count = n;
    return CL_SUCCESS;
}

static cl_int clmem__pool_active_info(clmem__pool *p, clmem_pool_block_info *out, size_t capacity, size_t *count) {
    clmem__pool_block *blk;
    size_t n = 0;
    clmem__pool_lock(&p->lock);
    for (blk = p->active; blk; blk = blk->next_active, ++n) {
        if (out && n < capacity) {
            out[n].ptr = blk->ptr;
            out[n].size = blk->size;
            out[n].alloc_size = clmem_alloc_size(p->L, blk->bin);
            out[n].file = blk->file;
            out[n].line = blk->line;
        }
    }
    clmem__pool_unlock(&p->lock);
    *count = n;
    return CL_SUCCESS;
}

static cl_int clmem__pool_release(clmem__pool *p, const char *fn) {
    size_t active;
    clmem__pool_lock(&p->lock);
    p->released = true;
    p->stop_holding = true;
    clmem__pool_unlock(&p->lock);
    clmem__pool_free_held(p);
    clmem__pool_lock(&p->lock);
    active = p->st.active_blocks;
#if defined(CLMEM_TRACK_ALLOCATIONS)
    {
        clmem__pool_block *blk;
        for (blk = p->active; blk; blk = blk->next_active)
            clmem__warn(fn, "block %p of %zu bytes (%zu allocated) is still active; allocated at %s:%d", blk->ptr,
                        blk->size, clmem_alloc_size(p->L, blk->bin), blk->file ? blk->file : "(unknown)", blk->line);
    }
#else
    (void)fn;
#endif
    clmem__pool_unlock(&p->lock);
    if (active == 0) clmem__pool_destroy(p);
    return CL_SUCCESS;
}

static cl_int clmem__pool_null(const char *fn) { return clmem__fail(CL_INVALID_VALUE, fn, "pool is NULL"); }

/* ---- buffer pools ---- */

static cl_int clmem__pool_release_buffer(clmem_buffer *buf) {
    clmem__pool_block *blk = CLMEM__CAST(clmem__pool_block *, buf->pool);
    const void *mem = buf->mem;
    size_t size = buf->size;
    memset(buf, 0, sizeof *buf);
    return clmem__pool_put(blk, mem, size, 0, "clmem_buffer_release");
}

CLMEM_API clmem_memory_pool *clmem_memory_pool_create(clmem_allocator *allocator, unsigned leading_bits_in_bin_id,
                                                      cl_int *errcode_ret) {
    static const char fn[] = "clmem_memory_pool_create";
    clmem__pool *p;
    if (CLMEM__CHECKS && allocator == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "allocator is NULL"));
        return NULL;
    }
    p = clmem__pool_new(fn, leading_bits_in_bin_id, sizeof(clmem_memory_pool), errcode_ret);
    if (!p) return NULL;
    clmem_allocator_retain(allocator);
    p->alloc = allocator;
    if (allocator->ops.is_deferred)
        clmem__warn(fn, "memory pools expect non-deferred allocators: a deferred allocator may report out-of-memory "
                        "only at first use, where the pool cannot free held blocks and retry "
                        "(use clmem_immediate_allocator_create)");
    return CLMEM__CAST(clmem_memory_pool *, (void *)p);
}

CLMEM_API clmem_buffer clmem_memory_pool_allocate_at(clmem_memory_pool *pool, size_t size, cl_int *errcode_ret,
                                                     const char *file, int line) {
    static const char fn[] = "clmem_memory_pool_allocate";
    clmem__pool *p;
    clmem__pool_block *blk = NULL;
    clmem_buffer b;
    cl_int err;
    memset(&b, 0, sizeof b);
    if (CLMEM__CHECKS && pool == NULL) {
        clmem__set_err(errcode_ret, clmem__pool_null(fn));
        return b;
    }
    p = &pool->core;
    err = clmem__pool_get(p, size, fn, file, line, &blk);
    clmem__set_err(errcode_ret, err);
    if (err != CL_SUCCESS) return b;
    b.mem = CLMEM__CAST(cl_mem, blk->ptr);
    b.context = p->alloc->context;
    b.size = size;
    b.flags = p->alloc->flags;
    b.root = b.mem;
    b.origin = 0;
    b.pool = blk;
    return b;
}

CLMEM_API clmem_buffer(clmem_memory_pool_allocate)(clmem_memory_pool *pool, size_t size, cl_int *errcode_ret) {
    return clmem_memory_pool_allocate_at(pool, size, errcode_ret, NULL, 0);
}

#define CLMEM__POOL_GETTER(kind, name, expr)                  \
    CLMEM_API size_t clmem_##kind##_##name(clmem_##kind *pool) { \
        size_t v;                                                \
        if (!pool) return 0;                                     \
        clmem__pool_lock(&pool->core.lock);                           \
        v = (expr);                                              \
        clmem__pool_unlock(&pool->core.lock);                         \
        return v;                                                \
    }
CLMEM__POOL_GETTER(memory_pool, held_blocks, pool->core.st.held_blocks)
CLMEM__POOL_GETTER(memory_pool, active_blocks, pool->core.st.active_blocks)
CLMEM__POOL_GETTER(memory_pool, managed_bytes, pool->core.st.managed_bytes)
CLMEM__POOL_GETTER(memory_pool, active_bytes, pool->core.st.active_bytes)
CLMEM__POOL_GETTER(svm_pool, held_blocks, pool->core.st.held_blocks)
CLMEM__POOL_GETTER(svm_pool, active_blocks, pool->core.st.active_blocks)
CLMEM__POOL_GETTER(svm_pool, managed_bytes, pool->core.st.managed_bytes)
CLMEM__POOL_GETTER(svm_pool, active_bytes, pool->core.st.active_bytes)

/* the rest of each pool's API: the same core under two names */
#define CLMEM__POOL_COMMON(kind)                                                                                   \
    CLMEM_API uint32_t clmem_##kind##_bin_number(clmem_##kind *pool, size_t size) {                                \
        return clmem_bin_number(pool ? pool->core.L : CLMEM_POOL_DEFAULT_LEADING_BITS, size);                    \
    }                                                                                                              \
    CLMEM_API size_t clmem_##kind##_alloc_size(clmem_##kind *pool, uint32_t bin) {                                 \
        return clmem_alloc_size(pool ? pool->core.L : CLMEM_POOL_DEFAULT_LEADING_BITS, bin);                     \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_free_held(clmem_##kind *pool) {                                                \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_free_held");                         \
        return clmem__pool_free_held(&pool->core);                                                                 \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_stop_holding(clmem_##kind *pool) {                                             \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_stop_holding");                      \
        clmem__pool_lock(&pool->core.lock);                                                                             \
        pool->core.stop_holding = true;                                                                            \
        clmem__pool_unlock(&pool->core.lock);                                                                           \
        return clmem__pool_free_held(&pool->core);                                                                 \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_get_stats(clmem_##kind *pool, clmem_pool_stats *stats) {                       \
        if (CLMEM__CHECKS && (!pool || !stats))                                                                    \
            return clmem__fail(CL_INVALID_VALUE, "clmem_" #kind "_get_stats", "%s is NULL", pool ? "stats" : "pool"); \
        clmem__pool_stats(&pool->core, stats);                                                                     \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_reset_peaks(clmem_##kind *pool) {                                              \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_reset_peaks");                       \
        clmem__pool_lock(&pool->core.lock);                                                                             \
        pool->core.st.peak_managed_bytes = pool->core.st.managed_bytes;                                            \
        pool->core.st.peak_active_bytes = pool->core.st.active_bytes;                                              \
        pool->core.st.peak_active_blocks = pool->core.st.active_blocks;                                            \
        clmem__pool_unlock(&pool->core.lock);                                                                           \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_bins(clmem_##kind *pool, clmem_pool_bin_info *out, size_t capacity,            \
                                         size_t *count) {                                                          \
        if (CLMEM__CHECKS && (!pool || !count))                                                                    \
            return clmem__fail(CL_INVALID_VALUE, "clmem_" #kind "_bins", "%s is NULL", pool ? "count" : "pool");  \
        return clmem__pool_bins(&pool->core, out, capacity, count);                                                \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_set_limit(clmem_##kind *pool, size_t max_managed_bytes) {                      \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_set_limit");                         \
        clmem__pool_lock(&pool->core.lock);                                                                             \
        pool->core.st.limit = max_managed_bytes;                                                                   \
        clmem__pool_unlock(&pool->core.lock);                                                                           \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_set_oom_callback(clmem_##kind *pool, clmem_pool_oom_fn fn, void *user) {       \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_set_oom_callback");                  \
        clmem__pool_lock(&pool->core.lock);                                                                             \
        pool->core.oom_fn = fn;                                                                                    \
        pool->core.oom_user = user;                                                                                \
        clmem__pool_unlock(&pool->core.lock);                                                                           \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_active_blocks_info(clmem_##kind *pool, clmem_pool_block_info *out,             \
                                                       size_t capacity, size_t *count) {                           \
        if (CLMEM__CHECKS && (!pool || !count))                                                                    \
            return clmem__fail(CL_INVALID_VALUE, "clmem_" #kind "_active_blocks_info", "%s is NULL",              \
                               pool ? "count" : "pool");                                                           \
        return clmem__pool_active_info(&pool->core, out, capacity, count);                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_release(clmem_##kind *pool) {                                                  \
        if (!pool) return CL_SUCCESS;                                                                              \
        return clmem__pool_release(&pool->core, "clmem_" #kind "_release");                                       \
    }
CLMEM__POOL_COMMON(memory_pool)
CLMEM__POOL_COMMON(svm_pool)

/* ---- SVM pools ---- */

CLMEM_API clmem_svm_pool *clmem_svm_pool_create(clmem_svm_allocator *allocator, unsigned leading_bits_in_bin_id,
                                                cl_int *errcode_ret) {
    static const char fn[] = "clmem_svm_pool_create";
    clmem__pool *p;
    if (CLMEM__CHECKS && allocator == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "allocator is NULL"));
        return NULL;
    }
    p = clmem__pool_new(fn, leading_bits_in_bin_id, sizeof(clmem_svm_pool), errcode_ret);
    if (!p) return NULL;
    clmem_svm_allocator_retain(allocator);
    p->svm_alloc = allocator;
    p->is_svm = true;
    return CLMEM__CAST(clmem_svm_pool *, (void *)p);
}

CLMEM_API clmem_pooled_svm clmem_svm_pool_allocate_at(clmem_svm_pool *pool, size_t size, cl_int *errcode_ret,
                                                      const char *file, int line) {
    static const char fn[] = "clmem_svm_pool_allocate";
    clmem__pool_block *blk = NULL;
    clmem_pooled_svm r;
    cl_int err;
    memset(&r, 0, sizeof r);
    if (CLMEM__CHECKS && pool == NULL) {
        clmem__set_err(errcode_ret, clmem__pool_null(fn));
        return r;
    }
    err = clmem__pool_get(&pool->core, size, fn, file, line, &blk);
    clmem__set_err(errcode_ret, err);
    if (err != CL_SUCCESS) return r;
    r.svm.ptr = blk->ptr;
    r.svm.size = size;
    r.block = blk;
    r.generation = blk->gen;
    return r;
}

CLMEM_API clmem_pooled_svm(clmem_svm_pool_allocate)(clmem_svm_pool *pool, size_t size, cl_int *errcode_ret) {
    return clmem_svm_pool_allocate_at(pool, size, errcode_ret, NULL, 0);
}

CLMEM_API cl_int clmem_pooled_svm_release(clmem_pooled_svm *p) {
    clmem__pool_block *blk;
    void *ptr;
    size_t size;
    uint64_t gen;
    if (!p || !p->block) return CL_SUCCESS;
    blk = CLMEM__CAST(clmem__pool_block *, p->block);
    ptr = p->svm.ptr;
    size = p->svm.size;
    gen = p->generation;
    memset(p, 0, sizeof *p);
    return clmem__pool_put(blk, ptr, size, gen, "clmem_pooled_svm_release");
}

/* the block of a handle that must still be active */
static cl_int clmem__pooled_svm_check(clmem_pooled_svm p, const char *fn) {
    clmem__pool_block *blk = CLMEM__CAST(clmem__pool_block *, p.block);
    int state;
    if (!blk) return clmem__fail(CL_INVALID_VALUE, fn, "the pooled SVM handle is empty");
    clmem__pool_lock(&blk->pool->lock);
    state = blk->state == CLMEM__BLOCK_ACTIVE && blk->ptr == p.svm.ptr && blk->size == p.svm.size &&
            blk->gen == p.generation;
    clmem__pool_unlock(&blk->pool->lock);
    if (!state)
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn, "pooled SVM block %p (%zu bytes) was already released",
                           p.svm.ptr, p.svm.size);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pooled_svm_bind_to_queue(clmem_pooled_svm p, cl_command_queue queue) {
    static const char fn[] = "clmem_pooled_svm_bind_to_queue";
    clmem__pool_block *blk = CLMEM__CAST(clmem__pool_block *, p.block);
    cl_command_queue_properties props = 0;
    cl_int err;
    if ((err = clmem__pooled_svm_check(p, fn)) != CL_SUCCESS) return err;
    if (queue == NULL) return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL");
    if (clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) != CL_SUCCESS)
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is not a valid command queue", (void *)queue);
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is out-of-order; pooled SVM needs an in-order queue",
                           (void *)queue);
    if (blk->queue == queue) return CL_SUCCESS;
    if (blk->queue) {
        cl_event ev = NULL;
        err = clEnqueueMarkerWithWaitList(blk->queue, 0, NULL, &ev);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
        err = clEnqueueMarkerWithWaitList(queue, 1, &ev, NULL);
        clReleaseEvent(ev);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
        clReleaseCommandQueue(blk->queue);
    }
    clRetainCommandQueue(queue);
    blk->queue = queue;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pooled_svm_unbind_from_queue(clmem_pooled_svm p) {
    static const char fn[] = "clmem_pooled_svm_unbind_from_queue";
    clmem__pool_block *blk = CLMEM__CAST(clmem__pool_block *, p.block);
    cl_int err;
    if ((err = clmem__pooled_svm_check(p, fn)) != CL_SUCCESS) return err;
    if (!blk->queue) return CL_SUCCESS;
    err = clFinish(blk->queue);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clFinish");
    clReleaseCommandQueue(blk->queue);
    blk->queue = NULL;
    return CL_SUCCESS;
}

CLMEM_API cl_command_queue clmem_pooled_svm_queue(clmem_pooled_svm p) {
    clmem__pool_block *blk = CLMEM__CAST(clmem__pool_block *, p.block);
    return blk ? blk->queue : NULL;
}

CLMEM_API cl_int clmem_pooled_svm_enqueue_release(clmem_pooled_svm *p, cl_command_queue queue) {
    cl_int err;
    if (!p || !p->block) return CL_SUCCESS;
    if (queue && (err = clmem_pooled_svm_bind_to_queue(*p, queue)) != CL_SUCCESS) return err;
    return clmem_pooled_svm_release(p);
}
