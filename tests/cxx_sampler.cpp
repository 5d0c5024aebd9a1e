// The sampler module from C++: create, create_with_properties, from_int_ptr, int_ptr,
// equal, hash, get_info, release (also clmem_release and clmem::unique), kernel argument.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_sampler(clmem_test_context *t) {
    cl_bool has = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof has, &has, NULL);
    if (!has) {
        clmem_test_skip(t, "no image support");
        return;
    }
    cl_int err;
    clmem_sampler s = clmem_sampler_create(t->context, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_sampler_int_ptr(s) == s.sampler);
    clmem_sampler_info info;
    CLMEM_CHECK_CL(t, clmem_sampler_get_info(s, &info));
    CLMEM_CHECK(t, info.normalized_coords == CL_FALSE && info.addressing_mode == CL_ADDRESS_CLAMP);
    CLMEM_CHECK(t, info.context == t->context);
    const cl_bitfield props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    clmem::unique<clmem_sampler> p(clmem_sampler_create_with_properties(t->context, props, &err));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p->normalized_coords == CL_TRUE && p->filter_mode == CL_FILTER_LINEAR);
    clmem_sampler w = clmem_sampler_from_int_ptr(s.sampler, true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_sampler_equal(w, s) && !clmem_sampler_equal(w, *p));
    CLMEM_CHECK_EQ(t, clmem_sampler_hash(w), clmem_sampler_hash(s));
    CLMEM_CHECK_CL(t, clmem_sampler_release(&w));
    cl_kernel k = build_kernel(t, "__kernel void f(sampler_t s, __global int *o) { o[0] = 1; }", "f");
    if (!k) return;
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, s));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, p));
    clReleaseKernel(k);
    clmem_sampler bad = clmem_sampler_create(t->context, false, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err);
    CLMEM_CHECK(t, bad.sampler == NULL && err == CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_release(&s));
    CLMEM_CHECK_CL(t, clmem_release(&s));   // a second release of an emptied handle is a no-op
}

CXX_CASES({"sampler", test_sampler, false})
