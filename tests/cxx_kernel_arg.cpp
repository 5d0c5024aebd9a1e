// tests/cxx_kernel_arg.cpp - clmem_set_kernel_arg in C++ takes the wide vectors (32 to
// 128 bytes: cl_int8, cl_float16, cl_double4, ...) as C does, and the kernel sees them;
// a vector of the wrong size is refused where the program has argument info.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_wide_vectors(clmem_test_context *t) {
    cl_int err;
    cl_kernel k = build_with(t,
                             "__kernel void f(__global int *out, int8 a, int16 b, long4 c) {\n"
                             "  vstore8(a, 0, out); vstore16(b, 0, out + 8); out[24] = (int)(c.s0 + c.s3); }\n",
                             "f", "-cl-kernel-arg-info");
    if (!k) return;
    clmem_buffer out = clmem_buffer_create(t->context, CL_MEM_WRITE_ONLY, 25 * sizeof(cl_int), NULL, &err);
    CLMEM_CHECK_CL(t, err);
    cl_int8 a;
    cl_int16 b;
    const cl_long4 c = {{100, 0, 0, 23}};
    for (int i = 0; i < 8; ++i) a.s[i] = i + 1;
    for (int i = 0; i < 16; ++i) b.s[i] = -i;
    err = clmem_set_kernel_arg(k, 0, out);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 1, a);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 2, b);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 3, c);
    size_t one = 1;
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    cl_int got[25] = {};
    if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, got, out);
    CLMEM_CHECK_CL(t, err);
    for (int i = 0; i < 8; ++i) CLMEM_CHECK_EQ(t, got[i], i + 1);
    for (int i = 0; i < 16; ++i) CLMEM_CHECK_EQ(t, got[8 + i], -i);
    CLMEM_CHECK_EQ(t, got[24], 123);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 1, b), CL_INVALID_ARG_SIZE); // an int16 for the int8
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "declared int8) is given an int16 (64 bytes)") != NULL);
    clReleaseKernel(k);
    clmem_buffer_release(&out);
}

CXX_CASES({"wide_vectors", test_wide_vectors, false})
