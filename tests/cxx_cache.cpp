// The cache module from C++: CLMEM_FIRST_ARG_CACHE_INIT, clmem_first_arg_dependent_memoize,
// CLMEM_CONTEXT_DEPENDENT_MEMOIZE, CLMEM_FIRST_ARG_DEPENDENT_MEMOIZE, the cache queries.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static int computed = 0, destroyed = 0;
static cl_int count_devices(cl_context c, cl_uint *n) {
    computed++;
    return clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof *n, n, NULL);
}
static void forget_uint(cl_uint *) { destroyed++; }
CLMEM_CONTEXT_DEPENDENT_MEMOIZE(num_devices, cl_uint, count_devices, forget_uint)

struct key {
    int a, b;
};
static cl_int add(cl_device_id, const key *k, long *out) {
    computed++;
    *out = k->a + k->b;
    return CL_SUCCESS;
}
CLMEM_FIRST_ARG_DEPENDENT_MEMOIZE(sum_for, CLMEM_CACHE_KEY_DEVICE, cl_device_id, key, long, add, NULL)

static cl_int twice(void *, const void *args, size_t, void *value, void *) {
    computed++;
    *static_cast<int *>(value) = 2 * *static_cast<const int *>(args);
    return CL_SUCCESS;
}
static clmem_first_arg_cache raw = CLMEM_FIRST_ARG_CACHE_INIT("raw", CLMEM_CACHE_KEY_CONTEXT, sizeof(int), twice, NULL);

static void test_memoize(clmem_test_context *t) {
    computed = destroyed = 0;
    cl_uint n1 = 0, n2 = 0;
    CLMEM_CHECK_CL(t, num_devices(t->context, &n1));
    CLMEM_CHECK_CL(t, num_devices(t->context, &n2));
    CLMEM_CHECK(t, n1 == 1 && n2 == 1 && computed == 1);
    key k = {2, 3};
    long s = 0;
    CLMEM_CHECK_CL(t, sum_for(t->device, &k, &s));
    CLMEM_CHECK_CL(t, sum_for(t->device, &k, &s));
    CLMEM_CHECK(t, s == 5 && computed == 2);
    int arg = 21, v = 0;
    CLMEM_CHECK_CL(t, clmem_first_arg_dependent_memoize(&raw, t->context, &arg, sizeof arg, &v, NULL));
    CLMEM_CHECK_EQ(t, v, 42);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&raw), 1);
    CLMEM_CHECK_ERR(t, clmem_first_arg_dependent_memoize(&raw, NULL, &arg, sizeof arg, &v, NULL), CL_INVALID_CONTEXT);
    CLMEM_CHECK(t, clmem_first_arg_caches_forget(t->context) >= 2);
    CLMEM_CHECK_EQ(t, destroyed, 1);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&raw), 0);
    clmem_clear_first_arg_caches();
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&raw), 0);
}

CXX_CASES({"memoize", test_memoize, false})
