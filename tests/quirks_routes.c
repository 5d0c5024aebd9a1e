/* quirks: the driver faults clmem finds by a self-test (clmem/quirks.h), and its routes
   around them. The self-tests' answers on the device are checked against what is known
   of its driver (PoCL-Remote 6.0 has every single-device fault; Oclgrind 21.10 ignores
   the row pitch of CL_MEM_COPY_HOST_PTR images; Debian's PoCL 3.1 has none). The routes
   run on every device with the faults forced (clmem__quirks_forced), and the bytes are
   checked: rectangular host copies as rows, image host transfers as rows, images made
   from a packed copy, image maps of a box as whole rows, kernel argument sizes checked
   against the source, images refused in a context whose devices move them wrong, copies to and from
   registered host memory as the driver's host transfers. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool has_images(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    return images == CL_TRUE;
}

static bool on_pocl_cpu(clmem_test_context *t) {
    char name[128] = {0};
    clGetPlatformInfo(t->platform, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    return strstr(name, "Portable Computing Language") != NULL && !on_pocl_remote(t);
}

/* What the self-tests find on this device, against what its driver is known to do. */
static void test_self_tests(clmem_test_context *t) {
    bool rect, pitch, create, box, hostptr;
    clmem__quirks_forced = 0;
    hostptr = clmem__quirk_device(t->context, t->device, CLMEM__QUIRK_HOST_PTR_SYNC);
    rect = clmem__quirk_device(t->context, t->device, CLMEM__QUIRK_RECT_HOST_PITCH);
    pitch = clmem__quirk_device(t->context, t->device, CLMEM__QUIRK_IMAGE_HOST_PITCH);
    create = clmem__quirk_device(t->context, t->device, CLMEM__QUIRK_IMAGE_CREATE_PITCH);
    box = clmem__quirk_device(t->context, t->device, CLMEM__QUIRK_IMAGE_MAP_BOX);
    /* asked again: the kept answer */
    CLMEM_CHECK(t, rect == clmem__quirk_device(t->context, t->device, CLMEM__QUIRK_RECT_HOST_PITCH));
    CLMEM_CHECK(t, box == clmem__quirk_device(t->context, t->device, CLMEM__QUIRK_IMAGE_MAP_BOX));
    if (on_pocl_remote(t)) {
        CLMEM_CHECK(t, rect && pitch && create && box && hostptr);
    } else if (on_oclgrind(t)) {
        CLMEM_CHECK(t, !rect && !pitch && create && !box);
    } else if (on_pocl_cpu(t)) {
        CLMEM_CHECK(t, !rect && !pitch && !create && !box && !hostptr);
    }
    if (!has_images(t)) CLMEM_CHECK(t, !pitch && !create && !box);
}

/* A rectangular host copy with padded host rows and slices, both ways, as rows:
   blocking, and non-blocking with an event on an in-order and an out-of-order queue. */
static void test_rect_rows(clmem_test_context *t) {
    enum { BR = 24, BS = 24 * 6, HR = 20, HS = 20 * 7, W = 9, H = 4, D = 3 };
    unsigned char host[HS * D], buf[BS * D], back[HS * D];
    cl_int err = CL_SUCCESS;
    cl_command_queue qs[2] = {t->queue, NULL};
    size_t x, y, z, bad;
    int i;
    clmem_buffer b;
    clmem__quirks_forced = CLMEM__QUIRK_RECT_HOST_PITCH;
    qs[1] = extra_queue_with(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS) qs[1] = NULL; /* no out-of-order queues: the in-order one only */
    b = clmem_buffer_create(t->context, 0, sizeof buf, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < 2 && qs[i]; ++i) {
        cl_event ev = NULL;
        fill_pattern(host, sizeof host, 3 + (unsigned)i);
        memset(buf, 0, sizeof buf);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(qs[i], b, (const void *)buf));
        /* host (2, 1, 0) in rows HR and slices HS -> buffer (5, 1, 1) in rows BR, slices BS */
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(qs[i], b, (const void *)host, .region = {W, H, D - 1},
                                             .buffer_origin = {5, 1, 1}, .host_origin = {2, 1, 0},
                                             .buffer_pitches = {BR, BS}, .host_pitches = {HR, HS},
                                             .is_blocking = CLMEM_NON_BLOCKING, .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(qs[i], (void *)buf, b, CLMEM_WAIT_FOR(ev)));
        clReleaseEvent(ev);
        for (bad = 0, z = 0; z < D - 1; ++z)
            for (y = 0; y < H; ++y)
                for (x = 0; x < W; ++x)
                    bad += buf[(1 + z) * BS + (1 + y) * BR + 5 + x] != host[z * HS + (1 + y) * HR + 2 + x];
        CLMEM_CHECK_EQ(t, bad, 0);
        CLMEM_CHECK_EQ(t, buf[BS + BR + 4], 0); /* before the region's first byte: untouched */
        /* and back: buffer -> host rows, blocking */
        memset(back, 0xEE, sizeof back);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(qs[i], (void *)back, b, .region = {W, H, D - 1}, .buffer_origin = {5, 1, 1},
                                             .host_origin = {2, 1, 0}, .buffer_pitches = {BR, BS},
                                             .host_pitches = {HR, HS}));
        for (bad = 0, z = 0; z < D - 1; ++z)
            for (y = 0; y < H; ++y)
                for (x = 0; x < W; ++x)
                    bad += back[z * HS + (1 + y) * HR + 2 + x] != host[z * HS + (1 + y) * HR + 2 + x];
        CLMEM_CHECK_EQ(t, bad, 0);
        CLMEM_CHECK_EQ(t, back[HR + 1], 0xEE); /* the padding between host rows: untouched */
        CLMEM_CHECK_EQ(t, back[HR + 2 + W], 0xEE);
        CLMEM_CHECK_CL(t, clFinish(qs[i]));
    }
    clmem_buffer_release(&b);
    if (qs[1]) clReleaseCommandQueue(qs[1]);
    clmem__quirks_forced = 0;
}

/* Image host transfers with padded host rows (2-D), layers (1-D array) and slices
   (3-D) as rows, both ways, against whole packed transfers. */
static void test_image_rows(clmem_test_context *t) {
    enum { W = 7, H = 5, D = 3, PAD = 12 };
    static const cl_mem_object_type types[3] = {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
    unsigned char packed[W * H * D * 4], padded[(W * 4 + PAD) * (H + 1) * D], back[W * H * D * 4];
    const size_t row = W * 4 + PAD;
    cl_int err = CL_SUCCESS;
    int k;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    clmem__quirks_forced = CLMEM__QUIRK_IMAGE_HOST_PITCH;
    for (k = 0; k < 3; ++k) {
        const bool arr = types[k] == CL_MEM_OBJECT_IMAGE1D_ARRAY, vol = types[k] == CL_MEM_OBJECT_IMAGE3D;
        const size_t rows = H, slices = vol ? D : 1, slice = vol ? row * (H + 1) : arr ? row : 0;
        size_t y, z, bad = 0;
        cl_event ev = NULL;
        clmem_image img;
        if (vol)
            img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err,
                                     .shape = {W, H, D});
        else
            img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err,
                                     .shape = {W, H}, .is_array = arr);
        if (vol && (err == CL_IMAGE_FORMAT_NOT_SUPPORTED || err == CL_INVALID_IMAGE_SIZE)) continue;
        CLMEM_CHECK_CL(t, err);
        fill_pattern(packed, sizeof packed, 7 + (unsigned)k);
        memset(padded, 0xEE, sizeof padded);
        for (z = 0; z < slices; ++z)
            for (y = 0; y < rows; ++y)
                memcpy(padded + z * slice + y * (arr ? slice : row), packed + (z * rows + y) * W * 4, W * 4);
        /* host -> image from the padded rows, non-blocking with an event */
        if (arr)
            err = clmem_enqueue_copy(t->queue, img, (const void *)padded, .pitches = {0, slice},
                                     .is_blocking = CLMEM_NON_BLOCKING, .event = &ev);
        else
            err = clmem_enqueue_copy(t->queue, img, (const void *)padded, .pitches = {row, slice},
                                     .is_blocking = CLMEM_NON_BLOCKING, .event = &ev);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, ev != NULL);
        memset(back, 0, sizeof back);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, img, CLMEM_WAIT_FOR(ev)));
        clReleaseEvent(ev);
        CLMEM_CHECK(t, memcmp(back, packed, W * rows * slices * 4) == 0);
        /* image -> padded host rows, blocking */
        memset(padded, 0xEE, sizeof padded);
        if (arr)
            err = clmem_enqueue_copy(t->queue, (void *)padded, img, .pitches = {0, slice});
        else
            err = clmem_enqueue_copy(t->queue, (void *)padded, img, .pitches = {row, slice});
        CLMEM_CHECK_CL(t, err);
        for (z = 0; z < slices; ++z)
            for (y = 0; y < rows; ++y)
                bad += memcmp(padded + z * slice + y * (arr ? slice : row), packed + (z * rows + y) * W * 4, W * 4) != 0;
        CLMEM_CHECK_EQ(t, bad, 0);
        CLMEM_CHECK_EQ(t, padded[W * 4], 0xEE); /* the padding: untouched */
        clmem_image_release(&img);
    }
    clmem__quirks_forced = 0;
}

/* An image made with CL_MEM_COPY_HOST_PTR from padded rows: made from a packed copy. */
static void test_image_create_packed(clmem_test_context *t) {
    enum { W = 16, H = 4, ROW = W * 4 + 16 };
    unsigned char host[H][ROW], back[H][W * 4];
    cl_int err;
    size_t y;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    clmem__quirks_forced = CLMEM__QUIRK_IMAGE_CREATE_PITCH;
    fill_pattern(host, sizeof host, 5);
    img = clmem_create_image(t->context, CL_MEM_COPY_HOST_PTR, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err,
                             .shape = {W, H}, .pitches = {ROW}, .hostbuf = &host[0][0], .host_size = sizeof host);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &back[0][0], img));
    for (y = 0; y < H; ++y) CLMEM_CHECK(t, memcmp(back[y], host[y], W * 4) == 0);
    clmem_image_release(&img);
    clmem__quirks_forced = 0;
}

/* Image maps of a box: read through the pitches, written through a
   CL_MAP_WRITE_INVALIDATE_REGION map (the pixels around the box stay), unmapped by
   clmem_memory_map_release and by clmem_enqueue_unmap_mem_object; 2-D, 3-D, 1-D array. */
static void test_map_box(clmem_test_context *t) {
    enum { W = 13, H = 7, D = 4 };
    unsigned char src[D][H][W][4], back[D][H][W][4];
    const size_t zero[3] = {0, 0, 0};
    cl_int err;
    size_t x, y, z, bad;
    int k;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    clmem__quirks_forced = CLMEM__QUIRK_IMAGE_MAP_BOX;
    for (k = 0; k < 3; ++k) {
        const bool vol = k == 1, arr = k == 2;
        const size_t whole[3] = {W, H, vol ? (size_t)D : 1}, o[3] = {3, 2, vol ? 1u : 0u}, r[3] = {5, 4, vol ? 2u : 1u};
        clmem_memory_map m;
        clmem_image img;
        if (vol)
            img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err,
                                     .shape = {W, H, D});
        else
            img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err,
                                     .shape = {W, H}, .is_array = arr);
        if (vol && (err == CL_IMAGE_FORMAT_NOT_SUPPORTED || err == CL_INVALID_IMAGE_SIZE)) continue;
        CLMEM_CHECK_CL(t, err);
        fill_pattern(src, sizeof src, 11 + (unsigned)k);
        CLMEM_CHECK_CL(t, clEnqueueWriteImage(t->queue, img.mem, CL_TRUE, zero, whole, 0, 0, src, 0, NULL, NULL));
        /* read */
        CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, .origin = {o[0], o[1], o[2]},
                                                  .region = {r[0], r[1], r[2]}));
        for (bad = 0, z = 0; z < r[2]; ++z)
            for (y = 0; y < r[1]; ++y)
                bad += memcmp((unsigned char *)m.ptr + z * m.slice_pitch + y * (arr ? m.slice_pitch : m.row_pitch),
                              src[o[2] + z][o[1] + y][o[0]], r[0] * 4) != 0;
        CLMEM_CHECK_EQ(t, bad, 0);
        CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
        /* write the box through an invalidating map; unmapped by the raw-pointer call */
        CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_WRITE_INVALIDATE_REGION, &m,
                                                  .origin = {o[0], o[1], o[2]}, .region = {r[0], r[1], r[2]}));
        for (z = 0; z < r[2]; ++z)
            for (y = 0; y < r[1]; ++y)
                for (x = 0; x < r[0] * 4; ++x) {
                    unsigned char v = (unsigned char)(100 + 40 * z + 10 * y + x);
                    ((unsigned char *)m.ptr)[z * m.slice_pitch + y * (arr ? m.slice_pitch : m.row_pitch) + x] = v;
                    (&src[o[2] + z][o[1] + y][o[0]][0])[x] = v;
                }
        CLMEM_CHECK_CL(t, clmem_enqueue_unmap_mem_object(t->queue, img.mem, m.ptr));
        CLMEM_CHECK_CL(t, clEnqueueReadImage(t->queue, img.mem, CL_TRUE, zero, whole, 0, 0, back, 0, NULL, NULL));
        for (bad = 0, z = 0; z < whole[2]; ++z)
            for (y = 0; y < H; ++y) bad += memcmp(back[z][y], src[z][y], W * 4) != 0;
        CLMEM_CHECK_EQ(t, bad, 0);
        CLMEM_CHECK_EQ(t, clmem_live_map_count(img.mem), 0);
        clmem_image_release(&img);
    }
    clmem__quirks_forced = 0;
}

/* Kernel argument sizes on a driver that checks none: clmem checks the value against
   the parameter's type from the source; a signature the source does not tell is
   refused with the fault named. */
static void test_arg_size(clmem_test_context *t) {
    static const char src[] = "/* a, a float */ __kernel void k(__global float *y, const float a, // the value\n"
                              "    unsigned int n) { if (get_global_id(0) < n) y[get_global_id(0)] = a; }\n"
                              "#define PARAMS __global float *y, float a\n"
                              "__kernel void m(PARAMS) { y[0] = a; }\n";
    cl_int err = CL_SUCCESS;
    size_t global = 4;
    float y[4];
    char type[64] = {0};
    bool info = false;
    cl_kernel k, m;
    clmem_buffer b;
    clmem__quirks_forced = CLMEM__QUIRK_ARG_SIZE;
    k = build_kernel(t, src, "k");
    if (!k) return;
    m = build_kernel(t, src, "m");
    if (!m) {
        clReleaseKernel(k);
        return;
    }
    /* where the driver gives argument information anyway, clmem's check uses it */
    info = clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, NULL) == CL_SUCCESS;
    b = clmem_buffer_create(t->context, 0, sizeof y, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 1, 2.0), CL_INVALID_ARG_SIZE); /* a double for a float */
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "index 1") != NULL);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 2, (cl_long)4), CL_INVALID_ARG_SIZE); /* 8 bytes for an unsigned int */
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, b));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 1, 2.5f));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 2, (cl_uint)4));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)y, b));
    CLMEM_CHECK(t, y[0] == 2.5f && y[3] == 2.5f);
    /* the parameters of m come from a macro: not told by the source */
    if (info) {
        CLMEM_CHECK_CL(t, clmem_set_kernel_arg(m, 1, 2.5f));
    } else {
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(m, 1, 2.5f), CL_INVALID_OPERATION);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "driver fault") != NULL);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "-cl-kernel-arg-info") != NULL);
    }
    clmem_buffer_release(&b);
    clReleaseKernel(k);
    clReleaseKernel(m);
    clmem__quirks_forced = 0;
}

/* The parser alone: types as CL_KERNEL_ARG_TYPE_NAME gives them, blanks removed. */
static void test_arg_source_parse(clmem_test_context *t) {
    char src[] = "kernel void other(int a) {}\n"
                 "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n"
                 "void f(__global const uint4 *restrict p, /* float */ unsigned char c,\n"
                 "       __local float *l, read_only image2d_t img, sampler_t s, float16 v) {}\n";
    static const char *const want[] = {"uint4*", "unsignedchar", "float*", "image2d_t", "sampler_t", "float16"};
    char type[64];
    cl_uint i;
    for (i = 0; i < 6; ++i) {
        char copy[sizeof src];
        memcpy(copy, src, sizeof src);
        type[0] = '\0';
        CLMEM_CHECK(t, clmem__quirk_src_type(copy, "f", i, type, sizeof type));
        CLMEM_CHECK(t, strcmp(type, want[i]) == 0);
    }
    CLMEM_CHECK(t, !clmem__quirk_src_type(src, "f", 6, type, sizeof type));   /* no parameter 6 */
    CLMEM_CHECK(t, !clmem__quirk_src_type(src, "g", 0, type, sizeof type));   /* no kernel g */
    CLMEM_CHECK(t, clmem__quirk_src_type(src, "other", 0, type, sizeof type) && strcmp(type, "int") == 0);
}

/* Images in a context whose devices move images between them wrongly: refused, in words. */
static void test_other_device_refused(clmem_test_context *t) {
    cl_int err = CL_SUCCESS;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    clmem__quirks_forced = CLMEM__QUIRK_IMAGE_OTHER_DEVICE;
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err, .shape = {4, 4});
    clmem__quirks_forced = 0;
    CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
    CLMEM_CHECK(t, img.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_create_image: driver fault of device") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "make a context per") != NULL);
    /* not forced: a context of one device makes images */
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err, .shape = {4, 4});
    CLMEM_CHECK_CL(t, err);
    clmem_image_release(&img);
}

/* Copies to and from registered host memory take the driver's host transfers: the
   bytes, the bytes around them, and the commands. */
static void test_registered_host_transfers(clmem_test_context *t) {
    enum { N = 4096 };
    static unsigned char host[N];
    unsigned char back[N];
    cl_int err = CL_SUCCESS;
    cl_event ev = NULL;
    cl_command_type cmd = 0;
    clmem_host_registration r;
    clmem_buffer b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    size_t i;
    CLMEM_CHECK_CL(t, err);
    r = clmem_host_registration_create(t->context, host, N, &err);
    CLMEM_CHECK_CL(t, err);
    clmem__quirks_forced = CLMEM__QUIRK_HOST_PTR_SYNC;
    for (i = 0; i < N; ++i) host[i] = (unsigned char)(i * 7 + 1);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .event = &ev));
    if (ev) {
        clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof cmd, &cmd, NULL);
        CLMEM_CHECK_EQ(t, cmd, CL_COMMAND_WRITE_BUFFER);
        clReleaseEvent(ev);
        ev = NULL;
    }
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    for (i = 0; i < N; ++i) back[i] = (unsigned char)(i * 3 + 5);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    memset(host, 0x33, N);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)(host + 100), b, .byte_count = 1000, .src_offset = 50,
                                         .event = &ev));
    if (ev) {
        clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof cmd, &cmd, NULL);
        CLMEM_CHECK_EQ(t, cmd, CL_COMMAND_READ_BUFFER);
        clReleaseEvent(ev);
    }
    clmem__quirks_forced = 0;
    CLMEM_CHECK(t, memcmp(host + 100, back + 50, 1000) == 0);
    CLMEM_CHECK_EQ(t, host[99], 0x33);
    CLMEM_CHECK_EQ(t, host[1100], 0x33);
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    clmem_release(&b);
}

static const clmem_test_case cases[] = {
    {"self_tests", test_self_tests, false},
    {"rect_rows", test_rect_rows, false},
    {"image_rows", test_image_rows, false},
    {"image_create_packed", test_image_create_packed, false},
    {"map_box", test_map_box, false},
    {"arg_size", test_arg_size, false},
    {"arg_source_parse", test_arg_source_parse, false},
    {"other_device_refused", test_other_device_refused, false},
    {"registered_host_transfers", test_registered_host_transfers, false},
};

int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
