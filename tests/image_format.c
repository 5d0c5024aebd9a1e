/* Image formats: channel_count, dtype_size, itemsize (packed types fixed), repr,
   equality, hash, supported formats (PyOpenCL's test_image_format_constructor and
   test_nonempty_supported_image_formats). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static void test_format_sizes(clmem_test_context *t) {
    clmem_image_format f = clmem_image_format_create(CL_RGBA, CL_FLOAT);
    CLMEM_CHECK_EQ(t, f.image_channel_order, CL_RGBA);
    CLMEM_CHECK_EQ(t, f.image_channel_data_type, CL_FLOAT);
    CLMEM_CHECK_EQ(t, clmem_image_format_channel_count(f), 4);
    CLMEM_CHECK_EQ(t, clmem_image_format_dtype_size(f), 4);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(f), 16);
    /* every plain order with a 2-byte type */
    {
        static const struct { cl_channel_order o; unsigned n; } orders[] = {
            {CL_R, 1}, {CL_A, 1}, {CL_INTENSITY, 1}, {CL_LUMINANCE, 1}, {CL_RG, 2}, {CL_RA, 2},
            {CL_RGBA, 4}, {CL_BGRA, 4}, {CL_ARGB, 4}, {CL_DEPTH, 1}, {CL_sRGBA, 4}, {CL_sBGRA, 4}, {CL_ABGR, 4}};
        size_t i;
        for (i = 0; i < sizeof orders / sizeof orders[0]; ++i) {
            clmem_image_format g = clmem_image_format_create(orders[i].o, CL_HALF_FLOAT);
            CLMEM_CHECK_EQ(t, clmem_image_format_channel_count(g), orders[i].n);
            CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(g), 2 * orders[i].n);
        }
    }
    {
        static const struct { cl_channel_type ty; size_t size; } types[] = {
            {CL_SNORM_INT8, 1}, {CL_UNORM_INT8, 1}, {CL_SIGNED_INT8, 1}, {CL_UNSIGNED_INT8, 1},
            {CL_SNORM_INT16, 2}, {CL_UNORM_INT16, 2}, {CL_SIGNED_INT16, 2}, {CL_UNSIGNED_INT16, 2},
            {CL_HALF_FLOAT, 2}, {CL_SIGNED_INT32, 4}, {CL_UNSIGNED_INT32, 4}, {CL_FLOAT, 4}};
        size_t i;
        for (i = 0; i < sizeof types / sizeof types[0]; ++i) {
            clmem_image_format g = clmem_image_format_create(CL_RG, types[i].ty);
            CLMEM_CHECK_EQ(t, clmem_image_format_dtype_size(g), types[i].size);
            CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(g), 2 * types[i].size);
        }
    }
    /* packed: a pixel is one word, not channels x size (PyOpenCL says 6 for RGB 565) */
    CLMEM_CHECK_EQ(t, clmem_image_format_channel_count(clmem_image_format_create(CL_RGB, CL_UNORM_SHORT_565)), 3);
    CLMEM_CHECK_EQ(t, clmem_image_format_dtype_size(clmem_image_format_create(CL_RGB, CL_UNORM_SHORT_565)), 2);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_RGB, CL_UNORM_SHORT_565)), 2);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_RGBx, CL_UNORM_SHORT_555)), 2);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_RGB, CL_UNORM_INT_101010)), 4);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_RGBA, CL_UNORM_INT_101010_2)), 4);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_DEPTH, CL_UNORM_INT24)), 4);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_DEPTH_STENCIL, CL_FLOAT)), 8);
    /* x orders store their padding channel */
    CLMEM_CHECK_EQ(t, clmem_image_format_channel_count(clmem_image_format_create(CL_Rx, CL_UNORM_INT8)), 1);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_Rx, CL_UNORM_INT8)), 2);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_RGx, CL_FLOAT)), 12);
    /* unknown parts are 0, not a guess */
    CLMEM_CHECK_EQ(t, clmem_image_format_channel_count(clmem_image_format_create(0x10FF, CL_FLOAT)), 0);
    CLMEM_CHECK_EQ(t, clmem_image_format_dtype_size(clmem_image_format_create(CL_R, 0x10FF)), 0);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_R, 0x10FF)), 0);
}

static void test_format_repr_equal_hash(clmem_test_context *t) {
    char s[80];
    clmem_image_format a = clmem_image_format_create(CL_RGBA, CL_FLOAT);
    clmem_image_format b = clmem_image_format_create(CL_RGBA, CL_FLOAT);
    clmem_image_format c = clmem_image_format_create(CL_RGBA, CL_UNORM_INT8);
    CLMEM_CHECK(t, strcmp(clmem_image_format_repr(a, s, sizeof s), "ImageFormat(RGBA, FLOAT)") == 0);
    CLMEM_CHECK(t, strcmp(clmem_image_format_repr(clmem_image_format_create(CL_sRGBA, CL_UNORM_INT_101010_2), s, sizeof s),
                          "ImageFormat(sRGBA, UNORM_INT_101010_2)") == 0);
    CLMEM_CHECK(t, strcmp(clmem_image_format_repr(clmem_image_format_create(0x10FF, CL_FLOAT), s, sizeof s),
                          "ImageFormat(<unknown channel order 0x10ff>, FLOAT)") == 0);
    CLMEM_CHECK(t, strcmp(clmem_image_format_repr(a, s, 8), "ImageFo") == 0); /* truncated, terminated */
    CLMEM_CHECK(t, clmem_image_format_equal(a, b));
    CLMEM_CHECK(t, !clmem_image_format_equal(a, c));
    CLMEM_CHECK_EQ(t, clmem_image_format_hash(a), clmem_image_format_hash(b));
    CLMEM_CHECK(t, clmem_image_format_hash(a) != clmem_image_format_hash(c));
    CLMEM_CHECK(t, strcmp(clmem_channel_order_name(CL_LUMINANCE), "LUMINANCE") == 0);
    CLMEM_CHECK(t, clmem_channel_type_name(0x1234) == NULL);
}

static void test_supported_formats(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clmem_image_format f[256];
    cl_uint n = 0, n2 = 0, i;
    bool rgba_float = false;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) {
        clmem_test_skip(t, "device has no image support");
        return;
    }
    CLMEM_CHECK_CL(t, clmem_get_supported_image_formats(t->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL, 0, &n));
    CLMEM_CHECK(t, n > 0);
    CLMEM_CHECK(t, n <= 256);
    CLMEM_CHECK_CL(t, clmem_get_supported_image_formats(t->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, f, 256, &n2));
    CLMEM_CHECK_EQ(t, n2, n);
    for (i = 0; i < n; ++i) {
        CLMEM_CHECK(t, clmem_image_format_itemsize(f[i]) > 0); /* every listed format has a known size */
        if (clmem_image_format_equal(f[i], clmem_image_format_create(CL_RGBA, CL_FLOAT))) rgba_float = true;
    }
    CLMEM_CHECK(t, rgba_float); /* in the OpenCL minimum list */
    CLMEM_CHECK_ERR(t, clmem_get_supported_image_formats(NULL, 0, CL_MEM_OBJECT_IMAGE2D, f, 256, &n), CL_INVALID_CONTEXT);
    CLMEM_CHECK_ERR(t, clmem_get_supported_image_formats(t->context, 0, CL_MEM_OBJECT_BUFFER, f, 256, &n), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_get_supported_image_formats(t->context, 0, CL_MEM_OBJECT_IMAGE2D, NULL, 4, &n), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_get_supported_image_formats(t->context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                                         CL_MEM_OBJECT_IMAGE2D, f, 256, &n), CL_INVALID_VALUE);
}

static const clmem_test_case cases[] = {
    {"format_sizes", test_format_sizes, true},
    {"format_repr_equal_hash", test_format_repr_equal_hash, true},
    {"supported_formats", test_supported_formats, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
