/* Device links (clmem/device_link.h): copies between two queues of one context,
   staged through pinned slots or on the driver's path. On one device the link runs
   between t->queue and a second queue of the device (the threshold set to stage);
   with two devices in the platform (PoCL: POCL_DEVICES="pthread pthread", which
   CTest sets) the last case links the two. */
#define _POSIX_C_SOURCE 200809L /* alarm */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <unistd.h>

enum { N = 100000, SLOT = 4096 };

typedef struct fixture {
    cl_command_queue q2;
    clmem_device_link *link;
    clmem_buffer src, dst;
    unsigned char *want, *got;
} fixture;

static void fixture_free(fixture *f) {
    if (f->link) clmem_device_link_release(f->link);
    if (f->q2) clReleaseCommandQueue(f->q2);
    clmem_buffer_release(&f->src);
    clmem_buffer_release(&f->dst);
    free(f->want);
    free(f->got);
}

/* src holds a pattern, dst zeros; the link goes t->queue -> a second queue of the
   device with 4-KiB slots, staging every copy (threshold 0) unless told otherwise. */
static int fixture_make(clmem_test_context *t, fixture *f, size_t threshold) {
    cl_int err;
    memset(f, 0, sizeof *f);
    f->want = (unsigned char *)malloc(N);
    f->got = (unsigned char *)malloc(N);
    f->q2 = extra_queue(t, t->context, &err);
    if (!f->want || !f->got || err != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "setup: %s", clmem_error_string(err));
        return 0;
    }
    fill_pattern(f->want, N, 7);
    f->src = clmem_buffer_create(t->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N, f->want, &err);
    if (err == CL_SUCCESS) f->dst = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, N, NULL, &err);
    if (err == CL_SUCCESS) err = clmem_enqueue_fill(t->queue, f->dst, (cl_uchar)0, N);
    if (err == CL_SUCCESS) err = clFinish(t->queue);
    if (err == CL_SUCCESS) f->link = clmem_device_link_create(t->queue, f->q2, SLOT, 3, &err);
    if (err == CL_SUCCESS) err = clmem_device_link_set_threshold(f->link, threshold);
    if (err != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "setup: %s: %s", clmem_error_string(err), clmem_last_error_message());
        return 0;
    }
    return 1;
}

/* dst read back on the destination queue: bytes [at, at + n) are src's from `from`,
   every other byte still 0 */
static int dst_is(clmem_test_context *t, fixture *f, size_t at, size_t from, size_t n) {
    size_t i;
    cl_int err = clmem_enqueue_copy(f->q2, (void *)f->got, f->dst);
    if (err != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "read back: %s", clmem_last_error_message());
        return 0;
    }
    for (i = 0; i < N; ++i) {
        unsigned char w = i >= at && i < at + n ? f->want[from + i - at] : 0;
        if (f->got[i] != w) {
            clmem_test_fail(t, __FILE__, __LINE__, "dst byte %zu is %u, expected %u", i, f->got[i], w);
            return 0;
        }
    }
    return 1;
}

static void test_staged_bytes(clmem_test_context *t) {
    fixture f;
    clmem_device_link_stats st = CLMEM__ZERO;
    if (fixture_make(t, &f, 0)) {
        CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .byte_count = 70001, .src_offset = 3,
                                                 .dst_offset = 5, .is_blocking = true));
        if (dst_is(t, &f, 5, 3, 70001)) {
            CLMEM_CHECK_CL(t, clmem_device_link_get_stats(f.link, &st));
            CLMEM_CHECK_EQ(t, st.staged_copies, 1);
            CLMEM_CHECK_EQ(t, st.direct_copies, 0);
            CLMEM_CHECK_EQ(t, st.staged_bytes, 70001);
            CLMEM_CHECK_EQ(t, st.pieces, (70001 + SLOT - 1) / SLOT);
        }
    }
    fixture_free(&f);
}

/* left out, the count is the smaller of what both sides hold after their offsets;
   a second copy reuses every slot (waits for the first copy's writes) */
static void test_default_count_and_reuse(clmem_test_context *t) {
    fixture f;
    if (fixture_make(t, &f, 0)) {
        CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .src_offset = 1000));
        CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .byte_count = 10, .dst_offset = 20000,
                                                 .src_offset = 50));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(f.q2, (void *)f.got, f.dst));
        CLMEM_CHECK(t, memcmp(f.got, f.want + 1000, 20000) == 0);
        CLMEM_CHECK(t, memcmp(f.got + 20000, f.want + 50, 10) == 0); /* the second copy's 10 bytes */
        CLMEM_CHECK(t, memcmp(f.got + 20010, f.want + 21010, N - 21010) == 0);
        CLMEM_CHECK(t, f.got[N - 1000] == 0 && f.got[N - 1] == 0);
    }
    fixture_free(&f);
}

static void test_direct_path(clmem_test_context *t) {
    fixture f;
    clmem_device_link_stats st = CLMEM__ZERO;
    if (fixture_make(t, &f, CLMEM_DEVICE_LINK_NEVER)) {
        CLMEM_CHECK_EQ(t, clmem_device_link_threshold(f.link), CLMEM_DEVICE_LINK_NEVER);
        CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .byte_count = 4097, .dst_offset = 1,
                                                 .is_blocking = true));
        if (dst_is(t, &f, 1, 0, 4097)) {
            CLMEM_CHECK_CL(t, clmem_device_link_get_stats(f.link, &st));
            CLMEM_CHECK_EQ(t, st.direct_copies, 1);
            CLMEM_CHECK_EQ(t, st.staged_copies, 0);
        }
    }
    fixture_free(&f);
}

/* without a wait list, a copy waits for the source queue's earlier work, on the
   driver's path (a marker there) and staged (the link's second lane too): a fill held
   back on the source queue lands before the copy reads */
static void test_after_source_queue(clmem_test_context *t) {
    size_t thresholds[2] = {CLMEM_DEVICE_LINK_NEVER, 0}, k;
    if (skip_gates_on_oclgrind(t)) return;
    for (k = 0; k < 2; ++k) {
        fixture f;
        cl_event gate = NULL, done = NULL;
        cl_int err;
        size_t i;
        if (fixture_make(t, &f, thresholds[k])) {
            gate = clCreateUserEvent(t->context, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, f.src, (cl_uchar)0x5A, N, .wait_for = &gate, .num_wait_for = 1));
            CLMEM_CHECK_CL(t, clFlush(t->queue));
            CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .event = &done));
            CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
            CLMEM_CHECK_CL(t, clWaitForEvents(1, &done));
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(f.q2, (void *)f.got, f.dst));
            for (i = 0; i < N && f.got[i] == 0x5A; ++i) {
            }
            CLMEM_CHECK_EQ(t, i, N);
        }
        if (gate) {
            clSetUserEventStatus(gate, CL_COMPLETE);
            clReleaseEvent(gate);
        }
        if (done) clReleaseEvent(done);
        fixture_free(&f);
    }
}

/* the queues' later work comes after a staged copy, whichever of the link's queues
   moved a piece: a fill of src enqueued on the source queue after the copy does not
   reach dst, and a fill of dst bytes of the last piece (24 pieces: an even count, so
   the last is the second lane's) on the destination queue lands last */
static void test_before_later_work(clmem_test_context *t) {
    enum { PIECES = 24, AT = (PIECES - 1) * SLOT };
    fixture f;
    cl_event gate = NULL;
    cl_int err;
    size_t i;
    if (skip_gates_on_oclgrind(t)) return;
    if (fixture_make(t, &f, 0)) {
        gate = clCreateUserEvent(t->context, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .byte_count = PIECES * SLOT, .wait_for = &gate,
                                                 .num_wait_for = 1));
        CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, f.src, (cl_uchar)0xEE, N));
        CLMEM_CHECK_CL(t, clmem_enqueue_fill(f.q2, f.dst, (cl_uchar)0x11, 16, .offset = AT));
        CLMEM_CHECK_CL(t, clFlush(t->queue));
        CLMEM_CHECK_CL(t, clFlush(f.q2));
        CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(f.q2, (void *)f.got, f.dst));
        CLMEM_CHECK(t, memcmp(f.got, f.want, AT) == 0);
        for (i = AT; i < AT + 16 && f.got[i] == 0x11; ++i) {
        }
        CLMEM_CHECK_EQ(t, i, AT + 16);
        CLMEM_CHECK(t, memcmp(f.got + AT + 16, f.want + AT + 16, SLOT - 16) == 0);
        CLMEM_CHECK(t, f.got[PIECES * SLOT] == 0 && f.got[N - 1] == 0);
        CLMEM_CHECK_CL(t, clFinish(t->queue));
    }
    if (gate) {
        clSetUserEventStatus(gate, CL_COMPLETE);
        clReleaseEvent(gate);
    }
    fixture_free(&f);
}

/* non-blocking by default: the call returns while its wait list holds it back, and
   its event completes once every byte has arrived */
static void test_event_after_gate(clmem_test_context *t) {
    fixture f;
    cl_event gate = NULL, done = NULL;
    cl_int err, status = CL_COMPLETE;
    if (skip_gates_on_oclgrind(t)) return;
    if (fixture_make(t, &f, 0)) {
        gate = clCreateUserEvent(t->context, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .byte_count = 3 * SLOT + 7,
                                                 .wait_for = &gate, .num_wait_for = 1, .event = &done));
        CLMEM_CHECK(t, done != NULL);
        CLMEM_CHECK_CL(t, clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        CLMEM_CHECK(t, status != CL_COMPLETE);
        CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &done));
        dst_is(t, &f, 0, 0, 3 * SLOT + 7);
    }
    if (gate) {
        clSetUserEventStatus(gate, CL_COMPLETE); /* no-op when already set; frees a stuck copy */
        clReleaseEvent(gate);
    }
    if (done) clReleaseEvent(done);
    fixture_free(&f);
}

/* a blocking copy whose wait list failed is refused before anything is enqueued */
static void test_failed_wait_list(clmem_test_context *t) {
    fixture f;
    cl_event gate = NULL;
    cl_int err;
    if (fixture_make(t, &f, 0)) {
        gate = clCreateUserEvent(t->context, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, -1));
        CLMEM_CHECK_ERR(t, clmem_device_link_copy(f.link, f.dst, f.src, .wait_for = &gate, .num_wait_for = 1,
                                                  .is_blocking = true),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        dst_is(t, &f, 0, 0, 0);
    }
    if (gate) clReleaseEvent(gate);
    fixture_free(&f);
}

static void test_rejections(clmem_test_context *t) {
    fixture f;
    clmem_buffer empty = CLMEM__ZERO;
    cl_event ev = NULL;
    cl_int err;
    if (fixture_make(t, &f, 0)) {
        CLMEM_CHECK_ERR(t, clmem_device_link_copy(NULL, f.dst, f.src), CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_device_link_copy(f.link, empty, f.src), CL_INVALID_MEM_OBJECT);
        CLMEM_CHECK_ERR(t, clmem_device_link_copy(f.link, f.dst, f.src, .byte_count = N, .dst_offset = 1),
                        CL_INVALID_VALUE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_copy: dst_offset 1 + byte_count 100000") != NULL);
        CLMEM_CHECK_ERR(t, clmem_device_link_copy(f.link, f.src, f.src, .byte_count = 100, .dst_offset = 50),
                        CL_MEM_COPY_OVERLAP);
        CLMEM_CHECK_ERR(t, clmem_device_link_copy(f.link, f.dst, f.src, .region = {16, 2}), CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_device_link_create(NULL, f.q2, 0, 0, &err) == NULL ? err : CL_SUCCESS,
                        CL_INVALID_COMMAND_QUEUE);
        CLMEM_CHECK_ERR(t, clmem_device_link_create(t->queue, f.q2, 0, 1, &err) == NULL ? err : CL_SUCCESS,
                        CL_INVALID_VALUE);
        CLMEM_CHECK_ERR(t, clmem_device_link_set_threshold(NULL, 0), CL_INVALID_VALUE);
        CLMEM_CHECK_EQ(t, clmem_device_link_threshold(NULL), CLMEM_DEVICE_LINK_NEVER);
        /* zero bytes: nothing copied, the event asked for is still made */
        CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, f.dst, f.src, .byte_count = 0, .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        if (ev) {
            CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
            clReleaseEvent(ev);
        }
        dst_is(t, &f, 0, 0, 0);
        CLMEM_CHECK_CL(t, clmem_device_link_release(NULL));
    }
    fixture_free(&f);
}

/* a stale copy of a pooled buffer handle is refused; the new owner's bytes stay */
static void test_stale_pooled(clmem_test_context *t) {
    fixture f;
    clmem_allocator *a = NULL;
    clmem_memory_pool *pool = NULL;
    clmem_buffer b = CLMEM__ZERO, stale, owner = CLMEM__ZERO;
    unsigned char back[64];
    cl_int err;
    if (fixture_make(t, &f, 0)) {
        a = clmem_deferred_allocator_create(t->context, 0, &err);
        CLMEM_CHECK_CL(t, err);
        pool = clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
        CLMEM_CHECK_CL(t, err);
        b = clmem_memory_pool_allocate(pool, 64, &err);
        CLMEM_CHECK_CL(t, err);
        stale = b;
        CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
        owner = clmem_memory_pool_allocate(pool, 64, &err); /* the same block, a new owner */
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, owner.mem == stale.mem);
        CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, owner, (cl_uchar)0xAB, 64));
        CLMEM_CHECK_CL(t, clFinish(t->queue));
        CLMEM_CHECK_ERR(t, clmem_device_link_copy(f.link, stale, f.src, .byte_count = 64, .is_blocking = true),
                        CL_INVALID_MEM_OBJECT);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, owner));
        CLMEM_CHECK(t, back[0] == 0xAB && back[63] == 0xAB);
    }
    clmem_buffer_release(&owner);
    if (pool) clmem_memory_pool_release(pool);
    if (a) clmem_allocator_release(a);
    fixture_free(&f);
}

/* two devices of one platform in one context: device 0 -> device 1 */
/* with the default slots, a staged copy of n bytes goes in pieces of about
   sqrt(n * 256 KiB), a power of two from 64 KiB to the slot size, and in slot-sized
   pieces while the copy before it is still running (device_link.h) */
static void test_piece_sizes(clmem_test_context *t) {
    static const size_t sizes[] = {(size_t)100 << 10, (size_t)1 << 20, (size_t)16 << 20, ((size_t)16 << 20) + 1};
    static const size_t pieces[] = {1, 2, 8, 9}; /* 128 KiB, 512 KiB, 2 MiB, 2 MiB and one byte */
    const size_t big = (size_t)16 << 20;
    cl_int err;
    cl_command_queue q2 = extra_queue(t, t->context, &err);
    clmem_buffer a = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, big + 1, NULL, &err);
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, big + 1, NULL, &err);
    clmem_device_link *l = NULL;
    size_t k, before = 0;
    CLMEM_CHECK_CL(t, err);
    if (q2 && a.mem && b.mem) l = clmem_device_link_create(t->queue, q2, 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    if (l) {
        CLMEM_CHECK_CL(t, clmem_device_link_set_threshold(l, 0));
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
            clmem_device_link_stats st = CLMEM__ZERO;
            CLMEM_CHECK_CL(t, clmem_device_link_copy(l, b, a, .byte_count = sizes[k], .is_blocking = true));
            CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &st));
            CLMEM_CHECK_EQ(t, st.pieces - before, pieces[k]);
            before = st.pieces;
        }
        if (!skip_gates_on_oclgrind(t)) { /* a copy behind a running one: slot-sized pieces */
            clmem_device_link_stats st = CLMEM__ZERO;
            cl_event gate = clCreateUserEvent(t->context, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_CL(t, clmem_device_link_copy(l, b, a, .byte_count = (size_t)1 << 20, .wait_for = &gate,
                                                     .num_wait_for = 1)); /* idle: 2 pieces of 512 KiB */
            CLMEM_CHECK_CL(t, clmem_device_link_copy(l, b, a, .byte_count = big)); /* busy: 2 of 8 MiB */
            CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
            CLMEM_CHECK_CL(t, clFinish(q2));
            CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &st));
            CLMEM_CHECK_EQ(t, st.pieces - before, 4);
            clReleaseEvent(gate);
        }
        CLMEM_CHECK_CL(t, clmem_device_link_release(l));
    }
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
    if (q2) clReleaseCommandQueue(q2);
}

static void test_two_devices(clmem_test_context *t) {
    cl_platform_id platform = NULL;
    cl_device_id dev[2];
    cl_uint n = 0;
    cl_context ctx = NULL;
    cl_command_queue q[2] = {NULL, NULL};
    clmem_device_link *link = NULL;
    clmem_buffer a = CLMEM__ZERO, b = CLMEM__ZERO;
    unsigned char *want = (unsigned char *)malloc(N), *got = (unsigned char *)malloc(N);
    cl_int err;
    int i;
    clGetDeviceInfo(t->device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 2, dev, &n);
    if (n < 2 || !want || !got) {
        clmem_test_skip(t, "the platform has one device (PoCL: POCL_DEVICES=\"pthread pthread\" makes two)");
        free(want);
        free(got);
        return;
    }
    ctx = clCreateContext(NULL, 2, dev, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < 2 && err == CL_SUCCESS; ++i) {
        clmem_test_context sub = *t;
        sub.device = dev[i];
        q[i] = extra_queue(&sub, ctx, &err);
    }
    fill_pattern(want, N, 3);
    if (err == CL_SUCCESS) a = clmem_buffer_create(ctx, CL_MEM_COPY_HOST_PTR, N, want, &err);
    if (err == CL_SUCCESS) b = clmem_buffer_create(ctx, 0, N, NULL, &err);
    if (err == CL_SUCCESS) link = clmem_device_link_create(q[0], q[1], SLOT, 2, &err);
    CLMEM_CHECK_CL(t, err);
    if (link) {
        /* CPU devices, or memory shared with the host: staging does not pay, so it is off
           unless asked for; between discrete devices it starts at the default threshold */
        cl_device_type type[2] = {0, 0};
        cl_bool unified[2] = {CL_FALSE, CL_FALSE};
        for (i = 0; i < 2; ++i) {
            clGetDeviceInfo(dev[i], CL_DEVICE_TYPE, sizeof type[i], &type[i], NULL);
            clGetDeviceInfo(dev[i], CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified[i], &unified[i], NULL);
        }
        CLMEM_CHECK_EQ(t, clmem_device_link_threshold(link),
                       ((type[0] | type[1]) & CL_DEVICE_TYPE_CPU) || unified[0] || unified[1]
                           ? CLMEM_DEVICE_LINK_NEVER
                           : CLMEM_DEVICE_LINK_DEFAULT_THRESHOLD);
        CLMEM_CHECK_CL(t, clmem_device_link_set_threshold(link, 0));
        CLMEM_CHECK_CL(t, clmem_device_link_copy(link, b, a, .is_blocking = true));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(q[1], (void *)got, b));
        CLMEM_CHECK(t, memcmp(got, want, N) == 0);
        /* device-only buffers between the devices: staged (copied pieces), by transfers
           through the link's scratch buffers and by copies through the slots' buffers */
        for (i = 0; i < 2; ++i) {
            clmem_buffer c = clmem_buffer_create(ctx, CL_MEM_HOST_NO_ACCESS, N, NULL, &err), d = CLMEM__ZERO;
            clmem_device_link_stats st = CLMEM__ZERO;
            if (err == CL_SUCCESS) d = clmem_buffer_create(ctx, CL_MEM_HOST_NO_ACCESS, N, NULL, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_CL(t, clmem_device_link_set_staging(link, i ? CLMEM_DEVICE_LINK_BY_COPIES
                                                                    : CLMEM_DEVICE_LINK_BY_TRANSFERS));
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(q[0], c, a, .byte_count = N - 1, .src_offset = 1));
            CLMEM_CHECK_CL(t, clFinish(q[0]));
            CLMEM_CHECK_CL(t, clmem_device_link_copy(link, d, c, .byte_count = N - 1, .is_blocking = true));
            CLMEM_CHECK_CL(t, clmem_enqueue_fill(q[1], b, (cl_uchar)0, N));
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(q[1], b, d, .byte_count = N - 1));
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(q[1], (void *)got, b));
            CLMEM_CHECK(t, memcmp(got, want + 1, N - 1) == 0 && got[N - 1] == 0);
            CLMEM_CHECK_CL(t, clmem_device_link_get_stats(link, &st));
            CLMEM_CHECK_EQ(t, st.staged_copies, 2 + (size_t)i);
            CLMEM_CHECK_EQ(t, st.direct_copies, 0);
            CLMEM_CHECK_EQ(t, st.copied_pieces, (size_t)(i + 1) * ((N - 1 + SLOT - 1) / SLOT));
            clmem_buffer_release(&c);
            clmem_buffer_release(&d);
        }
        CLMEM_CHECK_CL(t, clmem_device_link_set_staging(link, CLMEM_DEVICE_LINK_BY_TRANSFERS));
        /* a link whose reads run on a stager's queue: the link copy called after a
           non-blocking staged write into its source comes after it, on that queue */
        if (!skip_gates_on_oclgrind(t)) {
            clmem_stager *st = clmem_stager_create(q[0], SLOT, 2, 2, &err);
            cl_event e = NULL;
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
            fill_pattern(want, N, 4);
            CLMEM_CHECK_CL(t, clmem_stager_copy(st, a, (const void *)want, .is_blocking = false, .event = &e));
            CLMEM_CHECK_CL(t, clmem_device_link_copy(link, b, a));
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(q[1], (void *)got, b));
            CLMEM_CHECK(t, memcmp(got, want, N) == 0);
            CLMEM_CHECK_CL(t, clWaitForEvents(1, &e));
            clReleaseEvent(e);
            CLMEM_CHECK_CL(t, clmem_stager_release(st));
        }
    }
    if (link) clmem_device_link_release(link);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
    for (i = 0; i < 2; ++i)
        if (q[i]) clReleaseCommandQueue(q[i]);
    if (ctx) clReleaseContext(ctx);
    free(want);
    free(got);
}

/* out-of-order queues are refused, as either side (the header's CL_INVALID_COMMAND_QUEUE) */
static void test_ooo_refused(clmem_test_context *t) {
    cl_int err;
    clmem_device_link *l;
    cl_command_queue q = extra_queue_with(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS || !q) {
        clmem_test_skip(t, "the device has no out-of-order queues");
        return;
    }
    l = clmem_device_link_create(t->queue, q, SLOT, 2, &err);
    CLMEM_CHECK(t, l == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_create: queue") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "out-of-order") != NULL);
    if (l) clmem_device_link_release(l);
    l = clmem_device_link_create(q, t->queue, SLOT, 2, &err);
    CLMEM_CHECK(t, l == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_COMMAND_QUEUE);
    if (l) clmem_device_link_release(l);
    clReleaseCommandQueue(q);
}

/* buffers the host may not read (src) or write (dst) are copied, staged threshold or
   not (the driver's path: staging goes through host memory) */
/* buffers the host may not read (src) or write (dst) are staged, by transfers through
   the link's scratch buffers and by copies through the slots' buffers: every piece
   is a copied one; then plain buffers by copies, and by transfers again */
static void test_host_access_flags(clmem_test_context *t) {
    static const cl_mem_flags src_flags[] = {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY, 0, CL_MEM_HOST_NO_ACCESS};
    static const cl_mem_flags dst_flags[] = {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS, 0};
    static const clmem_device_link_staging how[] = {CLMEM_DEVICE_LINK_BY_TRANSFERS, CLMEM_DEVICE_LINK_BY_COPIES,
                                                    CLMEM_DEVICE_LINK_BY_TRANSFERS};
    const size_t count = N - 10, pieces = (count + SLOT - 1) / SLOT;
    fixture f;
    size_t h, k, copies = 0;
    if (!fixture_make(t, &f, 0)) {
        fixture_free(&f);
        return;
    }
    for (h = 0; h < sizeof how / sizeof how[0]; ++h) {
        CLMEM_CHECK_CL(t, clmem_device_link_set_staging(f.link, how[h]));
        for (k = 0; k <= sizeof src_flags / sizeof src_flags[0]; ++k) { /* the last: plain buffers */
            clmem_device_link_stats st = CLMEM__ZERO;
            bool plain = k == sizeof src_flags / sizeof src_flags[0];
            cl_int err;
            clmem_buffer a = clmem_buffer_create(t->context, plain ? 0 : src_flags[k], N, NULL, &err);
            clmem_buffer b = CLMEM__ZERO;
            if (err == CL_SUCCESS) b = clmem_buffer_create(t->context, plain ? 0 : dst_flags[k], N, NULL, &err);
            CLMEM_CHECK_CL(t, err);
            /* a's bytes from f.src (a device copy), b's back into f.dst */
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, f.src));
            CLMEM_CHECK_CL(t, clFinish(t->queue));
            CLMEM_CHECK_CL(t, clmem_device_link_copy(f.link, b, a, .byte_count = count, .src_offset = 10,
                                                     .is_blocking = true));
            CLMEM_CHECK_CL(t, clmem_enqueue_fill(f.q2, f.dst, (cl_uchar)0, N));
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(f.q2, f.dst, b, .byte_count = count));
            CLMEM_CHECK_CL(t, clFinish(f.q2));
            dst_is(t, &f, 0, 10, count);
            ++copies;
            CLMEM_CHECK_CL(t, clmem_device_link_get_stats(f.link, &st));
            CLMEM_CHECK_EQ(t, st.staged_copies, copies);
            CLMEM_CHECK_EQ(t, st.direct_copies, 0);
            CLMEM_CHECK_EQ(t, st.staged_bytes, copies * count);
            CLMEM_CHECK_EQ(t, st.pieces, copies * pieces);
            /* by transfers, the plain pair is the one copy of no copied piece */
            CLMEM_CHECK_EQ(t, st.copied_pieces, (copies - (h >= 1 || plain) - (h == 2 && plain)) * pieces);
            clmem_buffer_release(&a);
            clmem_buffer_release(&b);
        }
    }
    /* refusals, in clmem_device_link_set_staging's words; the link stages as before */
    CLMEM_CHECK_ERR(t, clmem_device_link_set_staging(NULL, CLMEM_DEVICE_LINK_BY_COPIES), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_set_staging: l is NULL") != NULL);
    CLMEM_CHECK_ERR(t, clmem_device_link_set_staging(f.link, (clmem_device_link_staging)2), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_set_staging: how 2:") != NULL);
    fixture_free(&f);
}

/* a non-blocking copy whose wait list has already failed is refused before anything is
   enqueued (PoCL left its pieces queued, and the link's release waited for ever) */
static void test_failed_wait_nonblocking(clmem_test_context *t) {
    size_t thresholds[2] = {0, CLMEM_DEVICE_LINK_NEVER}, k;
    for (k = 0; k < 2; ++k) {
        fixture f;
        cl_event gate = NULL, ev = NULL;
        cl_int err;
        if (fixture_make(t, &f, thresholds[k])) {
            gate = clCreateUserEvent(t->context, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, -7));
            alarm(30);
            CLMEM_CHECK_ERR(t, clmem_device_link_copy(f.link, f.dst, f.src, .wait_for = &gate, .num_wait_for = 1,
                                                      .event = &ev),
                            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
            CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_copy: wait_for[0]") != NULL);
            CLMEM_CHECK(t, ev == NULL);
            CLMEM_CHECK_CL(t, clmem_device_link_release(f.link)); /* returns: nothing waits */
            f.link = NULL;
            alarm(0);
            dst_is(t, &f, 0, 0, 0);
        }
        if (gate) clReleaseEvent(gate);
        fixture_free(&f);
    }
}

/* every refusal of create in clmem_device_link_create's words (the slots' too) */
static void test_create_refusals(clmem_test_context *t) {
    cl_int err;
    cl_ulong max_alloc = 0;
    cl_command_queue q2 = extra_queue(t, t->context, &err);
    clmem_device_link *l;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_device_link_create(t->queue, NULL, 0, 0, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, clmem_device_link_create(t->queue, q2, 0, CLMEM_DEVICE_LINK_MAX_SLOTS + 1, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_create: slots 17") != NULL);
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    if ((unsigned long long)max_alloc < (unsigned long long)SIZE_MAX) {
        CLMEM_CHECK(t, clmem_device_link_create(t->queue, q2, (size_t)max_alloc + 1, 2, &err) == NULL);
        CLMEM_CHECK_EQ(t, err, CL_INVALID_BUFFER_SIZE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_create: slot_size") != NULL);
    }
    { /* queues of two contexts; a buffer of another context */
        cl_context other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
        cl_command_queue oq = NULL;
        CLMEM_CHECK_CL(t, err);
        oq = extra_queue(t, other, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, clmem_device_link_create(t->queue, oq, 0, 0, &err) == NULL);
        CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_link_create:") != NULL);
        l = clmem_device_link_create(t->queue, q2, SLOT, 2, &err);
        CLMEM_CHECK_CL(t, err);
        if (l) {
            clmem_buffer ob = clmem_buffer_create(other, 0, 64, NULL, &err), b;
            cl_event nul[1] = {NULL};
            clmem_device_link_stats st;
            CLMEM_CHECK_CL(t, err);
            b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_ERR(t, clmem_device_link_copy(l, b, ob), CL_INVALID_CONTEXT);
            CLMEM_CHECK_ERR(t, clmem_device_link_copy(l, ob, b), CL_INVALID_CONTEXT);
            CLMEM_CHECK_ERR(t, clmem_device_link_copy(l, b, b, .byte_count = 8, .dst_offset = 32, .wait_for = nul,
                                                      .num_wait_for = 1),
                            CL_INVALID_EVENT_WAIT_LIST);
            CLMEM_CHECK_ERR(t, clmem_device_link_get_stats(NULL, &st), CL_INVALID_VALUE);
            CLMEM_CHECK_ERR(t, clmem_device_link_get_stats(l, NULL), CL_INVALID_VALUE);
            {
                clmem_buffer gone = b; /* a released handle */
                CLMEM_CHECK_CL(t, clmem_buffer_release(&gone));
                CLMEM_CHECK_ERR(t, clmem_device_link_copy(l, gone, ob), CL_INVALID_MEM_OBJECT);
            }
            clmem_buffer_release(&ob);
            CLMEM_CHECK_CL(t, clmem_device_link_release(l));
        }
        if (oq) clReleaseCommandQueue(oq);
        if (other) clReleaseContext(other);
    }
    if (q2) clReleaseCommandQueue(q2);
}

static const clmem_test_case cases[] = {
    {"staged_bytes", test_staged_bytes, false},
    {"default_count_and_reuse", test_default_count_and_reuse, false},
    {"direct_path", test_direct_path, false},
    {"after_source_queue", test_after_source_queue, false},
    {"before_later_work", test_before_later_work, false},
    {"event_after_gate", test_event_after_gate, false},
    {"failed_wait_list", test_failed_wait_list, false},
    {"rejections", test_rejections, false},
    {"stale_pooled", test_stale_pooled, false},
    {"piece_sizes", test_piece_sizes, false},
    {"two_devices", test_two_devices, false},
    {"ooo_refused", test_ooo_refused, false},
    {"host_access_flags", test_host_access_flags, false},
    {"failed_wait_nonblocking", test_failed_wait_nonblocking, false},
    {"create_refusals", test_create_refusals, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
