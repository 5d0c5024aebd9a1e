/* clmem_enqueue_fill_image: float, int and uint formats (saturation), regions,
   and the rejections (reliability checklist case 39). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool images_ok(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) clmem_test_skip(t, "device has no image support");
    return images != CL_FALSE;
}

static void test_fill_float_region(clmem_test_context *t) {
    float back[6][8][4], color[4] = {1.5f, -2.0f, 0.25f, 1e30f};
    const size_t origin[3] = {2, 1, 0}, region[3] = {3, 4, 1};
    cl_int err;
    int x, y, c;
    clmem_image img;
    cl_event ev = NULL;
    if (!images_ok(t)) return;
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_FLOAT), &err, .shape = {8, 6});
    CLMEM_CHECK_CL(t, err);
    {
        float zero[4] = {0, 0, 0, 0};
        CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, img, zero, NULL, NULL));
    }
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, img, color, origin, region, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, img, CLMEM_WAIT_FOR(ev)));
    clReleaseEvent(ev);
    clmem_image_release(&img);
    for (y = 0; y < 6; ++y)
        for (x = 0; x < 8; ++x)
            for (c = 0; c < 4; ++c) {
                bool inside = x >= 2 && x < 5 && y >= 1 && y < 5;
                CLMEM_CHECK(t, back[y][x][c] == (inside ? color[c] : 0.0f));
            }
}

static void test_fill_int_uint_unorm(clmem_test_context *t) {
    cl_int err;
    clmem_image img;
    if (!images_ok(t)) return;
    {   /* SIGNED_INT16 saturates */
        cl_int color[4] = {-5, 40000, 7, -40000};
        cl_short back[3][4];
        img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_SIGNED_INT16), &err, .shape = {3});
        CLMEM_CHECK_CL(t, err);
        err = clmem_enqueue_fill_image(t->queue, img, color, NULL, NULL);
        if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, (void *)back, img);
        clmem_image_release(&img);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, back[2][0] == -5 && back[2][1] == 32767 && back[2][2] == 7 && back[2][3] == -32768);
    }
    {   /* UNSIGNED_INT8 saturates */
        cl_uint color[4] = {1, 2, 300, 255};
        cl_uchar back[4][4][4];
        img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err,
                                 .shape = {4, 4});
        CLMEM_CHECK_CL(t, err);
        err = clmem_enqueue_fill_image(t->queue, img, color, NULL, NULL);
        if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, (void *)back, img);
        clmem_image_release(&img);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, back[3][3][0] == 1 && back[3][3][1] == 2 && back[3][3][2] == 255 && back[3][3][3] == 255);
        CLMEM_CHECK(t, back[0][0][0] == 1 && back[0][0][2] == 255);
    }
    {   /* UNORM_INT8 with exactly representable colors (PoCL truncates 0.9 to 229) */
        float color[4] = {0.0f, 1.0f, 0.0f, 1.0f};
        cl_uchar back[2][2][2][4];
        img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNORM_INT8), &err,
                                 .shape = {2, 2, 2});
        CLMEM_CHECK_CL(t, err);
        err = clmem_enqueue_fill_image(t->queue, img, color, NULL, NULL);
        if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, (void *)back, img);
        clmem_image_release(&img);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, back[1][1][1][0] == 0 && back[1][1][1][1] == 255 && back[0][0][0][3] == 255);
    }
}

static void test_fill_rejections(clmem_test_context *t) {
    cl_int err;
    clmem_image f, u, i, empty;
    float fc[4] = {0};
    cl_int ic[4] = {0};
    cl_uint uc[4] = {0};
    const size_t o1[3] = {0, 0, 1}, r_big[3] = {9, 1, 1}, r_gap[3] = {0, 2, 1}, o_x[3] = {7, 0, 0}, r2[3] = {2, 1, 1};
    memset(&empty, 0, sizeof empty);
    if (!images_ok(t)) return;
    f = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_FLOAT), &err, .shape = {8, 4});
    CLMEM_CHECK_CL(t, err);
    u = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT32), &err, .shape = {8, 4});
    CLMEM_CHECK_CL(t, err);
    i = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_SIGNED_INT8), &err, .shape = {8, 4});
    CLMEM_CHECK_CL(t, err);
    /* the color's type against the format's class */
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, u, fc, NULL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, u, ic, NULL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, i, uc, NULL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, ic, NULL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "needs float[4]") != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, u, uc, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, i, ic, NULL, NULL));
    /* NULL color, regions */
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, (const float *)NULL, NULL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, fc, o1, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, fc, NULL, r_big), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, fc, NULL, r_gap), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, fc, o_x, r2), CL_INVALID_VALUE);
    /* handles, queue, wait list */
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, empty, fc, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image((cl_command_queue)NULL, f, fc, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_image(t->queue, f, fc, NULL, NULL, .num_wait_for = 2), CL_INVALID_EVENT_WAIT_LIST);
    clmem_image_release(&f);
    clmem_image_release(&u);
    clmem_image_release(&i);
}

static const clmem_test_case cases[] = {
    {"fill_float_region", test_fill_float_region, false},
    {"fill_int_uint_unorm", test_fill_int_uint_unorm, false},
    {"fill_rejections", test_fill_rejections, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
