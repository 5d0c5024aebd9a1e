/* The pinned pool on the pool core: stale-handle generations and queue-ordered
   release (clmem_pinned_pool_allocate_on_queue, clmem_pinned_allocation_enqueue_release),
   as the buffer pools have them. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <time.h>

enum { N = 4096 };

/* a stale copy of a pooled pinned handle, its block handed to a new owner: releasing
   it (plainly or on a queue) is CLMEM_ERROR_DOUBLE_RELEASE, changes nothing, and the
   new owner's memory and books are untouched */
static void test_stale_handle(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, 0, 4, &err);
    clmem_pinned_allocation a, stale, owner;
    size_t i;
    CLMEM_CHECK_CL(t, err);
    a = clmem_pinned_pool_allocate(p, N, &err);
    CLMEM_CHECK_CL(t, err);
    stale = a;
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    owner = clmem_pinned_pool_allocate(p, N, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, owner.ptr == stale.ptr && owner.mem == stale.mem);
    CLMEM_CHECK(t, owner.pool == stale.pool && owner.generation != stale.generation);
    memset(owner.ptr, 0xA5, N);
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&stale), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "already released") != NULL);
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_enqueue_release(&stale, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(p), 1);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(p), 0);
    /* the owner's block was not given to anyone else */
    a = clmem_pinned_pool_allocate(p, N, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.ptr != owner.ptr);
    for (i = 0; i < N; ++i)
        if (((unsigned char *)owner.ptr)[i] != 0xA5) {
            CLMEM_CHECK_EQ(t, ((unsigned char *)owner.ptr)[i], 0xA5);
            break;
        }
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&owner));
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&owner), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
    /* and after the pool is gone, the copy is still recognised */
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&stale), CLMEM_ERROR_DOUBLE_RELEASE);
}

/* what a gated case shares with its caller, who opens the gate and cleans up
   whatever the case did before a failed check returned from it */
typedef struct gated {
    clmem_pinned_pool *pool;
    cl_command_queue q2;
    cl_event gate;
    clmem_buffer dst, src;
    clmem_pinned_allocation h[3];
#if !defined(_WIN32)
    pthread_t th;
    int started, done;
#endif
} gated;

static void gated_open(clmem_test_context *t, gated *g) {
    int i;
    g->pool = clmem_pinned_pool_create(t->queue, 0, 4, NULL);
    g->q2 = extra_queue(t, t->context, NULL);
    g->gate = clCreateUserEvent(t->context, NULL);
    g->dst = clmem_buffer_create(t->context, 0, N, NULL, NULL);
    g->src = clmem_buffer_create(t->context, 0, N, NULL, NULL);
    for (i = 0; i < 3; ++i) memset(&g->h[i], 0, sizeof g->h[i]);
#if !defined(_WIN32)
    g->started = g->done = 0;
#endif
}

static void gated_close(clmem_test_context *t, gated *g) {
    int i;
    if (g->gate) clSetUserEventStatus(g->gate, CL_COMPLETE); /* a no-op error when it is open */
#if !defined(_WIN32)
    if (g->started) pthread_join(g->th, NULL);
#endif
    if (g->q2) clFinish(g->q2);
    clFinish(t->queue);
    for (i = 0; i < 3; ++i) clmem_pinned_allocation_release(&g->h[i]);
    if (g->gate) clReleaseEvent(g->gate);
    if (g->q2) clReleaseCommandQueue(g->q2);
    clmem_buffer_release(&g->dst);
    clmem_buffer_release(&g->src);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(g->pool));
}

/* a block released on a queue behind work gated by a user event: another queue gets
   it only behind that work, so the gated write still reads the first owner's bytes */
static void queue_order(clmem_test_context *t, gated *g) {
    static const unsigned char x22 = 0x22;
    clmem_pinned_allocation h;
    unsigned char back[N];
    cl_int err;
    CLMEM_CHECK(t, g->pool && g->q2 && g->gate && g->dst.mem && g->src.mem);
    CLMEM_CHECK_CL(t, clEnqueueFillBuffer(g->q2, g->src.mem, &x22, 1, 0, N, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clFinish(g->q2));
    h = clmem_pinned_pool_allocate(g->pool, N, &err);
    CLMEM_CHECK_CL(t, err);
    memset(h.ptr, 0x11, N);
    /* dst <- h, not before the gate opens; then h goes back on t->queue */
    err = clEnqueueWriteBuffer(t->queue, g->dst.mem, CL_FALSE, 0, N, h.ptr, 1, &g->gate, NULL);
    if (err != CL_SUCCESS) g->h[0] = h;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_enqueue_release(&h, t->queue));
    CLMEM_CHECK(t, h.ptr == NULL && h.mem == NULL);
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_enqueue_release(&h, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
    /* q2 takes the block: it must wait for t->queue's work up to the release */
    g->h[1] = clmem_pinned_pool_allocate_on_queue(g->pool, N, g->q2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(g->q2, g->src.mem, CL_FALSE, 0, N, g->h[1].ptr, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clFlush(g->q2));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(g->gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clFinish(g->q2));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, g->dst.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK_EQ(t, back[0], 0x11); /* the gated write read the first owner's bytes */
    CLMEM_CHECK_EQ(t, back[N - 1], 0x11);
    CLMEM_CHECK_EQ(t, ((unsigned char *)g->h[1].ptr)[N - 1], 0x22);
    /* released on q2 and taken on q2 again: the same block at once */
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_enqueue_release(&g->h[1], g->q2));
    g->h[1] = clmem_pinned_pool_allocate_on_queue(g->pool, N, g->q2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(g->pool), 1);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_enqueue_release(&g->h[1], g->q2));
    /* the host takes it after q2's work (a wait, here already done) */
    g->h[1] = clmem_pinned_pool_allocate(g->pool, N, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, ((unsigned char *)g->h[1].ptr)[0], 0x22);
}

static void test_queue_order(clmem_test_context *t) {
    gated g;
    if (skip_gates_on_oclgrind(t)) return;
    gated_open(t, &g);
    queue_order(t, &g);
    gated_close(t, &g);
}

/* the host waits for the queue a block was released on: a thread allocating for the
   host does not get the block before the gate opens */
#if !defined(_WIN32)
static void *take_for_host(void *arg) {
    gated *g = (gated *)arg;
    g->h[2] = clmem_pinned_pool_allocate(g->pool, N, NULL);
    __atomic_store_n(&g->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void host_waits(clmem_test_context *t, gated *g) {
    struct timespec ms100 = {0, 100 * 1000 * 1000};
    clmem_pinned_allocation h;
    unsigned char back[N];
    cl_int err;
    CLMEM_CHECK(t, g->pool && g->gate && g->dst.mem);
    h = clmem_pinned_pool_allocate(g->pool, N, &err);
    CLMEM_CHECK_CL(t, err);
    memset(h.ptr, 0x3C, N);
    err = clEnqueueWriteBuffer(t->queue, g->dst.mem, CL_FALSE, 0, N, h.ptr, 1, &g->gate, NULL);
    if (err != CL_SUCCESS) g->h[0] = h;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_enqueue_release(&h, t->queue));
    CLMEM_CHECK(t, pthread_create(&g->th, NULL, take_for_host, g) == 0);
    g->started = 1;
    nanosleep(&ms100, NULL);
    CLMEM_CHECK_EQ(t, __atomic_load_n(&g->done, __ATOMIC_ACQUIRE), 0); /* still waiting for the queue */
    CLMEM_CHECK_CL(t, clSetUserEventStatus(g->gate, CL_COMPLETE));
    pthread_join(g->th, NULL);
    g->started = 0;
    CLMEM_CHECK(t, g->h[2].ptr != NULL);
    memset(g->h[2].ptr, 0x99, N); /* the host's now: the write read 0x3C before */
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, g->dst.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK_EQ(t, back[0], 0x3C);
    CLMEM_CHECK_EQ(t, back[N - 1], 0x3C);
}
#endif

static void test_host_waits(clmem_test_context *t) {
#if defined(_WIN32)
    clmem_test_skip(t, "the test uses pthreads");
#else
    gated g;
    if (skip_threads_on_oclgrind(t)) return;
    gated_open(t, &g);
    host_waits(t, &g);
    gated_close(t, &g);
#endif
}

/* a plain (not pooled) allocation released on a queue: unmapped after that queue's
   work; and the refusals */
static void test_plain_and_refusals(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *p = clmem_pinned_pool_create(t->queue, 0, 4, &err);
    clmem_pinned_allocation a = clmem_pinned_allocation_create(t->queue, N, 0, &err), b, empty;
    clmem_buffer dst = clmem_buffer_create(t->context, 0, N, NULL, &err);
    unsigned char back[N];
    CLMEM_CHECK_CL(t, err);
    if (!a.ptr || !p) return;
    memset(a.ptr, 0x6B, N);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, dst.mem, CL_FALSE, 0, N, a.ptr, 0, NULL, NULL));
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_enqueue_release(&a, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, a.ptr != NULL); /* refused: nothing done */
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_enqueue_release(&a, t->queue));
    CLMEM_CHECK(t, a.ptr == NULL);
    CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&a), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, dst.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK_EQ(t, back[N - 1], 0x6B);
    memset(&empty, 0, sizeof empty);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_enqueue_release(&empty, t->queue));
    CLMEM_CHECK_ERR(t, (b = clmem_pinned_pool_allocate_on_queue(p, N, NULL, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, b.ptr == NULL);
    CLMEM_CHECK_ERR(t, (b = clmem_pinned_pool_allocate_on_queue(NULL, N, t->queue, &err), err), CL_INVALID_VALUE);
    {
        cl_context other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
        cl_command_queue oq = other ? extra_queue(t, other, &err) : NULL;
        if (oq) {
            CLMEM_CHECK_ERR(t, (b = clmem_pinned_pool_allocate_on_queue(p, N, oq, &err), err), CL_INVALID_CONTEXT);
            b = clmem_pinned_pool_allocate(p, N, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_ERR(t, clmem_pinned_allocation_enqueue_release(&b, oq), CL_INVALID_CONTEXT);
            CLMEM_CHECK(t, b.ptr != NULL); /* refused: still the caller's */
            CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&b));
            clReleaseCommandQueue(oq);
        }
        if (other) clReleaseContext(other);
    }
    clmem_buffer_release(&dst);
    CLMEM_CHECK_CL(t, clmem_pinned_pool_release(p));
}

static const clmem_test_case cases[] = {
    {"stale_handle", test_stale_handle, false},
    {"queue_order", test_queue_order, false},
    {"host_waits", test_host_waits, false},
    {"plain_and_refusals", test_plain_and_refusals, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
