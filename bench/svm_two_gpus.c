/* svm_two_gpus.c - bare OpenCL calls (no clmem): coarse-grain SVM in one context of
   two devices. Each step runs in a child process, so a crash of the driver is
   reported as a result instead of ending the run.

   Build: cc -std=c11 -O2 bench/svm_two_gpus.c -o svm_two_gpus -lOpenCL
   Run:   ./svm_two_gpus   (SVM2_PLATFORM=i picks platform i; default: the first with two devices)

   Steps (each from a fresh context, SVM buffer of 1 MiB filled with 1 by
   clEnqueueSVMMemcpy on queue 0; a crash shows as exit 128+signal or more):
   kernel_q0 / kernel_q1   a kernel adds 1 to every byte through the SVM pointer,
                           enqueued on queue 0 / 1; then clEnqueueSVMMemcpy to the host
                           on the other queue: expect 2 everywhere
   kernel_q1_read_q1       the kernel on queue 1, the read on queue 1
   migrate                 clEnqueueSVMMigrateMem of the pointer to queue 1's device
   map_q0 / map_q1         clEnqueueSVMMap (blocking, read) on queue 0 / 1: expect 1 */
#define CL_TARGET_OPENCL_VERSION 300
#define _POSIX_C_SOURCE 200809L
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

enum { N = 1 << 20 };
static const char *src = "__kernel void inc(__global uchar *p) { size_t i = get_global_id(0); p[i] = (uchar)(p[i] + 1); }";

static cl_platform_id plat;
static cl_device_id dev[2];

/* 0: expected bytes; 1: wrong bytes; 2..: the failing call's step; prints what it saw */
static int step(const char *what) {
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 2, dev, NULL, NULL, &err);
    cl_command_queue q[2];
    cl_program prog;
    cl_kernel k;
    unsigned char *host = malloc(N), *svm;
    size_t i, n = N, bad = 0;
    unsigned char expect = 2;
    int ql = 0, qr = 1;
    if (err != CL_SUCCESS) { printf("  clCreateContext: %d\n", err); return 2; }
    for (i = 0; i < 2; ++i) q[i] = clCreateCommandQueueWithProperties(ctx, dev[i], NULL, &err);
    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    err = clBuildProgram(prog, 2, dev, "-cl-std=CL2.0", NULL, NULL);
    if (err != CL_SUCCESS) { printf("  clBuildProgram: %d\n", err); return 2; }
    k = clCreateKernel(prog, "inc", &err);
    svm = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0);
    if (!svm) { printf("  clSVMAlloc: NULL\n"); return 2; }
    memset(host, 1, N);
    err = clEnqueueSVMMemcpy(q[0], CL_TRUE, svm, host, N, 0, NULL, NULL);
    if (err != CL_SUCCESS) { printf("  clEnqueueSVMMemcpy(q0, host->svm): %d\n", err); return 3; }
    if (!strcmp(what, "kernel_q0") || !strcmp(what, "kernel_q1") || !strcmp(what, "kernel_q1_read_q1")) {
        ql = what[8] == '1';
        qr = !strcmp(what, "kernel_q1_read_q1") ? 1 : !ql;
        err = clSetKernelArgSVMPointer(k, 0, svm);
        if (err != CL_SUCCESS) { printf("  clSetKernelArgSVMPointer: %d\n", err); return 4; }
        err = clEnqueueNDRangeKernel(q[ql], k, 1, NULL, &n, NULL, 0, NULL, NULL);
        if (err != CL_SUCCESS) { printf("  clEnqueueNDRangeKernel(q%d): %d\n", ql, err); return 5; }
        err = clFinish(q[ql]);
        if (err != CL_SUCCESS) { printf("  clFinish(q%d): %d\n", ql, err); return 6; }
        memset(host, 0, N);
        err = clEnqueueSVMMemcpy(q[qr], CL_TRUE, host, svm, N, 0, NULL, NULL);
        if (err != CL_SUCCESS) { printf("  clEnqueueSVMMemcpy(q%d, svm->host): %d\n", qr, err); return 7; }
    } else if (!strcmp(what, "migrate")) {
        const void *p = svm;
        size_t sz = N;
        err = clEnqueueSVMMigrateMem(q[1], 1, &p, &sz, 0, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clFinish(q[1]);
        if (err != CL_SUCCESS) { printf("  clEnqueueSVMMigrateMem(q1): %d\n", err); return 8; }
        memset(host, 0, N);
        err = clEnqueueSVMMemcpy(q[1], CL_TRUE, host, svm, N, 0, NULL, NULL);
        expect = 1;
    } else { /* map_q0 / map_q1 */
        int qm = what[5] == '1';
        err = clEnqueueSVMMap(q[qm], CL_TRUE, CL_MAP_READ, svm, N, 0, NULL, NULL);
        if (err != CL_SUCCESS) { printf("  clEnqueueSVMMap(q%d): %d\n", qm, err); return 9; }
        memcpy(host, svm, N);
        clEnqueueSVMUnmap(q[qm], svm, 0, NULL, NULL);
        clFinish(q[qm]);
        expect = 1;
    }
    for (i = 0; i < N; ++i) bad += host[i] != expect;
    printf("  %zu of %d bytes differ from %u (byte 0 is %u)\n", bad, N, expect, host[0]);
    clSVMFree(ctx, svm);
    return bad ? 1 : 0;
}

/* each step runs in a fresh process (this program again with the step's name), so a
   crash of the driver is a result. The parent calls no OpenCL at all: fork() after
   OpenCL has started threads could hang, and on a GPU in exclusive-process compute
   mode a parent holding the devices would hide them from its children. */
int main(int argc, char **argv) {
    static const char *steps[] = {"kernel_q1", "kernel_q0", "kernel_q1_read_q1", "migrate", "map_q1", "map_q0"};
    cl_platform_id p[8];
    cl_uint np = 0, nd = 0, i;
    char name[128] = {0}, dn[128] = {0}, cmd[4096];
    const char *plat_arg = getenv("SVM2_PLATFORM");
    int want = plat_arg ? atoi(plat_arg) : -1, rc = 0;
    if (argc > 1) {
        cl_int err = clGetPlatformIDs(8, p, &np);
        for (i = 0; i < np; ++i) {
            if (want >= 0 && (cl_uint)want != i) continue;
            if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 2, dev, &nd) == CL_SUCCESS && nd >= 2) { plat = p[i]; break; }
        }
        if (!plat) {
            printf("  no platform with two devices (clGetPlatformIDs: %d, %u platforms)\n", err, np);
            return 77;
        }
        if (!strcmp(argv[1], "kernel_q1")) {
            clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
            clGetDeviceInfo(dev[0], CL_DEVICE_NAME, sizeof dn - 1, dn, NULL);
            printf("  %s, 2 x %s\n", name, dn);
        }
        return step(argv[1]);
    }
    for (i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
        int st;
        fflush(stdout);
        snprintf(cmd, sizeof cmd, "timeout 60 '%s' %s", argv[0], steps[i]);
        st = system(cmd);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 77) printf("%-18s skipped\n", steps[i]);
        else if (WIFEXITED(st) && WEXITSTATUS(st) >= 124) printf("%-18s CRASH or HANG (exit %d)\n", steps[i], WEXITSTATUS(st));
        else printf("%-18s %s (%d)\n", steps[i], WEXITSTATUS(st) == 0 ? "bytes right" : WEXITSTATUS(st) == 1 ? "OLD BYTES" : "call failed", WEXITSTATUS(st));
        if (st) rc = 1;
    }
    return rc;
}
