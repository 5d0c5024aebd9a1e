/* image_pitch.c - host pitches of image transfers: clEnqueueReadImage and
   clEnqueueWriteImage with a padded host row pitch (2-D) or slice pitch (1-D image
   array: image_copy's "1d_array padded read"), and clCreateImage with
   CL_MEM_COPY_HOST_PTR and a padded image_row_pitch (cxx_image's create). RGBA8. */
#include "repro.h"

enum { W = 16, H = 4, PAD = 12, ROW = W * 4 + PAD };

static cl_mem image(repro *r, cl_mem_object_type type, cl_mem_flags flags, size_t row_pitch, void *host) {
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d;
    cl_int err;
    cl_mem m;
    memset(&d, 0, sizeof d);
    d.image_type = type, d.image_width = W;
    if (type == CL_MEM_OBJECT_IMAGE2D) d.image_height = H;
    else d.image_array_size = H;
    d.image_row_pitch = row_pitch;
    m = clCreateImage(r->ctx, CL_MEM_READ_WRITE | flags, &fmt, &d, host, &err);
    REPRO_CL(r, err);
    return m;
}

/* rows of W pixels at `pitch` in p against the packed rows of q: rows that differ */
static size_t bad_rows(const unsigned char *p, size_t pitch, const unsigned char *q) {
    size_t y, bad = 0;
    for (y = 0; y < H; ++y) bad += memcmp(p + y * pitch, q + y * W * 4, W * 4) != 0;
    return bad;
}

int main(void) {
    repro r;
    unsigned char packed[H * W * 4], padded[H * ROW], back[H * W * 4];
    const size_t zero[3] = {0, 0, 0}, whole[3] = {W, H, 1};
    static const cl_mem_object_type types[2] = {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE1D_ARRAY};
    static const char *const names[2] = {"2-D image", "1-D image array"};
    size_t y;
    int i;
    cl_mem img;
    repro_open(&r, 1);
    repro_pattern(packed, sizeof packed, 3);
    memset(padded, 0xEE, sizeof padded);
    for (y = 0; y < H; ++y) memcpy(padded + y * ROW, packed + y * W * 4, W * 4);
    for (i = 0; i < 2; ++i) {
        /* the pitch of the host rows: row_pitch for 2-D; for a 1-D array slice_pitch, and
           row_pitch too, as clmem passes it (PoCL 3.1 steps a 1-D array's layers by
           the row pitch) */
        size_t rp = ROW, sp = i == 0 ? 0 : ROW;
        unsigned char got[H * ROW];
        img = image(&r, types[i], 0, 0, NULL);
        REPRO_CL(&r, clEnqueueWriteImage(r.q[0], img, CL_TRUE, zero, whole, 0, 0, packed, 0, NULL, NULL));
        memset(got, 0, sizeof got);
        REPRO_CL(&r, clEnqueueReadImage(r.q[0], img, CL_TRUE, zero, whole, rp, sp, got, 0, NULL, NULL));
        REPRO_EXPECT(&r, bad_rows(got, ROW, packed) == 0, "%s: clEnqueueReadImage, host rows %d bytes apart: %zu of %d rows wrong",
                     names[i], ROW, bad_rows(got, ROW, packed), H);
        REPRO_CL(&r, clEnqueueWriteImage(r.q[0], img, CL_TRUE, zero, whole, rp, sp, padded, 0, NULL, NULL));
        memset(back, 0, sizeof back);
        REPRO_CL(&r, clEnqueueReadImage(r.q[0], img, CL_TRUE, zero, whole, 0, 0, back, 0, NULL, NULL));
        REPRO_EXPECT(&r, bad_rows(back, W * 4, packed) == 0, "%s: clEnqueueWriteImage, host rows %d bytes apart: %zu of %d rows wrong",
                     names[i], ROW, bad_rows(back, W * 4, packed), H);
        clReleaseMemObject(img);
    }
    img = image(&r, CL_MEM_OBJECT_IMAGE2D, CL_MEM_COPY_HOST_PTR, ROW, padded);
    memset(back, 0, sizeof back);
    REPRO_CL(&r, clEnqueueReadImage(r.q[0], img, CL_TRUE, zero, whole, 0, 0, back, 0, NULL, NULL));
    REPRO_EXPECT(&r, bad_rows(back, W * 4, packed) == 0, "2-D image: CL_MEM_COPY_HOST_PTR, image_row_pitch %d: %zu of %d rows wrong",
                 ROW, bad_rows(back, W * 4, packed), H);
    clReleaseMemObject(img);
    return repro_close(&r);
}
