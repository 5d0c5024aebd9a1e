// The pool module from C++: bin numbers, allocators (deferred, immediate, custom ops),
// buffer pools and every query (keep-free too), SVM allocators and pools, pooled SVM
// blocks, peer pools; with CLMEM_TRACK_ALLOCATIONS, so the allocate macros record this
// file and line.
#define CLMEM_TRACK_ALLOCATIONS
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_bins(clmem_test_context *t) {
    CLMEM_CHECK_EQ(t, clmem_bin_number(4, 1024), 160);
    CLMEM_CHECK_EQ(t, clmem_alloc_size(4, 160), 1087);
}

struct counting {
    int allocs, frees, destroyed;
    cl_context ctx;
};
static cl_int counting_alloc(void *user, size_t size, cl_mem *mem) {
    counting *c = static_cast<counting *>(user);
    cl_int err;
    *mem = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    if (err == CL_SUCCESS) c->allocs++;
    return err;
}
static void counting_free(void *user, cl_mem mem) {
    static_cast<counting *>(user)->frees++;
    clReleaseMemObject(mem);
}
static void counting_destroy(void *user) { static_cast<counting *>(user)->destroyed++; }
static bool never_oom(size_t, unsigned, void *) { return false; }

static void test_memory_pool(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *d = clmem_deferred_allocator_create(t->context, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_allocator_is_deferred(d));
    clmem_allocator *im = clmem_immediate_allocator_create(t->queue, CL_MEM_READ_WRITE, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, !clmem_allocator_is_deferred(im));
    clmem_buffer direct = clmem_allocator_allocate(im, 100, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, direct.size, 100);
    clmem_release(&direct);
    clmem_allocator_retain(d);
    CLMEM_CHECK_CL(t, clmem_allocator_release(d));
    CLMEM_CHECK_CL(t, clmem_allocator_release(d));

    counting c = {0, 0, 0, t->context};
    clmem_allocator_ops ops = {counting_alloc, counting_free, NULL, counting_destroy, false};
    clmem_allocator *custom = clmem_allocator_create(&ops, &c, t->context, 0, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_memory_pool *p = clmem_memory_pool_create(custom, 4, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_allocator_release(custom));   // the pool keeps its own reference
    int line = __LINE__ + 1;
    clmem_buffer b = clmem_memory_pool_allocate(p, 1000, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_buffer b2 = clmem_memory_pool_allocate_at(p, 64, &err, "here.cpp", 7);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, b.size, 1000);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(p), 2);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_bytes(p), 1064);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_bin_number(p, 1024), 160);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_alloc_size(p, 160), 1087);
    clmem_pool_block_info blocks[4];
    size_t n = 0;
    CLMEM_CHECK_CL(t, clmem_memory_pool_active_blocks_info(p, blocks, 4, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    bool seen_here = false, seen_macro = false;
    for (size_t i = 0; i < n; i++) {
        if (blocks[i].file && strcmp(blocks[i].file, "here.cpp") == 0 && blocks[i].line == 7) seen_here = true;
        if (blocks[i].file && strstr(blocks[i].file, "cxx_pool.cpp") && blocks[i].line == line) seen_macro = true;
    }
    CLMEM_CHECK(t, seen_here && seen_macro);
    // a pooled buffer is a buffer: copies, fills, release returns it to the pool
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, 3, 1000));
    int out[250];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    CLMEM_CHECK_EQ(t, out[249], 3);
    CLMEM_CHECK_CL(t, clmem_release(&b));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(p), 1);
    CLMEM_CHECK(t, clmem_memory_pool_managed_bytes(p) >= 1064);
    clmem_pool_stats st;
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.active_blocks, 1);
    CLMEM_CHECK_EQ(t, st.misses, 2);
    clmem_pool_bin_info bins[8];
    CLMEM_CHECK_CL(t, clmem_memory_pool_bins(p, bins, 8, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    CLMEM_CHECK_CL(t, clmem_memory_pool_reset_peaks(p));
    {
        clmem::unique<clmem_buffer> again(clmem_memory_pool_allocate(p, 1000, &err));   // a hit
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
        CLMEM_CHECK_EQ(t, st.hits, 1);
    }
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(p), 1);
    CLMEM_CHECK_CL(t, clmem_memory_pool_free_held(p));
    CLMEM_CHECK_EQ(t, c.frees, 1);
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_oom_callback(p, never_oom, NULL));
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_limit(p, 128));
    clmem_buffer big = clmem_memory_pool_allocate(p, 4096, &err);
    CLMEM_CHECK_EQ(t, err, CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK(t, big.mem == NULL);
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_limit(p, 0));
    // keep-free: growth refused (as the limit is), 0 removes it
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, t->device, SIZE_MAX));
    big = clmem_memory_pool_allocate(p, 4096, &err);
    CLMEM_CHECK_EQ(t, err, CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(p, &st));
    CLMEM_CHECK(t, st.keep_free == SIZE_MAX && st.keep_free_device == t->device && st.free_queries == 1);
    CLMEM_CHECK_ERR(t, clmem_memory_pool_set_keep_free(p, nullptr, 1), CL_INVALID_DEVICE);
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_keep_free(p, nullptr, 0));
    // queue-ordered hand-outs (the macro records this file and line under TRACK)
    clmem_buffer q1 = clmem_memory_pool_allocate_on_queue(p, 100, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_pooled_buffer_pool(q1) == p);
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&q1, t->queue));
    clmem_buffer q2 = clmem_memory_pool_allocate_on_queue_at(p, 100, t->queue, &err, "q.cpp", 9);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_release(&q2));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_memory_pool_stop_holding(p));
    CLMEM_CHECK_CL(t, clmem_release(&b2));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(p), 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(p));
    CLMEM_CHECK_EQ(t, c.allocs, 3);   // 1000, 64 and the queue-ordered 100 (reused once)
    CLMEM_CHECK_EQ(t, c.frees, 3);
    CLMEM_CHECK_EQ(t, c.destroyed, 1);
    CLMEM_CHECK_CL(t, clmem_allocator_release(im));
}

static void test_svm_pool(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no coarse-grain buffer SVM");
        return;
    }
    cl_int err;
    clmem_svm_allocator *a = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_svm_pool *p = clmem_svm_pool_create(a, 4, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_svm_allocator_retain(a);
    CLMEM_CHECK_CL(t, clmem_svm_allocator_release(a));
    CLMEM_CHECK_CL(t, clmem_svm_allocator_release(a));
    clmem_pooled_svm s = clmem_svm_pool_allocate(p, 256, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_pooled_svm s2 = clmem_svm_pool_allocate_at(p, 16, &err, "x.cpp", 1);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_pooled_svm_equal(s, s) && !clmem_pooled_svm_equal(s, s2));
    CLMEM_CHECK(t, clmem_pooled_svm_hash(s) == clmem_pooled_svm_hash(s));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, s.svm, (unsigned char)9, 256));
    unsigned char out[256];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, s.svm));
    CLMEM_CHECK_EQ(t, out[255], 9);
    CLMEM_CHECK(t, clmem_pooled_svm_queue(s) == t->queue);
    CLMEM_CHECK(t, clmem_pooled_svm_pool(s) == p);
    clmem_pooled_svm oq = clmem_svm_pool_allocate_on_queue(p, 32, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&oq));
    oq = clmem_svm_pool_allocate_on_queue_at(p, 32, t->queue, &err, "q.cpp", 10);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&oq));
    CLMEM_CHECK_CL(t, clmem_pooled_svm_unbind_from_queue(s));
    CLMEM_CHECK(t, clmem_pooled_svm_queue(s) == NULL);
    CLMEM_CHECK_CL(t, clmem_pooled_svm_bind_to_queue(s, t->queue));
    CLMEM_CHECK_EQ(t, clmem_svm_pool_active_blocks(p), 2);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_active_bytes(p), 272);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_bin_number(p, 1024), 160);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_alloc_size(p, 160), 1087);
    size_t n = 0;
    CLMEM_CHECK_CL(t, clmem_svm_pool_active_blocks_info(p, NULL, 0, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    clmem_pooled_svm copy = s;
    CLMEM_CHECK_CL(t, clmem_pooled_svm_enqueue_release(&s, t->queue));
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_held_blocks(p), 2);   // s and the queue-ordered 32
    CLMEM_CHECK(t, clmem_svm_pool_managed_bytes(p) > 0);
    clmem_pool_stats st;
    CLMEM_CHECK_CL(t, clmem_svm_pool_get_stats(p, &st));
    CLMEM_CHECK_EQ(t, st.active_blocks, 1);
    clmem_pool_bin_info bins[4];
    CLMEM_CHECK_CL(t, clmem_svm_pool_bins(p, bins, 4, &n));
    CLMEM_CHECK_EQ(t, n, 3);
    CLMEM_CHECK_CL(t, clmem_svm_pool_reset_peaks(p));
    CLMEM_CHECK_CL(t, clmem_svm_pool_set_oom_callback(p, never_oom, NULL));
    CLMEM_CHECK_CL(t, clmem_svm_pool_set_limit(p, 0));
    CLMEM_CHECK_CL(t, clmem_svm_pool_set_keep_free(p, t->device, 1));
    CLMEM_CHECK_CL(t, clmem_svm_pool_set_keep_free(p, nullptr, 0));
    CLMEM_CHECK_CL(t, clmem_svm_pool_free_held(p));
    CLMEM_CHECK_EQ(t, clmem_svm_pool_held_blocks(p), 0);
    CLMEM_CHECK_CL(t, clmem_svm_pool_stop_holding(p));
    {
        clmem::unique<clmem_pooled_svm> u(s2);
        CLMEM_CHECK(t, bool(u));
    }
    CLMEM_CHECK_EQ(t, clmem_svm_pool_active_blocks(p), 0);
    CLMEM_CHECK_CL(t, clmem_svm_pool_release(p));
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

// peer pools: the calls, refused in words without peer memory; with it (NVIDIA), a
// block reused, exact bytes through its view, clmem::unique and clmem_release
static void test_peer_pool(clmem_test_context *t) {
    cl_int err;
    clmem_pooled_peer none = clmem_peer_pool_allocate(nullptr, 64, &err);
    CLMEM_CHECK(t, none.peer == nullptr && err == CL_INVALID_VALUE);
    none = clmem_peer_pool_allocate_on_queue_at(nullptr, 64, t->queue, &err, "p.cpp", 3);
    CLMEM_CHECK(t, none.peer == nullptr && err == CL_INVALID_VALUE);
    clmem_buffer nv = clmem_pooled_peer_view(none, t->queue, &err);
    CLMEM_CHECK(t, nv.mem == nullptr && err == CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_release(&none));
    CLMEM_CHECK_CL(t, clmem_release(&none));
    CLMEM_CHECK_ERR(t, clmem_peer_pool_set_keep_free(nullptr, t->device, 1), CL_INVALID_VALUE);
    clmem_peer_pool *pp = clmem_peer_pool_create(t->context, t->device, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    if (!pp) {
        CLMEM_CHECK(t, err == CL_INVALID_OPERATION);
        clmem_test_skip(t, "no peer memory here: %s", clmem_last_error_message());
        return;
    }
    unsigned char in[4096], out[4096];
    for (size_t i = 0; i < sizeof in; i++) in[i] = (unsigned char)(i * 5 + 1);
    for (int round = 0; round < 3; round++) {
        clmem::unique<clmem_pooled_peer> p(clmem_peer_pool_allocate_on_queue(pp, sizeof in, t->queue, &err));
        CLMEM_CHECK_CL(t, err);
        clmem_buffer v = clmem_pooled_peer_view(p.get(), t->queue, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, v, in));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, v));
        CLMEM_CHECK(t, memcmp(in, out, sizeof in) == 0);
    }
    clmem_pooled_peer p = clmem_peer_pool_allocate(pp, sizeof in, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pooled_peer_enqueue_release(&p, t->queue));
    clmem_pool_stats st;
    CLMEM_CHECK_CL(t, clmem_peer_pool_get_stats(pp, &st));
    CLMEM_CHECK_EQ(t, st.misses, 1);
    CLMEM_CHECK_EQ(t, st.hits, 3);
    CLMEM_CHECK_CL(t, clmem_peer_pool_set_keep_free(pp, t->device, 1));
    CLMEM_CHECK_CL(t, clmem_peer_pool_free_held(pp));
    CLMEM_CHECK_CL(t, clmem_peer_pool_release(pp));
}

CXX_CASES({"bins", test_bins, true}, {"memory_pool", test_memory_pool, false}, {"svm_pool", test_svm_pool, false},
          {"peer_pool", test_peer_pool, false})
