/* Stale pooled handles (issue 13.3, issue 17.3) and the pool-release rule (17.2/17.3):
   every copy of a released hand-out is caught, also when its block went back to the
   same size, and after its pool was released and freed (records outlive pools); a
   pool released with blocks out says CLMEM_ERROR_IN_USE and goes with the last one;
   from a pooled handle to its pool. Mostly on a fake allocator (no device memory);
   the last case on the device. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "pool_fake.h"

/* the same block handed out again to the same size: only the generation tells */
static void test_same_size_reuse(clmem_test_context *t) {
    fake_alloc f;
    clmem_memory_pool *pool = fake_pool(t, &f);
    clmem_buffer b, copy, again;
    cl_int err;
    if (!pool) return;
    b = clmem_memory_pool_allocate(pool, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, (b.generation & 1) == 1);
    CLMEM_CHECK(t, clmem_pooled_buffer_pool(b) == pool);
    CLMEM_CHECK(t, !clmem__buffer_stale(b));
    copy = b;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK(t, clmem__buffer_stale(copy));
    CLMEM_CHECK(t, clmem_pooled_buffer_pool(copy) == NULL);
    again = clmem_memory_pool_allocate(pool, 4096, &err); /* same block, same size */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, again.mem == copy.mem && again.size == copy.size);
    CLMEM_CHECK(t, again.generation != copy.generation);
    CLMEM_CHECK(t, clmem__buffer_stale(copy));
    CLMEM_CHECK(t, !clmem__buffer_stale(again));
    CLMEM_CHECK_ERR(t, clmem_buffer_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "now belongs to another allocation") != NULL);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 1); /* the new owner's block is untouched */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&again));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 1);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    /* a handle that is not pooled has no pool and is never stale */
    {
        clmem_buffer plain;
        memset(&plain, 0, sizeof plain);
        CLMEM_CHECK(t, clmem_pooled_buffer_pool(plain) == NULL && !clmem__buffer_stale(plain));
    }
    fake_fini(&f);
}

/* copies released after the pool was released and destroyed: reported, no crash */
static void test_after_pool_release(clmem_test_context *t) {
    fake_alloc f;
    clmem_memory_pool *pool = fake_pool(t, &f);
    clmem_buffer b, c, held_copy, active_copy;
    cl_int err;
    if (!pool) return;
    b = clmem_memory_pool_allocate(pool, 100, &err);
    c = clmem_memory_pool_allocate(pool, 200, &err);
    CLMEM_CHECK_CL(t, err);
    held_copy = b;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b)); /* held */
    active_copy = c;
    /* the pool is released with c out: IN_USE, and it lives on for c */
    CLMEM_CHECK_ERR(t, clmem_memory_pool_release(pool), CLMEM_ERROR_IN_USE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "1 block(s) of the pool (200 bytes) are still active") != NULL);
    CLMEM_CHECK_EQ(t, f.live_blocks, 1);              /* the held block was freed */
    CLMEM_CHECK(t, clmem_pooled_buffer_pool(c) == NULL); /* its pool is released */
    CLMEM_CHECK(t, !clmem__buffer_stale(c));          /* but c itself is fine */
    CLMEM_CHECK_ERR(t, clmem_buffer_release(&held_copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "its memory was freed") != NULL);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));      /* the last block: the pool goes */
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    CLMEM_CHECK_EQ(t, f.frees, 2);
    /* the pool is gone; copies of its hand-outs are still caught */
    CLMEM_CHECK(t, clmem__buffer_stale(active_copy));
    CLMEM_CHECK_ERR(t, clmem_buffer_release(&active_copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_buffer_release: pooled block") != NULL);
    CLMEM_CHECK_CL(t, clmem_pooled_buffer_enqueue_release(&held_copy, NULL)); /* emptied above */
    /* a new pool reuses the records; the old copies stay stale */
    {
        fake_alloc g;
        clmem_memory_pool *p2 = fake_pool(t, &g);
        clmem_buffer n[4], old;
        int i;
        if (!p2) return;
        for (i = 0; i < 4; ++i) {
            n[i] = clmem_memory_pool_allocate(p2, 100, &err);
            CLMEM_CHECK_CL(t, err);
        }
        old = b; /* emptied: a no-op */
        CLMEM_CHECK_CL(t, clmem_buffer_release(&old));
        for (i = 0; i < 4; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&n[i]));
        CLMEM_CHECK_CL(t, clmem_memory_pool_release(p2));
        fake_fini(&g);
    }
    fake_fini(&f);
}

/* a pool released with no block out: CL_SUCCESS and gone at once */
static void test_release_empty(clmem_test_context *t) {
    fake_alloc f;
    clmem_memory_pool *pool = fake_pool(t, &f);
    clmem_buffer b;
    cl_int err;
    if (!pool) return;
    b = clmem_memory_pool_allocate(pool, 10, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(NULL));
    fake_fini(&f);
}

/* SVM: a stale pooled SVM handle after its pool is gone */
static void test_svm_after_pool_release(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    cl_int err;
    clmem_svm_allocator *a;
    clmem_svm_pool *pool;
    clmem_pooled_svm p, copy, q;
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return;
    }
    a = clmem_svm_allocator_create(t->context, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_svm_pool_create(a, 4, &err);
    clmem_svm_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    p = clmem_svm_pool_allocate(pool, 64, &err);
    q = clmem_svm_pool_allocate(pool, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_pooled_svm_pool(p) == pool);
    copy = p;
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&p));
    CLMEM_CHECK(t, clmem_pooled_svm_pool(copy) == NULL);
    CLMEM_CHECK(t, clmem_pooled_svm_queue(copy) == NULL);
    CLMEM_CHECK_ERR(t, clmem_svm_pool_release(pool), CLMEM_ERROR_IN_USE);
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    copy = q;
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(&q)); /* the last block: the pool goes */
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_bind_to_queue(copy, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_unbind_from_queue(copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, clmem_pooled_svm_pool(copy) == NULL);
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
#else
    clmem_test_skip(t, "OpenCL 2.0 headers needed for SVM");
#endif
}

/* a real pooled buffer: the pool found from it allocates its siblings */
static void test_sibling_from_pool(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool = clmem_memory_pool_create(a, 4, &err), *found;
    clmem_buffer b, sib;
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, 1000, &err);
    CLMEM_CHECK_CL(t, err);
    found = clmem_pooled_buffer_pool(b);
    CLMEM_CHECK(t, found == pool);
    sib = clmem_memory_pool_allocate(found, 1000, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 2);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&sib));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

/* every clmem call that takes a buffer refuses a stale copy of a pooled handle, with
   words, and touches nothing: the block's new owner keeps its bytes */
/* (expr is evaluated here, not handed to CLMEM_CHECK_ERR: that stringifies its argument,
   and an argument of a macro is the expanded call, longer than the 4095 characters
   -Woverlength-strings allows) */
#define STALE(expr)                                                                           \
    do {                                                                                      \
        cl_int stale_e_;                                                                      \
        clmem_clear_error();                                                                  \
        stale_e_ = (expr);                                                                    \
        CLMEM_CHECK_EQ(t, stale_e_, CL_INVALID_MEM_OBJECT);                                   \
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stale pooled buffer handle") != NULL); \
    } while (0)
static void test_stale_use(clmem_test_context *t) {
    cl_int err;
    unsigned char host[256], back[256];
    float one = 1.0f;
    clmem_memory_map m;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool = clmem_memory_pool_create(a, 4, &err);
    clmem_buffer b, stale, owner;
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, 256, &err);
    CLMEM_CHECK_CL(t, err);
    stale = b;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    owner = clmem_memory_pool_allocate(pool, 256, &err); /* the same block, a new owner */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, owner.mem == stale.mem);
    fill_pattern(host, sizeof host, 21);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, owner, host));
    memset(back, 0, sizeof back);
    STALE(clmem_enqueue_copy(t->queue, stale, back));                 /* the inline hot path */
    STALE(clmem_enqueue_copy(t->queue, back, stale));
    STALE(clmem_enqueue_copy(t->queue, stale, owner, .byte_count = 4));
    STALE(clmem_enqueue_copy(t->queue, back, stale, .region = {16, 2}));
    STALE(clmem_enqueue_fill(t->queue, stale, one, 64));
    STALE(clmem_enqueue_fill_buffer(t->queue, stale, &one, sizeof one, 0, 64));
    STALE(clmem_enqueue_map_buffer(t->queue, stale, CL_MAP_READ, 0, char, &m));
    STALE(clmem_set_kernel_arg((cl_kernel)(uintptr_t)1, 0, stale)); /* refused before the kernel is touched */
    {
        clmem_buffer s = clmem_buffer_slice(stale, 0, 16, &err);
        CLMEM_CHECK_EQ(t, err, CL_INVALID_MEM_OBJECT);
        CLMEM_CHECK(t, s.mem == NULL);
    }
    CLMEM_CHECK_EQ(t, clmem_buffer_release(&stale), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, owner));
    CLMEM_CHECK(t, memcmp(back, host, sizeof host) == 0);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&owner));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

static const clmem_test_case cases[] = {
    {"stale_use", test_stale_use, false},
    {"same_size_reuse", test_same_size_reuse, true},
    {"after_pool_release", test_after_pool_release, true},
    {"release_empty", test_release_empty, true},
    {"svm_after_pool_release", test_svm_after_pool_release, false},
    {"sibling_from_pool", test_sibling_from_pool, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
