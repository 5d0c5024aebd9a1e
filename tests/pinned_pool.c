/* Pinned host pools (clmem_pinned_pool_*): PyOpenCL's bins, the accounting and
   statistics of the buffer pools, the limit and out-of-memory policy, release rules,
   double release, threads. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#include "capture_log.h"

static size_t size_of(cl_mem m) {
    size_t s = 0;
    if (clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof s, &s, NULL) != CL_SUCCESS) return 0;
    return s;
}

/* bins, hits and misses, accounting, the data path */
static void test_bins_and_stats(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, 0, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    clmem_pinned_allocation a, b, z;
    clmem_pool_stats s;
    clmem_pool_bin_info bins[4];
    clmem_pool_block_info info[4];
    size_t count = 0;
    void *first;
    CLMEM_CHECK_CL(t, err);
    if (!p) return;
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_bin_number(p, 1000), clmem_bin_number(4, 1000));
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_alloc_size(p, clmem_bin_number(4, 1000)), 1023);
    a = clmem_pinned_pool_allocate(p, 1000, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.ptr != NULL && a.mem != NULL && a.generation != 0);
    CLMEM_CHECK_EQ(t, a.size, 1000);
    CLMEM_CHECK_EQ(t, size_of(a.mem), 1023);
    memset(a.ptr, 0x5A, 1023); /* the whole block is host memory */
    first = a.ptr;
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(p), 1);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(p), 0);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_managed_bytes(p), 1023);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_bytes(p), 1000);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_active_blocks_info(p, info, 4, &count));
    CLMEM_CHECK_EQ(t, count, 1);
    CLMEM_CHECK(t, info[0].ptr == a.ptr);
    CLMEM_CHECK_EQ(t, info[0].size, 1000);
    CLMEM_CHECK_EQ(t, info[0].alloc_size, 1023);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK(t, a.ptr == NULL);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(p), 1);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(p), 0);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_managed_bytes(p), 1023);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_bytes(p), 0);
    /* same bin: the same block, still mapped, contents kept */
    b = clmem_pinned_pool_allocate(p, 1010, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b.ptr == first);
    CLMEM_CHECK_EQ(t, ((unsigned char *)b.ptr)[1022], 0x5A);
    /* size 0: a real 1-byte block */
    z = clmem_pinned_pool_allocate(p, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, z.ptr != NULL && z.mem != NULL);
    CLMEM_CHECK_EQ(t, z.size, 0);
    CLMEM_CHECK_EQ(t, size_of(z.mem), 1);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(p, &s));
    CLMEM_CHECK_EQ(t, s.allocations, 3);
    CLMEM_CHECK_EQ(t, s.hits, 1);
    CLMEM_CHECK_EQ(t, s.misses, 2);
    CLMEM_CHECK_EQ(t, s.active_blocks, 2);
    CLMEM_CHECK_EQ(t, s.held_blocks, 0);
    CLMEM_CHECK_EQ(t, s.managed_bytes, 1024);
    CLMEM_CHECK_EQ(t, s.active_bytes, 1010);
    CLMEM_CHECK_EQ(t, s.peak_managed_bytes, 1024);
    CLMEM_CHECK_EQ(t, s.peak_active_bytes, 1010);
    CLMEM_CHECK_EQ(t, s.peak_active_blocks, 2);
    CLMEM_CHECK_EQ(t, s.nonempty_bins, 2);
    CLMEM_CHECK_EQ(t, s.allocator_frees, 0);
    CLMEM_CHECK_EQ(t, s.oom_events, 0);
    CLMEM_CHECK_EQ(t, s.limit, 0);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_bins(p, NULL, 0, &count));
    CLMEM_CHECK_EQ(t, count, 2);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_bins(p, bins, 4, &count));
    CLMEM_CHECK_EQ(t, bins[0].bin, 0);
    CLMEM_CHECK_EQ(t, bins[0].alloc_size, 1);
    CLMEM_CHECK_EQ(t, bins[0].active, 1);
    CLMEM_CHECK_EQ(t, bins[1].bin, clmem_bin_number(4, 1000));
    CLMEM_CHECK_EQ(t, bins[1].alloc_size, 1023);
    CLMEM_CHECK_EQ(t, bins[1].held, 0);
    CLMEM_CHECK_EQ(t, bins[1].active, 1);
    /* peaks */
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&z));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_reset_peaks(p));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(p, &s));
    CLMEM_CHECK_EQ(t, s.peak_active_blocks, 1);
    CLMEM_CHECK_EQ(t, s.peak_active_bytes, 1010);
    /* free_held: the zero block goes, the active one stays */
    CLMEM_CHECK_CL(t, clmem_pinned_pool_free_held(p));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(p, &s));
    CLMEM_CHECK_EQ(t, s.held_blocks, 0);
    CLMEM_CHECK_EQ(t, s.managed_bytes, 1023);
    CLMEM_CHECK_EQ(t, s.allocator_frees, 1);
    /* stop_holding: released blocks are freed at once */
    CLMEM_CHECK_CL(t, clmem_pinned_pool_stop_holding(p));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&b));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(p, &s));
    CLMEM_CHECK_EQ(t, s.held_blocks, 0);
    CLMEM_CHECK_EQ(t, s.active_blocks, 0);
    CLMEM_CHECK_EQ(t, s.managed_bytes, 0);
    CLMEM_CHECK_EQ(t, s.allocator_frees, 2);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
}

/* pooled memory is the host side of clmem_enqueue_copy, both ways, exactly */
static void test_copy_through_pool(clmem_test_context *t) {
    const size_t n = 70001;
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, CL_MEM_READ_WRITE, 2, &err);
    clmem_buffer buf = clmem_buffer_create(t->context, 0, n, NULL, &err);
    clmem_pinned_allocation h, g;
    CLMEM_CHECK_CL(t, err);
    h = clmem_pinned_pool_allocate(p, n, &err);
    CLMEM_CHECK_CL(t, err);
    g = clmem_pinned_pool_allocate(p, n, &err);
    CLMEM_CHECK_CL(t, err);
    if (h.ptr && g.ptr && buf.mem) {
        fill_pattern(h.ptr, n, 21);
        memset(g.ptr, 0, n);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, buf, (const void *)h.ptr));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, g.ptr, buf));
        CLMEM_CHECK(t, memcmp(h.ptr, g.ptr, n) == 0);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (char *)g.ptr + 1, buf, .byte_count = 100, .src_offset = n - 100));
        CLMEM_CHECK(t, memcmp((char *)g.ptr + 1, (char *)h.ptr + n - 100, 100) == 0);
    }
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&g));
    clmem_buffer_release(&buf);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
}

/* a copy of a released handle, also after its block was handed out again */
static void test_double_release(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, 0, 4, &err);
    clmem_pinned_allocation a, copy, b;
    CLMEM_CHECK_CL(t, err);
    a = clmem_pinned_pool_allocate(p, 300, &err);
    CLMEM_CHECK_CL(t, err);
    copy = a;
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&a), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "already released") != NULL);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(p), 1);
    b = clmem_pinned_pool_allocate(p, 300, &err); /* the same block, a new identity */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b.ptr == copy.ptr && b.generation != copy.generation);
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(p), 1); /* the new owner keeps it */
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&b));
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(p), 1);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
}

static int g_oom_calls;
static size_t g_oom_bytes;
static clmem_pinned_allocation *g_victim;
static bool release_victim(size_t bytes, unsigned attempt, void *user) {
    (void)user;
    ++g_oom_calls;
    g_oom_bytes = bytes;
    if (attempt == 1 && g_victim && g_victim->ptr) {
        clmem_pinned_allocation_release(g_victim);
        return true;
    }
    return false;
}

/* the limit: held blocks are freed first, then the callback, then the error. The
   callback's counters start from zero in each run of the case: the runner runs every
   case once per selected device in one process (two GPUs: twice), and a count left
   from the first run read 2 in the second. */
static void test_limit_and_oom(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, 0, 4, &err);
    clmem_pinned_allocation a, b, c;
    clmem_pool_stats s;
    g_oom_calls = 0;
    g_oom_bytes = 0;
    g_victim = NULL;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_limit(p, 3500));
    a = clmem_pinned_pool_allocate(p, 1000, &err); /* 1023 */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a)); /* held */
    b = clmem_pinned_pool_allocate(p, 3000, &err); /* 3071: only fits after the held block goes */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(p, &s));
    CLMEM_CHECK_EQ(t, s.managed_bytes, 3071);
    CLMEM_CHECK_EQ(t, s.held_blocks, 0);
    CLMEM_CHECK_EQ(t, s.allocator_frees, 1);
    CLMEM_CHECK_EQ(t, s.oom_events, 1);
    CLMEM_CHECK_EQ(t, s.limit, 3500);
    /* nothing held, no callback: the limit error */
    CLMEM_CHECK_ERR(t, (c = clmem_pinned_pool_allocate(p, 1000, &err), err), CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK(t, c.ptr == NULL && c.generation == 0);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_pinned_pool_allocate") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "limit of 3500") != NULL);
    /* the callback frees b (into the pool), the pool frees it and retries */
    g_victim = &b;
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_oom_callback(p, release_victim, NULL));
    c = clmem_pinned_pool_allocate(p, 1000, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, g_oom_calls, 1);
    CLMEM_CHECK_EQ(t, g_oom_bytes, 1023);
    CLMEM_CHECK(t, b.ptr == NULL);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(p, &s));
    CLMEM_CHECK_EQ(t, s.managed_bytes, 1023);
    CLMEM_CHECK_EQ(t, s.active_blocks, 1);
    CLMEM_CHECK_EQ(t, s.allocator_frees, 2);
    CLMEM_CHECK_EQ(t, s.oom_events, 3);
    /* a callback that gives up: asked once, then the error */
    g_oom_calls = 0;
    CLMEM_CHECK_ERR(t, (a = clmem_pinned_pool_allocate(p, 3000, &err), err), CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK_EQ(t, g_oom_calls, 1);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_limit(p, 0));
    a = clmem_pinned_pool_allocate(p, 3000, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&c));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_oom_callback(p, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
    g_victim = NULL;
}

/* a pool released with blocks out reports them and goes with the last */
static void test_release_with_active_blocks(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, 0, 4, &err);
    clmem_pinned_allocation a, b, h;
    CLMEM_CHECK_CL(t, err);
    a = clmem_pinned_pool_allocate_at(p, 100, &err, "app.c", 42);
    CLMEM_CHECK_CL(t, err);
    b = clmem_pinned_pool_allocate(p, 200, &err);
    CLMEM_CHECK_CL(t, err);
    h = clmem_pinned_pool_allocate(p, 300, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h)); /* held: freed by the release */
    g_log[0] = '\0';
    g_warnings = 0;
    clmem_set_log_callback(capture_log, NULL);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_release(p), CLMEM_ERROR_IN_USE);
    clmem_set_log_callback(NULL, NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "2 block(s) of the pool (300 bytes) are still active") != NULL);
    CLMEM_CHECK_EQ(t, g_warnings, 0); /* per-block warnings come with CLMEM_TRACK_ALLOCATIONS (tests/pool_track.c) */
    /* the blocks still work, and go back (freed) later; the last takes the pool */
    memset(a.ptr, 7, 100);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&b));
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&b), CLMEM_ERROR_DOUBLE_RELEASE);
    /* (ASan and valgrind runs check that the pool and its blocks are gone) */
}

static void test_bad_arguments(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *p;
    clmem_pinned_allocation a;
    clmem_pool_stats s;
    size_t count;
    CLMEM_CHECK_ERR(t, (p = clmem_pinned_pool_create(NULL, 0, 4, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, p == NULL);
    CLMEM_CHECK_ERR(t, (p = clmem_pinned_pool_create(t->queue, 0, CLMEM_POOL_MAX_LEADING_BITS + 1, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "leading_bits_in_bin_id 11") != NULL);
    CLMEM_CHECK_ERR(t, (p = clmem_pinned_pool_create(t->queue, CL_MEM_HOST_WRITE_ONLY, 4, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_pinned_pool_create: flags HOST_WRITE_ONLY") != NULL);
    CLMEM_CHECK_ERR(t, (a = clmem_pinned_pool_allocate(NULL, 4, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, a.ptr == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "pool is NULL") != NULL);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_free_held(NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_stop_holding(NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_get_stats(NULL, &s), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_reset_peaks(NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_bins(NULL, NULL, 0, &count), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_set_limit(NULL, 1), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_set_oom_callback(NULL, NULL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_active_blocks_info(NULL, NULL, 0, &count), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(NULL), 0);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_bytes(NULL), 0);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_bin_number(NULL, 1024), 160);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_alloc_size(NULL, 160), 1087);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(NULL));
    p = clmem_pinned_pool_create(t->queue, 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_get_stats(p, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stats is NULL") != NULL);
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_bins(p, NULL, 0, NULL), CL_INVALID_VALUE);
    {
        cl_ulong max_alloc = 0;
        clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
        if ((unsigned long long)max_alloc < (unsigned long long)SIZE_MAX / 2) {
            CLMEM_CHECK_ERR(t, (a = clmem_pinned_pool_allocate(p, (size_t)max_alloc + 1, &err), err),
                            CL_INVALID_BUFFER_SIZE);
            CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_DEVICE_MAX_MEM_ALLOC_SIZE") != NULL);
        }
    }
    /* L = 0: power-of-two bins */
    a = clmem_pinned_pool_allocate(p, 1025, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_managed_bytes(p), 2047);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
}

/* many threads allocating and releasing at once */
#if !defined(_WIN32)
typedef struct worker_arg {
    clmem_pinned_pool *pool;
    cl_command_queue queue;
    unsigned seed;
    int failures;
} worker_arg;

static void *worker(void *p) {
    worker_arg *w = (worker_arg *)p;
    unsigned x = w->seed;
    int i;
    for (i = 0; i < 300; ++i) {
        cl_int err;
        size_t n;
        clmem_pinned_allocation a;
        x = x * 1103515245u + 12345u;
        n = 1 + (x >> 8) % 20000;
        a = (i % 10 == 9) ? clmem_pinned_allocation_create(w->queue, n, 0, &err)
                          : clmem_pinned_pool_allocate(w->pool, n, &err);
        if (err != CL_SUCCESS || !a.ptr || a.size != n) {
            ++w->failures;
            continue;
        }
        memset(a.ptr, (int)(x & 0xff), n);
        if (((unsigned char *)a.ptr)[n - 1] != (x & 0xff)) ++w->failures;
        if (clmem_pinned_allocation_release(&a) != CL_SUCCESS) ++w->failures;
    }
    return NULL;
}
#endif

static void test_threads(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
#if defined(_WIN32)
    clmem_test_skip(t, "the thread test uses pthreads");
#else
    enum { T = 4 };
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, 0, 2, &err);
    pthread_t th[T];
    worker_arg args[T];
    clmem_pool_stats s;
    int i;
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < T; ++i) {
        args[i].pool = p;
        args[i].queue = t->queue;
        args[i].seed = 100u + (unsigned)i;
        args[i].failures = 0;
        pthread_create(&th[i], NULL, worker, &args[i]);
    }
    for (i = 0; i < T; ++i) {
        pthread_join(th[i], NULL);
        CLMEM_CHECK_EQ(t, args[i].failures, 0);
    }
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(p, &s));
    CLMEM_CHECK_EQ(t, s.active_blocks, 0);
    CLMEM_CHECK_EQ(t, s.active_bytes, 0);
    CLMEM_CHECK_EQ(t, s.allocations, T * 270);
    CLMEM_CHECK_EQ(t, s.hits + s.misses, T * 270);
    CLMEM_CHECK_EQ(t, s.misses, s.held_blocks);
    CLMEM_CHECK(t, s.hits > 0);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
#endif
}

static const clmem_test_case cases[] = {
    {"bins_and_stats", test_bins_and_stats, false},
    {"copy_through_pool", test_copy_through_pool, false},
    {"double_release", test_double_release, false},
    {"limit_and_oom", test_limit_and_oom, false},
    {"release_with_active_blocks", test_release_with_active_blocks, false},
    {"bad_arguments", test_bad_arguments, false},
    {"threads", test_threads, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
