// The pipe module from C++: create (argument checks first), from_int_ptr, int_ptr,
// get_info, release, the generic memory-object functions and clmem_set_kernel_arg on a
// pipe. PoCL has no pipes: the creation is refused with CL_INVALID_OPERATION there.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_pipe_args(clmem_test_context *t) {
    cl_int err;
    clmem_pipe bad = clmem_pipe_create(t->context, 0, 0, 16, NULL, &err);
    CLMEM_CHECK(t, bad.mem == NULL && err == CL_INVALID_PIPE_SIZE);
    const intptr_t props[] = {1, 2, 0};
    bad = clmem_pipe_create(t->context, 0, 4, 16, props, &err);
    CLMEM_CHECK(t, bad.mem == NULL && err == CL_INVALID_VALUE);
    CLMEM_CHECK(t, clmem_pipe_int_ptr(bad) == NULL);
    CLMEM_CHECK_CL(t, clmem_release(&bad));
    clmem_pipe_info info;
    CLMEM_CHECK_ERR(t, clmem_pipe_get_info(bad, &info), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_pipe_from_int_ptr(NULL, true, &err).mem == NULL ? err : CL_SUCCESS, CL_INVALID_MEM_OBJECT);
}

static void test_pipe(clmem_test_context *t) {
    cl_int err;
    clmem_pipe_info info;
    clmem::unique<clmem_pipe> p(clmem_pipe_create(t->context, 0, sizeof(cl_int), 64, NULL, &err));
    if (err == CL_INVALID_OPERATION) {
        clmem_test_skip(t, "no pipes on this device");
        return;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pipe_get_info(*p, &info));
    CLMEM_CHECK(t, info.packet_size == sizeof(cl_int) && info.max_packets == 64);
    clmem_pipe w = clmem_pipe_from_int_ptr(p->mem, true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_memory_object_equal(w, p) && clmem_memory_object_int_ptr(p) == p->mem);
    CLMEM_CHECK_CL(t, clmem_pipe_release(&w));
    cl_kernel k = build_kernel(t, "__kernel void f(__write_only pipe int q) { }", "f");
    if (!k) return;
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, p.get()));
    clReleaseKernel(k);
}

CXX_CASES({"pipe_args", test_pipe_args, false}, {"pipe", test_pipe, false})
