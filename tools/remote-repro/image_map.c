/* image_map.c - clEnqueueMapImage of a region that does not start at (0, 0): the
   mapped pointer must point at the region's first pixel (map_image's map_image_2d,
   map_image_3d, map_image_1d_array; cxx_map's map_image). Reads a 2-D RGBA8 image's
   box at (3, 2), then writes one through CL_MAP_WRITE_INVALIDATE_REGION. */
#include "repro.h"

enum { W = 16, H = 8 };

int main(void) {
    repro r;
    cl_int err;
    unsigned char src[H][W][4], back[H][W][4], *p;
    size_t x, y, rp = 0, bad = 0;
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc desc;
    const size_t zero[3] = {0, 0, 0}, whole[3] = {W, H, 1}, org[3] = {3, 2, 0}, reg[3] = {5, 4, 1};
    cl_mem img;
    repro_open(&r, 1);
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = W, desc.image_height = H;
    img = clCreateImage(r.ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    REPRO_CL(&r, err);
    repro_pattern(&src[0][0][0], sizeof src, 21);
    REPRO_CL(&r, clEnqueueWriteImage(r.q[0], img, CL_TRUE, zero, whole, 0, 0, src, 0, NULL, NULL));

    /* read map of the box */
    p = clEnqueueMapImage(r.q[0], img, CL_TRUE, CL_MAP_READ, org, reg, &rp, NULL, 0, NULL, NULL, &err);
    REPRO_CL(&r, err);
    for (y = 0; y < reg[1]; ++y) bad += memcmp(p + y * rp, src[org[1] + y][org[0]], reg[0] * 4) != 0;
    REPRO_EXPECT(&r, bad == 0, "CL_MAP_READ of (%zu, %zu)+(%zu, %zu): %zu of %zu rows wrong (row pitch %zu)", org[0],
                 org[1], reg[0], reg[1], bad, reg[1], rp);
    if (bad) printf("      first pixel mapped: %u %u %u %u, wanted %u %u %u %u (pixel (0, 0) is %u %u %u %u)\n", p[0],
                    p[1], p[2], p[3], src[2][3][0], src[2][3][1], src[2][3][2], src[2][3][3], src[0][0][0],
                    src[0][0][1], src[0][0][2], src[0][0][3]);
    REPRO_CL(&r, clEnqueueUnmapMemObject(r.q[0], img, p, 0, NULL, NULL));

    /* write map of the box */
    p = clEnqueueMapImage(r.q[0], img, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, org, reg, &rp, NULL, 0, NULL, NULL, &err);
    REPRO_CL(&r, err);
    for (y = 0; y < reg[1]; ++y)
        for (x = 0; x < reg[0] * 4; ++x) p[y * rp + x] = src[org[1] + y][org[0]][x] = (unsigned char)(100 + y * 20 + x);
    REPRO_CL(&r, clEnqueueUnmapMemObject(r.q[0], img, p, 0, NULL, NULL));
    REPRO_CL(&r, clEnqueueReadImage(r.q[0], img, CL_TRUE, zero, whole, 0, 0, back, 0, NULL, NULL));
    for (bad = 0, y = 0; y < H; ++y) bad += memcmp(back[y], src[y], W * 4) != 0;
    REPRO_EXPECT(&r, bad == 0, "CL_MAP_WRITE_INVALIDATE_REGION of (%zu, %zu)+(%zu, %zu): %zu of %d rows wrong", org[0],
                 org[1], reg[0], reg[1], bad, H);
    clReleaseMemObject(img);
    return repro_close(&r);
}
