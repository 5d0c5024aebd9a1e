/* clmem_image_from_array and images in kernels: PyOpenCL's test_image_2d (1024x512
   float through a sampler, exact) and test_image_3d (RG float), the element-type
   deduction, and every rejection. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool images_ok(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) clmem_test_skip(t, "device has no image support");
    return images != CL_FALSE;
}

static const char *src2d =
    "__kernel void copy_image(__global float *dest, __read_only image2d_t src, sampler_t samp, int stride0) {\n"
    "    int d0 = get_global_id(0), d1 = get_global_id(1);\n"
    "    dest[d0 * stride0 + d1] = read_imagef(src, samp, (float2)(d1, d0)).x;\n"
    "}\n";

static void test_image_2d(clmem_test_context *t) {
    enum { H = 1024, W = 512 };
    const size_t shape[] = {H, W}, global[] = {H, W};
    float *a = (float *)malloc(sizeof(float) * H * W), *back = (float *)malloc(sizeof(float) * H * W);
    cl_int err;
    clmem_image img;
    clmem_buffer dest;
    clmem_sampler samp;
    cl_kernel k;
    size_t i;
    if (!images_ok(t)) { free(a); free(back); return; }
    CLMEM_CHECK(t, a && back);
    for (i = 0; i < (size_t)H * W; ++i) a[i] = (float)((i * 2654435761u) % 100003u) / 7.0f;
    img = clmem_image_from_array(t->context, a, 2, shape, &err, .num_channels = 1);
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED) {
        free(a); free(back);
        clmem_test_skip(t, "R FLOAT images are not supported");
        return;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.width == W && img.height == H && img.type == CL_MEM_OBJECT_IMAGE2D);
    CLMEM_CHECK(t, img.flags == (CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
    dest = clmem_buffer_create(t->context, CL_MEM_WRITE_ONLY, sizeof(float) * H * W, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    samp = clmem_sampler_create(t->context, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    CLMEM_CHECK_CL(t, err);
    k = build_kernel(t, src2d, "copy_image");
    CLMEM_CHECK(t, k != NULL);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, dest));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 1, img));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 2, samp));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 3, (cl_int)W));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, dest));
    CLMEM_CHECK(t, memcmp(a, back, sizeof(float) * H * W) == 0);
    clReleaseKernel(k);
    clmem_sampler_release(&samp);
    clmem_buffer_release(&dest);
    clmem_image_release(&img);
    free(a);
    free(back);
}

static const char *src3d =
    "__kernel void copy_image(__global float2 *dest, __read_only image3d_t src, sampler_t samp,\n"
    "                         int stride0, int stride1) {\n"
    "    int d0 = get_global_id(0), d1 = get_global_id(1), d2 = get_global_id(2);\n"
    "    dest[d0 * stride0 + d1 * stride1 + d2] = read_imagef(src, samp, (float4)(d2, d1, d0, 0)).xy;\n"
    "}\n";

/* test_image_3d: a float array (D, H, W, C) read back through a kernel, exact */
static void image_3d(clmem_test_context *t, cl_uint nch) {
    enum { D = 3, H = 4, W = 2 };
    const size_t shape[] = {D, H, W, nch}, global[] = {D, H, W};
    float a[D * H * W * 4], back[D * H * W * 2], expect[D * H * W * 2];
    cl_int err;
    clmem_image img;
    clmem_buffer dest;
    clmem_sampler samp;
    cl_kernel k;
    size_t i;
    if (!images_ok(t)) return;
    for (i = 0; i < D * H * W * nch; ++i) a[i] = (float)i * 1.5f - 7.0f;
    for (i = 0; i < D * H * W; ++i) {
        expect[2 * i] = a[nch * i];
        expect[2 * i + 1] = a[nch * i + 1];
    }
    img = clmem_image_from_array(t->context, a, 4, shape, &err, .num_channels = nch);
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED) {
        clmem_test_skip(t, "%s FLOAT 3-D images are not supported by this device", nch == 2 ? "RG" : "RGBA");
        return;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.type == CL_MEM_OBJECT_IMAGE3D && img.width == W && img.height == H && img.depth == D);
    CLMEM_CHECK_EQ(t, img.format.image_channel_order, nch == 2 ? CL_RG : CL_RGBA);
    dest = clmem_buffer_create(t->context, CL_MEM_WRITE_ONLY, sizeof back, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    samp = clmem_sampler_create(t->context, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    CLMEM_CHECK_CL(t, err);
    k = build_kernel(t, src3d, "copy_image");
    CLMEM_CHECK(t, k != NULL);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, dest));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 1, img));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 2, samp));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 3, (cl_int)(H * W)));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 4, (cl_int)W));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 3, NULL, global, NULL, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, dest));
    CLMEM_CHECK(t, memcmp(back, expect, sizeof back) == 0);
    clReleaseKernel(k);
    clmem_sampler_release(&samp);
    clmem_buffer_release(&dest);
    clmem_image_release(&img);
}
static void test_image_3d(clmem_test_context *t) { image_3d(t, 2); }
static void test_image_3d_rgba(clmem_test_context *t) { image_3d(t, 4); }

static void test_element_types(clmem_test_context *t) {
    cl_int err;
    clmem_image img;
    uint8_t u8[5][7][4];
    int16_t s16[6];
    uint16_t halfs[4] = {0x3c00, 0x4000, 0xc000, 0x0000}; /* 1, 2, -2, 0 */
    cl_float4 f4[5][7];
    cl_uint2 u2[3];
    const size_t s574[] = {5, 7, 4}, s57[] = {5, 7}, s6[] = {6}, s4[] = {4}, s3[] = {3};
    if (!images_ok(t)) return;
    fill_pattern(u8, sizeof u8, 1);
    img = clmem_image_from_array(t->context, &u8[0][0][0], 3, s574, &err, .num_channels = 4, .norm_int = true);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.format.image_channel_order == CL_RGBA && img.format.image_channel_data_type == CL_UNORM_INT8);
    CLMEM_CHECK(t, img.width == 7 && img.height == 5 && img.type == CL_MEM_OBJECT_IMAGE2D);
    clmem_image_release(&img);
    memset(f4, 0, sizeof f4);
    img = clmem_image_from_array(t->context, &f4[0][0], 2, s57, &err, .mode = 'w');
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.format.image_channel_order == CL_RGBA && img.format.image_channel_data_type == CL_FLOAT);
    CLMEM_CHECK(t, img.width == 7 && img.height == 5 && (img.flags & CL_MEM_WRITE_ONLY));
    clmem_image_release(&img);
    memset(s16, 0, sizeof s16);
    img = clmem_image_from_array(t->context, s16, 1, s6, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.type == CL_MEM_OBJECT_IMAGE1D && img.width == 6);
    CLMEM_CHECK(t, img.format.image_channel_order == CL_R && img.format.image_channel_data_type == CL_SIGNED_INT16);
    clmem_image_release(&img);
    img = clmem_image_from_array(t->context, halfs, 1, s4, &err, .half_float = true);
    if (err != CL_IMAGE_FORMAT_NOT_SUPPORTED) {
        uint16_t back[4] = {0};
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_EQ(t, img.format.image_channel_data_type, CL_HALF_FLOAT);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, img));
        CLMEM_CHECK(t, memcmp(back, halfs, sizeof back) == 0);
        clmem_image_release(&img);
    }
    memset(u2, 0, sizeof u2);
    img = clmem_image_from_array(t->context, u2, 1, s3, &err);
    if (err != CL_IMAGE_FORMAT_NOT_SUPPORTED) { /* RG is optional on PoCL */
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, img.format.image_channel_order == CL_RG && img.format.image_channel_data_type == CL_UNSIGNED_INT32);
        clmem_image_release(&img);
    }
}

#define EXPECT_FAIL(t, call, code)                                  \
    do {                                                            \
        cl_int e_ = 12345;                                          \
        clmem_image i_;                                             \
        clmem_clear_error();                                        \
        i_ = call;                                                  \
        if (i_.mem) clmem_image_release(&i_);                       \
        CLMEM_CHECK_EQ(t, e_, code);                                \
        CLMEM_CHECK(t, i_.mem == NULL);                             \
        CLMEM_CHECK(t, strncmp(clmem_last_error_message(), "clmem_image_from_array: ", 24) == 0); \
    } while (0)

static void test_from_array_rejections(clmem_test_context *t) {
    float f[4][6][3];
    uint8_t u8[16];
    int32_t i32[16];
    uint16_t u16[16];
    const size_t s463[] = {4, 6, 3}, s46[] = {4, 6}, s16[] = {16}, s0[] = {0, 4}, s44[] = {4, 4}, s4444[] = {2, 2, 2, 2};
    memset(f, 0, sizeof f);
    memset(u8, 0, sizeof u8);
    memset(i32, 0, sizeof i32);
    memset(u16, 0, sizeof u16);
    if (!images_ok(t)) return;
    /* RGB: PyOpenCL makes an invalid CL_RGB FLOAT format (issues #805, #392) */
    EXPECT_FAIL(t, clmem_image_from_array(t->context, &f[0][0][0], 3, s463, &e_, .num_channels = 3),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "use 4 channels") != NULL);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, &f[0][0][0], 2, s46, &e_, .num_channels = 5), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, &f[0][0][0], 2, s46, &e_, .num_channels = 4), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, &f[0][0][0], 2, s46, &e_, .mode = 'x'), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, &f[0][0][0], 2, s46, &e_, .norm_int = true), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, i32, 1, s16, &e_, .norm_int = true), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, u8, 1, s16, &e_, .half_float = true), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, u16, 1, s16, &e_, .half_float = true, .norm_int = true),
                CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, u8, 2, s0, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, u8, 0, s16, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, u8, 4, s4444, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, (const uint8_t *)NULL, 2, s44, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_image_from_array(t->context, u8, 2, (const size_t *)NULL, &e_), CL_INVALID_VALUE);
    {   /* vector width and num_channels disagree */
        cl_float4 v[4];
        memset(v, 0, sizeof v);
        EXPECT_FAIL(t, clmem_image_from_array(t->context, v, 1, s44, &e_, .num_channels = 2), CL_INVALID_VALUE);
    }
    EXPECT_FAIL(t, clmem_image_from_array((cl_context)NULL, u8, 1, s16, &e_), CL_INVALID_CONTEXT);
}

static const clmem_test_case cases[] = {
    {"image_2d", test_image_2d, false},
    {"image_3d", test_image_3d, false},
    {"image_3d_rgba", test_image_3d_rgba, false},
    {"element_types", test_element_types, false},
    {"from_array_rejections", test_from_array_rejections, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
