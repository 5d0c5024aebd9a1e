/* pageable_bench.c - pageable host memory against its bounds, in one run: the host's copy
   ceiling, the DMA alone and both at once, the stager, registered host memory
   (clmem_host_registration), raw pageable and raw pinned transfers (issue 33).

   Build: cc -std=c11 -O2 -I. bench/pageable_bench.c -o pageable_bench -lOpenCL -lpthread -lm
   Run:   ./pageable_bench [--min BYTES] [--max BYTES] [--threads N] [--rounds N]
                           [--data FILE] [--only ceiling|stager|staged|registered]
          bench/pageable_gpu.sh runs it on the GPU machine with the CUDA anchor and the plot.
   Device: the first one CLMEM_TEST (or PYOPENCL_TEST) selects, e.g. CLMEM_TEST=nvidia.

   Sizes: powers of two from --min (1 MiB) to --max (1 GiB). Figures are GB/s (1e9
   bytes/s), the median of --rounds (5) runs unless said otherwise.

   1. The ceiling: memcpy from pageable memory into pinned slots (a clmem_pinned_allocation
      of SLOTS x SLOT bytes, piece i into slot i % SLOTS, as a stager does) by T persistent
      threads (the calling thread and T - 1 workers started once; T = 1, 2, 4, ... up to
      --threads, default the CPUs online), and back (slots into pageable memory). Sources:
        touched   resident memory copied before (the same array every round)
        fresh     memory mapped anew and written once (one byte per page) just before
                  the copy, as a program's new array is
        huge      touched, madvise(MADV_HUGEPAGE) (transparent huge pages)
      Stores: memcpy, and non-temporal (SSE2 streaming stores: the slots are not read by
      the CPU, so their lines need not be fetched). The best over T is the ceiling.
   2. The DMA alone: clEnqueueWrite/ReadBuffer between a pinned allocation and the device
      (raw pinned), and both at once: the DMA of n bytes from another pinned buffer while
      the best T copies n bytes into the slots (each rate measured while the other runs:
      the DMA by event profiling, the copy by the clock).
   3. The stager (--only stager: with raw pageable and pinned; --only staged: alone, for
      sweeps of its shape): clmem_stager_copy, staging forced on (threshold 0), with the shape from
      the environment (0 or unset: the stager's defaults), passed to clmem_stager_create:
        CLMEM_BENCH_SLOT (bytes, K/M/G), CLMEM_BENCH_SLOTS, CLMEM_BENCH_THREADS
      and CLMEM_BENCH_HUGEPAGES=1: the pageable memory madvise(MADV_HUGEPAGE)'d.
   4. Registered host memory: clmem_host_registration_create over the pageable array (its
      time), then clmem_enqueue_copy both ways with the host writing the array between
      transfers (one byte per page, a new value each round, untimed) and the device's
      bytes checked after each; beside it the copy alone (clEnqueueCopyBuffer from/to the
      registration's buffer without the coherence maps: the bound) and the coherence
      alone (the map and unmap of the range); the release's time.
   stdout: the tables, and "bar" lines: staged / ceiling (goal >= 0.9 from 64 MiB),
   registered / raw pinned (goal >= 0.9 from 16 MiB). --data FILE: per size
     bytes  w_pageable w_pinned w_ceiling w_staged w_registered
            r_pageable r_pinned r_ceiling r_staged r_registered
   (bench/pageable_gpu.sh adds CUDA's pageable columns and draws the plot). */
#define _GNU_SOURCE
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bench.h"

/* ---- the copy threads: the caller and T - 1 persistent workers split each piece ---- */
typedef struct copiers {
    int T;
    pthread_t th[128];
    pthread_mutex_t m;
    pthread_cond_t go, done;
    unsigned long gen;
    int pending, quit, nt;
    char *dst;
    const char *src;
    size_t n;
} copiers;
typedef struct worker {
    copiers *c;
    int i;
} worker;
static worker workers[128];

static void copy_nt(char *d, const char *s, size_t n) {
#if defined(__SSE2__)
    size_t head = (16 - ((uintptr_t)d & 15)) & 15, i;
    if (head > n) head = n;
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (i = 0; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48));
        _mm_stream_si128((__m128i *)(void *)(d + i), a);
        _mm_stream_si128((__m128i *)(void *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + i + 48), e);
    }
    memcpy(d + i, s + i, n - i);
    _mm_sfence();
#else
    memcpy(d, s, n);
#endif
}

static void share(copiers *c, int i) {
    size_t per = (c->n / (size_t)c->T + 63) & ~(size_t)63, lo = per * (size_t)i, len;
    if (lo >= c->n) return;
    len = c->n - lo < per ? c->n - lo : per;
    if (c->nt) copy_nt(c->dst + lo, c->src + lo, len);
    else memcpy(c->dst + lo, c->src + lo, len);
}

static void *worker_main(void *p) {
    worker *w = (worker *)p;
    copiers *c = w->c;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&c->m);
        while (c->gen == seen && !c->quit) pthread_cond_wait(&c->go, &c->m);
        if (c->quit) {
            pthread_mutex_unlock(&c->m);
            return NULL;
        }
        seen = c->gen;
        pthread_mutex_unlock(&c->m);
        share(c, w->i);
        pthread_mutex_lock(&c->m);
        if (--c->pending == 0) pthread_cond_signal(&c->done);
        pthread_mutex_unlock(&c->m);
    }
}

static void copiers_start(copiers *c, int T) {
    int i;
    memset(c, 0, sizeof *c);
    c->T = T;
    pthread_mutex_init(&c->m, NULL);
    pthread_cond_init(&c->go, NULL);
    pthread_cond_init(&c->done, NULL);
    for (i = 1; i < T; ++i) {
        workers[i].c = c;
        workers[i].i = i;
        pthread_create(&c->th[i], NULL, worker_main, &workers[i]);
    }
}

static void copiers_stop(copiers *c) {
    int i;
    pthread_mutex_lock(&c->m);
    c->quit = 1;
    pthread_cond_broadcast(&c->go);
    pthread_mutex_unlock(&c->m);
    for (i = 1; i < c->T; ++i) pthread_join(c->th[i], NULL);
    pthread_mutex_destroy(&c->m);
    pthread_cond_destroy(&c->go);
    pthread_cond_destroy(&c->done);
}

/* one piece, split over the T copiers (the caller copies share 0) */
static void copiers_copy(copiers *c, char *dst, const char *src, size_t n, int nt) {
    pthread_mutex_lock(&c->m);
    c->dst = dst;
    c->src = src;
    c->n = n;
    c->nt = nt;
    c->pending = c->T - 1;
    ++c->gen;
    pthread_cond_broadcast(&c->go);
    pthread_mutex_unlock(&c->m);
    share(c, 0);
    pthread_mutex_lock(&c->m);
    while (c->pending) pthread_cond_wait(&c->done, &c->m);
    pthread_mutex_unlock(&c->m);
}

/* n bytes between pageable memory and the slots, piece by piece (write: into the slots) */
static void slot_copy(copiers *c, char *slots, size_t slot, unsigned nslots, char *pageable, size_t n, int write,
                      int nt) {
    size_t off, piece = 0;
    for (off = 0; off < n; off += slot, ++piece) {
        size_t len = n - off < slot ? n - off : slot;
        char *s = slots + (piece % nslots) * slot;
        if (write) copiers_copy(c, s, pageable + off, len, nt);
        else copiers_copy(c, pageable + off, s, len, nt);
    }
}

static char *map_fresh(size_t n) {
    size_t i;
    char *p = (char *)mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    for (i = 0; i < n; i += 4096) p[i] = (char)(i >> 12); /* written once, as a new array */
    return p;
}

static const char *human(size_t n, char *buf, size_t cap) {
    if (n >= ((size_t)1 << 30) && n % ((size_t)1 << 30) == 0) snprintf(buf, cap, "%zu GiB", n >> 30);
    else if (n >= ((size_t)1 << 20)) snprintf(buf, cap, "%zu MiB", n >> 20);
    else snprintf(buf, cap, "%zu KiB", n >> 10);
    return buf;
}

static size_t env_size(const char *name) {
    const char *v = getenv(name);
    return v && *v ? bench_parse_size(v) : 0;
}

static int die(const char *what, cl_int err) {
    fprintf(stderr, "pageable_bench: %s: %s (%s)\n", what, clmem_error_string(err), clmem_last_error_message());
    return 1;
}

enum { SRC_TOUCHED, SRC_FRESH, SRC_HUGE, SOURCES };
static const char *const src_names[SOURCES] = {"touched", "fresh", "huge"};
#define MAXSIZES 32

int main(int argc, char **argv) {
    size_t min = (size_t)1 << 20, max = (size_t)1 << 30, n;
    int maxT = (int)sysconf(_SC_NPROCESSORS_ONLN), rounds = 5, i, nsizes = 0, si, dir;
    const char *data_path = NULL, *only = NULL;
    clmem_test_device dev;
    size_t ndev = 0, slot, nslots_z;
    unsigned nslots;
    cl_int err;
    cl_context ctx;
    cl_command_queue q, qp;
    clmem_buffer devb;
    unsigned char *pageable;
    clmem_pinned_allocation pinned, slots_mem, dmasrc;
    char name[256] = {0}, platform[256] = {0};
    cl_platform_id pid = NULL;
    int hugepages = getenv("CLMEM_BENCH_HUGEPAGES") && atoi(getenv("CLMEM_BENCH_HUGEPAGES")) != 0;
    /* figures per size: [dir] */
    double pag[MAXSIZES][2], pin[MAXSIZES][2], ceil_best[MAXSIZES][2], staged[MAXSIZES][2], reg[MAXSIZES][2];
    int ceilT[MAXSIZES][2];
    size_t sizes[MAXSIZES];

    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--min") && i + 1 < argc) min = bench_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = bench_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) maxT = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--data") && i + 1 < argc) data_path = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--min B] [--max B] [--threads N] [--rounds N] [--data FILE] "
                            "[--only ceiling|stager|staged|registered]   (sizes take K, M, G suffixes)\n", argv[0]);
            return 2;
        }
    }
    if (maxT < 1) maxT = 1;
    if (maxT > 128) maxT = 128;
    if (rounds < 1) rounds = 1;
    if (rounds > 64) rounds = 64;
    if (min < 4096 || max < min) {
        fprintf(stderr, "pageable_bench: bad --min/--max\n");
        return 2;
    }
    for (n = min; n <= max && nsizes < MAXSIZES; n *= 2) sizes[nsizes++] = n;
    memset(pag, 0, sizeof pag);
    memset(pin, 0, sizeof pin);
    memset(ceil_best, 0, sizeof ceil_best);
    memset(staged, 0, sizeof staged);
    memset(reg, 0, sizeof reg);
    memset(ceilT, 0, sizeof ceilT);

    if (clmem_get_test_platforms_and_devices(NULL, &dev, 1, &ndev) != CL_SUCCESS || ndev == 0) {
        fprintf(stderr, "pageable_bench: no device: %s\n", clmem_last_error_message());
        return 1;
    }
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(dev.device, CL_DEVICE_PLATFORM, sizeof pid, &pid, NULL);
    if (pid) clGetPlatformInfo(pid, CL_PLATFORM_NAME, sizeof platform - 1, platform, NULL);
    ctx = clCreateContext(NULL, 1, &dev.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) return die("clCreateContext", err);
    q = clCreateCommandQueueWithProperties(ctx, dev.device, NULL, &err);
    if (err != CL_SUCCESS) return die("clCreateCommandQueueWithProperties", err);
    {
        cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        qp = clCreateCommandQueueWithProperties(ctx, dev.device, props, &err);
        if (err != CL_SUCCESS) return die("profiling queue", err);
    }
    devb = clmem_buffer_create(ctx, 0, max, NULL, &err);
    if (err != CL_SUCCESS) return die("device buffer", err);
    pageable = (unsigned char *)aligned_alloc(4096, max);
    if (!pageable) return 1;
    if (hugepages) madvise(pageable, max, MADV_HUGEPAGE);
    memset(pageable, 1, max);
    pinned = clmem_pinned_allocation_create(q, max, 0, &err);
    if (err != CL_SUCCESS) return die("pinned allocation", err);
    memset(pinned.ptr, 2, max);
    slot = env_size("CLMEM_BENCH_SLOT");
    nslots_z = env_size("CLMEM_BENCH_SLOTS");
    nslots = (unsigned)nslots_z;
    {
        size_t th = env_size("CLMEM_BENCH_THREADS");
        clmem_stager *st = NULL;
        clmem_stager_stats sst;
        printf("device: %s (%s)\n", name, platform);
        printf("host: %ld CPUs online; pageable memory %s\n", sysconf(_SC_NPROCESSORS_ONLN),
               hugepages ? "with MADV_HUGEPAGE (CLMEM_BENCH_HUGEPAGES=1)" : "in base pages");
        st = clmem_stager_create(q, slot, nslots, (unsigned)th, &err);
        if (err != CL_SUCCESS) return die("clmem_stager_create", err);
        clmem_stager_get_stats(st, &sst);
        slot = sst.slot_size;
        nslots = (unsigned)sst.slots;
        printf("stager: clmem_stager_create(q, %zu, %zu, %zu) from CLMEM_BENCH_SLOT=%s SLOTS=%s THREADS=%s: "
               "%zu slots of %zu KiB, %zu threads\n",
               env_size("CLMEM_BENCH_SLOT"), nslots_z, th, getenv("CLMEM_BENCH_SLOT") ? getenv("CLMEM_BENCH_SLOT") : "-",
               getenv("CLMEM_BENCH_SLOTS") ? getenv("CLMEM_BENCH_SLOTS") : "-",
               getenv("CLMEM_BENCH_THREADS") ? getenv("CLMEM_BENCH_THREADS") : "-", sst.slots, sst.slot_size >> 10,
               sst.threads);
        clmem_stager_set_threshold(st, 0);
        slots_mem = clmem_pinned_allocation_create(q, slot * nslots, 0, &err);
        if (err != CL_SUCCESS) return die("slots", err);
        memset(slots_mem.ptr, 3, slot * nslots);
        dmasrc = clmem_pinned_allocation_create(q, max, 0, &err);
        if (err != CL_SUCCESS) return die("pinned DMA source", err);
        memset(dmasrc.ptr, 4, max);

        /* ---- raw pageable, raw pinned, staged (interleaved per round) ---- */
        if (!only || !strcmp(only, "stager") || !strcmp(only, "staged")) {
            int k0 = only && !strcmp(only, "staged") ? 2 : 0; /* staged only: the candidates' sweep */
            printf("\n== transfers (GB/s, medians of %d): raw pageable, raw pinned (the DMA alone), clmem staged\n",
                   rounds);
            printf("%-8s %-5s %10s %10s %10s\n", "size", "dir", "pageable", "pinned", "staged");
            for (si = 0; si < nsizes; ++si)
                for (dir = 0; dir < 2; ++dir) {
                    double t[3][64];
                    int r, k, w = dir == 0;
                    char hb[32];
                    n = sizes[si];
                    for (r = -1; r < rounds && r < 64; ++r)
                        for (k = k0; k < 3; ++k) {
                            double s = bench_now();
                            if (k == 0)
                                err = w ? clEnqueueWriteBuffer(q, devb.mem, CL_TRUE, 0, n, pageable, 0, NULL, NULL)
                                        : clEnqueueReadBuffer(q, devb.mem, CL_TRUE, 0, n, pageable, 0, NULL, NULL);
                            else if (k == 1)
                                err = w ? clEnqueueWriteBuffer(q, devb.mem, CL_TRUE, 0, n, pinned.ptr, 0, NULL, NULL)
                                        : clEnqueueReadBuffer(q, devb.mem, CL_TRUE, 0, n, pinned.ptr, 0, NULL, NULL);
                            else
                                err = w ? clmem_stager_copy(st, devb, (const void *)pageable, .byte_count = n)
                                        : clmem_stager_copy(st, (void *)pageable, devb, .byte_count = n);
                            if (err != CL_SUCCESS) return die("transfer", err);
                            if (r >= 0) t[k][r] = bench_now() - s;
                        }
                    if (k0 == 0) {
                        pag[si][dir] = (double)n / bench_median(t[0], (size_t)rounds) / 1e9;
                        pin[si][dir] = (double)n / bench_median(t[1], (size_t)rounds) / 1e9;
                    }
                    staged[si][dir] = (double)n / bench_median(t[2], (size_t)rounds) / 1e9;
                    printf("%-8s %-5s %10.2f %10.2f %10.2f\n", human(n, hb, sizeof hb), w ? "write" : "read",
                           pag[si][dir], pin[si][dir], staged[si][dir]);
                    fflush(stdout);
                }
        }
        clmem_stager_release(st);
    }

    /* ---- the ceiling: T persistent copiers into / out of the slots ---- */
    if (!only || !strcmp(only, "ceiling")) {
        char *huge = (char *)aligned_alloc((size_t)2 << 20, max);
        if (!huge) return 1;
        madvise(huge, max, MADV_HUGEPAGE);
        memset(huge, 5, max);
        printf("\n== the copy ceiling: memcpy / non-temporal stores between pageable memory and %u pinned slots of %zu "
               "KiB, T persistent threads (GB/s, medians of %d; fresh: of %d)\n",
               nslots, slot >> 10, rounds, rounds < 3 ? rounds : 3);
        printf("%-8s %-5s %3s", "size", "dir", "T");
        for (i = 0; i < SOURCES; ++i) printf(" %9s %9s", src_names[i], "nt");
        printf("\n");
        for (si = 0; si < nsizes; ++si)
            for (dir = 0; dir < 2; ++dir) {
                int T, w = dir == 0;
                char hb[32];
                n = sizes[si];
                for (T = 1; T <= maxT; T = T * 2 > maxT && T < maxT ? maxT : T * 2) {
                    copiers c;
                    int src, nt;
                    copiers_start(&c, T);
                    printf("%-8s %-5s %3d", human(n, hb, sizeof hb), w ? "write" : "read", T);
                    for (src = 0; src < SOURCES; ++src)
                        for (nt = 0; nt < 2; ++nt) {
                            double t[64];
                            int r, rr = src == SRC_FRESH ? (rounds < 3 ? rounds : 3) : rounds;
                            slot_copy(&c, (char *)slots_mem.ptr, slot, nslots, src == SRC_HUGE ? huge : (char *)pageable,
                                      n < slot ? n : slot, w, nt); /* warm */
                            for (r = 0; r < rr && r < 64; ++r) {
                                char *p = src == SRC_FRESH ? map_fresh(n) : src == SRC_HUGE ? huge : (char *)pageable;
                                double s;
                                if (!p) return 1;
                                s = bench_now();
                                slot_copy(&c, (char *)slots_mem.ptr, slot, nslots, p, n, w, nt);
                                t[r] = bench_now() - s;
                                if (src == SRC_FRESH) munmap(p, n);
                            }
                            {
                                double g = (double)n / bench_median(t, (size_t)rr) / 1e9;
                                printf(" %9.2f", g);
                                if (g > ceil_best[si][dir]) {
                                    ceil_best[si][dir] = g;
                                    ceilT[si][dir] = T;
                                }
                            }
                        }
                    printf("\n");
                    fflush(stdout);
                    copiers_stop(&c);
                    if (T == maxT) break;
                }
            }
        free(huge);

        /* ---- both at once: the DMA of n bytes while the best T copies n bytes ---- */
        printf("\n== both at once: the DMA (pinned <-> device) while T threads copy between pageable memory and the "
               "slots (GB/s, medians of %d; each rate measured while the other runs)\n", rounds);
        printf("%-8s %-5s %3s %10s %10s %10s %10s %10s\n", "size", "dir", "T", "copy", "copy+dma", "dma", "dma+copy",
               "min(both)");
        for (si = 0; si < nsizes; ++si)
            for (dir = 0; dir < 2; ++dir) {
                int T = ceilT[si][dir] ? ceilT[si][dir] : 1, w = dir == 0, r;
                double tc[64], td[64], tc1[64], td1[64];
                copiers c;
                char hb[32];
                n = sizes[si];
                copiers_start(&c, T);
                for (r = 0; r < rounds && r < 64; ++r) {
                    cl_event ev = NULL;
                    cl_ulong a = 0, b = 0;
                    double s = bench_now();
                    slot_copy(&c, (char *)slots_mem.ptr, slot, nslots, (char *)pageable, n, w, 0);
                    tc1[r] = bench_now() - s;
                    err = w ? clEnqueueWriteBuffer(qp, devb.mem, CL_TRUE, 0, n, dmasrc.ptr, 0, NULL, &ev)
                            : clEnqueueReadBuffer(qp, devb.mem, CL_TRUE, 0, n, dmasrc.ptr, 0, NULL, &ev);
                    if (err != CL_SUCCESS) return die("DMA", err);
                    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
                    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
                    td1[r] = b > a ? (double)(b - a) * 1e-9 : 1e-9;
                    clReleaseEvent(ev);
                    err = w ? clEnqueueWriteBuffer(qp, devb.mem, CL_FALSE, 0, n, dmasrc.ptr, 0, NULL, &ev)
                            : clEnqueueReadBuffer(qp, devb.mem, CL_FALSE, 0, n, dmasrc.ptr, 0, NULL, &ev);
                    if (err != CL_SUCCESS) return die("DMA", err);
                    clFlush(qp);
                    s = bench_now();
                    slot_copy(&c, (char *)slots_mem.ptr, slot, nslots, (char *)pageable, n, w, 0);
                    tc[r] = bench_now() - s;
                    clWaitForEvents(1, &ev);
                    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
                    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
                    td[r] = b > a ? (double)(b - a) * 1e-9 : 1e-9;
                    clReleaseEvent(ev);
                }
                copiers_stop(&c);
                {
                    double gc1 = (double)n / bench_median(tc1, (size_t)rounds) / 1e9;
                    double gc = (double)n / bench_median(tc, (size_t)rounds) / 1e9;
                    double gd1 = (double)n / bench_median(td1, (size_t)rounds) / 1e9;
                    double gd = (double)n / bench_median(td, (size_t)rounds) / 1e9;
                    printf("%-8s %-5s %3d %10.2f %10.2f %10.2f %10.2f %10.2f\n", human(n, hb, sizeof hb),
                           w ? "write" : "read", T, gc1, gc, gd1, gd, gc < gd ? gc : gd);
                }
                fflush(stdout);
            }
    }

    /* ---- registered host memory ---- */
    if (!only || !strcmp(only, "registered")) {
        printf("\n== registered host memory (clmem_host_registration over the pageable array; host writes one byte "
               "per page between transfers, device bytes checked; GB/s, medians of %d)\n", rounds);
        printf("%-8s %-5s %10s %10s %10s %10s %10s %9s %9s\n", "size", "dir", "register", "registered", "copy-only",
               "coherence", "release", "reg/pin", "reg/pag");
        for (si = 0; si < nsizes; ++si) {
            clmem_host_registration rg;
            double t_reg, t_rel, tr[2][64], tcopy[2][64], tcoh[2][64];
            int r, bad = 0;
            char hb[32];
            n = sizes[si];
            {
                double s = bench_now();
                rg = clmem_host_registration_create(ctx, pageable, n, &err);
                t_reg = bench_now() - s;
            }
            if (err != CL_SUCCESS) return die("clmem_host_registration_create", err);
            for (r = -1; r < rounds && r < 64; ++r) {
                unsigned char v = (unsigned char)(r * 37 + 11), got[3] = {0, 0, 0};
                size_t k, at[3] = {0, n / 2, n - 1};
                double s;
                void *p;
                /* host -> device, the host having written the array */
                for (k = 0; k < n; k += 4096) pageable[k] = v;
                pageable[n - 1] = v;
                s = bench_now();
                err = clmem_enqueue_copy(q, devb, (const void *)pageable, .byte_count = n);
                if (err != CL_SUCCESS) return die("registered write", err);
                if (r >= 0) tr[0][r] = bench_now() - s;
                for (k = 0; k < 3; ++k) clEnqueueReadBuffer(q, devb.mem, CL_TRUE, at[k], 1, &got[k], 0, NULL, NULL);
                if (got[0] != v || got[1] != pageable[n / 2] || got[2] != v) bad = 1;
                /* device -> host, over what the host wrote */
                v = (unsigned char)(v + 1);
                clEnqueueFillBuffer(q, devb.mem, &v, 1, 0, n, 0, NULL, NULL);
                clFinish(q);
                s = bench_now();
                err = clmem_enqueue_copy(q, (void *)pageable, devb, .byte_count = n);
                if (err != CL_SUCCESS) return die("registered read", err);
                if (r >= 0) tr[1][r] = bench_now() - s;
                if (pageable[0] != v || pageable[n / 2] != v || pageable[n - 1] != v) bad = 1;
                /* the bound: the copy alone, without the coherence maps */
                s = bench_now();
                clEnqueueCopyBuffer(q, rg.buffer.mem, devb.mem, 0, 0, n, 0, NULL, NULL);
                clFinish(q);
                if (r >= 0) tcopy[0][r] = bench_now() - s;
                s = bench_now();
                clEnqueueCopyBuffer(q, devb.mem, rg.buffer.mem, 0, 0, n, 0, NULL, NULL);
                clFinish(q);
                if (r >= 0) tcopy[1][r] = bench_now() - s;
                /* the coherence alone: map and unmap of the range, each kind */
                s = bench_now();
                p = clEnqueueMapBuffer(q, rg.buffer.mem, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, n, 0, NULL, NULL,
                                       &err);
                if (err == CL_SUCCESS) clEnqueueUnmapMemObject(q, rg.buffer.mem, p, 0, NULL, NULL);
                clFinish(q);
                if (r >= 0) tcoh[0][r] = bench_now() - s;
                s = bench_now();
                p = clEnqueueMapBuffer(q, rg.buffer.mem, CL_FALSE, CL_MAP_READ, 0, n, 0, NULL, NULL, &err);
                if (err == CL_SUCCESS) clEnqueueUnmapMemObject(q, rg.buffer.mem, p, 0, NULL, NULL);
                clFinish(q);
                if (r >= 0) tcoh[1][r] = bench_now() - s;
            }
            {
                double s = bench_now();
                err = clmem_host_registration_release(&rg);
                clFinish(q);
                t_rel = bench_now() - s;
            }
            if (err != CL_SUCCESS) return die("clmem_host_registration_release", err);
            for (dir = 0; dir < 2; ++dir) {
                double g = (double)n / bench_median(tr[dir], (size_t)rounds) / 1e9;
                double gc = (double)n / bench_median(tcopy[dir], (size_t)rounds) / 1e9;
                double coh = bench_median(tcoh[dir], (size_t)rounds);
                reg[si][dir] = g;
                printf("%-8s %-5s %8.2fms %10.2f %10.2f %8.2fms %8.2fms %9.2f %9.2f%s\n", human(n, hb, sizeof hb),
                       dir == 0 ? "write" : "read", t_reg * 1e3, g, gc, coh * 1e3, t_rel * 1e3,
                       pin[si][dir] > 0 ? g / pin[si][dir] : 0.0, pag[si][dir] > 0 ? g / pag[si][dir] : 0.0,
                       bad ? "  BYTES WRONG" : "");
            }
            fflush(stdout);
            if (bad) {
                fprintf(stderr, "pageable_bench: registered transfers moved wrong bytes at %zu\n", n);
                return 1;
            }
        }
    }

    /* ---- the bars ---- */
    if (!only) {
        printf("\n== bars: staged / ceiling (>= 0.9 from 64 MiB), registered / raw pinned (>= 0.9 from 16 MiB)\n");
        printf("%-8s %-5s %10s %10s %4s %10s %10s %10s %10s\n", "size", "dir", "staged", "ceiling", "T", "stg/ceil",
               "registered", "pinned", "reg/pin");
        for (si = 0; si < nsizes; ++si)
            for (dir = 0; dir < 2; ++dir) {
                char hb[32];
                printf("%-8s %-5s %10.2f %10.2f %4d %10.2f %10.2f %10.2f %10.2f\n", human(sizes[si], hb, sizeof hb),
                       dir == 0 ? "write" : "read", staged[si][dir], ceil_best[si][dir], ceilT[si][dir],
                       ceil_best[si][dir] > 0 ? staged[si][dir] / ceil_best[si][dir] : 0.0, reg[si][dir],
                       pin[si][dir], pin[si][dir] > 0 ? reg[si][dir] / pin[si][dir] : 0.0);
            }
    }
    if (data_path) {
        FILE *f = fopen(data_path, "w");
        if (!f) {
            fprintf(stderr, "pageable_bench: cannot write %s\n", data_path);
            return 1;
        }
        fprintf(f, "# pageable_bench: %s (%s); stager %u x %zu KiB\n", name, platform, nslots, slot >> 10);
        fprintf(f, "# bytes  write: pageable pinned ceiling staged registered  read: pageable pinned ceiling staged "
                   "registered   (GB/s, medians)\n");
        for (si = 0; si < nsizes; ++si)
            fprintf(f, "%zu  %.4f %.4f %.4f %.4f %.4f  %.4f %.4f %.4f %.4f %.4f\n", sizes[si], pag[si][0], pin[si][0],
                    ceil_best[si][0], staged[si][0], reg[si][0], pag[si][1], pin[si][1], ceil_best[si][1],
                    staged[si][1], reg[si][1]);
        fclose(f);
    }
    clmem_pinned_allocation_release(&dmasrc);
    clmem_pinned_allocation_release(&slots_mem);
    clmem_pinned_allocation_release(&pinned);
    clmem_buffer_release(&devb);
    free(pageable);
    clReleaseCommandQueue(qp);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
