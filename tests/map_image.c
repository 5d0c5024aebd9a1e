/* map: image maps (PyOpenCL's enqueue_map_image): data read and written through the
   returned row and slice pitches for 2-D, 3-D and 1-D array images, the shape and
   strides the map describes itself with, and the rejections. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool has_images(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    return images == CL_TRUE;
}

/* Whether maps are gone is asked of clmem's own table: CL_MEM_MAP_COUNT is for
   debugging only (the spec) and PoCL updates it after the unmap completes, so a check of
   it right after a release failed now and then under load. */
/* 2-D RGBA8 image: read the whole image through row_pitch, write a box through a
   second map, read back with clEnqueueReadImage. */
static void test_map_image_2d(clmem_test_context *t) {
    enum { W = 13, H = 7 };
    cl_int err;
    unsigned char src[H][W][4], back[H][W][4];
    size_t x, y, c;
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    clmem_memory_map m;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    fill_pattern(src, sizeof src, 21);
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err, .shape = {W, H});
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clEnqueueWriteImage(t->queue, img.mem, CL_TRUE, origin, region, 0, 0, src, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m));
    CLMEM_CHECK(t, m.row_pitch >= W * 4);
    CLMEM_CHECK(t, strcmp(m.dtype, "cl_uchar4") == 0 && m.itemsize == 4);
    CLMEM_CHECK(t, m.ndim == 2 && m.shape[0] == H && m.shape[1] == W);
    CLMEM_CHECK(t, m.strides[0] == m.row_pitch && m.strides[1] == 4);
    CLMEM_CHECK_EQ(t, m.size, (H - 1) * m.row_pitch + W * 4);
    for (y = 0; y < H; ++y)
        CLMEM_CHECK(t, memcmp((unsigned char *)m.ptr + y * m.row_pitch, src[y], W * 4) == 0);
    CLMEM_CHECK(t, memcmp(clmem_memory_map_at(&m, (const size_t[]){4, 9}), src[4][9], 4) == 0);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));

    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_WRITE_INVALIDATE_REGION, &m, .origin = {3, 2},
                                              .region = {5, 4}));
    CLMEM_CHECK(t, m.ndim == 2 && m.shape[0] == 4 && m.shape[1] == 5);
    for (y = 0; y < 4; ++y)
        for (x = 0; x < 5; ++x)
            for (c = 0; c < 4; ++c) {
                unsigned char v = (unsigned char)(100 + 10 * y + x + c);
                ((unsigned char *)m.ptr)[y * m.row_pitch + x * 4 + c] = v;
                src[2 + y][3 + x][c] = v;
            }
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clEnqueueReadImage(t->queue, img.mem, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(src, back, sizeof src) == 0);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(img.mem), 0);
    clmem_image_release(&img);
}

/* 3-D float image: a map of a box uses slice_pitch and row_pitch. */
static void test_map_image_3d(clmem_test_context *t) {
    enum { W = 6, H = 5, D = 4 };
    cl_int err;
    float src[D][H][W];
    size_t x, y, z, i;
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, D};
    clmem_memory_map m;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    for (i = 0; i < W * H * D; ++i) (&src[0][0][0])[i] = (float)i;
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, .shape = {W, H, D});
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED || err == CL_INVALID_IMAGE_SIZE) {
        clmem_test_skip(t, "no 3-D R/FLOAT images: %s", clmem_last_error_message());
        return;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clEnqueueWriteImage(t->queue, img.mem, CL_TRUE, origin, region, 0, 0, src, 0, NULL, NULL));
    CLMEM_CHECK_CL(t,
                   clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {1, 2, 1}, .region = {4, 3, 2}));
    CLMEM_CHECK(t, strcmp(m.dtype, "cl_float") == 0);
    CLMEM_CHECK(t, m.ndim == 3 && m.shape[0] == 2 && m.shape[1] == 3 && m.shape[2] == 4);
    /* the pitches describe the mapped region: a driver may stage just the box (NVIDIA
       does), so only the region's extent bounds them from below */
    CLMEM_CHECK(t, m.slice_pitch >= m.row_pitch * 3 && m.row_pitch >= 4 * 4);
    CLMEM_CHECK(t, m.strides[0] == m.slice_pitch && m.strides[1] == m.row_pitch && m.strides[2] == 4);
    for (z = 0; z < 2; ++z)
        for (y = 0; y < 3; ++y)
            for (x = 0; x < 4; ++x) {
                float v = *(const float *)((const char *)m.ptr + z * m.slice_pitch + y * m.row_pitch + x * 4);
                CLMEM_CHECK(t, v == src[1 + z][2 + y][1 + x]);
            }
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(img.mem), 0);
    clmem_image_release(&img);
}

/* 1-D image array: the layers are slice_pitch apart. */
static void test_map_image_1d_array(clmem_test_context *t) {
    enum { W = 10, L = 3 };
    cl_int err;
    cl_ushort src[L][W];
    size_t x, l;
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, L, 1};
    clmem_memory_map m;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    for (l = 0; l < L; ++l)
        for (x = 0; x < W; ++x) src[l][x] = (cl_ushort)(1000 * l + x);
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_R, CL_UNSIGNED_INT16), &err, .shape = {W, L},
                             .is_array = true);
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED) {
        clmem_test_skip(t, "no 1-D array R/UNSIGNED_INT16 images");
        return;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.type, CL_MEM_OBJECT_IMAGE1D_ARRAY);
    CLMEM_CHECK_CL(t, clEnqueueWriteImage(t->queue, img.mem, CL_TRUE, origin, region, 0, 0, src, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {2, 1}, .region = {7, 2}));
    CLMEM_CHECK(t, strcmp(m.dtype, "cl_ushort") == 0);
    CLMEM_CHECK(t, m.ndim == 2 && m.shape[0] == 2 && m.shape[1] == 7);
    CLMEM_CHECK(t, m.strides[0] == m.slice_pitch && m.slice_pitch >= 7 * 2); /* the region's width */
    for (l = 0; l < 2; ++l)
        for (x = 0; x < 7; ++x)
            CLMEM_CHECK_EQ(t, *(const cl_ushort *)clmem_memory_map_at(&m, (const size_t[]){l, x}), src[1 + l][2 + x]);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_image_release(&img);
}

/* Non-blocking image map waited on by its event; scoped image map. */
static void test_map_image_non_blocking(clmem_test_context *t) {
    enum { W = 8, H = 8 };
    cl_int err;
    float src[H][W];
    size_t i;
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    cl_event gate;
    clmem_memory_map m;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    for (i = 0; i < W * H; ++i) (&src[0][0])[i] = 0.5f * (float)i;
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, .shape = {W, H});
    CLMEM_CHECK_CL(t, err);
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    err = clEnqueueWriteImage(t->queue, img.mem, CL_FALSE, origin, region, 0, 0, src, 1, &gate, NULL);
    if (err == CL_SUCCESS)
        err = clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .is_blocking = CLMEM_NON_BLOCKING);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, m.event != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &m.event));
    for (i = 0; i < H; ++i) CLMEM_CHECK(t, memcmp((char *)m.ptr + i * m.row_pitch, src[i], W * 4) == 0);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_WITH_MAP(s, err, clmem_enqueue_map_image(t->queue, img, CL_MAP_WRITE, &s, .origin = {7, 7})) {
        CLMEM_CHECK(t, s.shape[0] == 1 && s.shape[1] == 1);
        *(float *)s.ptr = -1.0f;
    }
    CLMEM_CHECK_CL(t, err);
    {
        float v = 0.0f;
        CLMEM_CHECK_CL(t, clEnqueueReadImage(t->queue, img.mem, CL_TRUE, (const size_t[]){7, 7, 0},
                                             (const size_t[]){1, 1, 1}, 0, 0, &v, 0, NULL, NULL));
        CLMEM_CHECK(t, v == -1.0f);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(img.mem), 0);
    clmem_image_release(&img);
}

static void test_map_image_rejections(clmem_test_context *t) {
    cl_int err;
    clmem_memory_map m, w;
    clmem_image img, ro, empty;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    memset(&empty, 0, sizeof empty);
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNORM_INT8), &err, .shape = {16, 8});
    CLMEM_CHECK_CL(t, err);
#define REJECT(call, code)                          \
    CLMEM_CHECK_ERR(t, call, code);                 \
    CLMEM_CHECK(t, m.ptr == NULL && m.serial == 0); \
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_map_image: ") != NULL)
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, &m),
           CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, 0x40, &m), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .region = {17, 1, 1}), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "origin x 0 + region 17 is beyond the image's 16") != NULL);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {0, 4, 0}, .region = {1, 5, 1}),
           CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {0, 0, 1}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .region = {4, 4, 2}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .region = {0, 4, 1}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .region = {4, 0, 1}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {SIZE_MAX}, .region = {2, 1, 1}),
           CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {16}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .shape = {8, 16}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .strides = {64, 4}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_image(NULL, img, CL_MAP_READ, &m), CL_INVALID_COMMAND_QUEUE);
    REJECT(clmem_enqueue_map_image(t->queue, empty, CL_MAP_READ, &m), CL_INVALID_MEM_OBJECT);
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .num_wait_for = 2),
           CL_INVALID_EVENT_WAIT_LIST);
    /* overlapping write maps of a box */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_WRITE, &w, .origin = {4, 4}, .region = {4, 4}));
    REJECT(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {7, 7, 0}, .region = {2, 1, 1}),
           CL_INVALID_OPERATION);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {8}, .region = {8, 8}));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&w));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(img.mem), 0);
    /* host-access flags of images */
    ro = clmem_create_image(t->context, CL_MEM_HOST_READ_ONLY, clmem_image_format_create(CL_RGBA, CL_UNORM_INT8), &err,
                            .shape = {16, 8});
    CLMEM_CHECK_CL(t, err);
    REJECT(clmem_enqueue_map_image(t->queue, ro, CL_MAP_WRITE, &m), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "HOST_READ_ONLY") != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, ro, CL_MAP_READ, &m));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
#undef REJECT
    clmem_image_release(&ro);
    clmem_image_release(&img);
}

static const clmem_test_case cases[] = {
    {"map_image_2d", test_map_image_2d, false},
    {"map_image_3d", test_map_image_3d, false},
    {"map_image_1d_array", test_map_image_1d_array, false},
    {"map_image_non_blocking", test_map_image_non_blocking, false},
    {"map_image_rejections", test_map_image_rejections, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
