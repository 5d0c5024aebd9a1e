/* characterize on the real devices CLMEM_TEST selects (PoCL in CI). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static int is_pocl_cpu(const clmem_device_description *d) {
    return strcmp(d->platform_name, "Portable Computing Language") == 0 && (d->type & CL_DEVICE_TYPE_CPU);
}

static void test_describe(clmem_test_context *t) {
    clmem_device_description d;
    char vendor[256] = {0}, pname[256] = {0};
    cl_device_type type = 0;
    cl_ulong lmem = 0;
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, &d));
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL));
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
    CLMEM_CHECK_CL(t, clGetPlatformInfo(t->platform, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL));
    CLMEM_CHECK(t, d.device == t->device);
    CLMEM_CHECK(t, d.platform == t->platform);
    CLMEM_CHECK(t, strcmp(d.vendor, vendor) == 0);
    CLMEM_CHECK(t, strcmp(d.platform_name, pname) == 0);
    CLMEM_CHECK_EQ(t, d.type, type);
    CLMEM_CHECK_EQ(t, d.local_mem_size, lmem);
    CLMEM_CHECK(t, strncmp(d.platform_version, "OpenCL ", 7) == 0);
    CLMEM_CHECK_EQ(t, d.preferred_work_group_size_multiple, 0);
    /* NVIDIA's attributes exactly when the device says it has them */
    CLMEM_CHECK_EQ(t, d.has_nv_compute_capability, strstr(d.extensions, "cl_nv_device_attribute_query") != NULL);
}

static void test_answers(clmem_test_context *t) {
    clmem_device_description d;
    cl_uint simd = 99, major = 99, minor = 99, gran = 0, sim = 0;
    cl_ulong usable = 0;
    bool dbl = false, amd_dbl = true;
    char opts[128];
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, &d));
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size(t->device, 4, &simd));
    CLMEM_CHECK_CL(t, clmem_nv_compute_capability(t->device, &major, &minor));
    CLMEM_CHECK_CL(t, clmem_local_memory_access_granularity(t->device, &gran));
    CLMEM_CHECK_EQ(t, gran, 4);
    CLMEM_CHECK_CL(t, clmem_simultaneous_work_items_on_local_access(t->device, &sim));
    CLMEM_CHECK_CL(t, clmem_usable_local_mem_size(t->device, CLMEM_NARGS_UNKNOWN, &usable));
    CLMEM_CHECK_CL(t, clmem_has_double_support(t->device, &dbl));
    CLMEM_CHECK_EQ(t, dbl, strstr(d.extensions, "cl_khr_fp64") != NULL);
    CLMEM_CHECK_CL(t, clmem_has_amd_double_support(t->device, &amd_dbl));
    CLMEM_CHECK_EQ(t, amd_dbl, strstr(d.extensions, "cl_amd_fp64") != NULL);
    CLMEM_CHECK_CL(t, clmem_get_fast_inaccurate_build_options(t->device, opts, sizeof opts, NULL));
    if (d.has_nv_compute_capability) {
        CLMEM_CHECK_EQ(t, major, d.nv_compute_capability_major);
        CLMEM_CHECK_EQ(t, simd, d.warp_size_nv);
        CLMEM_CHECK_EQ(t, sim, major < 2 ? 16 : 32);
        CLMEM_CHECK(t, strstr(opts, "-cl-strict-aliasing") != NULL);
    } else {
        CLMEM_CHECK_EQ(t, major, 0);
        CLMEM_CHECK_EQ(t, minor, 0);
        CLMEM_CHECK_EQ(t, usable, d.local_mem_size);
    }
    if (is_pocl_cpu(&d)) {
        /* PoCL's CPU device: 1 work item at a time, no strict aliasing ("AuthenticAMD" or
           "GenuineIntel" is not "Advanced Micro"), 1 lane per SIMD group */
        CLMEM_CHECK_EQ(t, simd, 1);
        CLMEM_CHECK_EQ(t, sim, 1);
        CLMEM_CHECK(t, strcmp(opts, "-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros") == 0);
    }
}

static void test_banks_and_conflicts(clmem_test_context *t) {
    clmem_device_description d;
    cl_uint banks = 0, m = 0;
    size_t shape[2] = {32, 32}, padded[2] = {32, 33};
    char text[2048];
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, &d));
    if ((d.type & CL_DEVICE_TYPE_CPU) && d.local_mem_type == CL_GLOBAL) {
        /* PoCL: cache-based local memory has no banks (PyOpenCL raises RuntimeError) */
        CLMEM_CHECK_ERR(t, clmem_local_memory_bank_count(t->device, &banks), CL_INVALID_OPERATION);
        CLMEM_CHECK_ERR(t, clmem_why_not_local_access_conflict_free(t->device, 4, 2, shape, NULL, &m, text, sizeof text,
                                                                    NULL),
                        CL_INVALID_OPERATION);
        return;
    }
    CLMEM_CHECK_CL(t, clmem_local_memory_bank_count(t->device, &banks));
    CLMEM_CHECK(t, banks == 16 || banks == 32);
    CLMEM_CHECK_CL(t, clmem_why_not_local_access_conflict_free(t->device, 4, 2, shape, padded, &m, text, sizeof text,
                                                               NULL));
    CLMEM_CHECK_EQ(t, m, 1);
    CLMEM_CHECK(t, text[0] == '\0');
    CLMEM_CHECK_CL(t, clmem_why_not_local_access_conflict_free(t->device, 4, 2, shape, NULL, &m, text, sizeof text,
                                                               NULL));
    CLMEM_CHECK(t, m > 1);
    CLMEM_CHECK(t, strncmp(text, m == 32 ? "32x conflict on axis 1" : "16x conflict on axis 1", 22) == 0);
}

static void test_svm_helpers(clmem_test_context *t) {
    clmem_device_description d;
    bool coarse = false, fine = false, system = false, fine_atomics = false, system_atomics = false;
    int pre2;
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, &d));
    CLMEM_CHECK_CL(t, clmem_has_coarse_grain_buffer_svm(t->device, &coarse));
    CLMEM_CHECK_CL(t, clmem_has_fine_grain_buffer_svm(t->device, &fine));
    CLMEM_CHECK_CL(t, clmem_has_fine_grain_system_svm(t->device, &system));
    CLMEM_CHECK_CL(t, clmem_has_fine_grain_buffer_svm_atomics(t->device, &fine_atomics));
    CLMEM_CHECK_CL(t, clmem_has_fine_grain_system_svm_atomics(t->device, &system_atomics));
    pre2 = strncmp(d.platform_version, "OpenCL 1.", 9) == 0;
    if (pre2) {
        CLMEM_CHECK(t, !coarse && !fine && !system);
        return;
    }
    CLMEM_CHECK_EQ(t, coarse, device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER));
    CLMEM_CHECK_EQ(t, fine, device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_BUFFER));
    CLMEM_CHECK_EQ(t, system, device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_SYSTEM));
    CLMEM_CHECK_EQ(t, fine_atomics, device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS));
    CLMEM_CHECK_EQ(t, system_atomics, device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS));
    /* PoCL 1.0+: buffer SVM both ways; not through PoCL-Remote (6.0 reports no SVM
       whatever the server's device has) */
    {
        char why[160]; /* nor through a 1.2 OpenCL.dll (Wine's) */
        if (is_pocl_cpu(&d) && !on_pocl_remote(t) && !loader_lacks(why, sizeof why)) CLMEM_CHECK(t, coarse && fine);
    }
}

static void test_struct_arg_count_bug(clmem_test_context *t) {
    clmem_device_description d;
    clmem_struct_arg_count_bug bug = CLMEM_STRUCT_ARG_COUNT_BUG_POCL;
    clmem_clear_first_arg_caches();
    clmem__struct_probe_runs = 0;
    /* today's drivers (PoCL 3+, NVIDIA) have no such bug, and no probe runs */
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug(t->device, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_NONE);
    CLMEM_CHECK_EQ(t, clmem__struct_probe_runs, 0);
    /* make the real device look like PoCL 0.14: the probe kernel runs, once per device */
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, &d));
    snprintf(d.platform_name, sizeof d.platform_name, "Portable Computing Language");
    snprintf(d.platform_version, sizeof d.platform_version, "OpenCL 1.2 pocl 0.14");
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug));
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_NONE); /* the struct is 1 argument */
    CLMEM_CHECK_EQ(t, clmem__struct_probe_runs, 1);
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, t->context, &bug));
    CLMEM_CHECK_EQ(t, clmem__struct_probe_runs, 1); /* cached per device */
    clmem_clear_first_arg_caches();
    CLMEM_CHECK_CL(t, clmem_has_struct_arg_count_bug_desc(&d, t->context, &bug)); /* in the given context */
    CLMEM_CHECK_EQ(t, bug, CLMEM_STRUCT_ARG_COUNT_BUG_NONE);
    CLMEM_CHECK_EQ(t, clmem__struct_probe_runs, 2);
    clmem_clear_first_arg_caches();
}

static void test_amd_branch_measures(clmem_test_context *t) {
    clmem_device_description d;
    cl_uint simd = 0;
    size_t want = 0;
    cl_kernel k;
    clmem_clear_first_arg_caches();
    k = build_kernel(t, "__kernel void knl(__global float *a) { a[get_global_id(0)] = 0; }", "knl");
    if (!k) return;
    CLMEM_CHECK_CL(t, clGetKernelWorkGroupInfo(k, t->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof want,
                                               &want, NULL));
    clReleaseKernel(k);
    /* the real device dressed as an AMD GPU: its SIMD size is measured with a kernel */
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, &d));
    snprintf(d.vendor, sizeof d.vendor, "Advanced Micro Devices, Inc.");
    snprintf(d.platform_vendor, sizeof d.platform_vendor, "Advanced Micro Devices, Inc."); /* NVIDIA's would win */
    d.type = CL_DEVICE_TYPE_GPU;
    d.has_warp_size_nv = false;
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &simd));
    CLMEM_CHECK_EQ(t, simd, want);
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&clmem__multiple_cache), 1);
    CLMEM_CHECK_CL(t, clmem_get_simd_group_size_desc(&d, 4, &simd));
    CLMEM_CHECK_EQ(t, clmem_first_arg_cache_size(&clmem__multiple_cache), 1);
    clmem_clear_first_arg_caches();
}

static const clmem_test_case cases[] = {
    {"describe", test_describe, false},
    {"answers", test_answers, false},
    {"banks_and_conflicts", test_banks_and_conflicts, false},
    {"svm_helpers", test_svm_helpers, false},
    {"struct_arg_count_bug", test_struct_arg_count_bug, false},
    {"amd_branch_measures", test_amd_branch_measures, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
