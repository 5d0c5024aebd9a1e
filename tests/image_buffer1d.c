/* 1-D buffer images (CL_MEM_OBJECT_IMAGE1D_BUFFER): creation over a clmem_buffer,
   info, and every copy pair, exact bytes. Copies go through the buffer (see
   clmem/transfer_image.c).
   Kept apart because PoCL 3.1 leaks every 1-D buffer image and, through it, its
   context (reproduced with bare OpenCL calls: 4 bytes from clCreateImage, the
   context from clCreateContext), so LeakSanitizer reports this binary on PoCL. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#define RGBA_U8 clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8)

/* 1-D buffer images on this device, or the case skips with the reason */
static int buffer_images(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    cl_uint nformats = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) {
        clmem_test_skip(t, "device has no image support");
        return 0;
    }
    if (clmem_get_supported_image_formats(t->context, 0, CL_MEM_OBJECT_IMAGE1D_BUFFER, NULL, 0, &nformats) !=
            CL_SUCCESS ||
        nformats == 0) { /* PoCL-Remote 6.0 (tools/remote-repro/image1d_buffer.c) */
        clmem_test_skip(t, "the context lists no image format for 1-D buffer images");
        return 0;
    }
    return 1;
}

static void test_buffer_image(clmem_test_context *t) {
    enum { W = 37 };
    cl_int err;
    unsigned char src[W * 4], back[W * 4], patch[3 * 4];
    clmem_buffer b1, b2, plain;
    clmem_image i1, i2, i2d;
    clmem_image_info info;
    if (!buffer_images(t)) return;
    b1 = clmem_buffer_create(t->context, 0, W * 4, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    b2 = clmem_buffer_create(t->context, 0, W * 4, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    plain = clmem_buffer_create(t->context, 0, W * 4 + 8, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    i1 = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {W}, .buffer = b1);
    CLMEM_CHECK_CL(t, err);
    i2 = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {W}, .buffer = b2);
    CLMEM_CHECK_CL(t, err);
    i2d = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {W, 2});
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, i1.type, CL_MEM_OBJECT_IMAGE1D_BUFFER);
    CLMEM_CHECK(t, i1.buffer == b1.mem && i1.width == W && i1.element_size == 4);
    CLMEM_CHECK_CL(t, clmem_image_get_info(i1, &info));
    CLMEM_CHECK(t, info.buffer == b1.mem && info.width == W);
    {   /* larger than its buffer */
        clmem_image big = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {W + 1}, .buffer = b1);
        CLMEM_CHECK_EQ(t, err, CL_INVALID_IMAGE_SIZE);
        CLMEM_CHECK(t, big.mem == NULL);
    }
    fill_pattern(src, sizeof src, 11);
    /* image <- host, host <- image; the bytes are the buffer's */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, i1, (const void *)src));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, i1));
    CLMEM_CHECK(t, memcmp(back, src, sizeof src) == 0);
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, b1));
    CLMEM_CHECK(t, memcmp(back, src, sizeof src) == 0);
    /* sub-range write at x = 5 */
    fill_pattern(patch, sizeof patch, 12);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, i1, (const void *)patch, .origin = {5}, .region = {3}));
    memcpy(src + 5 * 4, patch, sizeof patch);
    /* buffer <- image (offset 8), image <- buffer */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, plain, i1, .offset = 8));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, plain, .src_offset = 8));
    CLMEM_CHECK(t, memcmp(back, src, sizeof src) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, i2, plain, .offset = 8));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, i2));
    CLMEM_CHECK(t, memcmp(back, src, sizeof src) == 0);
    /* image <- image: buffer image to buffer image, to and from a 2-D image */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, i2, i1, .src_origin = {1}, .dest_origin = {0}, .region = {W - 1}));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, i2, .region = {W - 1}));
    CLMEM_CHECK(t, memcmp(back, src + 4, (W - 1) * 4) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, i2d, i1, .dest_origin = {0, 1}, .region = {W}));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, i2d, .origin = {0, 1}, .region = {W, 1}));
    CLMEM_CHECK(t, memcmp(back, src, sizeof src) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, i2, i2d, .src_origin = {2, 1}, .region = {4, 1}));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, i2, .region = {4}));
    CLMEM_CHECK(t, memcmp(back, src + 8, 16) == 0);
    /* the same checks as any 1-D image */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)back, i1, .origin = {0, 1}, .region = {1}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)back, i1, .origin = {30}, .region = {8}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, i1, i1, .src_origin = {0}, .dest_origin = {2}, .region = {4}),
                    CL_MEM_COPY_OVERLAP);
    clmem_image_release(&i1);
    clmem_image_release(&i2);
    clmem_image_release(&i2d);
    clmem_buffer_release(&b1);
    clmem_buffer_release(&b2);
    clmem_buffer_release(&plain);
}

/* .buffer = a stale copy of a pooled handle (its block handed to a new owner): no
   image over the new owner's block */
static void test_stale_buffer(clmem_test_context *t) {
    enum { W = 64 };
    cl_int err;
    clmem_allocator *a;
    clmem_memory_pool *pool;
    clmem_buffer b, stale, owner;
    clmem_image img;
    if (!buffer_images(t)) return;
    a = clmem_immediate_allocator_create(t->queue, 0, &err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, W * 4, &err);
    CLMEM_CHECK_CL(t, err);
    stale = b;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    owner = clmem_memory_pool_allocate(pool, W * 4, &err); /* the same block, a new owner */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, owner.mem == stale.mem);
    img = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {W}, .buffer = stale);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK(t, img.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_create_image: .buffer is a stale pooled buffer handle") !=
                       NULL);
    img = clmem_create_image(t->context, 0, RGBA_U8, &err, .shape = {W}, .buffer = owner); /* the owner may */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.buffer == owner.mem);
    clmem_image_release(&img);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&owner));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

static const clmem_test_case cases[] = {
    {"buffer_image", test_buffer_image, false},
    {"stale_buffer", test_stale_buffer, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
