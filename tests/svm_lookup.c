/* clmem_svm_allocation_lookup: from any pointer into a clmem SVM allocation (its
   start, an interior pointer, its last byte; not one past the end) to the
   allocation, released through what the lookup found; pointers that are not from
   clmem (stack, malloc, a raw clSVMAlloc, a pooled block) are not found; lookups,
   creations and releases from several threads at once. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <pthread.h>
#include <stdlib.h>

static int same_allocation(clmem_svm_allocation x, clmem_svm_allocation y) {
    return x.svm.ptr == y.svm.ptr && x.svm.size == y.svm.size && x.svm.pool == y.svm.pool && x.svm.generation == y.svm.generation;
}

static void test_interior_pointers(clmem_test_context *t) {
    clmem_svm_allocation a, found;
    char *p;
    cl_int err;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 256, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    p = (char *)a.svm.ptr;
    err = clmem_svm_allocation_lookup(p, &found);
    if (err == CL_SUCCESS && !same_allocation(found, a)) err = -1;
    if (err == CL_SUCCESS) err = clmem_svm_allocation_lookup(p + 100, &found);
    if (err == CL_SUCCESS && !same_allocation(found, a)) err = -2;
    if (err == CL_SUCCESS) err = clmem_svm_allocation_lookup(p + 255, &found); /* the last byte */
    if (err == CL_SUCCESS && !same_allocation(found, a)) err = -3;
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, (char *)(p + 100) - (char *)found.svm.ptr, 100);
    /* one past the end is not inside (unless another allocation starts right there) */
    clmem_clear_error();
    err = clmem_svm_allocation_lookup(p + 256, &found);
    if (err == CL_SUCCESS) {
        if (found.svm.ptr != p + 256 || same_allocation(found, a)) err = -4;
    } else if (err != CLMEM_ERROR_NOT_FOUND ||
               !strstr(clmem_last_error_message(), "is one past the end of the SVM allocation at")) {
        err = -5;
    } else if (found.svm.ptr != NULL || found.svm.size != 0 || found.svm.generation != 0) {
        err = -6; /* emptied on failure */
    } else {
        err = CL_SUCCESS;
    }
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
}

/* Release through what the lookup found: the original handle then sees a double
   release, and the memory is no longer found. */
static void test_release_through_lookup(clmem_test_context *t) {
    clmem_svm_allocation a, copy, found;
    float *x;
    cl_int err;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, sizeof(float) * 100, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    copy = a;
    x = (float *)a.svm.ptr;
    err = clmem_svm_allocation_lookup(&x[17], &found);
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&found));
    CLMEM_CHECK(t, found.svm.ptr == NULL && found.svm.size == 0);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&a), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_lookup(&x[17], &found), CLMEM_ERROR_NOT_FOUND);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
}

/* Pointers that are not from clmem. */
static void test_not_from_clmem(clmem_test_context *t) {
    clmem_svm_allocation found;
    int on_stack = 0;
    void *heap = malloc(64);
    CLMEM_CHECK(t, heap != NULL);
    memset(heap, 0, 64); /* gcc -O2 reads the lookup's const void * as a read of the bytes */
    found.svm.ptr = heap;
    found.svm.size = 1;
    found.svm.generation = 7;
    clmem_clear_error();
    if (clmem_svm_allocation_lookup(heap, &found) != CLMEM_ERROR_NOT_FOUND) {
        free(heap);
        CLMEM_CHECK(t, 0);
    }
    free(heap);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(),
                          "clmem_svm_allocation_lookup: ") != NULL &&
                       strstr(clmem_last_error_message(), "is not inside a live SVM allocation made by clmem") != NULL);
    CLMEM_CHECK(t, found.svm.ptr == NULL && found.svm.size == 0 && found.svm.generation == 0);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_lookup(&on_stack, &found), CLMEM_ERROR_NOT_FOUND);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_lookup(NULL, &found), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "ptr is NULL") != NULL);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_lookup(&on_stack, NULL), CL_INVALID_VALUE);
#ifdef CL_VERSION_2_0
    if (device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        /* raw clSVMAlloc memory is SVM, but no clmem allocation */
        void *raw = clSVMAlloc(t->context, CL_MEM_READ_WRITE, 128, 0);
        cl_int err;
        CLMEM_CHECK(t, raw != NULL);
        clmem_clear_error();
        err = clmem_svm_allocation_lookup((char *)raw + 8, &found);
        clSVMFree(t->context, raw);
        CLMEM_CHECK_EQ(t, err, CLMEM_ERROR_NOT_FOUND);
        /* a zero-size allocation owns nothing, so nothing is found */
        {
            clmem_svm_allocation z = clmem_svm_allocation_create(t->context, 0, 0, 0, NULL, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK(t, z.svm.ptr == NULL);
            CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&z));
        }
    }
#endif
}

/* Many allocations of several kinds (created directly, by the svm_empty family, by an
   SVM allocator): every interior pointer finds its own; a pooled block finds none. */
static void test_many_and_other_makers(clmem_test_context *t) {
    enum { M = 40 };
    clmem_svm_allocation a[M], found, from_allocator;
    clmem_svm_array arr;
    clmem_svm_allocator *alloc;
    clmem_svm_pool *pool = NULL;
    clmem_pooled_svm pooled;
    cl_int err = CL_SUCCESS;
    int i, made = 0;
    NEED_SVM(t);
    memset(&pooled, 0, sizeof pooled);
    for (i = 0; i < M && err == CL_SUCCESS; ++i) {
        a[i] = clmem_svm_allocation_create(t->context, (size_t)(16 + 8 * i), 0, 0, t->queue, &err);
        if (err == CL_SUCCESS) ++made;
    }
    for (i = 0; i < made && err == CL_SUCCESS; ++i) {
        size_t off = (size_t)(i * 7) % a[i].svm.size;
        err = clmem_svm_allocation_lookup((char *)a[i].svm.ptr + off, &found);
        if (err == CL_SUCCESS && !same_allocation(found, a[i])) err = -1;
    }
    for (i = 0; i < made; ++i) clmem_svm_allocation_release(&a[i]);
    CLMEM_CHECK_CL(t, err);

    arr = clmem_csvm_empty(t->context, double, &err, .shape = {10, 10});
    CLMEM_CHECK_CL(t, err);
    err = clmem_svm_allocation_lookup((char *)arr.svm.ptr + 5 * arr.strides[0] + 3 * arr.strides[1], &found);
    if (err == CL_SUCCESS && !same_allocation(found, clmem_svm_array_allocation(arr))) err = -2;
    clmem_svm_array_release(&arr);
    CLMEM_CHECK_CL(t, err);

    alloc = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    from_allocator = clmem_svm_allocator_allocate(alloc, 96, &err);
    if (err == CL_SUCCESS) err = clmem_svm_allocation_lookup((char *)from_allocator.svm.ptr + 95, &found);
    if (err == CL_SUCCESS && !same_allocation(found, from_allocator)) err = -3;
    clmem_svm_allocation_release(&from_allocator);
    if (err == CL_SUCCESS) pool = clmem_svm_pool_create(alloc, 4, &err);
    if (err == CL_SUCCESS) pooled = clmem_svm_pool_allocate(pool, 200, &err);
    if (err == CL_SUCCESS) {
        clmem_clear_error();
        err = clmem_svm_allocation_lookup(pooled.svm.ptr, &found) == CLMEM_ERROR_NOT_FOUND ? CL_SUCCESS : -4;
        clmem_pooled_svm_release(&pooled);
    }
    if (pool) clmem_svm_pool_release(pool);
    clmem_svm_allocator_release(alloc);
    CLMEM_CHECK_CL(t, err);
}

/* Threads: each makes allocations, finds them from interior pointers, releases
   half through the found handle and half through its own; another thread's
   allocations are never found for one's own pointers. */
typedef struct thread_arg {
    cl_context context;
    cl_command_queue queue;
    int failures, refused;
    char first[256]; /* what the first failure was */
} thread_arg;
#undef FAILED /* windows.h's */
#define FAILED(arg, what)                                                                            \
    do {                                                                                             \
        if (!(arg)->failures++)                                                                      \
            snprintf((arg)->first, sizeof (arg)->first, "%.40s: %.200s", what, clmem_last_error_message()); \
    } while (0)

static void *worker(void *p) {
    thread_arg *arg = (thread_arg *)p;
    int i;
    for (i = 0; i < 150; ++i) {
        cl_int err;
        clmem_svm_allocation a = clmem_svm_allocation_create(arg->context, 64 + (size_t)(i % 5) * 32, 0, 0, NULL, &err),
                             found;
        if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE) { /* NVIDIA's clSVMAlloc returns NULL now and then when */
            ++arg->refused;                             /* threads allocate at once (H100, CUDA 13): the driver's */
            continue;
        }
        if (err != CL_SUCCESS) {
            FAILED(arg, "create");
            continue;
        }
        err = clmem_svm_allocation_lookup((char *)a.svm.ptr + 63, &found);
        if (err != CL_SUCCESS) FAILED(arg, "lookup");
        else if (!same_allocation(found, a)) FAILED(arg, "lookup found another allocation");
        if (i % 2 == 0 && err == CL_SUCCESS) {
            if (clmem_svm_allocation_release(&found) != CL_SUCCESS) FAILED(arg, "release found");
            if (clmem_svm_allocation_release(&a) != CLMEM_ERROR_DOUBLE_RELEASE) FAILED(arg, "second release");
        } else if (clmem_svm_allocation_release(&a) != CL_SUCCESS) {
            FAILED(arg, "release");
        }
    }
    return NULL;
}

static void test_threads(clmem_test_context *t) {
    enum { T = 4 };
    pthread_t th[T];
    thread_arg args[T];
    int i, started = 0, failures = 0;
    NEED_SVM(t);
    for (i = 0; i < T; ++i) {
        args[i].context = t->context;
        args[i].queue = t->queue;
        args[i].failures = args[i].refused = 0;
        args[i].first[0] = 0;
        if (pthread_create(&th[i], NULL, worker, &args[i]) == 0) ++started;
        else break;
    }
    for (i = 0; i < started; ++i) {
        pthread_join(th[i], NULL);
        failures += args[i].failures;
    }
    CLMEM_CHECK_EQ(t, started, T);
    for (i = 0; i < T; ++i)
        if (args[i].failures) {
            clmem_test_fail(t, __FILE__, __LINE__, "thread %d: %d failures, the first: %s", i, args[i].failures,
                            args[i].first);
            return;
        }
    CLMEM_CHECK_EQ(t, failures, 0);
    for (i = 0; i < T; ++i) CLMEM_CHECK(t, args[i].refused < 150); /* every thread looked some up */
}

static const clmem_test_case cases[] = {
    {"interior_pointers", test_interior_pointers, false},
    {"release_through_lookup", test_release_through_lookup, false},
    {"not_from_clmem", test_not_from_clmem, false},
    {"many_and_other_makers", test_many_and_other_makers, false},
    {"threads", test_threads, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
