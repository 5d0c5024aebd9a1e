/* Pools and threads without a device (a fake allocator), for ThreadSanitizer and
   AddressSanitizer (issue 17.2, issue 13.2/13.3):
   - a pool released while other threads return its blocks: every release succeeds,
     the pool goes exactly once, nothing leaks (was a heap-use-after-free);
   - threads that allocate and release in their own shards and hand blocks to each
     other: the books are exact once they are joined;
   - two threads releasing copies of one handle at once: exactly one wins.
   Build with -fsanitize=thread (see docs/hacking.md) to check the locking. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "pool_fake.h"
#include <pthread.h>

#define NTHREADS 4

static int g_go;
static void wait_go(void) {
    while (!__atomic_load_n(&g_go, __ATOMIC_ACQUIRE)) sched_yield();
}

/* ---- a pool released while blocks come back ---- */

#define PER 32
typedef struct returner {
    clmem_buffer bufs[PER];
    int failures;
} returner;

static void *return_all(void *arg) {
    returner *r = (returner *)arg;
    int i;
    wait_go();
    for (i = 0; i < PER; ++i)
        if (clmem_buffer_release(&r->bufs[i]) != CL_SUCCESS) ++r->failures;
    return NULL;
}

static void test_release_while_returning(clmem_test_context *t) {
    int round;
    for (round = 0; round < 50; ++round) {
        fake_alloc f;
        clmem_memory_pool *pool = fake_pool(t, &f);
        returner r[NTHREADS];
        pthread_t th[NTHREADS];
        cl_int err, rel;
        int i, k;
        if (!pool) return;
        f.yields_in_free = 3; /* a free that takes a while, as a driver's does */
        for (i = 0; i < NTHREADS; ++i) {
            r[i].failures = 0;
            for (k = 0; k < PER; ++k) {
                r[i].bufs[k] = clmem_memory_pool_allocate(pool, (size_t)(64 * (k % 5 + 1)), &err);
                CLMEM_CHECK_CL(t, err);
            }
        }
        /* a few held blocks too */
        for (k = 0; k < 4; ++k) {
            clmem_buffer h = clmem_memory_pool_allocate(pool, 4096, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_CL(t, clmem_buffer_release(&h));
        }
        __atomic_store_n(&g_go, 0, __ATOMIC_RELEASE);
        for (i = 0; i < NTHREADS; ++i) CLMEM_CHECK(t, pthread_create(&th[i], NULL, return_all, &r[i]) == 0);
        __atomic_store_n(&g_go, 1, __ATOMIC_RELEASE);
        if (round % 2) sched_yield(); /* vary who comes first */
        rel = clmem_memory_pool_release(pool); /* the pool pointer is not used after this */
        for (i = 0; i < NTHREADS; ++i) pthread_join(th[i], NULL);
        CLMEM_CHECK(t, rel == CL_SUCCESS || rel == CLMEM_ERROR_IN_USE);
        for (i = 0; i < NTHREADS; ++i) CLMEM_CHECK_EQ(t, r[i].failures, 0);
        /* every block went back to the allocator, once: the pool is gone */
        CLMEM_CHECK_EQ(t, f.live_blocks, 0);
        CLMEM_CHECK_EQ(t, f.frees, f.allocs);
        fake_fini(&f);
    }
}

/* ---- exact books after threads ---- */

#define OPS 20000
#define SLOTS 16
typedef struct shared {
    clmem_memory_pool *pool;
    pthread_mutex_t lock;
    clmem_buffer slots[SLOTS]; /* blocks handed between threads */
    int failures;
} shared;

typedef struct worker {
    shared *s;
    unsigned id;
    size_t live_end, bytes_end; /* what the thread still holds at its end */
    clmem_buffer mine[8];
} worker;

static uint64_t next_rand(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void *churn(void *arg) {
    worker *w = (worker *)arg;
    shared *s = w->s;
    uint64_t x = 0x9E3779B97F4A7C15ull * (w->id + 1);
    int op, i;
    cl_int err;
    memset(w->mine, 0, sizeof w->mine);
    wait_go();
    for (op = 0; op < OPS; ++op) {
        unsigned slot = (unsigned)(next_rand(&x) % 8);
        size_t size = (size_t)(next_rand(&x) % 8192) >> (next_rand(&x) % 8);
        if (w->mine[slot].mem && clmem_buffer_release(&w->mine[slot]) != CL_SUCCESS) {
            pthread_mutex_lock(&s->lock);
            ++s->failures;
            pthread_mutex_unlock(&s->lock);
        }
        w->mine[slot] = clmem_memory_pool_allocate(s->pool, size, &err);
        if (err != CL_SUCCESS) {
            pthread_mutex_lock(&s->lock);
            ++s->failures;
            pthread_mutex_unlock(&s->lock);
            break;
        }
        if (op % 64 == 0) { /* swap one with a shared slot: released on another thread */
            clmem_buffer theirs;
            unsigned k = (unsigned)(next_rand(&x) % SLOTS);
            pthread_mutex_lock(&s->lock);
            theirs = s->slots[k];
            s->slots[k] = w->mine[slot];
            pthread_mutex_unlock(&s->lock);
            w->mine[slot] = theirs;
        }
    }
    w->live_end = w->bytes_end = 0;
    for (i = 0; i < 8; ++i)
        if (w->mine[i].mem) {
            ++w->live_end;
            w->bytes_end += w->mine[i].size;
        }
    return NULL;
}

static void test_exact_books(clmem_test_context *t) {
    fake_alloc f;
    shared s;
    worker w[NTHREADS];
    pthread_t th[NTHREADS];
    clmem_pool_stats st;
    size_t live = 0, bytes = 0, n = 0, sum = 0;
    clmem_pool_bin_info bins[512];
    unsigned i;
    memset(&s, 0, sizeof s);
    s.pool = fake_pool(t, &f);
    if (!s.pool) return;
    pthread_mutex_init(&s.lock, NULL);
    __atomic_store_n(&g_go, 0, __ATOMIC_RELEASE);
    for (i = 0; i < NTHREADS; ++i) {
        w[i].s = &s;
        w[i].id = i;
        CLMEM_CHECK(t, pthread_create(&th[i], NULL, churn, &w[i]) == 0);
    }
    __atomic_store_n(&g_go, 1, __ATOMIC_RELEASE);
    for (i = 0; i < NTHREADS; ++i) pthread_join(th[i], NULL);
    CLMEM_CHECK_EQ(t, s.failures, 0);
    for (i = 0; i < NTHREADS; ++i) {
        live += w[i].live_end;
        bytes += w[i].bytes_end;
    }
    for (i = 0; i < SLOTS; ++i)
        if (s.slots[i].mem) {
            ++live;
            bytes += s.slots[i].size;
        }
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(s.pool, &st));
    CLMEM_CHECK_EQ(t, st.active_blocks, live);
    CLMEM_CHECK_EQ(t, st.active_bytes, bytes);
    CLMEM_CHECK_EQ(t, st.allocations, (unsigned long long)NTHREADS * OPS);
    CLMEM_CHECK_EQ(t, st.hits + st.misses, st.allocations);
    CLMEM_CHECK_EQ(t, st.misses, f.allocs);
    CLMEM_CHECK_EQ(t, st.held_blocks + st.active_blocks, f.live_blocks);
    CLMEM_CHECK_EQ(t, st.managed_bytes, f.live_bytes);
    CLMEM_CHECK(t, st.peak_active_blocks >= st.active_blocks && st.peak_managed_bytes >= st.managed_bytes);
    CLMEM_CHECK_CL(t, clmem_memory_pool_bins(s.pool, bins, 512, &n));
    CLMEM_CHECK(t, n <= 512);
    for (i = 0; i < n; ++i) sum += (bins[i].held + bins[i].active) * bins[i].alloc_size;
    CLMEM_CHECK_EQ(t, sum, st.managed_bytes);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(s.pool), st.held_blocks);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(s.pool), st.active_blocks);
    /* a thread that never used the pool gets the other shards' blocks, not fresh ones */
    for (i = 0; i < NTHREADS; ++i) {
        unsigned k;
        for (k = 0; k < 8; ++k) CLMEM_CHECK_CL(t, clmem_buffer_release(&w[i].mine[k]));
    }
    for (i = 0; i < SLOTS; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&s.slots[i]));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(s.pool), 0);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_bytes(s.pool), 0);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(s.pool), f.live_blocks);
    CLMEM_CHECK_CL(t, clmem_memory_pool_free_held(s.pool));
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(s.pool), 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(s.pool));
    pthread_mutex_destroy(&s.lock);
    fake_fini(&f);
}

/* blocks released on one thread are found by another thread's allocations */
typedef struct stealer {
    clmem_memory_pool *pool;
    cl_int err;
    clmem_buffer b[8];
} stealer;
static void *take_eight(void *arg) {
    stealer *s = (stealer *)arg;
    int i;
    for (i = 0; i < 8; ++i) s->b[i] = clmem_memory_pool_allocate(s->pool, 1000, &s->err);
    return NULL;
}
static void test_steal(clmem_test_context *t) {
    fake_alloc f;
    stealer s;
    pthread_t th;
    clmem_buffer b[8];
    clmem_pool_stats st;
    int i;
    memset(&s, 0, sizeof s);
    s.pool = fake_pool(t, &f);
    if (!s.pool) return;
    for (i = 0; i < 8; ++i) b[i] = clmem_memory_pool_allocate(s.pool, 1000, &s.err);
    for (i = 0; i < 8; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&b[i]));
    CLMEM_CHECK(t, pthread_create(&th, NULL, take_eight, &s) == 0);
    pthread_join(th, NULL);
    CLMEM_CHECK_CL(t, s.err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(s.pool, &st));
    CLMEM_CHECK_EQ(t, st.misses, 8); /* the first eight only */
    CLMEM_CHECK_EQ(t, st.hits, 8);
    CLMEM_CHECK_EQ(t, f.allocs, 8);
    CLMEM_CHECK_EQ(t, st.active_blocks, 8);
    CLMEM_CHECK_EQ(t, st.peak_active_blocks, 8);
    for (i = 0; i < 8; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&s.b[i])); /* back to the other shard */
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(s.pool), 8);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(s.pool));
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    fake_fini(&f);
}

/* ---- two threads, two copies of one handle ---- */

typedef struct dueler {
    clmem_buffer copy;
    cl_int result;
} dueler;
static void *duel(void *arg) {
    dueler *d = (dueler *)arg;
    wait_go();
    d->result = clmem_buffer_release(&d->copy);
    return NULL;
}
static void test_double_release_race(clmem_test_context *t) {
    fake_alloc f;
    clmem_memory_pool *pool = fake_pool(t, &f);
    int round;
    if (!pool) return;
    for (round = 0; round < 300; ++round) {
        cl_int err;
        clmem_buffer b = clmem_memory_pool_allocate(pool, 512, &err);
        dueler d[2];
        pthread_t th[2];
        int i, wins = 0, losses = 0;
        CLMEM_CHECK_CL(t, err);
        __atomic_store_n(&g_go, 0, __ATOMIC_RELEASE);
        for (i = 0; i < 2; ++i) {
            d[i].copy = b;
            CLMEM_CHECK(t, pthread_create(&th[i], NULL, duel, &d[i]) == 0);
        }
        __atomic_store_n(&g_go, 1, __ATOMIC_RELEASE);
        for (i = 0; i < 2; ++i) {
            pthread_join(th[i], NULL);
            if (d[i].result == CL_SUCCESS) ++wins;
            else if (d[i].result == CLMEM_ERROR_DOUBLE_RELEASE) ++losses;
        }
        CLMEM_CHECK_EQ(t, wins, 1);
        CLMEM_CHECK_EQ(t, losses, 1);
        CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 1);
        CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 0);
    }
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    fake_fini(&f);
}

static const clmem_test_case cases[] = {
    {"release_while_returning", test_release_while_returning, true},
    {"exact_books", test_exact_books, true},
    {"steal", test_steal, true},
    {"double_release_race", test_double_release_race, true},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
