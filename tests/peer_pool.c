/* Peer pools (>>peer_pool). Everywhere: the refusals, in words (on PoCL and Oclgrind
   the missing cl_khr_external_memory_opaque_fd), and the pool over peer buffers the
   test builds around ordinary buffers (the extension's entry points replaced by
   markers, as tests/peer.c does; the pool's own backend frees them): blocks reused in a
   loop (the pool's counts), exact bytes through views, queue-ordered release, stale
   handles and stale views refused, the limit and the keep-free. Where peer memory
   exists (NVIDIA with libcuda): the same cases over real peer memory (gpu_*), and with
   two devices (CLMEM_TEST="nvidia:0+1") pooled blocks of two GPUs copied GPU to GPU by a
   device link in a loop; elsewhere these skip with the reason. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "fake_peer.h"

#define NAMES(t, s) CLMEM_CHECK(t, strstr(clmem_last_error_message(), s) != NULL)
#define MiB ((size_t)1 << 20)

static void test_refusals(clmem_test_context *t) {
    cl_int err = 0;
    clmem_pooled_peer p, empty;
    clmem_buffer v;
    memset(&empty, 0, sizeof empty);
    CLMEM_CHECK(t, !clmem_peer_pool_create(NULL, t->device, 4, &err) && err == CL_INVALID_CONTEXT);
    NAMES(t, "clmem_peer_pool_create: context is NULL");
    CLMEM_CHECK(t, !clmem_peer_pool_create(t->context, NULL, 4, &err) && err == CL_INVALID_DEVICE);
    NAMES(t, "clmem_peer_pool_create: home is NULL");
    CLMEM_CHECK(t, !clmem_peer_pool_create(t->context, t->device, CLMEM_POOL_MAX_LEADING_BITS + 1, &err) &&
                       err == CL_INVALID_VALUE);
    NAMES(t, "clmem_peer_pool_create: leading_bits_in_bin_id 11 is above the maximum 10");
    p = clmem_peer_pool_allocate(NULL, 64, &err);
    CLMEM_CHECK(t, p.peer == NULL && p.pool == NULL && err == CL_INVALID_VALUE);
    NAMES(t, "clmem_peer_pool_allocate: pool is NULL");
    p = clmem_peer_pool_allocate_on_queue(NULL, 64, t->queue, &err);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_INVALID_VALUE);
    NAMES(t, "clmem_peer_pool_allocate_on_queue: pool is NULL");
    v = clmem_pooled_peer_view(empty, t->queue, &err);
    CLMEM_CHECK(t, v.mem == NULL && err == CL_INVALID_MEM_OBJECT);
    NAMES(t, "clmem_pooled_peer_view: p is an empty or released pooled peer handle");
    CLMEM_CHECK_ERR(t, clmem_pooled_peer_release(NULL), CL_SUCCESS);
    CLMEM_CHECK_ERR(t, clmem_pooled_peer_release(&empty), CL_SUCCESS);
    CLMEM_CHECK_ERR(t, clmem_pooled_peer_enqueue_release(&empty, t->queue), CL_SUCCESS);
    CLMEM_CHECK_ERR(t, clmem_peer_pool_release(NULL), CL_SUCCESS);
    CLMEM_CHECK_ERR(t, clmem_peer_pool_set_keep_free(NULL, t->device, 1), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, clmem_peer_pool_held_blocks(NULL), 0);
    if (!clmem__device_lists(t->device, "cl_khr_external_memory_opaque_fd")) {
        /* PoCL, Oclgrind: what is missing, in words, as clmem_peer_buffer_create says it */
        CLMEM_CHECK(t, !clmem_peer_pool_create(t->context, t->device, 4, &err));
        CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
        NAMES(t, "clmem_peer_pool_create: device '");
        NAMES(t, "has no cl_khr_external_memory_opaque_fd: peer memory is CUDA memory imported into OpenCL");
    }
}

/* ---- peer buffers built around ordinary buffers (tests/fake_peer.h), a pool of them ---- */

static clmem_test_context *fake_t;
static size_t fake_made;
static cl_int fake_fail; /* non-zero: what the next makes report (as CUDA's failures reach the pool) */
static cl_int fake_make(void *user, size_t size, void **ptr, void **mem) {
    (void)user;
    (void)mem;
    if (fake_fail) return fake_fail;
    *ptr = fake_peer(fake_t, size, true);
    if (*ptr) ++fake_made;
    return *ptr ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
}
/* the peer backend with the test's make: its free is the pool's own */
static const clmem__pool_backend fake_backend = {fake_make, clmem__peer_pool_free, NULL, NULL, false};

static clmem_peer_pool *fake_pool(clmem_test_context *t) {
    clmem__peer_home f;
    clmem__pool *p;
    cl_int err;
    memset(&f, 0, sizeof f);
    f.context = t->context;
    f.home = t->device;
    fake_t = t;
    fake_made = 0;
    fake_fail = CL_SUCCESS;
    p = clmem__pool_with_facts("fake_pool", CLMEM_POOL_DEFAULT_LEADING_BITS, &fake_backend, &f, sizeof f, t->context,
                               NULL, &err);
    if (!p) {
        clmem_test_fail(t, __FILE__, __LINE__, "no pool: %s", clmem_last_error_message());
        return NULL;
    }
    return (clmem_peer_pool *)(void *)p;
}

/* real peer memory: a pool, or NULL after a skip saying why there is none */
static clmem_peer_pool *real_pool(clmem_test_context *t) {
    cl_int err;
    clmem_peer_pool *pp;
    size_t i;
    for (i = 0; i < t->num_devices; ++i)
        if (!clmem__device_lists(t->devices[i], "cl_khr_external_memory_opaque_fd")) {
            clmem_test_skip(t, "a device lacks cl_khr_external_memory_opaque_fd: no peer memory here (the refusal "
                               "is tested in 'refusals'; the pool's logic over test-made peer buffers in 'fake_*')");
            return NULL;
        }
    pp = clmem_peer_pool_create(t->context, t->device, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    if (!pp) clmem_test_skip(t, "no peer memory here: %s", clmem_last_error_message());
    return pp;
}

/* ---- the cases, over either pool ---- */

/* allocate and release in a loop: one block made, reused every time, its view kept */
static void loop_case(clmem_test_context *t, clmem_peer_pool *pp) {
    enum { ROUNDS = 200 };
    size_t n = MiB + 4096, i, bytes = clmem_peer_pool_alloc_size(pp, clmem_peer_pool_bin_number(pp, n));
    unsigned char host[256], back[256];
    clmem_pooled_peer p, q;
    clmem_pool_stats st;
    clmem_buffer v;
    cl_mem first_view = NULL;
    clmem_peer_buffer *first = NULL;
    cl_int err;
    for (i = 0; i < ROUNDS; ++i) {
        p = clmem_peer_pool_allocate(pp, n - i, &err); /* one bin */
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_EQ(t, p.size, n - i);
        v = clmem_pooled_peer_view(p, t->queue, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_EQ(t, v.size, n - i);
        CLMEM_CHECK(t, clmem_peer_buffer_of(v) == p.peer);
        if (i == 0) {
            first = p.peer;
            first_view = v.mem;
        }
        CLMEM_CHECK(t, p.peer == first && v.mem == first_view);
        memset(host, (int)(i & 0xff), sizeof host);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, v, host, .byte_count = sizeof host, .dst_offset = n - i - 256));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, v, .byte_count = sizeof host, .src_offset = n - i - 256));
        CLMEM_CHECK(t, memcmp(host, back, sizeof host) == 0);
        CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
        CLMEM_CHECK(t, p.peer == NULL && p.pool == NULL);
    }
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(pp, &st));
    CLMEM_CHECK_EQ(t, st.allocations, ROUNDS);
    CLMEM_CHECK_EQ(t, st.misses, 1);
    CLMEM_CHECK_EQ(t, st.hits, ROUNDS - 1);
    CLMEM_CHECK_EQ(t, st.held_blocks, 1);
    CLMEM_CHECK_EQ(t, st.active_blocks, 0);
    CLMEM_CHECK_EQ(t, st.managed_bytes, bytes);
    CLMEM_CHECK_EQ(t, st.allocator_frees, 0);
    /* two at once: two blocks */
    p = clmem_peer_pool_allocate(pp, n, &err);
    CLMEM_CHECK_CL(t, err);
    q = clmem_peer_pool_allocate(pp, n, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.peer == first && q.peer != first && q.peer != NULL);
    CLMEM_CHECK_EQ(t, clmem_peer_pool_active_blocks(pp), 2);
    CLMEM_CHECK_EQ(t, clmem_peer_pool_managed_bytes(pp), 2 * bytes);
    CLMEM_CHECK_EQ(t, clmem_peer_pool_active_bytes(pp), 2 * n);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    CLMEM_CHECK_CL(t, clmem_release(&q)); /* the generic release takes it */
    CLMEM_CHECK_EQ(t, clmem_peer_pool_held_blocks(pp), 2);
    CLMEM_CHECK_CL(t, clmem_peer_pool_free_held(pp));
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(pp, &st));
    CLMEM_CHECK_EQ(t, st.held_blocks, 0);
    CLMEM_CHECK_EQ(t, st.managed_bytes, 0);
    CLMEM_CHECK_EQ(t, st.allocator_frees, 2);
}

/* bytes through views: a copy in and out, a fill, a second queue of the device */
static void bytes_case(clmem_test_context *t, clmem_peer_pool *pp) {
    enum { N = 5000 };
    unsigned char host[N], back[N];
    cl_uint pattern = 0xa5c3e1f7u, got[4];
    clmem_pooled_peer p;
    clmem_buffer v, v2;
    cl_command_queue q2;
    cl_int err;
    size_t i;
    for (i = 0; i < N; ++i) host[i] = (unsigned char)(i * 131 + 7);
    q2 = extra_queue(t, t->context, &err);
    CLMEM_CHECK_CL(t, err);
    p = clmem_peer_pool_allocate(pp, N, &err);
    CLMEM_CHECK_CL(t, err);
    v = clmem_pooled_peer_view(p, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, v.size, N);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, v, host)); /* the view's size: N bytes */
    v2 = clmem_pooled_peer_view(p, q2, &err); /* the same device: the same view */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, v2.mem == v.mem && v2.generation == v.generation);
    memset(back, 0, N);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(q2, back, v2));
    CLMEM_CHECK(t, memcmp(host, back, N) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, v, pattern, 4096, .offset = 512));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, got, v, .byte_count = sizeof got, .src_offset = 4096 + 512 - 8));
    CLMEM_CHECK(t, got[0] == pattern && got[1] == pattern);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, v, .byte_count = 512));
    CLMEM_CHECK(t, memcmp(host, back, 512) == 0);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, v, .byte_count = N + 1), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    clReleaseCommandQueue(q2);
}

/* queue order: reused at once on the queue it was released on, behind a marker on
   another queue, by the host once that queue got there; the release's refusals */
static void queue_case(clmem_test_context *t, clmem_peer_pool *pp) {
    enum { N = 1 << 16 };
    unsigned char *host = (unsigned char *)malloc(N), *back = (unsigned char *)malloc(N);
    clmem_pooled_peer p, stale;
    clmem_peer_buffer *block;
    clmem_pool_stats st;
    clmem_buffer v;
    cl_command_queue q2;
    cl_context other;
    cl_int err;
    size_t i;
    CLMEM_CHECK(t, host && back);
    for (i = 0; i < N; ++i) host[i] = (unsigned char)(i * 13 + 1);
    q2 = extra_queue(t, t->context, &err);
    CLMEM_CHECK_CL(t, err);
    p = clmem_peer_pool_allocate_on_queue(pp, N, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    block = p.peer;
    v = clmem_pooled_peer_view(p, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, v, host, .is_blocking = false));
    /* the refusals first: the handle is kept */
    CLMEM_CHECK_ERR(t, clmem_pooled_peer_enqueue_release(&p, NULL), CL_INVALID_COMMAND_QUEUE);
    NAMES(t, "clmem_pooled_peer_enqueue_release: queue is NULL");
    other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    if (other) {
        cl_command_queue oq = extra_queue(t, other, &err);
        CLMEM_CHECK_ERR(t, clmem_pooled_peer_enqueue_release(&p, oq), CL_INVALID_CONTEXT);
        NAMES(t, "the pool's blocks to context");
        CLMEM_CHECK(t, p.pool != NULL);
        {
            clmem_pooled_peer none = clmem_peer_pool_allocate_on_queue(pp, N, oq, &err);
            CLMEM_CHECK(t, none.peer == NULL && err == CL_INVALID_CONTEXT);
            none = clmem_peer_pool_allocate_on_queue_at(pp, N, oq, &err, "here.c", 7);
            CLMEM_CHECK(t, none.peer == NULL && err == CL_INVALID_CONTEXT);
            v = clmem_pooled_peer_view(p, oq, &err);
            CLMEM_CHECK(t, v.mem == NULL && err == CL_INVALID_CONTEXT);
            NAMES(t, "clmem_pooled_peer_view");
            v = clmem_pooled_peer_view(p, NULL, &err);
            CLMEM_CHECK(t, v.mem == NULL && err == CL_INVALID_COMMAND_QUEUE);
        }
        clReleaseCommandQueue(oq);
        clReleaseContext(other);
    }
    stale = p;
    CLMEM_CHECK_CL(t, clmem_pooled_peer_enqueue_release(&p, t->queue)); /* the copy may still run */
    CLMEM_CHECK(t, p.pool == NULL);
    CLMEM_CHECK_ERR(t, clmem_pooled_peer_enqueue_release(&stale, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
    NAMES(t, "was already released to its pool");
    /* the same in-order queue: at once, the same block */
    p = clmem_peer_pool_allocate_on_queue(pp, N, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.peer == block);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_enqueue_release(&p, t->queue));
    /* another queue: behind a marker of the first; its reads see what the first wrote */
    p = clmem_peer_pool_allocate_on_queue(pp, N, q2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.peer == block);
    v = clmem_pooled_peer_view(p, q2, &err);
    CLMEM_CHECK_CL(t, err);
    memset(back, 0, N);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(q2, back, v));
    CLMEM_CHECK(t, memcmp(host, back, N) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(q2, v, (cl_uchar)0x77, N));
    CLMEM_CHECK_CL(t, clmem_pooled_peer_enqueue_release(&p, q2));
    /* the host: once q2 got there */
    p = clmem_peer_pool_allocate(pp, N, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.peer == block);
    v = clmem_pooled_peer_view(p, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, v));
    for (i = 0; i < N && back[i] == 0x77; ++i) {}
    CLMEM_CHECK_EQ(t, i, N);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(pp, &st));
    CLMEM_CHECK_EQ(t, st.misses, 1);
    CLMEM_CHECK_EQ(t, st.hits, 3);
    /* a block released on a queue, freed: the pool waits for that queue */
    p = clmem_peer_pool_allocate_on_queue(pp, N, q2, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_enqueue_release(&p, q2));
    CLMEM_CHECK_CL(t, clmem_peer_pool_free_held(pp));
    CLMEM_CHECK_EQ(t, clmem_peer_pool_managed_bytes(pp), 0);
    clReleaseCommandQueue(q2);
    free(host);
    free(back);
}

/* stale handles and stale views, refused in words */
static void stale_case(clmem_test_context *t, clmem_peer_pool *pp) {
    unsigned char back[64];
    clmem_pooled_peer p, copy, again;
    clmem_buffer v, v2, none;
    clmem_peer_buffer *block;
    cl_int err;
    p = clmem_peer_pool_allocate(pp, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    block = p.peer;
    copy = p;
    v = clmem_pooled_peer_view(p, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    /* the block's peer buffer is the pool's */
    CLMEM_CHECK_ERR(t, clmem_peer_buffer_release(p.peer), CL_INVALID_OPERATION);
    NAMES(t, "clmem_peer_buffer_release: pb");
    NAMES(t, "is a block of a peer pool: release its pooled handle (clmem_pooled_peer_release)");
    CLMEM_CHECK(t, clmem_peer_buffer_home(p.peer) == t->device);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    CLMEM_CHECK(t, p.peer == NULL && p.pool == NULL && p.size == 0);
    /* the copy: released again, a view asked of it, refused */
    CLMEM_CHECK_ERR(t, clmem_pooled_peer_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    NAMES(t, "clmem_pooled_peer_release: pooled block");
    NAMES(t, "was already released to its pool (it is held for reuse)");
    CLMEM_CHECK(t, copy.pool == NULL); /* emptied all the same, as every pooled handle */
    /* the view of the released hand-out: stale everywhere */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, v, .byte_count = 64), CL_INVALID_MEM_OBJECT);
    NAMES(t, "is a stale pooled buffer handle: its block was released");
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, v, (cl_uint)0, 64), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK(t, clmem_peer_buffer_of(v) == NULL);
    /* the block handed out again: a fresh view works, the old one stays stale */
    again = clmem_peer_pool_allocate(pp, 4100, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, again.peer == block);
    v2 = clmem_pooled_peer_view(again, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, v2.mem == v.mem && v2.generation != v.generation);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, v2, .byte_count = 64));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, v, .byte_count = 64), CL_INVALID_MEM_OBJECT);
    /* a stale copy of a handle whose block is out again: refused, the new owner's kept */
    {
        clmem_pooled_peer old = again;
        old.generation -= 2; /* the hand-out before (what `copy` held) */
        none = clmem_pooled_peer_view(old, t->queue, &err);
        CLMEM_CHECK(t, none.mem == NULL && err == CL_INVALID_MEM_OBJECT);
        NAMES(t, "clmem_pooled_peer_view: p is a stale pooled peer handle: its block was released");
        CLMEM_CHECK_ERR(t, clmem_pooled_peer_release(&old), CLMEM_ERROR_DOUBLE_RELEASE);
        NAMES(t, "it now belongs to another allocation");
    }
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, v2, .byte_count = 64));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&again));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, v2, .byte_count = 64), CL_INVALID_MEM_OBJECT);
    /* the pool released with a block out: CLMEM_ERROR_IN_USE; it goes with the block */
    again = clmem_peer_pool_allocate(pp, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_peer_pool_release(pp), CLMEM_ERROR_IN_USE);
    NAMES(t, "1 block(s) of the pool");
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&again));
}

/* the pool's limits: the managed-byte limit and the keep-free of its home device */
static void limits_case(clmem_test_context *t, clmem_peer_pool *pp) {
    clmem_pooled_peer p;
    clmem_pool_stats st;
    cl_int err;
    p = clmem_peer_pool_allocate(pp, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    CLMEM_CHECK_CL(t, clmem_peer_pool_set_keep_free(pp, t->device, SIZE_MAX));
    p = clmem_peer_pool_allocate(pp, 4096, &err); /* held: no query */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    p = clmem_peer_pool_allocate(pp, 2 * MiB, &err);
    CLMEM_CHECK(t, p.peer == NULL && err == CLMEM_ERROR_LIMIT_EXCEEDED);
    NAMES(t, "clmem_peer_pool_allocate: a block of 2228223 bytes (for 2097152 asked) would leave device '");
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(pp, &st));
    CLMEM_CHECK_EQ(t, st.free_queries, 2);
    CLMEM_CHECK_EQ(t, st.held_blocks, 0); /* freed first */
    CLMEM_CHECK_EQ(t, st.allocator_frees, 1);
    CLMEM_CHECK_CL(t, clmem_peer_pool_set_keep_free(pp, NULL, 0));
    CLMEM_CHECK_CL(t, clmem_peer_pool_set_limit(pp, 4096));
    p = clmem_peer_pool_allocate(pp, 8192, &err);
    CLMEM_CHECK(t, p.peer == NULL && err == CLMEM_ERROR_LIMIT_EXCEEDED);
    NAMES(t, "past the pool's limit of 4096 bytes");
    CLMEM_CHECK_CL(t, clmem_peer_pool_set_limit(pp, 0));
    p = clmem_peer_pool_allocate(pp, CLMEM_PEER_BUFFER_MAX + 1, &err);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_INVALID_BUFFER_SIZE);
    NAMES(t, "clmem_peer_pool_allocate: size 268435457 is above CLMEM_PEER_BUFFER_MAX (268435456)");
    p = clmem_peer_pool_allocate_on_queue(pp, 64, NULL, &err);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_INVALID_COMMAND_QUEUE);
    NAMES(t, "clmem_peer_pool_allocate_on_queue: queue is NULL");
    /* the _at forms: the same checks */
    p = clmem_peer_pool_allocate_at(NULL, 64, &err, "here.c", 1);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_INVALID_VALUE);
    p = clmem_peer_pool_allocate_at(pp, CLMEM_PEER_BUFFER_MAX + 1, &err, "here.c", 2);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_INVALID_BUFFER_SIZE);
    p = clmem_peer_pool_allocate_on_queue_at(pp, 64, NULL, &err, "here.c", 3);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_CL(t, clmem_peer_pool_set_limit(pp, 1));
    p = clmem_peer_pool_allocate_at(pp, 64, &err, "here.c", 4);
    CLMEM_CHECK(t, p.peer == NULL && err == CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK_CL(t, clmem_peer_pool_set_limit(pp, 0));
    p = clmem_peer_pool_allocate_at(pp, 64, &err, "here.c", 5);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.peer != NULL);
    {
        clmem_pool_block_info info[2];
        size_t count = 0;
        CLMEM_CHECK_CL(t, clmem_peer_pool_active_blocks_info(pp, info, 2, &count));
        CLMEM_CHECK(t, count == 1 && info[0].size == 64 && info[0].ptr == (void *)p.peer);
        CLMEM_CHECK(t, info[0].file && strcmp(info[0].file, "here.c") == 0 && info[0].line == 5);
    }
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    /* size 0: a real block, its handle and view of size 0 */
    p = clmem_peer_pool_allocate(pp, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.peer != NULL && p.size == 0);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
}

static void run(clmem_test_context *t, clmem_peer_pool *pp, void (*body)(clmem_test_context *, clmem_peer_pool *)) {
    if (!pp) return;
    body(t, pp);
    CLMEM_CHECK_CL(t, clmem_peer_pool_release(pp));
}

static void test_fake_loop(clmem_test_context *t) {
    run(t, fake_pool(t), loop_case);
    CLMEM_CHECK_EQ(t, fake_made, 2);
}
static void test_fake_bytes(clmem_test_context *t) { run(t, fake_pool(t), bytes_case); }
static void test_fake_queue_order(clmem_test_context *t) { run(t, fake_pool(t), queue_case); }
static void test_fake_stale(clmem_test_context *t) {
    clmem_peer_pool *pp = fake_pool(t);
    if (pp) stale_case(t, pp); /* it releases the pool */
}
static void test_fake_limits(clmem_test_context *t) { run(t, fake_pool(t), limits_case); }

/* CUDA's failures reach the pool as the maker's codes (cuMemCreate out of memory:
   CL_MEM_OBJECT_ALLOCATION_FAILURE; another failure: CL_OUT_OF_RESOURCES): out of memory
   to the pool, whose stages run (held blocks freed first) before it fails */
static void test_fake_cuda_fails(clmem_test_context *t) {
    clmem_peer_pool *pp = fake_pool(t);
    clmem_pooled_peer p;
    clmem_pool_stats st;
    cl_int err;
    if (!pp) return;
    p = clmem_peer_pool_allocate(pp, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    fake_fail = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    p = clmem_peer_pool_allocate(pp, MiB, &err);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAMES(t, "clmem_peer_pool_allocate: failed to free memory for an allocation of 1048576 bytes");
    NAMES(t, "the allocator reported CL_MEM_OBJECT_ALLOCATION_FAILURE");
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(pp, &st));
    CLMEM_CHECK_EQ(t, st.held_blocks, 0); /* freed first */
    CLMEM_CHECK_EQ(t, st.oom_events, 1);
    fake_fail = CL_OUT_OF_RESOURCES;
    p = clmem_peer_pool_allocate_at(pp, MiB, &err, "here.c", 9);
    CLMEM_CHECK(t, p.peer == NULL && err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAMES(t, "the allocator reported CL_OUT_OF_RESOURCES");
    fake_fail = CL_SUCCESS;
    p = clmem_peer_pool_allocate(pp, MiB, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p));
    CLMEM_CHECK_CL(t, clmem_peer_pool_release(pp));
}

static void test_gpu_loop(clmem_test_context *t) { run(t, real_pool(t), loop_case); }
static void test_gpu_bytes(clmem_test_context *t) { run(t, real_pool(t), bytes_case); }
static void test_gpu_queue_order(clmem_test_context *t) { run(t, real_pool(t), queue_case); }
static void test_gpu_stale(clmem_test_context *t) {
    clmem_peer_pool *pp = real_pool(t);
    if (pp) stale_case(t, pp);
}
static void test_gpu_limits(clmem_test_context *t) { run(t, real_pool(t), limits_case); }

/* the import limit: blocks of CLMEM_PEER_BUFFER_MAX, each with its view, up to
   CLMEM_PEER_IMPORT_LIMIT; one more view refused in words; held blocks keep their
   imports until the pool frees them */
static void test_gpu_import_limit(clmem_test_context *t) {
    enum { MOST = 64 };
    size_t n = (size_t)(CLMEM_PEER_IMPORT_LIMIT / CLMEM_PEER_BUFFER_MAX), i;
    clmem_pooled_peer p[MOST + 1];
    clmem_peer_pool *pp;
    clmem_buffer v;
    cl_int err = CL_SUCCESS;
    if (!(pp = real_pool(t))) return;
    if (n > MOST) {
        clmem_test_skip(t, "CLMEM_PEER_IMPORT_LIMIT holds more than %d buffers of CLMEM_PEER_BUFFER_MAX", MOST);
        clmem_peer_pool_release(pp);
        return;
    }
    memset(p, 0, sizeof p);
    for (i = 0; i <= n && err == CL_SUCCESS; ++i) p[i] = clmem_peer_pool_allocate(pp, CLMEM_PEER_BUFFER_MAX, &err);
    if (err != CL_SUCCESS) {
        clmem_test_skip(t, "no room for %zu blocks of %zu bytes: %s", n + 1, (size_t)CLMEM_PEER_BUFFER_MAX,
                        clmem_last_error_message());
        for (i = 0; i <= n; ++i) clmem_pooled_peer_release(&p[i]);
        clmem_peer_pool_release(pp);
        return;
    }
    for (i = 0; i < n; ++i) {
        v = clmem_pooled_peer_view(p[i], t->queue, &err);
        CLMEM_CHECK_CL(t, err);
    }
    v = clmem_pooled_peer_view(p[n], t->queue, &err);
    CLMEM_CHECK(t, v.mem == NULL && err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAMES(t, "clmem_pooled_peer_view: a view of");
    NAMES(t, "past CLMEM_PEER_IMPORT_LIMIT");
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p[0])); /* held: its import stays */
    v = clmem_pooled_peer_view(p[n], t->queue, &err);
    CLMEM_CHECK(t, v.mem == NULL && err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CLMEM_CHECK_CL(t, clmem_peer_pool_free_held(pp)); /* freed: room again */
    v = clmem_pooled_peer_view(p[n], t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 1; i <= n; ++i) CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&p[i]));
    CLMEM_CHECK_CL(t, clmem_peer_pool_release(pp));
}

/* two GPUs: a pooled block on each, GPU 0 -> GPU 1 by a device link, in a loop; the
   blocks and their views reused every round (no CUDA allocation, no import) */
static void test_gpu_two(clmem_test_context *t) {
    enum { ROUNDS = 50 };
    size_t n = 16 * MiB, i;
    unsigned char *host = (unsigned char *)malloc(n), *back = (unsigned char *)malloc(n);
    clmem_peer_pool *p0, *p1;
    clmem_device_link *l;
    clmem_device_link_stats ls = {0};
    clmem_pool_stats s0, s1;
    cl_int err;
    if (t->num_devices < 2) {
        clmem_test_skip(t, "needs two devices in one context (CLMEM_TEST=\"nvidia:0+1\")");
        free(host);
        free(back);
        return;
    }
    if (!(p0 = real_pool(t))) {
        free(host);
        free(back);
        return;
    }
    p1 = clmem_peer_pool_create(t->context, t->devices[1], CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, host && back);
    l = clmem_device_link_create(t->queues[0], t->queues[1], 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < ROUNDS; ++i) {
        clmem_pooled_peer a = clmem_peer_pool_allocate_on_queue(p0, n, t->queues[0], &err);
        clmem_pooled_peer b;
        clmem_buffer a0, b1;
        CLMEM_CHECK_CL(t, err);
        b = clmem_peer_pool_allocate_on_queue(p1, n, t->queues[1], &err);
        CLMEM_CHECK_CL(t, err);
        a0 = clmem_pooled_peer_view(a, t->queues[0], &err);
        CLMEM_CHECK_CL(t, err);
        b1 = clmem_pooled_peer_view(b, t->queues[1], &err);
        CLMEM_CHECK_CL(t, err);
        if (i == 0 || i == ROUNDS - 1) {
            size_t k;
            for (k = 0; k < n; ++k) host[k] = (unsigned char)(k * 7 + i);
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queues[0], a0, host));
        }
        CLMEM_CHECK_CL(t, clmem_device_link_copy(l, b1, a0));
        if (i == 0 || i == ROUNDS - 1) {
            memset(back, 0, n);
            CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queues[1], back, b1)); /* ordered after the copy */
            CLMEM_CHECK(t, memcmp(host, back, n) == 0);
        }
        /* a view on the other device's queue: refused, never given to the driver */
        if (i == 0) CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queues[0], back, b1, .byte_count = 64), CL_INVALID_COMMAND_QUEUE);
        CLMEM_CHECK_CL(t, clmem_pooled_peer_enqueue_release(&a, t->queues[0]));
        CLMEM_CHECK_CL(t, clmem_pooled_peer_enqueue_release(&b, t->queues[1]));
    }
    CLMEM_CHECK_CL(t, clFinish(t->queues[0]));
    CLMEM_CHECK_CL(t, clFinish(t->queues[1]));
    CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &ls));
    CLMEM_CHECK_EQ(t, ls.peer_copies, ROUNDS);
    CLMEM_CHECK_EQ(t, ls.peer_bytes, (cl_ulong)ROUNDS * n);
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(p0, &s0));
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(p1, &s1));
    CLMEM_CHECK_EQ(t, s0.misses, 1);
    CLMEM_CHECK_EQ(t, s1.misses, 1);
    CLMEM_CHECK_EQ(t, s0.hits + s1.hits, 2 * (ROUNDS - 1));
    CLMEM_CHECK_CL(t, clmem_device_link_release(l));
    CLMEM_CHECK_CL(t, clmem_peer_pool_release(p0));
    CLMEM_CHECK_CL(t, clmem_peer_pool_release(p1));
    free(host);
    free(back);
}

static const clmem_test_case cases[] = {{"refusals", test_refusals, false},
                                        {"fake_loop", test_fake_loop, false},
                                        {"fake_bytes", test_fake_bytes, false},
                                        {"fake_queue_order", test_fake_queue_order, false},
                                        {"fake_stale", test_fake_stale, false},
                                        {"fake_limits", test_fake_limits, false},
                                        {"fake_cuda_fails", test_fake_cuda_fails, false},
                                        {"gpu_loop", test_gpu_loop, false},
                                        {"gpu_bytes", test_gpu_bytes, false},
                                        {"gpu_queue_order", test_gpu_queue_order, false},
                                        {"gpu_stale", test_gpu_stale, false},
                                        {"gpu_limits", test_gpu_limits, false},
                                        {"gpu_import_limit", test_gpu_import_limit, false},
                                        {"gpu_two", test_gpu_two, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
