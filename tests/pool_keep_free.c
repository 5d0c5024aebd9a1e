/* A pool's keep-free (clmem_<kind>_set_keep_free, LIMITS in >>pool): growth refused as
   out of memory (held blocks freed first, then CLMEM_ERROR_LIMIT_EXCEEDED in words)
   when the device's free memory (clmem_device_memory_info: on a CPU device the host's
   available memory) less the new block would be below the figure; held blocks handed
   out without a query (the pool's free_queries count); 0 removes it; the out-of-memory
   callback may lift it; the device is checked. Buffer pools, and a generated kind
   (pinned). Peer pools: tests/peer_pool.c. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#define NAMES(t, s) CLMEM_CHECK(t, strstr(clmem_last_error_message(), s) != NULL)

static clmem_memory_pool *buffer_pool(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *p = a ? clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err) : NULL;
    clmem_allocator_release(a);
    if (!p) clmem_test_fail(t, __FILE__, __LINE__, "no buffer pool: %s", clmem_last_error_message());
    return p;
}

/* growth refused, held blocks reused without a query, the stages, 0 removes it */
static void test_growth_refused(clmem_test_context *t) {
    clmem_memory_pool *p = buffer_pool(t);
    clmem_pool_stats st;
    clmem_buffer a, b;
    cl_int err;
    if (!p) return;
    a = clmem_memory_pool_allocate(p, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&a));
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.free_queries, 0); /* none set: never asked */
    CLMEM_CHECK_EQ(t, st.keep_free, 0);
    CLMEM_CHECK(t, st.keep_free_device == NULL);
    /* more than any device has: every growth is refused */
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, t->device, SIZE_MAX));
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.keep_free, SIZE_MAX);
    CLMEM_CHECK(t, st.keep_free_device == t->device);
    /* a held block: handed out, no query */
    a = clmem_memory_pool_allocate(p, 4100, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.free_queries, 0);
    CLMEM_CHECK_EQ(t, st.hits, 1);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&a));
    /* another bin must grow: refused after the held block was freed (one query before,
       one after) */
    b = clmem_memory_pool_allocate(p, (size_t)1 << 20, &err);
    CLMEM_CHECK(t, b.mem == NULL);
    CLMEM_CHECK_EQ(t, err, CLMEM_ERROR_LIMIT_EXCEEDED);
    NAMES(t, "clmem_memory_pool_allocate: a block of 1114111 bytes (for 1048576 asked) would leave device '");
    NAMES(t, "less than the pool's keep-free of");
    NAMES(t, "and no held block is left to free");
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.free_queries, 2);
    CLMEM_CHECK_EQ(t, st.held_blocks, 0);
    CLMEM_CHECK_EQ(t, st.allocator_frees, 1);
    CLMEM_CHECK_EQ(t, st.oom_events, 1);
    CLMEM_CHECK_EQ(t, st.managed_bytes, 0);
    CLMEM_CHECK_EQ(t, st.misses, 1);
    /* a figure the device keeps: growth goes on, one query per growth */
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, t->device, 1));
    b = clmem_memory_pool_allocate(p, (size_t)1 << 20, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.free_queries, 3);
    CLMEM_CHECK_EQ(t, st.keep_free, 1);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    /* 0: none (the device may be NULL), no more queries */
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, NULL, 0));
    b = clmem_memory_pool_allocate(p, (size_t)3 << 20, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.free_queries, 3);
    CLMEM_CHECK_EQ(t, st.keep_free, 0);
    CLMEM_CHECK(t, st.keep_free_device == NULL);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(p));
}

/* the out-of-memory callback (stage 3) may lift the keep-free: the request goes on */
static bool lift(size_t bytes, unsigned attempt, void *user) {
    clmem_memory_pool *p = (clmem_memory_pool *)user;
    (void)bytes;
    return attempt == 1 && clmem_memory_pool_set_keep_free(p, NULL, 0) == CL_SUCCESS;
}

static void test_callback_lifts(clmem_test_context *t) {
    clmem_memory_pool *p = buffer_pool(t);
    clmem_pool_stats st;
    clmem_buffer b;
    cl_int err;
    if (!p) return;
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, t->device, SIZE_MAX));
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_oom_callback(p, lift, p));
    b = clmem_memory_pool_allocate(p, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.free_queries, 1);
    CLMEM_CHECK_EQ(t, st.oom_events, 1);
    CLMEM_CHECK_EQ(t, st.keep_free, 0);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(p));
}

/* the limit and the keep-free together: each refuses in its own words */
static void test_with_limit(clmem_test_context *t) {
    clmem_memory_pool *p = buffer_pool(t);
    clmem_buffer b;
    cl_int err;
    if (!p) return;
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_limit(p, 100));
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, t->device, 1));
    b = clmem_memory_pool_allocate(p, 4096, &err);
    CLMEM_CHECK(t, b.mem == NULL && err == CLMEM_ERROR_LIMIT_EXCEEDED);
    NAMES(t, "past the pool's limit of 100 bytes");
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_limit(p, 0));
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, t->device, SIZE_MAX));
    b = clmem_memory_pool_allocate(p, 4096, &err);
    CLMEM_CHECK(t, b.mem == NULL && err == CLMEM_ERROR_LIMIT_EXCEEDED);
    NAMES(t, "keep-free of");
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(p)); /* releases the device it retained */
}

/* a sub-device of t->device, not a device of t->context; NULL where none is made */
static cl_device_id sub_device(clmem_test_context *t) {
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0}, kinds[8] = {0};
    cl_device_id sub[64];
    cl_uint n = 0, i;
    size_t got = 0, k;
    int equally = 0;
    if (clGetDeviceInfo(t->device, CL_DEVICE_PARTITION_PROPERTIES, sizeof kinds, kinds, &got) == CL_SUCCESS)
        for (k = 0; k < got / sizeof kinds[0] && k < 8; ++k) equally |= kinds[k] == CL_DEVICE_PARTITION_EQUALLY;
    if (!equally || clCreateSubDevices(t->device, props, 64, sub, &n) != CL_SUCCESS || n == 0) return NULL;
    for (i = 1; i < n && i < 64; ++i) clReleaseDevice(sub[i]);
    return sub[0];
}

static void test_refusals(clmem_test_context *t) {
    clmem_memory_pool *p = buffer_pool(t);
    clmem_pinned_pool *pp;
    clmem_pinned_allocation a;
    cl_device_id sub;
    cl_int err;
    if (!p) return;
    CLMEM_CHECK_ERR(t, clmem_memory_pool_set_keep_free(NULL, t->device, 1), CL_INVALID_VALUE);
    NAMES(t, "clmem_memory_pool_set_keep_free: pool is NULL");
    CLMEM_CHECK_ERR(t, clmem_memory_pool_set_keep_free(p, NULL, 4096), CL_INVALID_DEVICE);
    NAMES(t, "clmem_memory_pool_set_keep_free: device is NULL with bytes 4096 to keep free");
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, NULL, 0));
    sub = sub_device(t);
    if (sub) {
        CLMEM_CHECK_ERR(t, clmem_memory_pool_set_keep_free(p, sub, 4096), CL_INVALID_DEVICE);
        NAMES(t, "clmem_memory_pool_set_keep_free: device ");
        NAMES(t, "is not a device of context");
        clReleaseDevice(sub);
    }
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(p));
    /* a generated kind: the same core */
    pp = clmem_pinned_pool_create(t->queue, 0, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    CLMEM_CHECK_CL(t, err);
    if (!pp) return;
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_set_keep_free(NULL, t->device, 1), CL_INVALID_VALUE);
    NAMES(t, "clmem_pinned_pool_set_keep_free: pool is NULL");
    CLMEM_CHECK_ERR(t, clmem_pinned_pool_set_keep_free(pp, NULL, 1), CL_INVALID_DEVICE);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_keep_free(pp, t->device, SIZE_MAX));
    a = clmem_pinned_pool_allocate(pp, 100, &err);
    CLMEM_CHECK(t, a.ptr == NULL && err == CLMEM_ERROR_LIMIT_EXCEEDED);
    NAMES(t, "clmem_pinned_pool_allocate: a block of 103 bytes (for 100 asked) would leave device");
    CLMEM_CHECK_CL(t, clmem_pinned_pool_set_keep_free(pp, t->device, 0));
    a = clmem_pinned_pool_allocate(pp, 100, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(pp));
}

static const clmem_test_case cases[] = {{"growth_refused", test_growth_refused, false},
                                        {"callback_lifts", test_callback_lifts, false},
                                        {"with_limit", test_with_limit, false},
                                        {"refusals", test_refusals, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
