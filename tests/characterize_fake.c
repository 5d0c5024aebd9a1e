/* characterize on made-up device descriptions: the NVIDIA, AMD, Intel, Apple and PoCL
   branches of PyOpenCL's logic, without such devices. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* ---- warnings go to a counter ---- */
static int warnings;
static char last_warning[512];
static void on_log(clmem_log_level level, cl_int code, const char *message, void *user) {
    (void)code;
    (void)user;
    if (level == CLMEM_LOG_WARNING) {
        ++warnings;
        snprintf(last_warning, sizeof last_warning, "%s", message);
    }
}
static void watch_warnings(void) {
    warnings = 0;
    last_warning[0] = '\0';
    clmem_set_log_callback(on_log, NULL);
}

static void make(clmem_device_description *d, const char *name, const char *vendor, const char *plat_name,
                 const char *plat_vendor, const char *plat_version, cl_device_type type) {
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    snprintf(d->vendor, sizeof d->vendor, "%s", vendor);
    snprintf(d->platform_name, sizeof d->platform_name, "%s", plat_name);
    snprintf(d->platform_vendor, sizeof d->platform_vendor, "%s", plat_vendor);
    snprintf(d->platform_version, sizeof d->platform_version, "%s", plat_version);
    d->type = type;
    d->local_mem_type = CL_LOCAL;
}
static void nvidia(clmem_device_description *d, cl_uint major, cl_uint minor) {
    make(d, "NVIDIA H100", "NVIDIA Corporation", "NVIDIA CUDA", "NVIDIA Corporation", "OpenCL 3.0 CUDA 12.4.131",
         CL_DEVICE_TYPE_GPU);
    snprintf(d->extensions, sizeof d->extensions, "cl_khr_fp64 cl_nv_device_attribute_query cl_khr_int64_base_atomics");
    d->has_nv_compute_capability = true;
    d->nv_compute_capability_major = major;
    d->nv_compute_capability_minor = minor;
    d->has_warp_size_nv = true;
    d->warp_size_nv = 32;
    d->local_mem_size = 49152;
    d->svm_capabilities = 1; /* coarse grain buffer */
}
static void amd(clmem_device_description *d, cl_device_type type) {
    make(d, "gfx1030", "Advanced Micro Devices, Inc.", "AMD Accelerated Parallel Processing",
         "Advanced Micro Devices, Inc.", "OpenCL 2.1 AMD-APP (3380.4)", type);
    snprintf(d->extensions, sizeof d->extensions, "cl_khr_fp64  cl_amd_fp64 cl_khr_global_int32_base_atomics");
    d->local_mem_size = 65536;
    d->svm_capabilities = 1 | 2 | 8; /* coarse, fine buffer, atomics */
    d->preferred_work_group_size_multiple = 64;
}
static void intel(clmem_device_description *d, cl_device_type type) {
    make(d, "Intel(R) UHD Graphics 770", "Intel(R) Corporation", "Intel(R) OpenCL Graphics", "Intel(R) Corporation",
         "OpenCL 3.0 ", type);
    snprintf(d->extensions, sizeof d->extensions, "cl_khr_fp16 cl_intel_subgroups");
    d->local_mem_size = 65536;
    d->svm_capabilities = 1 | 2;
    d->preferred_work_group_size_multiple = 32; /* what PyOpenCL's AMD branch would measure */
}

static void test_nvidia(clmem_test_context *t) {
    char why[160];
    clmem_device_description d;
    cl_uint u = 0, minor = 0;
    cl_ulong lmem = 0;
    bool yes = true;
    char opts[128];
    size_t need = 0;
    watch_warnings();
    nvidia(&d, 9, 0);
    CLMEM_CHECK_CL(t, clmem_nv_compute_capability_desc(&d, &u, &minor));
    CLMEM_CHECK_EQ(t, u, 9);
    CLMEM_CHECK_EQ(t, minor, 0);
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 32);
    d.warp_size_nv = 64; /* the attribute wins over the vendor rule */
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 64);
    d.has_warp_size_nv = false; /* vendor rule */
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 32);
    CLMEM_CHECK_EQ(t, warnings, 0);
    CLMEM_CHECK_CL(t, clmem_simultaneous_work_items_on_local_access_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 32);
    CLMEM_CHECK_EQ(t, warnings, 1); /* CC >= 3.0: a guess */
    CLMEM_CHECK(t, strstr(last_warning, "wildly guessing conflicting local access size on 'NVIDIA H100'") != NULL);
    CLMEM_CHECK_CL(t, clmem_local_memory_bank_count_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 32);
    CLMEM_CHECK_EQ(t, warnings, 2);
    CLMEM_CHECK_CL(t, clmem_local_memory_access_granularity_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 4);
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size_desc(&d, CLMEM_NARGS_UNKNOWN, &lmem));
    CLMEM_CHECK_EQ(t, lmem, 49152);
    CLMEM_CHECK_CL(t, clmem_has_amd_double_support_desc(&d, &yes));
    CLMEM_CHECK(t, !yes);
    CLMEM_CHECK_CL(t, clmem_has_double_support_desc(&d, &yes));
    CLMEM_CHECK(t, yes);
    CLMEM_CHECK_CL(t, clmem_get_fast_inaccurate_build_options_desc(&d, opts, sizeof opts, &need));
    CLMEM_CHECK(t, strcmp(opts, "-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros -cl-strict-aliasing") == 0);
    CLMEM_CHECK_EQ(t, need, strlen(opts) + 1);
    CLMEM_CHECK_CL(t, clmem_has_coarse_grain_buffer_svm_desc(&d, &yes));
    CLMEM_CHECK(t, yes == !loader_lacks(why, sizeof why)); /* a 1.2 OpenCL.dll: no SVM */
    CLMEM_CHECK_CL(t, clmem_has_fine_grain_buffer_svm_desc(&d, &yes));
    CLMEM_CHECK(t, !yes);

    /* compute capability 2.0: no guess, no warning */
    nvidia(&d, 2, 0);
    warnings = 0;
    CLMEM_CHECK_CL(t, clmem_simultaneous_work_items_on_local_access_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 32);
    CLMEM_CHECK_CL(t, clmem_local_memory_bank_count_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 32);
    CLMEM_CHECK_EQ(t, warnings, 0);

    /* pre-Fermi (1.3): 16 and 16; arguments eat local memory */
    nvidia(&d, 1, 3);
    d.local_mem_size = 16384;
    CLMEM_CHECK_CL(t, clmem_simultaneous_work_items_on_local_access_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 16);
    CLMEM_CHECK_CL(t, clmem_local_memory_bank_count_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 16);
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size_desc(&d, CLMEM_NARGS_UNKNOWN, &lmem));
    CLMEM_CHECK_EQ(t, lmem, 16384 - 256);
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size_desc(&d, 5, &lmem));
    CLMEM_CHECK_EQ(t, lmem, 16384 - 20);
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size_desc(&d, 0, &lmem));
    CLMEM_CHECK_EQ(t, lmem, 16384);
    d.local_mem_size = 100;
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size_desc(&d, CLMEM_NARGS_UNKNOWN, &lmem));
    CLMEM_CHECK_EQ(t, lmem, 0); /* never below zero */
    CLMEM_CHECK_EQ(t, warnings, 0);
    clmem_set_log_callback(NULL, NULL);
}

static void test_amd(clmem_test_context *t) {
    char why[160];
    clmem_device_description d;
    cl_uint u = 0, minor = 7;
    bool yes = false;
    char opts[128];
    watch_warnings();
    amd(&d, CL_DEVICE_TYPE_GPU);
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 64); /* the preferred work-group size multiple */
    d.device = NULL;
    d.preferred_work_group_size_multiple = 0; /* would need a probe kernel, but there is no device */
    CLMEM_CHECK_ERR(t, clmem_get_simd_group_size_desc(&d, 4, &u), CL_INVALID_DEVICE);
    CLMEM_CHECK_CL(t, clmem_nv_compute_capability_desc(&d, &u, &minor));
    CLMEM_CHECK_EQ(t, u, 0);
    CLMEM_CHECK_EQ(t, minor, 0);
    CLMEM_CHECK_CL(t, clmem_has_amd_double_support_desc(&d, &yes));
    CLMEM_CHECK(t, yes); /* found behind a double space */
    CLMEM_CHECK_CL(t, clmem_get_fast_inaccurate_build_options_desc(&d, opts, sizeof opts, NULL));
    CLMEM_CHECK(t, strcmp(opts, "-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros -cl-strict-aliasing") == 0);
    warnings = 0;
    CLMEM_CHECK_CL(t, clmem_simultaneous_work_items_on_local_access_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 16);
    CLMEM_CHECK_EQ(t, warnings, 1);
    CLMEM_CHECK_CL(t, clmem_local_memory_bank_count_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 16);
    CLMEM_CHECK_EQ(t, warnings, 2);
    CLMEM_CHECK(t, strstr(last_warning, "wildly guessing local memory bank count on 'gfx1030'") != NULL);
    CLMEM_CHECK_CL(t, clmem_has_fine_grain_buffer_svm_atomics_desc(&d, &yes));
    CLMEM_CHECK(t, yes == !loader_lacks(why, sizeof why)); /* a 1.2 OpenCL.dll: no SVM */
    CLMEM_CHECK_CL(t, clmem_has_fine_grain_system_svm_desc(&d, &yes));
    CLMEM_CHECK(t, !yes);
    snprintf(d.platform_version, sizeof d.platform_version, "OpenCL 1.2 AMD-APP (1800.11)");
    CLMEM_CHECK_CL(t, clmem_has_coarse_grain_buffer_svm_desc(&d, &yes));
    CLMEM_CHECK(t, !yes); /* a 1.2 platform has no SVM whatever the bits say */

    amd(&d, CL_DEVICE_TYPE_CPU);
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 1);
    amd(&d, CL_DEVICE_TYPE_ACCELERATOR);
    CLMEM_CHECK_ERR(t, clmem_get_simd_group_size_desc(&d, 4, &u), CL_INVALID_DEVICE_TYPE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "unexpected AMD device type") != NULL);

    /* the old ATI vendor string is AMD too, as a whole word */
    amd(&d, CL_DEVICE_TYPE_GPU);
    snprintf(d.vendor, sizeof d.vendor, "ATI Technologies Inc.");
    snprintf(d.platform_vendor, sizeof d.platform_vendor, "ATI Technologies Inc.");
    d.preferred_work_group_size_multiple = 32;
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 32);
    CLMEM_CHECK_CL(t, clmem_get_fast_inaccurate_build_options_desc(&d, opts, sizeof opts, NULL));
    CLMEM_CHECK(t, strcmp(opts, "-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros") == 0);
    clmem_set_log_callback(NULL, NULL);
}

static void test_intel_is_not_amd(clmem_test_context *t) {
    clmem_device_description d;
    cl_uint u = 99;
    char opts[128];
    size_t need = 0;
    intel(&d, CL_DEVICE_TYPE_GPU);
    /* PyOpenCL: "ati" in "intel(r) corporation" -> AMD branch -> 32. clmem: unknown. */
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 0);
    intel(&d, CL_DEVICE_TYPE_CPU);
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 1);
    intel(&d, CL_DEVICE_TYPE_ACCELERATOR); /* PyOpenCL: "unexpected AMD device type" */
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &u));
    CLMEM_CHECK_EQ(t, u, 0);
    CLMEM_CHECK_CL(t, clmem_get_fast_inaccurate_build_options_desc(&d, NULL, 0, &need));
    CLMEM_CHECK_EQ(t, need, strlen("-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros") + 1);
    CLMEM_CHECK_ERR(t, clmem_get_fast_inaccurate_build_options_desc(&d, opts, 10, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "57 bytes needed") != NULL);
}

static void test_struct_arg_count_bug_branches(clmem_test_context *t) {
    clmem_device_description d;
    clmem_struct_arg_count_bug bug = CLMEM_STRUCT_ARG_COUNT_BUG_POCL;
    watch_warnings();
    make(&d, "cpu", "Apple", "Apple", "Apple", "OpenCL 1.2 (Oct 1 2020)", CL_DEVICE_TYPE_CPU);
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_APPLE);
    d.type = CL_DEVICE_TYPE_GPU;
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_NONE);
    make(&d, "pthread", "GenuineIntel", "Portable Computing Language", "The pocl project", "OpenCL 1.2 pocl 0.13",
         CL_DEVICE_TYPE_CPU);
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_POCL);
    snprintf(d.platform_version, sizeof d.platform_version, "OpenCL 1.2 pocl 0.9-pre");
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_POCL);
    snprintf(d.platform_version, sizeof d.platform_version, "OpenCL 2.0 pocl 1.0");
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_NONE);
    /* 0.14 needs the probe kernel: a made-up description has no device to run it on */
    snprintf(d.platform_version, sizeof d.platform_version, "OpenCL 1.2 pocl 0.14");
    CLMEM_CHECK_ERR(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug), CL_INVALID_DEVICE);
    /* an unexpected format warns and counts as 0.14 ("POCL" does not match [Pp]o[Cc][Ll]) */
    snprintf(d.platform_version, sizeof d.platform_version, "OpenCL 1.2 POCL 0.5");
    CLMEM_CHECK_EQ(t, warnings, 0);
    CLMEM_CHECK_ERR(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug), CL_INVALID_DEVICE);
    CLMEM_CHECK_EQ(t, warnings, 1);
    CLMEM_CHECK(t, strstr(last_warning, "PoCL version number did not have expected format: 'OpenCL 1.2 POCL 0.5'") != NULL);
    /* not PoCL, not Apple */
    nvidia(&d, 9, 0);
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_NONE);
    clmem_set_log_callback(NULL, NULL);
}

static void test_bank_count_cpu(clmem_test_context *t) {
    clmem_device_description d;
    cl_uint u = 0;
    watch_warnings();
    intel(&d, CL_DEVICE_TYPE_CPU);
    d.local_mem_type = CL_GLOBAL;
    CLMEM_CHECK_ERR(t, clmem_local_memory_bank_count_desc(&d, &u), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "meaningless for cache-based local memory") != NULL);
    CLMEM_CHECK_CL(t, clmem_simultaneous_work_items_on_local_access_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 1);
    d.local_mem_type = CL_LOCAL; /* a CPU with real local memory: a guess */
    CLMEM_CHECK_CL(t, clmem_local_memory_bank_count_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 16);
    CLMEM_CHECK_EQ(t, warnings, 1);
    intel(&d, CL_DEVICE_TYPE_ACCELERATOR);
    CLMEM_CHECK_CL(t, clmem_simultaneous_work_items_on_local_access_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 16);
    CLMEM_CHECK_CL(t, clmem_local_memory_bank_count_desc(&d, &u));
    CLMEM_CHECK_EQ(t, u, 16);
    CLMEM_CHECK_EQ(t, warnings, 3);
    clmem_set_log_callback(NULL, NULL);
}

/* ---- why_not_local_access_conflict_free on PyOpenCL-style shapes ---- */
static const char *const conflict32 =
    "32x conflict on axis 1 (from right, 0-based): w.item 0 -> [0, 0], w.item 1 -> [1, 0], w.item 2 -> [2, 0], "
    "w.item 3 -> [3, 0], w.item 4 -> [4, 0], w.item 5 -> [5, 0], w.item 6 -> [6, 0], w.item 7 -> [7, 0], "
    "w.item 8 -> [8, 0], w.item 9 -> [9, 0], w.item 10 -> [10, 0], w.item 11 -> [11, 0], w.item 12 -> [12, 0], "
    "w.item 13 -> [13, 0], w.item 14 -> [14, 0], w.item 15 -> [15, 0], w.item 16 -> [16, 0], w.item 17 -> [17, 0], "
    "w.item 18 -> [18, 0], w.item 19 -> [19, 0], w.item 20 -> [20, 0], w.item 21 -> [21, 0], w.item 22 -> [22, 0], "
    "w.item 23 -> [23, 0], w.item 24 -> [24, 0], w.item 25 -> [25, 0], w.item 26 -> [26, 0], w.item 27 -> [27, 0], "
    "w.item 28 -> [28, 0], w.item 29 -> [29, 0], w.item 30 -> [30, 0], w.item 31 -> [31, 0] access bank 0";

static int conflict_is(const clmem_device_description *d, size_t itemsize, size_t rank, const size_t *shape,
                       const size_t *stored, cl_uint want_m, const char *want) {
    char text[2048];
    size_t need = 0;
    cl_uint m = 0;
    if (clmem_why_not_local_access_conflict_free_desc(d, itemsize, rank, shape, stored, &m, text, sizeof text, &need) !=
        CL_SUCCESS)
        return 0;
    if (m != want_m || strcmp(text, want) != 0 || need != strlen(want) + 1) {
        printf("    got %u '%s' (%zu)\n", m, text, need);
        return 0;
    }
    return 1;
}

static void test_conflicts(clmem_test_context *t) {
    clmem_device_description fermi, g80;
    size_t s32[2] = {32, 32}, s32p[2] = {32, 33}, s16[2] = {16, 16}, s64[1] = {64}, s43[2] = {4, 3};
    size_t s248[3] = {2, 4, 8}, s444[3] = {4, 4, 4}, s445[3] = {4, 4, 5}, s82[2] = {8, 2}, s816[2] = {8, 16};
    nvidia(&fermi, 2, 0); /* 32 work items, 32 banks, no warnings */
    nvidia(&g80, 1, 3);   /* 16 and 16 */
    watch_warnings();
    /* a square tile read down a column: every work item on bank 0 */
    CLMEM_CHECK(t, conflict_is(&fermi, 4, 2, s32, NULL, 32, conflict32));
    /* the classic fix: pad rows to 33 */
    CLMEM_CHECK(t, conflict_is(&fermi, 4, 2, s32, s32p, 1, ""));
    CLMEM_CHECK(t, conflict_is(&g80, 4, 2, s16, NULL, 16,
                               "16x conflict on axis 1 (from right, 0-based): w.item 0 -> [0, 0], w.item 1 -> [1, 0], "
                               "w.item 2 -> [2, 0], w.item 3 -> [3, 0], w.item 4 -> [4, 0], w.item 5 -> [5, 0], "
                               "w.item 6 -> [6, 0], w.item 7 -> [7, 0], w.item 8 -> [8, 0], w.item 9 -> [9, 0], "
                               "w.item 10 -> [10, 0], w.item 11 -> [11, 0], w.item 12 -> [12, 0], "
                               "w.item 13 -> [13, 0], w.item 14 -> [14, 0], w.item 15 -> [15, 0] access bank 0"));
    CLMEM_CHECK_EQ(t, warnings, 0);
    /* 8-byte items: 16 banks hit twice; the tie goes to the greatest text, as max() */
    CLMEM_CHECK(t, conflict_is(&fermi, 8, 1, s64, NULL, 2,
                               "2x conflict on axis 0 (from right, 0-based): w.item 9 -> [9], w.item 25 -> [25] "
                               "access bank 18"));
    CLMEM_CHECK_EQ(t, warnings, 1); /* itemsize != 4 */
    CLMEM_CHECK(t, strstr(last_warning, "itemsize 8 != 4") != NULL);
    /* work items past the end do not take part */
    CLMEM_CHECK(t, conflict_is(&g80, 4, 2, s43, NULL, 1, ""));
    CLMEM_CHECK(t, conflict_is(&fermi, 4, 3, s248, s248, 2,
                               "2x conflict on axis 2 (from right, 0-based): w.item 0 -> [0, 0, 0], "
                               "w.item 1 -> [1, 0, 0] access bank 0"));
    CLMEM_CHECK(t, conflict_is(&fermi, 4, 3, s444, s445, 2,
                               "2x conflict on axis 0 (from right, 0-based): w.item 5 -> [0, 1, 1], "
                               "w.item 31 -> [1, 3, 3] access bank 6"));
    CLMEM_CHECK(t, conflict_is(&g80, 4, 2, s82, s816, 8,
                               "8x conflict on axis 1 (from right, 0-based): w.item 0 -> [0, 0], w.item 1 -> [1, 0], "
                               "w.item 2 -> [2, 0], w.item 3 -> [3, 0], w.item 4 -> [4, 0], w.item 5 -> [5, 0], "
                               "w.item 6 -> [6, 0], w.item 7 -> [7, 0] access bank 0"));
    /* rank 0: nothing to conflict */
    CLMEM_CHECK(t, conflict_is(&fermi, 4, 0, NULL, NULL, 1, ""));
    clmem_set_log_callback(NULL, NULL);
}

static void test_conflicts_bad_input(clmem_test_context *t) {
    clmem_device_description d, cpu;
    size_t s32[2] = {32, 32}, s0[2] = {32, 0}, small[2] = {32, 31}, need = 0;
    cl_uint m = 0;
    char text[16];
    nvidia(&d, 2, 0);
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(&d, 0, 2, s32, NULL, &m, NULL, 0, NULL),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, NULL, NULL, &m, NULL, 0, NULL),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, s0, NULL, &m, NULL, 0, NULL),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "shape[1] is 0") != NULL);
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, s32, small, &m, NULL, 0, NULL),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "stored_shape[1] = 31 is smaller than shape[1] = 32") != NULL);
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, s32, NULL, NULL, NULL, 0, NULL),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(NULL, 4, 2, s32, NULL, &m, NULL, 0, NULL),
                    CL_INVALID_VALUE);
    /* explanation storage too small: the multiplicity and the size still come back */
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, s32, NULL, &m, text, sizeof text, &need),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, m, 32);
    CLMEM_CHECK_EQ(t, need, strlen(conflict32) + 1);
    /* size only */
    need = 0;
    CLMEM_CHECK_CL(t, clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, s32, NULL, &m, NULL, 0, &need));
    CLMEM_CHECK_EQ(t, need, strlen(conflict32) + 1);
    /* a CPU with cache-based local memory has no banks (PyOpenCL's RuntimeError) */
    make(&cpu, "cpu", "GenuineIntel", "Portable Computing Language", "The pocl project", "OpenCL 3.0 PoCL 3.1",
         CL_DEVICE_TYPE_CPU);
    cpu.local_mem_type = CL_GLOBAL;
    CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free_desc(&cpu, 4, 2, s32, NULL, &m, NULL, 0, NULL),
                    CL_INVALID_OPERATION);
}

static void test_null_arguments(clmem_test_context *t) {
    clmem_device_description d;
    cl_uint u;
    bool yes;
    clmem_struct_arg_count_bug bug;
    cl_ulong l;
    nvidia(&d, 9, 0);
    CLMEM_CHECK_ERR(t, clmem_get_simd_group_size_desc(NULL, 4, &u), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_get_simd_group_size_desc(&d, 4, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_has_amd_double_support_desc(&d, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_has_struct_arg_count_bug_desc(NULL, NULL, &bug), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_nv_compute_capability_desc(&d, &u, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_usable_local_mem_size_desc(&d, 0, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_has_fine_grain_system_svm_atomics_desc(NULL, &yes), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_get_fast_inaccurate_build_options_desc(NULL, NULL, 0, NULL), CL_INVALID_VALUE);
    /* the device forms reject a NULL device */
    CLMEM_CHECK_ERR(t, clmem_get_simd_group_size(NULL, 4, &u), CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, clmem_local_memory_access_granularity(NULL, &u), CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, clmem_usable_local_mem_size(NULL, 0, &l), CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, clmem_has_coarse_grain_buffer_svm(NULL, &yes), CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, clmem_device_describe(NULL, &d), CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, clmem_device_describe(t->device, NULL), CL_INVALID_VALUE);
}

static const clmem_test_case cases[] = {
    {"nvidia", test_nvidia, true},
    {"amd", test_amd, true},
    {"intel_is_not_amd", test_intel_is_not_amd, true},
    {"struct_arg_count_bug_branches", test_struct_arg_count_bug_branches, true},
    {"bank_count_cpu", test_bank_count_cpu, true},
    {"conflicts", test_conflicts, true},
    {"conflicts_bad_input", test_conflicts_bad_input, true},
    {"null_arguments", test_null_arguments, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
