/* A stale copy of a pooled buffer handle (its block handed to a new owner) through
   every host-transfer entry point that goes through the host-transfer plan: the
   stager in both directions, staged (threshold 0, so PoCL stages too) and direct;
   clmem_memory_object_get_info (an image made from it: tests/image_buffer1d.c). Each is refused with
   CL_INVALID_MEM_OBJECT and words, and the new owner's bytes are neither changed nor
   read. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#define N 4096

/* A pool with one block handed out twice: *stale is the first owner's copy, *owner the
   new owner (same cl_mem), filled with `bytes`; *pool their pool (NULL on failure). */
static void stale_pair(clmem_test_context *t, clmem_memory_pool **pool, clmem_buffer *stale, clmem_buffer *owner,
                       const unsigned char *bytes) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_buffer b;
    memset(owner, 0, sizeof *owner);
    memset(stale, 0, sizeof *stale);
    *pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(*pool, N, &err);
    CLMEM_CHECK_CL(t, err);
    *stale = b;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    *owner = clmem_memory_pool_allocate(*pool, N, &err); /* the same block, a new owner */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, owner->mem == stale->mem);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, owner->mem, CL_TRUE, 0, N, bytes, 0, NULL, NULL));
}

static void check_owner_bytes(clmem_test_context *t, clmem_buffer owner, const unsigned char *bytes) {
    static unsigned char back[N];
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, owner.mem, CL_TRUE, 0, N, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, bytes, N) == 0);
}

#define STALE(expr)                                                                               \
    do {                                                                                          \
        CLMEM_CHECK_ERR(t, (expr), CL_INVALID_MEM_OBJECT);                                        \
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stale pooled buffer handle") != NULL); \
    } while (0)

/* the stager, staged (threshold 0) and direct (never staged), both directions */
static void stager_case(clmem_test_context *t, size_t threshold) {
    static unsigned char owner_bytes[N], host[N], guard[N];
    clmem_buffer stale, owner;
    clmem_memory_pool *pool = NULL;
    clmem_stager *st;
    cl_int err;
    fill_pattern(owner_bytes, N, 7);
    fill_pattern(host, N, 8);
    stale_pair(t, &pool, &stale, &owner, owner_bytes);
    if (!pool || !owner.mem || owner.mem != stale.mem) return; /* reported */
    st = clmem_stager_create(t->queue, 1024, 2, 2, &err);
    CLMEM_CHECK_CL(t, err);
    if (st) {
        CLMEM_CHECK_CL(t, clmem_stager_set_threshold(st, threshold));
        STALE(clmem_stager_copy(st, stale, (const void *)host)); /* write: must not reach the new owner */
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_stager_copy") != NULL);
        check_owner_bytes(t, owner, owner_bytes);
        memset(guard, 0xA5, sizeof guard);
        memcpy(host, guard, N);
        STALE(clmem_stager_copy(st, (void *)host, stale)); /* read: must not read the new owner */
        CLMEM_CHECK(t, memcmp(host, guard, N) == 0);
        STALE(clmem_stager_copy(st, stale, (const void *)host, .byte_count = 16, .dst_offset = 64));
        STALE(clmem_stager_copy(st, (void *)host, stale, .byte_count = 16, .src_offset = 64));
        CLMEM_CHECK(t, memcmp(host, guard, N) == 0);
        check_owner_bytes(t, owner, owner_bytes);
        /* the new owner itself goes through */
        fill_pattern(host, N, 9);
        CLMEM_CHECK_CL(t, clmem_stager_copy(st, owner, (const void *)host));
        check_owner_bytes(t, owner, host);
        CLMEM_CHECK_CL(t, clmem_stager_release(st));
    }
    CLMEM_CHECK_CL(t, clmem_buffer_release(&owner));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}
static void test_stager_staged(clmem_test_context *t) { stager_case(t, 0); }
static void test_stager_direct(clmem_test_context *t) { stager_case(t, CLMEM_STAGER_NEVER); }

/* clmem_memory_object_get_info(stale, &info): not the new owner's info */
static void test_info_of_stale(clmem_test_context *t) {
    static unsigned char owner_bytes[N];
    clmem_buffer stale, owner;
    clmem_memory_pool *pool = NULL;
    clmem_mem_info info;
    fill_pattern(owner_bytes, N, 12);
    stale_pair(t, &pool, &stale, &owner, owner_bytes);
    if (!pool || !owner.mem || owner.mem != stale.mem) return; /* reported */
    memset(&info, 0x5A, sizeof info);
    STALE(clmem_memory_object_get_info(stale, &info));
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_memory_object_get_info") != NULL);
    CLMEM_CHECK(t, info.size == 0 && info.context == NULL); /* nothing of the new owner's */
    CLMEM_CHECK_CL(t, clmem_memory_object_get_info(owner, &info));
    CLMEM_CHECK(t, info.size >= (size_t)N && info.context == t->context); /* the block, rounded up to its bin */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&owner));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

static const clmem_test_case cases[] = {
    {"stager_staged", test_stager_staged, false},
    {"stager_direct", test_stager_direct, false},
    {"info_of_stale", test_info_of_stale, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
