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

/* a wait list holding a failed user event: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
   as clmem_enqueue_copy says, never a hang; nothing written or read */
static void failed_wait(clmem_test_context *t, size_t threshold) {
    static unsigned char host[N], dev[N], guard[N];
    cl_int err;
    clmem_stager *st = stager(t, threshold);
    clmem_buffer b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    cl_event gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    if (!st || !b.mem) return;
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, -5));
    fill_pattern(dev, N, 1);
    fill_pattern(host, N, 2);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, N, dev, 0, NULL, NULL));
    alarm(30); /* a hang fails the test */
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, b, (const void *)host, .wait_for = &gate, .num_wait_for = 1),
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_stager_copy") != NULL);
    memset(guard, 0xC3, N);
    memcpy(host, guard, N);
    CLMEM_CHECK_ERR(t, clmem_stager_copy(st, (void *)host, b, .wait_for = &gate, .num_wait_for = 1),
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
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

/* runs_out_of_order(q): with a gated command pending on q, does a command without
   dependencies complete (within a second)? Drivers may take
   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE and still run the queue in order. */
static int runs_out_of_order(cl_command_queue q) {
    static const cl_uint zero = 0;
    cl_context ctx = NULL;
    cl_mem scratch;
    cl_event w = NULL;
    struct timespec ms = {0, 10 * 1000 * 1000};
    int i, done = 0;
    cl_int err;
    if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS) return 0;
    scratch = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof zero, NULL, &err);
    if (err != CL_SUCCESS) return 0;
    /* (not a marker: a marker without a wait list waits for every command before it) */
    if (clEnqueueWriteBuffer(q, scratch, CL_FALSE, 0, sizeof zero, &zero, 0, NULL, &w) == CL_SUCCESS) {
        clFlush(q);
        for (i = 0; i < 100 && !done; ++i) {
            done = event_status(w) == CL_COMPLETE;
            if (!done) nanosleep(&ms, NULL);
        }
        clReleaseEvent(w);
    }
    clReleaseMemObject(scratch); /* deferred by the driver until the write is done */
    return done;
}

/* the same on an out-of-order queue that holds an unrelated command waiting for a
   gate: the copy does not wait for it, and neither may its event */
static void test_event_staged_ooo(clmem_test_context *t) {
    static unsigned char host[N], back[N];
    cl_int err;
    cl_event e = NULL, gate;
    clmem_stager *st;
    clmem_buffer b;
    cl_command_queue q;
    if (on_oclgrind(t)) { /* it takes the flag but runs the queue in order: the copy would wait for the gate */
        clmem_test_skip(t, "Oclgrind 21.10 runs out-of-order queues in order");
        return;
    }
    q = extra_queue_with(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS || !q) {
        clmem_test_skip(t, "the device has no out-of-order queues");
        return;
    }
    st = clmem_stager_create(q, 10000, 2, 2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, 0));
    b = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clEnqueueMarkerWithWaitList(q, 1, &gate, NULL)); /* pending until the gate opens */
    if (!runs_out_of_order(q)) { /* NVIDIA 580 takes the flag and runs the queue in order */
        clSetUserEventStatus(gate, CL_COMPLETE);
        clReleaseEvent(gate);
        clmem_buffer_release(&b);
        clmem_stager_release(st);
        clReleaseCommandQueue(q);
        clmem_test_skip(t, "the driver runs this out-of-order queue in order: a command without dependencies waits "
                           "behind a gated one");
        return;
    }
    fill_pattern(host, N, 5);
    alarm(30);
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, b, (const void *)host, .event = &e));
    CLMEM_CHECK(t, e != NULL);
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    clReleaseEvent(e);
    e = NULL;
    CLMEM_CHECK_CL(t, clmem_stager_copy(st, (void *)back, b, .event = &e));
    CLMEM_CHECK_EQ(t, event_status(e), CL_COMPLETE);
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    alarm(0);
    clReleaseEvent(e);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clFinish(q));
    clReleaseEvent(gate);
    CLMEM_CHECK_CL(t, clmem_stager_release(st));
    clmem_buffer_release(&b);
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
#if defined(_WIN32) || defined(CLMEM_USE_C11_THREADS)
    /* the stager's worker threads are pthreads for now (clmem/stager.c) */
    clmem_test_skip(t, "the stager has no worker threads on this build: a non-blocking copy would wait for its "
                       "wait list on the calling thread");
    return;
#endif
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
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, old, N) == 0); /* nothing arrived yet */
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

static const clmem_test_case cases[] = {
    {"failed_wait_staged", test_failed_wait_staged, false},
    {"failed_wait_direct", test_failed_wait_direct, false},
    {"event_staged", test_event_staged, false},
    {"event_direct", test_event_direct, false},
    {"event_staged_ooo", test_event_staged_ooo, false},
    {"release_while_staged", test_release_while_staged, false},
    {"release_while_direct", test_release_while_direct, false},
    {"nonblocking", test_nonblocking, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
