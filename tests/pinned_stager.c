/* Staged transfers (clmem_stager_*): exact bytes both directions through the slots
   (sizes that are not multiples of the slot size, offsets, sub-buffers, several
   threads), the direct path below the threshold and for registered host ranges,
   the default shape, zero bytes, events, bad input. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#if !defined(_WIN32)
#include <unistd.h> /* sysconf: the default threads */
#endif

/* One staged round trip: fill the whole buffer with a background, write `n` bytes at
   `off` through the stager, check every byte of the buffer, then read `n` bytes from
   `roff` back through the stager into a host array with guard bytes. */
static void round_trip(clmem_test_context *t, clmem_stager *st, clmem_buffer b, size_t off, size_t n, size_t roff,
                       unsigned seed) {
    unsigned char *bg = (unsigned char *)malloc(b.size), *src = (unsigned char *)malloc(n + 1),
                  *dev = (unsigned char *)malloc(b.size), *dst = (unsigned char *)malloc(n + 2);
    size_t i;
    if (!bg || !src || !dev || !dst) {
        clmem_test_fail(t, __FILE__, __LINE__, "out of host memory");
        goto out;
    }
    fill_pattern(bg, b.size, seed);
    fill_pattern(src, n, seed + 1000u);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, b.size, bg, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)src, .byte_count = n, .dst_offset = off));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, b.size, dev, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(dev, bg, off) == 0);
    CLMEM_CHECK(t, memcmp(dev + off, src, n) == 0);
    CLMEM_CHECK(t, memcmp(dev + off + n, bg + off + n, b.size - off - n) == 0);
    for (i = 0; i < n + 2; ++i) dst[i] = 0xEE;
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)(dst + 1), b, .byte_count = n, .src_offset = roff));
    CLMEM_CHECK_EQ(t, dst[0], 0xEE);
    CLMEM_CHECK_EQ(t, dst[n + 1], 0xEE);
    CLMEM_CHECK(t, memcmp(dst + 1, dev + roff, n) == 0);
out:
    free(bg);
    free(src);
    free(dev);
    free(dst);
}

/* staging forced on (threshold 0): sizes around the slot size, offsets, both ways */
static void test_staged_exact(clmem_test_context *t) {
    const size_t S = 10000; /* not a power of two, not a page multiple */
    static const size_t sizes[] = {1, 9999, 10000, 10001, 29999, 35000, 100003};
    cl_int err;
    clmem_stager *st = clmem_stager_create(t->queue, S, 3, 2, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, 120000, NULL, &err);
    clmem_stager_stats s;
    unsigned long long pieces = 0;
    size_t i;
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
    CLMEM_CHECK_EQ(t, clmem_stager_threshold(st), 0);
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        size_t n = sizes[i], off = (i * 37) % (b.size - n + 1), roff = b.size - n - (i * 11) % (b.size - n + 1);
        round_trip(t, st, b, off, n, roff, (unsigned)i);
        pieces += 2 * ((n + S - 1) / S);
    }
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.staged_copies, 2 * (sizeof sizes / sizeof sizes[0]));
    CLMEM_CHECK_EQ(t, s.direct_copies, 0);
    CLMEM_CHECK_EQ(t, s.pieces, pieces);
    CLMEM_CHECK_EQ(t, s.slot_size, S);
    CLMEM_CHECK_EQ(t, s.slots, 3);
    CLMEM_CHECK_EQ(t, s.threads, 2);
out:
    clmem_buffer_release(&b);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

/* large pieces, so that the host copies are split over the threads */
static void test_staged_threads(clmem_test_context *t) {
    const size_t S = (size_t)1 << 20, N = 5 * ((size_t)1 << 20) + 4099;
    cl_int err;
    clmem_stager *st = clmem_stager_create(t->queue, S, 2, 4, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, N + 64, NULL, &err);
    clmem_stager_stats s;
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
    round_trip(t, st, b, 3, N, 61, 5);
    round_trip(t, st, b, 64, N, 0, 6);
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.staged_copies, 4);
    CLMEM_CHECK_EQ(t, s.staged_bytes, 4 * (unsigned long long)N);
    CLMEM_CHECK_EQ(t, s.pieces, 4 * 6);
out:
    clmem_buffer_release(&b);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

/* slots of 8 MiB: a write's first pieces, a read's last, ramp 1, 2, 4 MiB (stager.h), so
   a copy takes more pieces than it has slots' worth; every byte lands, at every size
   around the ramp's edges */
static void test_staged_ramp(clmem_test_context *t) {
    const size_t M = (size_t)1 << 20, S = 8 * M;
    /* bytes, and the pieces each way: 1 MiB -> 1; 1 MiB + 1 -> 2 (1 + 1 byte); 3 MiB ->
       2; 7 MiB -> 3; 7 MiB + 1 -> 4; 15 MiB -> 4; 16 MiB + 5 -> 5 (1, 2, 4, 8, 1 MiB + 5) */
    static const size_t mib[][2] = {{1, 0}, {1, 1}, {3, 0}, {7, 0}, {7, 1}, {15, 0}, {16, 5}};
    static const unsigned long long want[] = {1, 2, 2, 3, 4, 4, 5};
    cl_int err;
    clmem_stager *st = clmem_stager_create(t->queue, S, 2, 2, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, 16 * M + 64, NULL, &err);
    clmem_stager_stats s0, s1;
    size_t i;
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
    for (i = 0; i < sizeof want / sizeof want[0]; ++i) {
        size_t n = mib[i][0] * M + mib[i][1];
        CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s0));
        round_trip(t, st, b, 7, n, 64 - 7 - (i & 1), 40u + (unsigned)i);
        CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s1));
        CLMEM_CHECK_EQ(t, s1.staged_copies - s0.staged_copies, 2);
        CLMEM_CHECK_EQ(t, s1.pieces - s0.pieces, 2 * want[i]);
    }
out:
    clmem_buffer_release(&b);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

/* the default: no staging on a CPU device; below the threshold the direct call */
static void test_threshold_and_direct(clmem_test_context *t) {
    cl_int err;
    cl_device_type type = 0;
    clmem_stager *st = clmem_stager_create(t->queue, 0, 0, 0, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, 50000, NULL, &err);
    clmem_stager_stats s;
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.slot_size, CLMEM_STAGER_DEFAULT_SLOT_SIZE);
    CLMEM_CHECK_EQ(t, s.slots, CLMEM_STAGER_DEFAULT_SLOTS);
#if !defined(_WIN32)
    { /* half the processors online, at least 1, at most CLMEM_STAGER_DEFAULT_THREADS */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        size_t want = cpus >= 2 ? (size_t)cpus / 2 : 1;
        if (want > CLMEM_STAGER_DEFAULT_THREADS) want = CLMEM_STAGER_DEFAULT_THREADS;
        CLMEM_CHECK_EQ(t, s.threads, want);
    }
#endif
    clGetDeviceInfo(t->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (type & CL_DEVICE_TYPE_CPU) CLMEM_CHECK(t, clmem_stager_threshold(st) == CLMEM_STAGER_NEVER);
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 20000));
    round_trip(t, st, b, 5, 19999, 7, 31);  /* direct, both ways */
    round_trip(t, st, b, 0, 20000, 1, 32);  /* staged, both ways */
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.direct_copies, 2);
    CLMEM_CHECK_EQ(t, s.direct_bytes, 2 * 19999);
    CLMEM_CHECK_EQ(t, s.staged_copies, 2);
    CLMEM_CHECK_EQ(t, s.staged_bytes, 2 * 20000);
    CLMEM_CHECK_EQ(t, s.pieces, 2);
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, CLMEM_STAGER_NEVER));
    round_trip(t, st, b, 0, 50000, 0, 33);
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.direct_copies, 4);
    CLMEM_CHECK_EQ(t, s.staged_copies, 2);
    /* byte_count left out: everything after the offset */
    {
        unsigned char in[50000], out[50000];
        fill_pattern(in, sizeof in, 34);
        CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)in));
        memset(out, 0, sizeof out);
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)out, b, .src_offset = 100));
        CLMEM_CHECK(t, memcmp(out, in + 100, sizeof out - 100) == 0);
        CLMEM_CHECK_EQ(t, out[sizeof out - 100], 0);
    }
out:
    clmem_buffer_release(&b);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

/* a registered host range goes the direct path (the registered way) whatever the
   threshold, both ways, the host's writes between copies seen; a range reaching past
   the registration, and the range once the registration is released, are staged */
static void test_registered_direct(clmem_test_context *t) {
    const size_t n = 100003, S = 4096;
    cl_int err;
    unsigned char *mem = (unsigned char *)malloc(n + 1), *host = mem + 1; /* not aligned */
    unsigned char *expect = (unsigned char *)malloc(n), *back = (unsigned char *)malloc(n);
    clmem_stager *st = clmem_stager_create(t->queue, S, 2, 2, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, n, NULL, &err);
    clmem_host_registration r = {0};
    clmem_stager_stats s;
    int round;
    CLMEM_CHECK_CL(t, err);
    if (!mem || !expect || !back || !st || !b.mem) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0)); /* every other copy is staged */
    memset(mem, 0, n + 1);
    r = clmem_host_registration_create(t->context, host, n - 3, &err); /* the last 3 bytes are not registered */
    CLMEM_CHECK_CL(t, err);
    if (!r.buffer.mem) goto out;
    for (round = 0; round < 2; ++round) {
        fill_pattern(host, n - 3, 40u + (unsigned)round); /* the host writes the region */
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .byte_count = n - 3));
        CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, n, back, 0, NULL, NULL));
        CLMEM_CHECK(t, memcmp(back, host, n - 3) == 0);
        fill_pattern(expect, n, 50u + (unsigned)round);
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, n, expect, 0, NULL, NULL));
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)(host + 10), b, .byte_count = n - 13, .src_offset = 7));
        CLMEM_CHECK(t, memcmp(host + 10, expect + 7, n - 13) == 0);
    }
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.direct_copies, 4);
    CLMEM_CHECK_EQ(t, s.direct_bytes, 2 * ((n - 3) + (n - 13)));
    CLMEM_CHECK_EQ(t, s.staged_copies, 0);
    CLMEM_CHECK_EQ(t, s.pieces, 0);
    /* reaching 1 byte past the registration: staged, the bytes right */
    fill_pattern(host, n, 60u);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)(host + 1), .byte_count = n - 3));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, host + 1, n - 3) == 0);
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.direct_copies, 4);
    CLMEM_CHECK_EQ(t, s.staged_copies, 1);
    CLMEM_CHECK_EQ(t, s.pieces, (n - 3 + S - 1) / S);
    /* released: the same range is staged again */
    CLMEM_CHECK_CL(t, clmem_host_registration_release(&r));
    fill_pattern(host, n - 3, 70u);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .byte_count = n - 3));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, host, n - 3) == 0);
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.direct_copies, 4);
    CLMEM_CHECK_EQ(t, s.staged_copies, 2);
out:
    clmem_host_registration_release(&r);
    clmem_buffer_release(&b);
    if (st) CLMEM_CHECK_CL(t, clmem_stager_release(st));
    free(mem);
    free(expect);
    free(back);
}

/* into and out of a sub-buffer: the bytes land at its origin in the root */
static void test_sub_buffer(clmem_test_context *t) {
    cl_int err;
    cl_uint align_bits = 0;
    size_t origin;
    clmem_stager *st = clmem_stager_create(t->queue, 4096, 2, 2, &err);
    clmem_buffer root = clmem_buffer_create(t->context, 0, 65536, NULL, &err), sub;
    unsigned char in[20000], all[65536];
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
    origin = align_bits / 8 > 1024 ? align_bits / 8 : 1024;
    sub = clmem_buffer_get_sub_region(root, origin, 30000, 0, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !sub.mem) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
    memset(all, 0, sizeof all);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, root.mem, CL_TRUE, 0, sizeof all, all, 0, NULL, NULL));
    fill_pattern(in, sizeof in, 41);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, sub, (const void *)in, .byte_count = sizeof in, .dst_offset = 9));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, root.mem, CL_TRUE, 0, sizeof all, all, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(all + origin + 9, in, sizeof in) == 0);
    CLMEM_CHECK_EQ(t, all[origin + 8], 0);
    CLMEM_CHECK_EQ(t, all[origin + 9 + sizeof in], 0);
    memset(all, 0, sizeof all);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)all, sub, .byte_count = sizeof in, .src_offset = 9));
    CLMEM_CHECK(t, memcmp(all, in, sizeof in) == 0);
out:
    clmem_buffer_release(&sub);
    clmem_buffer_release(&root);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

/* zero bytes, events, wait lists */
static void test_zero_bytes_and_events(clmem_test_context *t) {
    cl_int err;
    clmem_stager *st = clmem_stager_create(t->queue, 1000, 2, 1, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, 5000, NULL, &err);
    clmem_stager_stats s;
    unsigned char host[5000];
    cl_event ev = NULL, marker = NULL;
    cl_int status = -1;
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
    fill_pattern(host, sizeof host, 51);
    /* nothing to copy: nothing enqueued, but an event when asked for */
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .dst_offset = 5000));
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)host, b, .src_offset = 5000, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    if (ev) {
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        ev = NULL;
    }
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.staged_copies + s.direct_copies, 0);
    /* a staged copy's event is complete on return; wait lists are honoured */
    CLMEM_CHECK_CL(t, clEnqueueMarkerWithWaitList(t->queue, 0, NULL, &marker));
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, CLMEM_WAIT_FOR(marker), .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    if (ev) {
        CLMEM_CHECK_CL(t, clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        /* the marker follows the finished copy; it may still be reported queued for an instant */
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        ev = NULL;
    }
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)host, b, .byte_count = 4000, CLMEM_WAIT_FOR(marker, marker)));
    if (marker) clReleaseEvent(marker);
    {
        unsigned char expect[5000];
        fill_pattern(expect, sizeof expect, 51);
        CLMEM_CHECK(t, memcmp(host, expect, sizeof host) == 0);
    }
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.staged_copies, 2);
    CLMEM_CHECK_EQ(t, s.pieces, 5 + 4);
out:
    clmem_buffer_release(&b);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

static void test_bad_input(clmem_test_context *t) {
    cl_int err;
    clmem_stager *st = clmem_stager_create(t->queue, 1024, 2, 2, &err), *none;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 4096, NULL, &err), empty;
    clmem_buffer ro = clmem_buffer_create(t->context, CL_MEM_HOST_READ_ONLY, 4096, NULL, &err);
    clmem_buffer wo = clmem_buffer_create(t->context, CL_MEM_HOST_WRITE_ONLY, 4096, NULL, &err);
    clmem_buffer na = clmem_buffer_create(t->context, CL_MEM_HOST_NO_ACCESS, 4096, NULL, &err);
    unsigned char host[8192];
    cl_event nul[1] = {NULL};
    CLMEM_CHECK_CL(t, err);
    memset(&empty, 0, sizeof empty);
    memset(host, 0, sizeof host);
    if (!st) goto out;
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
    CLMEM_CHECK_ERR(t, clmem_stager_copy((clmem_stager *)NULL, b, (const void *)host), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_stager_copy: st is NULL") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, empty, (const void *)host), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "dst is an empty or released buffer handle") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, empty), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "host pointer (src) is NULL") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)NULL, b, .byte_count = 0), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)host, .dst_offset = 4097), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "dst_offset 4097 is beyond the buffer's 4096 bytes") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, b, .src_offset = 4000, .byte_count = 97), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "src_offset 4000 + byte_count 97") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, b, .byte_count = SIZE_MAX, .src_offset = 2), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)host, .byte_count = 2000, .host_size = 1999),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "byte_count 2000 is more than host_size 1999") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)host, .src_offset = 8), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "src_offset 8 does not apply") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, b, .dst_offset = 8), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, b, .region = {16, 2}), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), ".region {16, 2, 0} does not apply") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, ro, (const void *)host), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "the host may not write dst") != NULL);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, wo), CL_INVALID_OPERATION);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, na, (const void *)host), CL_INVALID_OPERATION);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, na), CL_INVALID_OPERATION);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)host, ro)); /* the allowed directions work */
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, wo, (const void *)host));
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)host, .wait_for = nul, .num_wait_for = 1),
                    CL_INVALID_EVENT_WAIT_LIST);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)host, .num_wait_for = 2), CL_INVALID_EVENT_WAIT_LIST);
    {   /* a buffer of another context */
        cl_context other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        if (other) {
            clmem_buffer ob = clmem_buffer_create(other, 0, 4096, NULL, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_ERR(t, clmem_stager_copy(st, ob, (const void *)host), CL_INVALID_CONTEXT);
            CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_stager_copy: dst belongs to context") != NULL);
            clmem_buffer_release(&ob);
            clReleaseContext(other);
        }
    }
    /* function forms and NULL options */
    CLMEM_CHECK_CL(t, clmem_stager_write_opts(st, b, host, NULL));
    CLMEM_CHECK_CL(t, clmem_stager_read_opts(st, host, b, NULL));
    /* create */
    CLMEM_CHECK_ERR(t, (none = clmem_stager_create(NULL, 0, 0, 0, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, none == NULL);
    CLMEM_CHECK_ERR(t, (none = clmem_stager_create(t->queue, 0, 1, 0, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "slots 1 is not in 2..16") != NULL);
    CLMEM_CHECK_ERR(t, (none = clmem_stager_create(t->queue, 0, CLMEM_STAGER_MAX_SLOTS + 1, 0, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (none = clmem_stager_create(t->queue, 0, 0, CLMEM_STAGER_MAX_THREADS + 1, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "threads 65 is not in 1..64") != NULL);
    {
        cl_ulong max_alloc = 0;
        clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
        if ((unsigned long long)max_alloc < (unsigned long long)SIZE_MAX) {
            CLMEM_CHECK_ERR(t, (none = clmem_stager_create(t->queue, (size_t)max_alloc + 1, 0, 0, &err), err),
                            CL_INVALID_BUFFER_SIZE);
        }
    }
    CLMEM_CHECK_ERR(t, clmem_stager_set_threshold(NULL, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, clmem_stager_threshold(NULL), 0);
    {
        clmem_stager_stats s;
        CLMEM_CHECK_ERR(t, clmem_stager_get_stats(NULL, &s), CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_stager_get_stats(st, NULL), CL_INVALID_VALUE);
        CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
        CLMEM_CHECK_EQ(t, s.staged_copies, 4); /* the two allowed directions and the function forms */
    }
    CLMEM_CHECK_CL(t, clmem_stager_release(NULL));
out:
    clmem_buffer_release(&b);
    clmem_buffer_release(&ro);
    clmem_buffer_release(&wo);
    clmem_buffer_release(&na);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

static const clmem_test_case cases[] = {
    {"staged_exact", test_staged_exact, false},
    {"staged_threads", test_staged_threads, false},
    {"staged_ramp", test_staged_ramp, false},
    {"threshold_and_direct", test_threshold_and_direct, false},
    {"registered_direct", test_registered_direct, false},
    {"sub_buffer", test_sub_buffer, false},
    {"zero_bytes_and_events", test_zero_bytes_and_events, false},
    {"bad_input", test_bad_input, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
