#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#include <pthread.h>
#include <stdatomic.h>

/* ---- a cache of ints keyed by (context, int), counting computes and destroys ---- */
static atomic_int computes, destroys, fail_next;

static cl_int square_compute(void *obj, const void *args, size_t n, void *value, void *user) {
    int a;
    (void)obj;
    (void)user;
    if (n != sizeof a) return CL_INVALID_VALUE;
    if (atomic_exchange(&fail_next, 0)) return CL_BUILD_PROGRAM_FAILURE;
    memcpy(&a, args, sizeof a);
    atomic_fetch_add(&computes, 1);
    *(int *)value = a * a;
    return CL_SUCCESS;
}
static void count_destroy(void *value) {
    (void)value;
    atomic_fetch_add(&destroys, 1);
}
static clmem_first_arg_cache squares =
    CLMEM_FIRST_ARG_CACHE_INIT("squares", CLMEM_CACHE_KEY_CONTEXT, sizeof(int), square_compute, count_destroy);
static clmem_first_arg_cache dev_squares =
    CLMEM_FIRST_ARG_CACHE_INIT("dev_squares", CLMEM_CACHE_KEY_DEVICE, sizeof(int), square_compute, count_destroy);
static clmem_first_arg_cache queue_squares =
    CLMEM_FIRST_ARG_CACHE_INIT("queue_squares", CLMEM_CACHE_KEY_QUEUE, sizeof(int), square_compute, count_destroy);

static void reset(void) {
    clmem_clear_first_arg_caches();
    atomic_store(&computes, 0);
    atomic_store(&destroys, 0);
    atomic_store(&fail_next, 0);
}

static cl_int square(clmem_first_arg_cache *c, void *obj, int a, int *out) {
    return clmem_first_arg_dependent_memoize(c, obj, &a, sizeof a, out, NULL);
}

/* the platform of the test device is OpenCL 3.0 (clSetContextDestructorCallback) */
static int platform_is_3(clmem_test_context *t) {
    char v[128] = {0};
    if (clGetPlatformInfo(t->platform, CL_PLATFORM_VERSION, sizeof v - 1, v, NULL) != CL_SUCCESS) return 0;
    return clmem__parse_opencl_version(v) >= 300;
}

static void test_once_per_key(clmem_test_context *t) {
    int v = 0;
    reset();
    CLMEM_CHECK_CL(t, square(&squares, t->context, 3, &v));
    CLMEM_CHECK_EQ(t, v, 9);
    CLMEM_CHECK_CL(t, square(&squares, t->context, 3, &v));
    CLMEM_CHECK_EQ(t, v, 9);
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 1);
    CLMEM_CHECK_CL(t, square(&squares, t->context, 4, &v));
    CLMEM_CHECK_EQ(t, v, 16);
    CLMEM_CHECK_CL(t, square(&squares, t->context, 3, NULL)); /* a hit without copying out */
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 2);
    /* the same arguments under another first argument are another key */
    CLMEM_CHECK_CL(t, square(&dev_squares, t->device, 3, &v));
    CLMEM_CHECK_EQ(t, v, 9);
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 3);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&squares), 2);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&dev_squares), 1);
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 0);
    reset();
}

static void test_clear_reruns_and_destroys_once(clmem_test_context *t) {
    int v = 0;
    reset();
    CLMEM_CHECK_CL(t, square(&squares, t->context, 5, &v));
    CLMEM_CHECK_CL(t, square(&dev_squares, t->device, 6, &v));
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 2);
    clmem_clear_first_arg_caches();
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 2);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&squares), 0);
    clmem_clear_first_arg_caches(); /* nothing left: no destroy runs twice */
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 2);
    CLMEM_CHECK_CL(t, square(&squares, t->context, 5, &v));
    CLMEM_CHECK_EQ(t, v, 25);
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 3);
    clmem_clear_first_arg_caches();
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 3);
    reset();
}

static void test_context_release_drops_entries(clmem_test_context *t) {
    cl_int err;
    cl_context ctx;
    int v = 0;
    if (!platform_is_3(t)) {
        clmem_test_skip(t, "platform below OpenCL 3.0: no clSetContextDestructorCallback");
        return;
    }
    reset();
    ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, square(&squares, ctx, 7, &v));
    CLMEM_CHECK_CL(t, square(&squares, ctx, 7, &v));
    CLMEM_CHECK_CL(t, square(&squares, t->context, 7, &v)); /* another context: stays */
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 2);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&squares), 2);
    CLMEM_CHECK_CL(t, clReleaseContext(ctx)); /* the cache did not retain it: this destroys it */
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 1);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&squares), 1);
    ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, square(&squares, ctx, 7, &v)); /* a new context computes again */
    CLMEM_CHECK_EQ(t, v, 49);
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 3);
    CLMEM_CHECK_CL(t, clReleaseContext(ctx));
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 2);
    reset();
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 0); /* reset() cleared the rest, then zeroed */
}

static void test_queue_key_dies_with_context(clmem_test_context *t) {
    cl_int err;
    cl_context ctx;
    cl_command_queue q;
    int v = 0;
    if (!platform_is_3(t)) {
        clmem_test_skip(t, "platform below OpenCL 3.0: no clSetContextDestructorCallback");
        return;
    }
    reset();
    ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    if (err != CL_SUCCESS) clReleaseContext(ctx);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, square(&queue_squares, q, 2, &v));
    CLMEM_CHECK_CL(t, square(&queue_squares, q, 2, &v));
    CLMEM_CHECK_EQ(t, v, 4);
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 1);
    clReleaseCommandQueue(q);
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 0); /* the context still lives */
    clReleaseContext(ctx);
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 1);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&queue_squares), 0);
    reset();
}

static void test_errors_not_cached(clmem_test_context *t) {
    int v = -1;
    reset();
    atomic_store(&fail_next, 1);
    CLMEM_CHECK_ERR(t, square(&squares, t->context, 8, &v), CL_BUILD_PROGRAM_FAILURE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "cache 'squares'") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "nothing was cached") != NULL);
    CLMEM_CHECK_EQ(t, v, -1);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&squares), 0);
    CLMEM_CHECK_CL(t, square(&squares, t->context, 8, &v));
    CLMEM_CHECK_EQ(t, v, 64);
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 1);
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 0); /* a failed compute stores nothing to destroy */
    reset();
}

static void test_bad_arguments(clmem_test_context *t) {
    int v = 0, a = 1;
    static clmem_first_arg_cache no_compute =
        CLMEM_FIRST_ARG_CACHE_INIT("no_compute", CLMEM_CACHE_KEY_CONTEXT, sizeof(int), NULL, NULL);
    CLMEM_CHECK_ERR(t, clmem_first_arg_dependent_memoize(NULL, t->context, &a, sizeof a, &v, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_first_arg_dependent_memoize(&no_compute, t->context, &a, sizeof a, &v, NULL),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "no_compute") != NULL);
    CLMEM_CHECK_ERR(t, clmem_first_arg_dependent_memoize(&squares, NULL, &a, sizeof a, &v, NULL), CL_INVALID_CONTEXT);
    CLMEM_CHECK_ERR(t, clmem_first_arg_dependent_memoize(&dev_squares, NULL, &a, sizeof a, &v, NULL),
                    CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, clmem_first_arg_dependent_memoize(&queue_squares, NULL, &a, sizeof a, &v, NULL),
                    CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_first_arg_dependent_memoize(&squares, t->context, NULL, 4, &v, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, clmem_first_arg_caches_forget(NULL), 0);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(NULL), 0);
}

static void test_forget(clmem_test_context *t) {
    int v = 0;
    reset();
    CLMEM_CHECK_CL(t, square(&squares, t->context, 1, &v));
    CLMEM_CHECK_CL(t, square(&squares, t->context, 2, &v));
    CLMEM_CHECK_CL(t, square(&queue_squares, t->queue, 2, &v)); /* tied to t->context */
    CLMEM_CHECK_CL(t, square(&dev_squares, t->device, 2, &v));
    CLMEM_CHECK_EQ(t, clmem_first_arg_caches_forget(t->context), 3);
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 3);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&dev_squares), 1);
    CLMEM_CHECK_EQ(t, clmem_first_arg_caches_forget(t->context), 0);
    CLMEM_CHECK_EQ(t, clmem_first_arg_caches_forget(t->device), 1);
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), 4);
    reset();
}

/* ---- the macros: a program built once per context, a count per (device, key) ---- */
static atomic_int builds, releases;
static cl_int build_program(cl_context ctx, cl_program *out) {
    static const char *src = "__kernel void twice(__global int *a) { a[get_global_id(0)] *= 2; }";
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) return err;
    err = clBuildProgram(p, 0, NULL, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        clReleaseProgram(p);
        return err;
    }
    atomic_fetch_add(&builds, 1);
    *out = p;
    return CL_SUCCESS;
}
static void release_program(cl_program *p) {
    atomic_fetch_add(&releases, 1);
    clReleaseProgram(*p);
}
CLMEM_CONTEXT_DEPENDENT_MEMOIZE(get_program, cl_program, build_program, release_program)

static cl_int count_devices(cl_context ctx, cl_uint *n) {
    return clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof *n, n, NULL);
}
CLMEM_CONTEXT_DEPENDENT_MEMOIZE(num_devices, cl_uint, count_devices, NULL)

typedef struct info_key { cl_device_info param; } info_key;
static cl_int query_uint(cl_device_id dev, const info_key *k, cl_ulong *out) {
    *out = 0;
    atomic_fetch_add(&computes, 1);
    /* "no such query" answered here: asking the driver would be reported as API misuse
       by Oclgrind's checker (CI runs the suite under it) */
    if (k->param == 0x7fff) return CL_INVALID_VALUE;
    return clGetDeviceInfo(dev, k->param, sizeof *out, out, NULL);
}
CLMEM_FIRST_ARG_DEPENDENT_MEMOIZE(device_ulong, CLMEM_CACHE_KEY_DEVICE, cl_device_id, info_key, cl_ulong, query_uint,
                                  NULL)

static void test_macros(clmem_test_context *t) {
    cl_program p1 = NULL, p2 = NULL;
    cl_uint n = 0;
    cl_ulong gm = 0, raw = 0;
    info_key k;
    reset();
    atomic_store(&builds, 0);
    atomic_store(&releases, 0);
    CLMEM_CHECK_CL(t, get_program(t->context, &p1));
    CLMEM_CHECK_CL(t, get_program(t->context, &p2));
    CLMEM_CHECK(t, p1 != NULL && p1 == p2);
    CLMEM_CHECK_EQ(t, atomic_load(&builds), 1);
    CLMEM_CHECK_CL(t, num_devices(t->context, &n));
    CLMEM_CHECK_EQ(t, n, 1);
    memset(&k, 0, sizeof k);
    k.param = CL_DEVICE_GLOBAL_MEM_SIZE;
    CLMEM_CHECK_CL(t, device_ulong(t->device, &k, &gm));
    CLMEM_CHECK_CL(t, device_ulong(t->device, &k, &gm));
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 1);
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof raw, &raw, NULL));
    CLMEM_CHECK_EQ(t, gm, raw);
    k.param = 0x7fff; /* no such query: the error comes back, nothing is cached */
    CLMEM_CHECK_ERR(t, device_ulong(t->device, &k, &gm), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, device_ulong(t->device, &k, &gm), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, atomic_load(&computes), 3);
    CLMEM_CHECK_ERR(t, device_ulong(t->device, NULL, &gm), CL_INVALID_VALUE);
    /* the program holds the context: forget its entries before the context goes */
    CLMEM_CHECK_EQ(t, clmem_first_arg_caches_forget(t->context), 2);
    CLMEM_CHECK_EQ(t, atomic_load(&releases), 1);
    CLMEM_CHECK_CL(t, get_program(t->context, &p1));
    CLMEM_CHECK_EQ(t, atomic_load(&builds), 2);
    clmem_clear_first_arg_caches();
    CLMEM_CHECK_EQ(t, atomic_load(&releases), 2);
    reset();
}

/* ---- threads: 4 threads x 400 calls over 8 keys ---- */
typedef struct thread_arg { cl_device_id dev; int bad; } thread_arg;
static void *hammer(void *p) {
    thread_arg *a = (thread_arg *)p;
    int i, v;
    for (i = 0; i < 400; ++i) {
        int key = (i * 7) % 8;
        if (square(&dev_squares, a->dev, key, &v) != CL_SUCCESS || v != key * key) a->bad++;
    }
    return NULL;
}

static void test_threads(clmem_test_context *t) {
    pthread_t th[4];
    thread_arg args[4];
    int i, c;
    reset();
    for (i = 0; i < 4; ++i) {
        args[i].dev = t->device;
        args[i].bad = 0;
        CLMEM_CHECK_EQ(t, pthread_create(&th[i], NULL, hammer, &args[i]), 0);
    }
    for (i = 0; i < 4; ++i) pthread_join(th[i], NULL);
    for (i = 0; i < 4; ++i) CLMEM_CHECK_EQ(t, args[i].bad, 0);
    c = atomic_load(&computes);
    CLMEM_CHECK(t, c >= 8 && c <= 32); /* 8 keys; a race may compute a key once per thread */
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&dev_squares), 8);
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), c - 8); /* race losers were destroyed at once */
    clmem_clear_first_arg_caches();
    CLMEM_CHECK_EQ(t, atomic_load(&destroys), c); /* every value destroyed exactly once */
    reset();
}

static const clmem_test_case cases[] = {
    {"once_per_key", test_once_per_key, false},
    {"clear_reruns_and_destroys_once", test_clear_reruns_and_destroys_once, false},
    {"context_release_drops_entries", test_context_release_drops_entries, false},
    {"queue_key_dies_with_context", test_queue_key_dies_with_context, false},
    {"errors_not_cached", test_errors_not_cached, false},
    {"bad_arguments", test_bad_arguments, false},
    {"forget", test_forget, false},
    {"macros", test_macros, false},
    {"threads", test_threads, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
