/* rect.c - clEnqueueWriteBufferRect, clEnqueueCopyBufferRect, clEnqueueReadBufferRect
   with origins and pitches (transfer_copy's rect_2d, PyOpenCL's test_enqueue_copy_rect_2d),
   each checked alone against a whole-buffer read or write. */
#include "repro.h"

enum { HR = 256, HC = 128, B1R = 300, B1C = 200, B2R = 300, B2C = 400, OR = 512, OC = 256, W = 96, R = 128 };

int main(void) {
    repro r;
    cl_int err;
    size_t x, y, bad;
    unsigned char *host = malloc(HR * HC), *b1h = calloc(B1R * B1C, 1), *b2h = calloc(B2R * B2C, 1);
    unsigned char *out = calloc(OR * OC, 1), *zero = calloc(B2R * B2C, 1);
    cl_mem b1, b2;
    const size_t region[3] = {W, R, 1};
    repro_open(&r, 1);
    repro_pattern(host, HR * HC, 42);
    b1 = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE, B1R * B1C, NULL, &err);
    REPRO_CL(&r, err);
    b2 = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE, B2R * B2C, NULL, &err);
    REPRO_CL(&r, err);
    REPRO_CL(&r, clEnqueueWriteBuffer(r.q[0], b1, CL_TRUE, 0, B1R * B1C, zero, 0, NULL, NULL));
    REPRO_CL(&r, clEnqueueWriteBuffer(r.q[0], b2, CL_TRUE, 0, B2R * B2C, zero, 0, NULL, NULL));

    /* 1. host (13, 20) pitch HC -> b1 (3, 7) pitch B1C */
    {
        const size_t bo[3] = {3, 7, 0}, ho[3] = {13, 20, 0};
        REPRO_CL(&r, clEnqueueWriteBufferRect(r.q[0], b1, CL_TRUE, bo, ho, region, B1C, 0, HC, 0, host, 0, NULL, NULL));
    }
    REPRO_CL(&r, clEnqueueReadBuffer(r.q[0], b1, CL_TRUE, 0, B1R * B1C, b1h, 0, NULL, NULL));
    for (bad = 0, y = 0; y < R; ++y)
        for (x = 0; x < W; ++x) bad += b1h[(7 + y) * B1C + 3 + x] != host[(20 + y) * HC + 13 + x];
    REPRO_EXPECT(&r, bad == 0, "clEnqueueWriteBufferRect: %zu of %d bytes wrong", bad, W * R);

    /* 2. b1 (3, 7) pitch B1C -> b2 (17, 31) pitch B2C */
    {
        const size_t so[3] = {3, 7, 0}, dO[3] = {17, 31, 0};
        REPRO_CL(&r, clEnqueueCopyBufferRect(r.q[0], b1, b2, so, dO, region, B1C, 0, B2C, 0, 0, NULL, NULL));
    }
    REPRO_CL(&r, clEnqueueReadBuffer(r.q[0], b2, CL_TRUE, 0, B2R * B2C, b2h, 0, NULL, NULL));
    for (bad = 0, y = 0; y < R; ++y)
        for (x = 0; x < W; ++x) bad += b2h[(31 + y) * B2C + 17 + x] != b1h[(7 + y) * B1C + 3 + x];
    REPRO_EXPECT(&r, bad == 0, "clEnqueueCopyBufferRect: %zu of %d bytes wrong", bad, W * R);

    /* 3. b2 (17, 31) pitch B2C -> host (19, 11) pitch OC, from a buffer written whole */
    REPRO_CL(&r, clEnqueueWriteBuffer(r.q[0], b2, CL_TRUE, 0, B2R * B2C, b2h, 0, NULL, NULL));
    {
        const size_t bo[3] = {17, 31, 0}, ho[3] = {19, 11, 0};
        REPRO_CL(&r, clEnqueueReadBufferRect(r.q[0], b2, CL_TRUE, bo, ho, region, B2C, 0, OC, 0, out, 0, NULL, NULL));
    }
    for (bad = 0, y = 0; y < R; ++y)
        for (x = 0; x < W; ++x) bad += out[(11 + y) * OC + 19 + x] != b2h[(31 + y) * B2C + 17 + x];
    REPRO_EXPECT(&r, bad == 0, "clEnqueueReadBufferRect: %zu of %d bytes wrong", bad, W * R);

    clReleaseMemObject(b1);
    clReleaseMemObject(b2);
    free(host), free(b1h), free(b2h), free(out), free(zero);
    return repro_close(&r);
}
