/* A stale copy of a pooled SVM handle (its block released and handed to a new owner)
   is refused wherever clmem checks an SVM pointer's owner: clmem_enqueue_copy both
   ways, clmem_enqueue_fill, maps, kernel arguments, with CL_INVALID_VALUE, and the new
   owner's bytes stay as they were. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

enum { N = 64 };

/* a pool whose block `*stale` was released and handed out again as `*owner`, the
   owner's bytes 0..N-1; owner->svm.ptr stays NULL (skipped or failed) when it cannot
   be set up */
static void setup_(clmem_test_context *t, clmem_svm_allocator **a, clmem_svm_pool **pool, clmem_pooled_svm *stale,
                   clmem_pooled_svm *owner) {
    unsigned char bytes[N];
    cl_int err;
    int i;
    memset(owner, 0, sizeof *owner);
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "no coarse-grain buffer SVM on this device");
        return;
    }
    *a = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    *pool = clmem_svm_pool_create(*a, 4, &err);
    CLMEM_CHECK_CL(t, err);
    *owner = clmem_svm_pool_allocate(*pool, N, &err);
    CLMEM_CHECK_CL(t, err);
    *stale = *owner;
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(owner));
    *owner = clmem_svm_pool_allocate(*pool, N, &err); /* the same block, a new owner */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, owner->svm.ptr == stale->svm.ptr);
    for (i = 0; i < N; ++i) bytes[i] = (unsigned char)i;
    CLMEM_CHECK_CL(t, clEnqueueSVMMemcpy(t->queue, CL_TRUE, owner->svm.ptr, bytes, N, 0, NULL, NULL));
}

static bool setup(clmem_test_context *t, clmem_svm_allocator **a, clmem_svm_pool **pool, clmem_pooled_svm *stale,
                  clmem_pooled_svm *owner) {
    setup_(t, a, pool, stale, owner);
    return owner->svm.ptr != NULL;
}

/* the new owner still holds 0..N-1 */
static void check_owner(clmem_test_context *t, clmem_pooled_svm owner) {
    unsigned char back[N];
    int i;
    memset(back, 0xEE, sizeof back);
    CLMEM_CHECK_CL(t, clEnqueueSVMMemcpy(t->queue, CL_TRUE, back, owner.svm.ptr, N, 0, NULL, NULL));
    for (i = 0; i < N; ++i)
        if (back[i] != (unsigned char)i) {
            CLMEM_CHECK_EQ(t, back[i], i);
            break;
        }
}

static void teardown(clmem_test_context *t, clmem_svm_allocator *a, clmem_svm_pool *pool, clmem_pooled_svm *owner) {
    CLMEM_CHECK_CL(t, clmem_pooled_svm_release(owner));
    CLMEM_CHECK_CL(t, clmem_svm_pool_release(pool));
    CLMEM_CHECK_CL(t, clmem_svm_allocator_release(a));
}

static void test_copy_into_stale(clmem_test_context *t) {
    clmem_svm_allocator *a = NULL;
    clmem_svm_pool *pool = NULL;
    clmem_pooled_svm stale, owner;
    unsigned char junk[N];
    memset(junk, 0x77, sizeof junk);
    if (!setup(t, &a, &pool, &stale, &owner)) return;
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, stale.svm, (const void *)junk, .byte_count = N), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stale pooled SVM handle") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, stale.svm, owner.svm), CL_INVALID_VALUE);
    check_owner(t, owner);
    teardown(t, a, pool, &owner);
}

static void test_copy_from_stale(clmem_test_context *t) {
    clmem_svm_allocator *a = NULL;
    clmem_svm_pool *pool = NULL;
    clmem_pooled_svm stale, owner;
    unsigned char out[N];
    memset(out, 0x55, sizeof out);
    if (!setup(t, &a, &pool, &stale, &owner)) return;
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)out, stale.svm, .byte_count = N), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, out[N - 1], 0x55); /* nothing read */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, owner.svm, stale.svm), CL_INVALID_VALUE);
    check_owner(t, owner);
    teardown(t, a, pool, &owner);
}

static void test_fill_map_kernel_arg(clmem_test_context *t) {
    static const char src[] = "__kernel void k(__global uchar *a) { a[get_global_id(0)] = 0x99; }\n";
    clmem_svm_allocator *a = NULL;
    clmem_svm_pool *pool = NULL;
    clmem_pooled_svm stale, owner;
    clmem_svm_map m;
    cl_kernel k;
    unsigned char pattern = 0x33;
    if (!setup(t, &a, &pool, &stale, &owner)) return;
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, stale.svm, (unsigned char)0x33, N), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stale pooled SVM handle") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, stale.svm, &pattern, 1), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_svm_map_rw(t->queue, stale.svm, &m), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stale pooled SVM handle") != NULL);
    CLMEM_CHECK(t, m.ptr == NULL);
    k = build_kernel(t, src, "k");
    if (k) {
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, stale.svm), CL_INVALID_VALUE);
        CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, owner.svm)); /* the live handle is fine */
        clReleaseKernel(k);
    }
    check_owner(t, owner);
    /* and a stale copy is released twice as before */
    CLMEM_CHECK_ERR(t, clmem_pooled_svm_release(&stale), CLMEM_ERROR_DOUBLE_RELEASE);
    teardown(t, a, pool, &owner);
}

static const clmem_test_case cases[] = {
    {"copy_into_stale", test_copy_into_stale, false},
    {"copy_from_stale", test_copy_from_stale, false},
    {"fill_map_kernel_arg", test_fill_map_kernel_arg, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
