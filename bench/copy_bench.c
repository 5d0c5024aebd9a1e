/* copy_bench.c - clmem_enqueue_copy against the raw clEnqueue* call it stands for.

   Build: cc -std=c11 -O2 -I. bench/copy_bench.c -o copy_bench -lOpenCL -lpthread -lm
   Run:   ./copy_bench                  throughput at 4 KiB, 1 MiB, 64 MiB (medians, ratios)
          ./copy_bench loop MODE N      N calls of one kind, for callgrind (bench/copy_bench.sh)
   MODE: raw-write, clmem-write, raw-read, clmem-read (blocking 4 KiB transfers). */
#define _POSIX_C_SOURCE 199309L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/* The loops callgrind measures: kept out of line (and extern) so --toggle-collect can
   name them. */
void loop_raw_write(cl_command_queue q, clmem_buffer b, const void *h, size_t n, int iters);
void loop_clmem_write(cl_command_queue q, clmem_buffer b, const void *h, size_t n, int iters);
void loop_raw_read(cl_command_queue q, clmem_buffer b, void *h, size_t n, int iters);
void loop_clmem_read(cl_command_queue q, clmem_buffer b, void *h, size_t n, int iters);
__attribute__((noinline)) void loop_raw_write(cl_command_queue q, clmem_buffer b, const void *h, size_t n, int iters) {
    for (int i = 0; i < iters; ++i) clEnqueueWriteBuffer(q, b.mem, CL_TRUE, 0, n, h, 0, NULL, NULL);
}
__attribute__((noinline)) void loop_clmem_write(cl_command_queue q, clmem_buffer b, const void *h, size_t n, int iters) {
    for (int i = 0; i < iters; ++i) clmem_enqueue_copy(q, b, h, .byte_count = n);
}
__attribute__((noinline)) void loop_raw_read(cl_command_queue q, clmem_buffer b, void *h, size_t n, int iters) {
    for (int i = 0; i < iters; ++i) clEnqueueReadBuffer(q, b.mem, CL_TRUE, 0, n, h, 0, NULL, NULL);
}
__attribute__((noinline)) void loop_clmem_read(cl_command_queue q, clmem_buffer b, void *h, size_t n, int iters) {
    for (int i = 0; i < iters; ++i) clmem_enqueue_copy(q, h, b, .byte_count = n);
}

/* median seconds per blocking write+read round trip of n bytes */
static double median_roundtrip(cl_command_queue q, clmem_buffer b, unsigned char *h, size_t n, int use_clmem, int reps) {
    double *t = (double *)malloc(sizeof(double) * (size_t)reps), m;
    for (int r = 0; r < reps; ++r) {
        double t0 = bench_now();
        if (use_clmem) {
            clmem_enqueue_copy(q, b, h, .byte_count = n);
            clmem_enqueue_copy(q, h, b, .byte_count = n);
        } else {
            clEnqueueWriteBuffer(q, b.mem, CL_TRUE, 0, n, h, 0, NULL, NULL);
            clEnqueueReadBuffer(q, b.mem, CL_TRUE, 0, n, h, 0, NULL, NULL);
        }
        t[r] = bench_now() - t0;
    }
    qsort(t, (size_t)reps, sizeof(double), bench_cmp_double);
    m = t[reps / 2];
    free(t);
    return m;
}

int main(int argc, char **argv) {
    clmem_test_device dev;
    size_t ndev = 0;
    cl_int err;
    cl_context ctx;
    cl_command_queue q;
    clmem_buffer b;
    unsigned char *h;
    char name[128] = {0};
    const size_t big = (size_t)64 << 20;

    if (clmem_get_test_platforms_and_devices(NULL, &dev, 1, &ndev) != CL_SUCCESS || ndev == 0) {
        fprintf(stderr, "no device: %s\n", clmem_last_error_message());
        return 1;
    }
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    ctx = clCreateContext(NULL, 1, &dev.device, NULL, NULL, &err);
    q = clCreateCommandQueueWithProperties(ctx, dev.device, NULL, &err);
    b = clmem_buffer_create(ctx, 0, big, NULL, &err);
    h = (unsigned char *)malloc(big);
    if (err != CL_SUCCESS || !h) return 1;
    memset(h, 1, big);

    if (argc == 4 && strcmp(argv[1], "loop") == 0) {
        int iters = atoi(argv[3]);
        size_t n = 4096;
        loop_raw_write(q, b, h, n, 10); /* warm up both paths outside the measured loops */
        loop_clmem_write(q, b, h, n, 10);
        if (strcmp(argv[2], "raw-write") == 0) loop_raw_write(q, b, h, n, iters);
        else if (strcmp(argv[2], "clmem-write") == 0) loop_clmem_write(q, b, h, n, iters);
        else if (strcmp(argv[2], "raw-read") == 0) loop_raw_read(q, b, h, n, iters);
        else if (strcmp(argv[2], "clmem-read") == 0) loop_clmem_read(q, b, h, n, iters);
        else return 2;
    } else {
        static const size_t sizes[] = {4096, (size_t)1 << 20, (size_t)64 << 20};
        static const int reps[] = {2001, 201, 15};
        printf("device: %s\n", name);
        printf("%10s %14s %14s %8s %12s\n", "bytes", "raw (us)", "clmem (us)", "ratio", "clmem GB/s");
        for (int i = 0; i < 3; ++i) {
            double raw, mine;
            median_roundtrip(q, b, h, sizes[i], 0, 5);
            median_roundtrip(q, b, h, sizes[i], 1, 5);
            raw = median_roundtrip(q, b, h, sizes[i], 0, reps[i]);
            mine = median_roundtrip(q, b, h, sizes[i], 1, reps[i]);
            printf("%10zu %14.2f %14.2f %8.3f %12.2f\n", sizes[i], raw * 1e6, mine * 1e6, raw / mine,
                   2.0 * (double)sizes[i] / mine / 1e9);
        }
        printf("ratio = raw time / clmem time (write + read round trip, medians); >= 0.98 is the goal\n");
    }
    clmem_buffer_release(&b);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(h);
    return 0;
}
