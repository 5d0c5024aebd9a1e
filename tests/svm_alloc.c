/* SVM allocations: creation checks, zero size, release (plain, enqueued, double),
   queue binding, teardown order. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* try_create: the error code of a rejected creation; the handle must come back empty. */
static cl_int try_create(cl_context ctx, size_t size, cl_uint alignment, cl_svm_mem_flags flags, cl_command_queue q) {
    cl_int err = 12345;
    clmem_svm_allocation a = clmem_svm_allocation_create(ctx, size, alignment, flags, q, &err);
    if (a.svm.ptr != NULL || a.svm.size != 0) {
        clmem_svm_allocation_release(&a);
        return 99999; /* created although it should not have been */
    }
    return err;
}

static cl_command_queue make_queue(clmem_test_context *t, cl_context ctx, cl_command_queue_properties props) {
    cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int err;
    return clCreateCommandQueueWithProperties(ctx, t->device, props ? p : NULL, &err);
}

static void test_zero_size(clmem_test_context *t) {
    cl_int err = 1;
    cl_event ev = NULL;
    cl_int status = -1;
    /* PyOpenCL test_zero_size_svm_allocations: SVMAllocation(ctx, 0, 0, READ_WRITE).release() */
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 0, 0, CL_MEM_READ_WRITE, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.svm.ptr == NULL);
    CLMEM_CHECK_EQ(t, a.svm.size, 0);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a)); /* a no-op, however often */
    CLMEM_CHECK_CL(t, clmem_release(&a));
    /* bound to a queue: nothing to bind, but accepted */
    a = clmem_svm_allocation_create(t->context, 0, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_bind_to_queue(a, t->queue));
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == NULL);
    /* enqueue_release of nothing still gives the event (a marker) */
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_enqueue_release(&a, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_enqueue_release(&a, t->queue, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    clReleaseEvent(ev);
    CLMEM_CHECK_EQ(t, status, CL_COMPLETE);
}

static void test_create_and_facts(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocation a;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 12000, 64, CL_MEM_READ_WRITE, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.svm.ptr != NULL);
    CLMEM_CHECK_EQ(t, a.svm.size, 12000);
    CLMEM_CHECK_EQ(t, (uintptr_t)a.svm.ptr % 64, 0);
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == t->queue);
    CLMEM_CHECK(t, clmem_svm_allocation_context(a) == t->context);
    CLMEM_CHECK_EQ(t, clmem_svm_allocation_flags(a), CL_MEM_READ_WRITE);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK(t, a.svm.ptr == NULL);
    CLMEM_CHECK_EQ(t, a.svm.size, 0);
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == NULL);
    CLMEM_CHECK(t, clmem_svm_allocation_context(a) == NULL);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
}

static void test_rejections(clmem_test_context *t) {
    cl_ulong max_alloc = 0;
    cl_command_queue ooo;
    cl_context other;
    cl_int err;
    NEED_SVM(t);
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    CLMEM_CHECK_ERR(t, try_create(NULL, 64, 0, 0, NULL), CL_INVALID_CONTEXT);
    /* unknown bits: PoCL 3.1 would allocate anyway (reliability.md 3.2) */
    CLMEM_CHECK_ERR(t, try_create(t->context, 64, 0, (cl_svm_mem_flags)1 << 40, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_svm_allocation_create: flags") != NULL);
    CLMEM_CHECK_ERR(t, try_create(t->context, 64, 0, CL_MEM_USE_HOST_PTR, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, try_create(t->context, 64, 0, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "READ_ONLY") != NULL);
    CLMEM_CHECK_ERR(t, try_create(t->context, 64, 0, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, try_create(t->context, 64, 0, CL_MEM_SVM_ATOMICS, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "SVM_ATOMICS without SVM_FINE_GRAIN_BUFFER") != NULL);
    CLMEM_CHECK_ERR(t, try_create(t->context, 64, 3, 0, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "alignment 3 is not a power of two") != NULL);
    CLMEM_CHECK_ERR(t, try_create(t->context, 64, 1u << 20, 0, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE") != NULL);
    CLMEM_CHECK_ERR(t, try_create(t->context, (size_t)max_alloc + 1, 0, 0, NULL), CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK_ERR(t, try_create(t->context, SIZE_MAX, 0, 0, NULL), CL_INVALID_BUFFER_SIZE);
    if (!device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
        CLMEM_CHECK_ERR(t, try_create(t->context, 64, 0, CL_MEM_SVM_FINE_GRAIN_BUFFER, NULL), CL_INVALID_OPERATION);
    if (!device_svm_caps(t, CL_DEVICE_SVM_ATOMICS))
        CLMEM_CHECK_ERR(t, try_create(t->context, 64, 0, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, NULL),
                        CL_INVALID_OPERATION);
    /* out-of-order queue (PyOpenCL: "supplying an out-of-order queue to SVMAllocation is invalid") */
    ooo = make_queue(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    CLMEM_CHECK(t, ooo != NULL);
    err = try_create(t->context, 64, 0, 0, ooo);
    clReleaseCommandQueue(ooo);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_COMMAND_QUEUE); /* the one code of the in-order rule */
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "out-of-order") != NULL);
    /* a queue of another context */
    other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    err = try_create(other, 64, 0, 0, t->queue);
    clReleaseContext(other);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
    /* nothing was left behind: a good allocation still works */
    CLMEM_CHECK_EQ(t, try_create(t->context, 0, 0, 0, NULL), CL_SUCCESS);
}

static void test_double_release(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocation a, copy;
    unsigned char host[16];
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 256, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    copy = a;
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&a), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "already released") != NULL);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_enqueue_release(&copy, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
    /* using a released allocation is caught, not a use after free */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, host, copy.svm, .byte_count = 16), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "was released") != NULL);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_bind_to_queue(copy, t->queue), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_unbind_from_queue(copy), CL_INVALID_VALUE);
    /* a tag owns nothing: releasing it as an allocation is refused */
    a.svm = clmem_svm_tag(host, sizeof host);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&a), CL_INVALID_VALUE);
    /* the slot is reused by a new allocation; the old handle still does not reach it */
    a = clmem_svm_allocation_create(t->context, 256, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, clmem_svm_allocation_context(a) == t->context);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
}

static void test_enqueue_release(clmem_test_context *t) {
    cl_int err, status = -1;
    cl_event ev = NULL, gate;
    clmem_svm_allocation a;
    NEED_SVM(t);
    /* unbound, no queue given: refused, the allocation stays alive */
    a = clmem_svm_allocation_create(t->context, 128, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_enqueue_release(&a, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "no implicit queue") != NULL);
    CLMEM_CHECK(t, a.svm.ptr != NULL);
    CLMEM_CHECK(t, clmem_svm_allocation_context(a) == t->context);
    /* explicit queue, behind a wait list: the free waits for the gate */
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_enqueue_release(&a, t->queue, CLMEM_WAIT_FOR(gate), .event = &ev));
    CLMEM_CHECK(t, a.svm.ptr == NULL);
    CLMEM_CHECK(t, ev != NULL);
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CLMEM_CHECK(t, status != CL_COMPLETE);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&a), CLMEM_ERROR_DOUBLE_RELEASE);
    /* bound: no queue needed */
    a = clmem_svm_allocation_create(t->context, 128, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_enqueue_release(&a, NULL));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
}

static void test_bind_unbind(clmem_test_context *t) {
    cl_int err;
    cl_command_queue q2, ooo;
    clmem_svm_allocation a;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 64, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    q2 = make_queue(t, t->context, 0);
    ooo = make_queue(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    CLMEM_CHECK(t, q2 && ooo);
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == NULL);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_bind_to_queue(a, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_bind_to_queue(a, ooo), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_bind_to_queue(a, t->queue));
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == t->queue);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_bind_to_queue(a, q2));
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == q2);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_unbind_from_queue(a));
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == NULL);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_unbind_from_queue(a)); /* no-op */
    /* the allocation keeps the queue alive while bound */
    CLMEM_CHECK_CL(t, clmem_svm_allocation_bind_to_queue(a, q2));
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(ooo);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a)); /* enqueued on q2, which then goes */
}

/* reliability.md case 48: the context is released before the allocation; clmem's own
   reference keeps clSVMFree safe (valgrind-clean on PoCL 3.1). */
static void test_teardown_order(clmem_test_context *t) {
    cl_int err;
    cl_context ctx;
    cl_command_queue q;
    clmem_svm_allocation a, b;
    NEED_SVM(t);
    ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    a = clmem_svm_allocation_create(ctx, 4096, 0, 0, NULL, &err);
    if (err != CL_SUCCESS) clReleaseContext(ctx);
    CLMEM_CHECK_CL(t, err);
    q = make_queue(t, ctx, 0);
    b = clmem_svm_allocation_create(ctx, 4096, 0, 0, q, &err);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx); /* the user's last references */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&b));
}

static const clmem_test_case cases[] = {
    {"zero_size", test_zero_size, false},
    {"create_and_facts", test_create_and_facts, false},
    {"rejections", test_rejections, false},
    {"double_release", test_double_release, false},
    {"enqueue_release", test_enqueue_release, false},
    {"bind_unbind", test_bind_unbind, false},
    {"teardown_order", test_teardown_order, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
