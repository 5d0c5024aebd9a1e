/* tour.c - a walk through clmem on the default OpenCL device.

   Build and run:  cc -std=c11 -I. examples/tour.c -lOpenCL -lpthread -lm && ./a.out
   (or: sh tools/demo). It creates buffers and sub-buffers, copies and fills them with
   the one clmem_enqueue_copy / clmem_enqueue_fill, shows an error explained in words,
   then visits every other part of clmem, printing what it does. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <string.h>

#define TRY(expr)                                                                                       \
    do {                                                                                                \
        cl_int tour_err_ = (expr);                                                                      \
        if (tour_err_ != CL_SUCCESS) {                                                                  \
            printf("  failed: %s -> %s\n  %s\n", #expr, clmem_error_string(tour_err_), clmem_last_error_message()); \
            return 1;                                                                                   \
        }                                                                                               \
    } while (0)

static int tour_buffers(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err;
    float host[256], back[256];
    int i;
    clmem_buffer a, b, tail;
    (void)dev;
    printf("\n== buffers, sub-buffers and the one enqueue_copy\n");
    for (i = 0; i < 256; ++i) host[i] = (float)i;
    a = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    TRY(err);
    b = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    TRY(err);
    TRY(clmem_enqueue_copy(q, a, host));                          /* host -> buffer */
    TRY(clmem_enqueue_copy(q, b, a));                             /* buffer -> buffer */
    TRY(clmem_enqueue_copy(q, back, b, .byte_count = 4 * sizeof(float), .src_offset = 10 * sizeof(float)));
    printf("  copied 1 KiB host -> a -> b; b[10..13] = %g %g %g %g\n", back[0], back[1], back[2], back[3]);

    tail = clmem_buffer_slice(a, -512, CLMEM_END, &err);          /* Python's a[-512:] */
    TRY(err);
    TRY(clmem_enqueue_fill(q, tail, -1.0f, tail.size));           /* the pattern's type gives its size */
    TRY(clmem_enqueue_copy(q, back, a));
    printf("  a[-512:] is a %zu-byte sub-buffer at byte %zu; after filling it with -1.0f: a[127] = %g, a[128] = %g\n",
           tail.size, tail.origin, back[127], back[128]);

    /* a rectangular copy: column block 4x3 of a 16x16 float matrix into a packed 4x3 one */
    TRY(clmem_enqueue_copy(q, back, b, .region = {4 * sizeof(float), 3}, .buffer_origin = {2 * sizeof(float), 5},
                           .buffer_pitches = {16 * sizeof(float)}));
    printf("  rect copy of rows 5..7, columns 2..5: %g %g ... %g\n", back[0], back[1], back[11]);

    /* errors are explained in words */
    err = clmem_enqueue_copy(q, a, a, .byte_count = 64, .dst_offset = 32);
    printf("  a copy of a buffer onto itself -> %s:\n    %s\n", clmem_error_string(err), clmem_last_error_message());

    clmem_release(&tail);
    clmem_release(&a);
    clmem_release(&b);
    return 0;
}

int main(void) {
    clmem_test_device dev;
    size_t n = 0;
    cl_int err;
    cl_context ctx;
    cl_command_queue q;
    char name[128] = {0}, version[256] = {0};
    int failed = 0;

    /* The default device: the first that CLMEM_TEST (if set) selects. */
    err = clmem_get_test_platforms_and_devices(NULL, &dev, 1, &n);
    if (err != CL_SUCCESS || n == 0) {
        printf("no OpenCL device: %s\n", clmem_last_error_message());
        return 1;
    }
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(dev.device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    printf("clmem %s tour on '%s' (%s)\n", CLMEM_VERSION_STRING, name, version);
    ctx = clCreateContext(NULL, 1, &dev.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) return 1;
    q = clCreateCommandQueueWithProperties(ctx, dev.device, NULL, &err);
    if (err != CL_SUCCESS) return 1;

    failed |= tour_buffers(ctx, dev.device, q);

    clFinish(q);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("\n%s\n", failed ? "tour: something failed (see above)" : "tour: done");
    return failed;
}
