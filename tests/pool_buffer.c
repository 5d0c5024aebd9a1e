/* Buffer allocators and memory pools on a real device (PyOpenCL's test_allocator,
   test_mempool, test_buffer_release, the accounting trace of reference §2.4). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#include "capture_log.h"

static size_t cl_size_of(cl_mem m) {
    size_t s = 0;
    if (clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof s, &s, NULL) != CL_SUCCESS) return 0;
    return s;
}

/* test_allocator, for both kinds; host-pointer flags are refused */
static void test_allocators(clmem_test_context *t) {
    cl_int err;
    int kind;
    for (kind = 0; kind < 2; ++kind) {
        clmem_allocator *a = kind ? clmem_deferred_allocator_create(t->context, 0, &err)
                                  : clmem_immediate_allocator_create(t->queue, 0, &err);
        clmem_buffer b, z;
        unsigned char in[15], out[15];
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_EQ(t, clmem_allocator_is_deferred(a), kind == 1);
        b = clmem_allocator_allocate(a, 15, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, b.mem != NULL && b.pool == NULL && b.root == b.mem);
        CLMEM_CHECK_EQ(t, b.size, 15);
        CLMEM_CHECK_EQ(t, cl_size_of(b.mem), 15);
        CLMEM_CHECK(t, b.context == t->context);
        CLMEM_CHECK_EQ(t, b.flags, CL_MEM_READ_WRITE);
        fill_pattern(in, sizeof in, 7u + (unsigned)kind);
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, 15, in, 0, NULL, NULL));
        CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, 15, out, 0, NULL, NULL));
        CLMEM_CHECK(t, memcmp(in, out, 15) == 0);
        z = clmem_allocator_allocate(a, 0, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, z.mem == NULL);
        CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
        CLMEM_CHECK_CL(t, clmem_buffer_release(&z));
        CLMEM_CHECK_CL(t, clmem_allocator_release(a));
    }
    {
        clmem_allocator *a;
        CLMEM_CHECK_ERR(t, (a = clmem_deferred_allocator_create(t->context, CL_MEM_USE_HOST_PTR, &err), err),
                        CL_INVALID_VALUE);
        CLMEM_CHECK(t, a == NULL);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "USE_HOST_PTR") != NULL);
        CLMEM_CHECK_ERR(t, (a = clmem_immediate_allocator_create(t->queue, CL_MEM_COPY_HOST_PTR, &err), err),
                        CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, (a = clmem_immediate_allocator_create(NULL, 0, &err), err), CL_INVALID_COMMAND_QUEUE);
        CLMEM_CHECK_ERR(t, (a = clmem_deferred_allocator_create(NULL, 0, &err), err), CL_INVALID_CONTEXT);
        /* an allocator's own flags reach the buffers */
        a = clmem_deferred_allocator_create(t->context, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, &err);
        CLMEM_CHECK_CL(t, err);
        {
            clmem_buffer b = clmem_allocator_allocate(a, 64, &err);
            cl_mem_flags fl = 0;
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_CL(t, clGetMemObjectInfo(b.mem, CL_MEM_FLAGS, sizeof fl, &fl, NULL));
            CLMEM_CHECK_EQ(t, fl, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR);
            CLMEM_CHECK_EQ(t, b.flags, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR);
            clmem_buffer_release(&b);
        }
        clmem_allocator_release(a);
    }
}

/* a pool on a deferred allocator warns, as PyOpenCL does */
static void test_deferred_warning(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_deferred_allocator_create(t->context, 0, &err);
    clmem_memory_pool *pool;
    CLMEM_CHECK_CL(t, err);
    g_log[0] = '\0';
    g_warnings = 0;
    clmem_set_log_callback(capture_log, NULL);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_set_log_callback(NULL, NULL);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, g_warnings, 1);
    CLMEM_CHECK(t, strstr(g_log, "clmem_memory_pool_create: memory pools expect non-deferred allocators") != NULL);
    clmem_memory_pool_release(pool);
    a = clmem_immediate_allocator_create(t->queue, 0, &err);
    CLMEM_CHECK_CL(t, err);
    g_warnings = 0;
    clmem_set_log_callback(capture_log, NULL);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_set_log_callback(NULL, NULL);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, g_warnings, 0);
    clmem_memory_pool_release(pool);
}

#define CHECK_BOOKS(t, pool, act, held, managed, abytes)                \
    do {                                                                \
        CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), act);  \
        CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), held);   \
        CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), managed); \
        CLMEM_CHECK_EQ(t, clmem_memory_pool_active_bytes(pool), abytes); \
    } while (0)

/* reference §2.4's trace, step by step, plus what the device says */
static void test_accounting_trace(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b1024, b0, b1000;
    clmem_pool_stats st;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b1024 = clmem_memory_pool_allocate(pool, 1024, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, b1024.size, 1024);              /* the size asked for ... */
    CLMEM_CHECK_EQ(t, cl_size_of(b1024.mem), 1087);   /* ... and the block's */
    CHECK_BOOKS(t, pool, 1, 0, 1087, 1024);
    b0 = clmem_memory_pool_allocate(pool, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b0.mem != NULL);                    /* a real 1-byte block */
    CLMEM_CHECK_EQ(t, b0.size, 0);
    CLMEM_CHECK_EQ(t, cl_size_of(b0.mem), 1);
    CHECK_BOOKS(t, pool, 2, 0, 1088, 1024);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b1024));
    CLMEM_CHECK(t, b1024.mem == NULL && b1024.pool == NULL);
    CHECK_BOOKS(t, pool, 1, 1, 1088, 0);
    b1000 = clmem_memory_pool_allocate(pool, 1000, &err); /* bin 159, not 160: a new block */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, cl_size_of(b1000.mem), 1023);
    CHECK_BOOKS(t, pool, 2, 1, 2111, 1000);
    CLMEM_CHECK_CL(t, clmem_memory_pool_stop_holding(pool));
    CHECK_BOOKS(t, pool, 2, 0, 1024, 1000);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b0));
    CHECK_BOOKS(t, pool, 1, 0, 1023, 1000);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.allocations, 3);
    CLMEM_CHECK_EQ(t, st.misses, 3);
    CLMEM_CHECK_EQ(t, st.hits, 0);
    CLMEM_CHECK_EQ(t, st.peak_managed_bytes, 2111);
    CLMEM_CHECK_EQ(t, st.peak_active_bytes, 1024);
    CLMEM_CHECK_EQ(t, st.peak_active_blocks, 2);
    CLMEM_CHECK_EQ(t, st.allocator_frees, 2);
    CLMEM_CHECK_EQ(t, st.nonempty_bins, 1);
    CLMEM_CHECK_CL(t, clmem_memory_pool_reset_peaks(pool));
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.peak_managed_bytes, 1023);
    CLMEM_CHECK_EQ(t, st.peak_active_blocks, 1);
    /* after stop_holding, a released block goes straight back */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b1000));
    CHECK_BOOKS(t, pool, 0, 0, 0, 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

/* test_mempool: 100 allocations of 2^e with 10 live, e in {6, 7}; then stop_holding */
static void test_sliding_window(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer q[10];
    clmem_pool_stats st;
    int e, i;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    memset(q, 0, sizeof q);
    for (e = 6; e <= 7; ++e) {
        for (i = 0; i < 100; ++i) {
            CLMEM_CHECK_CL(t, clmem_buffer_release(&q[i % 10])); /* empty handles at first: no-op */
            q[i % 10] = clmem_memory_pool_allocate(pool, (size_t)1 << e, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_EQ(t, q[i % 10].size, (size_t)1 << e);
        }
        for (i = 0; i < 10; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&q[i]));
    }
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    /* 2^6 = 64 -> 67 bytes and 2^7 = 128 -> 135 bytes: 10 blocks of each, made once */
    CLMEM_CHECK_EQ(t, st.misses, 20);
    CLMEM_CHECK_EQ(t, st.hits, 180);
    CLMEM_CHECK_EQ(t, st.held_blocks, 20);
    CLMEM_CHECK_EQ(t, st.managed_bytes, 10 * 67 + 10 * 135);
    CLMEM_CHECK_EQ(t, st.peak_active_blocks, 10);
    CLMEM_CHECK_CL(t, clmem_memory_pool_stop_holding(pool));
    CHECK_BOOKS(t, pool, 0, 0, 0, 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

/* a pooled buffer is a buffer: transfers, fills, sub-buffers, kernels */
static void test_pooled_is_buffer(clmem_test_context *t) {
    static const char *src = "__kernel void twice(__global int *a) { size_t i = get_global_id(0); a[i] *= 2; }";
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b, sub;
    int host[256], back[256], i;
    size_t gws = 256;
    cl_kernel k;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, sizeof host, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < 256; ++i) host[i] = i * 3 - 100;
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
    k = build_kernel(t, src, "twice");
    if (!k) { clmem_buffer_release(&b); clmem_memory_pool_release(pool); return; }
    CLMEM_CHECK_CL(t, clSetKernelArg(k, 0, sizeof b.mem, &b.mem));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gws, NULL, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    clReleaseKernel(k);
    for (i = 0; i < 256; ++i) CLMEM_CHECK_EQ(t, back[i], 2 * (i * 3 - 100));
    {
        int seven = 7;
        CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, &seven, sizeof seven, 16, 32));
        CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
        CLMEM_CHECK_EQ(t, back[3], 2 * (9 - 100));
        CLMEM_CHECK_EQ(t, back[4], 7);
        CLMEM_CHECK_EQ(t, back[11], 7);
        CLMEM_CHECK_EQ(t, back[12], 2 * (36 - 100));
        /* the handle's size is the size asked for (1024), not the block's (1087) */
        CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, &seven, sizeof seven, 1024, 4), CL_INVALID_VALUE);
    }
    sub = clmem_buffer_get_sub_region(b, 0, 64, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, sub.pool == NULL && sub.root == b.mem);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&sub));
    CLMEM_CHECK_CL(t, clmem_release(&b)); /* test_buffer_release: the generic release */
    CHECK_BOOKS(t, pool, 0, 1, 1087, 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

/* a copy of a released handle is caught, and the block is not handed out twice */
static void test_double_release(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b, copy, c, empty;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, 100, &err);
    CLMEM_CHECK_CL(t, err);
    copy = b;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b)); /* the emptied handle: a no-op */
    CLMEM_CHECK_ERR(t, clmem_buffer_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_buffer_release: pooled block") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "held for reuse") != NULL);
    CLMEM_CHECK(t, copy.mem == NULL);
    CHECK_BOOKS(t, pool, 0, 1, 103, 0);
    /* reused by a request of another size of the same bin: a stale copy still does not match */
    copy = clmem_memory_pool_allocate(pool, 101, &err);
    CLMEM_CHECK_CL(t, err);
    c = copy;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
    b = clmem_memory_pool_allocate(pool, 102, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b.mem == copy.mem);
    CLMEM_CHECK_ERR(t, clmem_buffer_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CHECK_BOOKS(t, pool, 1, 0, 103, 102);
    /* after stop_holding the block's memory is gone; its stale copy is still caught */
    copy = b;
    CLMEM_CHECK_CL(t, clmem_memory_pool_stop_holding(pool));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CHECK_BOOKS(t, pool, 0, 0, 0, 0);
    CLMEM_CHECK_ERR(t, clmem_buffer_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "freed") != NULL);
    memset(&empty, 0, sizeof empty);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&empty));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

/* zero-size requests through allocator and pool, and free_held */
static void test_zero_and_free_held(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer z1, z2, big;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    z1 = clmem_memory_pool_allocate(pool, 0, &err);
    CLMEM_CHECK_CL(t, err);
    z2 = clmem_memory_pool_allocate(pool, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, z1.mem != NULL && z2.mem != NULL && z1.mem != z2.mem);
    CHECK_BOOKS(t, pool, 2, 0, 2, 0);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&z1));
    z1 = clmem_memory_pool_allocate(pool, 1, &err); /* bin 0 too: reuses the zero block */
    CLMEM_CHECK_CL(t, err);
    CHECK_BOOKS(t, pool, 2, 0, 2, 1);
    big = clmem_memory_pool_allocate(pool, (size_t)1 << 20, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&big));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&z1));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&z2));
    CHECK_BOOKS(t, pool, 0, 3, 2 + ((size_t)1 << 20) + ((size_t)1 << 16) - 1, 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_free_held(pool));
    CHECK_BOOKS(t, pool, 0, 0, 0, 0);
    /* the pool still holds after free_held (unlike stop_holding) */
    z1 = clmem_memory_pool_allocate(pool, 0, &err);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&z1));
    CHECK_BOOKS(t, pool, 0, 1, 1, 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

/* a pool released with blocks out lives until the last one comes back */
static void test_release_with_active(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b, c;
    size_t n = 99;
    clmem_pool_block_info info[2];
    unsigned char in[64], out[64];
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, 64, &err);
    c = clmem_memory_pool_allocate(pool, 640, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_active_blocks_info(pool, info, 2, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    CLMEM_CHECK(t, info[0].ptr == (void *)c.mem && info[1].ptr == (void *)b.mem);
    CLMEM_CHECK_EQ(t, info[0].size, 640);
    CLMEM_CHECK_EQ(t, info[0].alloc_size, 671);
    CLMEM_CHECK(t, info[0].file == NULL); /* no CLMEM_TRACK_ALLOCATIONS here */
    g_log[0] = '\0';
    g_warnings = 0;
    clmem_set_log_callback(capture_log, NULL);
    /* released all the same, but the two active blocks are reported (issue 17) */
    CLMEM_CHECK_ERR(t, clmem_memory_pool_release(pool), CLMEM_ERROR_IN_USE);
    clmem_set_log_callback(NULL, NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "2 block(s) of the pool (704 bytes) are still active") != NULL);
    CLMEM_CHECK_EQ(t, g_warnings, 0); /* no per-block warnings without CLMEM_TRACK_ALLOCATIONS */
    fill_pattern(in, sizeof in, 3);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, 64, in, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, 64, out, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(in, out, 64) == 0);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c)); /* the last block: the pool goes (LSan checks) */
}

static const clmem_test_case cases[] = {
    {"allocators", test_allocators, false},
    {"deferred_warning", test_deferred_warning, false},
    {"accounting_trace", test_accounting_trace, false},
    {"sliding_window", test_sliding_window, false},
    {"pooled_is_buffer", test_pooled_is_buffer, false},
    {"double_release", test_double_release, false},
    {"zero_and_free_held", test_zero_and_free_held, false},
    {"release_with_active", test_release_with_active, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
