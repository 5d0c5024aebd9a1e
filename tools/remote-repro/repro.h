/* tools/remote-repro/repro.h - what every reproducer here shares: the first device
   of the first platform (or the first two, in one context), an in-order queue per
   device, and checks that print the call, its line and the error code. Bare OpenCL:
   no clmem. tools/remote --repro runs each on local PoCL and on PoCL-Remote. */
#ifndef REPRO_H
#define REPRO_H
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct repro {
    cl_platform_id platform;
    cl_device_id dev[2];
    cl_context ctx;
    cl_command_queue q[2];
    int failed;
} repro;

#define REPRO_CL(r, expr)                                                                      \
    do {                                                                                       \
        cl_int repro_e_ = (expr);                                                              \
        if (repro_e_ != CL_SUCCESS) {                                                          \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #expr, repro_e_); \
            exit(2);                                                                           \
        }                                                                                      \
    } while (0)

/* expect(r, cond, fmt, ...): a wrong result; counted, the reproducer goes on */
#define REPRO_EXPECT(r, cond, ...)                                    \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("WRONG %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            printf(__VA_ARGS__);                                      \
            printf("\n");                                             \
            (r)->failed++;                                            \
        }                                                             \
    } while (0)

/* repro_open(r, ndev): ndev (1 or 2) devices of platform 0 in one context; exit 77
   when there are fewer */
static inline void repro_open(repro *r, cl_uint ndev) {
    cl_uint n = 0, i;
    cl_int err;
    char name[256] = {0}, version[256] = {0};
    memset(r, 0, sizeof *r);
    REPRO_CL(r, clGetPlatformIDs(1, &r->platform, NULL));
    REPRO_CL(r, clGetDeviceIDs(r->platform, CL_DEVICE_TYPE_ALL, 2, r->dev, &n));
    if (n < ndev) {
        printf("skip: %u device(s), %u needed\n", n, ndev);
        exit(77);
    }
    clGetPlatformInfo(r->platform, CL_PLATFORM_VERSION, sizeof version - 1, version, NULL);
    clGetDeviceInfo(r->dev[0], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    printf("on %u x %s, %s\n", ndev, name, version);
    r->ctx = clCreateContext(NULL, ndev, r->dev, NULL, NULL, &err);
    REPRO_CL(r, err);
    for (i = 0; i < ndev; ++i) {
        r->q[i] = clCreateCommandQueueWithProperties(r->ctx, r->dev[i], NULL, &err);
        REPRO_CL(r, err);
    }
}

/* repro_close(r): release, print the verdict; the exit code (0 right, 1 wrong) */
static inline int repro_close(repro *r) {
    int i;
    for (i = 0; i < 2; ++i)
        if (r->q[i]) clReleaseCommandQueue(r->q[i]);
    clReleaseContext(r->ctx);
    printf("%s\n", r->failed ? "WRONG RESULTS" : "right");
    return r->failed ? 1 : 0;
}

/* the byte pattern every reproducer writes */
static inline void repro_pattern(unsigned char *p, size_t n, unsigned seed) {
    size_t i;
    for (i = 0; i < n; ++i) p[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xffu);
}
#endif
