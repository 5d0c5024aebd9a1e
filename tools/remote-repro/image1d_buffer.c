/* image1d_buffer.c - 1-D buffer images (image_buffer1d; cxx_image's create): the
   formats clGetSupportedImageFormats lists for CL_MEM_OBJECT_IMAGE1D_BUFFER, and an
   RGBA8 1-D buffer image made from a buffer, written through the image and read
   through the buffer. */
#include "repro.h"

enum { W = 64 };

int main(void) {
    repro r;
    cl_int err;
    cl_uint n1d = 0, nbuf = 0;
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d;
    unsigned char in[W * 4], out[W * 4];
    const size_t zero[3] = {0, 0, 0}, whole[3] = {W, 1, 1};
    cl_mem buf, img;
    repro_open(&r, 1);
    REPRO_CL(&r, clGetSupportedImageFormats(r.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE1D, 0, NULL, &n1d));
    REPRO_CL(&r, clGetSupportedImageFormats(r.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE1D_BUFFER, 0, NULL, &nbuf));
    printf("formats: %u for IMAGE1D, %u for IMAGE1D_BUFFER\n", n1d, nbuf);
    /* OpenCL 3.0 (4.3.2.1): the minimum list of formats holds for every image type
       the device supports, 1-D buffer images included */
    REPRO_EXPECT(&r, nbuf > 0, "no formats for CL_MEM_OBJECT_IMAGE1D_BUFFER (%u for IMAGE1D)", n1d);
    buf = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE, sizeof in, NULL, &err);
    REPRO_CL(&r, err);
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, d.image_width = W, d.buffer = buf;
    img = clCreateImage(r.ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
    REPRO_EXPECT(&r, err == CL_SUCCESS, "clCreateImage(IMAGE1D_BUFFER, RGBA8): error %d", err);
    if (err == CL_SUCCESS) {
        repro_pattern(in, sizeof in, 9);
        REPRO_CL(&r, clEnqueueWriteImage(r.q[0], img, CL_TRUE, zero, whole, 0, 0, in, 0, NULL, NULL));
        REPRO_CL(&r, clEnqueueReadBuffer(r.q[0], buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        REPRO_EXPECT(&r, memcmp(in, out, sizeof in) == 0, "bytes written through the image differ in the buffer");
        clReleaseMemObject(img);
    }
    clReleaseMemObject(buf);
    return repro_close(&r);
}
