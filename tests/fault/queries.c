/* tests/fault/queries.c - a failed driver query is reported with the query's own code
   and named, never read as an answer. Linked with libclmem_clshim (before libOpenCL):
   clshim_fail_call fails one named query (or two calls at once) and the case checks
   the code and the words. Guards: CL_DEVICE_VERSION read as "OpenCL 0.0" (SVM
   migration, memory-object migration, pipes answered CL_INVALID_OPERATION), a failed
   CL_DEVICE_PIPE_SUPPORT read as "no pipes", a failed clGetKernelInfo in
   clmem_kernel_set_exec_info reported as CL_INVALID_KERNEL. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "../common.h"
#include "clshim.h"

/* EXPECT_QUERY_FAILED(t, expr, what): expr gives CL_OUT_OF_HOST_MEMORY (the injected code) and the
   message names `what` (the failed query); the shim is disarmed either way. */
#define EXPECT_QUERY_FAILED(t, expr, what)                                                                        \
    do {                                                                                                          \
        cl_int e_;                                                                                                \
        clmem_clear_error();                                                                                      \
        e_ = (expr);                                                                                              \
        clshim_arm(0, CL_SUCCESS);                                                                                \
        if (e_ != CL_OUT_OF_HOST_MEMORY)                                                                          \
            clmem_test_fail(t, __FILE__, __LINE__, "%s returned %s, not the failed query's CL_OUT_OF_HOST_MEMORY: %s", \
                            #expr, clmem_error_string(e_), clmem_last_error_message());                           \
        else if (!strstr(clmem_last_error_message(), what))                                                       \
            clmem_test_fail(t, __FILE__, __LINE__, "%s: the message does not name %s: '%s'", #expr, what,       \
                            clmem_last_error_message());                                                          \
    } while (0)

static bool has_svm(clmem_test_context *t) {
    cl_bitfield caps = 0;
    return device_version(t->device) >= 200 && clGetDeviceInfo(t->device, 0x1053, sizeof caps, &caps, NULL) == CL_SUCCESS &&
           (caps & 1); /* CL_DEVICE_SVM_COARSE_GRAIN_BUFFER */
}

static void test_svm_migratemem_version(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocation a;
    if (!has_svm(t)) {
        clmem_test_skip(t, "no coarse-grain SVM on this device");
        return;
    }
    a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    clshim_fail_call("clGetDeviceInfo", CL_DEVICE_VERSION, CL_OUT_OF_HOST_MEMORY);
    EXPECT_QUERY_FAILED(t, clmem_enqueue_svm_migratemem(t->queue, &a.svm, 1, 0), "CL_DEVICE_VERSION");
    clmem_svm_allocation_release(&a);
}

static void test_migrate_mem_objects_version(clmem_test_context *t) {
    cl_int err;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    /* the version is asked only when the migration failed: fail both */
    clshim_fail_call("clEnqueueMigrateMemObjects", 0, CL_OUT_OF_RESOURCES);
    clshim_fail_call("clGetDeviceInfo", CL_DEVICE_VERSION, CL_OUT_OF_HOST_MEMORY);
    EXPECT_QUERY_FAILED(t, clmem_enqueue_migrate_mem_objects(t->queue, &b.mem, 1, 0), "CL_DEVICE_VERSION");
    clmem_buffer_release(&b);
}

/* pipe_create_code(t): the code of a 4-byte, 16-packet pipe's creation; a pipe that
   was made is released before the message is read only when creation succeeded. */
static cl_int pipe_create_code(clmem_test_context *t) {
    cl_int err = CL_SUCCESS;
    clmem_pipe p = clmem_pipe_create(t->context, 0, 4, 16, NULL, &err);
    if (err == CL_SUCCESS) clmem_pipe_release(&p);
    return err;
}

static void test_pipe_version(clmem_test_context *t) {
    if (CL_TARGET_OPENCL_VERSION < 200) {
        clmem_test_skip(t, "clmem compiled against OpenCL headers older than 2.0: no pipes");
        return;
    }
    clshim_fail_call("clGetDeviceInfo", CL_DEVICE_VERSION, CL_OUT_OF_HOST_MEMORY);
    EXPECT_QUERY_FAILED(t, pipe_create_code(t), "CL_DEVICE_VERSION");
}

static void test_pipe_support(clmem_test_context *t) {
    if (device_version(t->device) < 300) {
        clmem_test_skip(t, "CL_DEVICE_PIPE_SUPPORT is an OpenCL 3.0 query; the device is older");
        return;
    }
    clshim_fail_call("clGetDeviceInfo", 0x1071 /* CL_DEVICE_PIPE_SUPPORT */, CL_OUT_OF_HOST_MEMORY);
    EXPECT_QUERY_FAILED(t, pipe_create_code(t), "CL_DEVICE_PIPE_SUPPORT");
}

/* exec_info_kernel(t): a kernel for clmem_kernel_set_exec_info, or NULL (skipped on a
   device older than 2.0: it refuses there before any query, or failed to build) */
static cl_kernel exec_info_kernel(clmem_test_context *t) {
    if (device_version(t->device) < 200) {
        clmem_test_skip(t, "no SVM before OpenCL 2.0: clmem_kernel_set_exec_info refuses before asking the driver");
        return NULL;
    }
    return build_kernel(t, "kernel void k(global int *p) { p[0] = 1; }", "k");
}

static void test_exec_info_kernel_query(clmem_test_context *t) {
    cl_kernel k = exec_info_kernel(t);
    if (!k) return;
    clshim_fail_call("clGetKernelInfo", CL_KERNEL_CONTEXT, CL_OUT_OF_HOST_MEMORY);
    EXPECT_QUERY_FAILED(t, clmem_kernel_set_exec_info(k, NULL, 0, CL_FALSE), "CL_KERNEL_CONTEXT");
    /* a kernel the driver does not know is still CL_INVALID_KERNEL */
    clshim_fail_call("clGetKernelInfo", CL_KERNEL_CONTEXT, CL_INVALID_KERNEL);
    CLMEM_CHECK_ERR(t, clmem_kernel_set_exec_info(k, NULL, 0, CL_FALSE), CL_INVALID_KERNEL);
    clshim_arm(0, CL_SUCCESS);
    clReleaseKernel(k);
}

static void test_exec_info_version(clmem_test_context *t) {
    cl_kernel k = exec_info_kernel(t);
    if (!k) return;
    clshim_fail_call("clGetDeviceInfo", CL_DEVICE_VERSION, CL_OUT_OF_HOST_MEMORY);
    EXPECT_QUERY_FAILED(t, clmem_kernel_set_exec_info(k, NULL, 0, CL_FALSE), "CL_DEVICE_VERSION");
    clReleaseKernel(k);
}

static const clmem_test_case cases[] = {
    {"svm_migratemem_version", test_svm_migratemem_version, false},
    {"migrate_mem_objects_version", test_migrate_mem_objects_version, false},
    {"pipe_version", test_pipe_version, false},
    {"pipe_support", test_pipe_support, false},
    {"exec_info_kernel_query", test_exec_info_kernel_query, false},
    {"exec_info_version", test_exec_info_version, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
