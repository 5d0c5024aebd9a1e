/* >>pinned (implementation) */
#include "pinned.h"

#define CLMEM__PINNED_ACCESS (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)

enum { CLMEM__PIN_ACTIVE = 1, CLMEM__PIN_HELD = 2, CLMEM__PIN_FREED = 3 };

/* One piece of pinned memory: a plain allocation, or a block of a pinned pool (whose
   record lives as long as the pool and is reused after its memory is freed). */
typedef struct clmem__pinned_block {
    cl_mem mem;
    void *ptr;
    size_t size;                      /* asked for by the current holder */
    cl_command_queue queue;           /* plain allocations: retained; pool blocks: NULL */
    clmem_pinned_pool *pool;          /* NULL for a plain allocation */
    struct clmem__pinned_block *next; /* in a bin's held list, or the spare list */
    struct clmem__pinned_block *prev_active, *next_active;
    const char *file;
    int line;
    uint32_t bin;
    int state;
} clmem__pinned_block;

/* ---- the registry of live hand-outs (base.c's registry: stale ids are recognised) ---- */

static clmem__registry clmem__pinned_reg = CLMEM__REGISTRY_INIT;

/* Register a hand-out; 0 when out of host memory. */
static uint64_t clmem__pinned_reg_add(clmem__pinned_block *blk) { return clmem__reg_add(&clmem__pinned_reg, blk, 0); }

/* Take a live hand-out out of the registry (its id is dead from now on); NULL when
   the id is not live (released already, or never handed out). */
static clmem__pinned_block *clmem__pinned_reg_take(uint64_t id) {
    clmem__pinned_block *blk = CLMEM__CAST(clmem__pinned_block *, clmem__reg_find(&clmem__pinned_reg, id, 0, true));
    if (blk) clmem__reg_remove(&clmem__pinned_reg, id);
    return blk;
}

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
    *max_alloc = 0;
    if (clGetDeviceInfo(*dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof *max_alloc, max_alloc, NULL) != CL_SUCCESS ||
        *max_alloc == 0)
        *max_alloc = (cl_ulong)SIZE_MAX;
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

/* Unmap (flushed, not waited for) and release; the unmap's code. */
static cl_int clmem__pinned_unmake(cl_command_queue queue, cl_mem mem, void *ptr) {
    cl_int err = clEnqueueUnmapMemObject(queue, mem, ptr, 0, NULL, NULL);
    if (err == CL_SUCCESS) clFlush(queue);
    clReleaseMemObject(mem);
    return err;
}

static bool clmem__pinned_is_oom(cl_int err) {
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY;
}

/* ---- plain allocations ---- */

CLMEM_API clmem_pinned_allocation clmem_pinned_allocation_create(cl_command_queue queue, size_t size,
                                                                 cl_mem_flags flags, cl_int *errcode_ret) {
    static const char fn[] = "clmem_pinned_allocation_create";
    clmem_pinned_allocation a;
    clmem__pinned_block *blk;
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_ulong max_alloc;
    cl_mem_flags f = 0;
    const char *call = "";
    cl_int err;
    memset(&a, 0, sizeof a);
    if ((err = clmem__pinned_queue_facts(fn, queue, &ctx, &dev, &max_alloc)) != CL_SUCCESS ||
        (err = clmem__pinned_flags(fn, flags, &f)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return a;
    }
    if (size == 0) {
        clmem__set_err(errcode_ret, CL_SUCCESS);
        return a;
    }
    if (CLMEM__CHECKS && (cl_ulong)size > max_alloc) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn,
                                                "size %zu is above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes) of the "
                                                "queue's device", size, (unsigned long long)max_alloc));
        return a;
    }
    blk = CLMEM__CAST(clmem__pinned_block *, CLMEM_MALLOC(sizeof *blk));
    if (!blk) {
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a record"));
        return a;
    }
    memset(blk, 0, sizeof *blk);
    err = clmem__pinned_make(queue, ctx, f, size, &blk->mem, &blk->ptr, &call);
    if (err != CL_SUCCESS) {
        CLMEM_FREE(blk);
        clmem__set_err(errcode_ret, clmem__fail(err, fn, "%s of %zu pinned bytes failed with %s (%d)", call, size,
                                                clmem_error_string(err), (int)err));
        return a;
    }
    blk->size = size;
    blk->state = CLMEM__PIN_ACTIVE;
    a.id = clmem__pinned_reg_add(blk);
    if (a.id == 0) {
        clmem__pinned_unmake(queue, blk->mem, blk->ptr);
        CLMEM_FREE(blk);
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the registry"));
        return a;
    }
    clRetainCommandQueue(queue);
    blk->queue = queue;
    a.ptr = blk->ptr;
    a.size = size;
    a.mem = blk->mem;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return a;
}

static cl_int clmem__pinned_pool_put(clmem__pinned_block *blk);

CLMEM_API cl_int clmem_pinned_allocation_release(clmem_pinned_allocation *a) {
    static const char fn[] = "clmem_pinned_allocation_release";
    clmem__pinned_block *blk;
    cl_int err;
    if (!a || a->id == 0) {
        if (a) memset(a, 0, sizeof *a);
        return CL_SUCCESS;
    }
    blk = clmem__pinned_reg_take(a->id);
    if (!blk)
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                           "pinned allocation (id 0x%llx, ptr %p) was already released, through this handle or a copy",
                           (unsigned long long)a->id, a->ptr);
    a->ptr = NULL;
    a->size = 0;
    a->mem = NULL; /* the id stays: a second release of this handle is recognised */
    if (blk->pool) return clmem__pinned_pool_put(blk);
    err = clmem__pinned_unmake(blk->queue, blk->mem, blk->ptr);
    clReleaseCommandQueue(blk->queue);
    CLMEM_FREE(blk);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueUnmapMemObject");
    return CL_SUCCESS;
}

/* ---- pinned pools ---- */

typedef struct clmem__pinned_bin {
    clmem__pinned_block *held;
    size_t nheld, nactive;
} clmem__pinned_bin;

struct clmem_pinned_pool {
    clmem__mutex lock; /* guards everything below but the constants; never held across a driver call */
    unsigned L;
    uint32_t nbins;
    clmem__pinned_bin *bins;
    clmem__pinned_block *spare;
    clmem__pinned_block *active; /* most recent first */
    clmem_pool_stats st;
    clmem_pool_oom_fn oom_fn;
    void *oom_user;
    size_t busy; /* blocks taken out to be freed, not freed yet */
    bool stop_holding, released, dying;
    cl_command_queue queue; /* retained */
    cl_context context;
    cl_mem_flags flags;
    cl_ulong max_alloc;
};

static void clmem__pinned_pool_peaks(clmem_pinned_pool *p) {
    if (p->st.managed_bytes > p->st.peak_managed_bytes) p->st.peak_managed_bytes = p->st.managed_bytes;
    if (p->st.active_bytes > p->st.peak_active_bytes) p->st.peak_active_bytes = p->st.active_bytes;
    if (p->st.active_blocks > p->st.peak_active_blocks) p->st.peak_active_blocks = p->st.active_blocks;
}

/* under the lock: a held block of `bin`, or NULL */
static clmem__pinned_block *clmem__pinned_pool_pop(clmem_pinned_pool *p, uint32_t bin) {
    clmem__pinned_block *blk = p->bins[bin].held;
    if (!blk) return NULL;
    p->bins[bin].held = blk->next;
    --p->bins[bin].nheld;
    --p->st.held_blocks;
    blk->next = NULL;
    return blk;
}

/* under the lock */
static void clmem__pinned_pool_activate(clmem_pinned_pool *p, clmem__pinned_block *blk, size_t size,
                                        const char *file, int line, bool hit) {
    blk->state = CLMEM__PIN_ACTIVE;
    blk->size = size;
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
    clmem__pinned_pool_peaks(p);
}

/* under the lock */
static void clmem__pinned_pool_deactivate(clmem_pinned_pool *p, clmem__pinned_block *blk) {
    if (blk->prev_active) blk->prev_active->next_active = blk->next_active;
    else p->active = blk->next_active;
    if (blk->next_active) blk->next_active->prev_active = blk->prev_active;
    blk->prev_active = blk->next_active = NULL;
    --p->bins[blk->bin].nactive;
    --p->st.active_blocks;
    p->st.active_bytes -= blk->size;
}

/* under the lock: a held block, taken out of the accounting (highest bin first when
   `highest`, else lowest), or NULL */
static clmem__pinned_block *clmem__pinned_pool_take_held(clmem_pinned_pool *p, bool highest) {
    uint32_t i;
    if (p->st.held_blocks == 0) return NULL;
    for (i = 0; i < p->nbins; ++i) {
        uint32_t b = highest ? p->nbins - 1 - i : i;
        if (p->bins[b].held) {
            clmem__pinned_block *blk = clmem__pinned_pool_pop(p, b);
            p->st.managed_bytes -= clmem_alloc_size(p->L, b);
            ++p->st.allocator_frees;
            blk->state = CLMEM__PIN_FREED;
            ++p->busy;
            return blk;
        }
    }
    return NULL;
}

static void clmem__pinned_pool_destroy(clmem_pinned_pool *p) {
    clmem__pinned_block *blk;
    while ((blk = p->spare) != NULL) {
        p->spare = blk->next;
        CLMEM_FREE(blk);
    }
    CLMEM_FREE(p->bins);
    clReleaseCommandQueue(p->queue);
    clmem__mutex_destroy(&p->lock);
    CLMEM_FREE(p);
}

/* without the lock: free a block's memory and keep its record as a spare; true when
   the pool is to be destroyed now (released, and that was its last active block) */
static bool clmem__pinned_pool_free_block(clmem_pinned_pool *p, clmem__pinned_block *blk) {
    bool destroy;
    cl_int err = clmem__pinned_unmake(p->queue, blk->mem, blk->ptr);
    if (err != CL_SUCCESS)
        clmem__warn("clmem_pinned_pool", "clEnqueueUnmapMemObject failed with %s (%d); the buffer was released",
                    clmem_error_string(err), (int)err);
    blk->mem = NULL;
    blk->ptr = NULL;
    clmem__lock(&p->lock);
    blk->state = CLMEM__PIN_FREED;
    blk->next = p->spare;
    p->spare = blk;
    --p->busy;
    destroy = p->released && !p->dying && p->st.active_blocks == 0 && p->busy == 0;
    if (destroy) p->dying = true;
    clmem__unlock(&p->lock);
    return destroy;
}

static cl_int clmem__pinned_pool_put(clmem__pinned_block *blk) {
    clmem_pinned_pool *p = blk->pool;
    bool destroy = false;
    clmem__lock(&p->lock);
    clmem__pinned_pool_deactivate(p, blk);
    if (!p->stop_holding) {
        blk->state = CLMEM__PIN_HELD;
        blk->next = p->bins[blk->bin].held;
        p->bins[blk->bin].held = blk;
        ++p->bins[blk->bin].nheld;
        ++p->st.held_blocks;
        clmem__unlock(&p->lock);
        return CL_SUCCESS;
    }
    blk->state = CLMEM__PIN_FREED;
    p->st.managed_bytes -= clmem_alloc_size(p->L, blk->bin);
    ++p->st.allocator_frees;
    ++p->busy;
    clmem__unlock(&p->lock);
    destroy = clmem__pinned_pool_free_block(p, blk);
    if (destroy) clmem__pinned_pool_destroy(p);
    return CL_SUCCESS;
}

static cl_int clmem__pinned_pool_null(const char *fn) { return clmem__fail(CL_INVALID_VALUE, fn, "pool is NULL"); }

CLMEM_API clmem_pinned_pool *clmem_pinned_pool_create(cl_command_queue queue, cl_mem_flags flags,
                                                      unsigned leading_bits_in_bin_id, cl_int *errcode_ret) {
    static const char fn[] = "clmem_pinned_pool_create";
    clmem_pinned_pool *p;
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_ulong max_alloc;
    cl_mem_flags f = 0;
    cl_int err;
    if ((err = clmem__pinned_queue_facts(fn, queue, &ctx, &dev, &max_alloc)) != CL_SUCCESS ||
        (err = clmem__pinned_flags(fn, flags, &f)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return NULL;
    }
    if (CLMEM__CHECKS && leading_bits_in_bin_id > CLMEM_POOL_MAX_LEADING_BITS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "leading_bits_in_bin_id %u is above the maximum %d",
                                                leading_bits_in_bin_id, CLMEM_POOL_MAX_LEADING_BITS));
        return NULL;
    }
    p = CLMEM__CAST(clmem_pinned_pool *, CLMEM_MALLOC(sizeof *p));
    if (p) {
        memset(p, 0, sizeof *p);
        p->L = leading_bits_in_bin_id;
        p->nbins = (uint32_t)(sizeof(size_t) * 8) << p->L; /* bin numbers are below 64 << L */
        p->bins = CLMEM__CAST(clmem__pinned_bin *, CLMEM_MALLOC(sizeof(clmem__pinned_bin) * p->nbins));
        if (!p->bins) {
            CLMEM_FREE(p);
            p = NULL;
        }
    }
    if (!p) {
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the pool"));
        return NULL;
    }
    memset(p->bins, 0, sizeof(clmem__pinned_bin) * p->nbins);
    clmem__mutex_init(&p->lock);
    clRetainCommandQueue(queue);
    p->queue = queue;
    p->context = ctx;
    p->flags = f;
    p->max_alloc = max_alloc;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return p;
}

/* without the lock: fresh memory of asz bytes within the limit (reserved in managed
   bytes before the driver is asked, so that threads cannot pass the limit together) */
static cl_int clmem__pinned_pool_fresh(clmem_pinned_pool *p, size_t asz, cl_mem *mem, void **ptr, bool *limited,
                                       const char **call) {
    cl_int err;
    *limited = false;
    clmem__lock(&p->lock);
    if (p->st.limit && (asz > p->st.limit || p->st.managed_bytes > p->st.limit - asz)) {
        clmem__unlock(&p->lock);
        *limited = true;
        return CLMEM_ERROR_LIMIT_EXCEEDED;
    }
    p->st.managed_bytes += asz;
    clmem__pinned_pool_peaks(p);
    clmem__unlock(&p->lock);
    err = clmem__pinned_make(p->queue, p->context, p->flags, asz, mem, ptr, call);
    if (err != CL_SUCCESS) {
        clmem__lock(&p->lock);
        p->st.managed_bytes -= asz;
        clmem__unlock(&p->lock);
    }
    return err;
}

CLMEM_API clmem_pinned_allocation clmem_pinned_pool_allocate_at(clmem_pinned_pool *p, size_t size,
                                                                cl_int *errcode_ret, const char *file, int line) {
    static const char fn[] = "clmem_pinned_pool_allocate";
    clmem_pinned_allocation a;
    clmem__pinned_block *blk;
    uint32_t bin;
    size_t asz;
    cl_mem mem = NULL;
    void *ptr = NULL;
    const char *call = "";
    bool limited = false, counted = false;
    unsigned attempt = 0;
    cl_int err = CL_SUCCESS;
    memset(&a, 0, sizeof a);
    if (CLMEM__CHECKS && p == NULL) {
        clmem__set_err(errcode_ret, clmem__pinned_pool_null(fn));
        return a;
    }
    bin = clmem_bin_number(p->L, size);
    asz = clmem_alloc_size(p->L, bin);
    if (CLMEM__CHECKS && (cl_ulong)asz > p->max_alloc) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn,
                                                "size %zu needs a block of %zu bytes, above CL_DEVICE_MAX_MEM_ALLOC_SIZE "
                                                "(%llu bytes) of the pool's device", size, asz,
                                                (unsigned long long)p->max_alloc));
        return a;
    }
    clmem__lock(&p->lock);
    blk = clmem__pinned_pool_pop(p, bin);
    if (blk) {
        clmem__pinned_pool_activate(p, blk, size, file, line, true);
        clmem__unlock(&p->lock);
        goto handout;
    }
    clmem__unlock(&p->lock);
    for (;;) {
        err = clmem__pinned_pool_fresh(p, asz, &mem, &ptr, &limited, &call);
        if (err == CL_SUCCESS) break;
        if (!limited && !clmem__pinned_is_oom(err)) {
            clmem__set_err(errcode_ret, clmem__fail(err, fn, "%s of a block of %zu pinned bytes (for %zu asked) failed "
                                                    "with %s (%d)", call, asz, size, clmem_error_string(err), (int)err));
            return a;
        }
        clmem__lock(&p->lock);
        if (!counted) ++p->st.oom_events;
        counted = true;
        blk = clmem__pinned_pool_pop(p, bin); /* another thread may have released one */
        if (blk) {
            clmem__pinned_pool_activate(p, blk, size, file, line, true);
            clmem__unlock(&p->lock);
            goto handout;
        }
        blk = clmem__pinned_pool_take_held(p, true); /* free one held block, largest bin first */
        clmem__unlock(&p->lock);
        if (blk) {
            clmem__pinned_pool_free_block(p, blk); /* not released: never the last */
            continue;
        }
        if (p->oom_fn && p->oom_fn(asz, ++attempt, p->oom_user)) continue;
        if (limited) {
            size_t managed, limit;
            clmem__lock(&p->lock);
            managed = p->st.managed_bytes;
            limit = p->st.limit;
            clmem__unlock(&p->lock);
            clmem__set_err(errcode_ret, clmem__fail(CLMEM_ERROR_LIMIT_EXCEEDED, fn,
                                                    "a block of %zu bytes (for %zu asked) would take managed bytes from "
                                                    "%zu past the pool's limit of %zu bytes, and no held block is left "
                                                    "to free", asz, size, managed, limit));
            return a;
        }
        clmem__set_err(errcode_ret, clmem__fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, fn,
                                                "failed to free memory for an allocation of %zu bytes (block of %zu): "
                                                "%s reported %s (%d) and no held block is left to free",
                                                size, asz, call, clmem_error_string(err), (int)err));
        return a;
    }
    clmem__lock(&p->lock);
    blk = p->spare;
    if (blk) p->spare = blk->next;
    clmem__unlock(&p->lock);
    if (!blk) blk = CLMEM__CAST(clmem__pinned_block *, CLMEM_MALLOC(sizeof *blk));
    if (!blk) {
        clmem__pinned_unmake(p->queue, mem, ptr);
        clmem__lock(&p->lock);
        p->st.managed_bytes -= asz;
        clmem__unlock(&p->lock);
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a block record"));
        return a;
    }
    memset(blk, 0, sizeof *blk);
    blk->mem = mem;
    blk->ptr = ptr;
    blk->pool = p;
    blk->bin = bin;
    clmem__lock(&p->lock);
    clmem__pinned_pool_activate(p, blk, size, file, line, false);
    clmem__unlock(&p->lock);
handout:
    a.id = clmem__pinned_reg_add(blk);
    if (a.id == 0) {
        clmem__pinned_pool_put(blk);
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the registry"));
        return a;
    }
    a.ptr = blk->ptr;
    a.size = size;
    a.mem = blk->mem;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return a;
}

CLMEM_API clmem_pinned_allocation(clmem_pinned_pool_allocate)(clmem_pinned_pool *pool, size_t size,
                                                              cl_int *errcode_ret) {
    return clmem_pinned_pool_allocate_at(pool, size, errcode_ret, NULL, 0);
}

#define CLMEM__PINNED_GETTER(name, field)                              \
    CLMEM_API size_t clmem_pinned_pool_##name(clmem_pinned_pool *pool) { \
        size_t v;                                                      \
        if (!pool) return 0;                                           \
        clmem__lock(&pool->lock);                                      \
        v = pool->st.field;                                            \
        clmem__unlock(&pool->lock);                                    \
        return v;                                                      \
    }
CLMEM__PINNED_GETTER(held_blocks, held_blocks)
CLMEM__PINNED_GETTER(active_blocks, active_blocks)
CLMEM__PINNED_GETTER(managed_bytes, managed_bytes)
CLMEM__PINNED_GETTER(active_bytes, active_bytes)
#undef CLMEM__PINNED_GETTER

CLMEM_API uint32_t clmem_pinned_pool_bin_number(clmem_pinned_pool *pool, size_t size) {
    return clmem_bin_number(pool ? pool->L : CLMEM_POOL_DEFAULT_LEADING_BITS, size);
}

CLMEM_API size_t clmem_pinned_pool_alloc_size(clmem_pinned_pool *pool, uint32_t bin) {
    return clmem_alloc_size(pool ? pool->L : CLMEM_POOL_DEFAULT_LEADING_BITS, bin);
}

/* lowest bin first; take them one at a time under the lock, free outside it */
static void clmem__pinned_pool_free_held(clmem_pinned_pool *p) {
    for (;;) {
        clmem__pinned_block *blk;
        clmem__lock(&p->lock);
        blk = clmem__pinned_pool_take_held(p, false);
        clmem__unlock(&p->lock);
        if (!blk) return;
        clmem__pinned_pool_free_block(p, blk); /* called before `released` is decided on */
    }
}

CLMEM_API cl_int clmem_pinned_pool_free_held(clmem_pinned_pool *pool) {
    if (CLMEM__CHECKS && !pool) return clmem__pinned_pool_null("clmem_pinned_pool_free_held");
    clmem__pinned_pool_free_held(pool);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_stop_holding(clmem_pinned_pool *pool) {
    if (CLMEM__CHECKS && !pool) return clmem__pinned_pool_null("clmem_pinned_pool_stop_holding");
    clmem__lock(&pool->lock);
    pool->stop_holding = true;
    clmem__unlock(&pool->lock);
    clmem__pinned_pool_free_held(pool);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_get_stats(clmem_pinned_pool *pool, clmem_pool_stats *stats) {
    uint32_t i;
    if (CLMEM__CHECKS && (!pool || !stats))
        return clmem__fail(CL_INVALID_VALUE, "clmem_pinned_pool_get_stats", "%s is NULL", pool ? "stats" : "pool");
    clmem__lock(&pool->lock);
    *stats = pool->st;
    stats->nonempty_bins = 0;
    for (i = 0; i < pool->nbins; ++i)
        if (pool->bins[i].nheld || pool->bins[i].nactive) ++stats->nonempty_bins;
    clmem__unlock(&pool->lock);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_reset_peaks(clmem_pinned_pool *pool) {
    if (CLMEM__CHECKS && !pool) return clmem__pinned_pool_null("clmem_pinned_pool_reset_peaks");
    clmem__lock(&pool->lock);
    pool->st.peak_managed_bytes = pool->st.managed_bytes;
    pool->st.peak_active_bytes = pool->st.active_bytes;
    pool->st.peak_active_blocks = pool->st.active_blocks;
    clmem__unlock(&pool->lock);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_bins(clmem_pinned_pool *pool, clmem_pool_bin_info *out, size_t capacity,
                                        size_t *count) {
    uint32_t i;
    size_t n = 0;
    if (CLMEM__CHECKS && (!pool || !count))
        return clmem__fail(CL_INVALID_VALUE, "clmem_pinned_pool_bins", "%s is NULL", pool ? "count" : "pool");
    clmem__lock(&pool->lock);
    for (i = 0; i < pool->nbins; ++i) {
        if (!pool->bins[i].nheld && !pool->bins[i].nactive) continue;
        if (out && n < capacity) {
            out[n].bin = i;
            out[n].alloc_size = clmem_alloc_size(pool->L, i);
            out[n].held = pool->bins[i].nheld;
            out[n].active = pool->bins[i].nactive;
        }
        ++n;
    }
    clmem__unlock(&pool->lock);
    *count = n;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_set_limit(clmem_pinned_pool *pool, size_t max_managed_bytes) {
    if (CLMEM__CHECKS && !pool) return clmem__pinned_pool_null("clmem_pinned_pool_set_limit");
    clmem__lock(&pool->lock);
    pool->st.limit = max_managed_bytes;
    clmem__unlock(&pool->lock);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_set_oom_callback(clmem_pinned_pool *pool, clmem_pool_oom_fn fn, void *user) {
    if (CLMEM__CHECKS && !pool) return clmem__pinned_pool_null("clmem_pinned_pool_set_oom_callback");
    clmem__lock(&pool->lock);
    pool->oom_fn = fn;
    pool->oom_user = user;
    clmem__unlock(&pool->lock);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_active_blocks_info(clmem_pinned_pool *pool, clmem_pool_block_info *out,
                                                      size_t capacity, size_t *count) {
    clmem__pinned_block *blk;
    size_t n = 0;
    if (CLMEM__CHECKS && (!pool || !count))
        return clmem__fail(CL_INVALID_VALUE, "clmem_pinned_pool_active_blocks_info", "%s is NULL",
                           pool ? "count" : "pool");
    clmem__lock(&pool->lock);
    for (blk = pool->active; blk; blk = blk->next_active, ++n) {
        if (out && n < capacity) {
            out[n].ptr = blk->ptr;
            out[n].size = blk->size;
            out[n].alloc_size = clmem_alloc_size(pool->L, blk->bin);
            out[n].file = blk->file;
            out[n].line = blk->line;
        }
    }
    clmem__unlock(&pool->lock);
    *count = n;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_pinned_pool_release(clmem_pinned_pool *pool) {
    static const char fn[] = "clmem_pinned_pool_release";
    size_t active, active_bytes;
    bool destroy;
    clmem__pinned_block *blk;
    if (!pool) return CL_SUCCESS;
    clmem__lock(&pool->lock);
    pool->stop_holding = true;
    clmem__unlock(&pool->lock);
    clmem__pinned_pool_free_held(pool);
    clmem__lock(&pool->lock);
    pool->released = true;
    active = pool->st.active_blocks;
    active_bytes = pool->st.active_bytes;
    for (blk = pool->active; blk; blk = blk->next_active)
        clmem__warn(fn, "pinned block %p of %zu bytes (%zu allocated) is still active; allocated at %s:%d", blk->ptr,
                    blk->size, clmem_alloc_size(pool->L, blk->bin), blk->file ? blk->file : "(unknown)", blk->line);
    destroy = active == 0 && pool->busy == 0 && !pool->dying;
    if (destroy) pool->dying = true;
    clmem__unlock(&pool->lock);
    if (destroy) clmem__pinned_pool_destroy(pool);
    if (active == 0) return CL_SUCCESS; /* else the thread freeing the last block destroys it */
    return clmem__fail(CLMEM_ERROR_IN_USE, fn,
                       "%zu pinned blocks (%zu bytes) are still active; the pool goes when the last is released",
                       active, active_bytes);
}
