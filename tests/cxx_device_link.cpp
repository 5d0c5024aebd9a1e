// The device link from C++: a staged copy (threshold 0) between two queues of one
// device, bytes exact, without options, with named options (keywords in C++11,
// designators in C++20, OPT picks) and with one clmem_copy_options; owned buffers
// (clmem::unique) are taken as handles.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

enum { N = 20000, SLOT = 4096 };

static bool dst_is(clmem_test_context *t, cl_command_queue q, clmem_buffer dst, const unsigned char *want, size_t at,
                   size_t from, size_t n) {
    static unsigned char got[N];
    cl_int err = clmem_enqueue_copy(q, (void *)got, dst);
    if (err != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "read back: %s", clmem_last_error_message());
        return false;
    }
    for (size_t i = 0; i < N; i++) {
        unsigned char w = (i >= at && i < at + n) ? want[from + i - at] : 0;
        if (got[i] != w) {
            clmem_test_fail(t, __FILE__, __LINE__, "dst[%zu] is %u, not %u", i, got[i], w);
            return false;
        }
    }
    return true;
}

static void test_staged(clmem_test_context *t) {
    cl_int err;
    static unsigned char want[N];
    fill_pattern(want, N, 5);
    cl_command_queue q2 = extra_queue(t, t->context, &err);
    CLMEM_CHECK_CL(t, err);
    clmem::unique<clmem_buffer> src(
        clmem_buffer_create(t->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N, want, &err));
    CLMEM_CHECK_CL(t, err);
    clmem_buffer dst = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_device_link *l = clmem_device_link_create(t->queue, q2, SLOT, 3, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_device_link_set_threshold(l, 0));
    CLMEM_CHECK_EQ(t, clmem_device_link_threshold(l), 0);

    // without options: every byte, blocking left out (enqueued): wait with clFinish
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(q2, dst, (cl_uchar)0, N));
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, dst, src));
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK(t, dst_is(t, q2, dst, want, 0, 0, N));

    // named options: a range and an event
    cl_event done = NULL;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(q2, dst, (cl_uchar)0, N));
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, dst, src, OPT(byte_count, 3 * SLOT + 7), OPT(src_offset, 11),
                                             OPT(dst_offset, 100), OPT(event, &done)));
    CLMEM_CHECK(t, done != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &done));
    clReleaseEvent(done);
    CLMEM_CHECK(t, dst_is(t, q2, dst, want, 100, 11, 3 * SLOT + 7));

    // a written zero means zero: nothing copied
    size_t zero = 0;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(q2, dst, (cl_uchar)0, N));
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, dst, src, OPT(byte_count, zero), OPT(is_blocking, true)));
    CLMEM_CHECK(t, dst_is(t, q2, dst, want, 0, 0, 0));

    // one clmem_copy_options, blocking
    clmem_copy_options o = CLMEM_OPTIONS_INIT;
    o.byte_count = 5000;
    o.dst_offset = 7;
    o.is_blocking = CL_TRUE;
    o.given |= CLMEM_GIVEN_BYTE_COUNT | CLMEM_GIVEN_IS_BLOCKING;
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, dst, src, o));
    CLMEM_CHECK(t, dst_is(t, q2, dst, want, 7, 0, 5000));

    // a refusal keeps its code and words
    CLMEM_CHECK_ERR(t, clmem_device_link_copy(l, dst, src, OPT(byte_count, N), OPT(dst_offset, 1)), CL_INVALID_VALUE);

    clmem_device_link_stats stats;
    CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &stats));
    CLMEM_CHECK_EQ(t, stats.staged_copies, 3);
    CLMEM_CHECK_EQ(t, stats.staged_bytes, N + 3 * SLOT + 7 + 5000);
    CLMEM_CHECK_CL(t, clmem_device_link_release(l));
    clmem_buffer_release(&dst);
    clReleaseCommandQueue(q2);
}

CXX_CASES({"staged", test_staged, false})
