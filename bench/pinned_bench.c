/* pinned_bench.c - host<->device bandwidth of pageable, pinned and staged transfers,
   side by side in one run (issue 14).

   Build: cc -std=c11 -O2 -I. bench/pinned_bench.c -o pinned_bench -lOpenCL -lpthread -lm
   Run:   ./pinned_bench [--min BYTES] [--max BYTES] [--slot BYTES] [--slots N]
                         [--threads N] [--data FILE] [--time SECONDS]
          bench/pinned_bench.sh BIN OUTDIR runs it and draws the plot (bench/pinned_plot.sh).
   Device: the first one CLMEM_TEST (or PYOPENCL_TEST) selects, e.g. CLMEM_TEST=nvidia.

   For each size (powers of two, --min 4 KiB to --max 256 MiB) and direction, the
   four kinds run interleaved, once each per round, until --time seconds (default 0.25)
   and at least 5 rounds are spent on the size; the median of each kind is reported:
     raw_pageable   clEnqueueWrite/ReadBuffer, blocking, from/to malloc memory
     raw_pinned     the same from/to a mapped CL_MEM_ALLOC_HOST_PTR buffer, raw OpenCL
     clmem_pinned   clmem_enqueue_copy from/to a clmem_pinned_allocation
     clmem_staged   clmem_stager_copy from/to the malloc memory, staging forced on
                    (threshold 0), so the curve shows where staging pays
   All four copy into the same device buffer. Figures are GB/s (1e9 bytes/s).
   stdout: a table with the ratios; --data FILE: the same figures as columns for
   gnuplot (see bench/pinned_plot.sh). Last, the smallest size from which staged beats
   raw pageable in each direction (the stager's threshold; see README). */
#define _POSIX_C_SOURCE 199309L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

enum { RAW_PAGEABLE, RAW_PINNED, CLMEM_PINNED, CLMEM_STAGED, KINDS };
static const char *const kind_names[KINDS] = {"raw_pageable", "raw_pinned", "clmem_pinned", "clmem_staged"};

typedef struct bench {
    cl_command_queue q;
    cl_mem dev;
    clmem_buffer devb;
    unsigned char *pageable;
    void *raw_pinned;
    clmem_pinned_allocation pinned;
    clmem_stager *st;
} bench;

/* one transfer of n bytes of one kind, one direction; its error code */
static cl_int run_one(bench *b, int kind, int write, size_t n) {
    switch (kind) {
    case RAW_PAGEABLE:
        return write ? clEnqueueWriteBuffer(b->q, b->dev, CL_TRUE, 0, n, b->pageable, 0, NULL, NULL)
                     : clEnqueueReadBuffer(b->q, b->dev, CL_TRUE, 0, n, b->pageable, 0, NULL, NULL);
    case RAW_PINNED:
        return write ? clEnqueueWriteBuffer(b->q, b->dev, CL_TRUE, 0, n, b->raw_pinned, 0, NULL, NULL)
                     : clEnqueueReadBuffer(b->q, b->dev, CL_TRUE, 0, n, b->raw_pinned, 0, NULL, NULL);
    case CLMEM_PINNED:
        return write ? clmem_enqueue_copy(b->q, b->devb, (const void *)b->pinned.ptr, .byte_count = n)
                     : clmem_enqueue_copy(b->q, b->pinned.ptr, b->devb, .byte_count = n);
    default:
        return write ? clmem_stager_copy(b->st, b->devb, (const void *)b->pageable, .byte_count = n)
                     : clmem_stager_copy(b->st, (void *)b->pageable, b->devb, .byte_count = n);
    }
}

static const char *human(size_t n, char *buf, size_t cap) {
    if (n >= ((size_t)1 << 20)) snprintf(buf, cap, "%zu MiB", n >> 20);
    else snprintf(buf, cap, "%zu KiB", n >> 10);
    return buf;
}

int main(int argc, char **argv) {
    size_t min = (size_t)4 << 10, max = (size_t)256 << 20, slot = 0, n;
    unsigned slots = 0, threads = 0;
    double budget = 0.25;
    const char *data_path = NULL;
    FILE *data = NULL;
    clmem_test_device dev;
    size_t ndev = 0;
    cl_int err;
    cl_context ctx;
    bench b;
    char name[256] = {0}, version[256] = {0}, platform[256] = {0};
    cl_platform_id pid = NULL;
    size_t crossover[2] = {0, 0};
    int dir, i;
    clmem_stager_stats sst;

    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--min") && i + 1 < argc) min = bench_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = bench_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--slot") && i + 1 < argc) slot = bench_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--slots") && i + 1 < argc) slots = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--data") && i + 1 < argc) data_path = argv[++i];
        else if (!strcmp(argv[i], "--time") && i + 1 < argc) budget = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--min B] [--max B] [--slot B] [--slots N] [--threads N] [--data FILE] "
                            "[--time S]   (sizes take K, M, G suffixes)\n", argv[0]);
            return 2;
        }
    }
    if (min < 1 || max < min) {
        fprintf(stderr, "pinned_bench: bad --min/--max\n");
        return 2;
    }
    if (clmem_get_test_platforms_and_devices(NULL, &dev, 1, &ndev) != CL_SUCCESS || ndev == 0) {
        fprintf(stderr, "pinned_bench: no device: %s\n", clmem_last_error_message());
        return 1;
    }
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(dev.device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    clGetDeviceInfo(dev.device, CL_DEVICE_PLATFORM, sizeof pid, &pid, NULL);
    if (pid) clGetPlatformInfo(pid, CL_PLATFORM_NAME, sizeof platform - 1, platform, NULL);
    ctx = clCreateContext(NULL, 1, &dev.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "pinned_bench: clCreateContext: %s\n", clmem_error_string(err));
        return 1;
    }
    memset(&b, 0, sizeof b);
    b.q = clCreateCommandQueueWithProperties(ctx, dev.device, NULL, &err);
    b.devb = clmem_buffer_create(ctx, 0, max, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "pinned_bench: device buffer of %zu bytes: %s\n", max, clmem_last_error_message());
        return 1;
    }
    b.dev = b.devb.mem;
    b.pageable = (unsigned char *)malloc(max);
    if (!b.pageable) return 1;
    memset(b.pageable, 1, max); /* touch every page: pageable, but resident */
    {   /* raw pinned memory, the way NVIDIA's guide makes it */
        cl_mem pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, max, NULL, &err);
        if (err == CL_SUCCESS)
            b.raw_pinned = clEnqueueMapBuffer(b.q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, max, 0, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "pinned_bench: raw pinned buffer: %s\n", clmem_error_string(err));
            return 1;
        }
        memset(b.raw_pinned, 2, max);
        b.pinned = clmem_pinned_allocation_create(b.q, max, 0, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "pinned_bench: %s\n", clmem_last_error_message());
            return 1;
        }
        memset(b.pinned.ptr, 3, max);
        b.st = clmem_stager_create(b.q, slot, slots, threads, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "pinned_bench: %s\n", clmem_last_error_message());
            return 1;
        }
        printf("device: %s (%s; %s)\n", name, platform, version);
        clmem_stager_get_stats(b.st, &sst);
        printf("stager: %zu slots of %zu KiB, %zu threads; its default threshold on this device: %s\n", sst.slots,
               sst.slot_size >> 10, sst.threads,
               clmem_stager_threshold(b.st) == CLMEM_STAGER_NEVER ? "never (CPU or host-unified device)" : "staging");
        clmem_stager_set_threshold(b.st, 0);

        /* staged copies are exact, both ways, at the largest size (a bench of wrong copies is no bench) */
        {
            unsigned char *check = (unsigned char *)malloc(max);
            size_t k;
            for (k = 0; k < max; ++k) b.pageable[k] = (unsigned char)(k * 7 + 3);
            if (!check || clmem_stager_copy(b.st, b.devb, (const void *)b.pageable) != CL_SUCCESS ||
                clEnqueueReadBuffer(b.q, b.dev, CL_TRUE, 0, max, check, 0, NULL, NULL) != CL_SUCCESS ||
                memcmp(check, b.pageable, max) != 0) {
                fprintf(stderr, "pinned_bench: staged write is wrong: %s\n", clmem_last_error_message());
                return 1;
            }
            memset(b.pageable, 0, max);
            if (clmem_stager_copy(b.st, (void *)b.pageable, b.devb) != CL_SUCCESS || memcmp(check, b.pageable, max)) {
                fprintf(stderr, "pinned_bench: staged read is wrong: %s\n", clmem_last_error_message());
                return 1;
            }
            free(check);
        }

        if (data_path) {
            data = fopen(data_path, "w");
            if (!data) {
                fprintf(stderr, "pinned_bench: cannot write %s\n", data_path);
                return 1;
            }
            fprintf(data, "# pinned_bench: %s (%s; %s); stager %zu x %zu KiB, %zu threads\n", name, platform, version,
                    sst.slots, sst.slot_size >> 10, sst.threads);
            fprintf(data, "# bytes  write: raw_pageable raw_pinned clmem_pinned clmem_staged  "
                          "read: raw_pageable raw_pinned clmem_pinned clmem_staged   (GB/s, medians)\n");
        }
        printf("\nGB/s (medians; kinds interleaved per round)        ratios: pinned/pageable, clmem_pinned/raw_pinned, "
               "staged/pageable\n");
        printf("%-8s %-5s %12s %12s %12s %12s   %8s %8s %8s\n", "size", "dir", "raw_pageable", "raw_pinned",
               "clmem_pinned", "clmem_staged", "pin/pag", "cl/raw", "stg/pag");
        for (n = min; n <= max; n *= 2) {
            double gbs[2][KINDS];
            char hb[32];
            for (dir = 0; dir < 2; ++dir) {
                int write = dir == 0, kind, rounds = 0, cap = 4096;
                double *t[KINDS], t0 = bench_now();
                for (kind = 0; kind < KINDS; ++kind) t[kind] = (double *)malloc(sizeof(double) * (size_t)cap);
                for (kind = 0; kind < KINDS; ++kind) run_one(&b, kind, write, n); /* warm up */
                while (rounds < cap && (rounds < 5 || bench_now() - t0 < budget)) {
                    for (kind = 0; kind < KINDS; ++kind) {
                        double s = bench_now();
                        err = run_one(&b, kind, write, n);
                        t[kind][rounds] = bench_now() - s;
                        if (err != CL_SUCCESS) {
                            fprintf(stderr, "pinned_bench: %s %s %zu: %s (%s)\n", kind_names[kind],
                                    write ? "write" : "read", n, clmem_error_string(err), clmem_last_error_message());
                            return 1;
                        }
                    }
                    ++rounds;
                }
                for (kind = 0; kind < KINDS; ++kind) {
                    qsort(t[kind], (size_t)rounds, sizeof(double), bench_cmp_double);
                    gbs[dir][kind] = (double)n / t[kind][rounds / 2] / 1e9;
                    free(t[kind]);
                }
                printf("%-8s %-5s %12.2f %12.2f %12.2f %12.2f   %8.2f %8.3f %8.2f\n", human(n, hb, sizeof hb),
                       write ? "write" : "read", gbs[dir][RAW_PAGEABLE], gbs[dir][RAW_PINNED], gbs[dir][CLMEM_PINNED],
                       gbs[dir][CLMEM_STAGED], gbs[dir][RAW_PINNED] / gbs[dir][RAW_PAGEABLE],
                       gbs[dir][CLMEM_PINNED] / gbs[dir][RAW_PINNED], gbs[dir][CLMEM_STAGED] / gbs[dir][RAW_PAGEABLE]);
                /* the threshold: from here on staged stays ahead of pageable */
                if (gbs[dir][CLMEM_STAGED] > gbs[dir][RAW_PAGEABLE]) {
                    if (crossover[dir] == 0) crossover[dir] = n;
                } else {
                    crossover[dir] = 0;
                }
            }
            fflush(stdout);
            if (data)
                fprintf(data, "%zu  %.4f %.4f %.4f %.4f  %.4f %.4f %.4f %.4f\n", n, gbs[0][0], gbs[0][1], gbs[0][2],
                        gbs[0][3], gbs[1][0], gbs[1][1], gbs[1][2], gbs[1][3]);
            if (n > max / 2) break;
        }
        {
            char h0[32], h1[32];
            printf("\nstaged beats raw pageable from: write %s, read %s (to the largest size measured)\n",
                   crossover[0] ? human(crossover[0], h0, sizeof h0) : "never",
                   crossover[1] ? human(crossover[1], h1, sizeof h1) : "never");
            printf("suggested CLMEM_STAGER_DEFAULT_THRESHOLD: %s\n",
                   crossover[0] && crossover[1]
                       ? human(crossover[0] > crossover[1] ? crossover[0] : crossover[1], h0, sizeof h0)
                       : "never on this device");
        }
        if (data) fclose(data);
        clmem_stager_release(b.st);
        clmem_pinned_allocation_release(&b.pinned);
        clEnqueueUnmapMemObject(b.q, pin, b.raw_pinned, 0, NULL, NULL);
        clFinish(b.q);
        clReleaseMemObject(pin);
    }
    clmem_buffer_release(&b.devb);
    free(b.pageable);
    clReleaseCommandQueue(b.q);
    clReleaseContext(ctx);
    return 0;
}
