/* SVM transfers: every clmem_enqueue_copy pair with SVM, sizes, overlaps, zero
   bytes; clmem_enqueue_svm_memfill and clmem_enqueue_fill on SVM; migration. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static clmem_svm_allocation alloc(clmem_test_context *t, size_t size, cl_int *err) {
    return clmem_svm_allocation_create(t->context, size, 0, CL_MEM_READ_WRITE, t->queue, err);
}

/* read_back: all `size` bytes of an SVM range into host memory (blocking). */
static cl_int read_back(clmem_test_context *t, void *host, clmem_svm svm) {
    return clmem_enqueue_copy(t->queue, host, svm, .byte_count = svm.size);
}

static void test_every_pair(clmem_test_context *t) {
    unsigned char in[256], out[256], expect[256];
    cl_int err;
    clmem_svm_allocation a, b;
    NEED_SVM(t);
    a = alloc(t, 256, &err);
    CLMEM_CHECK_CL(t, err);
    b = alloc(t, 256, &err);
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&a);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(in, sizeof in, 1);
    /* svm <- host: the size comes from the SVM side */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.svm, (const void *)in));
    /* svm <- svm */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.svm, a.svm));
    /* host <- svm */
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b.svm));
    CLMEM_CHECK(t, memcmp(out, in, sizeof in) == 0);
    /* .byte_count and offsets: 16 bytes from a+8 to b+100 */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.svm, a.svm, .byte_count = 16, .src_offset = 8, .dst_offset = 100));
    memcpy(expect, in, sizeof expect);
    memcpy(expect + 100, in + 8, 16);
    CLMEM_CHECK_CL(t, read_back(t, out, b.svm));
    CLMEM_CHECK(t, memcmp(out, expect, sizeof out) == 0);
    /* non-blocking with an event, then a host read with .host_size */
    {
        cl_event ev = NULL;
        unsigned char small[32];
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.svm, (const void *)expect, .is_blocking = CLMEM_NON_BLOCKING,
                                             .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        memset(small, 0, sizeof small);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, small, a.svm, .host_size = sizeof small, .src_offset = 96));
        CLMEM_CHECK(t, memcmp(small, expect + 96, sizeof small) == 0);
    }
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&b));
}

/* Sizes default to the smaller known size (PyOpenCL demands equal sizes). */
static void test_smaller_size(clmem_test_context *t) {
    unsigned char in[64], out[64];
    cl_int err;
    clmem_svm_allocation small, big;
    NEED_SVM(t);
    small = alloc(t, 32, &err);
    CLMEM_CHECK_CL(t, err);
    big = alloc(t, 64, &err);
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&small);
    CLMEM_CHECK_CL(t, err);
    memset(in, 0xEE, sizeof in);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, big.svm, (const void *)in));
    fill_pattern(in, 32, 7);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, small.svm, (const void *)in));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, big.svm, small.svm)); /* 32 -> 64: copies 32 */
    CLMEM_CHECK_CL(t, read_back(t, out, big.svm));
    CLMEM_CHECK(t, memcmp(out, in, 32) == 0);
    CLMEM_CHECK_EQ(t, out[32], 0xEE);
    CLMEM_CHECK_EQ(t, out[63], 0xEE);
    /* host_size smaller than the SVM side: the host size wins */
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, big.svm, .host_size = 8));
    CLMEM_CHECK(t, memcmp(out, in, 8) == 0);
    CLMEM_CHECK_EQ(t, out[8], 0);
    /* byte_count beyond the smaller side */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, big.svm, small.svm, .byte_count = 33), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "byte_count 33") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, out, big.svm, .byte_count = 65), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, big.svm, small.svm, .src_offset = 33), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "src_offset 33") != NULL);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&small));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&big));
}

static void test_copy_rejections(clmem_test_context *t) {
    unsigned char host[64];
    cl_int err;
    clmem_svm_allocation a;
    clmem_svm unknown, null_svm;
    NEED_SVM(t);
    a = alloc(t, 64, &err);
    CLMEM_CHECK_CL(t, err);
    unknown = clmem_svm_tag(a.svm.ptr, 0);
    null_svm = clmem_svm_tag(NULL, 64);
    /* NULL */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, null_svm, a.svm), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "dst (SVM) is NULL") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.svm, null_svm), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)NULL, a.svm), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.svm, (const void *)NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(NULL, host, a.svm), CL_INVALID_COMMAND_QUEUE);
    /* overlap: both directions and src == dst (reliability.md case 46) */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.svm, a.svm), CL_MEM_COPY_OVERLAP);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "overlap") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.svm, a.svm, .byte_count = 16, .dst_offset = 8), CL_MEM_COPY_OVERLAP);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.svm, a.svm, .byte_count = 16, .src_offset = 8), CL_MEM_COPY_OVERLAP);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.svm, a.svm, .byte_count = 16, .src_offset = 16)); /* adjacent */
    /* host memory overlapping the SVM range (a tag of the same memory) */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)((char *)a.svm.ptr + 4), a.svm, .byte_count = 8),
                    CL_MEM_COPY_OVERLAP);
    /* no size anywhere */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, host, unknown), CLMEM_ERROR_SIZE_UNKNOWN);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), ".byte_count") != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, host, unknown, .byte_count = 64));
    /* wait list */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, host, a.svm, .num_wait_for = 1), CL_INVALID_EVENT_WAIT_LIST);
    /* host to host and buffer <-> svm are compile errors (see tests/compile_fail) */
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
}

static void test_zero_bytes(clmem_test_context *t) {
    unsigned char host[64];
    cl_int err, status = -1;
    cl_event ev = NULL;
    clmem_svm_allocation a;
    NEED_SVM(t);
    a = alloc(t, 64, &err);
    CLMEM_CHECK_CL(t, err);
    /* nothing left after the offset: success, and the event asked for is a marker
       (PoCL would return CL_INVALID_VALUE for a zero-size clEnqueueSVMMemcpy) */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, host, a.svm, .src_offset = 64, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    clReleaseEvent(ev);
    CLMEM_CHECK_EQ(t, status, CL_COMPLETE);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.svm, (const void *)host, .dst_offset = 64));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.svm, (unsigned char)1, 0));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
}

static void test_memfill(clmem_test_context *t) {
    unsigned char out[256], expect[256], pat[128];
    cl_int err;
    size_t ps;
    clmem_svm_allocation a;
    float zero = 0.0f;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 256, 128, CL_MEM_READ_WRITE, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    /* the whole allocation by default */
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &zero, sizeof zero));
    CLMEM_CHECK_CL(t, read_back(t, out, a.svm));
    memset(expect, 0, sizeof expect);
    CLMEM_CHECK(t, memcmp(out, expect, sizeof out) == 0);
    /* .byte_count is honoured: 8 of 256 bytes (PyOpenCL fills all 256) */
    {
        unsigned short v = 0xABCD;
        cl_event ev = NULL;
        CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &v, sizeof v, .byte_count = 8, .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        CLMEM_CHECK_CL(t, read_back(t, out, a.svm));
        memcpy(expect, &v, 2), memcpy(expect + 2, &v, 2), memcpy(expect + 4, &v, 2), memcpy(expect + 6, &v, 2);
        CLMEM_CHECK(t, memcmp(out, expect, sizeof out) == 0);
    }
    /* every pattern size 1..128 fills exactly its range */
    for (ps = 1; ps <= 128; ps *= 2) {
        size_t i;
        memset(expect, 0, sizeof expect);
        CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, expect, 1)); /* clear */
        fill_pattern(pat, ps, (unsigned)ps);
        CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, pat, ps, .byte_count = 128));
        for (i = 0; i < 128; ++i) expect[i] = pat[i % ps];
        CLMEM_CHECK_CL(t, read_back(t, out, a.svm));
        CLMEM_CHECK(t, memcmp(out, expect, sizeof out) == 0);
    }
    /* clmem_enqueue_fill: size in bytes and .offset honoured */
    memset(expect, 0, sizeof expect);
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, expect, 1));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.svm, (cl_int)7, 16, .offset = 32));
    {
        cl_int seven = 7;
        int k;
        for (k = 0; k < 4; ++k) memcpy(expect + 32 + 4 * k, &seven, 4);
    }
    CLMEM_CHECK_CL(t, read_back(t, out, a.svm));
    CLMEM_CHECK(t, memcmp(out, expect, sizeof out) == 0);
    /* rejections */
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, pat, 3), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "pattern_size 3") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, pat, 256), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, pat, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, NULL, 4), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, pat, 4, .byte_count = 6), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "not a multiple") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, pat, 4, .byte_count = 260), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, clmem_svm_tag((char *)a.svm.ptr + 2, 8), pat, 4),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "not aligned") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, clmem_svm_tag(a.svm.ptr, 0), pat, 4), CLMEM_ERROR_SIZE_UNKNOWN);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, clmem_svm_tag(NULL, 8), pat, 4), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, a.svm, (cl_int)7, 16, .offset = 248), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, pat, 4, .byte_count = 4), CL_INVALID_VALUE);
}

static void test_migratemem(clmem_test_context *t) {
    cl_int err;
    cl_event ev = NULL;
    clmem_svm_allocation a, b;
    clmem_svm both[2];
    char ver[512] = {0};
    int major = 0, minor = 0;
    NEED_SVM(t);
    clGetDeviceInfo(t->device, CL_DEVICE_VERSION, sizeof ver - 1, ver, NULL);
    sscanf(ver, "OpenCL %d.%d", &major, &minor);
    a = alloc(t, 64, &err);
    CLMEM_CHECK_CL(t, err);
    b = alloc(t, 64, &err);
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&a);
    CLMEM_CHECK_CL(t, err);
    both[0] = a.svm;
    both[1] = b.svm;
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_migratemem(t->queue, both, 0, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_migratemem(t->queue, NULL, 2, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_migratemem(t->queue, both, 2, 0x80), CL_INVALID_VALUE);
    if (major * 10 + minor < 21) {
        CLMEM_CHECK_ERR(t, clmem_enqueue_svm_migratemem(t->queue, both, 2, 0), CL_INVALID_OPERATION);
    } else {
        CLMEM_CHECK_CL(t, clmem_enqueue_svm_migratemem(t->queue, both, 2, CL_MIGRATE_MEM_OBJECT_HOST, .event = &ev));
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        CLMEM_CHECK_CL(t, clmem_enqueue_svm_migratemem(t->queue, both, 2, 0));
    }
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    both[0] = a.svm; /* released: ptr NULL */
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_migratemem(t->queue, both, 2, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&b));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
}

/* a wait list with an event that has already failed: refused, blocking or not,
   nothing enqueued or copied, no event made (as every clmem_enqueue_copy pair) */
static void test_failed_wait_list(clmem_test_context *t) {
    unsigned char in[64], out[64], want[64];
    cl_int err;
    cl_event failed = NULL, ev = NULL;
    clmem_svm_allocation a, b;
    int blocking;
    NEED_SVM(t);
    a = alloc(t, 64, &err);
    CLMEM_CHECK_CL(t, err);
    b = alloc(t, 64, &err);
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&a);
    CLMEM_CHECK_CL(t, err);
    failed = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(failed, -3));
    fill_pattern(want, sizeof want, 5);
    fill_pattern(in, sizeof in, 6);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.svm, (const void *)want));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.svm, (const void *)want));
    for (blocking = 0; blocking < 2; ++blocking) {
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.svm, (const void *)in, .is_blocking = blocking != 0,
                                              .wait_for = &failed, .num_wait_for = 1, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_copy: wait_for[0]") != NULL);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b.svm, a.svm, .is_blocking = blocking != 0, .wait_for = &failed,
                                              .num_wait_for = 1, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        memset(out, 0x5A, sizeof out);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, out, a.svm, .is_blocking = blocking != 0, .wait_for = &failed,
                                              .num_wait_for = 1, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, out[0] == 0x5A && ev == NULL);
    }
    CLMEM_CHECK_CL(t, clFinish(t->queue)); /* nothing was left queued */
    CLMEM_CHECK_CL(t, read_back(t, out, a.svm));
    CLMEM_CHECK(t, memcmp(out, want, sizeof out) == 0);
    CLMEM_CHECK_CL(t, read_back(t, out, b.svm));
    CLMEM_CHECK(t, memcmp(out, want, sizeof out) == 0);
    clReleaseEvent(failed);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&b));
}

static const clmem_test_case cases[] = {
    {"every_pair", test_every_pair, false},
    {"smaller_size", test_smaller_size, false},
    {"copy_rejections", test_copy_rejections, false},
    {"zero_bytes", test_zero_bytes, false},
    {"memfill", test_memfill, false},
    {"migratemem", test_migratemem, false},
    {"failed_wait_list", test_failed_wait_list, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
