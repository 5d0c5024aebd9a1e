/* transfer: clmem_enqueue_copy for buffers and host memory (linear and rectangular),
   raw cl_mem dispatch, events, and every rejection. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static clmem_buffer make(clmem_test_context *t, size_t n, unsigned seed, cl_int *err) {
    unsigned char *h = (unsigned char *)malloc(n);
    clmem_buffer b;
    if (!h) {
        *err = CL_OUT_OF_HOST_MEMORY;
        memset(&b, 0, sizeof b);
        return b;
    }
    fill_pattern(h, n, seed);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, n, h, err);
    free(h);
    return b;
}

static void test_linear_pairs(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char src[512], back[512], want[512];
    clmem_buffer a, b;
    fill_pattern(src, sizeof src, 11);
    a = clmem_buffer_create(t->context, 0, 512, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, 256, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    /* host -> buffer: the whole buffer by default */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, src));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
    CLMEM_CHECK(t, memcmp(back, src, 512) == 0);
    /* with offsets and counts */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, src + 100, .byte_count = 50, .dst_offset = 300));
    memcpy(want, src, 512);
    memcpy(want + 300, src + 100, 50);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
    CLMEM_CHECK(t, memcmp(back, want, 512) == 0);
    memset(back, 0xEE, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .src_offset = 290, .byte_count = 20));
    CLMEM_CHECK(t, memcmp(back, want + 290, 20) == 0);
    CLMEM_CHECK_EQ(t, back[20], 0xEE);
    /* host <- buffer, no count: everything after the offset */
    memset(back, 0xEE, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .src_offset = 500));
    CLMEM_CHECK(t, memcmp(back, want + 500, 12) == 0);
    CLMEM_CHECK_EQ(t, back[12], 0xEE);
    /* buffer <- buffer: the smaller of what both hold after their offsets (here 256-0 vs 512-64) */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, .src_offset = 64));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, memcmp(back, want + 64, 256) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, .dst_offset = 200, .src_offset = 8)); /* 56 bytes */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, memcmp(back, want + 64, 200) == 0);
    CLMEM_CHECK(t, memcmp(back + 200, want + 8, 56) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, b, .byte_count = 16, .src_offset = 16, .dst_offset = 496,
                                         .is_blocking = CLMEM_BLOCKING));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .src_offset = 496));
    CLMEM_CHECK(t, memcmp(back, want + 64 + 16, 16) == 0);
    /* within one buffer, disjoint ranges are fine */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, a, .byte_count = 100, .src_offset = 0, .dst_offset = 100));
    /* zero bytes: nothing to do, success (PoCL would say CL_INVALID_VALUE) */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, .src_offset = 512));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .src_offset = 512));
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

/* .byte_count = n with a computed n == 0 copies nothing (an explicit value means what it says). */
static void test_byte_count_zero_copies_nothing(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char back[64];
    size_t n = 0;
    clmem_buffer a = make(t, 64, 5, &err);
    CLMEM_CHECK_CL(t, err);
    memset(back, 0xAB, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .byte_count = n));
    CLMEM_CHECK_EQ(t, back[0], 0xAB);
    CLMEM_CHECK_EQ(t, back[63], 0xAB);
    clmem_buffer_release(&a);
}

static void test_sub_buffer_pairs(clmem_test_context *t) {
    cl_int err = 0;
    cl_uint bits = 0;
    size_t al, n;
    unsigned char *want, *back;
    clmem_buffer p, s1, s2;
    clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    al = bits / 8 ? bits / 8 : 1;
    n = 8 * al;
    want = (unsigned char *)malloc(n);
    back = (unsigned char *)malloc(n);
    CLMEM_CHECK(t, want && back);
    p = make(t, n, 9, &err);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(want, n, 9);
    s1 = clmem_buffer_slice(p, 0, (ptrdiff_t)(2 * al), &err);
    CLMEM_CHECK_CL(t, err);
    s2 = clmem_buffer_slice(p, (ptrdiff_t)(4 * al), (ptrdiff_t)(6 * al), &err);
    CLMEM_CHECK_CL(t, err);
    /* siblings that do not overlap: copy s1 -> s2 */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, s2, s1));
    memcpy(want + 4 * al, want, 2 * al);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, p));
    CLMEM_CHECK(t, memcmp(back, want, n) == 0);
    /* a sub-buffer source read past its own end is refused (PoCL 3.1 checks the parent) */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, s2, s1, .byte_count = 2 * al, .src_offset = al), CL_INVALID_VALUE);
    /* host <- sub-buffer at an offset */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, s2, .src_offset = 3, .byte_count = 10));
    CLMEM_CHECK(t, memcmp(back, want + 4 * al + 3, 10) == 0);
    /* sub-buffer and its parent overlapping: refused */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, p, s2, .dst_offset = 4 * al + 8, .byte_count = 16), CL_MEM_COPY_OVERLAP);
    clmem_buffer_release(&s1);
    clmem_buffer_release(&s2);
    clmem_buffer_release(&p);
    free(want);
    free(back);
}

/* PyOpenCL's test_enqueue_copy_rect_2d: numpy shapes (rows, cols) reversed into
   OpenCL's {x, y}. With sub_buffers the device buffers are slices of larger ones. */
static void rect_2d(clmem_test_context *t, bool sub_buffers) {
    enum { HR = 256, HC = 128, B1R = 300, B1C = 200, B2R = 300, B2C = 400, OR = 512, OC = 256 };
    cl_int err = 0;
    cl_uint bits = 0;
    size_t pad, r, c;
    unsigned char *host = (unsigned char *)malloc(HR * HC), *out = (unsigned char *)calloc(OR * OC, 1);
    clmem_buffer big1 = {0}, big2 = {0}, b1, b2;
    if (skip_on_pocl_remote(t, "rect")) {
        free(host);
        free(out);
        return;
    }
    CLMEM_CHECK(t, host && out);
    fill_pattern(host, HR * HC, 42);
    clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    pad = sub_buffers ? (bits / 8 ? bits / 8 : 1) : 0;
    if (sub_buffers) {
        big1 = clmem_buffer_create(t->context, 0, B1R * B1C + 2 * pad, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        big2 = clmem_buffer_create(t->context, 0, B2R * B2C + 2 * pad, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        b1 = clmem_buffer_get_sub_region(big1, pad, B1R * B1C, 0, &err);
        CLMEM_CHECK_CL(t, err);
        b2 = clmem_buffer_get_sub_region(big2, pad, B2R * B2C, 0, &err);
        CLMEM_CHECK_CL(t, err);
    } else {
        b1 = clmem_buffer_create(t->context, 0, B1R * B1C, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        b2 = clmem_buffer_create(t->context, 0, B2R * B2C, NULL, &err);
        CLMEM_CHECK_CL(t, err);
    }
    /* host sub-region (128, 96) at (20, 13) -> b1 at (7, 3) */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b1, host, .region = {96, 128}, .host_origin = {13, 20},
                                         .buffer_origin = {3, 7}, .buffer_pitches = {B1C}, .host_pitches = {HC},
                                         .host_size = HR * HC));
    /* b1 -> b2 at (31, 17) */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b2, b1, .region = {96, 128}, .src_origin = {3, 7},
                                         .dst_origin = {17, 31}, .src_pitches = {B1C}, .dst_pitches = {B2C}));
    /* b2 -> zeroed host (512, 256) at (11, 19) */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b2, .region = {96, 128}, .buffer_origin = {17, 31},
                                         .host_origin = {19, 11}, .buffer_pitches = {B2C}, .host_pitches = {OC}));
    for (r = 0; r < 128; ++r)
        for (c = 0; c < 96; ++c)
            if (out[(11 + r) * OC + 19 + c] != host[(20 + r) * HC + 13 + c]) {
                clmem_test_fail(t, __FILE__, __LINE__, "byte (%zu, %zu) differs", r, c);
                goto done;
            }
    /* and nothing else was written */
    for (r = 0, c = 0; r < OR * OC; ++r) c += out[r] != 0 && !(r / OC >= 11 && r / OC < 139 && r % OC >= 19 && r % OC < 115);
    CLMEM_CHECK_EQ(t, c, 0);
done:
    clmem_buffer_release(&b1);
    clmem_buffer_release(&b2);
    clmem_buffer_release(&big1);
    clmem_buffer_release(&big2);
    free(host);
    free(out);
}
static void test_rect_2d(clmem_test_context *t) { rect_2d(t, false); }
static void test_rect_2d_sub_buffers(clmem_test_context *t) { rect_2d(t, true); }

/* PyOpenCL's test_enqueue_copy_rect_3d. */
static void test_rect_3d(clmem_test_context *t) {
    cl_int err = 0;
    size_t x, y, z, bad = 0;
    const size_t H[3] = {256, 128, 31}, B1[3] = {300, 200, 30}, B2[3] = {300, 400, 40}, O[3] = {192, 256, 128};
    unsigned char *host = (unsigned char *)malloc(H[0] * H[1] * H[2]);
    unsigned char *out = (unsigned char *)calloc(O[0] * O[1] * O[2], 1);
    clmem_buffer b1, b2;
    if (skip_on_pocl_remote(t, "rect")) {
        free(host);
        free(out);
        return;
    }
    CLMEM_CHECK(t, host && out);
    fill_pattern(host, H[0] * H[1] * H[2], 42);
    b1 = clmem_buffer_create(t->context, 0, B1[0] * B1[1] * B1[2], NULL, &err);
    CLMEM_CHECK_CL(t, err);
    b2 = clmem_buffer_create(t->context, 0, B2[0] * B2[1] * B2[2], NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b1, host, .region = {20, 96, 128}, .host_origin = {7, 13, 20},
                                         .buffer_origin = {6, 3, 7}, .host_pitches = {H[2], H[2] * H[1]},
                                         .buffer_pitches = {B1[2], B1[2] * B1[1]}));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b2, b1, .region = {20, 96, 128}, .src_origin = {6, 3, 7},
                                         .dst_origin = {3, 17, 31}, .src_pitches = {B1[2], B1[2] * B1[1]},
                                         .dst_pitches = {B2[2], B2[2] * B2[1]}));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b2, .region = {20, 96, 128}, .buffer_origin = {3, 17, 31},
                                         .host_origin = {14, 19, 11}, .buffer_pitches = {B2[2], B2[2] * B2[1]},
                                         .host_pitches = {O[2], O[2] * O[1]}));
    for (x = 0; x < 128; ++x)
        for (y = 0; y < 96; ++y)
            for (z = 0; z < 20; ++z)
                bad += out[((11 + x) * O[1] + 19 + y) * O[2] + 14 + z] != host[((20 + x) * H[1] + 13 + y) * H[2] + 7 + z];
    clmem_buffer_release(&b1);
    clmem_buffer_release(&b2);
    free(host);
    free(out);
    CLMEM_CHECK_EQ(t, bad, 0);
}

static void test_events_chain(clmem_test_context *t) {
    cl_int err = 0;
    enum { N = 1 << 16 };
    unsigned char *src = (unsigned char *)malloc(N), *back = (unsigned char *)malloc(N);
    cl_event w = NULL, c = NULL, r = NULL;
    clmem_buffer a, b;
    CLMEM_CHECK(t, src && back);
    fill_pattern(src, N, 77);
    memset(back, 0, N);
    a = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, src, .is_blocking = CLMEM_NON_BLOCKING, .event = &w));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, CLMEM_WAIT_FOR(w), .event = &c));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, .is_blocking = CLMEM_NON_BLOCKING, CLMEM_WAIT_FOR(w, c),
                                         .event = &r));
    CLMEM_CHECK(t, w && c && r);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &r));
    CLMEM_CHECK(t, memcmp(src, back, N) == 0);
    clReleaseEvent(w);
    clReleaseEvent(c);
    clReleaseEvent(r);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
    free(src);
    free(back);
}

static void test_raw_cl_mem(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char src[64], back[64];
    clmem_buffer a, b;
    fill_pattern(src, 64, 3);
    a = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.mem, src));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.mem, a.mem, .byte_count = 32, .dst_offset = 32));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.mem, a, .byte_count = 32));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b.mem));
    CLMEM_CHECK(t, memcmp(back, src, 32) == 0 && memcmp(back + 32, src, 32) == 0);
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a.mem, .src_offset = 60));
    CLMEM_CHECK(t, memcmp(back, src + 60, 4) == 0 && back[4] == 0);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, (cl_mem)NULL), CL_INVALID_MEM_OBJECT);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

static void test_rejections(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char h[256] = {0};
    cl_event ev = NULL;
    cl_context other;
    clmem_buffer a, b, empty, ro, o;
    memset(&empty, 0, sizeof empty);
    a = clmem_buffer_create(t->context, 0, 256, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, 128, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(NULL, a, h), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, empty, h), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, h, empty), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, empty), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, (const void *)NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)NULL, a), CL_INVALID_VALUE);
    /* offsets and sizes */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .dst_offset = 257), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .dst_offset = 200, .byte_count = 57), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "dst_offset 200 + byte_count 57 is beyond the buffer's 256 bytes"));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, h, a, .src_offset = SIZE_MAX - 10, .byte_count = 20), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, a, .src_offset = SIZE_MAX - 10), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, a, .byte_count = 129), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, h, a, .byte_count = 64, .host_size = 32), CL_INVALID_VALUE);
    /* overlap within one buffer, both directions and src == dst */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, a, .byte_count = 64, .dst_offset = 32), CL_MEM_COPY_OVERLAP);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, a, .byte_count = 64, .src_offset = 32), CL_MEM_COPY_OVERLAP);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, a, .byte_count = 16), CL_MEM_COPY_OVERLAP);
    /* rectangles: zero components, pitches, extents, overlap */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {0, 4, 1}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {4, 0, 2}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {16, 4}, .buffer_pitches = {8}), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "row pitch 8 is less than region[0] 16"));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {16, 4, 2}, .buffer_pitches = {16, 72}),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {16, 4, 2}, .buffer_pitches = {16, 48}),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {16, 17}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {16, 4}, .host_origin = {0, 4}, .host_size = 100),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .region = {16, 4}, .buffer_origin = {0, 0, SIZE_MAX / 8}),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, a, .region = {8, 4}, .src_origin = {0, 0}, .dst_origin = {4, 1},
                                          .src_pitches = {16}, .dst_pitches = {16}), CL_MEM_COPY_OVERLAP);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, a, .region = {8, 4}, .src_origin = {0, 0}, .dst_origin = {8, 0},
                                         .src_pitches = {16}, .dst_pitches = {16})); /* interleaved columns: no overlap */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, a, .region = {8, 4}, .dst_origin = {0, 8}, .src_pitches = {16},
                                          .dst_pitches = {32}), CL_INVALID_VALUE);
    /* host access flags */
    ro = clmem_buffer_create(t->context, CL_MEM_HOST_READ_ONLY, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, ro, h), CL_INVALID_OPERATION);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, h, ro));
    clmem_buffer_release(&ro);
    ro = clmem_buffer_create(t->context, CL_MEM_HOST_NO_ACCESS, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, h, ro), CL_INVALID_OPERATION);
    clmem_buffer_release(&ro);
    /* wait lists */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .num_wait_for = 2), CL_INVALID_EVENT_WAIT_LIST);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, .wait_for = &ev), CL_INVALID_EVENT_WAIT_LIST);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, h, CLMEM_WAIT_FOR(ev)), CL_INVALID_EVENT_WAIT_LIST);
    /* contexts */
    other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    o = clmem_buffer_create(other, 0, 64, NULL, &err);
    if (err == CL_SUCCESS) {
        cl_int e1 = clmem_enqueue_copy(t->queue, o, a, .byte_count = 16);
        /* the full path (a host_size given) checks the contexts itself */
        cl_int e2 = clmem_enqueue_copy(t->queue, h, o, .host_size = sizeof h);
        /* the inline hot path leaves it to the driver: Oclgrind 21.10 does not compare
           them (a bare clEnqueueReadBuffer tells) */
        cl_int bare = clEnqueueReadBuffer(t->queue, o.mem, CL_TRUE, 0, 8, h, 0, NULL, NULL);
        cl_int e3 = clmem_enqueue_copy(t->queue, h, o);
        clmem_buffer_release(&o);
        clReleaseContext(other);
        CLMEM_CHECK_EQ(t, e1, CL_INVALID_CONTEXT);
        CLMEM_CHECK_EQ(t, e2, CL_INVALID_CONTEXT);
        if (bare != CL_SUCCESS) CLMEM_CHECK_EQ(t, e3, CL_INVALID_CONTEXT);
    } else {
        clReleaseContext(other);
        CLMEM_CHECK_CL(t, err);
    }
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

static void test_fill_generic(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char back[64];
    float f[16];
    cl_float4 v4;
    const unsigned char rgba[4] = {1, 2, 3, 4};
    size_t i;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, 1.5f, 64));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, f, b));
    for (i = 0; i < 16; ++i) CLMEM_CHECK(t, f[i] == 1.5f);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, (unsigned char)7, 4, .offset = 4));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, back[3] == 0x3F && back[4] == 7 && back[7] == 7 && back[8] == 0);
    v4.s[0] = 1; v4.s[1] = 2; v4.s[2] = 3; v4.s[3] = 4;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, v4, 32, .offset = 32));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, f, b));
    CLMEM_CHECK(t, f[8] == 1 && f[9] == 2 && f[10] == 3 && f[11] == 4 && f[15] == 4);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, rgba, 8, .pattern_size = 4));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = 12));
    CLMEM_CHECK(t, back[0] == 1 && back[3] == 4 && back[4] == 1 && back[7] == 4 && back[8] == 0);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b, rgba, 8), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), ".pattern_size"));
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b, 1.0, 12), CL_INVALID_VALUE);  /* 8-byte double, 12 bytes */
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b, 1.0f, 8, .pattern_size = 8), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b, 1, 8, .offset = 64), CL_INVALID_VALUE);
    clmem_buffer_release(&b);
}

static void test_kernel_args(clmem_test_context *t) {
    static const char src[] =
        "__kernel void axpb(__global const float *x, __global float *y, float a, int b, __local float *tmp) {\n"
        "  size_t i = get_global_id(0), l = get_local_id(0);\n"
        "  tmp[l] = x[i];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  y[i] = a * tmp[l] + (float)b;\n"
        "}\n";
    cl_int err = 0;
    float x[64], y[64];
    size_t i, global = 64, local = 16;
    cl_kernel k = build_kernel(t, src, "axpb");
    clmem_buffer bx, by;
    if (!k) return;
    for (i = 0; i < 64; ++i) x[i] = (float)i;
    bx = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, sizeof x, x, &err);
    CLMEM_CHECK_CL(t, err);
    by = clmem_buffer_create(t->context, CL_MEM_WRITE_ONLY, sizeof y, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, bx));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 1, by.mem));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 2, 2.0f));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 3, 3));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 4, clmem_local_memory(local * sizeof(float))));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, y, by));
    for (i = 0; i < 64; ++i) CLMEM_CHECK(t, y[i] == 2.0f * (float)i + 3.0f);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 4, clmem_local_memory(0)), CL_INVALID_ARG_SIZE);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg((cl_kernel)NULL, 0, bx), CL_INVALID_KERNEL);
    clmem_buffer_release(&bx);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, bx), CL_INVALID_MEM_OBJECT);
    clmem_buffer_release(&by);
    clReleaseKernel(k);
}

/* What only the driver can refuse (it alone knows the kernel's argument sizes and
   count): its code comes back with a message naming the argument. */
static void test_kernel_arg_driver_refusals(clmem_test_context *t) {
    static const char src[] = "__kernel void k(__global float *y, float a) { y[get_global_id(0)] = a; }\n";
    cl_int err = 0;
    cl_kernel k;
    clmem_buffer b;
    if (getenv("OCLGRIND_CHECK_API")) {
        clmem_test_skip(t, "Oclgrind's API checker (OCLGRIND_CHECK_API) reports the driver refusals this case "
                           "provokes on purpose as misuse");
        return;
    }
    if (skip_on_pocl_remote(t, "arg_size")) return;
    k = build_kernel(t, src, "k");
    if (!k) return;
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    if (err == CL_SUCCESS) {
        cl_int e_size = clmem_set_kernel_arg(k, 1, 2.0); /* a double for a float */
        bool named = strstr(clmem_last_error_message(), "index 1") != NULL;
        cl_int e_index = clmem_set_kernel_arg(k, 9, b);
        clmem_buffer_release(&b);
        clReleaseKernel(k);
        CLMEM_CHECK_EQ(t, e_size, CL_INVALID_ARG_SIZE);
        CLMEM_CHECK(t, named);
        CLMEM_CHECK_EQ(t, e_index, CL_INVALID_ARG_INDEX);
        return;
    }
    clReleaseKernel(k);
    CLMEM_CHECK_CL(t, err);
}

static void test_p2p_amd(clmem_test_context *t) {
    cl_int err = 0;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err), b;
    void *fn = clGetExtensionFunctionAddressForPlatform(t->platform, "clEnqueueCopyBufferP2PAMD");
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    if (fn) {
        CLMEM_CHECK_CL(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b));
    } else {
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b), CL_INVALID_OPERATION);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "cl_amd_copy_buffer_p2p"));
    }
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b, .byte_count = 65), CL_INVALID_VALUE);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

/* a wait list with an event that has already failed: every pair refuses, blocking or
   not, before enqueuing anything (PoCL 3.1 left a non-blocking command queued for ever,
   and the queue's later work behind it); no event is made, nothing is copied, and the
   queue's later work runs. A list whose events have not failed is enqueued as ever. */
static void test_failed_wait_list(clmem_test_context *t) {
    unsigned char host[256], back[256], want[256];
    cl_int err = 0;
    clmem_buffer a = make(t, 256, 3, &err), b = CLMEM__ZERO;
    cl_event ok = clCreateUserEvent(t->context, &err), failed = NULL, list[2], ev = NULL;
    int blocking;
    CLMEM_CHECK_CL(t, err);
    failed = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    b = make(t, 256, 4, &err);
    CLMEM_CHECK_CL(t, err);
    if (!a.mem || !b.mem || !ok || !failed) goto done;
    CLMEM_CHECK_CL(t, clSetUserEventStatus(ok, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(failed, -5));
    list[0] = ok;
    list[1] = failed;
    fill_pattern(host, sizeof host, 9);
    fill_pattern(want, sizeof want, 4); /* b's bytes */
    for (blocking = 0; blocking < 2; ++blocking) {
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .is_blocking = blocking != 0,
                                              .wait_for = list, .num_wait_for = 2, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_copy: wait_for[1]") != NULL);
        memset(back, 0xA5, sizeof back);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)back, b, .is_blocking = blocking != 0,
                                              .wait_for = list, .num_wait_for = 2, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, back[0] == 0xA5 && back[255] == 0xA5);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, a, .is_blocking = blocking != 0, .wait_for = list,
                                              .num_wait_for = 2, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, a, .region = {16, 4}, .src_pitches = {32},
                                              .dst_pitches = {32}, .is_blocking = blocking != 0, .wait_for = list,
                                              .num_wait_for = 2, .event = &ev),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b.mem, a.mem, .is_blocking = blocking != 0,
                                              .wait_for = &failed, .num_wait_for = 1),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_copy: wait_for[0]") != NULL);
        CLMEM_CHECK(t, ev == NULL);
    }
    CLMEM_CHECK_CL(t, clFinish(t->queue)); /* nothing was left queued */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, b));
    CLMEM_CHECK(t, memcmp(back, want, sizeof back) == 0);
    /* events that have not failed: enqueued */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .is_blocking = false, .wait_for = &ok,
                                         .num_wait_for = 1, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    if (ev) CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, b));
    CLMEM_CHECK(t, memcmp(back, host, sizeof back) == 0);
done:
    if (ev) clReleaseEvent(ev);
    if (ok) clReleaseEvent(ok);
    if (failed) clReleaseEvent(failed);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

static const clmem_test_case cases[] = {
    {"linear_pairs", test_linear_pairs, false},
    {"byte_count_zero_copies_nothing", test_byte_count_zero_copies_nothing, false},
    {"sub_buffer_pairs", test_sub_buffer_pairs, false},
    {"rect_2d", test_rect_2d, false},
    {"rect_2d_sub_buffers", test_rect_2d_sub_buffers, false},
    {"rect_3d", test_rect_3d, false},
    {"events_chain", test_events_chain, false},
    {"raw_cl_mem", test_raw_cl_mem, false},
    {"rejections", test_rejections, false},
    {"fill_generic", test_fill_generic, false},
    {"kernel_args", test_kernel_args, false},
    {"kernel_arg_driver_refusals", test_kernel_arg_driver_refusals, false},
    {"p2p_amd", test_p2p_amd, false},
    {"failed_wait_list", test_failed_wait_list, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
