/* Pinned host allocations (clmem_pinned_allocation_*): memory that is mapped for its
   lifetime, copies through clmem_enqueue_copy in both directions, flags, sizes, the
   release rules and double release. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static cl_mem_flags flags_of(cl_mem m) {
    cl_mem_flags f = 0;
    if (clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, NULL) != CL_SUCCESS) return 0;
    return f;
}

static size_t size_of(cl_mem m) {
    size_t s = 0;
    if (clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof s, &s, NULL) != CL_SUCCESS) return 0;
    return s;
}

/* the memory is there, host-writable, and is what clmem_enqueue_copy moves, both ways */
static void test_copy_both_directions(clmem_test_context *t) {
    const size_t n = 100003; /* not a multiple of anything */
    cl_int err;
    clmem_pinned_allocation h = clmem_pinned_allocation_create(t->queue, n, 0, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, n, NULL, &err);
    unsigned char *expect = (unsigned char *)malloc(n), *back = (unsigned char *)malloc(n);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, h.ptr != NULL && h.mem != NULL && h.pool != NULL && (h.generation & 1) == 1);
    CLMEM_CHECK_EQ(t, h.size, n);
    CLMEM_CHECK_EQ(t, size_of(h.mem), n);
    CLMEM_CHECK_EQ(t, flags_of(h.mem), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR);
    if (!h.ptr || !b.mem || !expect || !back) goto out;
    /* host -> buffer from pinned memory */
    fill_pattern(h.ptr, n, 11);
    memcpy(expect, h.ptr, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)h.ptr));
    memset(back, 0, n);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, expect, n) == 0);
    /* buffer -> host into pinned memory, with an offset and a count */
    fill_pattern(expect, n, 12);
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, n, expect, 0, NULL, NULL));
    memset(h.ptr, 0xA5, n);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (unsigned char *)h.ptr + 5, b, .byte_count = 4097,
                                         .src_offset = 1000));
    CLMEM_CHECK(t, memcmp((unsigned char *)h.ptr + 5, expect + 1000, 4097) == 0);
    CLMEM_CHECK_EQ(t, ((unsigned char *)h.ptr)[4], 0xA5);
    CLMEM_CHECK_EQ(t, ((unsigned char *)h.ptr)[5 + 4097], 0xA5);
    /* non-blocking from pinned memory, waited for with its event */
    {
        cl_event ev = NULL;
        fill_pattern(h.ptr, n, 13);
        memcpy(expect, h.ptr, n);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, (const void *)h.ptr, .is_blocking = CLMEM_NON_BLOCKING,
                                             .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        if (ev) {
            CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
            clReleaseEvent(ev);
        }
        CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, n, back, 0, NULL, NULL));
        CLMEM_CHECK(t, memcmp(back, expect, n) == 0);
    }
out:
    free(expect);
    free(back);
    clmem_buffer_release(&b);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
    CLMEM_CHECK(t, h.ptr == NULL && h.size == 0 && h.mem == NULL);
}

/* device-access flags are kept, host flags refused, sizes checked */
static void test_flags_and_sizes(clmem_test_context *t) {
    cl_int err;
    cl_ulong max_alloc = 0;
    clmem_pinned_allocation h;
    h = clmem_pinned_allocation_create(t->queue, 64, CL_MEM_READ_ONLY, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, flags_of(h.mem), CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
    h = clmem_pinned_allocation_create(t->queue, 64, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, flags_of(h.mem), CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));

    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(t->queue, 64, CL_MEM_HOST_READ_ONLY, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, h.ptr == NULL && h.pool == NULL && h.generation == 0);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_pinned_allocation_create") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "HOST_READ_ONLY") != NULL);
    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(t->queue, 64, CL_MEM_USE_HOST_PTR, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "USE_HOST_PTR") != NULL);
    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(t->queue, 64, CL_MEM_COPY_HOST_PTR, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(t->queue, 64, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &err),
                        err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "more than one") != NULL);
    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(t->queue, 64, (cl_mem_flags)1 << 40, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(NULL, 64, 0, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "queue is NULL") != NULL);
    CLMEM_CHECK(t, h.ptr == NULL);

    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
    if ((unsigned long long)max_alloc < (unsigned long long)SIZE_MAX) {
        CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(t->queue, (size_t)max_alloc + 1, 0, &err), err),
                        CL_INVALID_BUFFER_SIZE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_DEVICE_MAX_MEM_ALLOC_SIZE") != NULL);
    }
    /* size 0: an empty allocation, releasable any number of times */
    h = clmem_pinned_allocation_create(t->queue, 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, h.ptr == NULL && h.mem == NULL && h.size == 0 && h.pool == NULL && h.generation == 0);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
    /* size 0 still checks its arguments */
    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(NULL, 0, 0, &err), err), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, (h = clmem_pinned_allocation_create(t->queue, 0, CL_MEM_HOST_NO_ACCESS, &err), err),
                    CL_INVALID_VALUE);
    /* errcode_ret may be NULL */
    h = clmem_pinned_allocation_create(t->queue, 8, 0, NULL);
    CLMEM_CHECK(t, h.ptr != NULL);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(NULL));
}

/* a released handle, or any copy of it, is recognised; other allocations are unaffected */
static void test_double_release(clmem_test_context *t) {
    enum { N = 150 }; /* more than the registry's first 64 slots */
    clmem_pinned_allocation a[N], copy[N], keep;
    cl_int err;
    int i;
    keep = clmem_pinned_allocation_create(t->queue, 32, 0, &err);
    CLMEM_CHECK_CL(t, err);
    memset(keep.ptr, 0x3C, 32);
    for (i = 0; i < N; ++i) {
        a[i] = clmem_pinned_allocation_create(t->queue, (size_t)(1 + i * 7), 0, &err);
        CLMEM_CHECK_CL(t, err);
        if (err != CL_SUCCESS) return;
        memset(a[i].ptr, i & 0xff, (size_t)(1 + i * 7));
        copy[i] = a[i];
    }
    for (i = 0; i < N; ++i) { /* distinct memory and identities */
        CLMEM_CHECK_EQ(t, ((unsigned char *)a[i].ptr)[i * 7], i & 0xff);
        if (i) CLMEM_CHECK(t, a[i].pool != a[i - 1].pool && a[i].ptr != a[i - 1].ptr);
    }
    for (i = N - 1; i >= 0; i -= 2) CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&a[i]));
    for (i = N - 2; i >= 0; i -= 2) CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&copy[i]));
    for (i = 0; i < N; ++i) {
        CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&copy[i]), CLMEM_ERROR_DOUBLE_RELEASE);
        CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&a[i]), CLMEM_ERROR_DOUBLE_RELEASE);
    }
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_pinned_allocation_release") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "already released") != NULL);
    /* new allocations reuse records under new generations; stale copies stay stale */
    {
        clmem_pinned_allocation n2 = clmem_pinned_allocation_create(t->queue, 16, 0, &err);
        CLMEM_CHECK_CL(t, err);
        for (i = 0; i < N; ++i) CLMEM_CHECK(t, copy[i].pool != n2.pool || copy[i].generation != n2.generation);
        CLMEM_CHECK_ERR(t, clmem_pinned_allocation_release(&copy[0]), CLMEM_ERROR_DOUBLE_RELEASE);
        CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&n2));
    }
    CLMEM_CHECK_EQ(t, ((unsigned char *)keep.ptr)[31], 0x3C);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&keep));
}

/* the allocation keeps its queue: releasing the program's queue reference first is fine */
static void test_outlives_queue_reference(clmem_test_context *t) {
    cl_int err;
    cl_command_queue q2 = extra_queue(t, t->context, &err);
    clmem_pinned_allocation h;
    CLMEM_CHECK_CL(t, err);
    if (err != CL_SUCCESS) return;
    h = clmem_pinned_allocation_create(q2, 4096, 0, &err);
    CLMEM_CHECK_CL(t, err);
    clReleaseCommandQueue(q2);
    memset(h.ptr, 1, 4096);
    CLMEM_CHECK_CL(t, clmem_pinned_allocation_release(&h));
}

/* an enqueued release on a queue of another context is refused before anything is
   released: the allocation stays usable and its release works */
static void test_enqueue_release_other_context(clmem_test_context *t) {
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    cl_command_queue oq = NULL;
    clmem_pinned_allocation h = CLMEM__ZERO;
    unsigned char back[4096];
    CLMEM_CHECK_CL(t, err);
    oq = extra_queue(t, other, &err);
    CLMEM_CHECK_CL(t, err);
    h = clmem_pinned_allocation_create(t->queue, sizeof back, 0, &err);
    CLMEM_CHECK_CL(t, err);
    if (h.ptr && oq) {
        clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof back, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_ERR(t, clmem_pinned_allocation_enqueue_release(&h, oq), CL_INVALID_CONTEXT);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_pinned_allocation_enqueue_release") != NULL);
        CLMEM_CHECK(t, h.ptr != NULL && h.size == sizeof back); /* untouched */
        memset(h.ptr, 0x5D, sizeof back);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, h.ptr, .byte_count = sizeof back));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, b));
        CLMEM_CHECK(t, back[0] == 0x5D && back[sizeof back - 1] == 0x5D);
        CLMEM_CHECK_CL(t, clmem_pinned_allocation_enqueue_release(&h, t->queue));
        CLMEM_CHECK_CL(t, clFinish(t->queue));
        clmem_buffer_release(&b);
    }
    clmem_pinned_allocation_release(&h);
    if (oq) clReleaseCommandQueue(oq);
    if (other) clReleaseContext(other);
}

static const clmem_test_case cases[] = {
    {"copy_both_directions", test_copy_both_directions, false},
    {"flags_and_sizes", test_flags_and_sizes, false},
    {"double_release", test_double_release, false},
    {"outlives_queue_reference", test_outlives_queue_reference, false},
    {"enqueue_release_other_context", test_enqueue_release_other_context, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
