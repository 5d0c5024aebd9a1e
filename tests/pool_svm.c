/* SVM allocators and pools (PyOpenCL's SVMAllocator, SVMPool, PooledSVM;
   test_zero_size_svm_allocations; the queue ordering of reference §2.6). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool need_svm(clmem_test_context *t) {
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return false;
    }
    return true;
}

/* read `n` ints of SVM memory on queue q (a blocking SVM memcpy: no map needed) */
static cl_int svm_read(cl_command_queue q, void *svm, int *out, size_t n) {
    return clEnqueueSVMMemcpy(q, CL_TRUE, out, svm, n * sizeof(int), 0, NULL, NULL);
}

static void test_svm_allocator(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocator *a;
    clmem_svm_allocation s, z;
    int v = 42, back[4] = {0};
    if (!need_svm(t)) return;
    CLMEM_CHECK_ERR(t, (a = clmem_svm_allocator_create(t->context, 3, 0, NULL, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, a == NULL && strstr(clmem_last_error_message(), "alignment 3") != NULL);
    CLMEM_CHECK_ERR(t, (a = clmem_svm_allocator_create(t->context, 1u << 20, 0, NULL, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (a = clmem_svm_allocator_create(t->context, 0, (cl_svm_mem_flags)1 << 40, NULL, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (a = clmem_svm_allocator_create(NULL, 0, 0, NULL, &err), err), CL_INVALID_CONTEXT);
    {
        cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
        cl_command_queue ooo = clCreateCommandQueueWithProperties(t->context, t->device, props, &err);
        if (err == CL_SUCCESS) {
            CLMEM_CHECK_ERR(t, (a = clmem_svm_allocator_create(t->context, 0, 0, ooo, &err), err),
                            CL_INVALID_COMMAND_QUEUE);
            CLMEM_CHECK(t, strstr(clmem_last_error_message(), "out-of-order") != NULL);
            clReleaseCommandQueue(ooo);
        }
    }
    a = clmem_svm_allocator_create(t->context, 64, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    s = clmem_svm_allocator_allocate(a, 16, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, s.svm.ptr != NULL && ((uintptr_t)s.svm.ptr & 63) == 0);
    CLMEM_CHECK_EQ(t, s.svm.size, 16);
    CLMEM_CHECK(t, clmem_svm_allocation_queue(s) == t->queue);
    CLMEM_CHECK_CL(t, clEnqueueSVMMemFill(t->queue, s.svm.ptr, &v, sizeof v, 16, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, svm_read(t->queue, s.svm.ptr, back, 4));
    CLMEM_CHECK_EQ(t, back[3], 42);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&s));
    z = clmem_svm_allocator_allocate(a, 0, &err); /* test_zero_size_svm_allocations */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, z.svm.ptr == NULL);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&z));
    CLMEM_CHECK_CL(t, clmem_svm_allocator_release(a));
    CLMEM_CHECK_ERR(t, (clmem_svm_allocator_allocate(NULL, 8, &err), err), CL_INVALID_VALUE);
}

/* the block freed on q2 is handed to the allocator's q1 only behind a marker; the
   data written on q2 is what q1 sees */
static void test_svm_pool_two_queues(clmem_test_context *t) {
    cl_int err;
    cl_command_queue q2;
    clmem_svm_allocator *a;
    clmem_svm_pool *pool;
    clmem_pooled_svm p, p2, copy;
    clmem_pool_stats st;
    int five = 5, back[1024], i;
    void *first;
    if (!need_svm(t)) return;
    q2 = clCreateCommandQueueWithProperties(t->context, t->device, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    a = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_svm_pool_create(a, 4, &err);
    clmem_svm_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    p = clmem_svm_pool_allocate(pool, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.svm.ptr != NULL);
    CLMEM_CHECK_EQ(t, p.svm.size, 4096);
    CLMEM_CHECK(t, clmem_pooled_svm_queue(p) == t->queue);
    first = p.svm.ptr;
    CLMEM_CHECK_CL(t, clmem_pooled_svm_bind_to_queue(p, q2));
    CLMEM_CHECK(t, clmem_pooled_svm_queue(p) == q2);
    /* fill on q2 without waiting, and give the block back behind that fill */
    CLMEM_CHECK_CL(t, clEnqueueSVMMemFill(q2, p.svm.ptr, &five, sizeof five, 4096, 0, NULL, NULL));
    copy = p;
    CLMEM_CHECK_CL(t, clmem_pooled_svm_enqueue_release(&p, NULL));
    CLMEM_CHECK(t, p.svm.ptr == NULL && p.svm.pool == NULL);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_held_blocks(pool), 1);
    p2 = clmem_svm_pool_allocate(pool, 4100, &err); /* bin 192 as 4096: 4351 bytes */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_pooled_svm_equal(p2, copy)); /* the same block ... */
    CLMEM_CHECK(t, p2.svm.ptr == first);
    CLMEM_CHECK(t, clmem_pooled_svm_hash(p2) == clmem_pooled_svm_hash(copy));
    CLMEM_CHECK(t, clmem_pooled_svm_queue(p2) == t->queue); /* ... now on q1, after q2's fill */
    CLMEM_CHECK_CL(t, svm_read(t->queue, p2.svm.ptr, back, 1000));
    for (i = 0; i < 1000; ++i) CLMEM_CHECK_EQ(t, back[i], 5);
    /* a copy of the old hand-out is stale even though the block is active again */
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_bind_to_queue(copy, q2), CL_INVALID_VALUE); /* emptied by release */
    CLMEM_CHECK_CL(t, clmem_svm_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.hits, 1);
    CLMEM_CHECK_EQ(t, st.misses, 1);
    CLMEM_CHECK_EQ(t, st.active_blocks, 1);
    CLMEM_CHECK_EQ(t, st.active_bytes, 4100);
    CLMEM_CHECK_EQ(t, st.managed_bytes, 4351);
    /* an out-of-order queue cannot be bound */
    {
        cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
        cl_command_queue ooo = clCreateCommandQueueWithProperties(t->context, t->device, props, &err);
        if (err == CL_SUCCESS) {
            CLMEM_CHECK_ERR(t, clmem_pooled_svm_bind_to_queue(p2, ooo), CL_INVALID_COMMAND_QUEUE);
            clReleaseCommandQueue(ooo);
        }
    }
    CLMEM_CHECK_CL(t, clmem_pooled_svm_unbind_from_queue(p2));
    CLMEM_CHECK(t, clmem_pooled_svm_queue(p2) == NULL);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_enqueue_release(&p2, q2)); /* held, bound to q2 */
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_unbind_from_queue(p2), CL_INVALID_VALUE);
    /* pool release: the held block is freed with clEnqueueSVMFree on q2 */
    CLMEM_CHECK_CL(t, clmem_svm_pool_release(pool));
    CLMEM_CHECK_CL(t, clFinish(q2));
    clReleaseCommandQueue(q2);
}

/* without an allocator queue, a block bound to a queue is finished and unbound when
   reused; size 0 takes a real block */
static void test_svm_pool_no_queue(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocator *a;
    clmem_svm_pool *pool;
    clmem_pooled_svm p, z;
    int seven = 7, back[16];
    if (!need_svm(t)) return;
    a = clmem_svm_allocator_create(t->context, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_svm_pool_create(a, 4, &err);
    clmem_svm_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    z = clmem_svm_pool_allocate(pool, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, z.svm.ptr != NULL);
    CLMEM_CHECK_EQ(t, z.svm.size, 0);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_managed_bytes(pool), 1);
    { /* its size 0 is known, not "unknown": nothing fits (the pool's records stay whole) */
        static unsigned char host[4096];
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, z.svm, (const void *)host, .byte_count = sizeof host),
                        CL_INVALID_VALUE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "larger than the 0 bytes of dst (SVM)") != NULL);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, z.svm, .byte_count = 1), CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, z.svm, (const void *)host, .dst_offset = 1), CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, z.svm, (cl_uchar)1, 4096), CL_INVALID_VALUE);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, z.svm, (const void *)host, .host_size = sizeof host)); /* 0 */
        CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, z.svm, (cl_uchar)1, 1), CL_INVALID_VALUE);
        CLMEM_CHECK_CL(t, clFinish(t->queue));
    }
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&z));
    p = clmem_svm_pool_allocate(pool, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_pooled_svm_queue(p) == NULL);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_bind_to_queue(p, t->queue));
    CLMEM_CHECK_CL(t, clEnqueueSVMMemFill(t->queue, p.svm.ptr, &seven, sizeof seven, 64, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&p));
    p = clmem_svm_pool_allocate(pool, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_pooled_svm_queue(p) == NULL); /* finished and unbound */
    CLMEM_CHECK_CL(t, svm_read(t->queue, p.svm.ptr, back, 16));
    CLMEM_CHECK_EQ(t, back[15], 7);
    CLMEM_CHECK_CL(t, clmem_svm_pool_stop_holding(pool));
    CLMEM_CHECK_EQ(t, clmem_svm_pool_held_blocks(pool), 0);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&p));
    CLMEM_CHECK_EQ(t, clmem_svm_pool_managed_bytes(pool), 0);
    CLMEM_CHECK_CL(t, clmem_svm_pool_release(pool));
    CLMEM_CHECK_ERR(t, (clmem_svm_pool_allocate(NULL, 8, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (clmem_svm_pool_create(NULL, 4, &err), err), CL_INVALID_VALUE);
}

/* the limit works for SVM too */
static void test_svm_pool_limit(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocator *a;
    clmem_svm_pool *pool;
    clmem_pooled_svm p, q;
    if (!need_svm(t)) return;
    a = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_svm_pool_create(a, 4, &err);
    clmem_svm_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_pool_set_limit(pool, 8192));
    p = clmem_svm_pool_allocate(pool, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, (q = clmem_svm_pool_allocate(pool, 4096, &err), err), CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK(t, q.svm.ptr == NULL && q.svm.pool == NULL);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&p));
    q = clmem_svm_pool_allocate(pool, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&q));
    CLMEM_CHECK_CL(t, clmem_svm_pool_release(pool));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
}

static const clmem_test_case cases[] = {
    {"svm_allocator", test_svm_allocator, false},
    {"svm_pool_two_queues", test_svm_pool_two_queues, false},
    {"svm_pool_no_queue", test_svm_pool_no_queue, false},
    {"svm_pool_limit", test_svm_pool_limit, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
