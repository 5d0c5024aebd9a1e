/* >>usm (implementation) */
#include "usm.h"

/* ---- the extension's entry points, per platform ---- */

/* the entry points, found once per platform by the loader (>>loader) */
#define CLMEM__USM_ENTRIES(X, T)                      \
    X(T, host_alloc, "clHostMemAllocINTEL", 1)        \
    X(T, device_alloc, "clDeviceMemAllocINTEL", 1)    \
    X(T, shared_alloc, "clSharedMemAllocINTEL", 1)    \
    X(T, mem_free, "clMemFreeINTEL", 1)               \
    X(T, blocking_free, "clMemBlockingFreeINTEL", 1)  \
    X(T, get_info, "clGetMemAllocInfoINTEL", 1)       \
    X(T, set_arg, "clSetKernelArgMemPointerINTEL", 1) \
    X(T, fill, "clEnqueueMemFillINTEL", 1)            \
    X(T, memcpy, "clEnqueueMemcpyINTEL", 1)           \
    X(T, migrate, "clEnqueueMigrateMemINTEL", 0)      \
    X(T, advise, "clEnqueueMemAdviseINTEL", 0)
CLMEM__ENTRY_SET(clmem__usm_set, clmem__usm_fns, CLMEM__USM_ENTRIES, "cl_intel_unified_shared_memory", NULL);
static clmem__mutex clmem__usm_lock = CLMEM__MUTEX_INIT;

/* clmem__usm_fns_of_device(fn, dev, &fns): the entry points of dev's platform; every
   required one must exist, else CL_INVALID_OPERATION naming the one missing. */
static cl_int clmem__usm_fns_of_device(const char *fn, cl_device_id dev, const clmem__usm_fns **fns) {
    const void *f = NULL;
    cl_int err = clmem__ext_of_device(fn, dev, &clmem__usm_set, &f);
    *fns = CLMEM__CAST(const clmem__usm_fns *, f);
    return err;
}

/* Devices found to have USM, so that an enqueue does not read extension strings: a
   device keeps its extensions (a released sub-device's address reused by another
   sub-device of the same device has the same). Full: devices are checked each time. */
enum { CLMEM__USM_DEVICES = 64 };
static struct {
    cl_device_id device;
    const clmem__usm_fns *fns;
} clmem__usm_devices[CLMEM__USM_DEVICES];
static unsigned clmem__usm_ndevices;

/* clmem__usm_device_ok(fn, dev, &fns): dev may use USM: its platform has the entry
   points and the device or the platform lists the extension (some runtimes list it on
   one of the two only; PoCL-Remote has the entry points but not the extension). */
static cl_int clmem__usm_device_ok(const char *fn, cl_device_id dev, const clmem__usm_fns **fns) {
    char name[128];
    unsigned i;
    cl_int err;
    *fns = NULL;
    clmem__lock(&clmem__usm_lock);
    for (i = 0; i < clmem__usm_ndevices && !*fns; ++i)
        if (clmem__usm_devices[i].device == dev) *fns = clmem__usm_devices[i].fns;
    clmem__unlock(&clmem__usm_lock);
    if (*fns) return CL_SUCCESS;
    if ((err = clmem__usm_fns_of_device(fn, dev, fns)) != CL_SUCCESS) return err;
    if (clmem__extension_listed(dev, "cl_intel_unified_shared_memory")) {
        clmem__lock(&clmem__usm_lock);
        if (clmem__usm_ndevices < CLMEM__USM_DEVICES) {
            clmem__usm_devices[clmem__usm_ndevices].device = dev;
            clmem__usm_devices[clmem__usm_ndevices++].fns = *fns;
        }
        clmem__unlock(&clmem__usm_lock);
        return CL_SUCCESS;
    }
    *fns = NULL;
    clmem__device_name(dev, name, sizeof name);
    return clmem__fail(CL_INVALID_OPERATION, fn,
                       "device '%s' has no cl_intel_unified_shared_memory (neither CL_DEVICE_EXTENSIONS nor its "
                       "platform's CL_PLATFORM_EXTENSIONS lists it)", name);
}

/* the entry points for work on a queue (its device must have USM), a context (its
   first device: one platform) */
static cl_int clmem__usm_fns_of_queue(const char *fn, cl_command_queue queue, const clmem__usm_fns **fns) {
    cl_device_id dev = NULL;
    cl_int err = clmem__queue_device_of(fn, queue, &dev);
    *fns = NULL;
    return err != CL_SUCCESS ? err : clmem__usm_device_ok(fn, dev, fns);
}
static cl_int clmem__usm_fns_of_context(const char *fn, cl_context ctx, const clmem__usm_fns **fns) {
    cl_uint n = 0;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &err);
    *fns = NULL;
    if (!devs) return err;
    err = clmem__usm_device_ok(fn, devs[0], fns);
    CLMEM_FREE(devs);
    return err;
}

static const char *clmem__usm_type_name(cl_unified_shared_memory_type_intel type) {
    switch (type) {
    case CL_MEM_TYPE_HOST_INTEL: return "host";
    case CL_MEM_TYPE_DEVICE_INTEL: return "device";
    case CL_MEM_TYPE_SHARED_INTEL: return "shared";
    default: return "unknown";
    }
}

/* the capability query of a type (0: cross-device shared) */
static cl_uint clmem__usm_caps_param(cl_unified_shared_memory_type_intel type) {
    switch (type) {
    case CL_MEM_TYPE_HOST_INTEL: return CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL;
    case CL_MEM_TYPE_DEVICE_INTEL: return CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL;
    case CL_MEM_TYPE_SHARED_INTEL: return CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL;
    case 0: return CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL;
    default: return 0;
    }
}

static cl_int clmem__usm_caps(const char *fn, cl_device_id dev, cl_unified_shared_memory_type_intel type,
                              cl_device_unified_shared_memory_capabilities_intel *caps) {
    const clmem__usm_fns *fns = NULL;
    cl_int err;
    *caps = 0;
    if ((err = clmem__usm_device_ok(fn, dev, &fns)) != CL_SUCCESS) return err;
    err = clGetDeviceInfo(dev, clmem__usm_caps_param(type), sizeof *caps, caps, NULL);
    if (err != CL_SUCCESS) {
        *caps = 0;
        return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_*_MEM_CAPABILITIES_INTEL");
    }
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_usm_capabilities(cl_device_id device, cl_unified_shared_memory_type_intel type,
                                        cl_device_unified_shared_memory_capabilities_intel *caps) {
    static const char fn[] = "clmem_usm_capabilities";
    cl_device_unified_shared_memory_capabilities_intel c = 0;
    cl_int err;
    if (caps) *caps = 0;
    if (!device) return clmem__fail(CL_INVALID_DEVICE, fn, "device is NULL");
    if (!caps) return clmem__fail(CL_INVALID_VALUE, fn, "caps is NULL");
    if (type != 0 && !clmem__usm_caps_param(type))
        return clmem__fail(CL_INVALID_VALUE, fn, "type 0x%x is not CL_MEM_TYPE_HOST_INTEL, _DEVICE_INTEL, _SHARED_INTEL or 0",
                           (unsigned)type);
    err = clmem__usm_caps(fn, device, type, &c);
    *caps = c;
    return err;
}

/* ---- the registry of live allocations ---- */
typedef struct clmem__usm_rec {
    void *ptr;
    size_t size;
    cl_context context; /* retained until the memory is freed */
    const clmem__usm_fns *fns;
} clmem__usm_rec;

static clmem__registry clmem__usm_reg = CLMEM__REGISTRY_INIT;
enum { CLMEM__USM_ALLOCATION = 1 };

/* clmem__usm_check_live(fn, what, usm): a handle that names memory (ptr not NULL) and,
   where its owner is known (an allocation, a pooled block), memory still allocated. */
static cl_int clmem__usm_check_live(const char *fn, const char *what, clmem_usm usm) {
    if (!usm.ptr) return clmem__fail(CL_INVALID_VALUE, fn, "%s is NULL (an empty USM handle or a NULL pointer)", what);
    if (usm.pool) return clmem__check_pooled_ptr(fn, what, "USM", usm.pool, usm.generation, usm.ptr);
    if (usm.generation && !clmem__reg_find(&clmem__usm_reg, usm.generation, CLMEM__USM_ALLOCATION, false))
        return clmem__fail(CL_INVALID_VALUE, fn, "%s (USM pointer %p) belongs to an allocation that was released", what,
                           usm.ptr);
    return CL_SUCCESS;
}

/* Checks shared by the USM enqueues: queue, wait list, a live handle of the queue's
   context. */
static cl_int clmem__usm_check_enqueue(const char *fn, cl_command_queue queue, const cl_event *wl, cl_uint nw,
                                       clmem_usm usm, const char *what) {
    cl_int err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if ((err = clmem__check_wait_list(fn, wl, nw)) != CL_SUCCESS) return err;
    if (!CLMEM__CHECKS) return CL_SUCCESS;
    if ((err = clmem__usm_check_live(fn, what, usm)) != CL_SUCCESS) return err;
    return clmem__same_context(fn, queue, usm.context, what);
}

/* ---- allocation ---- */

/* The arguments every USM allocation takes (an allocation, a pool): context, type,
   device (none for host memory, required for device memory, of the context), the
   alignment (0 or a power of two), the extension and the capability of the device(s)
   for the type. *fns: the entry points. */
static cl_int clmem__usm_check_alloc(const char *fn, cl_context ctx, cl_device_id device,
                                     cl_unified_shared_memory_type_intel type, cl_uint alignment,
                                     const clmem__usm_fns **fns) {
    cl_uint n = 0, i;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs;
    cl_device_unified_shared_memory_capabilities_intel caps = 0;
    bool in = false;
    char name[128] = "?";
    *fns = NULL;
    if (!ctx) return clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
    if (!clmem__usm_caps_param(type) || type == 0)
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "type 0x%x is not CL_MEM_TYPE_HOST_INTEL, CL_MEM_TYPE_DEVICE_INTEL or CL_MEM_TYPE_SHARED_INTEL",
                           (unsigned)type);
    if (type == CL_MEM_TYPE_HOST_INTEL && device)
        return clmem__fail(CL_INVALID_DEVICE, fn, "host memory belongs to no device: device must be NULL");
    if (type == CL_MEM_TYPE_DEVICE_INTEL && !device)
        return clmem__fail(CL_INVALID_DEVICE, fn, "device memory needs a device (device is NULL)");
    if (alignment & (alignment - 1))
        return clmem__fail(CL_INVALID_VALUE, fn, "alignment %u is not a power of two", alignment);
    if (!(devs = clmem__devices_of(fn, ctx, &n, &err))) return err;
    for (i = 0; i < n; ++i) in = in || devs[i] == device;
    if (device && !in) {
        CLMEM_FREE(devs);
        return clmem__fail(CL_INVALID_DEVICE, fn, "device %p is not a device of context %p", (void *)device, (void *)ctx);
    }
    /* host memory: any device may access it; shared memory of no device: cross-device */
    for (i = 0; i < n && err == CL_SUCCESS && !caps; ++i) {
        cl_device_id d = device ? device : devs[i];
        err = clmem__usm_caps(fn, d, type == CL_MEM_TYPE_SHARED_INTEL && !device ? 0 : type, &caps);
        if (err == CL_SUCCESS && !caps) clmem__device_name(d, name, sizeof name);
        if (device) break;
    }
    CLMEM_FREE(devs);
    if (err != CL_SUCCESS) return err;
    if (!caps)
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "%s%s USM is not supported: device '%s'%s reports no capability for it "
                           "(CL_DEVICE_%s_MEM_CAPABILITIES_INTEL is 0)",
                           type == CL_MEM_TYPE_SHARED_INTEL && !device ? "cross-device " : "", clmem__usm_type_name(type),
                           name, device ? "" : " (and every other device of the context)",
                           type == CL_MEM_TYPE_HOST_INTEL     ? "HOST"
                           : type == CL_MEM_TYPE_DEVICE_INTEL ? "DEVICE"
                           : device                           ? "SINGLE_DEVICE_SHARED"
                                                              : "CROSS_DEVICE_SHARED");
    return clmem__usm_fns_of_context(fn, ctx, fns);
}

/* clmem__usm_make(fns, ctx, device, type, props, size, alignment, &err): the memory */
static void *clmem__usm_make(const clmem__usm_fns *fns, cl_context ctx, cl_device_id device,
                             cl_unified_shared_memory_type_intel type, const cl_mem_properties_intel *props, size_t size,
                             cl_uint alignment, cl_int *err) {
    void *p;
    *err = CL_SUCCESS;
    if (type == CL_MEM_TYPE_HOST_INTEL) p = fns->host_alloc(ctx, props, size, alignment, err);
    else if (type == CL_MEM_TYPE_DEVICE_INTEL) p = fns->device_alloc(ctx, device, props, size, alignment, err);
    else p = fns->shared_alloc(ctx, device, props, size, alignment, err);
    if (!p && *err == CL_SUCCESS) *err = CL_OUT_OF_RESOURCES;
    if (p && *err != CL_SUCCESS) p = NULL; /* a driver that returns both: trust the code */
    return p;
}

static clmem_usm_allocation clmem__usm_empty(void) {
    clmem_usm_allocation a;
    memset(&a, 0, sizeof a);
    return a;
}

CLMEM_API clmem_usm_allocation clmem_usm_allocation_create(cl_context context, cl_device_id device,
                                                           cl_unified_shared_memory_type_intel type, size_t size,
                                                           cl_uint alignment, const cl_mem_properties_intel *properties,
                                                           cl_int *errcode_ret) {
    static const char fn[] = "clmem_usm_allocation_create";
    clmem_usm_allocation a = clmem__usm_empty();
    const clmem__usm_fns *fns = NULL;
    clmem__usm_rec *rec;
    cl_int err;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    if ((err = clmem__usm_check_alloc(fn, context, device, type, alignment, &fns)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return a;
    }
    if (size == 0) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size is 0"));
        return a;
    }
    rec = CLMEM__CAST(clmem__usm_rec *, clmem__alloc_for(sizeof *rec, fn, "the allocation record", errcode_ret));
    if (!rec) return a;
    rec->ptr = clmem__usm_make(fns, context, device, type, properties, size, alignment, &err);
    if (!rec->ptr) {
        CLMEM_FREE(rec);
        clmem__set_err(errcode_ret, clmem__fail(err, fn, "cl%sMemAllocINTEL(size %zu, alignment %u) failed with %s (%d)",
                                                type == CL_MEM_TYPE_HOST_INTEL     ? "Host"
                                                : type == CL_MEM_TYPE_DEVICE_INTEL ? "Device"
                                                                                   : "Shared",
                                                size, alignment, clmem_error_string(err), (int)err));
        return a;
    }
    rec->size = size;
    rec->context = context;
    rec->fns = fns;
    clRetainContext(context);
    a.usm.generation = clmem__reg_add(&clmem__usm_reg, rec, CLMEM__USM_ALLOCATION);
    if (a.usm.generation == 0) {
        fns->mem_free(context, rec->ptr);
        clReleaseContext(context);
        CLMEM_FREE(rec);
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the USM registry"));
        return clmem__usm_empty();
    }
    a.usm.ptr = rec->ptr;
    a.usm.size = size;
    a.usm.type = type;
    a.usm.context = context;
    return a;
}

CLMEM_API cl_int clmem_usm_allocation_release(clmem_usm_allocation *a) {
    static const char fn[] = "clmem_usm_allocation_release";
    clmem__usm_rec *rec;
    uint64_t id;
    cl_int err;
    if (!a) return clmem__fail(CL_INVALID_VALUE, fn, "the allocation pointer is NULL");
    if (a->usm.generation == 0) {
        if (a->usm.ptr)
            return clmem__fail(CL_INVALID_VALUE, fn, "%p is not a clmem USM allocation (a tag or a pooled block owns "
                               "nothing here)", a->usm.ptr);
        return CL_SUCCESS;
    }
    id = a->usm.generation;
    rec = CLMEM__CAST(clmem__usm_rec *, clmem__reg_find(&clmem__usm_reg, id, CLMEM__USM_ALLOCATION, true));
    if (!rec)
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                           "the USM allocation (id 0x%llx) was already released, through this handle or a copy of it",
                           (unsigned long long)id);
    clmem__reg_remove(&clmem__usm_reg, id);
    memset(a, 0, sizeof *a);
    err = rec->fns->blocking_free(rec->context, rec->ptr);
    clReleaseContext(rec->context);
    CLMEM_FREE(rec);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clMemBlockingFreeINTEL");
}

/* ---- pointer lookup ---- */
CLMEM_API cl_int clmem_usm_get_alloc_info(cl_context context, const void *ptr, clmem_usm_alloc_info *info) {
    static const char fn[] = "clmem_usm_get_alloc_info";
    const clmem__usm_fns *fns = NULL;
    cl_unified_shared_memory_type_intel type = 0;
    cl_int err;
    if (info) memset(info, 0, sizeof *info);
    if (!context) return clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
    if (!info) return clmem__fail(CL_INVALID_VALUE, fn, "info is NULL");
    info->type = CL_MEM_TYPE_UNKNOWN_INTEL;
    if ((err = clmem__usm_fns_of_context(fn, context, &fns)) != CL_SUCCESS) return err;
    if (!ptr) return CL_SUCCESS; /* no allocation holds NULL (PoCL answers CL_INVALID_MEM_OBJECT) */
    err = fns->get_info(context, ptr, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL);
    if (err == CL_INVALID_MEM_OBJECT) return CL_SUCCESS; /* some runtimes' "not USM" */
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetMemAllocInfoINTEL", "CL_MEM_ALLOC_TYPE_INTEL");
    if (!clmem__usm_caps_param(type)) return CL_SUCCESS; /* not USM (also a driver's 0) */
    if ((err = fns->get_info(context, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof info->base, &info->base, NULL)) !=
            CL_SUCCESS ||
        (err = fns->get_info(context, ptr, CL_MEM_ALLOC_SIZE_INTEL, sizeof info->size, &info->size, NULL)) != CL_SUCCESS ||
        (err = fns->get_info(context, ptr, CL_MEM_ALLOC_DEVICE_INTEL, sizeof info->device, &info->device, NULL)) !=
            CL_SUCCESS) {
        memset(info, 0, sizeof *info);
        info->type = CL_MEM_TYPE_UNKNOWN_INTEL;
        return clmem__info_fail(fn, err, "clGetMemAllocInfoINTEL", "BASE_PTR/SIZE/DEVICE");
    }
    info->type = type;
    if (type == CL_MEM_TYPE_HOST_INTEL) info->device = NULL; /* PoCL 5 names its device: host memory has none */
    return CL_SUCCESS;
}

/* ---- migrate and advise ---- */

/* The checks of an enqueue over a whole handle's range, and the entry points. */
static cl_int clmem__usm_range_enqueue(const char *fn, cl_command_queue queue, clmem_usm usm,
                                       const clmem_enqueue_options *o, const clmem__usm_fns **fns) {
    cl_int err;
    if ((err = clmem__usm_check_enqueue(fn, queue, o->wait_for, o->num_wait_for, usm, "usm")) != CL_SUCCESS) return err;
    if (CLMEM__CHECKS && usm.size == 0)
        return clmem__fail(CL_INVALID_VALUE, fn, "usm.size is 0: the range is unknown (tag it with its size)");
    return clmem__usm_fns_of_queue(fn, queue, fns);
}

CLMEM_API cl_int clmem_enqueue_usm_migrate_opts(cl_command_queue queue, clmem_usm usm, cl_mem_migration_flags flags,
                                                const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_usm_migrate";
    const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    const clmem__usm_fns *fns = NULL;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if ((err = clmem__usm_range_enqueue(fn, queue, usm, opts, &fns)) != CL_SUCCESS) return err;
    if (CLMEM__CHECKS && (flags & ~known))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags 0x%llx contain bits other than CL_MIGRATE_MEM_OBJECT_HOST and "
                           "CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED", (unsigned long long)flags);
    if (!fns->migrate)
        return clmem__fail(CL_INVALID_OPERATION, fn, "the platform has no clEnqueueMigrateMemINTEL");
    err = fns->migrate(queue, usm.ptr, usm.size, flags, opts->num_wait_for, opts->wait_for, opts->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueMigrateMemINTEL");
}

CLMEM_API cl_int clmem_enqueue_usm_advise_opts(cl_command_queue queue, clmem_usm usm, cl_mem_advice_intel advice,
                                               const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_usm_advise";
    const clmem__usm_fns *fns = NULL;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if ((err = clmem__usm_range_enqueue(fn, queue, usm, opts, &fns)) != CL_SUCCESS) return err;
    if (!fns->advise) return clmem__fail(CL_INVALID_OPERATION, fn, "the platform has no clEnqueueMemAdviseINTEL");
    err = fns->advise(queue, usm.ptr, usm.size, advice, opts->num_wait_for, opts->wait_for, opts->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueMemAdviseINTEL");
}
