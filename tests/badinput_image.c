/* tests/badinput_image.c - hostile input to the image family: clmem_create_image
   (zero, huge and wrapping extents, pitches, 2^62 widths), clmem_image_from_array,
   clmem_image_from_int_ptr (wrong kind), clmem_enqueue_fill_image, image copies
   (regions beyond the image, wrapping origins, other contexts), samplers and pipes. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "badinput.h"
#include <stdint.h>

static const clmem_image_format RGBA8 = {CL_RGBA, CL_UNSIGNED_INT8};

static bool images(clmem_test_context *t) {
    cl_bool yes = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof yes, &yes, NULL);
    if (!yes) clmem_test_skip(t, "the device has no image support");
    return yes;
}

static void test_create(clmem_test_context *t) {
    cl_int e;
    clmem_image img;
    unsigned char host[4096];
    const clmem_image_format bad = {0x1234, CL_UNSIGNED_INT8};
    if (!images(t)) return;
    BAD(t, (img = clmem_create_image(NULL, 0, RGBA8, &e, .shape = {4, 4}), e), CL_INVALID_CONTEXT, "clmem_create_image",
        "context");
    BAD(t, (img = clmem_create_image(t->context, 0, RGBA8, &e), e), CL_INVALID_IMAGE_SIZE, "clmem_create_image", "shape");
    BAD(t, (img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {4, 0, 4}), e), CL_INVALID_IMAGE_SIZE,
        "clmem_create_image", "{4, 0, 4}");
    BAD(t, (img = clmem_create_image(t->context, 0, bad, &e, .shape = {4, 4}), e), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        "clmem_create_image", "0x1234");
    /* width 2^62: width x 4 bytes wraps size_t to 0 (once CL_INVALID_IMAGE_DESCRIPTOR, and
       a division by zero with a slice pitch) */
    BAD(t, (img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {(size_t)1 << 62}), e), CL_INVALID_IMAGE_SIZE,
        "clmem_create_image", "4611686018427387904");
    BAD(t, (img = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA8, &e, .shape = {(size_t)1 << 62, 2, 2},
                                     .hostbuf = host, .pitches = {0, 64}),
            e),
        CL_INVALID_IMAGE_SIZE, "clmem_create_image", "4611686018427387904");
    BAD(t, (img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {SIZE_MAX, SIZE_MAX}), e), CL_INVALID_IMAGE_SIZE,
        "clmem_create_image", "18446744073709551615");
    BAD(t, (img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {1 << 20, 1 << 20}), e), CL_INVALID_IMAGE_SIZE,
        "clmem_create_image", "1048576");
    BAD(t, (img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {4, 4}, .pitches = {16, 0}), e),
        CL_INVALID_IMAGE_DESCRIPTOR, "clmem_create_image", "pitches {16, 0}", "hostbuf");
    BAD(t, (img = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA8, &e, .shape = {4, 4}, .hostbuf = host,
                                     .pitches = {8, 0}),
            e),
        CL_INVALID_IMAGE_DESCRIPTOR, "clmem_create_image", "row pitch 8", "16");
    BAD(t, (img = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA8, &e, .shape = {4, 4}, .hostbuf = host,
                                     .pitches = {16, 64}),
            e),
        CL_INVALID_IMAGE_DESCRIPTOR, "clmem_create_image", "slice pitch 64");
    BAD(t, (img = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA8, &e, .shape = {4, 4, 2}, .hostbuf = host,
                                     .pitches = {16, 70}),
            e),
        CL_INVALID_IMAGE_DESCRIPTOR, "clmem_create_image", "slice pitch 70", "64");
    BAD(t, (img = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, RGBA8, &e, .shape = {4, 4}, .hostbuf = host,
                                     .host_size = 32),
            e),
        CL_INVALID_VALUE, "clmem_create_image", "32", "64");
    BAD(t, (img = clmem_create_image(t->context, CL_MEM_USE_HOST_PTR, RGBA8, &e, .shape = {4, 4}), e), CL_INVALID_HOST_PTR,
        "clmem_create_image", "USE_HOST_PTR");
    CLMEM_CHECK(t, img.mem == NULL);
}

static void test_from_array_and_wrap(clmem_test_context *t) {
    cl_int e;
    clmem_image img;
    const size_t zero_shape[2] = {4, 0}, shape5[2] = {4, 5};
    static const float a[4][4] = {{0}};
    clmem_buffer b;
    if (!images(t)) return;
    BAD(t, (img = clmem_image_from_array(t->context, (const float *)NULL, 2, shape5, &e), e), CL_INVALID_VALUE,
        "clmem_image_from_array", "array");
    BAD(t, (img = clmem_image_from_array(t->context, &a[0][0], 2, zero_shape, &e), e), CL_INVALID_VALUE,
        "clmem_image_from_array", "shape[1] is 0");
    BAD(t, (img = clmem_image_from_array(t->context, &a[0][0], 2, shape5, &e, .num_channels = 4), e), CL_INVALID_VALUE,
        "clmem_image_from_array", "5", "4");
    BAD(t, (img = clmem_image_from_int_ptr(NULL, true, &e), e), CL_INVALID_MEM_OBJECT, "clmem_image_from_int_ptr", "NULL");
    b = clmem_buffer_create(t->context, 0, 64, NULL, &e);
    CLMEM_CHECK_CL(t, e);
    BAD(t, (img = clmem_image_from_int_ptr(b.mem, true, &e), e), CL_INVALID_MEM_OBJECT, "clmem_image_from_int_ptr",
        "not an image", "0x10f0");
    CLMEM_CHECK(t, img.mem == NULL);
    clmem_buffer_release(&b);
}

static void test_fill_and_copy(clmem_test_context *t) {
    cl_int e;
    cl_uint color[4] = {1, 2, 3, 4};
    float fcolor[4] = {0, 0, 0, 0};
    unsigned char host[16 * 16 * 4];
    const size_t far[3] = {SIZE_MAX - 1, 0, 0}, region[3] = {4, 4, 1}, big[3] = {17, 1, 1};
    clmem_image img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {16, 16}), empty;
    if (!images(t)) return;
    CLMEM_CHECK_CL(t, e);
    memset(&empty, 0, sizeof empty);
    BAD(t, clmem_enqueue_fill_image(t->queue, empty, color, NULL, NULL), CL_INVALID_MEM_OBJECT, "clmem_enqueue_fill_image",
        "img");
    BAD(t, clmem_enqueue_fill_image(t->queue, img, fcolor, NULL, NULL), CL_INVALID_VALUE, "clmem_enqueue_fill_image",
        "float", "UNSIGNED_INT8");
    BAD(t, clmem_enqueue_fill_image(t->queue, img, color, far, region), CL_INVALID_VALUE, "clmem_enqueue_fill_image",
        "18446744073709551614");
    BAD(t, clmem_enqueue_fill_image(t->queue, img, color, NULL, big), CL_INVALID_VALUE, "clmem_enqueue_fill_image", "17",
        "16");
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, img, .region = {17, 1, 1}), CL_INVALID_VALUE, "clmem_enqueue_copy",
        "17");
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, img, .origin = {SIZE_MAX, 0, 0}, .region = {2, 1, 1}),
        CL_INVALID_VALUE, "clmem_enqueue_copy", "18446744073709551615");
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, img, .pitches = {8, 0}), CL_INVALID_VALUE, "clmem_enqueue_copy",
        "8");
    BAD(t, clmem_enqueue_copy(t->queue, img, img, .region = {8, 8, 1}, .src_origin = {0, 0, 0}, .dst_origin = {4, 4, 0}),
        CL_MEM_COPY_OVERLAP, "clmem_enqueue_copy", "overlap");
    clmem_image_release(&img);
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, img), CL_INVALID_MEM_OBJECT, "clmem_enqueue_copy", "src");
}

static void test_sampler_pipe(clmem_test_context *t) {
    cl_int e;
    clmem_sampler s, empty;
    clmem_sampler_info info;
    clmem_pipe p;
    const cl_bitfield repeated[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    if (!images(t)) return;
    memset(&empty, 0, sizeof empty);
    BAD(t, (s = clmem_sampler_create(NULL, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e), e), CL_INVALID_CONTEXT,
        "clmem_sampler_create", "context");
    BAD(t, (s = clmem_sampler_create(t->context, CL_FALSE, 0x4242, CL_FILTER_NEAREST, &e), e), CL_INVALID_VALUE,
        "clmem_sampler_create", "0x4242");
    BAD(t, (s = clmem_sampler_create(t->context, CL_FALSE, CL_ADDRESS_CLAMP, 0x77, &e), e), CL_INVALID_VALUE,
        "clmem_sampler_create", "0x77");
    BAD(t, (s = clmem_sampler_create(t->context, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &e), e), CL_INVALID_VALUE,
        "clmem_sampler_create", "REPEAT");
    BAD(t, (s = clmem_sampler_create_with_properties(t->context, repeated, &e), e), CL_INVALID_VALUE,
        "clmem_sampler_create_with_properties", "0x1154", "twice");
    BAD(t, (s = clmem_sampler_from_int_ptr(NULL, true, &e), e), CL_INVALID_SAMPLER, "clmem_sampler_from_int_ptr", "NULL");
    BAD(t, clmem_sampler_get_info(empty, &info), CL_INVALID_SAMPLER, "clmem_sampler_get_info", "empty");
    CLMEM_CHECK(t, s.sampler == NULL);
    BAD(t, (p = clmem_pipe_create(NULL, 0, 4, 16, NULL, &e), e), CL_INVALID_CONTEXT, "clmem_pipe_create", "context");
    BAD(t, (p = clmem_pipe_create(t->context, 0, 0, 16, NULL, &e), e), CL_INVALID_PIPE_SIZE, "clmem_pipe_create", "0");
    CLMEM_CHECK(t, p.mem == NULL);
    printf("  badinput_image: %lu cases\n", badinput_cases);
}

static const clmem_test_case cases[] = {{"create", test_create, false},
                                        {"from_array_and_wrap", test_from_array_and_wrap, false},
                                        {"fill_and_copy", test_fill_and_copy, false},
                                        {"sampler_pipe", test_sampler_pipe, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
