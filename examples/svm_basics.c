/* svm_basics.c - shared virtual memory with clmem: both of PyOpenCL's styles.

   Build and run:  cc -std=c11 -I. examples/svm_basics.c -lOpenCL -lpthread && ./a.out

   1. Opaque style (coarse grain): an allocation bound to the queue, filled, mapped,
      doubled by a kernel and copied back; its release is enqueued behind the kernel.
   2. Array style (fine grain, where the device has it): a C-shaped array the host
      writes directly, doubled by the kernel with no map. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>

#define TRY(expr)                                                                                          \
    do {                                                                                                   \
        cl_int try_err_ = (expr);                                                                          \
        if (try_err_ != CL_SUCCESS) {                                                                      \
            fprintf(stderr, "%s -> %s\n%s\n", #expr, clmem_error_string(try_err_), clmem_last_error_message()); \
            return 1;                                                                                      \
        }                                                                                                  \
    } while (0)

static const char *src = "__kernel void twice(__global float *a) { a[get_global_id(0)] *= 2; }";

int main(void) {
    enum { N = 1000 };
    cl_platform_id platform;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_device_svm_capabilities caps = 0;
    cl_int err;
    size_t gsize = N, i;
    float host[N], pattern = 1.5f;
    clmem_svm_allocation a;
    clmem_svm_map m;

    TRY(clGetPlatformIDs(1, &platform, NULL));
    TRY(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    TRY(err);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    TRY(err);
    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    TRY(err);
    TRY(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    k = clCreateKernel(prog, "twice", &err);
    TRY(err);

    /* 1. opaque style */
    a = clmem_svm_allocation_create(ctx, N * sizeof(float), 64, CL_MEM_READ_WRITE, q, &err);
    TRY(err); /* CL_INVALID_OPERATION here means: no SVM on this device */
    TRY(clmem_enqueue_svm_memfill(q, a.svm, &pattern, sizeof pattern));
    TRY(clmem_svm_map_rw(q, a.svm, &m, .size = 4 * sizeof(float)));   /* only what we touch */
    ((float *)m.ptr)[3] = 10.0f;
    TRY(clmem_svm_map_release(&m));
    TRY(clmem_set_kernel_arg(k, 0, a.svm));
    TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsize, NULL, 0, NULL, NULL));
    TRY(clmem_enqueue_copy(q, host, a.svm));
    printf("coarse grain: a[0] = %g, a[3] = %g (1.5 and 10, doubled)\n", host[0], host[3]);
    TRY(clmem_svm_allocation_release(&a));   /* enqueued on q: safe even with work pending */
    err = clmem_svm_allocation_release(&a);
    printf("releasing it again: %s (%s)\n", clmem_error_string(err), clmem_last_error_message());

    /* 2. array style, fine grain */
    if (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) {
        clmem_svm_array arr;
        float *x;
        TRY((arr = clmem_fsvm_empty(ctx, float, &err, .shape = {N}, .queue = q), err));
        x = (float *)arr.svm.ptr;
        for (i = 0; i < N; ++i) x[i] = (float)i;          /* no map needed */
        TRY(clmem_set_kernel_arg(k, 0, arr.svm));
        TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsize, NULL, 0, NULL, NULL));
        TRY(clFinish(q));
        printf("fine grain: %s[%zu] array, x[999] = %g\n", arr.dtype, arr.shape[0], x[999]);
        TRY(clmem_svm_array_release(&arr));
    } else {
        printf("fine grain: not on this device\n");
    }

    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
