/* USM pools: reuse of released blocks, accounting, stale handles, queue-ordered
   release and reuse on the same queue, clmem_release, refusals. Skips without USM. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "usm_common.h"

static clmem_usm_pool *device_pool(clmem_test_context *t, cl_int *err) {
    return clmem_usm_pool_create(t->context, t->device, CL_MEM_TYPE_DEVICE_INTEL, 0, CLMEM_POOL_DEFAULT_LEADING_BITS, err);
}

static void test_reuse_and_counts(clmem_test_context *t) {
    cl_int err;
    clmem_usm_pool *pool;
    clmem_pooled_usm a, b, copy;
    void *first;
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    pool = device_pool(t, &err);
    CLMEM_CHECK_CL(t, err);
    if (!pool) return;
    a = clmem_usm_pool_allocate(pool, 1000, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.usm.ptr != NULL);
    CLMEM_CHECK_EQ(t, a.usm.size, 1000);
    CLMEM_CHECK_EQ(t, a.usm.type, CL_MEM_TYPE_DEVICE_INTEL);
    CLMEM_CHECK(t, a.usm.context == t->context);
    CLMEM_CHECK_EQ(t, clmem_usm_pool_active_blocks(pool), 1);
    CLMEM_CHECK_EQ(t, clmem_usm_pool_held_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, clmem_usm_pool_managed_bytes(pool), clmem_usm_pool_alloc_size(pool, clmem_usm_pool_bin_number(pool, 1000)));
    first = a.usm.ptr;
    copy = a;
    CLMEM_CHECK_CL(t, clmem_pooled_usm_release(&a));
    CLMEM_CHECK(t, a.usm.ptr == NULL && a.usm.pool == NULL);
    CLMEM_CHECK_EQ(t, clmem_usm_pool_active_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, clmem_usm_pool_held_blocks(pool), 1);
    /* the stale copy: refused everywhere, released twice is a double release */
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, copy.usm, (cl_uint)0, 4), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stale") != NULL);
    {
        clmem_pooled_usm again = copy; /* a release empties the handle it is given, even a refused one */
        CLMEM_CHECK_ERR(t, clmem_pooled_usm_release(&again), CLMEM_ERROR_DOUBLE_RELEASE);
    }
    /* the same bin gets the same block back */
    b = clmem_usm_pool_allocate(pool, 1010, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b.usm.ptr == first);
    CLMEM_CHECK_EQ(t, clmem_usm_pool_held_blocks(pool), 0);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE); /* also after the block's reuse */
    {
        unsigned char in[1010], out[1010];
        fill_pattern(in, sizeof in, 5);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.usm, (const void *)in));
        memset(out, 0, sizeof out);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b.usm));
        CLMEM_CHECK(t, memcmp(out, in, sizeof in) == 0);
    }
    { /* a 0-byte block: its size 0 is known, not "unknown": nothing fits */
        static unsigned char host[4096];
        clmem_pooled_usm z = clmem_usm_pool_allocate(pool, 0, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_EQ(t, z.usm.size, 0);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, z.usm, (const void *)host, .byte_count = sizeof host),
                        CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, z.usm, .byte_count = 1), CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, z.usm, (cl_uchar)1, 4096), CL_INVALID_VALUE);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, z.usm, (const void *)host, .host_size = sizeof host)); /* 0 */
        CLMEM_CHECK_CL(t, clFinish(t->queue));
        CLMEM_CHECK_CL(t, clmem_pooled_usm_release(&z));
    }
    /* a pool with an active block cannot go yet; the block still can */
    CLMEM_CHECK_ERR(t, clmem_usm_pool_release(pool), CLMEM_ERROR_IN_USE);
    CLMEM_CHECK_CL(t, clmem_release(&b));
}

static void test_queue_order(clmem_test_context *t) {
    cl_int err;
    clmem_usm_pool *pool;
    clmem_pooled_usm a, b;
    cl_uint v = 42, out[16];
    unsigned i;
    void *first;
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    pool = device_pool(t, &err);
    CLMEM_CHECK_CL(t, err);
    if (!pool) return;
    a = clmem_usm_pool_allocate_on_queue(pool, sizeof out, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    first = a.usm.ptr;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.usm, v, sizeof out));
    CLMEM_CHECK_CL(t, clmem_pooled_usm_enqueue_release(&a, t->queue));
    CLMEM_CHECK(t, a.usm.ptr == NULL);
    /* the same in-order queue takes it back at once; the fill is ordered before */
    b = clmem_usm_pool_allocate_on_queue(pool, sizeof out, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b.usm.ptr == first);
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b.usm));
    for (i = 0; i < 16; ++i) CLMEM_CHECK_EQ(t, out[i], 42);
    CLMEM_CHECK_ERR(t, clmem_pooled_usm_enqueue_release(&b, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, b.usm.ptr == first); /* refused: still the caller's */
    CLMEM_CHECK_CL(t, clmem_pooled_usm_enqueue_release(&b, t->queue));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_usm_pool_release(pool));
}

static void test_refusals(clmem_test_context *t) {
    cl_int err = 0;
    clmem_pooled_usm p;
    CLMEM_CHECK(t, clmem_usm_pool_create(NULL, NULL, CL_MEM_TYPE_HOST_INTEL, 0, 4, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
    CLMEM_CHECK(t, clmem_usm_pool_create(t->context, t->device, CL_MEM_TYPE_HOST_INTEL, 0, 4, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_DEVICE);
    CLMEM_CHECK(t, clmem_usm_pool_create(t->context, NULL, CL_MEM_TYPE_DEVICE_INTEL, 0, 4, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_DEVICE);
    p = clmem_usm_pool_allocate(NULL, 16, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK(t, p.usm.ptr == NULL);
    CLMEM_CHECK_CL(t, clmem_pooled_usm_release(&p)); /* empty: nothing to do */
    CLMEM_CHECK_CL(t, clmem_usm_pool_release(NULL));
    NEED_USM(t, CL_MEM_TYPE_HOST_INTEL);
    CLMEM_CHECK(t, clmem_usm_pool_create(t->context, NULL, CL_MEM_TYPE_HOST_INTEL, 0, CLMEM_POOL_MAX_LEADING_BITS + 1,
                                         &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
}

static const clmem_test_case cases[] = {
    {"reuse_and_counts", test_reuse_and_counts, false},
    {"queue_order", test_queue_order, false},
    {"refusals", test_refusals, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
