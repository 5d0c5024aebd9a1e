/* Images: every type, shape, info, int_ptr, release, and every rejection of
   clmem_create_image (reliability checklist cases 35 and 36). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool images_ok(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) clmem_test_skip(t, "device has no image support");
    return images != CL_FALSE;
}

#define RGBA_F clmem_image_format_create(CL_RGBA, CL_FLOAT)

static void test_every_type(clmem_test_context *t) {
    cl_int err;
    size_t s[3], e[3];
    clmem_image img;
    clmem_image_info info;
    if (!images_ok(t)) return;

    img = clmem_create_image(t->context, CL_MEM_READ_WRITE, RGBA_F, &err, .shape = {64});
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE1D);
    CLMEM_CHECK_EQ(t, clmem_image_shape(img, s), 1);
    CLMEM_CHECK_EQ(t, s[0], 64);
    clmem_image_extent(img, e);
    CLMEM_CHECK(t, e[0] == 64 && e[1] == 1 && e[2] == 1);
    CLMEM_CHECK_EQ(t, img.element_size, 16);
    clmem_image_release(&img);

    /* 1-D array: array size is shape[1] (PyOpenCL gives 1) */
    img = clmem_create_image(t->context, 0, RGBA_F, &err, .shape = {8, 5}, .is_array = true);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE1D_ARRAY);
    CLMEM_CHECK_EQ(t, img.array_size, 5);
    CLMEM_CHECK_CL(t, clmem_image_get_info(img, &info));
    CLMEM_CHECK_EQ(t, info.array_size, 5);
    CLMEM_CHECK_EQ(t, info.width, 8);
    CLMEM_CHECK_EQ(t, clmem_image_shape(img, s), 2);
    CLMEM_CHECK(t, s[0] == 8 && s[1] == 5);
    CLMEM_CHECK_EQ(t, img.flags, CL_MEM_READ_WRITE);
    clmem_image_release(&img);

    img = clmem_create_image(t->context, CL_MEM_READ_ONLY, RGBA_F, &err, .shape = {128, 256});
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE2D);
    CLMEM_CHECK_EQ(t, clmem_image_shape(img, s), 2);
    CLMEM_CHECK(t, s[0] == 128 && s[1] == 256); /* PyOpenCL's test_get_info: shape == (128, 256) */
    CLMEM_CHECK_CL(t, clmem_image_get_info(img, &info));
    CLMEM_CHECK(t, clmem_image_format_equal(info.format, RGBA_F));
    CLMEM_CHECK_EQ(t, info.element_size, 16);
    {   /* the driver's row pitch, passed through (its value: case row_pitch) */
        size_t raw = 12345;
        CLMEM_CHECK_CL(t, clGetImageInfo(img.mem, CL_IMAGE_ROW_PITCH, sizeof raw, &raw, NULL));
        CLMEM_CHECK_EQ(t, info.row_pitch, raw);
    }
    CLMEM_CHECK_EQ(t, info.width, 128);
    CLMEM_CHECK_EQ(t, info.height, 256);
    CLMEM_CHECK_EQ(t, info.depth, 0);
    CLMEM_CHECK_EQ(t, info.array_size, 0);
    CLMEM_CHECK(t, info.buffer == NULL);
    CLMEM_CHECK_EQ(t, info.num_mip_levels, 0);
    CLMEM_CHECK_EQ(t, info.num_samples, 0);
    {
        clmem_mem_info mi; /* the generic memory-object functions take images */
        CLMEM_CHECK_CL(t, clmem_memory_object_get_info(img, &mi));
        CLMEM_CHECK_EQ(t, mi.type, CL_MEM_OBJECT_IMAGE2D);
        CLMEM_CHECK_EQ(t, mi.flags, CL_MEM_READ_ONLY);
        CLMEM_CHECK(t, mi.context == t->context);
        CLMEM_CHECK(t, clmem_memory_object_int_ptr(img) == img.mem);
    }
    clmem_release(&img);
    CLMEM_CHECK(t, img.mem == NULL);
    CLMEM_CHECK_CL(t, clmem_image_release(&img)); /* second release: no-op */

    img = clmem_create_image(t->context, 0, RGBA_F, &err, .shape = {16, 8, 3}, .is_array = true);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE2D_ARRAY);
    CLMEM_CHECK(t, img.width == 16 && img.height == 8 && img.array_size == 3 && img.depth == 0);
    clmem_image_extent(img, e);
    CLMEM_CHECK(t, e[0] == 16 && e[1] == 8 && e[2] == 3);
    clmem_image_release(&img);

    img = clmem_create_image(t->context, 0, RGBA_F, &err, .shape = {16, 8, 4}, .ndim = 3);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE3D);
    CLMEM_CHECK(t, img.width == 16 && img.height == 8 && img.depth == 4 && img.array_size == 0);
    CLMEM_CHECK_EQ(t, clmem_image_shape(img, s), 3);
    CLMEM_CHECK(t, s[0] == 16 && s[1] == 8 && s[2] == 4);
    clmem_image_release(&img);

    /* 1-D buffer images: tests/image_buffer1d.c (PoCL 3.1 leaks them) */
}

static void test_hostbuf_and_int_ptr(clmem_test_context *t) {
    cl_int err;
    float host[4][6][4], back[4][6][4]; /* 6x4 RGBA float, row pitch 6*16 = 96 */
    clmem_image img, again;
    if (!images_ok(t)) return;
    fill_pattern(host, sizeof host, 7);
    img = clmem_create_image(t->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, RGBA_F, &err, .shape = {6, 4},
                             .hostbuf = host, .host_size = sizeof host);
    CLMEM_CHECK_CL(t, err);
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, img));
    CLMEM_CHECK(t, memcmp(back, host, sizeof host) == 0);
    /* from_int_ptr round-trips with equality (PyOpenCL's test_int_ptr) */
    again = clmem_image_from_int_ptr(clmem_image_int_ptr(img), true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_memory_object_equal(again, img));
    CLMEM_CHECK_EQ(t, clmem_memory_object_hash(again), clmem_memory_object_hash(img));
    CLMEM_CHECK(t, again.type == img.type && again.width == 6 && again.height == 4 && again.element_size == 16);
    CLMEM_CHECK(t, clmem_image_format_equal(again.format, RGBA_F));
    CLMEM_CHECK_EQ(t, again.flags, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    clmem_image_release(&again);
    clmem_image_release(&img);
    {
        clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        img = clmem_image_from_int_ptr(b.mem, true, &err);
        clmem_buffer_release(&b);
        CLMEM_CHECK_EQ(t, err, CL_INVALID_MEM_OBJECT);
        CLMEM_CHECK(t, img.mem == NULL);
        img = clmem_image_from_int_ptr(NULL, true, &err);
        CLMEM_CHECK_EQ(t, err, CL_INVALID_MEM_OBJECT);
    }
}

/* A 128x256 RGBA float image made without a host pointer has rows of at least
   128 * 16 bytes; the tightly packed pitch is what every driver tried gives. */
static void test_row_pitch(clmem_test_context *t) {
    cl_int err;
    clmem_image img;
    clmem_image_info info;
    size_t raw = 12345;
    if (!images_ok(t)) return;
    img = clmem_create_image(t->context, CL_MEM_READ_ONLY, RGBA_F, &err, .shape = {128, 256});
    CLMEM_CHECK_CL(t, err);
    err = clGetImageInfo(img.mem, CL_IMAGE_ROW_PITCH, sizeof raw, &raw, NULL);
    if (err == CL_SUCCESS) err = clmem_image_get_info(img, &info);
    clmem_image_release(&img);
    CLMEM_CHECK_CL(t, err);
    if (raw == 0) {
        clmem_test_skip(t, "the driver reports CL_IMAGE_ROW_PITCH 0 (bare clGetImageInfo; Oclgrind 21.10 reports "
                           "the pitch given at creation)");
        return;
    }
    CLMEM_CHECK_EQ(t, info.row_pitch, 128 * 16);
}

/* A host pointer with padded rows (pitch 128 for rows of 96 bytes) is copied row by
   row, also where the driver ignores image_row_pitch. */
static void test_padded_host_rows(clmem_test_context *t) {
    cl_int err;
    float padded[4][8][4], back[4][6][4]; /* row pitch 128; 6x4 RGBA float */
    clmem_image img;
    int y, x;
    if (!images_ok(t)) return;
    /* where the driver ignores image_row_pitch of a CL_MEM_COPY_HOST_PTR image (Oclgrind
       21.10, PoCL-Remote 6.0), clmem makes the image from a packed copy (clmem/quirks.h) */
    fill_pattern(padded, sizeof padded, 8);
    img = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, &err, .shape = {6, 4}, .pitches = {128},
                             .hostbuf = padded);
    CLMEM_CHECK_CL(t, err);
    memset(back, 0, sizeof back);
    err = clmem_enqueue_copy(t->queue, (void *)back, img);
    clmem_image_release(&img);
    CLMEM_CHECK_CL(t, err);
    for (y = 0; y < 4; ++y)
        for (x = 0; x < 6; ++x) CLMEM_CHECK(t, memcmp(back[y][x], padded[y][x], 16) == 0);
}

/* expect(t, call, code): the constructor failed with code, left a message and an empty handle */
#define EXPECT_FAIL(t, call, code)                                                              \
    do {                                                                                        \
        cl_int e_ = 12345;                                                                      \
        clmem_image i_;                                                                         \
        clmem_clear_error();                                                                    \
        i_ = call;                                                                              \
        if (i_.mem) clmem_image_release(&i_);                                                   \
        CLMEM_CHECK_EQ(t, e_, code);                                                            \
        CLMEM_CHECK(t, i_.mem == NULL);                                                         \
        CLMEM_CHECK(t, clmem_last_error_message()[0] != '\0');                                 \
    } while (0)
#define E (&e_)

static void test_create_rejections(clmem_test_context *t) {
    float host[64 * 4 * 8];
    clmem_buffer buf;
    cl_int err;
    if (!images_ok(t)) return;
    EXPECT_FAIL(t, clmem_create_image(NULL, 0, RGBA_F, E, .shape = {8, 8}), CL_INVALID_CONTEXT);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, RGBA_F, E, .shape = {8, 8}),
                CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_create_image(t->context, (cl_mem_flags)1 << 40, RGBA_F, E, .shape = {8, 8}), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8, 8}), CL_INVALID_HOST_PTR);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {8, 8}, .hostbuf = host), CL_INVALID_HOST_PTR);
    /* formats */
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGB, CL_FLOAT), E, .shape = {8, 8}),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, clmem_image_format_create(0x10FF, CL_FLOAT), E, .shape = {8, 8}),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, 0x10FF), E, .shape = {8, 8}),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNORM_SHORT_565), E,
                                      .shape = {8, 8}), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, clmem_image_format_create(CL_BGRA, CL_FLOAT), E, .shape = {8, 8}),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    {   /* a valid format the context lacks (PoCL: sRGBA; PoCL itself says -59) */
        clmem_image_format f[256];
        cl_uint n = 0, i;
        clmem_get_supported_image_formats(t->context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, f, 256, &n);
        for (i = 0; i < n; ++i)
            if (clmem_image_format_equal(f[i], clmem_image_format_create(CL_sRGBA, CL_UNORM_INT8))) break;
        if (i == n)
            EXPECT_FAIL(t, clmem_create_image(t->context, 0, clmem_image_format_create(CL_sRGBA, CL_UNORM_INT8), E,
                                              .shape = {8, 8}), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }
    /* sizes: PoCL returns -61 for width 0 */
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E), CL_INVALID_IMAGE_SIZE);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {0, 8}), CL_INVALID_IMAGE_SIZE);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {8, 0, 8}), CL_INVALID_IMAGE_SIZE);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {8, 0}, .ndim = 2), CL_INVALID_VALUE);
    {
        size_t max_w = 0, max_n = 0;
        clGetDeviceInfo(t->device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max_w, &max_w, NULL);
        clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof max_n, &max_n, NULL);
        EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {max_w + 1, 4}), CL_INVALID_IMAGE_SIZE);
        EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {4, max_n + 1}, .is_array = true),
                    CL_INVALID_IMAGE_SIZE);
        EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {SIZE_MAX, 4}), CL_INVALID_IMAGE_SIZE);
    }
    /* type selection misuse */
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {8}, .is_array = true), CL_INVALID_VALUE);
    buf = clmem_buffer_create(t->context, 0, 4096, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {8, 8}, .buffer = buf), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8}, .buffer = buf,
                                      .hostbuf = host), CL_INVALID_HOST_PTR);
    clmem_buffer_release(&buf);
    /* pitches (PoCL accepts the first two silently) */
    EXPECT_FAIL(t, clmem_create_image(t->context, 0, RGBA_F, E, .shape = {8, 8}, .pitches = {256}),
                CL_INVALID_IMAGE_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8, 8}, .pitches = {64},
                                      .hostbuf = host), CL_INVALID_IMAGE_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8, 8}, .pitches = {136},
                                      .hostbuf = host), CL_INVALID_IMAGE_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8, 8}, .pitches = {128, 1024},
                                      .hostbuf = host), CL_INVALID_IMAGE_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8, 4, 2},
                                      .pitches = {128, 256}, .hostbuf = host), CL_INVALID_IMAGE_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8, 4, 2},
                                      .pitches = {128, 600}, .hostbuf = host), CL_INVALID_IMAGE_DESCRIPTOR);
    EXPECT_FAIL(t, clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, E, .shape = {8, 8}, .hostbuf = host,
                                      .host_size = 8 * 8 * 16 - 1), CL_INVALID_VALUE);
    /* the same with correct values succeeds */
    {
        clmem_image ok = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA_F, &err, .shape = {8, 4, 2},
                                            .pitches = {128, 512}, .hostbuf = host, .host_size = sizeof host);
        CLMEM_CHECK_CL(t, err);
        clmem_image_release(&ok);
    }
}

static const clmem_test_case cases[] = {
    {"every_type", test_every_type, false},
    {"hostbuf_and_int_ptr", test_hostbuf_and_int_ptr, false},
    {"row_pitch", test_row_pitch, false},
    {"padded_host_rows", test_padded_host_rows, false},
    {"create_rejections", test_create_rejections, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
