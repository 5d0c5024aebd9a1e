/* CLMEM_TRACK_ALLOCATIONS: every active block knows where it was allocated; a pool
   released with blocks still out names each of them in a warning. */
#define CLMEM_TRACK_ALLOCATIONS
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#include "capture_log.h"

static void test_leak_report(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b, c, d;
    int line_b, line_c;
    clmem_pool_block_info info[4];
    size_t n = 0;
    char want[256];
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    line_b = __LINE__ + 1;
    b = clmem_memory_pool_allocate(pool, 1000, &err);
    CLMEM_CHECK_CL(t, err);
    line_c = __LINE__ + 1;
    c = clmem_memory_pool_allocate(pool, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    d = clmem_memory_pool_allocate(pool, 8, &err);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&d)); /* released: not reported */
    CLMEM_CHECK_CL(t, clmem_memory_pool_active_blocks_info(pool, info, 4, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    CLMEM_CHECK(t, info[0].ptr == (void *)c.mem); /* most recent first */
    CLMEM_CHECK_EQ(t, info[0].size, 4096);
    CLMEM_CHECK_EQ(t, info[0].alloc_size, 4351);
    CLMEM_CHECK(t, info[0].file != NULL && strstr(info[0].file, "pool_track.c") != NULL);
    CLMEM_CHECK_EQ(t, info[0].line, line_c);
    CLMEM_CHECK_EQ(t, info[1].size, 1000);
    CLMEM_CHECK_EQ(t, info[1].line, line_b);
    /* capacity 1 stores one and counts both */
    memset(info, 0, sizeof info);
    CLMEM_CHECK_CL(t, clmem_memory_pool_active_blocks_info(pool, info, 1, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    CLMEM_CHECK(t, info[1].file == NULL);
    g_log[0] = '\0';
    g_warnings = 0;
    clmem_set_log_callback(capture_log, NULL);
    CLMEM_CHECK_ERR(t, clmem_memory_pool_release(pool), CLMEM_ERROR_IN_USE); /* released, 2 blocks out */
    clmem_set_log_callback(NULL, NULL);
    CLMEM_CHECK_EQ(t, g_warnings, 2);
    snprintf(want, sizeof want, "of 1000 bytes (1023 allocated) is still active; allocated at %s:%d", __FILE__, line_b);
    CLMEM_CHECK(t, strstr(g_log, want) != NULL);
    snprintf(want, sizeof want, "of 4096 bytes (4351 allocated) is still active; allocated at %s:%d", __FILE__, line_c);
    CLMEM_CHECK(t, strstr(g_log, want) != NULL);
    CLMEM_CHECK(t, strncmp(g_log, "clmem_memory_pool_release: block ", 33) == 0);
    /* the blocks stay usable and come back later; the last one ends the pool */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
}

static void test_svm_leak_report(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocator *a;
    clmem_svm_pool *pool;
    clmem_pooled_svm p;
    int line_p;
    char want[256];
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return;
    }
    a = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_svm_pool_create(a, 4, &err);
    clmem_svm_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    line_p = __LINE__ + 1;
    p = clmem_svm_pool_allocate(pool, 100, &err);
    CLMEM_CHECK_CL(t, err);
    g_log[0] = '\0';
    g_warnings = 0;
    clmem_set_log_callback(capture_log, NULL);
    CLMEM_CHECK_ERR(t, clmem_svm_pool_release(pool), CLMEM_ERROR_IN_USE);
    clmem_set_log_callback(NULL, NULL);
    CLMEM_CHECK_EQ(t, g_warnings, 1);
    snprintf(want, sizeof want, "clmem_svm_pool_release: block %p of 100 bytes (103 allocated) is still active; "
             "allocated at %s:%d", p.svm.ptr, __FILE__, line_p);
    CLMEM_CHECK(t, strstr(g_log, want) != NULL);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&p));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
}

/* every pool kind's allocate and allocate_on_queue are tracked (one list, pool.h) */
#if !defined(clmem_memory_pool_allocate) || !defined(clmem_memory_pool_allocate_on_queue) || \
    !defined(clmem_svm_pool_allocate) || !defined(clmem_svm_pool_allocate_on_queue) ||       \
    !defined(clmem_usm_pool_allocate) || !defined(clmem_usm_pool_allocate_on_queue) ||       \
    !defined(clmem_pinned_pool_allocate) || !defined(clmem_pinned_pool_allocate_on_queue) || \
    !defined(clmem_peer_pool_allocate) || !defined(clmem_peer_pool_allocate_on_queue)
#error "CLMEM_TRACK_ALLOCATIONS: an allocate call of a pool kind is not a tracking macro"
#endif

/* a kind declared after the list (pinned.h): both calls record their line */
static void test_pinned_tracked(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *pool = clmem_pinned_pool_create(t->queue, 0, 4, &err);
    clmem_pinned_allocation a, h;
    clmem_pool_block_info info[2];
    size_t n = 0;
    int line_a, line_h;
    CLMEM_CHECK_CL(t, err);
    line_a = __LINE__ + 1;
    a = clmem_pinned_pool_allocate(pool, 100, &err);
    CLMEM_CHECK_CL(t, err);
    line_h = __LINE__ + 1;
    h = clmem_pinned_pool_allocate_on_queue(pool, 300, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_active_blocks_info(pool, info, 2, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    CLMEM_CHECK_EQ(t, info[0].size, 300); /* most recent first */
    CLMEM_CHECK(t, info[0].file != NULL && strcmp(info[0].file, __FILE__) == 0);
    CLMEM_CHECK_EQ(t, info[0].line, line_h);
    CLMEM_CHECK_EQ(t, info[1].size, 100);
    CLMEM_CHECK(t, info[1].file != NULL && strcmp(info[1].file, __FILE__) == 0);
    CLMEM_CHECK_EQ(t, info[1].line, line_a);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(pool));
}

static const clmem_test_case cases[] = {
    {"leak_report", test_leak_report, false},
    {"svm_leak_report", test_svm_leak_report, false},
    {"pinned_tracked", test_pinned_tracked, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
