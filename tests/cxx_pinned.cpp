// The pinned module from C++: pinned allocations (also owned by clmem::unique), the
// pinned pool and its queries, the stager (clmem_stager_copy in both directions with
// named options, non-blocking, the _opts functions, threshold, stats).
#define CLMEM_TRACK_ALLOCATIONS
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_pinned(clmem_test_context *t) {
    cl_int err;
    {
        clmem::unique<clmem_pinned_allocation> a(clmem_pinned_allocation_create(t->queue, 4096, 0, &err));
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, bool(a) && a->size == 4096 && a->ptr != NULL);
        memset(a->ptr, 1, 4096);
    }
    clmem_pinned_pool *pp = clmem_pinned_pool_create(t->queue, 0, 4, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_pinned_allocation c = clmem_pinned_pool_allocate(pp, 16, &err);   // records this line
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&c));
    clmem_pinned_allocation b = clmem_pinned_pool_allocate_at(pp, 1000, &err, "x.cpp", 3);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(pp), 1);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_bytes(pp), 1000);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_bin_number(pp, 1024), 160);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_alloc_size(pp, 160), 1087);
    size_t n = 0;
    CLMEM_CHECK_CL(t, clmem_pinned_pool_active_blocks_info(pp, NULL, 0, &n));
    CLMEM_CHECK_EQ(t, n, 1);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&b));
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(pp), 2);
    CLMEM_CHECK(t, clmem_pinned_pool_managed_bytes(pp) >= 1000);
    clmem_pool_stats st;
    CLMEM_CHECK_CL(t, clmem_pinned_pool_get_stats(pp, &st));
    clmem_pool_bin_info bins[4];
    CLMEM_CHECK_CL(t, clmem_pinned_pool_bins(pp, bins, 4, &n));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_reset_peaks(pp));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_limit(pp, 0));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_oom_callback(pp, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_free_held(pp));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_stop_holding(pp));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(pp));
}

static void test_stager(clmem_test_context *t) {
    cl_int err;
    clmem_stager *st = clmem_stager_create(t->queue, 0, 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));   // stage every copy, also on a CPU
    CLMEM_CHECK_EQ(t, clmem_stager_threshold(st), 0);
    unsigned char in[4096], out[4096];
    fill_pattern(in, sizeof in, 11);
    clmem::unique<clmem_buffer> b(clmem_buffer_create(t->context, 0, sizeof in, NULL, &err));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, in));
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, out, b, OPT(byte_count, 64), OPT(src_offset, 128)));
    CLMEM_CHECK(t, memcmp(out, in + 128, 64) == 0 && out[64] == 0);
    size_t zero = 0;
    memset(out, 0xEE, sizeof out);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, out, b, OPT(byte_count, zero)));
    CLMEM_CHECK_EQ(t, out[0], 0xEE);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, out, b, OPT(byte_count, 8192)), CL_INVALID_VALUE);
    clmem_stager_copy_options o = CLMEM_OPTIONS_INIT;
    CLMEM_CHECK_CL(t, clmem_stager_read_opts(st, out, *b, &o));
    CLMEM_CHECK(t, memcmp(out, in, sizeof in) == 0);
    CLMEM_CHECK_CL(t, clmem_stager_write_opts(st, *b, in, &o));
    clmem_copy_options co = CLMEM_OPTIONS_INIT; // the same type: clmem_enqueue_copy's options
    CLMEM_CHECK_CL(t, clmem_stager_read_opts(st, out, *b, &co));
    if (!on_oclgrind(t)) { // a non-blocking staged copy calls OpenCL from a thread of its own
        cl_event e = NULL;
        memset(out, 0, sizeof out);
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, out, b, OPT(is_blocking, false), OPT(event, &e)));
        CLMEM_CHECK(t, e != NULL);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &e));
        CLMEM_CHECK(t, memcmp(out, in, sizeof in) == 0);
        clReleaseEvent(e);
    }
    clmem_stager_stats s;
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

CXX_CASES({"pinned", test_pinned, false}, {"stager", test_stager, false})
