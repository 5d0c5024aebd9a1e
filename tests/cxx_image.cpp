// The image module from C++: formats (create, channel_count, dtype_size, itemsize,
// names, repr, equal, hash, supported formats), clmem_create_image and
// clmem_image_create with named options, clmem_image_from_array (the element type picks
// the channel type at compile time), clmem_enqueue_fill_image (the color's type picks
// its kind), from_int_ptr, int_ptr, get_info, shape, extent, release.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static bool no_images(clmem_test_context *t) {
    cl_bool has = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof has, &has, NULL);
    if (!has) clmem_test_skip(t, "no image support");
    return !has;
}

static void test_formats(clmem_test_context *t) {
    clmem_image_format f = clmem_image_format_create(CL_RGBA, CL_FLOAT);
    CLMEM_CHECK_EQ(t, clmem_image_format_channel_count(f), 4);
    CLMEM_CHECK_EQ(t, clmem_image_format_dtype_size(f), 4);
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(f), 16);
    CLMEM_CHECK(t, strcmp(clmem_channel_order_name(CL_RGBA), "RGBA") == 0);
    CLMEM_CHECK(t, strcmp(clmem_channel_type_name(CL_UNORM_INT8), "UNORM_INT8") == 0);
    CLMEM_CHECK(t, clmem_channel_order_name(0x10ff) == NULL);
    char s[64];
    CLMEM_CHECK(t, strcmp(clmem_image_format_repr(f, s, sizeof s), "ImageFormat(RGBA, FLOAT)") == 0);
    CLMEM_CHECK(t, clmem_image_format_equal(f, clmem_image_format_create(CL_RGBA, CL_FLOAT)));
    CLMEM_CHECK(t, !clmem_image_format_equal(f, clmem_image_format_create(CL_R, CL_FLOAT)));
    CLMEM_CHECK(t, clmem_image_format_hash(f) == clmem_image_format_hash(clmem_image_format_create(CL_RGBA, CL_FLOAT)));
    CLMEM_CHECK_EQ(t, clmem_image_format_itemsize(clmem_image_format_create(CL_RGB, CL_UNORM_SHORT_565)), 2);
}

static void test_create(clmem_test_context *t) {
    if (no_images(t)) return;
    cl_int err;
    cl_uint n = 0;
    CLMEM_CHECK_CL(t, clmem_get_supported_image_formats(t->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL, 0, &n));
    CLMEM_CHECK(t, n > 0);
    clmem_image_format fs[256];
    CLMEM_CHECK_CL(t, clmem_get_supported_image_formats(t->context, 0, CL_MEM_OBJECT_IMAGE2D, fs, 256, &n));
    const clmem_image_format rgba = clmem_image_format_create(CL_RGBA, CL_UNORM_INT8);
    clmem_image img = clmem_create_image(t->context, CL_MEM_READ_ONLY, rgba, &err, OPT(shape, {64, 32}));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE2D);
    CLMEM_CHECK_EQ(t, img.width, 64);
    CLMEM_CHECK_EQ(t, img.height, 32);
    CLMEM_CHECK_EQ(t, img.element_size, 4);
    size_t shape[3], ext[3];
    CLMEM_CHECK_EQ(t, clmem_image_shape(img, shape), 2);
    CLMEM_CHECK(t, shape[0] == 64 && shape[1] == 32 && shape[2] == 0);
    clmem_image_extent(img, ext);
    CLMEM_CHECK(t, ext[0] == 64 && ext[1] == 32 && ext[2] == 1);
    clmem_image_info info;
    CLMEM_CHECK_CL(t, clmem_image_get_info(img, &info));
    CLMEM_CHECK_EQ(t, info.width, 64);
    CLMEM_CHECK_EQ(t, info.element_size, 4);
    CLMEM_CHECK(t, clmem_image_int_ptr(img) == img.mem);
    clmem_image w = clmem_image_from_int_ptr(img.mem, true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, w.width == 64 && clmem_image_format_equal(w.format, rgba));
    CLMEM_CHECK_CL(t, clmem_image_release(&w));
    // arrays, 1-D, 3-D, a 1-D buffer image, host data with pitches
    clmem_image arr = clmem_image_create(t->context, 0, rgba, &err, OPT(shape, {16, 4}), OPT(is_array, true));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, arr.type, CL_MEM_OBJECT_IMAGE1D_ARRAY);
    CLMEM_CHECK_EQ(t, arr.array_size, 4);
    clmem_release(&arr);
    unsigned char host[4][20 * 4];
    fill_pattern(host, sizeof host, 5);
    clmem_image h = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, rgba, &err, OPT(shape, {16, 4}),
                                       OPT(pitches, {20 * 4}), OPT(hostbuf, &host[0][0]), OPT(host_size, sizeof host));
    CLMEM_CHECK_CL(t, err);
    unsigned char back[4][16 * 4];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &back[0][0], h));
    // also where the driver ignores the row pitch of COPY_HOST_PTR (Oclgrind 21.10, PoCL-Remote 6.0: clmem/quirks.h)
    CLMEM_CHECK(t, memcmp(back[3], host[3], 16 * 4) == 0);
    clmem_release(&h);
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64 * 4, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_image bi = clmem_create_image(t->context, 0, rgba, &err, OPT(shape, {64}), OPT(buffer, b));
    if (err == CL_SUCCESS) {
        CLMEM_CHECK_EQ(t, bi.type, CL_MEM_OBJECT_IMAGE1D_BUFFER);
        clmem_release(&bi);
    }
    clmem_release(&b);
    // errors: .ndim disagreeing with .shape, no shape, a computed zero extent
    size_t zero = 0;
    clmem_image bad = clmem_create_image(t->context, 0, rgba, &err, OPT(shape, {64, 32}), OPT(ndim, 3));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK(t, bad.mem == NULL);
    bad = clmem_create_image(t->context, 0, rgba, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_IMAGE_SIZE);
    bad = clmem_create_image(t->context, 0, rgba, NULL, OPT(shape, {zero, 4}));
    CLMEM_CHECK(t, bad.mem == NULL);
    clmem_release(&img);
}

static void test_from_array(clmem_test_context *t) {
    if (no_images(t)) return;
    cl_int err;
    float a[4][8];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++) a[y][x] = (float)(10 * y + x);
    const size_t shape[] = {4, 8};
    clmem_image img = clmem_image_from_array(t->context, &a[0][0], 2, shape, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.width == 8 && img.height == 4);
    CLMEM_CHECK_EQ(t, img.format.image_channel_data_type, CL_FLOAT);
    CLMEM_CHECK_EQ(t, img.flags & CL_MEM_READ_ONLY, CL_MEM_READ_ONLY);
    float px[4][8];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &px[0][0], img));
    CLMEM_CHECK(t, px[3][7] == 37.0f);
    clmem_release(&img);
    // vector element types give their channel count; .mode = 'w'; .norm_int
    cl_uchar4 u4[2][4];   // the shape counts vector elements: a 4 x 2 image
    memset(u4, 7, sizeof u4);
    const size_t s2[] = {2, 4};
    img = clmem_image_from_array(t->context, &u4[0][0], 2, s2, &err, OPT(num_channels, 4), OPT(mode, 'w'),
                                 OPT(norm_int, true));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.width == 4 && img.height == 2);
    CLMEM_CHECK_EQ(t, img.format.image_channel_order, CL_RGBA);
    CLMEM_CHECK_EQ(t, img.format.image_channel_data_type, CL_UNORM_INT8);
    CLMEM_CHECK_EQ(t, img.flags & CL_MEM_WRITE_ONLY, CL_MEM_WRITE_ONLY);
    clmem_release(&img);
    uint16_t h[6] = {0, 0, 0, 0, 0, 0};
    const size_t s1[] = {6};
    img = clmem_image_from_array(t->context, h, 1, s1, &err, OPT(half_float, true));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.format.image_channel_data_type, CL_HALF_FLOAT);
    clmem_release(&img);
    int8_t i8[6] = {0};
    img = clmem_image_from_array(t->context, i8, 1, s1, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.format.image_channel_data_type, CL_SIGNED_INT8);
    clmem_release(&img);
    // errors: a mode other than 'r'/'w', .norm_int with float data
    img = clmem_image_from_array(t->context, &a[0][0], 2, shape, &err, OPT(mode, 'x'));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    img = clmem_image_from_array(t->context, &a[0][0], 2, shape, &err, OPT(norm_int, true));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
}

static void test_fill_image(clmem_test_context *t) {
    if (no_images(t)) return;
    cl_int err;
    clmem_image f = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_FLOAT), &err,
                                       OPT(shape, {8, 8}));
    CLMEM_CHECK_CL(t, err);
    float red[4] = {1, 0, 0, 1};
    const size_t origin[3] = {2, 2, 0}, region[3] = {2, 2, 1};
    const float zero[4] = {0, 0, 0, 0};
    cl_event ev = NULL;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, f, zero, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, f, red, origin, region, OPT(event, &ev)));
    CLMEM_CHECK(t, ev != NULL);
    clReleaseEvent(ev);
    float px[8][8][4];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &px[0][0][0], f));
    CLMEM_CHECK(t, px[2][2][0] == 1.0f && px[3][3][3] == 1.0f && px[4][4][0] == 0.0f && px[1][1][3] == 0.0f);
    const cl_int ic[4] = {-1, 2, -3, 4};
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, ic, NULL, NULL), CL_INVALID_VALUE);   // kind mismatch
    clmem_image u = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT32), &err,
                                       OPT(shape, {4}));
    CLMEM_CHECK_CL(t, err);
    const cl_uint uc[4] = {1, 2, 3, 4};
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, u, uc, NULL, NULL));
    cl_uint up[4][4];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &up[0][0], u));
    CLMEM_CHECK(t, up[3][3] == 4);
    clmem_image s = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_SIGNED_INT16), &err,
                                       OPT(shape, {4}));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, s, ic, NULL, NULL));
    const size_t far[3] = {16, 1, 1};
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, s, ic, NULL, far), CL_INVALID_VALUE);
    clmem_release(&s);
    clmem_release(&u);
    clmem_release(&f);
}

CXX_CASES({"formats", test_formats, true}, {"create", test_create, false}, {"from_array", test_from_array, false},
          {"fill_image", test_fill_image, false})
