/* image_two_devices.c (devices: 2) - an image written on device 0 and read on device 1 of one
   context, ordered by the write's event (multidev_context's image_other_device). The
   steps are printed as they finish: where the output stops is where it hangs. */
#include "repro.h"

enum { W = 67, H = 33 };

int main(void) {
    repro r;
    cl_int err;
    unsigned char in[W * H * 4], out[W * H * 4];
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d;
    const size_t zero[3] = {0, 0, 0}, whole[3] = {W, H, 1};
    cl_event written;
    cl_mem img;
    repro_open(&r, 2);
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE2D, d.image_width = W, d.image_height = H;
    img = clCreateImage(r.ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
    REPRO_CL(&r, err);
    repro_pattern(in, sizeof in, 21);
    REPRO_CL(&r, clEnqueueWriteImage(r.q[0], img, CL_FALSE, zero, whole, 0, 0, in, 0, NULL, &written));
    printf("write enqueued on device 0\n");
    fflush(stdout);
    REPRO_CL(&r, clWaitForEvents(1, &written));
    printf("write done\n");
    fflush(stdout);
    memset(out, 0, sizeof out);
    REPRO_CL(&r, clEnqueueReadImage(r.q[1], img, CL_TRUE, zero, whole, 0, 0, out, 1, &written, NULL));
    printf("read on device 1 done\n");
    REPRO_EXPECT(&r, memcmp(in, out, sizeof in) == 0, "device 1 read other bytes than device 0 wrote");
    clReleaseEvent(written);
    clReleaseMemObject(img);
    return repro_close(&r);
}
