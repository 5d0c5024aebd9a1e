/* >>cuda (implementation) */
#include "cuda.h"
#include "loader.h"

#ifndef CL_DEVICE_UUID_KHR
#define CL_DEVICE_UUID_KHR 0x106A
#endif

/* the functions of libcuda and NVML clmem calls (>>loader) */
#define CLMEM__CUDA_ENTRIES(X, T)                             \
    X(T, init, "cuInit", 1)                                   \
    X(T, device_get_count, "cuDeviceGetCount", 1)             \
    X(T, device_get, "cuDeviceGet", 1)                        \
    X(T, device_get_uuid, "cuDeviceGetUuid_v2", 1)            \
    X(T, primary_retain, "cuDevicePrimaryCtxRetain", 1)       \
    X(T, ctx_push, "cuCtxPushCurrent_v2", 1)                  \
    X(T, ctx_pop, "cuCtxPopCurrent_v2", 1)                    \
    X(T, mem_get_info, "cuMemGetInfo_v2", 1)                  \
    X(T, get_error_name, "cuGetErrorName", 0)                 \
    X(T, mem_granularity, "cuMemGetAllocationGranularity", 0) \
    X(T, mem_create, "cuMemCreate", 0)                        \
    X(T, mem_release, "cuMemRelease", 0)                      \
    X(T, mem_export, "cuMemExportToShareableHandle", 0)
CLMEM__ENTRY_SET(clmem__cuda_set, clmem__cuda_fns, CLMEM__CUDA_ENTRIES, "CUDA's driver library", CLMEM_LIBCUDA);
#define CLMEM__NVML_ENTRIES(X, T)                 \
    X(T, init, "nvmlInit_v2", 1)                  \
    X(T, by_uuid, "nvmlDeviceGetHandleByUUID", 1) \
    X(T, memory, "nvmlDeviceGetMemoryInfo", 1)    \
    X(T, error_string, "nvmlErrorString", 0)
CLMEM__ENTRY_SET(clmem__nvml_set, clmem__nvml_fns, CLMEM__NVML_ENTRIES, "NVML", CLMEM_LIBNVML);

static clmem__mutex clmem__cuda_lock = CLMEM__MUTEX_INIT;

/* clmem__cuda_error(fns, r): CUDA's name of a result ("CUDA_ERROR_OUT_OF_MEMORY"), or "?" */
static const char *clmem__cuda_error(const clmem__cuda_fns *f, clmem__CUresult r) {
    const char *s = NULL;
    if (f && f->get_error_name && f->get_error_name(r, &s) == CLMEM__CUDA_SUCCESS && s) return s;
    return "?";
}

/* clmem__nvml_error(fns, r): NVML's words for a result, or "?" */
static const char *clmem__nvml_error(const clmem__nvml_fns *f, int r) {
    return f->error_string ? f->error_string(r) : "?";
}

/* clmem__cuda_fail(fn, fns, call, r): a CUDA call failed: CL_OUT_OF_RESOURCES (out of
   memory: CL_MEM_OBJECT_ALLOCATION_FAILURE) with the call and CUDA's result named */
static cl_int clmem__cuda_fail(const char *fn, const clmem__cuda_fns *f, const char *call, clmem__CUresult r) {
    return clmem__fail(r == CLMEM__CUDA_ERROR_OUT_OF_MEMORY ? CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_OUT_OF_RESOURCES, fn,
                       "%s failed: CUresult %d (%s)", call, (int)r, clmem__cuda_error(f, r));
}

/* A vendor library whose initialisation runs once, its result kept for the life of
   the process (cuInit(0), nvmlInit_v2()): the call, its result type and the result in
   words, for the message where it fails. */
typedef struct clmem__vendor_init {
    const clmem__entry_set *set;
    const char *call, *result_type;
    int (*init)(const void *fns);
    const char *(*result_name)(const void *fns, int r);
    int state, result; /* state 0 not yet, 1 done (under clmem__cuda_lock) */
} clmem__vendor_init;
static int clmem__cuda_init(const void *f) { return CLMEM__CAST(const clmem__cuda_fns *, f)->init(0); }
static const char *clmem__cuda_result(const void *f, int r) {
    return clmem__cuda_error(CLMEM__CAST(const clmem__cuda_fns *, f), r);
}
static int clmem__nvml_init(const void *f) { return CLMEM__CAST(const clmem__nvml_fns *, f)->init(); }
static const char *clmem__nvml_result(const void *f, int r) {
    return clmem__nvml_error(CLMEM__CAST(const clmem__nvml_fns *, f), r);
}
static clmem__vendor_init clmem__cuda_once = {&clmem__cuda_set, "cuInit", "CUresult", clmem__cuda_init,
                                              clmem__cuda_result, 0, 0};
static clmem__vendor_init clmem__nvml_once = {&clmem__nvml_set, "nvmlInit_v2", "nvmlReturn_t", clmem__nvml_init,
                                              clmem__nvml_result, 0, 0};

/* clmem__vendor_ready(fn, v, &fns): the library's functions, its initialisation done.
   CL_INVALID_OPERATION in words where the library is absent, compiled out or its
   initialisation failed (for libcuda: no NVIDIA GPU). */
static cl_int clmem__vendor_ready(const char *fn, clmem__vendor_init *v, const void **fns) {
    int r;
    cl_int err = clmem__vendor_library(fn, v->set, fns);
    if (err != CL_SUCCESS) return err;
    clmem__lock(&clmem__cuda_lock);
    if (!v->state) {
        v->result = v->init(*fns);
        v->state = 1;
    }
    r = v->result;
    clmem__unlock(&clmem__cuda_lock);
    if (r == 0) return CL_SUCCESS;
    err = clmem__fail(CL_INVALID_OPERATION, fn, "%s (%s) is there but %s failed: %s %d (%s)", v->set->what,
                      v->set->library, v->call, v->result_type, r, v->result_name(*fns, r));
    *fns = NULL;
    return err;
}

/* clmem__cuda(fn, &fns) / clmem__nvml(fn, &fns): libcuda's functions, cuInit(0) done /
   NVML's, nvmlInit_v2 done (clmem__vendor_ready) */
static cl_int clmem__cuda(const char *fn, const clmem__cuda_fns **fns) {
    const void *f = NULL;
    cl_int err = clmem__vendor_ready(fn, &clmem__cuda_once, &f);
    *fns = CLMEM__CAST(const clmem__cuda_fns *, f);
    return err;
}
static cl_int clmem__nvml(const char *fn, const clmem__nvml_fns **fns) {
    const void *f = NULL;
    cl_int err = clmem__vendor_ready(fn, &clmem__nvml_once, &f);
    *fns = CLMEM__CAST(const clmem__nvml_fns *, f);
    return err;
}

/* clmem__uuid_text(uuid, buf): "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (NVML's and
   nvidia-smi's form; buf of at least 41 bytes) */
static void clmem__uuid_text(const unsigned char uuid[16], char *buf) {
    static const char hex[] = "0123456789abcdef";
    char *p = buf;
    int i;
    memcpy(p, "GPU-", 4);
    p += 4;
    for (i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
        *p++ = hex[uuid[i] >> 4];
        *p++ = hex[uuid[i] & 15];
    }
    *p = '\0';
}

/* clmem__cl_device_uuid(fn, dev, uuid): the device's CL_DEVICE_UUID_KHR; a device
   without cl_khr_device_uuid: CL_INVALID_OPERATION in words */
static cl_int clmem__cl_device_uuid(const char *fn, cl_device_id dev, unsigned char uuid[16]) {
    char name[128];
    cl_int err = CL_INVALID_VALUE;
    if (clmem__device_lists(dev, "cl_khr_device_uuid")) {
        if ((err = clGetDeviceInfo(dev, CL_DEVICE_UUID_KHR, 16, uuid, NULL)) == CL_SUCCESS) return CL_SUCCESS;
        if (err == CL_INVALID_DEVICE) return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_UUID_KHR");
    }
    clmem__device_name(dev, name, sizeof name);
    return clmem__fail(CL_INVALID_OPERATION, fn,
                       "device '%s' has no cl_khr_device_uuid (%s): clmem cannot tell which CUDA device it is", name,
                       err == CL_INVALID_VALUE ? "CL_DEVICE_EXTENSIONS does not list it" : clmem_error_string(err));
}

/* clmem__cuda_device_by_uuid(fn, fns, uuid, &device): the CUDA device with this UUID;
   none: CL_INVALID_OPERATION naming the UUID */
static cl_int clmem__cuda_device_by_uuid(const char *fn, const clmem__cuda_fns *f, const unsigned char uuid[16],
                                         clmem__CUdevice *device) {
    int n = 0, i;
    char text[48];
    clmem__CUresult r = f->device_get_count(&n);
    if (r != CLMEM__CUDA_SUCCESS) return clmem__cuda_fail(fn, f, "cuDeviceGetCount", r);
    for (i = 0; i < n; ++i) {
        clmem__CUdevice d = 0;
        unsigned char u[16];
        if ((r = f->device_get(&d, i)) != CLMEM__CUDA_SUCCESS) return clmem__cuda_fail(fn, f, "cuDeviceGet", r);
        if ((r = f->device_get_uuid(u, d)) != CLMEM__CUDA_SUCCESS) return clmem__cuda_fail(fn, f, "cuDeviceGetUuid_v2", r);
        if (memcmp(u, uuid, 16) == 0) {
            *device = d;
            return CL_SUCCESS;
        }
    }
    clmem__uuid_text(uuid, text);
    return clmem__fail(CL_INVALID_OPERATION, fn, "none of the %d CUDA devices has the UUID %s", n, text);
}

/* The primary context of each CUDA device clmem has used, retained once and kept for
   the life of the process: memory made in a context must not outlive it, and making a
   primary context anew costs a few hundred milliseconds and device memory. */
enum { CLMEM__CUDA_DEVICES = 64 };
static struct {
    clmem__CUdevice device;
    clmem__CUcontext context;
} clmem__cuda_contexts[CLMEM__CUDA_DEVICES];
static unsigned clmem__cuda_ncontexts;

/* clmem__cuda_enter(fn, fns, device) / clmem__cuda_leave(fns, device): make the
   device's primary context current (retained at its first use, kept) for the calls
   between; leave pops it, so the caller's current context is what it was */
static cl_int clmem__cuda_enter(const char *fn, const clmem__cuda_fns *f, clmem__CUdevice device) {
    clmem__CUcontext ctx = NULL;
    clmem__CUresult r = CLMEM__CUDA_SUCCESS;
    unsigned i;
    clmem__lock(&clmem__cuda_lock);
    for (i = 0; i < clmem__cuda_ncontexts && !ctx; ++i)
        if (clmem__cuda_contexts[i].device == device) ctx = clmem__cuda_contexts[i].context;
    if (!ctx && clmem__cuda_ncontexts < CLMEM__CUDA_DEVICES && (r = f->primary_retain(&ctx, device)) == CLMEM__CUDA_SUCCESS) {
        clmem__cuda_contexts[clmem__cuda_ncontexts].device = device;
        clmem__cuda_contexts[clmem__cuda_ncontexts++].context = ctx;
    }
    clmem__unlock(&clmem__cuda_lock);
    if (r != CLMEM__CUDA_SUCCESS) return clmem__cuda_fail(fn, f, "cuDevicePrimaryCtxRetain", r);
    if (!ctx) return clmem__fail(CL_OUT_OF_RESOURCES, fn, "more than %d CUDA devices", (int)CLMEM__CUDA_DEVICES);
    if ((r = f->ctx_push(ctx)) != CLMEM__CUDA_SUCCESS) return clmem__cuda_fail(fn, f, "cuCtxPushCurrent", r);
    return CL_SUCCESS;
}
static void clmem__cuda_leave(const clmem__cuda_fns *f, clmem__CUdevice device) {
    clmem__CUcontext ctx = NULL;
    (void)device;
    f->ctx_pop(&ctx);
}
