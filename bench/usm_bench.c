/* usm_bench.c - host<->device copies into Intel USM device memory against the same
   copies into a buffer, side by side in one run (issue 25).

   Build: cc -std=c11 -O2 -I. bench/usm_bench.c -o usm_bench -lOpenCL -lpthread
   Run:   ./usm_bench [--min BYTES] [--max BYTES] [--time SECONDS]
   Device: the first one CLMEM_TEST (or PYOPENCL_TEST) selects, e.g. CLMEM_TEST=portable.
   Exits 77 with the reason where the device has no cl_intel_unified_shared_memory
   device memory (Debian 12's PoCL 3.1, NVIDIA).

   For each size (powers of four from --min 4 KiB to --max 64 MiB) and direction, the
   kinds run interleaved, once each per round, until --time seconds (default 0.2) and at
   least 5 rounds are spent on the size; the median of each is reported in GB/s:
     buffer        clmem_enqueue_copy between a clmem_buffer and malloc memory (blocking)
     usm_dev       clmem_enqueue_copy between USM device memory and the same malloc memory
     usm_dev_host  the same between USM device memory and USM host memory (where the
                   device has host USM; the USM counterpart of pinned memory)
   and the ratios usm_dev/buffer and usm_dev_host/buffer (above 1: USM is faster). */
#define _POSIX_C_SOURCE 199309L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { BUFFER, USM_DEV, USM_DEV_HOST, KINDS };
static const char *const kind_names[KINDS] = {"buffer", "usm_dev", "usm_dev_host"};

typedef struct bench {
    cl_command_queue q;
    clmem_buffer buf;
    clmem_usm_allocation dev, host; /* host: ptr NULL where the device has no host USM */
    unsigned char *pageable;
} bench;

/* one timed copy of n bytes of kind k; write: host -> device */
static cl_int run_one(const bench *b, int k, int write, size_t n, double *seconds) {
    double t0 = bench_now();
    cl_int err;
    if (k == BUFFER)
        err = write ? clmem_enqueue_copy(b->q, b->buf, (const void *)b->pageable, .byte_count = n)
                    : clmem_enqueue_copy(b->q, (void *)b->pageable, b->buf, .byte_count = n);
    else if (k == USM_DEV)
        err = write ? clmem_enqueue_copy(b->q, b->dev.usm, (const void *)b->pageable, .byte_count = n)
                    : clmem_enqueue_copy(b->q, (void *)b->pageable, b->dev.usm, .byte_count = n);
    else
        err = write ? clmem_enqueue_copy(b->q, b->dev.usm, b->host.usm, .byte_count = n)
                    : clmem_enqueue_copy(b->q, b->host.usm, b->dev.usm, .byte_count = n);
    *seconds = bench_now() - t0;
    return err;
}

int main(int argc, char **argv) {
    size_t min = 4096, max = (size_t)64 << 20, ndev = 0, n;
    double budget = 0.2;
    clmem_test_device dev;
    cl_device_unified_shared_memory_capabilities_intel caps = 0;
    cl_context ctx;
    cl_int err;
    bench b;
    char name[256] = "?";
    int i, kinds;
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--min") && i + 1 < argc) min = bench_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = bench_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--time") && i + 1 < argc) budget = strtod(argv[++i], NULL);
        else {
            fprintf(stderr, "usage: %s [--min B] [--max B] [--time S]   (sizes take K, M, G suffixes)\n", argv[0]);
            return 2;
        }
    }
    if (min < 1 || max < min) {
        fprintf(stderr, "usm_bench: bad --min/--max\n");
        return 2;
    }
    if (clmem_get_test_platforms_and_devices(NULL, &dev, 1, &ndev) != CL_SUCCESS || ndev == 0) {
        fprintf(stderr, "usm_bench: no device: %s\n", clmem_last_error_message());
        return 1;
    }
    if (clmem_usm_capabilities(dev.device, CL_MEM_TYPE_DEVICE_INTEL, &caps) != CL_SUCCESS) {
        printf("usm_bench: skipped: %s\n", clmem_last_error_message());
        return 77;
    }
    if (!caps) {
        printf("usm_bench: skipped: the device reports no device USM (CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL 0)\n");
        return 77;
    }
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    ctx = clCreateContext(NULL, 1, &dev.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "usm_bench: clCreateContext: %s\n", clmem_error_string(err));
        return 1;
    }
    memset(&b, 0, sizeof b);
    b.q = clCreateCommandQueueWithProperties(ctx, dev.device, NULL, &err);
    if (err == CL_SUCCESS) b.buf = clmem_buffer_create(ctx, 0, max, NULL, &err);
    if (err == CL_SUCCESS) b.dev = clmem_usm_allocation_create(ctx, dev.device, CL_MEM_TYPE_DEVICE_INTEL, max, 0, NULL, &err);
    b.pageable = (unsigned char *)malloc(max);
    if (err != CL_SUCCESS || !b.pageable) {
        fprintf(stderr, "usm_bench: setup of %zu bytes: %s\n", max, clmem_last_error_message());
        return 1;
    }
    memset(b.pageable, 0x5a, max);
    caps = 0;
    if (clmem_usm_capabilities(dev.device, CL_MEM_TYPE_HOST_INTEL, &caps) == CL_SUCCESS && caps)
        b.host = clmem_usm_allocation_create(ctx, NULL, CL_MEM_TYPE_HOST_INTEL, max, 0, NULL, &err);
    kinds = b.host.usm.ptr ? KINDS : USM_DEV_HOST;
    if (b.host.usm.ptr) memset(b.host.usm.ptr, 0x5a, max);
    printf("# usm_bench on %s: GB/s (median), ratios to buffer; %s\n", name,
           kinds == KINDS ? "host USM present" : "no host USM: usm_dev_host left out");
    printf("%-9s %-4s %10s %10s %12s %9s %9s\n", "bytes", "dir", kind_names[0], kind_names[1], kind_names[2], "dev/buf",
           "devh/buf");
    for (n = min; n <= max; n *= 4) {
        int write;
        for (write = 1; write >= 0; --write) {
            double *t[KINDS], med[KINDS] = {0, 0, 0}, spent = 0;
            size_t rounds = 0, cap = 1024;
            int k;
            for (k = 0; k < KINDS; ++k) t[k] = (double *)malloc(cap * sizeof(double));
            while ((spent < budget || rounds < 5) && rounds < cap) {
                for (k = 0; k < kinds; ++k) {
                    double s = 0;
                    if ((err = run_one(&b, k, write, n, &s)) != CL_SUCCESS) {
                        fprintf(stderr, "usm_bench: %s: %s\n", kind_names[k], clmem_last_error_message());
                        return 1;
                    }
                    t[k][rounds] = s;
                    spent += s;
                }
                ++rounds;
            }
            for (k = 0; k < kinds; ++k) med[k] = (double)n / bench_median(t[k], rounds) / 1e9;
            printf("%-9zu %-4s %10.2f %10.2f %12.2f %9.2f %9.2f\n", n, write ? "h2d" : "d2h", med[BUFFER], med[USM_DEV],
                   med[USM_DEV_HOST], med[USM_DEV] / med[BUFFER], kinds == KINDS ? med[USM_DEV_HOST] / med[BUFFER] : 0.0);
            for (k = 0; k < KINDS; ++k) free(t[k]);
        }
        if (n > max / 4) break;
    }
    clmem_usm_allocation_release(&b.host);
    clmem_usm_allocation_release(&b.dev);
    clmem_buffer_release(&b.buf);
    free(b.pageable);
    clReleaseCommandQueue(b.q);
    clReleaseContext(ctx);
    return 0;
}
