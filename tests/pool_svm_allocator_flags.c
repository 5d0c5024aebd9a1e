/* clmem_svm_allocator_create checks flags, alignment and queue with the SVM
   allocation's own check: what it accepts, clmem_svm_pool_allocate can allocate. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static void expect_refused(clmem_test_context *t, cl_svm_mem_flags flags, cl_int code, const char *words) {
    cl_int err = CL_SUCCESS;
    clmem_svm_allocator *a = clmem_svm_allocator_create(t->context, 0, flags, NULL, &err);
    CLMEM_CHECK_EQ(t, err, code);
    CLMEM_CHECK(t, a == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_svm_allocator_create") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), words) != NULL);
    if (a) clmem_svm_allocator_release(a);
}

static void test_refused_flags(clmem_test_context *t) {
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return;
    }
    expect_refused(t, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_INVALID_VALUE, "more than one of READ_WRITE");
    expect_refused(t, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, CL_INVALID_VALUE, "more than one of READ_WRITE");
    expect_refused(t, CL_MEM_SVM_ATOMICS, CL_INVALID_VALUE, "SVM_ATOMICS without SVM_FINE_GRAIN_BUFFER");
    expect_refused(t, CL_MEM_READ_ONLY | CL_MEM_SVM_ATOMICS, CL_INVALID_VALUE, "SVM_ATOMICS without");
    expect_refused(t, CL_MEM_USE_HOST_PTR, CL_INVALID_VALUE, "not SVM flags");
}

/* an allocator that was made allocates: the same checks, no later out-of-memory */
static void test_accepted_allocates(clmem_test_context *t) {
    static const cl_svm_mem_flags ok[] = {0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
    size_t i;
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return;
    }
    for (i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
        cl_int err;
        clmem_svm_allocator *a = clmem_svm_allocator_create(t->context, 0, ok[i], NULL, &err);
        clmem_svm_pool *pool;
        clmem_pooled_svm p;
        CLMEM_CHECK_CL(t, err);
        if (!a) continue;
        pool = clmem_svm_pool_create(a, 4, &err);
        CLMEM_CHECK_CL(t, err);
        p = clmem_svm_pool_allocate(pool, 100, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, p.svm.ptr != NULL && p.svm.size == 100);
        CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&p));
        CLMEM_CHECK_CL(t, clmem_svm_pool_release(pool));
        CLMEM_CHECK_CL(t, clmem_svm_allocator_release(a));
    }
}

/* the in-order rule: one code, CL_INVALID_COMMAND_QUEUE, for allocations, allocators
   and pooled SVM alike */
static void test_out_of_order_queue(clmem_test_context *t) {
    cl_int err;
    cl_command_queue ooo;
    clmem_svm_allocation s;
    clmem_svm_allocator *a;
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return;
    }
    ooo = extra_queue_with(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (!ooo || err != CL_SUCCESS) {
        clmem_test_skip(t, "no out-of-order queue on this device");
        return;
    }
    CLMEM_CHECK_ERR(t, (a = clmem_svm_allocator_create(t->context, 0, 0, ooo, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, a == NULL && strstr(clmem_last_error_message(), "out-of-order") != NULL);
    CLMEM_CHECK_ERR(t, (s = clmem_svm_allocation_create(t->context, 64, 0, 0, ooo, &err), err),
                    CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, s.svm.ptr == NULL);
    clReleaseCommandQueue(ooo);
}

static const clmem_test_case cases[] = {
    {"refused_flags", test_refused_flags, false},
    {"accepted_allocates", test_accepted_allocates, false},
    {"out_of_order_queue", test_out_of_order_queue, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
