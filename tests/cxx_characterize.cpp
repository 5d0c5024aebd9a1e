// The characterize module from C++: every query, by device and by description, agreeing.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_queries(clmem_test_context *t) {
    clmem_device_description *d = new clmem_device_description();
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, d));
    CLMEM_CHECK(t, d->device == t->device && d->name[0] != 0);
    char a[512], b[512];
    size_t na = 0, nb = 0;
    CLMEM_CHECK_CL(t, clmem_get_fast_inaccurate_build_options(t->device, a, sizeof a, &na));
    CLMEM_CHECK_CL(t, clmem_get_fast_inaccurate_build_options_desc(d, b, sizeof b, &nb));
    CLMEM_CHECK(t, na == nb && strcmp(a, b) == 0 && strstr(a, "-cl-fast-relaxed-math") != NULL);
    cl_uint u1 = 0, u2 = 0, u3 = 0, u4 = 0;
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size(t->device, 4, &u1));
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(d, 4, &u2));
    CLMEM_CHECK_EQ(t, u1, u2);
    bool y1 = false, y2 = true;
    cl_int r1, r2;
    // each query answers the same (code and value) by device and by description
#define SAME(fn, v1, v2)                                \
    r1 = fn(t->device, &v1);                            \
    r2 = fn##_desc(d, &v2);                             \
    CLMEM_CHECK_EQ(t, r1, r2);                          \
    if (r1 == CL_SUCCESS) CLMEM_CHECK_EQ(t, v1, v2);
    SAME(clmem_has_amd_double_support, y1, y2)
    SAME(clmem_has_double_support, y1, y2)
    SAME(clmem_has_coarse_grain_buffer_svm, y1, y2)
    SAME(clmem_has_fine_grain_buffer_svm, y1, y2)
    SAME(clmem_has_fine_grain_system_svm, y1, y2)
    SAME(clmem_has_fine_grain_buffer_svm_atomics, y1, y2)
    SAME(clmem_has_fine_grain_system_svm_atomics, y1, y2)
    SAME(clmem_local_memory_access_granularity, u1, u2)
    SAME(clmem_local_memory_bank_count, u1, u2)
    SAME(clmem_simultaneous_work_items_on_local_access, u1, u2)
    clmem_struct_arg_count_bug g1, g2;
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug(t->device, t->context, &g1));
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(d, t->context, &g2));
    CLMEM_CHECK_EQ(t, g1, g2);
    CLMEM_CHECK_CL(t, clmem_nv_compute_capability(t->device, &u1, &u2));
    CLMEM_CHECK_CL(t, clmem_nv_compute_capability_desc(d, &u3, &u4));
    CLMEM_CHECK(t, u1 == u3 && u2 == u4);
    cl_ulong l1 = 0, l2 = 0;
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size(t->device, CLMEM_NARGS_UNKNOWN, &l1));
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size_desc(d, 2, &l2));
    CLMEM_CHECK(t, l1 > 0 && l2 >= l1);
    const size_t shape[2] = {16, 16};
    r1 = clmem_why_not_local_access_conflict_free(t->device, 4, 2, shape, shape, &u1, a, sizeof a, &na);
    r2 = clmem_why_not_local_access_conflict_free_desc(d, 4, 2, shape, shape, &u2, b, sizeof b, &nb);
    CLMEM_CHECK_EQ(t, r1, r2);
    if (r1 == CL_SUCCESS) CLMEM_CHECK(t, u1 == u2 && u1 >= 1 && strcmp(a, b) == 0);
    CLMEM_CHECK_ERR(t, clmem_device_describe(NULL, d), CL_INVALID_DEVICE);
    delete d;
}

CXX_CASES({"queries", test_queries, false})
