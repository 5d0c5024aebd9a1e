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

/* The locks guard a few pointer and counter updates and are never held across a
   driver call, an allocator call or a callback. Where the compiler has atomic
   builtins a lock is a spinlock that yields the processor when it has to wait (an
   uncontended pthread mutex pair costs as much as the rest of a pooled allocation);
   elsewhere it is a clmem__mutex. */
#ifdef CLMEM__POOL_SPINLOCK /* pool.h */
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

/* a record of no pool (clmem__pool_record_global) handed out: its generation made odd;
   the new generation, for the handle */
static uint64_t clmem__pool_record_hand_out(clmem__pool_block *blk) {
    clmem__gen_store(&blk->owner.gen, blk->owner.gen + 1);
    return blk->owner.gen;
}

/* a record of no pool given back by a handle of generation gen: false when gen is not
   the current hand-out (a second release, through this handle or a copy) */
static bool clmem__pool_record_give_back(clmem__pool_block *blk, uint64_t gen) {
    return (gen & 1) && clmem__gen_cas(&blk->owner.gen, gen, gen + 1);
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
    if (p->keep_free_device) clReleaseDevice(p->keep_free_device);
    if (p->be->destroy) p->be->destroy(p->user);
    if (p->owns_facts) {
        if (p->facts_queue) clReleaseCommandQueue(p->facts_queue);
        else clReleaseContext(p->context);
        CLMEM_FREE(p->user);
    }
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

/* clmem__pool_check_bits(fn, L): a pool's leading_bits_in_bin_id, CL_INVALID_VALUE in
   words above CLMEM_POOL_MAX_LEADING_BITS (every pool's creation; a kind whose other
   checks cost more asks first) */
static cl_int clmem__pool_check_bits(const char *fn, unsigned L) {
    if (CLMEM__CHECKS && L > CLMEM_POOL_MAX_LEADING_BITS)
        return clmem__fail(CL_INVALID_VALUE, fn, "leading_bits_in_bin_id %u is above the maximum %d", L,
                           CLMEM_POOL_MAX_LEADING_BITS);
    return CL_SUCCESS;
}

/* a pool of `be` blocks over `user` (the caller hands its reference to the pool on
   success), L checked */
static clmem__pool *clmem__pool_new(const char *fn, unsigned L, const clmem__pool_backend *be, void *user,
                                    cl_context context, cl_int *errcode_ret) {
    clmem__pool *p = NULL;
    void *raw;
    unsigned i, nshards = clmem__pool_shard_count();
    cl_int err = clmem__pool_check_bits(fn, L);
    if (err != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
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

/* a pool over a copy of its backend's facts (size bytes at facts; the pinned, USM and
   peer pools) that holds a reference to `queue` when given, else to `context`: the
   copy and the reference go with the pool (clmem__pool_destroy) */
static clmem__pool *clmem__pool_with_facts(const char *fn, unsigned L, const clmem__pool_backend *be, const void *facts,
                                           size_t size, cl_context context, cl_command_queue queue,
                                           cl_int *errcode_ret) {
    clmem__pool *p;
    void *copy = clmem__alloc_for(size, fn, "the pool", errcode_ret);
    if (!copy) return NULL;
    memcpy(copy, facts, size);
    p = clmem__pool_new(fn, L, be, copy, context, errcode_ret);
    if (!p) {
        CLMEM_FREE(copy);
        return NULL;
    }
    p->owns_facts = true;
    p->facts_queue = queue;
    if (queue) clRetainCommandQueue(queue);
    else clRetainContext(context);
    return p;
}

/* what stopped a pool's growth (clmem__pool_fresh), for the message */
enum { CLMEM__POOL_STOP_LIMIT = 1, CLMEM__POOL_STOP_KEEP_FREE = 2 };
typedef struct clmem__pool_stop {
    int why;                          /* 0, or CLMEM__POOL_STOP_*: a limit of LIMITS (pool.h) */
    size_t keep;                      /* keep-free: the bytes to keep free */
    cl_ulong free_bytes;              /* and what the device had free */
    size_t others;                    /* and the bytes other threads were making */
    clmem_memory_info_source source;
    char device[128];
} clmem__pool_stop;

/* without a lock: a fresh block's memory of asz bytes, within the limits (LIMITS,
   pool.h): the managed-byte limit, then the keep-free, whose query of the device's
   free memory runs here only, when the pool must grow. Bytes other threads are making
   at that moment count against the keep-free too (their memory may not show yet). */
static cl_int clmem__pool_fresh(clmem__pool *p, size_t asz, void **ptr, void **mem, clmem__pool_stop *stop,
                                bool *null_ret) {
    cl_int err = CL_SUCCESS;
    size_t keep, others = 0;
    cl_device_id dev;
    stop->why = 0;
    *null_ret = false;
    clmem__pool_lock(&p->lock);
    if (p->limit && (asz > p->limit || p->managed_bytes > p->limit - asz)) {
        clmem__pool_unlock(&p->lock);
        stop->why = CLMEM__POOL_STOP_LIMIT;
        return CLMEM_ERROR_LIMIT_EXCEEDED;
    }
    p->managed_bytes += asz; /* reserved now, so that threads cannot pass the limit together */
    keep = p->keep_free;
    dev = p->keep_free_device;
    if (keep) {
        others = p->growing;
        ++p->querying;
        ++p->free_queries;
    }
    p->growing += asz;
    clmem__pool_unlock(&p->lock);
    if (keep) {
        clmem_memory_info mi;
        err = clmem_device_memory_info(dev, &mi);
        if (err == CL_SUCCESS) {
            cl_ulong spare = mi.free_bytes > (cl_ulong)keep ? mi.free_bytes - (cl_ulong)keep : 0;
            if (spare < (cl_ulong)asz || spare - (cl_ulong)asz < (cl_ulong)others) {
                stop->why = CLMEM__POOL_STOP_KEEP_FREE;
                stop->keep = keep;
                stop->free_bytes = mi.free_bytes;
                stop->others = others;
                stop->source = mi.source;
                clmem__device_name(dev, stop->device, sizeof stop->device);
                err = CLMEM_ERROR_LIMIT_EXCEEDED;
            }
        }
        clmem__pool_lock(&p->lock);
        --p->querying; /* dev may be released from here (clmem__pool_set_keep_free) */
        clmem__pool_unlock(&p->lock);
    }
    if (err == CL_SUCCESS) {
        *ptr = NULL;
        *mem = NULL;
        err = p->be->make(p->user, asz, ptr, mem);
        if (err == CL_SUCCESS && *ptr == NULL) {
            err = CL_INVALID_VALUE;
            *null_ret = true;
        }
    }
    clmem__pool_lock(&p->lock);
    p->growing -= asz;
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
    bool hooked = false, counted = false, null_ret = false;
    clmem__pool_stop stop;
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
        err = clmem__pool_fresh(p, asz, &ptr, &mem, &stop, &null_ret);
        if (err == CL_SUCCESS) break;
        if (err == CL_INVALID_BUFFER_SIZE && !null_ret) /* 1 PiB: more than any device allocates */
            return clmem__fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, fn,
                               "a block of %zu bytes (for %zu asked) is more than the device can allocate (the "
                               "allocator reported CL_INVALID_BUFFER_SIZE)", asz, size);
        if (!stop.why && !clmem__is_oom(err)) {
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
        if (stop.why == CLMEM__POOL_STOP_KEEP_FREE)
            return clmem__fail(CLMEM_ERROR_LIMIT_EXCEEDED, fn,
                               "a block of %zu bytes (for %zu asked) would leave device '%s' less than the pool's "
                               "keep-free of %zu bytes free (clmem_device_memory_info: %llu bytes free, source "
                               "%s%s), and no held block is left to free", asz, size, stop.device, stop.keep,
                               (unsigned long long)stop.free_bytes, clmem_memory_info_source_name(stop.source),
                               stop.others ? "; blocks other threads are making counted" : "");
        if (stop.why) {
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

/* The rule: a pool's release takes effect at once (held blocks are freed,
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

/* the generation of a block's current hand-out (odd while handed out), what its handle
   carries */
static inline uint64_t clmem__pool_generation(const clmem__pool_block *blk) { return blk->owner.gen; }

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

/* clmem__pool_kind_get(pool, size, ...): the block of clmem__pool_get_checked for a kind
   whose pool is its core (the pinned, USM and peer pools: `clmem_<kind> { clmem__pool
   core; }`), a NULL pool refused first ("pool is NULL"); NULL on failure, the code in
   *errcode_ret either way. Inlined. */
CLMEM__INLINE clmem__pool_block *clmem__pool_kind_get(void *pool, size_t size, bool on_queue, cl_command_queue queue,
                                                      const char *fn, const char *file, int line,
                                                      cl_int *errcode_ret) {
    clmem__pool_block *blk = NULL;
    if (CLMEM__CHECKS && pool == NULL) clmem__set_err(errcode_ret, clmem__pool_null(fn));
    else if (clmem__pool_get_checked(CLMEM__CAST(clmem__pool *, pool), size, on_queue, queue, fn, file, line,
                                     errcode_ret, &blk) != CL_SUCCESS)
        blk = NULL;
    return blk;
}

/* clmem__pool_any_size(pool, size, fn): CL_SUCCESS, the check of CLMEM__POOL_KIND_ALLOCATE
   (pool.h) for a kind that takes every size (the USM pool: what a block may hold is the
   driver's to say) */
static inline cl_int clmem__pool_any_size(const void *pool, size_t size, const char *fn) {
    (void)pool;
    (void)size;
    (void)fn;
    return CL_SUCCESS;
}

/* ---- the release of a pooled handle ---- */

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
