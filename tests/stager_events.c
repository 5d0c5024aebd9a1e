/* The stager and events: a failed wait-list event is reported, staged and direct,
   without hanging (each case is bounded by alarm()); the .event of a blocking copy is
   complete when the call returns; a release while another thread copies is refused
   (CL_INVALID_OPERATION) and the copy finishes intact; a non-blocking copy returns
   before its wait list lets it start, and its event completes when every byte has
   arrived. */
#define _POSIX_C_SOURCE 200809L /* alarm, nanosleep */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <dirent.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#define N 40000 /* 4 pieces of the 10000-byte slots */

static clmem_stager *stager(clmem_test_context *t, size_t threshold) {
    cl_int err;
    clmem_stager *st = clmem_stager_create(t->queue, 10000, 2, 2, &err);
    if (err != CL_SUCCESS || !st) {
        clmem_test_fail(t, __FILE__, __LINE__, "clmem_stager_create: %s", clmem_last_error_message());
        return NULL;
    }
    clmem_stager_set_threshold(st, threshold);
    return st;
}

static cl_int event_status(cl_event e) {
    cl_int s = 1;
    if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL) != CL_SUCCESS) return 1;
    return s;
}

/* a wait list holding an already failed user event: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
   as clmem_enqueue_copy says, blocking or not, never a hang (PoCL 3.1 left a
   non-blocking direct copy queued for ever, and the queue's later work behind it);
   nothing written or read, no event made */
static void failed_wait(clmem_test_context *t, size_t threshold) {
    static unsigned char host[N], dev[N], guard[N];
    cl_int err;
    clmem_stager *st = stager(t, threshold);
    clmem_buffer b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    cl_event gate = clCreateUserEvent(t->context, &err), e = NULL;
    int blocking;
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) return;
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, -5));
    fill_pattern(dev, N, 1);
    fill_pattern(host, N, 2);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, N, dev, 0, NULL, NULL));
    alarm(30); /* a hang fails the test */
    memset(guard, 0xC3, N);
    for (blocking = 1; blocking >= 0; --blocking) {
        fill_pattern(host, N, 2);
        CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)host, .is_blocking = blocking != 0,
                                             .wait_for = &gate, .num_wait_for = 1, .event = &e),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_stager_copy: wait_for[0]") != NULL);
        memcpy(host, guard, N);
        CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, b, .is_blocking = blocking != 0, .wait_for = &gate,
                                             .num_wait_for = 1, .event = &e),
                        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CLMEM_CHECK(t, e == NULL);
        CLMEM_CHECK_CL(t, clFinish(t->queue)); /* nothing left queued */
    }
    alarm(0);
    CLMEM_CHECK(t, memcmp(host, guard, N) == 0);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, N, host, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(host, dev, N) == 0);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_buffer_release(&b);
}
static void test_failed_wait_staged(clmem_test_context *t) { failed_wait(t, 0); }
static void test_failed_wait_direct(clmem_test_context *t) { failed_wait(t, CLMEM_STAGER_NEVER); }

/* .event of a blocking copy: CL_COMPLETE at return, both directions */
static void event_done(clmem_test_context *t, size_t threshold) {
    static unsigned char host[N], back[N];
    cl_int err;
    cl_event e = NULL;
    clmem_stager *st = stager(t, threshold);
    clmem_buffer b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) return;
    fill_pattern(host, N, 3);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .event = &e));
    CLMEM_CHECK(t, e != NULL);
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    clReleaseEvent(e);
    e = NULL;
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)back, b, .event = &e));
    CLMEM_CHECK(t, e != NULL);
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    clReleaseEvent(e);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_buffer_release(&b);
}
static void test_event_staged(clmem_test_context *t) { event_done(t, 0); }
static void test_event_direct(clmem_test_context *t) { event_done(t, CLMEM_STAGER_NEVER); }

/* an out-of-order queue is refused: a stager's copies are commands of its queue in
   call order (clmem_stager_create says so) */
static void test_ooo_refused(clmem_test_context *t) {
    cl_int err;
    clmem_stager *st;
    cl_command_queue q = extra_queue_with(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS || !q) {
        clmem_test_skip(t, "the device has no out-of-order queues");
        return;
    }
    st = clmem_stager_create(q, 10000, 2, 2, &err);
    CLMEM_CHECK(t, st == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_stager_create: queue") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "out-of-order") != NULL);
    if (st) clmem_stager_release(st);
    clReleaseCommandQueue(q);
}

/* ---- a release while another thread copies ---- */
typedef struct copier {
    clmem_stager *st;
    clmem_buffer b;
    const unsigned char *host;
    cl_event gate;
    cl_int result;
} copier;
static void *copy_gated(void *arg) {
    copier *c = (copier *)arg;
    c->result = clmem_stager_copy(c->st, c->b, (const void *)c->host, .wait_for = &c->gate, .num_wait_for = 1);
    return NULL;
}
static void release_while_copying(clmem_test_context *t, size_t threshold) {
    static unsigned char host[N], back[N];
    cl_int err;
    copier c;
    pthread_t th;
    clmem_stager_stats s;
    int spins;
    if (skip_threads_on_oclgrind(t)) return;
    memset(&c, 0, sizeof c);
    c.st = stager(t, threshold);
    c.b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    c.gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    if (!c.st) return;
    fill_pattern(host, N, 4);
    c.host = host;
    c.result = 1;
    alarm(30);
    CLMEM_CHECK(t, pthread_create(&th, NULL, copy_gated, &c) == 0);
    /* the copy is running (it waits for the gate) once the stager counts it */
    memset(&s, 0, sizeof s);
    for (spins = 0; spins < 20000; ++spins) {
        struct timespec ms = {0, 1000000};
        CLMEM_CHECK_CL(t, clmem_stager_get_stats(c.st, &s));
        if (s.running) break;
        nanosleep(&ms, NULL);
    }
    CLMEM_CHECK_EQ(t, s.running, 1);
    CLMEM_CHECK_ERR(t, clmem_stager_release(c.st), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_stager_release") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "1 copy") != NULL);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(c.gate, CL_COMPLETE));
    pthread_join(th, NULL);
    alarm(0);
    CLMEM_CHECK_CL(t, c.result);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, c.b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(c.st, &s));
    CLMEM_CHECK_EQ(t, s.running, 0);
    CLMEM_CHECK_CL(t, clmem_stager_release(c.st)); /* now it goes */
    clReleaseEvent(c.gate);
    clmem_buffer_release(&c.b);
}
static void test_release_while_staged(clmem_test_context *t) { release_while_copying(t, 0); }
static void test_release_while_direct(clmem_test_context *t) { release_while_copying(t, CLMEM_STAGER_NEVER); }

/* ---- non-blocking staged copies ---- */
/* The call returns while its wait list holds it back (the gate is closed): the
   buffer and the host memory are untouched; opening the gate completes the event
   once every byte has arrived. A release meanwhile is refused. */
static void test_nonblocking(clmem_test_context *t) {
    static unsigned char host[N], old[N], back[N];
    cl_int err;
    cl_event gate, e = NULL;
    clmem_stager *st;
    clmem_buffer b;
    clmem_stager_stats s;
    if (skip_threads_on_oclgrind(t)) return;
    st = stager(t, 0);
    b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st) return;
    fill_pattern(old, N, 6);
    fill_pattern(host, N, 7);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, N, old, 0, NULL, NULL));
    alarm(30);
    /* host -> buffer */
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .is_blocking = false, .wait_for = &gate,
                                        .num_wait_for = 1, .event = &e));
    CLMEM_CHECK(t, e != NULL);
    CLMEM_CHECK(t, event_status(e) > CL_COMPLETE); /* returned before the transfer */
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.running, 1);
    CLMEM_CHECK_ERR(t, clmem_stager_release(st), CL_INVALID_OPERATION);
    { /* (read on another queue: on the stager's, the read comes after the copy) */
        cl_command_queue q2 = extra_queue(t, t->context, &err);
        CLMEM_CHECK_CL(t, err);
        if (q2) {
            CLMEM_CHECK_CL(t, clEnqueueReadBuffer(q2, b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
            CLMEM_CHECK(t, memcmp(back, old, N) == 0); /* nothing arrived yet */
            clReleaseCommandQueue(q2);
        }
    }
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &e));
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    clReleaseEvent(e);
    e = NULL;
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    /* in call order: an ungated read called after a gated write waits for it */
    clReleaseEvent(gate);
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    {
        static unsigned char host2[N];
        cl_event e2 = NULL;
        fill_pattern(host2, N, 8);
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host2, .is_blocking = false, .wait_for = &gate,
                                            .num_wait_for = 1, .event = &e));
        memset(back, 0, N);
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)back, b, .is_blocking = false, .event = &e2));
        CLMEM_CHECK(t, event_status(e2) > CL_COMPLETE);
        CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
        CLMEM_CHECK_EQ(t, s.running, 2);
        CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &e2));
        CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
        CLMEM_CHECK(t, memcmp(back, host2, N) == 0); /* the read saw the write */
        clReleaseEvent(e);
        clReleaseEvent(e2);
        e = NULL;
        memcpy(host, host2, N);
    }
    /* buffer -> host, gated again */
    clReleaseEvent(gate);
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    memset(back, 0x5C, N);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)back, b, .is_blocking = false, .wait_for = &gate,
                                        .num_wait_for = 1, .event = &e));
    CLMEM_CHECK(t, event_status(e) > CL_COMPLETE);
    CLMEM_CHECK_EQ(t, back[0], 0x5C);
    CLMEM_CHECK_EQ(t, back[N - 1], 0x5C);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &e));
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    clReleaseEvent(e);
    e = NULL;
    /* the gate fails: the copy's event fails, nothing is written */
    clReleaseEvent(gate);
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)old, .is_blocking = false, .wait_for = &gate,
                                        .num_wait_for = 1, .event = &e));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, -9));
    clWaitForEvents(1, &e); /* its code is the driver's: NVIDIA 580 answers CL_SUCCESS for a failed user event */
    CLMEM_CHECK(t, event_status(e) < 0);
    clReleaseEvent(e);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    alarm(0);
    CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
    CLMEM_CHECK_EQ(t, s.running, 0);
    CLMEM_CHECK_EQ(t, s.staged_copies, 4);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_buffer_release(&b);
}

/* ---- a non-blocking staged copy is a command of the stager's queue, in its order ---- */
/* gated(t, &gate): a user event to hold a copy back; 0 (skipped) on Oclgrind, which runs
   a queue in the flushing thread and is not thread-safe */
static int gated(clmem_test_context *t, cl_event *gate) {
    cl_int err;
    if (skip_gates_on_oclgrind(t)) return 0;
    *gate = clCreateUserEvent(t->context, &err);
    if (err != CL_SUCCESS) clmem_test_fail(t, __FILE__, __LINE__, "clCreateUserEvent: %s", clmem_error_string(err));
    return err == CL_SUCCESS;
}

/* a read on the stager's queue that waits for a non-blocking copy's event runs once
   the copy is done; the pieces are never enqueued behind it (they were, and hung) */
static void test_read_waits_for_copy(clmem_test_context *t) {
    static unsigned char host[N], back[N];
    cl_int err;
    cl_event gate = NULL, e = NULL, rd = NULL;
    clmem_stager *st;
    clmem_buffer b;
    if (!gated(t, &gate)) return;
    st = stager(t, 0);
    b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) return;
    fill_pattern(host, N, 11);
    alarm(30); /* the hang fails the test */
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .is_blocking = false, .event = &e,
                                        .wait_for = &gate, .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_FALSE, 0, N, back, 1, &e, &rd));
    CLMEM_CHECK_CL(t, clFlush(t->queue));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &rd));
    alarm(0);
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    clReleaseEvent(rd);
    clReleaseEvent(e);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_buffer_release(&b);
}

/* a non-blocking copy below the threshold returns at once behind a gated staged copy
   (it waited for it in the call), and comes after it on the queue: it reads the
   staged bytes */
static void test_direct_after_staged(clmem_test_context *t) {
    static unsigned char host[N], back[100];
    cl_int err;
    cl_event gate = NULL, e = NULL, e2 = NULL;
    clmem_stager *st;
    clmem_buffer b;
    if (!gated(t, &gate)) return;
    st = stager(t, 1000); /* N is staged, 100 bytes are not */
    b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) return;
    fill_pattern(host, N, 12);
    memset(back, 0x77, sizeof back);
    alarm(30); /* a call that blocks fails the test */
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .is_blocking = false, .event = &e,
                                        .wait_for = &gate, .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)back, b, .byte_count = sizeof back, .src_offset = 500,
                                        .is_blocking = false, .event = &e2));
    CLMEM_CHECK(t, event_status(e2) > CL_COMPLETE); /* behind the staged copy */
    CLMEM_CHECK_EQ(t, back[0], 0x77);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &e2));
    alarm(0);
    CLMEM_CHECK(t, memcmp(back, host + 500, sizeof back) == 0);
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    {
        clmem_stager_stats s;
        CLMEM_CHECK_CL(t, clmem_stager_get_stats(st, &s));
        CLMEM_CHECK_EQ(t, s.staged_copies, 1);
        CLMEM_CHECK_EQ(t, s.direct_copies, 1);
    }
    clReleaseEvent(e);
    clReleaseEvent(e2);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_buffer_release(&b);
}

/* the buffer released right after a non-blocking copy (as OpenCL allows: a command
   keeps its objects alive): the copy still completes, both ways */
static void test_buffer_released_early(clmem_test_context *t) {
    static unsigned char host[N], back[N];
    cl_int err;
    cl_event gate = NULL, e = NULL, e2 = NULL;
    clmem_stager *st;
    clmem_buffer b, c;
    if (!gated(t, &gate)) return;
    st = stager(t, 0);
    fill_pattern(host, N, 13);
    b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    c = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, N, host, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem || !c.mem) return;
    memset(back, 0, N);
    alarm(30);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .is_blocking = false, .event = &e,
                                        .wait_for = &gate, .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)back, c, .is_blocking = false, .event = &e2));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &e2));
    alarm(0);
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    CLMEM_CHECK_EQ(t, event_status(e2), CL_COMPLETE);
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    clReleaseEvent(e);
    clReleaseEvent(e2);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
}

/* a pooled block released on the stager's queue while a staged copy into it waits:
   the release comes after the copy, so the next owner's bytes (written on the queue
   after the release) stay */
static void test_pooled_release_after_copy(clmem_test_context *t) {
    static unsigned char mine[N], theirs[N], back[N];
    cl_int err;
    cl_event gate = NULL, e = NULL, w = NULL;
    clmem_stager *st;
    clmem_allocator *a;
    clmem_memory_pool *pool;
    clmem_buffer b, next = CLMEM__ZERO;
    cl_mem block;
    if (!gated(t, &gate)) return;
    st = stager(t, 0);
    a = clmem_deferred_allocator_create(t->context, 0, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, N, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) return;
    block = b.mem;
    fill_pattern(mine, N, 14);
    fill_pattern(theirs, N, 15);
    alarm(30);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)mine, .is_blocking = false, .event = &e,
                                        .wait_for = &gate, .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&b, t->queue));
    next = clmem_memory_pool_allocate_on_queue(pool, N, t->queue, &err); /* the same block, at once */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, next.mem == block);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, next.mem, CL_FALSE, 0, N, theirs, 0, NULL, &w));
    CLMEM_CHECK_CL(t, clFlush(t->queue));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &w));
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, next.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    alarm(0);
    CLMEM_CHECK(t, memcmp(back, theirs, N) == 0);
    clReleaseEvent(w);
    clReleaseEvent(e);
    clReleaseEvent(gate);
    clmem_buffer_release(&next);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_memory_pool_release(pool);
    clmem_allocator_release(a);
}

/* threads of this process now (Windows: a Toolhelp snapshot; Linux: /proc/self/task);
   -1 where unknown */
#if defined(_WIN32)
#include <tlhelp32.h>
static int thread_count(void) {
    THREADENTRY32 te;
    DWORD self = GetCurrentProcessId();
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    int n = 0;
    if (snap == INVALID_HANDLE_VALUE) return -1;
    te.dwSize = sizeof te;
    if (Thread32First(snap, &te)) {
        do
            if (te.th32OwnerProcessID == self) ++n;
        while (Thread32Next(snap, &te));
    }
    CloseHandle(snap);
    return n > 0 ? n : -1;
}
#else
static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}
#endif

/* non-blocking staged copies run on the stager's own threads: many copies held back
   at once start no thread each */
static void test_no_thread_per_copy(clmem_test_context *t) {
    enum { COPIES = 24 };
    static unsigned char host[COPIES][N];
    cl_int err;
    cl_event gate = NULL, e[COPIES];
    clmem_stager *st;
    clmem_buffer b;
    int before, during, after, i;
    if (thread_count() < 0) {
        clmem_test_skip(t, "no way to count this process's threads here");
        return;
    }
    if (!gated(t, &gate)) return;
    st = stager(t, 0);
    b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) return;
    alarm(60);
    /* one copy first: whatever the stager starts for non-blocking copies is running */
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host[0], .is_blocking = false, .event = &e[0]));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &e[0]));
    clReleaseEvent(e[0]);
    before = thread_count();
    for (i = 0; i < COPIES; ++i) {
        fill_pattern(host[i], N, 100u + (unsigned)i);
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host[i], .is_blocking = false, .event = &e[i],
                                            .wait_for = &gate, .num_wait_for = 1));
    }
    during = thread_count();
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(COPIES, e));
    after = thread_count();
    alarm(0);
    CLMEM_CHECK(t, during <= before);
    CLMEM_CHECK(t, after <= before);
    {
        static unsigned char back[N];
        CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
        CLMEM_CHECK(t, memcmp(back, host[COPIES - 1], N) == 0); /* the last copy called is the last to land */
    }
    for (i = 0; i < COPIES; ++i) clReleaseEvent(e[i]);
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_buffer_release(&b);
}

static const clmem_test_case cases[] = {
    {"failed_wait_staged", test_failed_wait_staged, false},
    {"failed_wait_direct", test_failed_wait_direct, false},
    {"event_staged", test_event_staged, false},
    {"event_direct", test_event_direct, false},
    {"ooo_refused", test_ooo_refused, false},
    {"release_while_staged", test_release_while_staged, false},
    {"release_while_direct", test_release_while_direct, false},
    {"nonblocking", test_nonblocking, false},
    {"read_waits_for_copy", test_read_waits_for_copy, false},
    {"direct_after_staged", test_direct_after_staged, false},
    {"buffer_released_early", test_buffer_released_early, false},
    {"pooled_release_after_copy", test_pooled_release_after_copy, false},
    {"no_thread_per_copy", test_no_thread_per_copy, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
