/* multidev_bench.c - device 0 -> device 1 copy bandwidth in one context of two
   devices, through clmem and through the raw OpenCL calls, in the same run.

   Build: cc -std=c11 -O2 -I. bench/multidev_bench.c -o multidev_bench -lOpenCL
   Run:   CLMEM_TEST=nvidia:0+1 ./multidev_bench [--data FILE] [SIZE ...]    (MiB, or KiB as 256K; default 16 256)
          --data FILE: per size, GB/s of the driver's copy, the link's round trips, one
          link copy, streamed link copies and pinned host -> device 1, as columns for
          bench/pinned_plot.sh's device -> device panel.
          Without CLMEM_TEST: the first platform with two devices, both in one context.
          bench/multidev_bench.sh runs it (and the multidev tests) on prebuilt binaries.

   What moves, per size (medians of 7 batches of round trips, each round trip two
   moves of the whole buffer, one each way, ordered by events only; a batch has 2 to
   64 round trips, as many as take about 50 ms):
   - migrate: a one-work-item kernel writes byte 0 on the device that holds the
     buffer (so that its copy is the only valid one), then the buffer migrates to
     the other device (clEnqueueMigrateMemObjects / clmem_enqueue_migrate_mem_objects)
     waiting for that kernel's event. Time per move includes the tiny kernel.
   - copy: buffer a (last written on device 0) is copied into c on device 1's queue,
     then c back into a on device 0's queue, each waiting for the other's event
     (clEnqueueCopyBuffer / clmem_enqueue_copy). Each copy reads a buffer last
     written by the other device.
   - local copy on device 0 (raw only): the same copy with both buffers on one
     device, for reference.
   - device link: the copy round trips through two clmem_device_links (0 -> 1 and
     1 -> 0), staged through pinned slots from the links' threshold on
     (CLMEM_LINK_THRESHOLD_ZERO=1 stages every size), against the raw copy.
   - device link streamed: STREAM (8) link copies 0 -> 1 enqueued back to back, then
     waited for: time per copy, where one copy's first read overlaps the last writes of
     the copy before it (a program that moves buffer after buffer).
   - device link, no host access: the one-copy and streamed rows for buffers made
     with CL_MEM_HOST_NO_ACCESS (staged: through the links' device-side scratch
     buffers, or by copies, see below).
   - CLMEM_BENCH_LINK_STAGING=copies: the links move every piece with
     clEnqueueCopyBuffer into and out of the slots' buffers
     (clmem_device_link_set_staging(l, CLMEM_DEVICE_LINK_BY_COPIES)) instead of host
     transfers from and to the mapped slots (unset, or =transfers: the default).
   - pinned host -> device 1 and device 0 -> pinned host: blocking raw transfers from
     and to one pinned allocation, the bound a staged copy can reach; and 8 writes to
     device 1 enqueued back to back, then waited for, the bound of the streamed link.
   GB/s = bytes of the buffer / seconds per move (1 GB = 1e9 bytes). The clmem/raw
   column is the ratio of the bandwidths (1.00: no difference). raw and clmem batches
   alternate so that drift affects both alike. The contents are checked after each
   variant; a mismatch is reported and the exit code is 1. */
#define _POSIX_C_SOURCE 199309L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

enum { REPS = 7, MAXSIZES = 12, STREAM = 8 };

/* round trips per batch: set per size so that a batch takes about 50 ms (2..64) */
static int PINGPONG = 2;

#include "bench.h"

static int rounds_for(double seconds_per_move) {
    double r = seconds_per_move > 0 ? 0.05 / (2.0 * seconds_per_move) : 64;
    return r < 2 ? 2 : r > 64 ? 64 : (int)r;
}

static const char touch_src[] = "__kernel void touch(__global uchar *b) { b[0] = (uchar)(b[0] + 1); }\n";

typedef struct bench {
    cl_context ctx;
    cl_command_queue q[2];
    cl_device_id dev[2];
    cl_kernel touch[2]; /* one kernel object per queue, so args never race */
    clmem_device_link *link[2]; /* link[0]: queue 0 -> queue 1; link[1]: queue 1 -> queue 0 */
    int failed;
} bench;

static void chain_release(cl_event *e) {
    if (*e) clReleaseEvent(*e);
    *e = NULL;
}

/* migrate round trips: touch on the holder, move to the other device; twice per trip */
static double migrate_batch(bench *B, clmem_buffer b, int use_clmem) {
    cl_event prev = NULL, touched = NULL, moved = NULL;
    size_t one = 1;
    double t0 = bench_now();
    int i, side;
    for (i = 0; i < PINGPONG; ++i) {
        for (side = 0; side < 2; ++side) {
            int from = side, to = 1 - side;
            cl_int e1, e2;
            e1 = clEnqueueNDRangeKernel(B->q[from], B->touch[from], 1, NULL, &one, NULL, prev ? 1 : 0, prev ? &prev : NULL,
                                        &touched);
            if (use_clmem)
                e2 = clmem_enqueue_migrate_mem_objects(B->q[to], &b.mem, 1, 0, CLMEM_WAIT_FOR(touched), .event = &moved);
            else
                e2 = clEnqueueMigrateMemObjects(B->q[to], 1, &b.mem, 0, 1, &touched, &moved);
            if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) {
                fprintf(stderr, "migrate: %s / %s: %s\n", clmem_error_string(e1), clmem_error_string(e2),
                        clmem_last_error_message());
                B->failed = 1;
            }
            chain_release(&prev);
            chain_release(&touched);
            prev = moved;
            moved = NULL;
        }
    }
    if (prev) clWaitForEvents(1, &prev);
    chain_release(&prev);
    clFinish(B->q[0]);
    clFinish(B->q[1]);
    return (bench_now() - t0) / (2.0 * PINGPONG);
}

/* copy round trips: a -> c on device 1's queue, c -> a on device 0's queue. With
   same_device both run on device 0's queue (the local reference). use_clmem: 0 raw
   clEnqueueCopyBuffer, 1 clmem_enqueue_copy, 2 clmem_device_link_copy (staged). */
static double copy_batch(bench *B, clmem_buffer a, clmem_buffer c, int use_clmem, int same_device) {
    cl_event prev = NULL, done = NULL;
    double t0 = bench_now();
    int i, side;
    for (i = 0; i < PINGPONG; ++i) {
        for (side = 0; side < 2; ++side) {
            cl_command_queue q = same_device ? B->q[0] : B->q[1 - side];
            clmem_buffer dst = side == 0 ? c : a, src = side == 0 ? a : c;
            cl_int e;
            if (use_clmem == 2)
                e = prev ? clmem_device_link_copy(B->link[side], dst, src, CLMEM_WAIT_FOR(prev), .event = &done)
                         : clmem_device_link_copy(B->link[side], dst, src, .event = &done);
            else if (use_clmem)
                e = prev ? clmem_enqueue_copy(q, dst, src, CLMEM_WAIT_FOR(prev), .event = &done)
                         : clmem_enqueue_copy(q, dst, src, .event = &done);
            else
                e = clEnqueueCopyBuffer(q, src.mem, dst.mem, 0, 0, src.size, prev ? 1 : 0, prev ? &prev : NULL, &done);
            if (e != CL_SUCCESS) {
                fprintf(stderr, "copy: %s: %s\n", clmem_error_string(e), clmem_last_error_message());
                B->failed = 1;
            }
            chain_release(&prev);
            prev = done;
            done = NULL;
        }
    }
    if (prev) clWaitForEvents(1, &prev);
    chain_release(&prev);
    clFinish(B->q[0]);
    clFinish(B->q[1]);
    return (bench_now() - t0) / (2.0 * PINGPONG);
}

/* Bare-call pipelines device 0 -> device 1 through `slots` pinned slots of `piece`
   bytes, for the link's design (CLMEM_BENCH_RAW_PIPELINES=1): seconds for one blocking
   copy of n bytes. chained: read j waits for the write that last used its slot, write
   j for read j, all on the devices' queues (what a link does). paced: the calling thread
   waits for read j, then enqueues write j without a wait list, and waits for write j-1
   before reading into its slot: no command waits for an event of the other device. */
enum { RAW_MAX_SLOTS = 8 };
static double raw_pipeline(bench *B, cl_mem dst, cl_mem src, size_t n, void *const *slot, unsigned slots, size_t piece,
                           int paced) {
    cl_event rd[RAW_MAX_SLOTS] = {NULL}, wr[RAW_MAX_SLOTS] = {NULL};
    size_t np = (n + piece - 1) / piece, j, k;
    double t0 = bench_now();
    cl_int e = CL_SUCCESS;
#define RAW_LEN(i) ((i) + 1 < np ? piece : n - (i) * piece)
    if (!paced) {
        for (j = 0; j < np; ++j) {
            unsigned s = (unsigned)(j % slots);
            cl_event r = NULL, w = NULL;
            e |= clEnqueueReadBuffer(B->q[0], src, CL_FALSE, j * piece, RAW_LEN(j), slot[s], wr[s] ? 1 : 0,
                                     wr[s] ? &wr[s] : NULL, &r);
            e |= clEnqueueWriteBuffer(B->q[1], dst, CL_FALSE, j * piece, RAW_LEN(j), slot[s], 1, &r, &w);
            clReleaseEvent(r);
            chain_release(&wr[s]);
            wr[s] = w;
            clFlush(B->q[0]);
            clFlush(B->q[1]);
        }
    } else {
        for (j = 0; j < np && j < slots; ++j)
            e |= clEnqueueReadBuffer(B->q[0], src, CL_FALSE, j * piece, RAW_LEN(j), slot[j], 0, NULL, &rd[j]);
        clFlush(B->q[0]);
        for (k = 0; k < np; ++k) {
            unsigned s = (unsigned)(k % slots), ps = (unsigned)((k + slots - 1) % slots);
            clWaitForEvents(1, &rd[s]);
            chain_release(&rd[s]);
            e |= clEnqueueWriteBuffer(B->q[1], dst, CL_FALSE, k * piece, RAW_LEN(k), slot[s], 0, NULL, &wr[s]);
            clFlush(B->q[1]);
            if (k == 0) continue;
            clWaitForEvents(1, &wr[ps]);
            chain_release(&wr[ps]);
            if ((j = k - 1 + slots) < np) {
                e |= clEnqueueReadBuffer(B->q[0], src, CL_FALSE, j * piece, RAW_LEN(j), slot[ps], 0, NULL, &rd[ps]);
                clFlush(B->q[0]);
            }
        }
    }
#undef RAW_LEN
    for (j = 0; j < slots; ++j) {
        if (wr[j]) clWaitForEvents(1, &wr[j]);
        chain_release(&wr[j]);
        chain_release(&rd[j]);
    }
    if (e != CL_SUCCESS) B->failed = 1;
    return bench_now() - t0;
}

/* both DMA directions at once, bare calls: device 0 -> pinned a while pinned b ->
   device 1, n bytes each; seconds until both are done (the bound of any staged copy) */
static double raw_both_ways(bench *B, cl_mem dst, cl_mem src, size_t n, void *a, void *b) {
    double t0 = bench_now();
    cl_int e = clEnqueueReadBuffer(B->q[0], src, CL_FALSE, 0, n, a, 0, NULL, NULL);
    e |= clEnqueueWriteBuffer(B->q[1], dst, CL_FALSE, 0, n, b, 0, NULL, NULL);
    clFlush(B->q[0]);
    clFlush(B->q[1]);
    clFinish(B->q[0]);
    clFinish(B->q[1]);
    if (e != CL_SUCCESS) B->failed = 1;
    return bench_now() - t0;
}

/* pinned host memory <-> one device, blocking, seconds per transfer (the bound a
   staged copy between the devices can reach: the slower of the two directions) */
static double pinned_batch(bench *B, clmem_buffer buf, void *pinned, int dev, int write) {
    double t0 = bench_now();
    int i;
    for (i = 0; i < PINGPONG; ++i) {
        cl_int e = write ? clEnqueueWriteBuffer(B->q[dev], buf.mem, CL_TRUE, 0, buf.size, pinned, 0, NULL, NULL)
                         : clEnqueueReadBuffer(B->q[dev], buf.mem, CL_TRUE, 0, buf.size, pinned, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            fprintf(stderr, "pinned: %s\n", clmem_error_string(e));
            B->failed = 1;
        }
    }
    return (bench_now() - t0) / PINGPONG;
}

static int check(bench *B, const char *what, clmem_buffer b, const unsigned char *want, size_t n, size_t skip_first) {
    unsigned char *got = (unsigned char *)malloc(n);
    size_t i;
    int ok = 1;
    if (!got || clmem_enqueue_copy(B->q[1], got, b, .byte_count = n) != CL_SUCCESS) {
        fprintf(stderr, "%s: read back failed: %s\n", what, clmem_last_error_message());
        ok = 0;
    }
    for (i = skip_first; ok && i < n; ++i)
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: byte %zu is %u, expected %u\n", what, i, got[i], want[i]);
            ok = 0;
        }
    free(got);
    if (!ok) B->failed = 1;
    return ok;
}

/* a size as the rows print it: "256 KiB", "16 MiB" */
static const char *size_text(size_t n) {
    static char buf[32];
    if (n % ((size_t)1 << 20)) snprintf(buf, sizeof buf, "%zu KiB", n >> 10);
    else snprintf(buf, sizeof buf, "%zu MiB", n >> 20);
    return buf;
}

static void row(const char *what, double raw_s, double clmem_s, size_t n) {
    double raw_gbs = (double)n / raw_s / 1e9;
    if (clmem_s > 0) {
        double clmem_gbs = (double)n / clmem_s / 1e9;
        printf("%10s  %-34s %9.2f  %10.2f  %9.3f\n", size_text(n), what, raw_gbs, clmem_gbs, clmem_gbs / raw_gbs);
    } else {
        printf("%10s  %-34s %9.2f  %10s  %9s\n", size_text(n), what, raw_gbs, "-", "-");
    }
}

/* GB/s of a move of n bytes taking s seconds; NaN for a figure not measured */
static double gbps(double s, size_t n) { return s > 0 ? (double)n / s / 1e9 : NAN; }

/* the devices: the first group of 2+ devices CLMEM_TEST selects, or without
   CLMEM_TEST the first platform with 2+ devices ("i:*") */
static int pick(clmem_test_device out[2]) {
    clmem_test_device d[64];
    size_t n = 0, i;
    char spec[256] = "";
    cl_uint np = 0, p;
    const char *env = getenv("CLMEM_TEST") ? getenv("CLMEM_TEST") : getenv("PYOPENCL_TEST");
    if (!env) {
        if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS) np = 0;
        for (p = 0; p < np && p < 16; ++p) {
            size_t used = strlen(spec);
            snprintf(spec + used, sizeof spec - used, "%s%u:*", p ? ";" : "", p);
        }
    }
    if (clmem_get_test_platforms_and_devices(env ? NULL : spec, d, 64, &n) != CL_SUCCESS) {
        fprintf(stderr, "multidev_bench: cannot select devices: %s\n", clmem_last_error_message());
        return 0;
    }
    if (n > 64) n = 64;
    for (i = 0; i + 1 < n; ++i)
        if (d[i].group == d[i + 1].group) {
            out[0] = d[i];
            out[1] = d[i + 1];
            return 1;
        }
    fprintf(stderr, "multidev_bench: no context of 2 devices selected (CLMEM_TEST=PLATFORM:0+1; PoCL: "
                    "POCL_DEVICES=\"pthread pthread\")\n");
    return 0;
}

int main(int argc, char **argv) {
    bench B;
    FILE *data = NULL;
    clmem_test_device picked[2];
    size_t sizes[MAXSIZES] = {(size_t)16 << 20, (size_t)256 << 20}, nsizes = 2, s;
    char name[2][128], pname[128] = {0};
    cl_int err;
    cl_program prog = NULL;
    const char *src = touch_src;
    int i, link_only = getenv("CLMEM_BENCH_LINK_ONLY") != NULL; /* only the link's one-way and pinned rows */
    /* CLMEM_BENCH_LINK_STAGING=copies: the links move pieces by clEnqueueCopyBuffer
       through the slots' buffers (clmem_device_link_set_staging); unset or transfers:
       the default, host transfers from and to the mapped slots */
    const char *staging_env = getenv("CLMEM_BENCH_LINK_STAGING");
    clmem_device_link_staging staging = CLMEM_DEVICE_LINK_BY_TRANSFERS;
    memset(&B, 0, sizeof B);
    if (staging_env && !strcmp(staging_env, "copies")) staging = CLMEM_DEVICE_LINK_BY_COPIES;
    else if (staging_env && *staging_env && strcmp(staging_env, "transfers")) {
        fprintf(stderr, "multidev_bench: CLMEM_BENCH_LINK_STAGING=%s: 'transfers' or 'copies'\n", staging_env);
        return 1;
    }
    if (argc > 2 && !strcmp(argv[1], "--data")) {
        data = fopen(argv[2], "w");
        if (!data) {
            fprintf(stderr, "multidev_bench: cannot write %s\n", argv[2]);
            return 1;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc > 1) {
        nsizes = 0;
        for (i = 1; i < argc && nsizes < MAXSIZES; ++i) { /* MiB, or KiB with a K: 16, 256K */
            char *end = NULL;
            size_t v = (size_t)strtoul(argv[i], &end, 10);
            sizes[nsizes++] = end && (*end == 'K' || *end == 'k') ? v << 10 : v << 20;
        }
    }
    if (!pick(picked)) return 1;
    B.dev[0] = picked[0].device;
    B.dev[1] = picked[1].device;
    for (i = 0; i < 2; ++i) {
        memset(name[i], 0, sizeof name[i]);
        clGetDeviceInfo(B.dev[i], CL_DEVICE_NAME, sizeof name[i] - 1, name[i], NULL);
    }
    clGetPlatformInfo(picked[0].platform, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    B.ctx = clCreateContext(NULL, 2, B.dev, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateContext: %s\n", clmem_error_string(err));
        return 1;
    }
    for (i = 0; i < 2 && err == CL_SUCCESS; ++i) {
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
        B.q[i] = clCreateCommandQueue(B.ctx, B.dev[i], 0, &err);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    }
    prog = err == CL_SUCCESS ? clCreateProgramWithSource(B.ctx, 1, &src, NULL, &err) : NULL;
    if (err == CL_SUCCESS) err = clBuildProgram(prog, 2, B.dev, "", NULL, NULL);
    for (i = 0; i < 2 && err == CL_SUCCESS; ++i) B.touch[i] = clCreateKernel(prog, "touch", &err);
    if (prog) clReleaseProgram(prog);
    for (i = 0; i < 2 && err == CL_SUCCESS; ++i) {
        const char *mib = getenv("CLMEM_LINK_SLOT_MIB"), *ns = getenv("CLMEM_LINK_SLOTS");
        B.link[i] = clmem_device_link_create(B.q[i], B.q[1 - i], mib ? (size_t)atoi(mib) << 20 : 0,
                                             ns ? (unsigned)atoi(ns) : 0, &err);
        if (err == CL_SUCCESS && getenv("CLMEM_LINK_THRESHOLD_ZERO")) clmem_device_link_set_threshold(B.link[i], 0);
        if (err == CL_SUCCESS && staging == CLMEM_DEVICE_LINK_BY_COPIES)
            err = clmem_device_link_set_staging(B.link[i], staging);
    }
    if (err != CL_SUCCESS) {
        fprintf(stderr, "setup: %s\n", clmem_error_string(err));
        return 1;
    }
    printf("multidev_bench: one context of [0] %s and [1] %s on %s; links stage by %s\n", name[0], name[1], pname,
           staging == CLMEM_DEVICE_LINK_BY_COPIES ? "copies (CLMEM_BENCH_LINK_STAGING=copies)" : "transfers");
    if (data)
        fprintf(data, "# multidev_bench: [0] %s -> [1] %s on %s\n# bytes driver_copy link_round_trip link_one_copy "
                      "link_streamed pinned_host_to_dev1 (GB/s)\n", name[0], name[1], pname);
    printf("medians of %d batches of 2..64 round trips (2 moves each, ~50 ms a batch); GB/s per move, 1 GB = 1e9 bytes\n",
           REPS);
    printf("%10s  %-34s %9s  %10s  %9s\n", "size", "what", "raw GB/s", "clmem GB/s", "clmem/raw");

    for (s = 0; s < nsizes; ++s) {
        size_t n = sizes[s], k;
        unsigned char *pattern = (unsigned char *)malloc(n);
        clmem_buffer a = CLMEM__ZERO, b = CLMEM__ZERO, c = CLMEM__ZERO, d = CLMEM__ZERO, e = CLMEM__ZERO;
        double raw[REPS], cl[REPS], loc[REPS], mraw, mcl = 0, mone = 0, mstream = 0, mdriver = 0, mw = 0;
        int r;
        unsigned x = 12345u;
        if (!pattern || n == 0) {
            fprintf(stderr, "size %s: skipped\n", size_text(sizes[s]));
            free(pattern);
            continue;
        }
        for (k = 0; k < n; ++k) {
            x = x * 1103515245u + 12345u;
            pattern[k] = (unsigned char)(x >> 16);
        }
        a = clmem_buffer_create(B.ctx, CL_MEM_READ_WRITE, n, NULL, &err);
        if (err == CL_SUCCESS) b = clmem_buffer_create(B.ctx, CL_MEM_READ_WRITE, n, NULL, &err);
        if (err == CL_SUCCESS) c = clmem_buffer_create(B.ctx, CL_MEM_READ_WRITE, n, NULL, &err);
        if (err == CL_SUCCESS) d = clmem_buffer_create(B.ctx, CL_MEM_READ_WRITE, n, NULL, &err);
        if (err == CL_SUCCESS) e = clmem_buffer_create(B.ctx, CL_MEM_READ_WRITE, n, NULL, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "size %s: %s\n", size_text(sizes[s]), clmem_last_error_message());
            free(pattern);
            return 1;
        }
        if (!link_only) {
            /* migrate */
            clmem_enqueue_copy(B.q[0], b, (const void *)pattern);
            for (i = 0; i < 2; ++i) clSetKernelArg(B.touch[i], 0, sizeof b.mem, &b.mem);
            PINGPONG = 2;
            migrate_batch(&B, b, 0); /* warm-up: both devices have allocated it */
            PINGPONG = rounds_for(migrate_batch(&B, b, 1));
            for (r = 0; r < REPS; ++r) {
                raw[r] = migrate_batch(&B, b, 0);
                cl[r] = migrate_batch(&B, b, 1);
            }
            mraw = bench_median(raw, (size_t)(REPS));
            mcl = bench_median(cl, (size_t)(REPS));
            row("migrate 0 <-> 1 (+1-item kernel)", mraw, mcl, n);
            printf("%10s  (%d round trips a batch)\n", "", PINGPONG);
            check(&B, "migrate", b, pattern, n, 1); /* byte 0 counts the kernels */

            /* copy between the devices' queues */
            clmem_enqueue_copy(B.q[0], a, (const void *)pattern);
            PINGPONG = 2;
            copy_batch(&B, a, c, 0, 0);
            PINGPONG = rounds_for(copy_batch(&B, a, c, 1, 0));
            for (r = 0; r < REPS; ++r) {
                raw[r] = copy_batch(&B, a, c, 0, 0);
                cl[r] = copy_batch(&B, a, c, 1, 0);
                loc[r] = copy_batch(&B, a, c, 0, 1);
            }
            mraw = bench_median(raw, (size_t)(REPS));
            mcl = bench_median(cl, (size_t)(REPS));
            mdriver = mraw;
            row("copy, queue 1 <-> queue 0, events", mraw, mcl, n);
            row("copy on device 0 only (reference)", bench_median(loc, (size_t)(REPS)), 0, n);
            check(&B, "copy", a, pattern, n, 0);
            check(&B, "copy", c, pattern, n, 0);

            /* the same round trips through device links (staged from their threshold on),
               on buffers e (device 0) and d (device 1) that no raw copy touches: NVIDIA's
               clEnqueueCopyBuffer between the devices moves its source to the other
               device, and the next access from the first device pays for moving it back */
            clmem_enqueue_copy(B.q[0], e, (const void *)pattern);
            clmem_enqueue_fill(B.q[1], d, (cl_uchar)0, n);
            clFinish(B.q[0]);
            clFinish(B.q[1]);
            PINGPONG = 2;
            copy_batch(&B, e, d, 2, 0);
            check(&B, "device link", d, pattern, n, 0);
            PINGPONG = rounds_for(copy_batch(&B, e, d, 2, 0));
            for (r = 0; r < REPS; ++r) {
                raw[r] = copy_batch(&B, a, c, 0, 0);
                cl[r] = copy_batch(&B, e, d, 2, 0);
            }
            mraw = bench_median(raw, (size_t)(REPS));
            mcl = bench_median(cl, (size_t)(REPS));
            row("device link 0 <-> 1 (vs raw copy)", mraw, mcl, n);
            {
                clmem_device_link_stats ls = CLMEM__ZERO;
                clmem_device_link_get_stats(B.link[0], &ls);
                printf("%10s  (link 0->1 so far: %zu staged, %zu direct; threshold %zu bytes)\n", "", ls.staged_copies,
                       ls.direct_copies, clmem_device_link_threshold(B.link[0]));
            }
            check(&B, "device link", e, pattern, n, 0);
            check(&B, "device link", d, pattern, n, 0);
        }
        {   /* one direction only: back-to-back link copies a -> c, each timed alone */
            double one[REPS];
            if (link_only) clmem_enqueue_copy(B.q[0], e, (const void *)pattern);
            for (r = 0; r < REPS; ++r) {
                double t0 = bench_now();
                if (clmem_device_link_copy(B.link[0], d, e, .is_blocking = true) != CL_SUCCESS) B.failed = 1;
                one[r] = bench_now() - t0;
            }
            mone = bench_median(one, (size_t)REPS);
            row("device link 0 -> 1, one copy", mone, 0, n);
            for (r = 0; r < REPS; ++r) { /* STREAM copies enqueued back to back, then waited for */
                double t0 = bench_now();
                for (k = 0; k < STREAM; ++k)
                    if (clmem_device_link_copy(B.link[0], d, e) != CL_SUCCESS) B.failed = 1;
                clFinish(B.q[1]);
                one[r] = (bench_now() - t0) / STREAM;
            }
            mstream = bench_median(one, (size_t)REPS);
            row("device link 0 -> 1, streamed", mstream, 0, n);
            check(&B, "device link, streamed", d, pattern, n, 0);
        }
        {   /* the same one-way copies of device-only buffers (CL_MEM_HOST_NO_ACCESS) */
            clmem_buffer f = clmem_buffer_create(B.ctx, CL_MEM_HOST_NO_ACCESS, n, NULL, &err), g = CLMEM__ZERO;
            clmem_device_link_stats ls0 = CLMEM__ZERO, ls1 = CLMEM__ZERO;
            double one[REPS];
            if (err == CL_SUCCESS) g = clmem_buffer_create(B.ctx, CL_MEM_HOST_NO_ACCESS, n, NULL, &err);
            if (err == CL_SUCCESS) err = clmem_enqueue_copy(B.q[0], f, e);
            if (err == CL_SUCCESS) err = clFinish(B.q[0]);
            clmem_device_link_get_stats(B.link[0], &ls0);
            for (r = 0; r < REPS && err == CL_SUCCESS; ++r) {
                double t0 = bench_now();
                if (clmem_device_link_copy(B.link[0], g, f, .is_blocking = true) != CL_SUCCESS) B.failed = 1;
                one[r] = bench_now() - t0;
            }
            if (err == CL_SUCCESS) {
                row("no host access: link 0->1, one copy", bench_median(one, (size_t)REPS), 0, n);
                for (r = 0; r < REPS; ++r) {
                    double t0 = bench_now();
                    for (k = 0; k < STREAM; ++k)
                        if (clmem_device_link_copy(B.link[0], g, f) != CL_SUCCESS) B.failed = 1;
                    clFinish(B.q[1]);
                    one[r] = (bench_now() - t0) / STREAM;
                }
                row("no host access: link 0->1, streamed", bench_median(one, (size_t)REPS), 0, n);
                clmem_device_link_get_stats(B.link[0], &ls1);
                printf("%10s  (no host access: %zu staged, %zu direct, %zu of %zu pieces copied)\n", "",
                       ls1.staged_copies - ls0.staged_copies, ls1.direct_copies - ls0.direct_copies,
                       ls1.copied_pieces - ls0.copied_pieces, ls1.pieces - ls0.pieces);
                clmem_enqueue_fill(B.q[1], d, (cl_uchar)0, n);
                clmem_enqueue_copy(B.q[1], d, g);
                clFinish(B.q[1]);
                check(&B, "device link, no host access", d, pattern, n, 0);
            } else {
                fprintf(stderr, "size %s: no host access: %s\n", size_text(sizes[s]), clmem_last_error_message());
                B.failed = 1;
            }
            clmem_buffer_release(&f);
            clmem_buffer_release(&g);
        }

        /* pinned host memory <-> each device: the bound of a staged copy */
        {
            clmem_pinned_allocation pin = clmem_pinned_allocation_create(B.q[0], n, 0, &err);
            double w[REPS], rd[REPS], mr, mws;
            if (err == CL_SUCCESS) {
                memcpy(pin.ptr, pattern, n);
                PINGPONG = rounds_for(pinned_batch(&B, d, pin.ptr, 1, 1));
                for (r = 0; r < REPS; ++r) {
                    w[r] = pinned_batch(&B, d, pin.ptr, 1, 1);
                    rd[r] = pinned_batch(&B, e, pin.ptr, 0, 0);
                }
                mw = bench_median(w, (size_t)REPS);
                mr = bench_median(rd, (size_t)REPS);
                for (r = 0; r < REPS; ++r) { /* STREAM writes enqueued back to back, then waited for */
                    double t0 = bench_now();
                    for (k = 0; k < STREAM; ++k)
                        if (clEnqueueWriteBuffer(B.q[1], d.mem, CL_FALSE, 0, n, pin.ptr, 0, NULL, NULL) != CL_SUCCESS)
                            B.failed = 1;
                    clFinish(B.q[1]);
                    w[r] = (bench_now() - t0) / STREAM;
                }
                mws = bench_median(w, (size_t)REPS);
                row("pinned host -> device 1 (raw)", mw, 0, n);
                row("pinned host -> device 1, streamed", mws, 0, n);
                row("device 0 -> pinned host (raw)", mr, 0, n);
                if (mcl > 0) printf("%10s  device link round trips / pinned host->device 1: %.3f\n", "", mw / mcl);
                printf("%10s  device link one copy / pinned host->device 1: %.3f\n", "", mw / mone);
                printf("%10s  device link streamed / pinned host->device 1 streamed: %.3f\n", "", mws / mstream);
                if (getenv("CLMEM_BENCH_RAW_PIPELINES")) {
                    static const size_t mib[] = {2, 4, 8, 16};
                    clmem_pinned_allocation sl[RAW_MAX_SLOTS], other;
                    void *ptrs[RAW_MAX_SLOTS];
                    unsigned ns = 4, u, m2, paced;
                    cl_int perr = CL_SUCCESS;
                    other = clmem_pinned_allocation_create(B.q[1], n, 0, &perr);
                    for (u = 0; u < ns && perr == CL_SUCCESS; ++u) {
                        sl[u] = clmem_pinned_allocation_create(B.q[0], (size_t)16 << 20, 0, &perr);
                        ptrs[u] = sl[u].ptr;
                    }
                    if (perr == CL_SUCCESS) {
                        double both;
                        for (r = 0; r < REPS; ++r) w[r] = raw_both_ways(&B, d.mem, e.mem, n, pin.ptr, other.ptr);
                        both = bench_median(w, (size_t)REPS);
                        row("both ways at once (raw, per way)", both, 0, n);
                        printf("%10s  both ways at once / pinned host->device 1: %.3f\n", "", mw / both);
                        for (paced = 0; paced < 2; ++paced)
                            for (m2 = 0; m2 < sizeof mib / sizeof mib[0]; ++m2) {
                                char label[64];
                                double mp;
                                for (r = 0; r < REPS; ++r)
                                    w[r] = raw_pipeline(&B, d.mem, e.mem, n, ptrs, ns, mib[m2] << 20, (int)paced);
                                mp = bench_median(w, (size_t)REPS);
                                snprintf(label, sizeof label, "raw %s, %u x %zu MiB", paced ? "paced" : "chained", ns,
                                         mib[m2]);
                                row(label, mp, 0, n);
                                printf("%10s  %s / pinned host->device 1: %.3f\n", "", label, mw / mp);
                            }
                        check(&B, "raw pipelines", d, pattern, n, 0);
                    }
                    for (u = 0; u < ns; ++u) clmem_pinned_allocation_release(&sl[u]);
                    clmem_pinned_allocation_release(&other);
                }
                clmem_pinned_allocation_release(&pin);
            } else {
                fprintf(stderr, "size %s: pinned: %s\n", size_text(sizes[s]), clmem_last_error_message());
            }
        }
        if (data) /* GB/s; NaN where the run did not measure it (gnuplot leaves it out) */
            fprintf(data, "%zu %.3f %.3f %.3f %.3f %.3f\n", n, gbps(mdriver, n), gbps(mcl, n), gbps(mone, n),
                    gbps(mstream, n), gbps(mw, n));
        clmem_buffer_release(&a);
        clmem_buffer_release(&b);
        clmem_buffer_release(&c);
        clmem_buffer_release(&d);
        clmem_buffer_release(&e);
        free(pattern);
    }
    for (i = 0; i < 2; ++i) {
        clmem_device_link_release(B.link[i]);
        clReleaseKernel(B.touch[i]);
        clReleaseCommandQueue(B.q[i]);
    }
    clReleaseContext(B.ctx);
    if (data) fclose(data);
    if (B.failed) printf("multidev_bench: FAILED (see above)\n");
    return B.failed ? 1 : 0;
}
