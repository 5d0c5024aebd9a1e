/* tests/common.h - helpers shared by the test binaries (not part of clmem). Include
   after clmem.h with CLMEM_IMPLEMENTATION defined. */
#ifndef CLMEM_TESTS_COMMON_H
#define CLMEM_TESTS_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The POSIX calls some tests use, on Windows (the mingw-w64 build run under Wine). */
#if defined(_WIN32)
#define setenv(name, value, overwrite) _putenv_s(name, value)
#define unsetenv(name) _putenv_s(name, "")
#define alarm(seconds) ((void)(seconds)) /* no watchdog: CTest's TIMEOUT stops a hang */
#include <sched.h> /* sched_yield (mingw-w64's winpthreads) */
#endif

/* build_with(t, source, name, options): a kernel from OpenCL C source built with the
   given options, or NULL after recording a failure with the build log. Release with
   clReleaseKernel; the program is released at once (the kernel keeps it alive).
   build_kernel(t, source, name): the same with no options. */
static inline cl_kernel build_with(clmem_test_context *t, const char *source, const char *name, const char *options) {
    cl_int err;
    cl_kernel k;
    cl_program p = clCreateProgramWithSource(t->context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "clCreateProgramWithSource: %s", clmem_error_string(err));
        return NULL;
    }
    err = clBuildProgram(p, 1, &t->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = {0};
        clGetProgramBuildInfo(p, t->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        clmem_test_fail(t, __FILE__, __LINE__, "clBuildProgram: %s\n%s", clmem_error_string(err), log);
        clReleaseProgram(p);
        return NULL;
    }
    k = clCreateKernel(p, name, &err);
    clReleaseProgram(p);
    if (err != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "clCreateKernel(%s): %s", name, clmem_error_string(err));
        return NULL;
    }
    return k;
}
static inline cl_kernel build_kernel(clmem_test_context *t, const char *source, const char *name) {
    return build_with(t, source, name, "");
}

/* device_version(dev): the device's OpenCL version as clmem reads it (major*100 +
   minor*10, e.g. 300); 0 when the query fails or the string has no version. */
static inline int device_version(cl_device_id dev) {
    int v = 0;
    return clmem__device_version("device_version", dev, &v) == CL_SUCCESS ? v : 0;
}

/* extra_queue_with(t, ctx, properties, &err): another queue on t's device in ctx
   (properties: 0 or CL_QUEUE_* bits), made with the call the device's version has
   (clCreateCommandQueueWithProperties is OpenCL 2.0; on a 1.2 device such as
   Oclgrind the ICD loader has no entry for it and spins). extra_queue: in order. */
static inline cl_command_queue extra_queue_with(clmem_test_context *t, cl_context ctx, cl_command_queue_properties bits,
                                                cl_int *err) {
#ifdef CL_VERSION_2_0
    if (device_version(t->device) >= 200) {
        cl_queue_properties props[3] = {CL_QUEUE_PROPERTIES, 0, 0};
        props[1] = (cl_queue_properties)bits;
        return clCreateCommandQueueWithProperties(ctx, t->device, bits ? props : NULL, err);
    }
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    return clCreateCommandQueue(ctx, t->device, bits, err);
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
}
static inline cl_command_queue extra_queue(clmem_test_context *t, cl_context ctx, cl_int *err) {
    return extra_queue_with(t, ctx, 0, err);
}

/* on_pocl_remote(t): t->device is PoCL-Remote's (PoCL appends "HSTR: <build hash>" to
   CL_DEVICE_VERSION, and the remote driver's hash starts with "pocl-remote:"). */
static inline int on_pocl_remote(clmem_test_context *t) {
    char version[512] = {0};
    clGetDeviceInfo(t->device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    return strstr(version, "HSTR: pocl-remote:") != NULL;
}
/* skip_on_driver_fault(t, err): err is clmem's refusal of an operation that a driver
   fault found by clmem's self-test would spoil (CL_INVALID_OPERATION, "driver fault" in
   the message; clmem/quirks.h): skip the case with clmem's words; returns 1 when
   skipped. Anything else is the case's to check. */
static inline int skip_on_driver_fault(clmem_test_context *t, cl_int err) {
    if (err != CL_INVALID_OPERATION || !strstr(clmem_last_error_message(), "driver fault")) return 0;
    clmem_test_skip(t, "clmem refuses it: %s", clmem_last_error_message());
    return 1;
}
/* skip_threads_on_oclgrind(t): Oclgrind 21.10's runtime is not thread-safe: clFinish
   from several threads at once crashes inside it (free() of an invalid pointer in its
   asyncQueueRelease, seen with gdb in pool_threads; map_threads and pinned_pool's
   threads case crash the same way). Cases that call OpenCL from several threads skip
   there with that reason; returns 1 when skipped. */
static inline int on_oclgrind(clmem_test_context *t) {
    char name[128] = {0};
    clGetPlatformInfo(t->platform, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    return strstr(name, "Oclgrind") != NULL;
}

/* skip_gates_on_oclgrind(t): Oclgrind 21.10 runs a queue in the thread that flushes it
   (its clFlush is clFinish), so a command gated by a user event that this thread sets
   afterwards never runs. Cases that gate a queue skip there; returns 1 when skipped. */
static inline int skip_gates_on_oclgrind(clmem_test_context *t) {
    if (!on_oclgrind(t)) return 0;
    clmem_test_skip(t, "Oclgrind's clFlush runs the queue in the calling thread: a command gated by a user event "
                       "set later by this thread deadlocks");
    return 1;
}
static inline int skip_threads_on_oclgrind(clmem_test_context *t) {
    if (!on_oclgrind(t)) return 0;
    clmem_test_skip(t, "Oclgrind 21.10 crashes when several threads call it at once (clFinish -> asyncQueueRelease "
                       "frees an invalid pointer)");
    return 1;
}

/* fill_pattern(p, n, seed): deterministic bytes (a tiny LCG), so failures reproduce. */
static inline void fill_pattern(void *p, size_t n, unsigned seed) {
    unsigned char *b = (unsigned char *)p;
    unsigned x = seed * 2654435761u + 1u;
    size_t i;
    for (i = 0; i < n; ++i) {
        x = x * 1103515245u + 12345u;
        b[i] = (unsigned char)(x >> 16);
    }
}

/* loader_lacks(buf, size): why the ICD loader keeps OpenCL 2.0 from clmem, in words
   ("OpenCL.dll exports no clSVMAlloc: ...", Wine's), or NULL when it does not. */
static inline const char *loader_lacks(char *buf, size_t size) {
    const char *missing = NULL;
    int v = clmem__loader_version(&missing);
    if (!v || v >= 200) return NULL;
    snprintf(buf, size, "the ICD loader (OpenCL.dll) exports no %s: its entry points stop at OpenCL %d.%d", missing,
             v / 100, v % 100 / 10);
    return buf;
}

/* device_supports_svm(t, caps): the device's CL_DEVICE_SVM_CAPABILITIES include caps
   (none where clmem sees the device as older than 2.0, as under a 1.2 ICD loader). */
#ifdef CL_VERSION_2_0
static inline int device_svm_caps(clmem_test_context *t, cl_device_svm_capabilities caps) {
    cl_device_svm_capabilities have = 0;
    if (device_version(t->device) < 200) return 0;
    if (clGetDeviceInfo(t->device, CL_DEVICE_SVM_CAPABILITIES, sizeof have, &have, NULL) != CL_SUCCESS) return 0;
    return (have & caps) == caps;
}
/* NEED_SVM(t): skip the case (and return) unless the device has coarse-grain buffer SVM. */
#define NEED_SVM(t)                                                                    \
    do {                                                                               \
        if (!device_svm_caps((t), CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {                \
            char why_[160];                                                            \
            if (loader_lacks(why_, sizeof why_))                                       \
                clmem_test_skip((t), "no SVM: %s", why_);                              \
            else                                                                       \
                clmem_test_skip((t), "device has no coarse-grain buffer SVM");         \
            return;                                                                    \
        }                                                                              \
    } while (0)
#endif
#endif
