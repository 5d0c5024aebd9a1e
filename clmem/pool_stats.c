/* >>pool_stats (implementation): a pool's accounting and settings, the core's side of
   CLMEM__POOL_COMMON (pool.h) */
#include "pool.h"

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
    s->keep_free = p->keep_free;
    s->keep_free_device = p->keep_free_device;
    s->free_queries = p->free_queries;
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

/* the pool holds no block from now on (what is held is freed by the caller) */
static void clmem__pool_stop_holding(clmem__pool *p) {
    clmem__pool_lock_all(p);
    p->stop_holding = true;
    clmem__pool_unlock_all(p);
}

static void clmem__pool_set_limit(clmem__pool *p, size_t max_managed_bytes) {
    clmem__pool_lock(&p->lock);
    p->limit = max_managed_bytes;
    clmem__pool_unlock(&p->lock);
}

/* the keep-free (LIMITS, pool.h): the device checked (clmem_device_memory_info answers
   for it; a device of the pool's context) and retained. The device it replaces is
   released once no query is running (clmem__pool_fresh counts them in `querying`): one
   may have read it. */
static cl_int clmem__pool_set_keep_free(clmem__pool *p, cl_device_id device, size_t bytes, const char *fn) {
    cl_device_id old;
    if (bytes == 0) {
        device = NULL;
    } else {
        clmem_memory_info mi;
        cl_int err;
        if (CLMEM__CHECKS && !device)
            return clmem__fail(CL_INVALID_DEVICE, fn,
                               "device is NULL with bytes %zu to keep free (0 removes the setting)", bytes);
        if ((err = clmem_device_memory_info(device, &mi)) != CL_SUCCESS) return clmem__refail_as(fn, err);
        if (p->context && (err = clmem__context_device(fn, p->context, device, "device")) != CL_SUCCESS) return err;
        clRetainDevice(device);
    }
    clmem__pool_lock(&p->lock);
    old = p->keep_free_device;
    p->keep_free = bytes;
    p->keep_free_device = device;
    while (old && p->querying) { /* a growth is asking about the old device: let it finish */
        clmem__pool_unlock(&p->lock);
        clmem__thread_yield();
        clmem__pool_lock(&p->lock);
    }
    clmem__pool_unlock(&p->lock);
    if (old) clReleaseDevice(old);
    return CL_SUCCESS;
}

static void clmem__pool_set_oom_callback(clmem__pool *p, clmem_pool_oom_fn fn, void *user) {
    clmem__pool_lock(&p->lock);
    p->oom_fn = fn;
    p->oom_user = user;
    clmem__pool_unlock(&p->lock);
}
