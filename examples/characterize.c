/* examples/characterize.c - print what clmem guesses about each OpenCL device
   (PyOpenCL's pyopencl.characterize). CLMEM_TEST selects the devices, e.g.
   CLMEM_TEST=portable ./characterize. Build: cc -std=c11 -I. examples/characterize.c -lOpenCL */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>

/* PyOpenCL's CLCharacterizationWarning: clmem logs it; print warnings inline */
static void warnings_only(clmem_log_level level, cl_int code, const char *message, void *user) {
    (void)code;
    (void)user;
    if (level == CLMEM_LOG_WARNING) printf("  (warning: %s)\n", message);
}

static void print_device(cl_device_id dev) {
    static const char *const bug_names[] = {"no", "yes (Apple CPU)", "yes (PoCL <= 0.14)"};
    clmem_device_description d;
    cl_uint u = 0, minor = 0, m = 0;
    cl_ulong lmem = 0;
    bool yes = false;
    char text[4096];
    clmem_struct_arg_count_bug bug;
    size_t tile[2] = {32, 32}, padded[2] = {32, 33};

    if (clmem_device_describe(dev, &d) != CL_SUCCESS) {
        printf("  cannot describe: %s\n", clmem_last_error_message());
        return;
    }
    printf("%s (%s) on %s\n  %s\n", d.name, d.vendor, d.platform_name, d.platform_version);
    if (clmem_nv_compute_capability_desc(&d, &u, &minor) == CL_SUCCESS && u)
        printf("  NVIDIA compute capability:       %u.%u\n", u, minor);
    if (clmem_get_simd_group_size_desc(&d, 4, &u) == CL_SUCCESS)
        printf("  SIMD group size:                 %u%s\n", u, u ? "" : " (unknown)");
    if (clmem_usable_local_mem_size_desc(&d, CLMEM_NARGS_UNKNOWN, &lmem) == CL_SUCCESS)
        printf("  usable local memory:             %llu bytes\n", (unsigned long long)lmem);
    if (clmem_local_memory_access_granularity_desc(&d, &u) == CL_SUCCESS)
        printf("  local memory bank width:         %u bytes\n", u);
    if (clmem_local_memory_bank_count_desc(&d, &u) == CL_SUCCESS)
        printf("  local memory banks:              %u\n", u);
    else
        printf("  local memory banks:              - (%s)\n", clmem_last_error_message());
    if (clmem_simultaneous_work_items_on_local_access_desc(&d, &u) == CL_SUCCESS)
        printf("  simultaneous local accesses:     %u\n", u);
    if (clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, tile, NULL, &m, text, sizeof text, NULL) ==
        CL_SUCCESS) {
        printf("  float[32][32], column access:    %ux conflict\n", m);
        if (clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, tile, padded, &m, NULL, 0, NULL) == CL_SUCCESS)
            printf("  float[32][33] (padded):          %ux conflict\n", m);
    }
    if (clmem_get_fast_inaccurate_build_options_desc(&d, text, sizeof text, NULL) == CL_SUCCESS)
        printf("  fast inaccurate build options:   %s\n", text);
    if (clmem_has_double_support_desc(&d, &yes) == CL_SUCCESS) printf("  double (cl_khr_fp64):            %s\n", yes ? "yes" : "no");
    if (clmem_has_amd_double_support_desc(&d, &yes) == CL_SUCCESS) printf("  AMD double (cl_amd_fp64):        %s\n", yes ? "yes" : "no");
    if (clmem_has_struct_arg_count_bug_desc(&d, NULL, &bug) == CL_SUCCESS)
        printf("  struct argument count bug:       %s\n", bug_names[bug]);
    printf("  SVM:                            ");
    if (clmem_has_coarse_grain_buffer_svm_desc(&d, &yes) == CL_SUCCESS && yes) printf(" coarse-grain-buffer");
    if (clmem_has_fine_grain_buffer_svm_desc(&d, &yes) == CL_SUCCESS && yes) printf(" fine-grain-buffer");
    if (clmem_has_fine_grain_system_svm_desc(&d, &yes) == CL_SUCCESS && yes) printf(" fine-grain-system");
    if (clmem_has_fine_grain_buffer_svm_atomics_desc(&d, &yes) == CL_SUCCESS && yes) printf(" atomics");
    printf("\n");
}

int main(void) {
    clmem_test_device devs[64];
    size_t n = 0, i;
    cl_int err = clmem_get_test_platforms_and_devices(NULL, devs, 64, &n);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "characterize: %s\n", clmem_last_error_message());
        return 1;
    }
    if (n > 64) n = 64;
    clmem_set_log_callback(warnings_only, NULL); /* the "wildly guessing" warnings */
    for (i = 0; i < n; ++i) print_device(devs[i].device);
    clmem_clear_first_arg_caches(); /* probe kernels' cached answers */
    return n ? 0 : 1;
}
