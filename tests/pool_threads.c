/* Four threads share one pool: random sizes, blocks handed between threads and
   released on another thread than the one that allocated them, a cookie written at
   allocation and checked at release, threads recreated between rounds, and books
   that end exact. misses_at_once: eight threads miss at the same moment on a pool of
   an immediate allocator, then migrate through clmem at the same moment, all onto one
   queue (NVIDIA's driver 580 crashes on concurrent migrations onto one queue: the
   allocator used to migrate, and clmem's migrations now go one at a time).
   shards_per_processor: a pool has a power of two of shards, at least
   CLMEM_POOL_SHARDS and at least the processors online; more threads than shards work at once, and once they have
   joined the books (held, active, per bin, hits, misses, managed bytes, the limit) are
   exact, and blocks the threads left in their shards are taken by the main thread
   without the allocator. Meant to run under -fsanitize=thread as well. */
#define _POSIX_C_SOURCE 200809L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <pthread.h>
#include <unistd.h>

#define NTHREADS 4
#define ROUNDS 2
#define OPS 150
#define SLOTS 64

/* an allocator over clCreateBuffer that counts live cl_mem objects */
typedef struct counting {
    cl_context ctx;
    pthread_mutex_t lock;
    long live, made;
} counting;

static cl_int counting_allocate(void *user, size_t size, cl_mem *mem) {
    counting *c = (counting *)user;
    cl_int err;
    *mem = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    if (err == CL_SUCCESS) {
        pthread_mutex_lock(&c->lock);
        ++c->live;
        ++c->made;
        pthread_mutex_unlock(&c->lock);
    }
    return err;
}
static void counting_free(void *user, cl_mem mem) {
    counting *c = (counting *)user;
    pthread_mutex_lock(&c->lock);
    --c->live;
    pthread_mutex_unlock(&c->lock);
    clReleaseMemObject(mem);
}

typedef struct item {
    clmem_buffer buf;
    unsigned cookie;
} item;

typedef struct shared {
    clmem_test_context *t;
    clmem_memory_pool *pool;
    pthread_mutex_t lock;
    item slots[SLOTS];        /* blocks in transit between threads */
    int failures;
    char why[1024];
    long checked;
} shared;

typedef struct worker {
    shared *s;
    unsigned id;
    unsigned round;
} worker;

static uint64_t next_rand(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void fail(shared *s, const char *what, cl_int err) {
    pthread_mutex_lock(&s->lock);
    if (!s->failures++)
        snprintf(s->why, sizeof s->why, "%s: %s (%s)", what, clmem_error_string(err), clmem_last_error_message());
    pthread_mutex_unlock(&s->lock);
}

/* read the block back, compare with the cookie's pattern, release it to the pool */
static void check_and_release(shared *s, cl_command_queue q, item *it) {
    unsigned char want[4096], got[4096];
    size_t n = it->buf.size < sizeof got ? it->buf.size : sizeof got;
    cl_int err;
    if (n) {
        fill_pattern(want, n, it->cookie);
        err = clEnqueueReadBuffer(q, it->buf.mem, CL_TRUE, 0, n, got, 0, NULL, NULL);
        if (err != CL_SUCCESS) fail(s, "clEnqueueReadBuffer", err);
        else if (memcmp(want, got, n) != 0) fail(s, "cookie mismatch: a block was shared or corrupted", CL_SUCCESS);
    }
    err = clmem_buffer_release(&it->buf);
    if (err != CL_SUCCESS) fail(s, "clmem_buffer_release", err);
    pthread_mutex_lock(&s->lock);
    ++s->checked;
    pthread_mutex_unlock(&s->lock);
}

static void *work(void *arg) {
    worker *w = (worker *)arg;
    shared *s = w->s;
    uint64_t x = 0x9E3779B97F4A7C15ull * (w->id + 1) + w->round;
    cl_int err;
    cl_command_queue q = extra_queue(s->t, s->t->context, &err);
    int op;
    if (err != CL_SUCCESS) {
        fail(s, "extra_queue", err);
        return NULL;
    }
    for (op = 0; op < OPS; ++op) {
        unsigned slot = (unsigned)(next_rand(&x) % SLOTS);
        /* sizes 1 B .. 4 KiB, spread over powers of two, some 0 */
        size_t size = (size_t)(next_rand(&x) % 4096) >> (next_rand(&x) % 12);
        item mine, theirs;
        unsigned char pat[4096];
        mine.cookie = (unsigned)(next_rand(&x) & 0xffffffu) | (w->id << 24);
        mine.buf = clmem_memory_pool_allocate(s->pool, size, &err);
        if (err != CL_SUCCESS) {
            fail(s, "clmem_memory_pool_allocate", err);
            break;
        }
        if (size) {
            fill_pattern(pat, size, mine.cookie);
            err = clEnqueueWriteBuffer(q, mine.buf.mem, CL_TRUE, 0, size, pat, 0, NULL, NULL);
            if (err != CL_SUCCESS) fail(s, "clEnqueueWriteBuffer", err);
        }
        /* swap with whatever another thread left in the slot; free theirs here */
        pthread_mutex_lock(&s->lock);
        theirs = s->slots[slot];
        s->slots[slot] = mine;
        pthread_mutex_unlock(&s->lock);
        if (theirs.buf.mem) check_and_release(s, q, &theirs);
    }
    clReleaseCommandQueue(q);
    return NULL;
}

static void test_stress(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
    counting c;
    shared s;
    clmem_allocator_ops ops = {counting_allocate, counting_free, NULL, NULL, false};
    clmem_allocator *a;
    cl_int err;
    unsigned r, i;
    clmem_pool_stats st;
    memset(&c, 0, sizeof c);
    memset(&s, 0, sizeof s);
    c.ctx = t->context;
    pthread_mutex_init(&c.lock, NULL);
    pthread_mutex_init(&s.lock, NULL);
    s.t = t;
    a = clmem_allocator_create(&ops, &c, t->context, CL_MEM_READ_WRITE, &err);
    CLMEM_CHECK_CL(t, err);
    s.pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    for (r = 0; r < ROUNDS; ++r) { /* threads are recreated each round; the slots survive */
        pthread_t th[NTHREADS];
        worker w[NTHREADS];
        for (i = 0; i < NTHREADS; ++i) {
            w[i].s = &s;
            w[i].id = i;
            w[i].round = r;
            CLMEM_CHECK(t, pthread_create(&th[i], NULL, work, &w[i]) == 0);
        }
        for (i = 0; i < NTHREADS; ++i) pthread_join(th[i], NULL);
        if (s.failures) clmem_test_fail(t, __FILE__, __LINE__, "%d failures, first: %s", s.failures, s.why);
        if (t->failed) break;
        /* books between rounds: the blocks in the slots are exactly the active ones */
        {
            size_t active = 0, abytes = 0;
            for (i = 0; i < SLOTS; ++i)
                if (s.slots[i].buf.mem) {
                    ++active;
                    abytes += s.slots[i].buf.size;
                }
            CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(s.pool, &st));
            CLMEM_CHECK_EQ(t, st.active_blocks, active);
            CLMEM_CHECK_EQ(t, st.active_bytes, abytes);
            CLMEM_CHECK_EQ(t, (long)(st.active_blocks + st.held_blocks), c.live);
        }
    }
    for (i = 0; i < SLOTS; ++i)
        if (s.slots[i].buf.mem) check_and_release(&s, t->queue, &s.slots[i]);
    CLMEM_CHECK_EQ(t, s.failures, 0);
    CLMEM_CHECK_EQ(t, s.checked, (long)(ROUNDS * NTHREADS * OPS));
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(s.pool, &st));
    CLMEM_CHECK_EQ(t, st.active_blocks, 0);
    CLMEM_CHECK_EQ(t, st.active_bytes, 0);
    CLMEM_CHECK_EQ(t, st.allocations, ROUNDS * NTHREADS * OPS);
    CLMEM_CHECK_EQ(t, st.hits + st.misses, st.allocations);
    CLMEM_CHECK_EQ(t, (long)st.misses, c.made);
    CLMEM_CHECK_EQ(t, (long)st.held_blocks, c.live);
    {
        /* managed bytes = the rounded size of every held block, bin by bin */
        clmem_pool_bin_info bins[256];
        size_t n = 0, sum = 0;
        CLMEM_CHECK_CL(t, clmem_memory_pool_bins(s.pool, bins, 256, &n));
        CLMEM_CHECK(t, n <= 256);
        for (i = 0; i < n; ++i) {
            CLMEM_CHECK_EQ(t, bins[i].active, 0);
            sum += bins[i].held * bins[i].alloc_size;
        }
        CLMEM_CHECK_EQ(t, st.managed_bytes, sum);
    }
    CLMEM_CHECK_CL(t, clmem_memory_pool_stop_holding(s.pool));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(s.pool), 0);
    CLMEM_CHECK_EQ(t, c.live, 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(s.pool));
    pthread_mutex_destroy(&c.lock);
    pthread_mutex_destroy(&s.lock);
}

/* ---- misses_at_once ---- */

#define MISS_THREADS 8
#define MISS_ROUNDS 40

typedef struct misser {
    clmem_memory_pool *pool;
    cl_command_queue queue;
    pthread_barrier_t *go;
    unsigned id, round;
    clmem_buffer buf;
    cl_mem extra;
    unsigned value;           /* what the thread writes (outlives the thread: non-blocking) */
    cl_int err;
    char why[1024];
} misser;

/* three moments, all threads at once (a barrier before each): one pool miss (a bin no
   other thread asks for, in a pool emptied after each round: a clCreateBuffer and the
   immediate allocator's enqueue), one clmem migration, one write of the thread's number
   into its block; all onto the shared queue */
static void *miss_once(void *arg) {
    misser *m = (misser *)arg;
    cl_int err;
    pthread_barrier_wait(m->go);
    m->buf = clmem_memory_pool_allocate(m->pool, 64 * (size_t)(m->id + 1), &err);
    pthread_barrier_wait(m->go);
    if (err == CL_SUCCESS) err = clmem_enqueue_migrate_mem_objects(m->queue, &m->extra, 1, 0);
    pthread_barrier_wait(m->go);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(m->queue, m->buf.mem, CL_FALSE, 0, sizeof m->value, &m->value, 0, NULL, NULL);
    m->err = err;
    if (err != CL_SUCCESS) snprintf(m->why, sizeof m->why, "%s", clmem_last_error_message());
    return NULL;
}

static void test_misses_at_once(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    cl_mem extra[MISS_THREADS];
    unsigned r, i;
    clmem_pool_stats st;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < MISS_THREADS; ++i) {
        extra[i] = clCreateBuffer(t->context, CL_MEM_READ_WRITE, 4096, NULL, &err);
        CLMEM_CHECK_CL(t, err);
    }
    for (r = 0; r < MISS_ROUNDS && !t->failed; ++r) {
        pthread_t th[MISS_THREADS];
        misser m[MISS_THREADS];
        pthread_barrier_t go;
        CLMEM_CHECK(t, pthread_barrier_init(&go, NULL, MISS_THREADS) == 0);
        for (i = 0; i < MISS_THREADS; ++i) {
            memset(&m[i], 0, sizeof m[i]);
            m[i].pool = pool;
            m[i].queue = t->queue;
            m[i].go = &go;
            m[i].id = i;
            m[i].round = r;
            m[i].extra = extra[i];
            m[i].value = i * 1000u + r;
            CLMEM_CHECK(t, pthread_create(&th[i], NULL, miss_once, &m[i]) == 0);
        }
        for (i = 0; i < MISS_THREADS; ++i) pthread_join(th[i], NULL);
        pthread_barrier_destroy(&go);
        CLMEM_CHECK_CL(t, clFinish(t->queue));
        for (i = 0; i < MISS_THREADS; ++i) {
            unsigned got = 0;
            if (m[i].err != CL_SUCCESS)
                clmem_test_fail(t, __FILE__, __LINE__, "round %u thread %u: %s (%s)", r, i,
                                clmem_error_string(m[i].err), m[i].why);
            if (m[i].buf.mem) {
                CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, m[i].buf.mem, CL_TRUE, 0, sizeof got, &got, 0, NULL,
                                                      NULL));
                CLMEM_CHECK_EQ(t, got, i * 1000u + r); /* every thread got a block of its own */
            }
            CLMEM_CHECK_CL(t, clmem_buffer_release(&m[i].buf));
        }
        CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), MISS_THREADS);
        CLMEM_CHECK_CL(t, clmem_memory_pool_free_held(pool)); /* the next round misses again */
    }
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.misses, (unsigned long long)(r * MISS_THREADS));
    CLMEM_CHECK_EQ(t, st.hits, 0);
    CLMEM_CHECK_EQ(t, st.allocator_frees, (unsigned long long)(r * MISS_THREADS));
    CLMEM_CHECK_EQ(t, st.active_blocks, 0);
    for (i = 0; i < MISS_THREADS; ++i) clReleaseMemObject(extra[i]);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

/* ---- shards_per_processor ---- */

#define SHARD_PAIRS 50

typedef struct sharder {
    clmem_memory_pool *pool;
    pthread_barrier_t *go;
    unsigned id;
    clmem_buffer kept;        /* left active for the main thread to release */
    cl_int err;
    char why[1024];
} sharder;

/* all at once: one block kept (64-256 bytes by id), pairs of a 4-KiB block, and one
   block of 1-4 KiB by id allocated and released (held in the thread's shard) */
static void *shard_work(void *arg) {
    sharder *w = (sharder *)arg;
    cl_int err = CL_SUCCESS;
    int k;
    pthread_barrier_wait(w->go);
    w->kept = clmem_memory_pool_allocate(w->pool, 64 * (size_t)(w->id % 4 + 1), &err);
    for (k = 0; k < SHARD_PAIRS && err == CL_SUCCESS; ++k) {
        clmem_buffer b = clmem_memory_pool_allocate(w->pool, 4096, &err);
        if (err == CL_SUCCESS) err = clmem_buffer_release(&b);
    }
    if (err == CL_SUCCESS) {
        clmem_buffer b = clmem_memory_pool_allocate(w->pool, (size_t)1024 << (w->id % 3), &err);
        if (err == CL_SUCCESS) err = clmem_buffer_release(&b);
    }
    w->err = err;
    if (err != CL_SUCCESS) snprintf(w->why, sizeof w->why, "%s", clmem_last_error_message());
    return NULL;
}

/* the held and active blocks of the pool's bin of `size` (bins info) */
static void bin_counts(clmem_test_context *t, clmem_memory_pool *pool, size_t size, size_t *held, size_t *active) {
    clmem_pool_bin_info bins[64];
    size_t n = 0, i;
    *held = *active = 0;
    CLMEM_CHECK_CL(t, clmem_memory_pool_bins(pool, bins, 64, &n));
    CLMEM_CHECK(t, n <= 64);
    for (i = 0; i < n && i < 64; ++i)
        if (bins[i].bin == clmem_bin_number(4, size)) {
            *held = bins[i].held;
            *active = bins[i].active;
        }
}

static void test_shards_per_processor(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_pool_stats st;
    long cpus = (long)clmem__cpu_count();
    unsigned n, i;
    size_t held, active, size, kept_bytes = 0, managed;
    const size_t limit = (size_t)64 << 20;
    sharder *w;
    pthread_t *th;
    pthread_barrier_t go;
    clmem_buffer mine[64 + 3];
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_limit(pool, limit));
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK(t, st.shards >= CLMEM_POOL_SHARDS && (st.shards & (st.shards - 1)) == 0);
    CLMEM_CHECK(t, cpus < 1 || st.shards >= (size_t)cpus);
    /* more threads than shards, at most 67: some share a shard, some take a block from
       another shard's bin */
    n = st.shards < 64 ? (unsigned)st.shards + 3 : 67;
    w = (sharder *)calloc(n, sizeof *w);
    th = (pthread_t *)calloc(n, sizeof *th);
    CLMEM_CHECK(t, w && th && pthread_barrier_init(&go, NULL, n) == 0);
    for (i = 0; i < n; ++i) {
        w[i].pool = pool;
        w[i].go = &go;
        w[i].id = i;
        CLMEM_CHECK(t, pthread_create(&th[i], NULL, shard_work, &w[i]) == 0);
    }
    for (i = 0; i < n; ++i) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&go);
    for (i = 0; i < n; ++i) {
        if (w[i].err != CL_SUCCESS)
            clmem_test_fail(t, __FILE__, __LINE__, "thread %u: %s (%s)", i, clmem_error_string(w[i].err), w[i].why);
        kept_bytes += w[i].kept.size;
    }
    /* the books once the threads have joined */
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.active_blocks, n);
    CLMEM_CHECK_EQ(t, st.active_bytes, kept_bytes);
    CLMEM_CHECK_EQ(t, st.allocations, (unsigned long long)n * (SHARD_PAIRS + 2));
    CLMEM_CHECK_EQ(t, st.hits + st.misses, st.allocations);
    CLMEM_CHECK_EQ(t, st.misses, (unsigned long long)(st.held_blocks + st.active_blocks));
    CLMEM_CHECK_EQ(t, st.limit, limit);
    CLMEM_CHECK(t, st.managed_bytes <= limit);
    for (size = 64; size <= 256; size += 64) { /* the kept blocks, bin by bin */
        bin_counts(t, pool, size, &held, &active);
        CLMEM_CHECK_EQ(t, active, (size_t)(n / 4 + (size / 64 - 1 < n % 4)));
        CLMEM_CHECK_EQ(t, held, 0);
    }
    bin_counts(t, pool, 4096, &held, &active);
    CLMEM_CHECK_EQ(t, active, 0);
    CLMEM_CHECK(t, held >= 1 && held <= n);
    /* the main thread releases the kept blocks (each into its thread's shard), then
       takes every held 4-KiB block, most of them from other shards: hits only */
    for (i = 0; i < n; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&w[i].kept));
    managed = clmem_memory_pool_managed_bytes(pool);
    {
        unsigned long long misses = st.misses;
        size_t want = held;
        for (i = 0; i < want; ++i) {
            mine[i] = clmem_memory_pool_allocate(pool, 4096, &err);
            CLMEM_CHECK_CL(t, err);
        }
        bin_counts(t, pool, 4096, &held, &active);
        CLMEM_CHECK_EQ(t, active, want);
        CLMEM_CHECK_EQ(t, held, 0);
        CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
        CLMEM_CHECK_EQ(t, st.misses, misses);
        CLMEM_CHECK_EQ(t, st.active_blocks, want);
        CLMEM_CHECK_EQ(t, st.managed_bytes, managed);
        for (i = 0; i < want; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&mine[i]));
    }
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.active_blocks, 0);
    CLMEM_CHECK_EQ(t, st.active_bytes, 0);
    CLMEM_CHECK_EQ(t, st.held_blocks + st.allocator_frees, (size_t)st.misses);
    CLMEM_CHECK_CL(t, clmem_memory_pool_free_held(pool));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.nonempty_bins, 0);
    free(w);
    free(th);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

static const clmem_test_case cases[] = {{"four_threads_cross_free", test_stress, false},
                                        {"misses_at_once", test_misses_at_once, false},
                                        {"shards_per_processor", test_shards_per_processor, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
