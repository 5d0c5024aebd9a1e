/* A fake of libcuda and NVML for clmem's tests (not part of clmem): the few driver
   calls clmem makes, answering from a table the test sets with fake_cuda_configure, so
   the logic that matches OpenCL devices to CUDA devices by UUID and reports CUDA's
   errors runs on a machine without NVIDIA's driver. Built by CMake as
   libclmem_fake_cuda.so; the tests that use it set CLMEM_LIBCUDA and CLMEM_LIBNVML to
   that name. Every function counts its calls (fake_cuda_calls). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#define FAKE_MAX 8
static int fake_n;
static unsigned char fake_uuid[FAKE_MAX][16];
static unsigned long long fake_free[FAKE_MAX], fake_total[FAKE_MAX];
static char fake_fail_name[64];
static int fake_fail_result;
static int fake_nvml_on = 1;
static int fake_contexts_retained, fake_pushed, fake_current = -1, fake_stack[16];
static int fake_allocations;
static unsigned long long fake_allocated[FAKE_MAX];
static int fake_calls;

#define FAKE_API __attribute__((visibility("default")))

/* the test's controls */
FAKE_API void fake_cuda_configure(int n, const unsigned char *uuids, const unsigned long long *free_b,
                                  const unsigned long long *total_b) {
    int i;
    fake_n = n < FAKE_MAX ? n : FAKE_MAX;
    for (i = 0; i < fake_n; ++i) {
        memcpy(fake_uuid[i], uuids + 16 * i, 16);
        fake_free[i] = free_b[i];
        fake_total[i] = total_b[i];
        fake_allocated[i] = 0;
    }
}
/* the next call of the function named (e.g. "cuMemGetInfo_v2") fails with result */
FAKE_API void fake_cuda_fail_next(const char *name, int result) {
    snprintf(fake_fail_name, sizeof fake_fail_name, "%s", name ? name : "");
    fake_fail_result = result;
}
FAKE_API void fake_nvml_enable(int on) { fake_nvml_on = on; }
/* primary contexts retained and not released, contexts pushed and not popped, live allocations */
FAKE_API int fake_cuda_retained(void) { return fake_contexts_retained; }
FAKE_API int fake_cuda_pushed(void) { return fake_pushed; }
FAKE_API int fake_cuda_allocations(void) { return fake_allocations; }
FAKE_API int fake_cuda_calls(void) { return fake_calls; }

static int fake_failing(const char *name) {
    ++fake_calls;
    if (fake_fail_name[0] && strcmp(fake_fail_name, name) == 0) {
        fake_fail_name[0] = '\0';
        return fake_fail_result;
    }
    return 0;
}
#define FAIL_POINT(name)                     \
    do {                                     \
        int r_ = fake_failing(name);         \
        if (r_) return r_;                   \
    } while (0)

FAKE_API int cuInit(unsigned flags) { FAIL_POINT("cuInit"); return flags ? 1 : 0; }
FAKE_API int cuDeviceGetCount(int *n) { FAIL_POINT("cuDeviceGetCount"); *n = fake_n; return 0; }
FAKE_API int cuDeviceGet(int *d, int i) { FAIL_POINT("cuDeviceGet"); if (i < 0 || i >= fake_n) return 101; *d = i; return 0; }
FAKE_API int cuDeviceGetUuid_v2(unsigned char *u, int d) {
    FAIL_POINT("cuDeviceGetUuid_v2");
    if (d < 0 || d >= fake_n) return 101; /* CUDA_ERROR_INVALID_DEVICE */
    memcpy(u, fake_uuid[d], 16);
    return 0;
}
FAKE_API int cuDevicePrimaryCtxRetain(void **ctx, int d) {
    FAIL_POINT("cuDevicePrimaryCtxRetain");
    if (d < 0 || d >= fake_n) return 101;
    *ctx = (void *)(size_t)(d + 1);
    ++fake_contexts_retained;
    return 0;
}
FAKE_API int cuDevicePrimaryCtxRelease_v2(int d) { (void)d; --fake_contexts_retained; return 0; }
FAKE_API int cuCtxPushCurrent_v2(void *ctx) {
    FAIL_POINT("cuCtxPushCurrent_v2");
    fake_stack[fake_pushed++ & 15] = fake_current;
    fake_current = (int)(size_t)ctx - 1;
    return 0;
}
FAKE_API int cuCtxPopCurrent_v2(void **ctx) {
    if (ctx) *ctx = (void *)(size_t)(fake_current + 1);
    fake_current = fake_stack[--fake_pushed & 15];
    return 0;
}
FAKE_API int cuMemGetInfo_v2(size_t *free_b, size_t *total_b) {
    FAIL_POINT("cuMemGetInfo_v2");
    if (fake_current < 0) return 201; /* CUDA_ERROR_INVALID_CONTEXT */
    *free_b = (size_t)(fake_free[fake_current] - fake_allocated[fake_current]);
    *total_b = (size_t)fake_total[fake_current];
    return 0;
}
FAKE_API int cuGetErrorName(int r, const char **s) {
    switch (r) {
    case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
    case 100: *s = "CUDA_ERROR_NO_DEVICE"; return 0;
    case 101: *s = "CUDA_ERROR_INVALID_DEVICE"; return 0;
    case 201: *s = "CUDA_ERROR_INVALID_CONTEXT"; return 0;
    default: *s = "CUDA_ERROR_UNKNOWN"; return 0;
    }
}
typedef struct { int type, handle_types; struct { int type, id; } loc; void *win32; unsigned char flags[8]; } fake_prop;
FAKE_API int cuMemGetAllocationGranularity(size_t *g, const fake_prop *p, int option) {
    (void)p; (void)option;
    FAIL_POINT("cuMemGetAllocationGranularity");
    *g = (size_t)2 << 20;
    return 0;
}
typedef struct { int device; unsigned long long size; } fake_alloc;
static fake_alloc fake_allocs[256];
FAKE_API int cuMemCreate(unsigned long long *h, size_t size, const fake_prop *p, unsigned long long flags) {
    int i;
    (void)flags;
    FAIL_POINT("cuMemCreate");
    if (p->loc.id < 0 || p->loc.id >= fake_n) return 101;
    if (size % ((size_t)2 << 20)) return 1; /* CUDA_ERROR_INVALID_VALUE: not a multiple of the granularity */
    if (fake_allocated[p->loc.id] + size > fake_free[p->loc.id]) return 2;
    for (i = 0; i < 256 && fake_allocs[i].size; ++i) {}
    if (i == 256) return 2;
    fake_allocs[i].device = p->loc.id;
    fake_allocs[i].size = size;
    fake_allocated[p->loc.id] += size;
    ++fake_allocations;
    *h = (unsigned long long)(i + 1);
    return 0;
}
FAKE_API int cuMemRelease(unsigned long long h) {
    if (h < 1 || h > 256 || !fake_allocs[h - 1].size) return 1;
    fake_allocated[fake_allocs[h - 1].device] -= fake_allocs[h - 1].size;
    fake_allocs[h - 1].size = 0;
    --fake_allocations;
    return 0;
}
FAKE_API int cuMemExportToShareableHandle(void *out, unsigned long long h, int type, unsigned long long flags) {
    (void)flags;
    FAIL_POINT("cuMemExportToShareableHandle");
    if (type != 1 || h < 1 || h > 256 || !fake_allocs[h - 1].size) return 1;
    *(int *)out = open("/dev/null", O_RDONLY | O_CLOEXEC); /* an fd the caller closes */
    return *(int *)out < 0 ? 999 : 0;
}

/* NVML */
FAKE_API int nvmlInit_v2(void) { return fake_failing("nvmlInit_v2"); }
FAKE_API const char *nvmlErrorString(int r) { return r == 13 ? "Not Found" : r == 999 ? "Unknown Error" : "?"; }
static void fake_text(const unsigned char *u, char *buf) {
    sprintf(buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
            u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}
FAKE_API int nvmlDeviceGetHandleByUUID(const char *text, void **h) {
    char buf[64];
    int i;
    FAIL_POINT("nvmlDeviceGetHandleByUUID");
    if (!fake_nvml_on) return 999;
    for (i = 0; i < fake_n; ++i) {
        fake_text(fake_uuid[i], buf);
        if (strcmp(buf, text) == 0) {
            *h = (void *)(size_t)(i + 1);
            return 0;
        }
    }
    return 13; /* NVML_ERROR_NOT_FOUND */
}
typedef struct { unsigned long long total, free, used; } fake_nvml_memory;
FAKE_API int nvmlDeviceGetMemoryInfo(void *h, fake_nvml_memory *m) {
    int d = (int)(size_t)h - 1;
    FAIL_POINT("nvmlDeviceGetMemoryInfo");
    if (d < 0 || d >= fake_n) return 999;
    /* NVML's figures differ from CUDA's by a MiB here, so a test can tell the sources apart */
    m->total = fake_total[d];
    m->free = fake_free[d] - fake_allocated[d] - (1u << 20);
    m->used = m->total - m->free;
    return 0;
}
