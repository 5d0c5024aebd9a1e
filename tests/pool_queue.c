/* Queue-ordered release and reuse (issue 13.1; cudaFreeAsync / cudaMallocAsync):
   a block released on queue q1 is reused at once on q1, behind a marker on another
   queue, and by the host only after q1 passed the release point. Two ways to catch a
   block handed out too early, both deterministic when clmem is right:
   - a spin kernel of measured length on q1 writes a sentinel at its very end; the
     reader on q2 (or the host) must see the sentinel, and the kernel must be done;
   - a write on q1 gated by a user event: a read of the reused block on q2 must not
     complete while the gate is closed.
   Without the ordering, PoCL runs q2's read while q1 spins (or waits on the gate) and
   the assertions fail (checked by removing the barrier from clmem__pool_settle). */
#define _POSIX_C_SOURCE 200809L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <time.h>

#define SENTINEL 0x5EA1ED00u

static const char *spin_src =
    "__kernel void spin(__global volatile uint *buf, uint iters, uint sentinel) {\n"
    "    uint x = buf[1];\n"
    "    for (uint i = 0; i < iters; ++i) x = x * 1664525u + 1013904223u;\n"
    "    buf[1] = x;\n"
    "    buf[0] = sentinel;\n"
    "}\n";

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static cl_int event_status(cl_event e) {
    cl_int st = -1;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    return st;
}

static cl_uint queue_refs(cl_command_queue q) {
    cl_uint n = 0;
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

static clmem_memory_pool *make_pool(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    if (!pool) clmem_test_fail(t, __FILE__, __LINE__, "no pool: %s", clmem_last_error_message());
    return pool;
}

/* spin iterations for a kernel of roughly `ms` milliseconds on this device, measured */
static cl_uint measure_spin(clmem_test_context *t, cl_kernel k, cl_mem buf, double ms) {
    cl_uint iters = 1u << 16;
    size_t one = 1;
    int round;
    for (round = 0; round < 8; ++round) {
        double t0 = now_ms(), took;
        cl_uint s = 0;
        clSetKernelArg(k, 0, sizeof buf, &buf);
        clSetKernelArg(k, 1, sizeof iters, &iters);
        clSetKernelArg(k, 2, sizeof s, &s);
        if (clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &one, &one, 0, NULL, NULL) != CL_SUCCESS) return iters;
        clFinish(t->queue);
        took = now_ms() - t0;
        if (took >= ms / 4 || iters >= (1u << 30)) {
            double scale = took > 0.01 ? ms / took : 64;
            double want = (double)iters * scale;
            return want > 4e9 ? 4000000000u : want < 1 ? 1u : (cl_uint)want;
        }
        iters *= 8;
    }
    return iters;
}

/* q1 spins, then writes the sentinel; the block, released on q1, is reused on q2 (at
   once, behind a marker) and then by the host (after q1 is done) */
static void test_spin_two_queues(clmem_test_context *t) {
    cl_int err;
    clmem_memory_pool *pool = make_pool(t);
    cl_command_queue q2 = extra_queue(t, t->context, &err);
    cl_kernel k = build_kernel(t, spin_src, "spin");
    clmem_buffer b, c, copy;
    cl_mem first;
    cl_uint zero[2] = {0, 0}, got[2] = {0, 0}, iters, sentinel = SENTINEL;
    size_t one = 1;
    cl_event ev = NULL;
    int pass;
    double spun = 0;
    clmem_pool_stats st;
    CLMEM_CHECK_CL(t, err);
    if (!k || !pool) goto done;
    b = clmem_memory_pool_allocate_on_queue(pool, 4096, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    iters = measure_spin(t, k, b.mem, 300.0);
    for (pass = 0; pass < 2; ++pass) { /* pass 0: reuse on q2; pass 1: reuse by the host */
        double t0;
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
        CLMEM_CHECK_CL(t, clSetKernelArg(k, 0, sizeof b.mem, &b.mem));
        CLMEM_CHECK_CL(t, clSetKernelArg(k, 1, sizeof iters, &iters));
        CLMEM_CHECK_CL(t, clSetKernelArg(k, 2, sizeof sentinel, &sentinel));
        t0 = now_ms();
        CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &one, &one, 0, NULL, &ev));
        CLMEM_CHECK_CL(t, clFlush(t->queue));
        first = b.mem;
        copy = b;
        CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&b, t->queue));
        CLMEM_CHECK(t, b.mem == NULL);
        CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 1);
        CLMEM_CHECK_ERR(t, clmem_pooled_buffer_enqueue_release(&copy, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
        if (pass == 0) {
            c = clmem_memory_pool_allocate_on_queue(pool, 4100, q2, &err); /* the same bin (4096..4351) */
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK(t, c.mem == first); /* reused at once (no fresh block) ... */
            CLMEM_CHECK_CL(t, clEnqueueReadBuffer(q2, c.mem, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
            CLMEM_CHECK_EQ(t, got[0], SENTINEL); /* ... but q2 saw it only after the kernel's end */
            CLMEM_CHECK_EQ(t, event_status(ev), CL_COMPLETE);
        } else {
            c = clmem_memory_pool_allocate(pool, 4096, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK(t, c.mem == first);
            CLMEM_CHECK_EQ(t, event_status(ev), CL_COMPLETE); /* the host waited for q1 */
            CLMEM_CHECK_CL(t, clEnqueueReadBuffer(q2, c.mem, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
            CLMEM_CHECK_EQ(t, got[0], SENTINEL);
        }
        spun = now_ms() - t0;
        clReleaseEvent(ev);
        ev = NULL;
        b = c;
    }
    if (spun < 20) printf("    note: the spin kernel took only %.1f ms here; the test has little power\n", spun);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.misses, 1);
    CLMEM_CHECK_EQ(t, st.hits, 2);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
done:
    if (k) clReleaseKernel(k);
    if (pool) CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    if (q2) clReleaseCommandQueue(q2);
}

/* a write on q1 waits for a user event; the block released on q1 and reused on q2 must
   not be read on q2 before the write ran */
static void test_gated_two_queues(clmem_test_context *t) {
    cl_int err;
    clmem_memory_pool *pool;
    cl_command_queue q2;
    if (skip_gates_on_oclgrind(t)) return;
    pool = make_pool(t);
    q2 = extra_queue(t, t->context, &err);
    cl_event gate = clCreateUserEvent(t->context, &err);
    cl_event wr = NULL, rd = NULL;
    clmem_buffer b, c;
    cl_uint zero = 0, s = SENTINEL, got = 0;
    cl_uint refs0;
    int i, early;
    CLMEM_CHECK_CL(t, err);
    if (!pool) return;
    b = clmem_memory_pool_allocate(pool, 256, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_FALSE, 0, sizeof s, &s, 1, &gate, &wr));
    CLMEM_CHECK_CL(t, clFlush(t->queue));
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&b, t->queue));
    /* the same in-order queue gets it back at once, without waiting for the gate */
    b = clmem_memory_pool_allocate_on_queue(pool, 256, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, event_status(wr) != CL_COMPLETE);
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&b, t->queue));
    /* another queue gets it behind a marker */
    c = clmem_memory_pool_allocate_on_queue(pool, 256, q2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 1);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(q2, c.mem, CL_FALSE, 0, sizeof got, &got, 0, NULL, &rd));
    CLMEM_CHECK_CL(t, clFlush(q2));
    early = 0;
    for (i = 0; i < 20; ++i) { /* 200 ms: plenty for PoCL to run an unordered read */
        if ((early = event_status(rd) == CL_COMPLETE) != 0) break;
        sleep_ms(10);
    }
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE)); /* first, so that a failure cannot hang */
    CLMEM_CHECK(t, !early); /* the read did not run before the gated write */
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &rd));
    CLMEM_CHECK_EQ(t, got, SENTINEL);
    clReleaseEvent(rd);
    CLMEM_CHECK_CL(t, clFinish(q2));
    refs0 = queue_refs(q2);
    /* released on q2 now: the pool keeps q2 retained until the block is freed */
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&c, q2));
    CLMEM_CHECK_EQ(t, queue_refs(q2), refs0 + 1);
    refs0 = queue_refs(q2);
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK(t, queue_refs(q2) + 1 <= refs0); /* the pool's reference went with the block */
    clReleaseEvent(wr);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q2);
}

/* a free block is preferred to one still pending on another queue; an out-of-order
   queue reuses its own releases only behind a barrier */
static void test_preference_and_ooo(clmem_test_context *t) {
    cl_int err;
    clmem_memory_pool *pool;
    cl_command_queue q2;
    if (skip_gates_on_oclgrind(t)) return;
    pool = make_pool(t);
    q2 = extra_queue(t, t->context, &err);
    cl_command_queue ooo;
    clmem_buffer a, b, c;
    cl_mem amem, bmem;
    CLMEM_CHECK_CL(t, err);
    a = clmem_memory_pool_allocate(pool, 512, &err);
    b = clmem_memory_pool_allocate(pool, 512, &err);
    CLMEM_CHECK_CL(t, err);
    amem = a.mem;
    bmem = b.mem;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&a));                        /* free */
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&b, t->queue)); /* pending on q1 */
    c = clmem_memory_pool_allocate_on_queue(pool, 512, q2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, c.mem == amem);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
    c = clmem_memory_pool_allocate_on_queue(pool, 512, t->queue, &err); /* q1 takes its own first */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, c.mem == bmem);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
    ooo = extra_queue_with(t, t->context, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err == CL_SUCCESS) {
        cl_event gate = clCreateUserEvent(t->context, &err), rd = NULL;
        cl_uint s = SENTINEL, got = 0;
        int i;
        CLMEM_CHECK_CL(t, clmem_memory_pool_free_held(pool));
        a = clmem_memory_pool_allocate(pool, 512, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(ooo, a.mem, CL_FALSE, 0, sizeof s, &s, 1, &gate, NULL));
        CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&a, ooo));
        c = clmem_memory_pool_allocate_on_queue(pool, 512, ooo, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clEnqueueReadBuffer(ooo, c.mem, CL_FALSE, 0, sizeof got, &got, 0, NULL, &rd));
        CLMEM_CHECK_CL(t, clFlush(ooo));
        int early = 0;
        for (i = 0; i < 10; ++i) {
            if ((early = event_status(rd) == CL_COMPLETE) != 0) break;
            sleep_ms(10);
        }
        CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
        CLMEM_CHECK(t, !early);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &rd));
        CLMEM_CHECK_EQ(t, got, SENTINEL);
        CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
        clReleaseEvent(rd);
        clReleaseEvent(gate);
        CLMEM_CHECK_CL(t, clFinish(ooo));
        CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
        clReleaseCommandQueue(ooo);
    } else {
        CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    }
    clReleaseCommandQueue(q2);
}

/* SVM: a block bound to q1 and released is reused on q2 behind a marker */
static void test_svm_gated(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    cl_int err;
    clmem_svm_allocator *a;
    clmem_svm_pool *pool;
    clmem_pooled_svm p, r;
    cl_command_queue q2;
    cl_event gate, rd = NULL;
    cl_uint s = SENTINEL, got = 0, zero = 0;
    void *first;
    int i, early;
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return;
    }
    q2 = extra_queue(t, t->context, &err);
    CLMEM_CHECK_CL(t, err);
    gate = clCreateUserEvent(t->context, &err);
    a = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_svm_pool_create(a, 4, &err);
    clmem_svm_allocator_release(a);
    p = clmem_svm_pool_allocate(pool, 64, &err);
    CLMEM_CHECK_CL(t, err);
    first = p.svm.ptr;
    CLMEM_CHECK(t, clmem_pooled_svm_pool(p) == pool);
    CLMEM_CHECK_CL(t, clEnqueueSVMMemcpy(t->queue, CL_TRUE, p.svm.ptr, &zero, sizeof zero, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clEnqueueSVMMemcpy(t->queue, CL_FALSE, p.svm.ptr, &s, sizeof s, 1, &gate, NULL));
    CLMEM_CHECK_CL(t, clFlush(t->queue));
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&p)); /* bound to q1: ordered there */
    r = clmem_svm_pool_allocate_on_queue(pool, 64, q2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, r.svm.ptr == first);
    CLMEM_CHECK(t, clmem_pooled_svm_queue(r) == q2);
    CLMEM_CHECK_CL(t, clEnqueueSVMMemcpy(q2, CL_FALSE, &got, r.svm.ptr, sizeof got, 0, NULL, &rd));
    CLMEM_CHECK_CL(t, clFlush(q2));
    early = 0;
    for (i = 0; i < 10; ++i) {
        if ((early = event_status(rd) == CL_COMPLETE) != 0) break;
        sleep_ms(10);
    }
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE)); /* first, so that a failure cannot hang */
    CLMEM_CHECK(t, !early); /* the read did not run before the gated write */
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &rd));
    CLMEM_CHECK_EQ(t, got, SENTINEL);
    CLMEM_CHECK_ERR(t, (clmem_svm_pool_allocate_on_queue(pool, 64, NULL, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&r));
    CLMEM_CHECK_CL(t, clmem_svm_pool_release(pool));
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clReleaseEvent(rd);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q2);
#else
    clmem_test_skip(t, "OpenCL 2.0 headers needed for SVM");
#endif
}

/* wrong arguments, with their codes and words */
static void test_bad_args(clmem_test_context *t) {
    cl_int err;
    clmem_memory_pool *pool = make_pool(t);
    clmem_buffer plain = clmem_buffer_create(t->context, 0, 64, NULL, &err), b, copy;
    cl_context other;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate_on_queue(pool, 64, NULL, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_memory_pool_allocate_on_queue: queue is NULL") != NULL);
    CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate_on_queue(NULL, 64, t->queue, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_pooled_buffer_enqueue_release(&plain, t->queue), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "is not a pooled buffer") != NULL);
    CLMEM_CHECK(t, plain.mem != NULL); /* refused: untouched */
    b = clmem_memory_pool_allocate(pool, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_pooled_buffer_enqueue_release(&b, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, b.mem != NULL);
    other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    if (err == CL_SUCCESS) {
        cl_command_queue oq = extra_queue(t, other, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_ERR(t, clmem_pooled_buffer_enqueue_release(&b, oq), CL_INVALID_CONTEXT);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "belongs to context") != NULL);
        CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate_on_queue(pool, 64, oq, &err), err), CL_INVALID_CONTEXT);
        clReleaseCommandQueue(oq);
        clReleaseContext(other);
    }
    copy = b;
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&b, t->queue));
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&b, t->queue)); /* empty: a no-op */
    CLMEM_CHECK_ERR(t, clmem_pooled_buffer_enqueue_release(&copy, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_pooled_buffer_enqueue_release: pooled block") != NULL);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&plain));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

static const clmem_test_case cases[] = {
    {"spin_two_queues", test_spin_two_queues, false},
    {"gated_two_queues", test_gated_two_queues, false},
    {"preference_and_ooo", test_preference_and_ooo, false},
    {"svm_gated", test_svm_gated, false},
    {"bad_args", test_bad_args, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
