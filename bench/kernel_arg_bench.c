/* kernel_arg_bench.c - what clmem_set_kernel_arg's type check costs: nanoseconds per
   call of raw clSetKernelArg and of clmem_set_kernel_arg, for a kernel built with
   -cl-kernel-arg-info (the check runs: clGetKernelArgInfo, one or two queries) and
   without (the check stops at CL_KERNEL_ARG_INFO_NOT_AVAILABLE), for a buffer, a float
   and local memory. Medians of 7 runs of 200000 calls, on the first device CLMEM_TEST
   selects (all devices when unset: the first one is used).

   Build: cc -std=c11 -O2 -I. bench/kernel_arg_bench.c -o kernel_arg_bench -lOpenCL -lpthread -lm
   Run:   ./kernel_arg_bench            both kernels
          ./kernel_arg_bench checked    only the one built with -cl-kernel-arg-info
          ./kernel_arg_bench unchecked  only the one built without
          ./kernel_arg_bench MODE N     one run of N calls (for callgrind: bench/kernel_arg_bench.sh) */
#define _POSIX_C_SOURCE 199309L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RUNS_MAX = 7 };
static int CALLS = 200000, RUNS = RUNS_MAX; /* ./kernel_arg_bench MODE CALLS: one run of CALLS */

#include "bench.h"

typedef void (*loop_fn)(cl_kernel k, clmem_buffer b);
__attribute__((noinline)) static void raw_buffer(cl_kernel k, clmem_buffer b) {
    for (int i = 0; i < CALLS; ++i) clSetKernelArg(k, 0, sizeof b.mem, &b.mem);
}
__attribute__((noinline)) static void clmem_buffer_arg(cl_kernel k, clmem_buffer b) {
    for (int i = 0; i < CALLS; ++i) clmem_set_kernel_arg(k, 0, b);
}
__attribute__((noinline)) static void raw_float(cl_kernel k, clmem_buffer b) {
    float f = 2.0f;
    (void)b;
    for (int i = 0; i < CALLS; ++i) clSetKernelArg(k, 1, sizeof f, &f);
}
__attribute__((noinline)) static void clmem_float(cl_kernel k, clmem_buffer b) {
    (void)b;
    for (int i = 0; i < CALLS; ++i) clmem_set_kernel_arg(k, 1, 2.0f);
}
__attribute__((noinline)) static void raw_local(cl_kernel k, clmem_buffer b) {
    (void)b;
    for (int i = 0; i < CALLS; ++i) clSetKernelArg(k, 2, 256, NULL);
}
__attribute__((noinline)) static void clmem_local(cl_kernel k, clmem_buffer b) {
    (void)b;
    for (int i = 0; i < CALLS; ++i) clmem_set_kernel_arg(k, 2, clmem_local_memory(256));
}

static double ns_per_call(loop_fn f, cl_kernel k, clmem_buffer b) {
    double t[RUNS_MAX];
    for (int r = 0; r < RUNS; ++r) {
        double t0 = bench_now();
        f(k, b);
        t[r] = (bench_now() - t0) / CALLS * 1e9;
    }
    qsort(t, (size_t)RUNS, sizeof(double), bench_cmp_double);
    return t[RUNS / 2];
}

static cl_kernel build(cl_context ctx, cl_device_id dev, const char *options) {
    static const char *src = "__kernel void k(__global float *y, float a, __local float *tmp) { y[0] = a; tmp[0] = a; }\n";
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    cl_kernel k = NULL;
    if (err == CL_SUCCESS && clBuildProgram(p, 1, &dev, options, NULL, NULL) == CL_SUCCESS) k = clCreateKernel(p, "k", &err);
    if (p) clReleaseProgram(p);
    return k;
}

int main(int argc, char **argv) {
    clmem_test_device d;
    size_t count = 0;
    cl_int err;
    cl_context ctx;
    clmem_buffer b;
    char name[128] = "?";
    if (argc > 2) {
        CALLS = atoi(argv[2]);
        RUNS = 1;
    }
    if (clmem_get_test_platforms_and_devices(NULL, &d, 1, &count) != CL_SUCCESS || count == 0) {
        fprintf(stderr, "no device: %s\n", clmem_last_error_message());
        return 1;
    }
    clGetDeviceInfo(d.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    ctx = clCreateContext(NULL, 1, &d.device, NULL, NULL, &err);
    b = clmem_buffer_create(ctx, 0, 64, NULL, &err);
    printf("device: %s\n%-28s %10s %10s %8s\n", name, "argument (arg info)", "raw ns", "clmem ns", "ratio");
    for (int info = 1; info >= 0; --info) {
        if (argc > 1 && strcmp(argv[1], info ? "unchecked" : "checked") == 0) continue;
        cl_kernel k = build(ctx, d.device, info ? "-cl-kernel-arg-info" : "");
        char tn[32];
        cl_int avail;
        if (!k) {
            fprintf(stderr, "kernel build failed\n");
            return 1;
        }
        avail = clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tn, tn, NULL);
        {
            static const char *names[3] = {"buffer", "float", "local memory"};
            loop_fn raw[3] = {raw_buffer, raw_float, raw_local}, ours[3] = {clmem_buffer_arg, clmem_float, clmem_local};
            for (int i = 0; i < 3; ++i) {
                double r = ns_per_call(raw[i], k, b), c = ns_per_call(ours[i], k, b);
                char label[64];
                snprintf(label, sizeof label, "%s (%s)", names[i], avail == CL_SUCCESS ? "checked" : "not available");
                printf("%-28s %10.1f %10.1f %8.2f\n", label, r, c, c / r);
            }
        }
        clReleaseKernel(k);
    }
    clmem_buffer_release(&b);
    clReleaseContext(ctx);
    return 0;
}
