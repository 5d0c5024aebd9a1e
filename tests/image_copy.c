/* clmem_enqueue_copy with images: every pair (image <- host, host <- image,
   image <- image, buffer <- image, image <- buffer) for every image type, exact
   bytes; PyOpenCL's test_enqueue_copy_array and _2; orientation; every rejection
   (reliability checklist cases 37 and 38). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool images_ok(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) clmem_test_skip(t, "device has no image support");
    return images != CL_FALSE;
}

#define RGBA_U8 clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8)
#define RGBA_F clmem_image_format_create(CL_RGBA, CL_FLOAT)

typedef struct kind {
    const char *name;
    size_t shape[3];
    bool is_array, from_buffer;
    cl_mem_object_type type;
} kind;

/* 1-D buffer images: tests/image_buffer1d.c (PoCL 3.1 leaks them and their context) */
static const kind kinds[] = {
    {"1d", {37, 0, 0}, false, false, CL_MEM_OBJECT_IMAGE1D},
    {"1d_array", {13, 5, 0}, true, false, CL_MEM_OBJECT_IMAGE1D_ARRAY},
    {"2d", {13, 7, 0}, false, false, CL_MEM_OBJECT_IMAGE2D},
    {"2d_array", {13, 7, 3}, true, false, CL_MEM_OBJECT_IMAGE2D_ARRAY},
    {"3d", {13, 7, 3}, false, false, CL_MEM_OBJECT_IMAGE3D},
};

/* make(t, k, &img, &backing): an RGBA uint8 image of kind k (a 1-D buffer image gets a
   buffer of its own, released by the caller) */
static cl_int make(clmem_test_context *t, const kind *k, clmem_image *img, clmem_buffer *backing) {
    cl_int err = CL_SUCCESS;
    backing->mem = NULL;
    if (k->from_buffer) {
        *backing = clmem_buffer_create(t->context, 0, k->shape[0] * 4, NULL, &err);
        if (err != CL_SUCCESS) return err;
        *img = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {k->shape[0]}, .buffer = *backing);
    } else {
        *img = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {k->shape[0], k->shape[1], k->shape[2]},
                                  .is_array = k->is_array);
    }
    return err;
}

static void copy_kind(clmem_test_context *t, const kind *k) {
    clmem_image a, b, c;
    clmem_buffer ab, bb, cb, buf;
    size_t ext[3], n, x, y, z;
    unsigned char *src, *back, *model, patch[2 * 2 * 2 * 4];
    cl_int err;
    CLMEM_CHECK_CL(t, make(t, k, &a, &ab));
    CLMEM_CHECK_CL(t, make(t, k, &b, &bb));
    CLMEM_CHECK_CL(t, make(t, k, &c, &cb));
    CLMEM_CHECK_EQ(t, a.type, k->type);
    clmem_image_extent(a, ext);
    n = ext[0] * ext[1] * ext[2] * 4;
    src = (unsigned char *)malloc(n);
    back = (unsigned char *)malloc(n);
    model = (unsigned char *)malloc(n);
    CLMEM_CHECK(t, src && back && model);
    fill_pattern(src, n, (unsigned)k->type);
    buf = clmem_buffer_create(t->context, 0, n + 8, NULL, &err);
    CLMEM_CHECK_CL(t, err);

    /* image <- host, host <- image: whole image, region left out */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, (const void *)src));
    memset(back, 0, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, a, .host_size = n));
    CLMEM_CHECK(t, memcmp(back, src, n) == 0);

    /* buffer <- image at offset 8, image <- buffer, exact */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, buf, a, .offset = 8, .region = {ext[0], ext[1], ext[2]}));
    memset(back, 0, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, buf, .src_offset = 8, .byte_count = n));
    CLMEM_CHECK(t, memcmp(back, src, n) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, buf, .offset = 8));
    memset(back, 0, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, b));
    CLMEM_CHECK(t, memcmp(back, src, n) == 0);

    /* image <- image, whole */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, c, a));
    memset(back, 0, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, c));
    CLMEM_CHECK(t, memcmp(back, src, n) == 0);

    /* sub-regions: a 2x2x2 patch (clipped to the extent) written at origin 1,
       copied image -> image from origin 1 to origin 0, then read at origin 0 */
    {
        size_t reg[3], org[3], j;
        for (j = 0; j < 3; ++j) {
            reg[j] = ext[j] > 1 ? 2 : 1;
            org[j] = ext[j] > 1 ? 1 : 0;
        }
        fill_pattern(patch, sizeof patch, 99);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, (const void *)patch, .origin = {org[0], org[1], org[2]},
                                             .region = {reg[0], reg[1], reg[2]}));
        memcpy(model, src, n);
        for (z = 0; z < reg[2]; ++z)
            for (y = 0; y < reg[1]; ++y)
                for (x = 0; x < reg[0]; ++x)
                    memcpy(model + (((z + org[2]) * ext[1] + y + org[1]) * ext[0] + x + org[0]) * 4,
                           patch + ((z * reg[1] + y) * reg[0] + x) * 4, 4);
        memset(back, 0, n);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, a));
        CLMEM_CHECK(t, memcmp(back, model, n) == 0);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, c, a, .src_origin = {org[0], org[1], org[2]},
                                             .dest_origin = {0, 0, 0}, .region = {reg[0], reg[1], reg[2]}));
        memset(patch, 0, sizeof patch);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)patch, c, .region = {reg[0], reg[1], reg[2]}));
        for (z = 0; z < reg[2]; ++z)
            for (y = 0; y < reg[1]; ++y)
                for (x = 0; x < reg[0]; ++x)
                    CLMEM_CHECK(t, memcmp(patch + ((z * reg[1] + y) * reg[0] + x) * 4,
                                          model + (((z + org[2]) * ext[1] + y + org[1]) * ext[0] + x + org[0]) * 4, 4) == 0);
        /* .dst_origin is accepted too */
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, c, a, .dst_origin = {org[0], org[1], org[2]},
                                             .region = {reg[0], reg[1], reg[2]}));
    }
    /* host <- image with padded host pitches (row +12 bytes; slices one row more). The
       spec allows any slice pitch >= row pitch x height, but NVIDIA's driver refuses
       one that is not a multiple of the row pitch, so the padding is a whole row. */
    if (ext[1] > 1 && !skip_on_pocl_remote(t, "image_pitch")) {
        size_t row = ext[0] * 4 + 12, rows = ext[1], slice = (k->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) ? row : row * (rows + 1);
        size_t layers = ext[2], total = (k->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) ? row * rows : slice * layers;
        unsigned char *padded = (unsigned char *)calloc(1, total);
        CLMEM_CHECK(t, padded != NULL);
        if (k->type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
            err = clmem_enqueue_copy(t->queue, (void *)padded, a, .pitches = {0, row}, .host_size = total);
        else if (k->type == CL_MEM_OBJECT_IMAGE2D)
            err = clmem_enqueue_copy(t->queue, (void *)padded, a, .pitches = {row}, .host_size = total);
        else
            err = clmem_enqueue_copy(t->queue, (void *)padded, a, .pitches = {row, slice}, .host_size = total);
        for (z = 0; err == CL_SUCCESS && z < layers; ++z)
            for (y = 0; y < rows; ++y)
                if (memcmp(padded + (k->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? y * row : z * slice + y * row),
                           model + (z * rows + y) * ext[0] * 4, ext[0] * 4) != 0)
                    err = -1;
        free(padded);
        if (err != CL_SUCCESS) clmem_test_fail(t, __FILE__, __LINE__, "%s: padded read differs (%d)", k->name, (int)err);
        CLMEM_CHECK_CL(t, err);
    }
    free(src);
    free(back);
    free(model);
    clmem_buffer_release(&buf);
    clmem_image_release(&a);
    clmem_image_release(&b);
    clmem_image_release(&c);
    clmem_buffer_release(&ab);
    clmem_buffer_release(&bb);
    clmem_buffer_release(&cb);
}

static void test_every_pair_every_type(clmem_test_context *t) {
    size_t i;
    if (!images_ok(t)) return;
    for (i = 0; i < sizeof kinds / sizeof kinds[0] && !t->failed; ++i) copy_kind(t, &kinds[i]);
}

/* PyOpenCL's test_enqueue_copy_array (issue #618): a 128x128x1 RGBA float 2-D array */
static void test_enqueue_copy_array(clmem_test_context *t) {
    static float host[128][128][4], back[128][128][4];
    cl_int err;
    clmem_image img;
    if (!images_ok(t)) return;
    img = clmem_create_image(t->context, CL_MEM_READ_ONLY, RGBA_F, &err, .shape = {128, 128, 1}, .is_array = true);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE2D_ARRAY);
    {
        size_t i;
        float *h = &host[0][0][0];
        for (i = 0; i < 128 * 128 * 4; ++i) h[i] = (float)i * 0.25f - 1000.0f;
    }
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img, (const void *)host, .origin = {0, 0, 0}, .region = {128, 128, 1}));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, img, .origin = {0, 0, 0}, .region = {128, 128, 1}));
    clmem_image_release(&img);
    CLMEM_CHECK(t, memcmp(back, host, sizeof host) == 0);
}

/* PyOpenCL's test_enqueue_copy_array_2: IMAGE2D -> IMAGE2D_ARRAY -> WRITE_ONLY buffer */
static void test_enqueue_copy_array_2(clmem_test_context *t) {
    static float host[128][128][4], back[128][128][4];
    cl_int err;
    clmem_image img, arr_ro, arr_wo;
    clmem_buffer buf;
    if (!images_ok(t)) return;
    fill_pattern(host, sizeof host, 3);
    {   /* keep the floats finite so no NaN payload question arises */
        size_t i;
        unsigned char *b = (unsigned char *)host;
        for (i = 3; i < sizeof host; i += 4) b[i] &= 0x3f;
    }
    img = clmem_create_image(t->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, RGBA_F, &err, .shape = {128, 128},
                             .hostbuf = host);
    CLMEM_CHECK_CL(t, err);
    arr_ro = clmem_create_image(t->context, CL_MEM_READ_ONLY, RGBA_F, &err, .shape = {128, 128, 1}, .is_array = true);
    CLMEM_CHECK_CL(t, err);
    arr_wo = clmem_create_image(t->context, CL_MEM_WRITE_ONLY, RGBA_F, &err, .shape = {128, 128, 1}, .is_array = true);
    CLMEM_CHECK_CL(t, err);
    buf = clmem_buffer_create(t->context, CL_MEM_WRITE_ONLY, 128 * 128 * 16, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, arr_ro, img, .src_origin = {0, 0, 0}, .dest_origin = {0, 0, 0},
                                         .region = {128, 128, 1}));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, arr_wo, arr_ro, .region = {128, 128, 1}));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, buf, arr_wo, .offset = 0, .origin = {0, 0, 0}, .region = {128, 128, 1}));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, buf));
    clmem_image_release(&img);
    clmem_image_release(&arr_ro);
    clmem_image_release(&arr_wo);
    clmem_buffer_release(&buf);
    CLMEM_CHECK(t, memcmp(back, host, sizeof host) == 0);
}

/* host a[y][x] is image pixel (x, y): read single pixels by region */
static void test_orientation(clmem_test_context *t) {
    float a[5][7], px = -1;
    const size_t shape[] = {5, 7};
    cl_int err;
    clmem_image img;
    int x, y;
    if (!images_ok(t)) return;
    for (y = 0; y < 5; ++y)
        for (x = 0; x < 7; ++x) a[y][x] = (float)(y * 1000 + x);
    img = clmem_image_from_array(t->context, &a[0][0], 2, shape, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.width == 7 && img.height == 5); /* PyOpenCL: (5,7) array -> shape (7,5) */
    for (y = 0; y < 5; ++y)
        for (x = 0; x < 7; ++x) {
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)&px, img, .origin = {(size_t)x, (size_t)y},
                                                 .region = {1, 1}));
            CLMEM_CHECK(t, px == a[y][x]);
        }
    clmem_image_release(&img);
}

static void test_nonblocking_event(clmem_test_context *t) {
    cl_int err;
    cl_event ev = NULL, ev2 = NULL;
    unsigned char host[16 * 4], back[16 * 4];
    clmem_image img;
    if (!images_ok(t)) return;
    img = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {16});
    CLMEM_CHECK_CL(t, err);
    fill_pattern(host, sizeof host, 5);
    err = clmem_enqueue_copy(t->queue, img, (const void *)host, .is_blocking = CLMEM_NON_BLOCKING, .event = &ev);
    if (err == CL_SUCCESS)
        err = clmem_enqueue_copy(t->queue, (void *)back, img, .is_blocking = CLMEM_NON_BLOCKING, CLMEM_WAIT_FOR(ev),
                                 .event = &ev2);
    if (err == CL_SUCCESS) err = clWaitForEvents(1, &ev2);
    if (ev) clReleaseEvent(ev);
    if (ev2) clReleaseEvent(ev2);
    clmem_image_release(&img);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, memcmp(host, back, sizeof host) == 0);
}

static void test_copy_rejections(clmem_test_context *t) {
    cl_int err;
    unsigned char host[64 * 64 * 4];
    clmem_image img2, img3, arr1, other, hostno, empty;
    clmem_buffer buf;
    memset(&empty, 0, sizeof empty);
    if (!images_ok(t)) return;
    img2 = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {16, 8});
    CLMEM_CHECK_CL(t, err);
    img3 = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {16, 8, 4});
    CLMEM_CHECK_CL(t, err);
    arr1 = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {16, 4}, .is_array = true);
    CLMEM_CHECK_CL(t, err);
    other = clmem_create_image(t->context, 0, RGBA_F, &err, .shape = {16, 8});
    CLMEM_CHECK_CL(t, err);
    hostno = clmem_create_image(t->context, CL_MEM_HOST_NO_ACCESS, RGBA_U8, &err, .shape = {16, 8});
    CLMEM_CHECK_CL(t, err);
    buf = clmem_buffer_create(t->context, 0, 16 * 8 * 4, NULL, &err);
    CLMEM_CHECK_CL(t, err);

    /* 2-D image with a third coordinate (origin[2] = 1, region[2] = 2) */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .origin = {0, 0, 1}, .region = {1, 1, 1}),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .region = {4, 4, 2}), CL_INVALID_VALUE);
    /* 1-D array: y counts layers, z unused */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, arr1, .region = {16, 5}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, arr1, .region = {16, 4, 2}), CL_INVALID_VALUE);
    /* out of bounds, wrapping, zero before non-zero */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .origin = {10}, .region = {7, 1}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .origin = {16}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .origin = {1}, .region = {SIZE_MAX, 1}),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .region = {0, 4, 1}), CL_INVALID_VALUE);
    /* host pitches: 2-D with a slice pitch, row pitch too small, slice too small (PoCL gaps) */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .pitches = {64, 4096}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .pitches = {60}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img3, .pitches = {64, 500}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img3, (const void *)host, .pitches = {64, 500}), CL_INVALID_VALUE);
    /* host extent above .host_size; NULL host */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .host_size = 16 * 8 * 4 - 1), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)NULL, img2), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img2, (const void *)NULL), CL_INVALID_VALUE);
    /* host access flags */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, hostno), CL_INVALID_OPERATION);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, hostno, (const void *)host), CL_INVALID_OPERATION);
    /* image <- image: format mismatch, self overlap (adjacent is fine), disagreeing dst origins */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, other, img2), CL_IMAGE_FORMAT_MISMATCH);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img2, img2, .src_origin = {0, 0}, .dest_origin = {2, 2},
                                          .region = {4, 4}), CL_MEM_COPY_OVERLAP);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img2, img2, .src_origin = {0, 0}, .dest_origin = {4, 0}, .region = {4, 4}));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img3, img2, .dest_origin = {1}, .dst_origin = {2}, .region = {2, 2}),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img2, img3, .region = {16, 8, 2}), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img3, img2, .dest_origin = {0, 0, 3}, .region = {16, 8})); /* 2-D into 3-D */
    /* buffer <-> image: the buffer too small after .offset */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, buf, img2, .offset = 4), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img3, buf), CL_INVALID_VALUE);
    /* options that do not apply */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .byte_count = 16), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .offset = 16), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img3, img2, .origin = {1}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img3, img2, .is_blocking = CLMEM_BLOCKING), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, buf, img2, .pitches = {64}), CL_INVALID_VALUE);
    /* handles, queue, wait list */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, empty), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, img2, empty), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy((cl_command_queue)NULL, (void *)host, img2), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)host, img2, .num_wait_for = 1), CL_INVALID_EVENT_WAIT_LIST);
    {
        clmem_buffer nobuf;
        memset(&nobuf, 0, sizeof nobuf);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, nobuf, img2), CL_INVALID_MEM_OBJECT);
    }
    {   /* an image of another context */
        cl_context ctx2 = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
        clmem_image foreign;
        CLMEM_CHECK_CL(t, err);
        foreign = clmem_create_image(ctx2, 0, RGBA_U8, &err, .shape = {16, 8});
        if (err == CL_SUCCESS) {
            cl_int e1 = clmem_enqueue_copy(t->queue, (void *)host, foreign);
            cl_int e2 = clmem_enqueue_copy(t->queue, img2, foreign);
            clmem_image_release(&foreign);
            CLMEM_CHECK_EQ(t, e1, CL_INVALID_CONTEXT);
            CLMEM_CHECK_EQ(t, e2, CL_INVALID_CONTEXT);
        }
        clReleaseContext(ctx2);
        CLMEM_CHECK_CL(t, err);
    }
    clmem_image_release(&img2);
    clmem_image_release(&img3);
    clmem_image_release(&arr1);
    clmem_image_release(&other);
    clmem_image_release(&hostno);
    clmem_buffer_release(&buf);
}

/* a wait list with an event that has already failed: every image pair refuses,
   blocking or not, nothing enqueued or copied, no event made */
static void test_failed_wait_list(clmem_test_context *t) {
    unsigned char in[8 * 4 * 4], out[8 * 4 * 4], want[8 * 4 * 4];
    cl_int err = CL_SUCCESS;
    cl_event failed = NULL, ev = NULL;
    clmem_image a = CLMEM__ZERO, b = CLMEM__ZERO;
    clmem_buffer buf = CLMEM__ZERO;
    int blocking;
    if (!images_ok(t)) return;
    a = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {8, 4});
    if (err == CL_SUCCESS) b = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {8, 4});
    if (err == CL_SUCCESS) buf = clmem_buffer_create(t->context, 0, sizeof in, NULL, &err);
    if (err == CL_SUCCESS) failed = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    if (err != CL_SUCCESS) goto done;
    CLMEM_CHECK_CL(t, clSetUserEventStatus(failed, -3));
    fill_pattern(want, sizeof want, 5);
    fill_pattern(in, sizeof in, 6);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, (const void *)want));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)want));
    for (blocking = 0; blocking < 2; ++blocking) {
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, (const void *)in, .is_blocking = blocking != 0,
                                              .wait_for = &failed, .num_wait_for = 1, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_copy") != NULL);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "wait_for[0]") != NULL);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, a, .is_blocking = blocking != 0, .wait_for = &failed,
                                              .num_wait_for = 1, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, buf, a, .region = {8, 4}, .is_blocking = blocking != 0,
                                              .wait_for = &failed, .num_wait_for = 1, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, buf, .region = {8, 4}, .is_blocking = blocking != 0,
                                              .wait_for = &failed, .num_wait_for = 1, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, ev == NULL);
    }
    CLMEM_CHECK_CL(t, clFinish(t->queue)); /* nothing was left queued */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)out, a, .host_size = sizeof out));
    CLMEM_CHECK(t, memcmp(out, want, sizeof out) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)out, b, .host_size = sizeof out));
    CLMEM_CHECK(t, memcmp(out, want, sizeof out) == 0);
done:
    if (failed) clReleaseEvent(failed);
    clmem_image_release(&a);
    clmem_image_release(&b);
    clmem_buffer_release(&buf);
}

static const clmem_test_case cases[] = {
    {"every_pair_every_type", test_every_pair_every_type, false},
    {"enqueue_copy_array", test_enqueue_copy_array, false},
    {"enqueue_copy_array_2", test_enqueue_copy_array_2, false},
    {"orientation", test_orientation, false},
    {"nonblocking_event", test_nonblocking_event, false},
    {"copy_rejections", test_copy_rejections, false},
    {"failed_wait_list", test_failed_wait_list, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
