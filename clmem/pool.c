/* >>pool (implementation) */
#include "pool.h"
#include "buffer.h"


/* ---- bins (PyOpenCL's bin_number / alloc_size, mempool.hpp) ---- */

static inline unsigned clmem__bitlog2(size_t v) {
    unsigned l = 0;
#if CLMEM__GNU
    if (v) l = (unsigned)(sizeof(unsigned long long) * 8 - 1) - (unsigned)__builtin_clzll((unsigned long long)v);
#else
    while (v >>= 1) ++l;
#endif
    return l;
}

/* the bin of `size` for L <= CLMEM_POOL_MAX_LEADING_BITS (a pool's L is checked at
   its creation): inlined into the pools' fast path */
static inline uint32_t clmem__bin_of(unsigned L, size_t size) {
    unsigned l;
    size_t shifted;
    if (size == 0) return 0;
    l = clmem__bitlog2(size);
    shifted = l >= L ? size >> (l - L) : size << (L - l); /* the top L+1 bits of size */
    return ((uint32_t)l << L) | (uint32_t)(shifted & (((size_t)1 << L) - 1));
}

CLMEM_API uint32_t clmem_bin_number(unsigned leading_bits, size_t size) {
    return clmem__bin_of(leading_bits > CLMEM_POOL_MAX_LEADING_BITS ? CLMEM_POOL_MAX_LEADING_BITS : leading_bits,
                         size);
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

/* ---- the pool core, shared by buffer and SVM pools ----

   Layout. A pool is a power of two of shards, at least CLMEM_POOL_SHARDS and at
   least the processors online when it is made (clmem__pool_shard_count), plus a
   little shared state. Each thread
   works in one shard (chosen by a per-thread number, round robin), which has its own
   lock, its own bins and its own books (held, active, active bytes, hits, ...), so
   threads that allocate and release in their own shard never write a cache line
   another thread writes. A block goes back to the shard that handed it out. A shard
   whose bin is empty takes a block from another shard's bin before the allocator is
   asked. The shared state (managed bytes, the limit, allocator frees, flags, spare
   records) changes only when the allocator is called, under the pool's own lock.
   Totals are the sums over the shards, read with every lock held (exact).
   Lock order: shards by index, then the pool's lock; no lock is held across a driver
   call, an allocator call or a callback.

   Records. A block's record is never given back to the system: when its memory is
   freed the record goes to its pool's spare list, and when the pool goes, to a
   process-wide free list. So a stale handle always points at a record, and its
   generation (odd while handed out, bumped at each hand-out and each release, with a
   compare-and-swap) tells whether it is still the current hand-out, without a lock
   and without the pool.

   Lifetime. A pool goes when it was released and no block is active and no release
   is still running in it (`busy`); whoever sees that last, with every lock held,
   destroys it. */

/* a record's state while its generation is even (not handed out) */
enum { CLMEM__BLOCK_HELD = 2, CLMEM__BLOCK_FREED = 3 };

#ifndef CLMEM_POOL_SHARDS
#define CLMEM_POOL_SHARDS 16
#endif
/* the most shards a pool has, whatever the processor count */
#define CLMEM__POOL_MAX_SHARDS 4096

typedef struct clmem__pool clmem__pool;
typedef struct clmem__pool_block clmem__pool_block;

/* A backend: how a kind of memory makes and frees a pool's blocks. Everything else
   (bins, shards, generations, statistics, the limit, out-of-memory stages, queue
   order, release) is the core's. A new kind of memory is one more of these.
   - make(user, size, &ptr, &mem): a block of `size` (> 0) bytes; ptr is what its
     handle points at (non-NULL on success), mem a second word the kind may need. The
     out-of-memory codes (clmem__is_oom) make the pool free memory and retry.
   - free(user, blk): give blk->ptr (and blk->mem) back. blk->queue (retained by the
     core, released after this) is where the block was last used; blk->pending says
     work enqueued there may still use it (clmem__pool_wait_queue waits for that).
   - try_release(user): the allocator's hook on out-of-memory (optional).
   - destroy(user): the pool goes (drop the allocator reference, ...).
   - binds_queue: a block belongs to the queue it is used on, and a plain release
     stays ordered behind that queue (SVM: its free is enqueued there). */
typedef struct clmem__pool_backend {
    cl_int (*make)(void *user, size_t size, void **ptr, void **mem);
    void (*free)(void *user, clmem__pool_block *blk);
    void (*try_release)(void *user);
    void (*destroy)(void *user);
    bool binds_queue;
} clmem__pool_backend;

struct clmem__pool_block {
    clmem__buffer_owner owner;            /* first: what clmem_buffer_release calls; the generation */
    clmem__pool *pool;
    struct clmem__pool_block *next;       /* in a held or pending list, or a spare list */
    struct clmem__pool_block *prev_active, *next_active;
    void *ptr;                            /* what the handle points at: cl_mem, SVM or host pointer */
    void *mem;                            /* the backend's second word (pinned: the mapped cl_mem) */
    cl_command_queue queue;               /* retained or NULL: SVM: its bound queue; held: the queue
                                             it was released on; buffers keep it as a cache */
    size_t size;                          /* requested by the current holder */
    const char *file;
    int line;
    uint32_t bin;
    int state;                            /* read without a lock (messages): atomic */
    struct clmem__pool_shard *sh;         /* the shard whose books count it */
    bool pending;                         /* held: released on `queue`; another queue or the host
                                             must wait for that point */
    bool ooo;                             /* `queue` is out of order */
};

/* The locks guard a few pointer and counter updates and are never held across a
   driver call, an allocator call or a callback. Where the compiler has atomic
   builtins a lock is a spinlock that yields the processor when it has to wait (an
   uncontended pthread mutex pair costs as much as the rest of a pooled allocation);
   elsewhere it is a clmem__mutex. */
#if !defined(CLMEM_POOL_USE_MUTEX)
typedef int clmem__pool_lock_t;
static void clmem__pool_lock_init(clmem__pool_lock_t *l) { clmem__atomic_store_int(l, 0); }
static void clmem__pool_lock_destroy(clmem__pool_lock_t *l) { (void)l; }
static CLMEM__NOINLINE void clmem__pool_lock_wait(clmem__pool_lock_t *l) {
    do {
        unsigned spins = 0;
        while (clmem__atomic_load_int(l))
            if (++spins == 64) {
                spins = 0;
                clmem__thread_yield();
            }
    } while (clmem__atomic_exchange_int(l, 1));
}
static inline void clmem__pool_lock(clmem__pool_lock_t *l) {
    if (clmem__atomic_exchange_int(l, 1)) clmem__pool_lock_wait(l); /* the wait is out of line */
}
static inline void clmem__pool_unlock(clmem__pool_lock_t *l) { clmem__atomic_store_int(l, 0); }
#else
typedef clmem__mutex clmem__pool_lock_t;
static void clmem__pool_lock_init(clmem__pool_lock_t *l) { clmem__mutex_init(l); }
static void clmem__pool_lock_destroy(clmem__pool_lock_t *l) { clmem__mutex_destroy(l); }
static void clmem__pool_lock(clmem__pool_lock_t *l) { clmem__lock(l); }
static void clmem__pool_unlock(clmem__pool_lock_t *l) { clmem__unlock(l); }
#endif

/* generations and states, read without a lock (base.h's ATOMICS) */
#define clmem__gen_load clmem__atomic_load_u64
#define clmem__gen_store clmem__atomic_store_u64
#define clmem__gen_cas clmem__atomic_cas_u64
#define clmem__state_load clmem__atomic_load_int
#define clmem__state_store clmem__atomic_store_int
static unsigned clmem__pool_next_tid;
static unsigned clmem__pool_new_tid(void) { return clmem__atomic_add_uint(&clmem__pool_next_tid, 1) - 1; }

/* the calling thread's shard number: threads are numbered in the order they first
   use a pool */
static CLMEM__THREAD_LOCAL unsigned clmem__pool_tid_plus1;
static inline unsigned clmem__pool_thread_number(void) {
    unsigned t = clmem__pool_tid_plus1;
    if (t == 0) {
        t = clmem__pool_new_tid() + 1;
        clmem__pool_tid_plus1 = t;
    }
    return t - 1;
}

typedef struct clmem__pool_bin {
    clmem__pool_block *held;              /* free blocks, most recent first */
    clmem__pool_block *pending;           /* blocks released on a queue, most recent first */
    size_t nheld;                         /* both lists */
    size_t nblocks;                       /* the bin's blocks in the shard's books, held or
                                             active (changes only off the fast path: a miss,
                                             a block taken by or from another shard, a free) */
} clmem__pool_bin;

typedef struct clmem__pool_shard {
    clmem__pool_lock_t lock;
    unsigned busy;                        /* releases running in this shard that need the pool */
    clmem__pool_bin *bins;                /* nbins of them, made at the shard's first use */
    void *bins_raw;                       /* what CLMEM_MALLOC returned for them */
    clmem__pool_block *active;            /* most recent first */
    size_t held_blocks, active_blocks, active_bytes;
    size_t peak_active_blocks, peak_active_bytes;
    size_t base_blocks, base_bytes;       /* the other shards' active blocks and bytes, last seen */
    unsigned long long hits, misses;     /* allocations = hits + misses */
} clmem__pool_shard;

/* a shard padded to whole cache lines, so that shards never share one */
typedef union clmem__pool_shard_slot {
    clmem__pool_shard s;
    char pad[128 * ((sizeof(clmem__pool_shard) + 127) / 128)];
} clmem__pool_shard_slot;

struct clmem__pool {
    clmem__pool_shard_slot *shards;       /* nshards, on the cache lines after the pool's */
    unsigned shard_mask;                  /* nshards - 1: nshards is a power of two */
    unsigned nshards;
    void *raw;                            /* what CLMEM_MALLOC returned */
    clmem__pool_lock_t lock;              /* what follows, and the record lists */
    unsigned L;
    uint32_t nbins;
    bool binds_queue;                     /* be->binds_queue, where the fast path reads it */
    bool stop_holding;                    /* changed with every lock held */
    bool released;                        /* likewise */
    bool destroyed;
    unsigned busy;                        /* a pool release in progress */
    size_t managed_bytes, peak_managed_bytes, limit;
    unsigned long long allocator_frees, oom_events;
    clmem__pool_block *spare;             /* records whose block was freed */
    clmem_pool_oom_fn oom_fn;
    void *oom_user;
    const clmem__pool_backend *be;        /* how blocks are made and freed */
    void *user;                           /* the backend's state: its allocator, ... */
    cl_mem_flags flags;                   /* what handed-out buffer handles report */
    cl_context context;                   /* the pool's context, when known (queue checks) */
    cl_command_queue checked_queue;       /* the last queue found to be of the pool's context (atomic) */
};

struct clmem_memory_pool { clmem__pool core; };
struct clmem_svm_pool { clmem__pool core; };
struct clmem_pinned_pool { clmem__pool core; };

/* records nobody uses, kept for the life of the process (see "Records") */
static clmem__mutex clmem__pool_records_lock = CLMEM__MUTEX_INIT;
static clmem__pool_block *clmem__pool_records;

/* New records come from slabs, each record on cache lines of its own: the threads of a
   pool write the records of their blocks at every hand-out and release, and records
   side by side in memory would make them share lines. Slabs are never freed (records
   live as long as the process); each starts with a pointer to the previous one. */
typedef union clmem__pool_record_slot {
    clmem__pool_block b;
    char pad[128 * ((sizeof(clmem__pool_block) + 127) / 128)];
} clmem__pool_record_slot;
enum { CLMEM__POOL_SLAB = 32 };
static void *clmem__pool_slabs;
static clmem__pool_record_slot *clmem__pool_slab_next, *clmem__pool_slab_end;

/* under clmem__pool_records_lock: a zeroed record from the current slab (or a new one) */
static clmem__pool_block *clmem__pool_record_new(void) {
    if (clmem__pool_slab_next == clmem__pool_slab_end) {
        char *raw = CLMEM__CAST(char *, CLMEM_MALLOC(sizeof(void *) + 127 + CLMEM__POOL_SLAB *
                                                                                 sizeof(clmem__pool_record_slot)));
        uintptr_t first;
        if (!raw) return NULL;
        memcpy(raw, &clmem__pool_slabs, sizeof(void *));
        clmem__pool_slabs = raw;
        first = ((uintptr_t)(raw + sizeof(void *)) + 127) & ~(uintptr_t)127;
        clmem__pool_slab_next = CLMEM__CAST(clmem__pool_record_slot *, (void *)(raw + (first - (uintptr_t)raw)));
        clmem__pool_slab_end = clmem__pool_slab_next + CLMEM__POOL_SLAB;
        memset(clmem__pool_slab_next, 0, CLMEM__POOL_SLAB * sizeof(clmem__pool_record_slot));
    }
    return &(clmem__pool_slab_next++)->b;
}

static cl_int clmem__pool_release_buffer(clmem_buffer *buf);

static void clmem__pool_lock_all(clmem__pool *p) {
    unsigned i;
    for (i = 0; i < p->nshards; ++i) clmem__pool_lock(&p->shards[i].s.lock);
    clmem__pool_lock(&p->lock);
}
static void clmem__pool_unlock_all(clmem__pool *p) {
    unsigned i;
    clmem__pool_unlock(&p->lock);
    for (i = p->nshards; i-- > 0;) clmem__pool_unlock(&p->shards[i].s.lock);
}

/* with every lock held: the totals over the shards */
static void clmem__pool_totals(clmem__pool *p, size_t *held, size_t *active, size_t *active_bytes) {
    unsigned i;
    size_t h = 0, a = 0, ab = 0;
    for (i = 0; i < p->nshards; ++i) {
        const clmem__pool_shard *sh = &p->shards[i].s;
        h += sh->held_blocks;
        a += sh->active_blocks;
        ab += sh->active_bytes;
    }
    if (held) *held = h;
    if (active) *active = a;
    if (active_bytes) *active_bytes = ab;
}

/* with every lock held: tell a shard what the others hold now. Its peaks count from
   there until it next comes to the shared pool (a miss, a block from another shard, a
   peak reset), so they are exact while one thread at a time uses the pool. */
static void clmem__pool_rebase(clmem__pool *p, clmem__pool_shard *sh) {
    size_t a, ab;
    clmem__pool_totals(p, NULL, &a, &ab);
    sh->base_blocks = a - sh->active_blocks;
    sh->base_bytes = ab - sh->active_bytes;
}

/* under the shard's lock: hand out blk for a request of `size` */
static inline void clmem__pool_activate(clmem__pool_shard *sh, clmem__pool_block *blk, size_t size,
                                        const char *file, int line, bool hit) {
    size_t n, bytes;
    clmem__pool_block *first = sh->active;
    clmem__gen_store(&blk->owner.gen, blk->owner.gen + 1); /* even -> odd: a new hand-out (active) */
    blk->size = size;
    blk->sh = sh;
    blk->file = file;
    blk->line = line;
    blk->prev_active = NULL;
    blk->next_active = first;
    if (first) first->prev_active = blk;
    sh->active = blk;
    n = ++sh->active_blocks + sh->base_blocks;
    bytes = (sh->active_bytes += size) + sh->base_bytes;
    if (hit) ++sh->hits;
    else ++sh->misses;
    if (n > sh->peak_active_blocks) sh->peak_active_blocks = n;
    if (bytes > sh->peak_active_bytes) sh->peak_active_bytes = bytes;
}

/* under the shard's lock: take blk off the shard's active books */
static inline void clmem__pool_deactivate(clmem__pool_shard *sh, clmem__pool_block *blk) {
    if (blk->prev_active) blk->prev_active->next_active = blk->next_active;
    else sh->active = blk->next_active;
    if (blk->next_active) blk->next_active->prev_active = blk->prev_active;
    --sh->active_blocks;
    sh->active_bytes -= blk->size;
}

/* under the shard's lock: a held block of `bin` for a request on `queue` (NULL: the
   host), taken off the held books; NULL when the bin is empty. Preference: a block
   released on this very (in-order) queue, then a free block, then one still pending
   on another queue (the caller makes it safe: clmem__pool_settle); the host takes the
   oldest pending block, the likeliest to be done. */
static inline clmem__pool_block *clmem__pool_take(clmem__pool_shard *sh, uint32_t bin, cl_command_queue queue) {
    clmem__pool_bin *b;
    clmem__pool_block *blk, **link;
    if (!sh->bins) return NULL;
    b = &sh->bins[bin];
    if (queue && (blk = b->pending) != NULL && blk->queue == queue && !blk->ooo) {
        link = &b->pending;
    } else if ((blk = b->held) != NULL) {
        link = &b->held;
    } else if ((blk = b->pending) != NULL) {
        link = &b->pending;
        if (!queue)
            while (blk->next) { /* the oldest */
                link = &blk->next;
                blk = blk->next;
            }
    } else {
        return NULL;
    }
    *link = blk->next;
    blk->next = NULL;
    --b->nheld;
    --sh->held_blocks;
    return blk;
}

/* under the shard's lock: keep blk for reuse (on its pending list when it must wait) */
static inline void clmem__pool_hold(clmem__pool_shard *sh, clmem__pool_block *blk) {
    clmem__pool_bin *b = &sh->bins[blk->bin];
    clmem__state_store(&blk->state, CLMEM__BLOCK_HELD);
    if (blk->pending) {
        blk->next = b->pending;
        b->pending = blk;
    } else {
        blk->next = b->held;
        b->held = blk;
    }
    ++b->nheld;
    ++sh->held_blocks;
}

/* the shard's bins, made at its first use; false when out of host memory */
static bool clmem__pool_shard_ready(clmem__pool *p, clmem__pool_shard *sh) {
    clmem__pool_bin *bins;
    char *raw;
    bool ready;
    clmem__pool_lock(&sh->lock);
    ready = sh->bins != NULL;
    clmem__pool_unlock(&sh->lock);
    if (ready) return true;
    /* on cache lines of their own (128 bytes of slack each side): shards' bins are
       written by different threads */
    raw = CLMEM__CAST(char *, CLMEM_MALLOC(sizeof(clmem__pool_bin) * p->nbins + 256));
    if (!raw) return false;
    bins = CLMEM__CAST(clmem__pool_bin *, (void *)(raw + 128 - (uintptr_t)raw % 128));
    memset(bins, 0, sizeof(clmem__pool_bin) * p->nbins);
    clmem__pool_lock(&sh->lock);
    if (!sh->bins) {
        sh->bins = bins;
        sh->bins_raw = raw;
        raw = NULL;
    }
    clmem__pool_unlock(&sh->lock);
    if (raw) CLMEM_FREE(raw);
    return true;
}

/* a cleared record (of no pool) from the process's spare ones, or a new one; NULL when
   out of host memory. Also what memory outside any pool (a plain pinned allocation)
   takes, so that its handles carry a generation as pooled ones do. */
static clmem__pool_block *clmem__pool_record_global(void) {
    clmem__pool_block *blk;
    uint64_t gen;
    clmem__lock(&clmem__pool_records_lock);
    blk = clmem__pool_records;
    if (blk) clmem__pool_records = blk->next;
    else blk = clmem__pool_record_new();
    clmem__unlock(&clmem__pool_records_lock);
    if (!blk) return NULL;
    gen = clmem__gen_load(&blk->owner.gen); /* a record keeps counting, so old handles stay stale */
    memset(blk, 0, sizeof *blk);
    blk->owner.gen = gen;
    blk->owner.release = clmem__pool_release_buffer;
    return blk;
}

/* a record of no pool, its memory gone, back to the process's spare ones */
static void clmem__pool_record_unused(clmem__pool_block *blk) {
    clmem__state_store(&blk->state, CLMEM__BLOCK_FREED);
    clmem__lock(&clmem__pool_records_lock);
    blk->next = clmem__pool_records;
    clmem__pool_records = blk;
    clmem__unlock(&clmem__pool_records_lock);
}

/* a record for a new block: the pool's spare ones, then the process's, then new */
static clmem__pool_block *clmem__pool_record(clmem__pool *p) {
    clmem__pool_block *blk;
    uint64_t gen;
    clmem__pool_lock(&p->lock);
    blk = p->spare;
    if (blk) p->spare = blk->next;
    clmem__pool_unlock(&p->lock);
    if (!blk) blk = clmem__pool_record_global();
    if (!blk) return NULL;
    gen = clmem__gen_load(&blk->owner.gen);
    memset(blk, 0, sizeof *blk);
    blk->owner.gen = gen;
    blk->owner.release = clmem__pool_release_buffer;
    blk->pool = p;
    return blk;
}

/* under the pool's lock: keep a record whose block was freed */
static void clmem__pool_spare(clmem__pool *p, clmem__pool_block *blk) {
    clmem__state_store(&blk->state, CLMEM__BLOCK_FREED);
    blk->next = p->spare;
    p->spare = blk;
}

/* wait until the work enqueued on `queue` so far is done (a marker, or clFinish when
   the marker cannot be had): for a backend whose free does not wait by itself */
static void clmem__pool_wait_queue(cl_command_queue queue) {
    cl_event ev = NULL;
    if (clEnqueueMarkerWithWaitList(queue, 0, NULL, &ev) == CL_SUCCESS) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    } else {
        clFinish(queue);
    }
}

/* without a lock: give a block's memory back through the backend */
static void clmem__pool_backend_free(clmem__pool *p, clmem__pool_block *blk) {
    p->be->free(p->user, blk);
    if (blk->queue) clReleaseCommandQueue(blk->queue);
    blk->queue = NULL;
    blk->ptr = NULL;
    blk->mem = NULL;
    blk->pending = false;
}

/* with every lock held: whether the pool must go now (and, if so, it is marked) */
static bool clmem__pool_last_one(clmem__pool *p) {
    unsigned i;
    if (!p->released || p->destroyed || p->busy) return false;
    for (i = 0; i < p->nshards; ++i)
        if (p->shards[i].s.active_blocks || p->shards[i].s.busy) return false;
    p->destroyed = true;
    return true;
}

static void clmem__pool_destroy(clmem__pool *p) {
    clmem__pool_block *blk, *first = NULL, *last = NULL;
    unsigned i;
    for (i = 0; i < p->nshards; ++i) {
        CLMEM_ASSERT(p->shards[i].s.active_blocks == 0 && p->shards[i].s.held_blocks == 0);
        if (p->shards[i].s.bins_raw) CLMEM_FREE(p->shards[i].s.bins_raw);
        clmem__pool_lock_destroy(&p->shards[i].s.lock);
    }
    /* the records outlive the pool (stale handles point at them) */
    for (blk = p->spare; blk; blk = blk->next) {
        blk->pool = NULL;
        if (!first) first = blk;
        last = blk;
    }
    if (first) {
        clmem__lock(&clmem__pool_records_lock);
        last->next = clmem__pool_records;
        clmem__pool_records = first;
        clmem__unlock(&clmem__pool_records_lock);
    }
    clmem__pool_lock_destroy(&p->lock);
    if (p->be->destroy) p->be->destroy(p->user);
    CLMEM_FREE(p->raw);
}


/* a new pool's shards: the least power of two that is at least CLMEM_POOL_SHARDS and
   the processors online (each of as many threads at once as there are processors has
   a shard of its own, where threads are numbered in the order they first use a pool),
   at most CLMEM__POOL_MAX_SHARDS */
static unsigned clmem__pool_shard_count(void) {
    unsigned want = clmem__cpu_count(), n = 1;
    if (want < CLMEM_POOL_SHARDS) want = CLMEM_POOL_SHARDS;
    while (n < want && n < CLMEM__POOL_MAX_SHARDS) n <<= 1;
    return n;
}

/* the pool's own fields on whole cache lines; its shards follow */
#define CLMEM__POOL_HEAD (128 * ((sizeof(clmem__pool) + 127) / 128))

/* a pool of `be` blocks over `user` (the caller hands its reference to the pool on
   success), L checked */
static clmem__pool *clmem__pool_new(const char *fn, unsigned L, const clmem__pool_backend *be, void *user,
                                    cl_context context, cl_int *errcode_ret) {
    clmem__pool *p = NULL;
    void *raw;
    unsigned i, nshards = clmem__pool_shard_count();
    if (CLMEM__CHECKS && L > CLMEM_POOL_MAX_LEADING_BITS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                "leading_bits_in_bin_id %u is above the maximum %d", L,
                                                CLMEM_POOL_MAX_LEADING_BITS));
        return NULL;
    }
    raw = CLMEM_MALLOC(128 + CLMEM__POOL_HEAD + nshards * sizeof(clmem__pool_shard_slot));
    if (raw) {
        p = CLMEM__CAST(clmem__pool *, (void *)((char *)raw + (128 - (uintptr_t)raw % 128)));
        memset(p, 0, CLMEM__POOL_HEAD + nshards * sizeof(clmem__pool_shard_slot));
        p->raw = raw;
        p->shards = CLMEM__CAST(clmem__pool_shard_slot *, (void *)((char *)p + CLMEM__POOL_HEAD));
        p->nshards = nshards;
        p->shard_mask = nshards - 1;
        p->be = be;
        p->user = user;
        p->binds_queue = be->binds_queue;
        p->context = context;
        p->L = L;
        p->nbins = (uint32_t)(sizeof(size_t) * 8) << L; /* bin numbers are below 64 << L */
        clmem__pool_lock_init(&p->lock);
        for (i = 0; i < p->nshards; ++i) clmem__pool_lock_init(&p->shards[i].s.lock);
    }
    if (!p) clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the pool"));
    else clmem__set_err(errcode_ret, CL_SUCCESS);
    return p;
}

/* a pool over an allocator (the buffer and SVM pools): the allocator must not be
   NULL; the caller takes the pool's reference to it on success */
static clmem__pool *clmem__pool_over(const char *fn, const void *allocator, void *user, cl_context context, unsigned L,
                                     const clmem__pool_backend *be, cl_int *errcode_ret) {
    if (CLMEM__CHECKS && allocator == NULL) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "allocator is NULL"));
        return NULL;
    }
    return clmem__pool_new(fn, L, be, user, context, errcode_ret);
}

/* a pool over a copy of its backend's facts (size bytes at facts; the pinned and USM
   pools): the pool owns the copy, which the backend's destroy frees */
static clmem__pool *clmem__pool_with_facts(const char *fn, unsigned L, const clmem__pool_backend *be, const void *facts,
                                           size_t size, cl_context context, cl_int *errcode_ret) {
    clmem__pool *p;
    void *copy = clmem__alloc_for(size, fn, "the pool", errcode_ret);
    if (!copy) return NULL;
    memcpy(copy, facts, size);
    p = clmem__pool_new(fn, L, be, copy, context, errcode_ret);
    if (!p) CLMEM_FREE(copy);
    return p;
}

/* without a lock: a fresh block's memory of asz bytes, within the limit */
static cl_int clmem__pool_fresh(clmem__pool *p, size_t asz, void **ptr, void **mem, bool *limited, bool *null_ret) {
    cl_int err = CL_SUCCESS;
    *limited = false;
    *null_ret = false;
    clmem__pool_lock(&p->lock);
    if (p->limit && (asz > p->limit || p->managed_bytes > p->limit - asz)) {
        clmem__pool_unlock(&p->lock);
        *limited = true;
        return CLMEM_ERROR_LIMIT_EXCEEDED;
    }
    p->managed_bytes += asz; /* reserved now, so that threads cannot pass the limit together */
    clmem__pool_unlock(&p->lock);
    *ptr = NULL;
    *mem = NULL;
    err = p->be->make(p->user, asz, ptr, mem);
    if (err == CL_SUCCESS && *ptr == NULL) {
        err = CL_INVALID_VALUE;
        *null_ret = true;
    }
    clmem__pool_lock(&p->lock);
    if (err != CL_SUCCESS) p->managed_bytes -= asz;
    else if (p->managed_bytes > p->peak_managed_bytes) p->peak_managed_bytes = p->managed_bytes;
    clmem__pool_unlock(&p->lock);
    return err;
}

/* `queue` may carry blocks of the pool: valid, of the pool's context. Checked once
   per queue change (the last queue found good is remembered). */
static cl_int clmem__pool_check_queue(clmem__pool *p, cl_command_queue queue, const char *fn) {
    cl_command_queue last;
    cl_context qctx;
    cl_int err;
    if (CLMEM__CHECKS && queue == NULL)
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL (the host's allocations need none)");
    if (!CLMEM__CHECKS) return CL_SUCCESS;
    last = CLMEM__CAST(cl_command_queue, clmem__atomic_load_ptr(CLMEM__CAST(void *const *, (void *)&p->checked_queue)));
    if (last == queue) return CL_SUCCESS;
    if ((err = clmem__queue_context_of(fn, queue, &qctx)) != CL_SUCCESS) return err;
    if (p->context && qctx != p->context)
        return clmem__fail(CL_INVALID_CONTEXT, fn, "queue %p belongs to context %p, the pool's blocks to context %p",
                           (void *)queue, (void *)qctx, (void *)p->context);
    clmem__atomic_store_ptr(CLMEM__CAST(void **, (void *)&p->checked_queue), queue);
    return CL_SUCCESS;
}

/* without a lock, on a block just handed out: make it safe where it goes. A pending
   block (released on its queue) goes to `queue` behind a marker of that queue (the
   device waits, not the host), or to the host after that marker completed. An SVM
   block is bound to `queue` (NULL: unbound). */
static cl_int clmem__pool_settle(clmem__pool *p, clmem__pool_block *blk, cl_command_queue queue, const char *fn) {
    cl_int err;
    if (blk->pending) {
        if (!(queue && blk->queue == queue && !blk->ooo)) {
            cl_event ev = NULL;
            err = clEnqueueMarkerWithWaitList(blk->queue, 0, NULL, &ev);
            if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
            if (queue) {
                err = clEnqueueBarrierWithWaitList(queue, 1, &ev, NULL);
                clReleaseEvent(ev);
                if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueBarrierWithWaitList");
            } else {
                clFlush(blk->queue);
                err = clWaitForEvents(1, &ev);
                clReleaseEvent(ev);
                if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clWaitForEvents");
            }
        }
        blk->pending = false;
    }
    if (p->binds_queue && blk->queue != queue) {
        if (queue) clRetainCommandQueue(queue);
        if (blk->queue) clReleaseCommandQueue(blk->queue);
        blk->queue = queue;
        blk->ooo = false; /* SVM queues are checked to be in order */
    }
    return CL_SUCCESS;
}

CLMEM__INLINE cl_int clmem__pool_put(clmem__pool_block *blk, uint64_t gen, cl_command_queue queue, bool ooo,
                                     const void *ptr, size_t size, const char *fn);
static bool clmem__pool_free_one(clmem__pool *p);

static CLMEM__NOINLINE cl_int clmem__pool_get_slow(clmem__pool *p, size_t size, cl_command_queue queue,
                                                   const char *fn, const char *file, int line,
                                                   clmem__pool_block **out, uint32_t bin, unsigned si);

/* without a lock, on a block just handed out that must wait or change queue */
static CLMEM__NOINLINE cl_int clmem__pool_handout(clmem__pool *p, clmem__pool_block *blk, cl_command_queue queue,
                                                  size_t size, const char *fn, clmem__pool_block **out) {
    cl_int err = clmem__pool_settle(p, blk, queue, fn);
    if (err != CL_SUCCESS) {
        clmem__pool_put(blk, blk->owner.gen, blk->pending ? blk->queue : NULL, blk->ooo, blk->ptr, size, fn);
        return err;
    }
    *out = blk;
    return CL_SUCCESS;
}

/* the allocation algorithm of PyOpenCL's memory_pool::allocate, plus the limit, the
   out-of-memory callback and queue order. `queue`: where the block will be used
   (NULL: anywhere, after the host). The fast path: this thread's shard has a block
   of the bin that needs no driver call. Always inlined: a plain allocate (queue
   NULL) then loses the queue tests (the pair's instruction count, bench/pool_count.sh). */
CLMEM__INLINE cl_int clmem__pool_get(clmem__pool *p, size_t size, cl_command_queue queue, const char *fn,
                                     const char *file, int line, clmem__pool_block **out) {
    uint32_t bin = clmem__bin_of(p->L, size);
    unsigned si = clmem__pool_thread_number() & p->shard_mask;
    clmem__pool_shard *sh = &p->shards[si].s;
    clmem__pool_block *blk;
    clmem__pool_lock(&sh->lock);
    blk = clmem__pool_take(sh, bin, queue);
    if (blk) {
        bool settle;
        clmem__pool_activate(sh, blk, size, file, line, true);
        if (blk->pending && queue == blk->queue && !blk->ooo) blk->pending = false; /* same in-order queue */
        settle = blk->pending || (p->binds_queue && blk->queue != queue);
        clmem__pool_unlock(&sh->lock);
        if (settle) return clmem__pool_handout(p, blk, queue, size, fn, out);
        *out = blk;
        return CL_SUCCESS;
    }
    clmem__pool_unlock(&sh->lock);
    return clmem__pool_get_slow(p, size, queue, fn, file, line, out, bin, si);
}

/* a held block of `bin` from the other shards (si's own first when `self`), handed
   out in si's shard; a trip to the shared pool, so si's books look at the others'
   (rebase). NULL when no shard has one. */
static clmem__pool_block *clmem__pool_steal(clmem__pool *p, unsigned si, bool self, uint32_t bin,
                                            cl_command_queue queue, size_t size, const char *file, int line) {
    clmem__pool_block *blk;
    unsigned i;
    for (i = self ? 0 : 1; i < p->nshards; ++i) {
        clmem__pool_shard *other = &p->shards[(si + i) & p->shard_mask].s;
        clmem__pool_lock(&other->lock);
        blk = clmem__pool_take(other, bin, queue);
        if (blk) --other->bins[bin].nblocks;
        clmem__pool_unlock(&other->lock);
        if (blk) {
            clmem__pool_lock_all(p);
            ++p->shards[si].s.bins[bin].nblocks;
            clmem__pool_rebase(p, &p->shards[si].s);
            clmem__pool_activate(&p->shards[si].s, blk, size, file, line, true);
            clmem__pool_unlock_all(p);
            return blk;
        }
    }
    return NULL;
}

static CLMEM__NOINLINE cl_int clmem__pool_get_slow(clmem__pool *p, size_t size, cl_command_queue queue,
                                                   const char *fn, const char *file, int line,
                                                   clmem__pool_block **out, uint32_t bin, unsigned si) {
    clmem__pool_shard *sh = &p->shards[si].s;
    clmem__pool_block *blk;
    size_t asz;
    void *ptr = NULL, *mem = NULL;
    cl_int err;
    bool limited = false, hooked = false, counted = false, null_ret = false;
    unsigned attempt = 0;

    if (!clmem__pool_shard_ready(p, sh))
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the pool's bins");
    if ((blk = clmem__pool_steal(p, si, false, bin, queue, size, file, line)) != NULL) goto handout;

    asz = clmem_alloc_size(p->L, bin);
    if (asz < size) /* SIZE_MAX and its neighbours: no block size holds them */
        return clmem__fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, fn, "%zu bytes round up to a block size beyond size_t",
                           size);
    CLMEM_ASSERT(clmem_bin_number(p->L, asz) == bin && asz >= size);
    for (;;) {
        err = clmem__pool_fresh(p, asz, &ptr, &mem, &limited, &null_ret);
        if (err == CL_SUCCESS) break;
        if (err == CL_INVALID_BUFFER_SIZE && !null_ret) /* 1 PiB: more than any device allocates */
            return clmem__fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, fn,
                               "a block of %zu bytes (for %zu asked) is more than the device can allocate (the "
                               "allocator reported CL_INVALID_BUFFER_SIZE)", asz, size);
        if (!limited && !clmem__is_oom(err)) {
            if (null_ret)
                return clmem__fail(err, fn, "the allocator succeeded for %zu bytes but returned no memory", asz);
            return clmem__fail(err, fn, "allocating a block of %zu bytes (for %zu asked) failed with %s (%d)", asz,
                               size, clmem_error_string(err), (int)err);
        }
        clmem__pool_lock(&p->lock);
        if (!counted) ++p->oom_events;
        counted = true;
        clmem__pool_unlock(&p->lock);
        if (!hooked) { /* stage 1: the release hook (PyOpenCL: gc), then the bin again */
            hooked = true;
            if (p->be->try_release) p->be->try_release(p->user);
        }
        if ((blk = clmem__pool_steal(p, si, true, bin, queue, size, file, line)) != NULL) goto handout;
        if (clmem__pool_free_one(p)) continue; /* stage 2: free one held block, largest bin first */
        if (p->oom_fn && p->oom_fn(asz, ++attempt, p->oom_user)) continue; /* stage 3: the callback */
        if (limited) {
            size_t managed, limit;
            clmem__pool_lock(&p->lock);
            managed = p->managed_bytes;
            limit = p->limit;
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

    blk = clmem__pool_record(p);
    if (!blk) {
        clmem__pool_block tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.ptr = ptr;
        tmp.mem = mem;
        clmem__pool_backend_free(p, &tmp);
        clmem__pool_lock(&p->lock);
        p->managed_bytes -= asz;
        clmem__pool_unlock(&p->lock);
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a block record");
    }
    blk->ptr = ptr;
    blk->mem = mem;
    blk->bin = bin;
    if (p->binds_queue && queue) { /* a fresh block is in use on no queue: bind it */
        clRetainCommandQueue(queue);
        blk->queue = queue;
    }
    clmem__pool_lock_all(p); /* a miss: also the moment to see what the other shards hold */
    clmem__pool_rebase(p, sh);
    ++sh->bins[bin].nblocks;
    clmem__pool_activate(sh, blk, size, file, line, false);
    clmem__pool_unlock_all(p);
    *out = blk;
    return CL_SUCCESS;

handout:
    if (blk->pending || (p->binds_queue && blk->queue != queue)) return clmem__pool_handout(p, blk, queue, size, fn, out);
    *out = blk;
    return CL_SUCCESS;
}

/* a release that lost: the handle is stale (its block released, maybe handed out
   again, maybe freed with its pool): report it without touching the pool */
static CLMEM__NOINLINE cl_int clmem__pool_put_stale(clmem__pool_block *blk, const void *ptr, size_t size,
                                                    const char *fn) {
    int state = clmem__state_load(&blk->state);
    uint64_t now = clmem__gen_load(&blk->owner.gen);
    return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                       "pooled block %p (%zu bytes) was already released to its pool (%s); "
                       "a copy of a released handle was released again",
                       ptr, size, (now & 1) ? "it now belongs to another allocation"
                                  : state == CLMEM__BLOCK_HELD ? "it is held for reuse"
                                                               : "its memory was freed");
}

/* under the shard's lock, a release on a queue the block does not have: remember the
   queue (driver calls: outside the lock, with the pool kept by `busy`) */
static CLMEM__NOINLINE void clmem__pool_put_queue(clmem__pool_shard *sh, clmem__pool_block *blk,
                                                  cl_command_queue queue, bool ooo) {
    ++sh->busy;
    clmem__pool_unlock(&sh->lock);
    clRetainCommandQueue(queue);
    if (blk->queue) clReleaseCommandQueue(blk->queue);
    blk->queue = queue;
    blk->ooo = ooo;
    blk->pending = true;
    clmem__pool_lock(&sh->lock);
    --sh->busy;
}

/* with the shard's lock held, the block off the books: the pool does not hold
   (stop_holding or released): free the block, and end the pool if it was the last */
static CLMEM__NOINLINE cl_int clmem__pool_put_free(clmem__pool *p, clmem__pool_shard *sh, clmem__pool_block *blk) {
    bool destroy;
    ++sh->busy; /* the pool must stay until this release is done */
    --sh->bins[blk->bin].nblocks;
    clmem__state_store(&blk->state, CLMEM__BLOCK_FREED);
    clmem__pool_unlock(&sh->lock);
    clmem__pool_lock(&p->lock);
    p->managed_bytes -= clmem_alloc_size(p->L, blk->bin);
    ++p->allocator_frees;
    clmem__pool_unlock(&p->lock);
    clmem__pool_backend_free(p, blk);
    clmem__pool_lock_all(p);
    clmem__pool_spare(p, blk);
    --sh->busy;
    destroy = clmem__pool_last_one(p);
    clmem__pool_unlock_all(p);
    if (destroy) clmem__pool_destroy(p);
    return CL_SUCCESS;
}

/* return an active block to its pool (or to the allocator after stop_holding).
   queue: NULL for a plain release (the caller guarantees nothing uses the block; an
   SVM block bound to a queue stays ordered behind it), else the queue the release is
   ordered on (cudaFreeAsync's stream); ooo: whether that queue is out of order (read
   by the caller where queue is not the block's queue). ptr and size are for the
   message.
   The generation is checked twice: without a lock (a stale handle never touches its
   pool, which may be gone), then under the lock of the block's shard, where it is
   bumped: of two threads releasing copies of one handle at once, one wins. Always
   inlined: a plain release (queue NULL) then loses the queue paths (the pair's
   instruction count, bench/pool_bench.c). */
CLMEM__INLINE cl_int clmem__pool_put(clmem__pool_block *blk, uint64_t gen, cl_command_queue queue, bool ooo,
                                     const void *ptr, size_t size, const char *fn) {
    clmem__pool *p;
    clmem__pool_shard *sh;
    if (!(gen & 1) || clmem__gen_load(&blk->owner.gen) != gen) return clmem__pool_put_stale(blk, ptr, size, fn);
    p = blk->pool;
    sh = blk->sh;
    clmem__pool_lock(&sh->lock);
    if (clmem__gen_load(&blk->owner.gen) != gen) {
        clmem__pool_unlock(&sh->lock);
        return clmem__pool_put_stale(blk, ptr, size, fn);
    }
    clmem__gen_store(&blk->owner.gen, gen + 1);
    clmem__pool_deactivate(sh, blk);
    if (queue && queue == blk->queue) {
        blk->pending = true; /* the queue it has: nothing to retain */
    } else if (queue) {
        clmem__pool_put_queue(sh, blk, queue, ooo);
    } else {
        blk->pending = p->binds_queue && blk->queue != NULL; /* SVM: still ordered behind its queue */
    }
    if (!p->stop_holding) {
        clmem__pool_hold(sh, blk);
        clmem__pool_unlock(&sh->lock);
        return CL_SUCCESS;
    }
    return clmem__pool_put_free(p, sh, blk);
}

/* free the records in `list` (taken off the books, their bytes still managed) */
static void clmem__pool_free_list(clmem__pool *p, clmem__pool_block *list) {
    clmem__pool_block *blk;
    while ((blk = list) != NULL) {
        list = blk->next;
        clmem__pool_backend_free(p, blk);
        clmem__pool_lock(&p->lock);
        p->managed_bytes -= clmem_alloc_size(p->L, blk->bin);
        ++p->allocator_frees;
        clmem__pool_spare(p, blk);
        clmem__pool_unlock(&p->lock);
    }
}

/* out-of-memory stage 2: free one held block of the highest bin any shard holds */
static bool clmem__pool_free_one(clmem__pool *p) {
    unsigned i, best_shard = 0;
    uint32_t b, best = 0;
    bool found = false;
    clmem__pool_block *blk = NULL;
    for (i = 0; i < p->nshards; ++i) {
        clmem__pool_shard *sh = &p->shards[i].s;
        clmem__pool_lock(&sh->lock);
        if (sh->bins && sh->held_blocks)
            for (b = p->nbins; b-- > 0;)
                if (sh->bins[b].nheld) {
                    if (!found || b > best) {
                        best = b;
                        best_shard = i;
                        found = true;
                    }
                    break;
                }
        clmem__pool_unlock(&sh->lock);
    }
    if (!found) return false;
    {
        clmem__pool_shard *sh = &p->shards[best_shard].s;
        clmem__pool_lock(&sh->lock);
        blk = clmem__pool_take(sh, best, NULL);
        if (blk) {
            --sh->bins[best].nblocks;
            clmem__state_store(&blk->state, CLMEM__BLOCK_FREED);
        }
        clmem__pool_unlock(&sh->lock);
    }
    if (!blk) return true; /* taken meanwhile: look again */
    clmem__pool_free_list(p, blk);
    return true;
}

/* two lists sorted by bin, merged (stable) */
static clmem__pool_block *clmem__pool_merge(clmem__pool_block *a, clmem__pool_block *b) {
    clmem__pool_block *head = NULL, **tail = &head;
    while (a && b) {
        if (b->bin < a->bin) {
            *tail = b;
            b = b->next;
        } else {
            *tail = a;
            a = a->next;
        }
        tail = &(*tail)->next;
    }
    *tail = a ? a : b;
    return head;
}

static cl_int clmem__pool_free_held(clmem__pool *p) {
    /* lowest bin first, as PyOpenCL; take the lot under the locks, free outside */
    clmem__pool_block *all = NULL;
    unsigned i;
    uint32_t b;
    for (i = 0; i < p->nshards; ++i) {
        clmem__pool_shard *sh = &p->shards[i].s;
        clmem__pool_block *list = NULL, **tail = &list, *blk;
        clmem__pool_lock(&sh->lock);
        if (sh->bins && sh->held_blocks)
            for (b = 0; b < p->nbins; ++b) {
                while (sh->bins[b].nheld && (blk = clmem__pool_take(sh, b, NULL)) != NULL) {
                    --sh->bins[b].nblocks;
                    clmem__state_store(&blk->state, CLMEM__BLOCK_FREED);
                    *tail = blk;
                    tail = &blk->next;
                }
            }
        clmem__pool_unlock(&sh->lock);
        all = clmem__pool_merge(all, list);
    }
    clmem__pool_free_list(p, all);
    return CL_SUCCESS;
}

static void clmem__pool_stats(clmem__pool *p, clmem_pool_stats *s) {
    unsigned i;
    uint32_t b;
    memset(s, 0, sizeof *s);
    clmem__pool_lock_all(p);
    for (i = 0; i < p->nshards; ++i) {
        const clmem__pool_shard *sh = &p->shards[i].s;
        s->held_blocks += sh->held_blocks;
        s->active_blocks += sh->active_blocks;
        s->active_bytes += sh->active_bytes;
        s->hits += sh->hits;
        s->misses += sh->misses;
        if (sh->peak_active_blocks > s->peak_active_blocks) s->peak_active_blocks = sh->peak_active_blocks;
        if (sh->peak_active_bytes > s->peak_active_bytes) s->peak_active_bytes = sh->peak_active_bytes;
    }
    for (b = 0; b < p->nbins; ++b)
        for (i = 0; i < p->nshards; ++i) {
            const clmem__pool_bin *bin = p->shards[i].s.bins ? &p->shards[i].s.bins[b] : NULL;
            if (bin && bin->nblocks) {
                ++s->nonempty_bins;
                break;
            }
        }
    s->allocations = s->hits + s->misses;
    s->shards = p->nshards;
    if (s->active_blocks > s->peak_active_blocks) s->peak_active_blocks = s->active_blocks;
    if (s->active_bytes > s->peak_active_bytes) s->peak_active_bytes = s->active_bytes;
    s->managed_bytes = p->managed_bytes;
    s->peak_managed_bytes = p->peak_managed_bytes;
    s->allocator_frees = p->allocator_frees;
    s->oom_events = p->oom_events;
    s->limit = p->limit;
    clmem__pool_unlock_all(p);
}

static void clmem__pool_reset_peaks(clmem__pool *p) {
    unsigned i;
    size_t a, ab;
    clmem__pool_lock_all(p);
    clmem__pool_totals(p, NULL, &a, &ab);
    clmem__pool_rebase(p, &p->shards[clmem__pool_thread_number() & p->shard_mask].s);
    for (i = 0; i < p->nshards; ++i) {
        p->shards[i].s.peak_active_blocks = a;
        p->shards[i].s.peak_active_bytes = ab;
    }
    p->peak_managed_bytes = p->managed_bytes;
    clmem__pool_unlock_all(p);
}

static cl_int clmem__pool_bins(clmem__pool *p, clmem_pool_bin_info *out, size_t capacity, size_t *count) {
    uint32_t b;
    unsigned i;
    size_t n = 0;
    clmem__pool_lock_all(p);
    for (b = 0; b < p->nbins; ++b) {
        size_t held = 0, active = 0;
        for (i = 0; i < p->nshards; ++i)
            if (p->shards[i].s.bins) {
                held += p->shards[i].s.bins[b].nheld;
                active += p->shards[i].s.bins[b].nblocks - p->shards[i].s.bins[b].nheld;
            }
        if (!held && !active) continue;
        if (out && n < capacity) {
            out[n].bin = b;
            out[n].alloc_size = clmem_alloc_size(p->L, b);
            out[n].held = held;
            out[n].active = active;
        }
        ++n;
    }
    clmem__pool_unlock_all(p);
    *count = n;
    return CL_SUCCESS;
}

static cl_int clmem__pool_active_info(clmem__pool *p, clmem_pool_block_info *out, size_t capacity, size_t *count) {
    clmem__pool_block *blk;
    size_t n = 0;
    unsigned i;
    clmem__pool_lock_all(p);
    for (i = 0; i < p->nshards; ++i)
        for (blk = p->shards[i].s.active; blk; blk = blk->next_active, ++n) {
            if (out && n < capacity) {
                out[n].ptr = blk->ptr;
                out[n].size = blk->size;
                out[n].alloc_size = clmem_alloc_size(p->L, blk->bin);
                out[n].file = blk->file;
                out[n].line = blk->line;
            }
        }
    clmem__pool_unlock_all(p);
    *count = n;
    return CL_SUCCESS;
}

static size_t clmem__pool_count(clmem__pool *p, int what) {
    size_t held, active, abytes, v;
    clmem__pool_lock_all(p);
    clmem__pool_totals(p, &held, &active, &abytes);
    v = what == 0 ? held : what == 1 ? active : what == 2 ? p->managed_bytes : abytes;
    clmem__pool_unlock_all(p);
    return v;
}

/* The rule (issue 17): a pool's release takes effect at once (held blocks are freed,
   released blocks are freed from then on) but the pool's memory stays until the last
   active block is released, from any thread, and until every release running at that
   moment is done. Blocks still active make the release return CLMEM_ERROR_IN_USE. */
static cl_int clmem__pool_release(clmem__pool *p, const char *fn) {
    size_t active, abytes;
    bool destroy;
    clmem__pool_lock_all(p);
    if (p->released) {
        clmem__pool_unlock_all(p);
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn, "the pool was already released (and its blocks are "
                                                           "still active, or this would be a use after free)");
    }
    p->released = true;
    p->stop_holding = true;
    ++p->busy;
    clmem__pool_unlock_all(p);
    clmem__pool_free_held(p);
    clmem__pool_lock_all(p);
    --p->busy;
    clmem__pool_totals(p, NULL, &active, &abytes);
#if defined(CLMEM_TRACK_ALLOCATIONS)
    {
        clmem__pool_block *blk;
        unsigned i;
        for (i = 0; i < p->nshards; ++i)
            for (blk = p->shards[i].s.active; blk; blk = blk->next_active)
                clmem__warn(fn, "block %p of %zu bytes (%zu allocated) is still active; allocated at %s:%d",
                            blk->ptr, blk->size, clmem_alloc_size(p->L, blk->bin),
                            blk->file ? blk->file : "(unknown)", blk->line);
    }
#endif
    destroy = clmem__pool_last_one(p);
    clmem__pool_unlock_all(p);
    if (destroy) clmem__pool_destroy(p);
    if (active)
        return clmem__fail(CLMEM_ERROR_IN_USE, fn,
                           "%zu block(s) of the pool (%zu bytes) are still active; the pool is released all the "
                           "same and goes when the last of them is released",
                           active, abytes);
    return CL_SUCCESS;
}

static cl_int clmem__pool_null(const char *fn) { return clmem__fail(CL_INVALID_VALUE, fn, "pool is NULL"); }

/* the block of an active hand-out, or NULL when the handle is stale */
static clmem__pool_block *clmem__pool_live(void *block, uint64_t gen) {
    clmem__pool_block *blk = CLMEM__CAST(clmem__pool_block *, block);
    if (!blk || !(gen & 1) || clmem__gen_load(&blk->owner.gen) != gen) return NULL;
    return blk;
}

/* clmem__pool_of_live(block, gen, be): the pool of a handle's block while the handle is
   live, the pool is of backend be and not released; NULL otherwise */
static clmem__pool *clmem__pool_of_live(void *block, uint64_t gen, const clmem__pool_backend *be) {
    clmem__pool_block *blk = clmem__pool_live(block, gen);
    clmem__pool *p;
    bool released;
    if (!blk) return NULL;
    p = blk->pool;
    if (p->be != be) return NULL;
    clmem__pool_lock(&p->lock);
    released = p->released;
    clmem__pool_unlock(&p->lock);
    return released ? NULL : p;
}

/* before a release on `queue` (clmem_*_enqueue_release): the queue must be valid and
   of the pool's context, and whether it runs out of order is read here (a failed
   query is its code). Nothing to check for a stale handle (the release reports it)
   or the queue the block already has. */
static cl_int clmem__pool_check_release_queue(clmem__pool_block *blk, uint64_t gen, cl_command_queue queue,
                                              const char *fn, bool *ooo) {
    cl_int err;
    *ooo = false;
    if (CLMEM__CHECKS && queue == NULL)
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL (a plain release is for a block that "
                                                         "nothing on any queue still uses)");
    if (!clmem__pool_live(blk, gen) || queue == blk->queue) return CL_SUCCESS;
    if ((err = clmem__pool_check_queue(blk->pool, queue, fn)) != CL_SUCCESS) return err;
    return clmem__queue_out_of_order(fn, queue, ooo);
}

/* A pool kind's four allocate entry points (clmem_<kind>_allocate, _allocate_at,
   _allocate_on_queue, _allocate_on_queue_at) over its own allocate, impl(pool, size,
   on_queue, queue, errcode_ret, fn, file, line), which checks, calls the core and
   makes the kind's handle. */
#define CLMEM__POOL_ALLOCATE(kind, handle, impl)                                                                   \
    CLMEM_API handle clmem_##kind##_allocate_at(clmem_##kind *pool, size_t size, cl_int *errcode_ret,              \
                                                const char *file, int line) {                                      \
        return impl(pool, size, false, NULL, errcode_ret, "clmem_" #kind "_allocate", file, line);               \
    }                                                                                                              \
    CLMEM_API handle(clmem_##kind##_allocate)(clmem_##kind *pool, size_t size, cl_int *errcode_ret) {              \
        return impl(pool, size, false, NULL, errcode_ret, "clmem_" #kind "_allocate", NULL, 0);                  \
    }                                                                                                              \
    CLMEM_API handle clmem_##kind##_allocate_on_queue_at(clmem_##kind *pool, size_t size, cl_command_queue queue,  \
                                                         cl_int *errcode_ret, const char *file, int line) {        \
        return impl(pool, size, true, queue, errcode_ret, "clmem_" #kind "_allocate_on_queue", file, line);      \
    }                                                                                                              \
    CLMEM_API handle(clmem_##kind##_allocate_on_queue)(clmem_##kind *pool, size_t size, cl_command_queue queue,    \
                                                       cl_int *errcode_ret) {                                      \
        return clmem_##kind##_allocate_on_queue_at(pool, size, queue, errcode_ret, NULL, 0);                     \
    }

/* ---- buffer pools ---- */

/* clmem__pool_give_back(handle, handle_size, block, gen, ptr, size, queue, ooo, fn): the
   release of a pooled handle: empty the caller's handle, then give its block back
   (clmem__pool_put; the arguments were read from the handle before). Inlined. */
CLMEM__INLINE cl_int clmem__pool_give_back(void *handle, size_t handle_size, void *block, uint64_t gen,
                                          const void *ptr, size_t size, cl_command_queue queue, bool ooo,
                                          const char *fn) {
    memset(handle, 0, handle_size);
    return clmem__pool_put(CLMEM__CAST(clmem__pool_block *, block), gen, queue, ooo, ptr, size, fn);
}

static cl_int clmem__pool_release_buffer(clmem_buffer *buf) {
    return clmem__pool_give_back(buf, sizeof *buf, buf->pool, buf->generation, buf->mem, buf->size, NULL, false,
                                 "clmem_buffer_release");
}

/* the buffer backend: blocks from a clmem_allocator */
static cl_int clmem__pool_buffer_make(void *user, size_t size, void **ptr, void **mem) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    cl_mem m = NULL;
    cl_int err = a->ops.allocate(a->user, size, &m);
    (void)mem;
    *ptr = m;
    return err;
}

static void clmem__pool_buffer_free(void *user, clmem__pool_block *blk) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    /* clReleaseMemObject waits for the commands using the buffer by itself; a custom
       free may not: wait for the point where the block was released */
    if (blk->pending && blk->queue && a->ops.free != clmem__cl_free) clmem__pool_wait_queue(blk->queue);
    a->ops.free(a->user, CLMEM__CAST(cl_mem, blk->ptr));
}

static void clmem__pool_buffer_try_release(void *user) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    if (a->ops.try_release_blocks) a->ops.try_release_blocks(a->user);
}

static void clmem__pool_buffer_destroy(void *user) { clmem_allocator_release(CLMEM__CAST(clmem_allocator *, user)); }

static const clmem__pool_backend clmem__pool_buffer_backend = {clmem__pool_buffer_make, clmem__pool_buffer_free,
                                                               clmem__pool_buffer_try_release,
                                                               clmem__pool_buffer_destroy, false};

CLMEM_API clmem_memory_pool *clmem_memory_pool_create(clmem_allocator *allocator, unsigned leading_bits_in_bin_id,
                                                      cl_int *errcode_ret) {
    static const char fn[] = "clmem_memory_pool_create";
    clmem__pool *p = clmem__pool_over(fn, allocator, allocator, allocator ? allocator->context : NULL,
                                      leading_bits_in_bin_id, &clmem__pool_buffer_backend, errcode_ret);
    if (!p) return NULL;
    clmem_allocator_retain(allocator);
    p->flags = allocator->flags;
    if (allocator->ops.is_deferred)
        clmem__warn(fn, "memory pools expect non-deferred allocators: a deferred allocator may report out-of-memory "
                        "only at first use, where the pool cannot free held blocks and retry "
                        "(use clmem_immediate_allocator_create)");
    return CLMEM__CAST(clmem_memory_pool *, (void *)p);
}

#if CLMEM__GNU && defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
CLMEM__STATIC_ASSERT(sizeof(clmem_pooled_svm) == 32 && offsetof(clmem_pooled_svm, svm.pool) == 16 &&
                         offsetof(clmem_pooled_svm, svm.generation) == 24,
                     "clmem_pooled_svm: ptr, size, pool, generation (clmem__pooled_svm_handle writes them so)");
CLMEM__STATIC_ASSERT(sizeof(clmem_buffer) == 64 && offsetof(clmem_buffer, context) == 8 &&
                         offsetof(clmem_buffer, flags) == 24 && offsetof(clmem_buffer, root) == 32 &&
                         offsetof(clmem_buffer, origin) == 40 && offsetof(clmem_buffer, pool) == 48,
                     "clmem_buffer: eight 64-bit words in this order (clmem__pool_handle writes them so)");
#endif

/* the handle of a block just handed out */
static inline clmem_buffer clmem__pool_handle(const clmem__pool *p, const clmem__pool_block *blk, size_t size) {
    clmem_buffer b;
#if CLMEM__GNU && defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
    /* Written as four 16-byte pairs: the caller copies the returned handle with 16-byte
       loads (gcc and clang do, where the result goes to a variable whose address is
       taken), and each load is then served from one store. Field by field, three of
       the four loads spanned two stores and stalled (store forwarding): 31 instead of
       21 ns a pair in bench/pool_bench's main loop. */
    typedef uint64_t clmem__u64x2 __attribute__((vector_size(16)));
    const clmem__u64x2 v[4] = {{(uint64_t)(uintptr_t)blk->ptr, (uint64_t)(uintptr_t)p->context},
                               {(uint64_t)size, (uint64_t)p->flags},
                               {(uint64_t)(uintptr_t)blk->ptr, 0},
                               {(uint64_t)(uintptr_t)blk, blk->owner.gen}};
    memcpy(&b, v, sizeof b);
#else
    b.mem = CLMEM__CAST(cl_mem, blk->ptr);
    b.context = p->context;
    b.size = size;
    b.flags = p->flags;
    b.root = b.mem;
    b.origin = 0;
    b.pool = clmem__unconst(blk);
    b.generation = blk->owner.gen;
#endif
    return b;
}

/* clmem__pool_get_checked(p, size, on_queue, queue, ..., errcode_ret, &blk): a kind's allocate
   up to its handle: for a block on a queue (on_queue) the queue's checks, then
   clmem__pool_get; the code is also set in *errcode_ret. Always inlined (the fast path). */
CLMEM__INLINE cl_int clmem__pool_get_checked(clmem__pool *p, size_t size, bool on_queue, cl_command_queue queue,
                                             const char *fn, const char *file, int line, cl_int *errcode_ret,
                                             clmem__pool_block **blk) {
    cl_int err = on_queue ? clmem__pool_check_queue(p, queue, fn) : CL_SUCCESS;
    if (err == CL_SUCCESS) err = clmem__pool_get(p, size, queue, fn, file, line, blk);
    clmem__set_err(errcode_ret, err);
    return err;
}

/* queue: the queue the block is for (on_queue), or NULL for the host. Always inlined:
   the plain allocate is then the fast path alone (bench/pool_bench.c) */
CLMEM__INLINE clmem_buffer clmem__memory_pool_allocate(clmem_memory_pool *pool, size_t size, bool on_queue,
                                                       cl_command_queue queue, cl_int *errcode_ret, const char *fn,
                                                       const char *file, int line) {
    clmem__pool_block *blk = NULL;
    if (CLMEM__CHECKS && pool == NULL) {
        clmem__set_err(errcode_ret, clmem__pool_null(fn));
        return clmem__buffer_empty();
    }
    if (clmem__pool_get_checked(&pool->core, size, on_queue, queue, fn, file, line, errcode_ret, &blk) != CL_SUCCESS)
        return clmem__buffer_empty();
    return clmem__pool_handle(&pool->core, blk, size);
}

CLMEM__POOL_ALLOCATE(memory_pool, clmem_buffer, clmem__memory_pool_allocate)

CLMEM_API cl_int clmem_pooled_buffer_enqueue_release(clmem_buffer *buf, cl_command_queue queue) {
    static const char fn[] = "clmem_pooled_buffer_enqueue_release";
    cl_int err;
    bool ooo = false;
    if (!buf || !buf->mem) return CL_SUCCESS;
    if (CLMEM__CHECKS && !buf->pool)
        return clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                           "buffer %p is not a pooled buffer (release it with clmem_buffer_release)",
                           (void *)buf->mem);
    err = clmem__pool_check_release_queue(CLMEM__CAST(clmem__pool_block *, buf->pool), buf->generation, queue, fn, &ooo);
    if (err != CL_SUCCESS) return err;
    return clmem__pool_give_back(buf, sizeof *buf, buf->pool, buf->generation, buf->mem, buf->size, queue, ooo, fn);
}

CLMEM_API clmem_memory_pool *clmem_pooled_buffer_pool(clmem_buffer buf) {
    if (!buf.mem) return NULL;
    return CLMEM__CAST(clmem_memory_pool *,
                       (void *)clmem__pool_of_live(buf.pool, buf.generation, &clmem__pool_buffer_backend));
}

#define CLMEM__POOL_GETTER(kind, name, what)                     \
    CLMEM_API size_t clmem_##kind##_##name(clmem_##kind *pool) { \
        if (!pool) return 0;                                     \
        return clmem__pool_count(&pool->core, what);             \
    }

/* the rest of each pool's API: the same core under each kind's names (the pinned
   pool's are made in pinned.c) */
#define CLMEM__POOL_COMMON(kind)                                                                                   \
    CLMEM__POOL_GETTER(kind, held_blocks, 0)                                                                       \
    CLMEM__POOL_GETTER(kind, active_blocks, 1)                                                                     \
    CLMEM__POOL_GETTER(kind, managed_bytes, 2)                                                                     \
    CLMEM__POOL_GETTER(kind, active_bytes, 3)                                                                      \
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
        clmem__pool_lock_all(&pool->core);                                                                         \
        pool->core.stop_holding = true;                                                                            \
        clmem__pool_unlock_all(&pool->core);                                                                       \
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
        clmem__pool_reset_peaks(&pool->core);                                                                      \
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
        clmem__pool_lock(&pool->core.lock);                                                                        \
        pool->core.limit = max_managed_bytes;                                                                      \
        clmem__pool_unlock(&pool->core.lock);                                                                      \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_set_oom_callback(clmem_##kind *pool, clmem_pool_oom_fn fn, void *user) {       \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_set_oom_callback");                  \
        clmem__pool_lock(&pool->core.lock);                                                                        \
        pool->core.oom_fn = fn;                                                                                    \
        pool->core.oom_user = user;                                                                                \
        clmem__pool_unlock(&pool->core.lock);                                                                      \
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
