// The buffer module from C++: create, from_int_ptr, int_ptr, release, get_sub_region,
// slice (CLMEM_END), hostbuf, clmem_enqueue_fill_buffer with options.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_buffer(clmem_test_context *t) {
    cl_int err;
    unsigned char host[1024];
    fill_pattern(host, sizeof host, 9);
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_buffer_int_ptr(b) == b.mem && b.size == sizeof host);
    CLMEM_CHECK(t, clmem_buffer_hostbuf(b) == host);
    clmem_buffer w = clmem_buffer_from_int_ptr(b.mem, true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, w.size == sizeof host && (w.flags & CL_MEM_USE_HOST_PTR)); /* NVIDIA adds CL_MEM_READ_WRITE to the flags it reports */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&w));
    CLMEM_CHECK(t, w.mem == NULL);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&w));
    cl_uint align = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, NULL);
    size_t a = align / 8;
    if (a == 0 || 2 * a > sizeof host) a = 128;
    clmem_buffer sub = clmem_buffer_get_sub_region(b, a, a, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, sub.root == b.mem && sub.origin == a && sub.size == a);
    CLMEM_CHECK(t, clmem_buffer_hostbuf(sub) == host + a);
    clmem_buffer tail = clmem_buffer_slice(b, -(ptrdiff_t)a, CLMEM_END, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, tail.origin == sizeof host - a && tail.size == a);
    clmem_buffer none = clmem_buffer_slice(b, 5, 5, &err);
    CLMEM_CHECK(t, none.mem == NULL && err == CL_INVALID_VALUE);
    clmem_buffer mis = clmem_buffer_get_sub_region(b, 1, 4, 0, &err);
    CLMEM_CHECK(t, mis.mem == NULL && err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
    // fill_buffer: positional pattern, options
    cl_uint v = 0xA5A5A5A5u;
    cl_event ev = NULL;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, sub, &v, sizeof v, 0, a, OPT(event, &ev)));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, &v, sizeof v, 0, 4, CLMEM_WAIT_FOR(ev)));
    clReleaseEvent(ev);
    unsigned char out[1024];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    CLMEM_CHECK(t, out[0] == 0xA5 && out[a] == 0xA5 && out[2 * a - 1] == 0xA5 && out[4] == host[4]);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 3, 0, 6), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 4, 0, 0));   // nothing to do
    clmem::unique<clmem_buffer> u(sub);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, u, &v, 4, 0, 4));
    // the fill writes into `host` (USE_HOST_PTR, on this stack frame): done before it goes
    // (without this, PoCL 5's device thread wrote into a dead frame: a segfault on the H100 host)
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_release(&tail);
    clmem_release(&b);
}

CXX_CASES({"buffer", test_buffer, false})
