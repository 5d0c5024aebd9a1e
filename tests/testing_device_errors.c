/* The test harness and a broken driver: only CL_DEVICE_NOT_FOUND from clGetDeviceIDs
   means "no devices" (the binary then skips); any other error fails with words naming
   the call, the platform and the code (issue 17, item 8). clGetDeviceIDs is replaced
   in this unit (clmem's implementation included) by a fake that can fail. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#define clGetDeviceIDs fake_clGetDeviceIDs
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#undef clGetDeviceIDs
extern CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num,
                                                      cl_device_id *devices, cl_uint *num_devices);

static cl_int inject; /* CL_SUCCESS: the real call */
CL_API_ENTRY cl_int CL_API_CALL fake_clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num,
                                                    cl_device_id *devices, cl_uint *num_devices) {
    if (inject != CL_SUCCESS) {
        if (num_devices) *num_devices = 0;
        return inject;
    }
    return clGetDeviceIDs(platform, type, num, devices, num_devices);
}

static bool have_platform(clmem_test_context *t) {
    cl_uint n = 0;
    if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) {
        clmem_test_skip(t, "no OpenCL platform installed");
        return false;
    }
    return true;
}

static void test_device_not_found_is_none(clmem_test_context *t) {
    clmem_test_device devs[4];
    size_t n = 99;
    cl_int err;
    if (!have_platform(t)) return;
    inject = CL_DEVICE_NOT_FOUND;
    err = clmem_get_test_platforms_and_devices("", devs, 4, &n);
    inject = CL_SUCCESS;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, n, 0);
}

static void test_other_errors_fail(clmem_test_context *t) {
    static const cl_int codes[] = {CL_OUT_OF_HOST_MEMORY, CL_OUT_OF_RESOURCES, CL_INVALID_PLATFORM, CL_INVALID_VALUE,
                                   -1001 /* CL_PLATFORM_NOT_FOUND_KHR */};
    clmem_test_device devs[4];
    char name[128] = {0}, want[256];
    cl_platform_id first;
    size_t n, i;
    cl_int err;
    if (!have_platform(t)) return;
    CLMEM_CHECK_CL(t, clGetPlatformIDs(1, &first, NULL));
    clGetPlatformInfo(first, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    for (i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
        n = 99;
        inject = codes[i];
        err = clmem_get_test_platforms_and_devices("", devs, 4, &n);
        inject = CL_SUCCESS;
        CLMEM_CHECK_EQ(t, err, codes[i]);
        CLMEM_CHECK_EQ(t, n, 0);
        snprintf(want, sizeof want, "clmem_get_test_platforms_and_devices: clGetDeviceIDs on platform 0 ('%s') failed with %s",
                 name, clmem_error_string(codes[i]));
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), want) != NULL);
    }
}

/* clmem_test_main itself: "no devices" skips (77), a broken driver fails (1). */
static int inner_runs;
static void inner_case(clmem_test_context *t) {
    (void)t;
    ++inner_runs;
}
static void test_runner_exit_codes(clmem_test_context *t) {
    static const clmem_test_case inner[] = {{"inner", inner_case, false}};
    char arg0[] = "inner", *argv[] = {arg0, NULL};
    int none, broken;
    char *spec = getenv("CLMEM_TEST"), *py = getenv("PYOPENCL_TEST");
    char saved[512] = "", saved_py[512] = "";
    if (!have_platform(t)) return;
    /* the inner runs select with no spec: a spec naming a device index (CLMEM_TEST=nvidia:0)
       makes "no device" an out-of-range error instead of a skip */
    if (spec) snprintf(saved, sizeof saved, "%s", spec);
    if (py) snprintf(saved_py, sizeof saved_py, "%s", py);
    unsetenv("CLMEM_TEST");
    unsetenv("PYOPENCL_TEST");
    inner_runs = 0;
    inject = CL_DEVICE_NOT_FOUND;
    none = clmem_test_main(inner, 1, 1, argv);
    inject = CL_OUT_OF_RESOURCES;
    broken = clmem_test_main(inner, 1, 1, argv);
    inject = CL_SUCCESS;
    if (spec) setenv("CLMEM_TEST", saved, 1);
    if (py) setenv("PYOPENCL_TEST", saved_py, 1);
    CLMEM_CHECK_EQ(t, none, 77);
    CLMEM_CHECK_EQ(t, broken, 1);
    CLMEM_CHECK_EQ(t, inner_runs, 0);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "failed with CL_OUT_OF_RESOURCES (-5)") != NULL);
}

static const clmem_test_case cases[] = {
    {"device_not_found_is_none", test_device_not_found_is_none, true},
    {"other_errors_fail", test_other_errors_fail, true},
    {"runner_exit_codes", test_runner_exit_codes, true},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
