/* Registered host memory (clmem_host_registration_*): copies between buffers and a
   registered region, in both directions, exact bytes, with the host changing the region
   between transfers; ranges partly outside a registration; the refusals (overlap,
   released, double release, bad arguments). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* the command an event stands for: the registered way ends a write with
   CL_COMMAND_COPY_BUFFER and a read with CL_COMMAND_UNMAP_MEM_OBJECT, the ordinary way
   with CL_COMMAND_WRITE_BUFFER / CL_COMMAND_READ_BUFFER */
static cl_command_type command_of(cl_event ev) {
    cl_command_type c = 0;
    if (clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof c, &c, NULL) != CL_SUCCESS) return 0;
    return c;
}

static void read_raw(clmem_test_context *t, clmem_buffer b, void *dst, size_t n) {
    memset(dst, 0, n);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, n, dst, 0, NULL, NULL));
}

/* the host writes the region between copies, both ways; whole and partial ranges,
   blocking and not; the bytes are exactly what the host last wrote / the buffer held */
static void test_copies_see_host_writes(clmem_test_context *t) {
    const size_t n = 300007; /* odd: no alignment helps */
    cl_int err;
    unsigned char *mem = (unsigned char *)malloc(n + 3), *host = mem + 3; /* not aligned */
    unsigned char *expect = (unsigned char *)malloc(n), *back = (unsigned char *)malloc(n);
    clmem_buffer b = clmem_buffer_create(t->context, 0, n, NULL, &err);
    clmem_host_registration r;
    int round;
    CLMEM_CHECK_CL(t, err);
    if (!mem || !expect || !back || !b.mem) goto out;
    memset(mem, 0, n + 3);
    r = clmem_host_registration_create(t->context, host, n, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, r.ptr == host && r.size == n && r.context == t->context && r.buffer.mem != NULL && r.id != 0);
    CLMEM_CHECK_EQ(t, r.buffer.size, n);
    CLMEM_CHECK(t, clmem_host_registered(t->context, host, n));
    CLMEM_CHECK(t, clmem_host_registered(t->context, host + 10, n - 10));
    CLMEM_CHECK(t, !clmem_host_registered(t->context, host + 10, n - 9)); /* one byte beyond */
    CLMEM_CHECK(t, !clmem_host_registered(t->context, host - 1, 2));
    for (round = 0; round < 3; ++round) {
        /* host -> buffer: what the host wrote just now, the whole region */
        fill_pattern(host, n, 100u + (unsigned)round);
        memcpy(expect, host, n);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host));
        read_raw(t, b, back, n);
        CLMEM_CHECK(t, memcmp(back, expect, n) == 0);
        /* a part, at offsets on both sides (the host side by its pointer) */
        memset(host + 777, round + 1, 5000);
        memcpy(expect + 2000, host + 777, 5000);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)(host + 777), .byte_count = 5000,
                                             .dst_offset = 2000));
        read_raw(t, b, back, n);
        CLMEM_CHECK(t, memcmp(back, expect, n) == 0);
        /* buffer -> host: what the buffer holds, over what the host wrote */
        fill_pattern(expect, n, 200u + (unsigned)round);
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, n, expect, 0, NULL, NULL));
        memset(host, 0xA5, n);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)host, b));
        CLMEM_CHECK(t, memcmp(host, expect, n) == 0);
        /* a part, not blocking, waited for by its event: the rest untouched */
        memset(host, 0x5A, n);
        {
            cl_event ev = NULL;
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)(host + 31), b, .byte_count = 4099,
                                                 .src_offset = 1234, .is_blocking = CLMEM_NON_BLOCKING, .event = &ev));
            CLMEM_CHECK(t, ev != NULL);
            if (ev) {
                CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_UNMAP_MEM_OBJECT); /* the registered way */
                CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
                clReleaseEvent(ev);
            }
        }
        CLMEM_CHECK(t, memcmp(host + 31, expect + 1234, 4099) == 0);
        CLMEM_CHECK_EQ(t, host[30], 0x5A);
        CLMEM_CHECK_EQ(t, host[31 + 4099], 0x5A);
        /* a non-blocking write: its event is what completes it */
        {
            cl_event ev = NULL;
            fill_pattern(host, n, 300u + (unsigned)round);
            memcpy(expect, host, n);
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .is_blocking = CLMEM_NON_BLOCKING,
                                                 .event = &ev));
            CLMEM_CHECK(t, ev != NULL);
            if (ev) {
                CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_COPY_BUFFER); /* the registered way */
                CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
                clReleaseEvent(ev);
            }
            read_raw(t, b, back, n);
            CLMEM_CHECK(t, memcmp(back, expect, n) == 0);
        }
    }
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    CLMEM_CHECK(t, r.ptr == NULL && r.buffer.mem == NULL && r.id == 0);
    CLMEM_CHECK(t, !clmem_host_registered(t->context, host, n));
    /* after the release: the ordinary way, still right */
    fill_pattern(host, n, 400);
    memcpy(expect, host, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host));
    read_raw(t, b, back, n);
    CLMEM_CHECK(t, memcmp(back, expect, n) == 0);
out:
    clmem_buffer_release(&b);
    free(mem);
    free(expect);
    free(back);
}

/* rectangles of a buffer from and into registered memory: clEnqueueCopyBufferRect
   between the coherence maps; exact bytes, the host changing between transfers */
static void test_rect_copies(clmem_test_context *t) {
    enum { BW = 64, BH = 32, HW = 100, HH = 40, RW = 16, RH = 8 };
    cl_int err;
    unsigned char *host = (unsigned char *)malloc(HW * HH), *back = (unsigned char *)malloc(BW * BH);
    unsigned char expect[BW * BH];
    clmem_buffer b = clmem_buffer_create(t->context, 0, BW * BH, NULL, &err);
    clmem_host_registration r = {0};
    int round, x, y;
    CLMEM_CHECK_CL(t, err);
    if (!host || !back || !b.mem) goto out;
    r = clmem_host_registration_create(t->context, host, HW * HH, &err);
    CLMEM_CHECK_CL(t, err);
    for (round = 0; round < 2; ++round) {
        cl_event ev = NULL;
        memset(expect, 0xEE, sizeof expect);
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, BW * BH, expect, 0, NULL, NULL));
        fill_pattern(host, HW * HH, 500u + (unsigned)round); /* the host writes between transfers */
        for (y = 0; y < RH; ++y)
            for (x = 0; x < RW; ++x) expect[(2 + y) * BW + 3 + x] = host[(4 + y) * HW + 5 + x];
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .region = {RW, RH},
                                             .buffer_origin = {3, 2}, .host_origin = {5, 4}, .buffer_pitches = {BW},
                                             .host_pitches = {HW}, .event = &ev));
        if (ev) {
            CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_COPY_BUFFER_RECT); /* the registered way */
            clReleaseEvent(ev);
        }
        read_raw(t, b, back, BW * BH);
        CLMEM_CHECK(t, memcmp(back, expect, BW * BH) == 0);
        /* and back into other host bytes */
        fill_pattern(expect, BW * BH, 600u + (unsigned)round);
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, BW * BH, expect, 0, NULL, NULL));
        memset(host, 0x33, HW * HH);
        ev = NULL;
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)host, b, .region = {RW, RH}, .buffer_origin = {1, 7},
                                             .host_origin = {50, 20}, .buffer_pitches = {BW}, .host_pitches = {HW},
                                             .event = &ev));
        if (ev) {
            CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_UNMAP_MEM_OBJECT);
            clReleaseEvent(ev);
        }
        for (y = 0; y < HH; ++y)
            for (x = 0; x < HW; ++x) {
                int inside = y >= 20 && y < 20 + RH && x >= 50 && x < 50 + RW;
                unsigned char want = inside ? expect[(7 + y - 20) * BW + 1 + x - 50] : 0x33;
                if (host[y * HW + x] != want) {
                    CLMEM_CHECK_EQ(t, host[y * HW + x], want);
                    y = HH;
                    break;
                }
            }
    }
out:
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    clmem_buffer_release(&b);
    free(host);
    free(back);
}

/* images from and into registered memory: packed host rows go through
   clEnqueueCopyBufferToImage / clEnqueueCopyImageToBuffer; pitched ones the ordinary
   way; exact bytes both ways */
static void test_image_copies(clmem_test_context *t) {
    enum { W = 16, H = 8, E = 4 };
    static const cl_image_format rgba = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_int err;
    cl_bool images = CL_FALSE;
    unsigned char *host = (unsigned char *)malloc(2 * W * H * E), back[W * H * E], expect[W * H * E];
    clmem_image img = {0};
    clmem_host_registration r = {0};
    size_t o[3] = {0, 0, 0}, whole[3] = {W, H, 1};
    int round, y;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) {
        clmem_test_skip(t, "device has no image support");
        free(host);
        return;
    }
    if (!host) return;
    img = clmem_create_image(t->context, 0, rgba, &err, .shape = {W, H});
    CLMEM_CHECK_CL(t, err);
    r = clmem_host_registration_create(t->context, host, 2 * W * H * E, &err);
    CLMEM_CHECK_CL(t, err);
    if (!img.mem) goto out;
    for (round = 0; round < 2; ++round) {
        cl_event ev = NULL;
        /* host -> image, whole, packed */
        fill_pattern(host, W * H * E, 700u + (unsigned)round);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img, (const void *)host, .event = &ev));
        if (ev) {
            CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_COPY_BUFFER_TO_IMAGE); /* the registered way */
            clReleaseEvent(ev);
        }
        memset(back, 0, sizeof back);
        CLMEM_CHECK_CL(t, clEnqueueReadImage(t->queue, img.mem, CL_TRUE, o, whole, 0, 0, back, 0, NULL, NULL));
        CLMEM_CHECK(t, memcmp(back, host, W * H * E) == 0);
        /* image -> host, a part at an origin, packed, into the registered memory */
        memcpy(expect, back, sizeof expect);
        memset(host, 0x44, 2 * W * H * E);
        ev = NULL;
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)(host + 8), img, .origin = {2, 3}, .region = {5, 4},
                                             .event = &ev));
        if (ev) {
            CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_UNMAP_MEM_OBJECT);
            clReleaseEvent(ev);
        }
        for (y = 0; y < 4; ++y) CLMEM_CHECK(t, memcmp(host + 8 + y * 5 * E, expect + ((3 + y) * W + 2) * E, 5 * E) == 0);
        CLMEM_CHECK_EQ(t, host[7], 0x44);
        CLMEM_CHECK_EQ(t, host[8 + 4 * 5 * E], 0x44);
        /* a pitched host layout: the ordinary way, still right */
        fill_pattern(host, 2 * W * H * E, 800u + (unsigned)round);
        ev = NULL;
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img, (const void *)host, .region = {W, H},
                                             .pitches = {2 * W * E}, .event = &ev));
        if (ev) {
            CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_WRITE_IMAGE);
            clReleaseEvent(ev);
        }
        CLMEM_CHECK_CL(t, clEnqueueReadImage(t->queue, img.mem, CL_TRUE, o, whole, 0, 0, back, 0, NULL, NULL));
        for (y = 0; y < H; ++y) CLMEM_CHECK(t, memcmp(back + y * W * E, host + y * 2 * W * E, W * E) == 0);
    }
out:
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    clmem_image_release(&img);
    free(host);
}

/* a copy whose host range is partly outside the registration goes the ordinary way,
   and a registered neighbour keeps its own bytes */
static void test_partly_registered(clmem_test_context *t) {
    const size_t n = 65536, half = n / 2;
    cl_int err;
    unsigned char *host = (unsigned char *)malloc(n), *back = (unsigned char *)malloc(n);
    clmem_buffer b = clmem_buffer_create(t->context, 0, n, NULL, &err);
    clmem_host_registration r = {0};
    CLMEM_CHECK_CL(t, err);
    if (!host || !back || !b.mem) goto out;
    fill_pattern(host, n, 7);
    r = clmem_host_registration_create(t->context, host + half, half, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, !clmem_host_registered(t->context, host, n));
    {
        cl_event ev = NULL; /* straddles: the ordinary way */
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .event = &ev));
        if (ev) {
            CLMEM_CHECK_EQ(t, command_of(ev), CL_COMMAND_WRITE_BUFFER);
            clReleaseEvent(ev);
        }
    }
    read_raw(t, b, back, n);
    CLMEM_CHECK(t, memcmp(back, host, n) == 0);
    memset(host + half, 0x11, half); /* the host changes the registered half only */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)(host + half), .dst_offset = half));
    read_raw(t, b, back, n);
    CLMEM_CHECK(t, memcmp(back, host, n) == 0);
    /* a read straddling, then one into the registered half only */
    fill_pattern(back, n, 8);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)host, b));
    CLMEM_CHECK(t, memcmp(back, host, n) == 0);
    memset(host, 0, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)(host + half), b, .src_offset = half));
    CLMEM_CHECK(t, memcmp(back + half, host + half, half) == 0);
    CLMEM_CHECK_EQ(t, host[half - 1], 0);
out:
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    clmem_buffer_release(&b);
    free(host);
    free(back);
}

/* overlapping registrations, released and double-released handles, bad arguments:
   each refused with the spec's code and words */
static void test_refusals(clmem_test_context *t) {
    const size_t n = 8192;
    cl_int err;
    unsigned char *host = (unsigned char *)malloc(n);
    clmem_host_registration r, r2, copy;
    if (!host) return;
    r = clmem_host_registration_create(NULL, host, n, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
    CLMEM_CHECK(t, r.ptr == NULL && r.buffer.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_host_registration_create: context is NULL") != NULL);
    r = clmem_host_registration_create(t->context, NULL, n, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_HOST_PTR);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "ptr is NULL") != NULL);
    r = clmem_host_registration_create(t->context, host, 0, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "size is 0") != NULL);
    r = clmem_host_registration_create(t->context, host, SIZE_MAX, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "wraps") != NULL);

    {   /* a size above the device's limit: the driver's refusal, and the range is free again */
        cl_ulong max_alloc = 0;
        CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
        if (max_alloc < SIZE_MAX / 2) {
            r = clmem_host_registration_create(t->context, host, (size_t)max_alloc + 1, &err);
            CLMEM_CHECK_EQ(t, err, CL_INVALID_BUFFER_SIZE);
            CLMEM_CHECK(t, r.ptr == NULL && r.buffer.mem == NULL);
            CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_host_registration_create: the CL_MEM_USE_HOST_PTR "
                                                              "buffer over") != NULL);
            CLMEM_CHECK(t, !clmem_host_registered(t->context, host, 1));
        }
    }
    r = clmem_host_registration_create(t->context, host, n / 2, &err);
    CLMEM_CHECK_CL(t, err);
    /* the same range, a range overlapping its end, one containing it: refused */
    r2 = clmem_host_registration_create(t->context, host, n / 2, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK(t, r2.ptr == NULL && r2.buffer.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "overlaps the live registration") != NULL);
    r2 = clmem_host_registration_create(t->context, host + n / 2 - 1, 2, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "overlaps the live registration") != NULL);
    r2 = clmem_host_registration_create(t->context, host, n, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    /* the neighbour just after it is not an overlap */
    r2 = clmem_host_registration_create(t->context, host + n / 2, n / 2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_host_registered(t->context, host + n / 2, n / 2));
    CLMEM_CHECK(t, !clmem_host_registered(t->context, host + n / 2 - 1, 2)); /* spans two: neither */
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r2));

    /* released: a second release and a copy of the handle are refused */
    copy = r;
    CLMEM_CHECK_CL(t, clmem_release(&r)); /* the generic release */
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r)); /* emptied: a no-op */
    CLMEM_CHECK_ERR(t, clmem_host_registration_release(&copy), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "was released already") != NULL);
    /* the range registers again; the stale copy still does not release it */
    r = clmem_host_registration_create(t->context, host, n / 2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_host_registration_release(&copy), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK(t, clmem_host_registered(t->context, host, n / 2));
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    CLMEM_CHECK_CL(t, clmem_host_registration_release(NULL)); /* nothing to release */
    free(host);
}

/* the registration's buffer is the caller's memory: a map of it returns the
   registered pointer, and what the host wrote is what the map shows */
static void test_buffer_maps_the_region(clmem_test_context *t) {
    const size_t n = 4096 * 3;
    cl_int err;
    unsigned char *host = (unsigned char *)malloc(n);
    clmem_host_registration r;
    void *p;
    if (!host) return;
    fill_pattern(host, n, 9);
    r = clmem_host_registration_create(t->context, host, n, &err);
    CLMEM_CHECK_CL(t, err);
    if (err == CL_SUCCESS) {
        p = clEnqueueMapBuffer(t->queue, r.buffer.mem, CL_TRUE, CL_MAP_READ, 0, n, 0, NULL, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, p == (void *)host);
        if (p) CLMEM_CHECK_CL(t, clEnqueueUnmapMemObject(t->queue, r.buffer.mem, p, 0, NULL, NULL));
        CLMEM_CHECK_CL(t, clFinish(t->queue));
    }
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    free(host);
}

/* a kernel reads and writes the registration's buffer: the host's writes reach it
   through a map for writing, the kernel's results reach the host through a map for
   reading (clmem's maps return the caller's own pointer), and copies after that still
   see what the host writes */
static void test_kernel_argument(clmem_test_context *t) {
    enum { N = 1024 };
    static const char src[] = "kernel void inc(global int *a) { a[get_global_id(0)] += 1; }";
    cl_int err, *host = (cl_int *)malloc(N * sizeof(cl_int)), back[N];
    cl_kernel k = build_kernel(t, src, "inc");
    clmem_host_registration r = {0};
    clmem_buffer b = clmem_buffer_create(t->context, 0, N * sizeof(cl_int), NULL, &err);
    size_t global = N;
    int i, bad = 0;
    if (!host || !k || !b.mem) goto out;
    r = clmem_host_registration_create(t->context, host, N * sizeof(cl_int), &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < N; ++i) host[i] = i;
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, r.buffer, CL_MAP_WRITE_INVALIDATE_REGION, 0, cl_int, &m)) {
        CLMEM_CHECK(t, m.ptr == (void *)host); /* the host's writes are in the mapped range */
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, r.buffer));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, r.buffer, CL_MAP_READ, 0, cl_int, &m)) {
        CLMEM_CHECK(t, m.ptr == (void *)host);
        for (i = 0; i < N; ++i) bad |= host[i] != i + 1;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, !bad);
    /* the host writes again; a registered copy carries it */
    for (i = 0; i < N; ++i) host[i] = 3 * i;
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, host, sizeof back) == 0);
out:
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    clmem_buffer_release(&b);
    if (k) clReleaseKernel(k);
    free(host);
}

static const clmem_test_case cases[] = {
    {"copies_see_host_writes", test_copies_see_host_writes, false},
    {"rect_copies", test_rect_copies, false},
    {"image_copies", test_image_copies, false},
    {"partly_registered", test_partly_registered, false},
    {"refusals", test_refusals, false},
    {"buffer_maps_the_region", test_buffer_maps_the_region, false},
    {"kernel_argument", test_kernel_argument, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
