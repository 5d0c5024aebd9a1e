/* Samplers: creation (both forms), every sampler_info, int_ptr round trip, equality,
   behaviour at known coordinates (clamp, clamp to edge, repeat, mirrored repeat,
   nearest, linear), and the rejections (reliability checklist case 41). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool images_ok(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) clmem_test_skip(t, "device has no image support");
    return images != CL_FALSE;
}

static void test_create_info_int_ptr(clmem_test_context *t) {
    cl_int err;
    clmem_sampler s, again;
    clmem_sampler_info info;
    if (!images_ok(t)) return;
    s = clmem_sampler_create(t->context, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, s.sampler != NULL && s.context == t->context);
    CLMEM_CHECK_CL(t, clmem_sampler_get_info(s, &info));
    CLMEM_CHECK_EQ(t, info.reference_count, 1);
    CLMEM_CHECK(t, info.context == t->context);
    CLMEM_CHECK_EQ(t, info.normalized_coords, CL_FALSE);
    CLMEM_CHECK_EQ(t, info.addressing_mode, CL_ADDRESS_CLAMP);
    CLMEM_CHECK_EQ(t, info.filter_mode, CL_FILTER_NEAREST);
    again = clmem_sampler_from_int_ptr(clmem_sampler_int_ptr(s), true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_sampler_equal(again, s));
    CLMEM_CHECK_EQ(t, clmem_sampler_hash(again), clmem_sampler_hash(s));
    CLMEM_CHECK(t, again.addressing_mode == CL_ADDRESS_CLAMP && again.normalized_coords == CL_FALSE);
    CLMEM_CHECK_CL(t, clmem_sampler_get_info(s, &info));
    CLMEM_CHECK_EQ(t, info.reference_count, 2);
    clmem_sampler_release(&again);
    CLMEM_CHECK(t, again.sampler == NULL);
    CLMEM_CHECK_CL(t, clmem_sampler_release(&again)); /* no-op */
    clmem_release(&s);
    CLMEM_CHECK(t, s.sampler == NULL);
    {
        const cl_bitfield props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_ADDRESSING_MODE,
                                     CL_ADDRESS_MIRRORED_REPEAT, 0};
        s = clmem_sampler_create_with_properties(t->context, props, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_sampler_get_info(s, &info));
        CLMEM_CHECK_EQ(t, info.normalized_coords, CL_TRUE); /* the default */
        CLMEM_CHECK_EQ(t, info.addressing_mode, CL_ADDRESS_MIRRORED_REPEAT);
        CLMEM_CHECK_EQ(t, info.filter_mode, CL_FILTER_LINEAR);
        clmem_sampler_release(&s);
        s = clmem_sampler_create_with_properties(t->context, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, s.normalized_coords == CL_TRUE && s.addressing_mode == CL_ADDRESS_CLAMP &&
                           s.filter_mode == CL_FILTER_NEAREST);
        clmem_sampler_release(&s);
    }
}

#define EXPECT_FAIL(t, call, code)                                                             \
    do {                                                                                       \
        cl_int e_ = 12345;                                                                     \
        clmem_sampler s_;                                                                      \
        clmem_clear_error();                                                                   \
        s_ = call;                                                                             \
        if (s_.sampler) clmem_sampler_release(&s_);                                            \
        CLMEM_CHECK_EQ(t, e_, code);                                                           \
        CLMEM_CHECK(t, s_.sampler == NULL);                                                    \
        CLMEM_CHECK(t, clmem_last_error_message()[0] != '\0');                                 \
    } while (0)

static void test_sampler_rejections(clmem_test_context *t) {
    const cl_bitfield twice[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, 0};
    const cl_bitfield unknown[] = {0x1234, 1, 0};
    const cl_bitfield bad_nc[] = {CL_SAMPLER_NORMALIZED_COORDS, 7, 0};
    const cl_bitfield rep_unnorm[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_REPEAT, 0};
    if (!images_ok(t)) return;
    EXPECT_FAIL(t, clmem_sampler_create(NULL, true, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e_), CL_INVALID_CONTEXT);
    /* repeat modes with pixel coordinates: not an API error in the spec; PoCL says -30 */
    EXPECT_FAIL(t, clmem_sampler_create(t->context, false, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_create(t->context, false, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &e_),
                CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_create(t->context, true, 0x1999, CL_FILTER_NEAREST, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_create(t->context, true, CL_ADDRESS_CLAMP, 0x1999, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_create_with_properties(t->context, twice, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_create_with_properties(t->context, unknown, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_create_with_properties(t->context, bad_nc, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_create_with_properties(t->context, rep_unnorm, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_sampler_from_int_ptr(NULL, true, &e_), CL_INVALID_SAMPLER);
    {
        clmem_sampler empty;
        clmem_sampler_info info;
        memset(&empty, 0, sizeof empty);
        CLMEM_CHECK_ERR(t, clmem_sampler_get_info(empty, &info), CL_INVALID_SAMPLER);
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg((cl_kernel)NULL, 0, empty), CL_INVALID_KERNEL);
    }
}

static const char *src =
    "__kernel void sample(__global float *out, __read_only image2d_t img, sampler_t s, __global const float *xs,\n"
    "                     float y) {\n"
    "    int i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, (float2)(xs[i], y)).x;\n"
    "}\n";

/* sample(t, normalized, addressing, filter, xs, want, n): read a 4x1 R FLOAT image
   {10, 20, 30, 40} at x coordinates xs and compare with want */
static void sample(clmem_test_context *t, bool norm, cl_addressing_mode am, cl_filter_mode fm, const float *xs,
                   const float *want, size_t n) {
    const float px[4] = {10, 20, 30, 40};
    const size_t shape[] = {1, 4};
    float got[8] = {0};
    cl_int err;
    size_t i;
    clmem_image img = clmem_image_from_array(t->context, px, 2, shape, &err);
    clmem_sampler s;
    clmem_buffer out, xb;
    cl_kernel k;
    CLMEM_CHECK_CL(t, err);
    s = clmem_sampler_create(t->context, norm, am, fm, &err);
    CLMEM_CHECK_CL(t, err);
    out = clmem_buffer_create(t->context, 0, sizeof got, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    xb = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, n * sizeof(float), (void *)xs, &err);
    CLMEM_CHECK_CL(t, err);
    k = build_kernel(t, src, "sample");
    CLMEM_CHECK(t, k != NULL);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, out));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 1, img));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 2, s));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 3, xb));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 4, 0.5f));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)got, out, .byte_count = n * sizeof(float)));
    clReleaseKernel(k);
    clmem_buffer_release(&out);
    clmem_buffer_release(&xb);
    clmem_sampler_release(&s);
    clmem_image_release(&img);
    for (i = 0; i < n; ++i)
        if (!(got[i] > want[i] - 1e-4f && got[i] < want[i] + 1e-4f))
            clmem_test_fail(t, __FILE__, __LINE__, "mode 0x%x filter 0x%x norm %d: x %g gave %g, expected %g", (unsigned)am,
                            (unsigned)fm, (int)norm, (double)xs[i], (double)got[i], (double)want[i]);
}

static void test_sampler_behaviour(clmem_test_context *t) {
    if (!images_ok(t)) return;
    {   /* CLAMP: outside is the border color (0 for R); inside the nearest pixel */
        const float xs[] = {-1.5f, 0.5f, 1.99f, 3.5f, 5.0f}, want[] = {0, 10, 20, 40, 0};
        sample(t, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, xs, want, 5);
    }
    {   /* CLAMP_TO_EDGE: outside is the edge pixel */
        const float xs[] = {-3.0f, 2.5f, 10.0f}, want[] = {10, 30, 40};
        sample(t, false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, xs, want, 3);
    }
    {   /* REPEAT (normalized): 1.125 wraps to 0.125 (pixel 0), -0.125 to 0.875 (pixel 3) */
        const float xs[] = {1.125f, -0.125f, 0.625f}, want[] = {10, 40, 30};
        sample(t, true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, xs, want, 3);
    }
    {   /* MIRRORED_REPEAT (normalized): 1.125 mirrors to 0.875 (pixel 3) */
        const float xs[] = {1.125f, 0.125f}, want[] = {40, 10};
        sample(t, true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, xs, want, 2);
    }
    {   /* LINEAR: halfway between pixel centres 0.5 and 1.5 is the mean */
        const float xs[] = {1.0f, 2.0f, 0.5f, 3.25f}, want[] = {15, 25, 10, 37.5f};
        sample(t, false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, xs, want, 4);
    }
}

static const clmem_test_case cases[] = {
    {"create_info_int_ptr", test_create_info_int_ptr, false},
    {"sampler_rejections", test_sampler_rejections, false},
    {"sampler_behaviour", test_sampler_behaviour, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
