/* >>external (implementation) */
#include "external.h"
#include "loader.h"

/* ---- the extensions' entry points (>>loader) ---- */
typedef cl_int(CL_API_CALL *clmem__ext_mem_fn)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                                               cl_event *);
typedef struct clmem__extmem_fns {
    clmem__ext_mem_fn acquire, release;
} clmem__extmem_fns;
#define CLMEM__EXTMEM_ENTRIES(X, T)                           \
    X(T, acquire, "clEnqueueAcquireExternalMemObjectsKHR", 1) \
    X(T, release, "clEnqueueReleaseExternalMemObjectsKHR", 1)
CLMEM__ENTRY_SET(clmem__extmem_set, clmem__extmem_fns, CLMEM__EXTMEM_ENTRIES, "cl_khr_external_memory", NULL);

typedef cl_semaphore_khr(CL_API_CALL *clmem__sem_create_fn)(cl_context, const cl_semaphore_properties_khr *, cl_int *);
typedef cl_int(CL_API_CALL *clmem__sem_enqueue_fn)(cl_command_queue, cl_uint, const cl_semaphore_khr *,
                                                   const cl_semaphore_payload_khr *, cl_uint, const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *clmem__sem_release_fn)(cl_semaphore_khr);
typedef cl_int(CL_API_CALL *clmem__sem_handle_fn)(cl_semaphore_khr, cl_device_id, cl_external_semaphore_handle_type_khr,
                                                  size_t, void *, size_t *);
typedef struct clmem__sem_fns {
    clmem__sem_create_fn create;
    clmem__sem_enqueue_fn wait, signal;
    clmem__sem_release_fn release;
} clmem__sem_fns;
#define CLMEM__SEM_ENTRIES(X, T)                          \
    X(T, create, "clCreateSemaphoreWithPropertiesKHR", 1) \
    X(T, wait, "clEnqueueWaitSemaphoresKHR", 1)           \
    X(T, signal, "clEnqueueSignalSemaphoresKHR", 1)       \
    X(T, release, "clReleaseSemaphoreKHR", 1)
CLMEM__ENTRY_SET(clmem__sem_set, clmem__sem_fns, CLMEM__SEM_ENTRIES, "cl_khr_semaphore", NULL);
typedef struct clmem__xsem_fns {
    clmem__sem_handle_fn handle;
} clmem__xsem_fns;
#define CLMEM__XSEM_ENTRIES(X, T) X(T, handle, "clGetSemaphoreHandleForTypeKHR", 1)
CLMEM__ENTRY_SET(clmem__xsem_set, clmem__xsem_fns, CLMEM__XSEM_ENTRIES, "cl_khr_external_semaphore", NULL);

/* clmem__need_extension(fn, dev, name): the device lists the extension, else
   CL_INVALID_OPERATION naming it */
static cl_int clmem__need_extension(const char *fn, cl_device_id dev, const char *name) {
    char dname[128];
    if (clmem__device_lists(dev, name)) return CL_SUCCESS;
    clmem__device_name(dev, dname, sizeof dname);
    return clmem__fail(CL_INVALID_OPERATION, fn, "device '%s' has no %s (CL_DEVICE_EXTENSIONS does not list it)", dname, name);
}

/* clmem__handle_type_listed(dev, param, type): the device's list of handle types (a
   cl_uint array query) holds type */
static bool clmem__handle_type_listed(cl_device_id dev, cl_uint param, cl_uint type) {
    cl_uint types[32];
    size_t n = 0, i;
    if (clGetDeviceInfo(dev, param, sizeof types, types, &n) != CL_SUCCESS) return false;
    for (i = 0; i < n / sizeof(cl_uint) && i < 32; ++i)
        if (types[i] == type) return true;
    return false;
}

/* the devices an import or semaphore is for: the one given (it must be of the
   context), or every device of the context; CLMEM_MALLOC'd */
static cl_device_id *clmem__external_devices(const char *fn, cl_context ctx, cl_device_id device, cl_uint *n, cl_int *err) {
    cl_device_id *devs = clmem__devices_of(fn, ctx, n, err);
    cl_uint i;
    if (!devs || !device) return devs;
    for (i = 0; i < *n && devs[i] != device; ++i) {}
    if (i == *n) {
        CLMEM_FREE(devs);
        *err = clmem__fail(CL_INVALID_DEVICE, fn, "device %p is not a device of the context", (void *)device);
        return NULL;
    }
    devs[0] = device;
    *n = 1;
    return devs;
}

/* ---- external memory ----

   A buffer handle of an import points at its record (clmem__bound_owner, >>buffer),
   which says whether the handle is current (the generation: odd while acquired) and
   which device the import is for. Records outlive their imports (stale handles must
   find one): a released import's record goes to a free list and is used again, its
   generation counting on. */

/* A buffer handle of an import points at its record (the `pool` of clmem_buffer),
   which says whether the handle is current (the generation: odd while acquired) and
   which device the import is for. Records outlive their imports (stale handles must
   find one): a released import's record goes to a free list and is used again, its
   generation counting on. */
struct clmem_external_memory {
    clmem__bound_owner *rec;
    clmem_buffer buffer;       /* the handle while acquired (generation = rec's) */
    cl_mem mem;
    cl_device_id device;
    cl_command_queue acquired_on; /* retained while acquired; NULL otherwise */
    const clmem__extmem_fns *fns;
    clmem__mutex lock;
};

static clmem__bound_owner *clmem__external_free_records;
static clmem__mutex clmem__external_lock = CLMEM__MUTEX_INIT;

static void clmem__external_set_gen(clmem__bound_owner *r, uint64_t gen) {
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(&r->owner.gen, gen, __ATOMIC_RELEASE);
#else
    *(volatile uint64_t *)&r->owner.gen = gen;
#endif
}

static clmem__bound_owner *clmem__external_record_get(cl_device_id device) {
    clmem__bound_owner *r;
    clmem__lock(&clmem__external_lock);
    r = clmem__external_free_records;
    if (r) clmem__external_free_records = r->next;
    clmem__unlock(&clmem__external_lock);
    if (!r) {
        r = CLMEM__CAST(clmem__bound_owner *, CLMEM_MALLOC(sizeof *r));
        if (!r) return NULL;
        memset(r, 0, sizeof *r);
        r->owner.release = clmem__bound_release;
        r->owner.gen = CLMEM__GEN_BOUND;
    }
    r->device = device;
    r->object = NULL;
    r->next = NULL;
    return r;
}
static void clmem__external_record_put(clmem__bound_owner *r) {
    clmem__lock(&clmem__external_lock);
    r->next = clmem__external_free_records;
    clmem__external_free_records = r;
    clmem__unlock(&clmem__external_lock);
}

/* clmem__external_check_import(fn, ctx, device, type, &fns): what an import needs */
static cl_int clmem__external_check_import(const char *fn, cl_context ctx, cl_device_id device,
                                           cl_external_memory_handle_type_khr type, const clmem__extmem_fns **fns) {
    const char *type_ext = type == CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR ? "cl_khr_external_memory_opaque_fd"
                                                                             : "cl_khr_external_memory_dma_buf";
    cl_uint n = 0, i;
    cl_int err = CL_SUCCESS;
    const void *f = NULL;
    cl_device_id *devs = clmem__external_devices(fn, ctx, device, &n, &err);
    if (!devs) return err;
    for (i = 0; i < n && err == CL_SUCCESS; ++i) {
        char dname[128];
        if ((err = clmem__need_extension(fn, devs[i], "cl_khr_external_memory")) != CL_SUCCESS ||
            (err = clmem__need_extension(fn, devs[i], type_ext)) != CL_SUCCESS)
            break;
        if (!clmem__handle_type_listed(devs[i], CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR, type)) {
            clmem__device_name(devs[i], dname, sizeof dname);
            err = clmem__fail(CL_INVALID_OPERATION, fn,
                              "device '%s' does not list handle type 0x%x in CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR",
                              dname, (unsigned)type);
        }
    }
    if (err == CL_SUCCESS) err = clmem__ext_of_device(fn, devs[0], &clmem__extmem_set, &f);
    CLMEM_FREE(devs);
    *fns = CLMEM__CAST(const clmem__extmem_fns *, f);
    return err;
}

CLMEM_API clmem_external_memory *clmem_external_memory_import(cl_context context, cl_device_id device,
                                                              cl_external_memory_handle_type_khr handle_type, int fd,
                                                              size_t size, cl_mem_flags flags, cl_int *errcode_ret) {
    static const char fn[] = "clmem_external_memory_import";
    const clmem__extmem_fns *fns = NULL;
    clmem_external_memory *m;
    cl_int err;
    if (!context) return CLMEM__CAST(clmem_external_memory *, clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL")));
    if (fd < 0) return CLMEM__CAST(clmem_external_memory *, clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "fd %d is no file descriptor", fd)));
    if (handle_type != CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR && handle_type != CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR)
        return CLMEM__CAST(clmem_external_memory *,
                           clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                                     "handle_type 0x%x is neither CL_EXTERNAL_MEMORY_HANDLE_"
                                                                     "OPAQUE_FD_KHR (0x2060) nor _DMA_BUF_KHR (0x2067)",
                                                                     (unsigned)handle_type)));
    if (size == 0) return CLMEM__CAST(clmem_external_memory *, clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size is 0")));
    if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))
        return CLMEM__CAST(clmem_external_memory *,
                           clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                                     "flags 0x%llx: external memory takes no host-pointer flags",
                                                                     (unsigned long long)flags)));
    if ((err = clmem__external_check_import(fn, context, device, handle_type, &fns)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_external_memory *, clmem__null_with(errcode_ret, err));
    {
        cl_mem mem = NULL;
#ifdef CL_VERSION_3_0
        cl_mem_properties props[6];
        int k = 0;
        props[k++] = (cl_mem_properties)handle_type;
        props[k++] = (cl_mem_properties)fd;
        if (device) {
            props[k++] = CL_DEVICE_HANDLE_LIST_KHR;
            props[k++] = (cl_mem_properties)(uintptr_t)device;
            props[k++] = CL_DEVICE_HANDLE_LIST_END_KHR;
        }
        props[k] = 0;
        mem = clCreateBufferWithProperties(context, props, flags ? flags : CL_MEM_READ_WRITE, size, NULL, &err);
        if (err != CL_SUCCESS || !mem)
            return CLMEM__CAST(clmem_external_memory *,
                               clmem__null_with(errcode_ret, clmem__cl_fail(err ? err : CL_OUT_OF_RESOURCES, fn,
                                                                            "clCreateBufferWithProperties")));
#else
        return CLMEM__CAST(clmem_external_memory *,
                           clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_OPERATION, fn,
                                                                     "clmem was built against OpenCL headers before 3.0 "
                                                                     "(CL_TARGET_OPENCL_VERSION): no clCreateBufferWithProperties")));
#endif
        m = CLMEM__CAST(clmem_external_memory *, CLMEM_MALLOC(sizeof *m));
        if (m) memset(m, 0, sizeof *m);
        if (!m || !(m->rec = clmem__external_record_get(device))) {
            CLMEM_FREE(m);
            clReleaseMemObject(mem);
            return CLMEM__CAST(clmem_external_memory *,
                               clmem__null_with(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "CLMEM_MALLOC failed")));
        }
        m->mem = mem;
        m->device = device;
        m->fns = fns;
        clmem__mutex_init(&m->lock);
        m->buffer.mem = mem;
        m->buffer.root = mem;
        m->buffer.context = context;
        m->buffer.size = size;
        m->buffer.flags = flags ? flags : CL_MEM_READ_WRITE;
        m->buffer.pool = m->rec;
        clmem__set_err(errcode_ret, CL_SUCCESS);
        return m;
    }
}

/* the checks an acquire and a release share */
static cl_int clmem__external_enqueue_check(const char *fn, cl_command_queue queue, clmem_external_memory *m,
                                            const clmem_enqueue_options *o) {
    cl_device_id qdev = NULL;
    char a[128], q[128];
    cl_int err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if (!m) return clmem__fail(CL_INVALID_VALUE, fn, "m is NULL");
    if ((err = clmem__check_wait_list(fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS) return err;
    if ((err = clmem__same_context(fn, queue, m->buffer.context, "m")) != CL_SUCCESS) return err;
    if ((err = clmem__queue_device_of(fn, queue, &qdev)) != CL_SUCCESS) return err;
    if (m->device && qdev != m->device) {
        clmem__device_name(m->device, a, sizeof a);
        clmem__device_name(qdev, q, sizeof q);
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn,
                           "m was imported for device '%s'; the queue is of device '%s' (NVIDIA's driver crashes when "
                           "another device's queue uses an import)", a, q);
    }
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_enqueue_acquire_external_memory_opts(cl_command_queue queue, clmem_external_memory *m,
                                                            clmem_buffer *buf, const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_acquire_external_memory";
    const clmem_enqueue_options *o = opts;
    cl_int err;
    if (!buf) return clmem__fail(CL_INVALID_VALUE, fn, "buf is NULL");
    *buf = clmem__buffer_empty();
    if ((err = clmem__enqueue_opts_made(fn, &o)) != CL_SUCCESS) return err;
    if ((err = clmem__external_enqueue_check(fn, queue, m, o)) != CL_SUCCESS) return err;
    clmem__lock(&m->lock);
    if (m->acquired_on) {
        clmem__unlock(&m->lock);
        return clmem__fail(CL_INVALID_OPERATION, fn, "m is acquired already (on queue %p): release it first",
                           (void *)m->acquired_on);
    }
    err = m->fns->acquire(queue, 1, &m->mem, o->num_wait_for, o->wait_for, o->event);
    if (err == CL_SUCCESS) {
        clRetainCommandQueue(queue);
        m->acquired_on = queue;
        m->buffer.generation = m->rec->owner.gen + 1;
        clmem__external_set_gen(m->rec, m->buffer.generation);
        *buf = m->buffer;
    }
    clmem__unlock(&m->lock);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueAcquireExternalMemObjectsKHR");
}

CLMEM_API cl_int clmem_enqueue_release_external_memory_opts(cl_command_queue queue, clmem_external_memory *m,
                                                            const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_release_external_memory";
    const clmem_enqueue_options *o = opts;
    cl_command_queue was;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &o)) != CL_SUCCESS) return err;
    if ((err = clmem__external_enqueue_check(fn, queue, m, o)) != CL_SUCCESS) return err;
    clmem__lock(&m->lock);
    if (!m->acquired_on) {
        clmem__unlock(&m->lock);
        return clmem__fail(CL_INVALID_OPERATION, fn, "m is not acquired (clmem_enqueue_acquire_external_memory)");
    }
    err = m->fns->release(queue, 1, &m->mem, o->num_wait_for, o->wait_for, o->event);
    was = m->acquired_on;
    if (err == CL_SUCCESS) {
        clmem__external_set_gen(m->rec, m->buffer.generation + 1);
        m->buffer.generation = 0;
        m->acquired_on = NULL;
    }
    clmem__unlock(&m->lock);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueReleaseExternalMemObjectsKHR");
    clReleaseCommandQueue(was);
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_external_memory_get_buffer(clmem_external_memory *m, clmem_buffer *buf) {
    static const char fn[] = "clmem_external_memory_get_buffer";
    cl_int err = CL_SUCCESS;
    if (!buf) return clmem__fail(CL_INVALID_VALUE, fn, "buf is NULL");
    *buf = clmem__buffer_empty();
    if (!m) return clmem__fail(CL_INVALID_VALUE, fn, "m is NULL");
    clmem__lock(&m->lock);
    if (m->acquired_on) *buf = m->buffer;
    else
        err = clmem__fail(CL_INVALID_OPERATION, fn,
                          "m is not acquired: OpenCL may use external memory only between "
                          "clmem_enqueue_acquire_external_memory and clmem_enqueue_release_external_memory");
    clmem__unlock(&m->lock);
    return err;
}

CLMEM_API cl_device_id clmem_external_memory_device(const clmem_external_memory *m) { return m ? m->device : NULL; }

CLMEM_API cl_int clmem_external_memory_release(clmem_external_memory *m) {
    static const char fn[] = "clmem_external_memory_release";
    cl_mem mem;
    if (!m) return CL_SUCCESS;
    clmem__lock(&m->lock);
    if (m->acquired_on) {
        clmem__unlock(&m->lock);
        return clmem__fail(CLMEM_ERROR_IN_USE, fn,
                           "m is still acquired (on queue %p): enqueue clmem_enqueue_release_external_memory first",
                           (void *)m->acquired_on);
    }
    clmem__unlock(&m->lock);
    mem = m->mem;
    clmem__external_record_put(m->rec);
    clmem__mutex_destroy(&m->lock);
    CLMEM_FREE(m);
    return clmem__release_mem(fn, mem);
}

/* ---- semaphores ---- */

static clmem_semaphore clmem__semaphore_failed(cl_int *errcode_ret, cl_int err) {
    clmem_semaphore s;
    s.sem = NULL;
    s.platform = NULL;
    clmem__set_err(errcode_ret, err);
    return s;
}

/* clmem__semaphore_make(fn, ctx, device, import_type, fd, export_type, &err): the one
   path of create and import: checks the extensions, builds the properties */
static clmem_semaphore clmem__semaphore_make(const char *fn, cl_context ctx, cl_device_id device,
                                             cl_external_semaphore_handle_type_khr import_type, int fd,
                                             cl_external_semaphore_handle_type_khr export_type, cl_int *errcode_ret) {
    cl_uint n = 0, i;
    cl_int err = CL_SUCCESS;
    const void *f = NULL;
    cl_platform_id platform = NULL;
    cl_semaphore_properties_khr props[12];
    int k = 0;
    cl_external_semaphore_handle_type_khr type = import_type ? import_type : export_type;
    cl_device_id *devs;
    clmem_semaphore s;
    if (!ctx) return clmem__semaphore_failed(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL"));
    if (type && type != CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR && type != CL_SEMAPHORE_HANDLE_SYNC_FD_KHR)
        return clmem__semaphore_failed(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                                "handle type 0x%x is neither CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR "
                                                                "(0x2055) nor _SYNC_FD_KHR (0x2058)", (unsigned)type));
    if (!(devs = clmem__external_devices(fn, ctx, device, &n, &err))) return clmem__semaphore_failed(errcode_ret, err);
    for (i = 0; i < n && err == CL_SUCCESS; ++i) {
        const char *type_ext = type == CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR ? "cl_khr_external_semaphore_opaque_fd"
                                                                         : "cl_khr_external_semaphore_sync_fd";
        if ((err = clmem__need_extension(fn, devs[i], "cl_khr_semaphore")) != CL_SUCCESS) break;
        if (!type) continue;
        if ((err = clmem__need_extension(fn, devs[i], "cl_khr_external_semaphore")) != CL_SUCCESS ||
            (err = clmem__need_extension(fn, devs[i], type_ext)) != CL_SUCCESS)
            break;
        if (!clmem__handle_type_listed(devs[i], import_type ? CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR
                                                            : CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, type)) {
            char dname[128];
            clmem__device_name(devs[i], dname, sizeof dname);
            err = clmem__fail(CL_INVALID_OPERATION, fn, "device '%s' does not list handle type 0x%x in %s", dname,
                              (unsigned)type, import_type ? "CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR"
                                                          : "CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR");
        }
    }
    if (err == CL_SUCCESS && (err = clGetDeviceInfo(devs[0], CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL)) != CL_SUCCESS)
        err = clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_PLATFORM");
    if (err == CL_SUCCESS) err = clmem__ext_of_platform(fn, platform, &clmem__sem_set, &f);
    if (err == CL_SUCCESS && type) {
        const void *x = NULL;
        err = clmem__ext_of_platform(fn, platform, &clmem__xsem_set, &x);
    }
    CLMEM_FREE(devs);
    if (err != CL_SUCCESS) return clmem__semaphore_failed(errcode_ret, err);
    props[k++] = CL_SEMAPHORE_TYPE_KHR;
    props[k++] = CL_SEMAPHORE_TYPE_BINARY_KHR;
    if (import_type) {
        props[k++] = (cl_semaphore_properties_khr)import_type;
        props[k++] = (cl_semaphore_properties_khr)fd;
    }
    if (export_type) {
        props[k++] = CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR;
        props[k++] = (cl_semaphore_properties_khr)export_type;
        props[k++] = CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR;
    }
    if (device) {
        props[k++] = CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR;
        props[k++] = (cl_semaphore_properties_khr)(uintptr_t)device;
        props[k++] = CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR;
    }
    props[k] = 0;
    s.sem = CLMEM__CAST(const clmem__sem_fns *, f)->create(ctx, props, &err);
    s.platform = platform;
    if (err != CL_SUCCESS || !s.sem)
        return clmem__semaphore_failed(errcode_ret, clmem__cl_fail(err ? err : CL_OUT_OF_RESOURCES, fn,
                                                                   "clCreateSemaphoreWithPropertiesKHR"));
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return s;
}

CLMEM_API clmem_semaphore clmem_semaphore_create(cl_context context, cl_device_id device,
                                                 cl_external_semaphore_handle_type_khr export_type, cl_int *errcode_ret) {
    return clmem__semaphore_make("clmem_semaphore_create", context, device, 0, -1, export_type, errcode_ret);
}

CLMEM_API clmem_semaphore clmem_semaphore_import(cl_context context, cl_device_id device,
                                                 cl_external_semaphore_handle_type_khr handle_type, int fd,
                                                 cl_int *errcode_ret) {
    static const char fn[] = "clmem_semaphore_import";
    if (fd < 0) return clmem__semaphore_failed(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "fd %d is no file descriptor", fd));
    if (!handle_type)
        return clmem__semaphore_failed(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "handle_type is 0"));
    return clmem__semaphore_make(fn, context, device, handle_type, fd, 0, errcode_ret);
}

CLMEM_API cl_int clmem_semaphore_export_fd(clmem_semaphore s, cl_device_id device,
                                           cl_external_semaphore_handle_type_khr handle_type, int *fd) {
    static const char fn[] = "clmem_semaphore_export_fd";
    const void *x = NULL;
    cl_int err;
    if (!fd) return clmem__fail(CL_INVALID_VALUE, fn, "fd is NULL");
    *fd = -1;
    if (!s.sem) return clmem__fail(CL_INVALID_VALUE, fn, "s is an empty semaphore handle");
    if ((err = clmem__ext_of_platform(fn, s.platform, &clmem__xsem_set, &x)) != CL_SUCCESS) return err;
    err = CLMEM__CAST(const clmem__xsem_fns *, x)->handle(s.sem, device, handle_type, sizeof *fd, fd, NULL);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clGetSemaphoreHandleForTypeKHR");
}

static cl_int clmem__semaphore_enqueue(const char *fn, cl_command_queue queue, clmem_semaphore s,
                                      const clmem_enqueue_options *opts, bool signal) {
    const clmem_enqueue_options *o = opts;
    const void *f = NULL;
    const clmem__sem_fns *sf;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &o)) != CL_SUCCESS) return err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if (!s.sem) return clmem__fail(CL_INVALID_VALUE, fn, "s is an empty semaphore handle");
    if ((err = clmem__check_wait_list(fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS) return err;
    if ((err = clmem__ext_of_platform(fn, s.platform, &clmem__sem_set, &f)) != CL_SUCCESS) return err;
    sf = CLMEM__CAST(const clmem__sem_fns *, f);
    err = (signal ? sf->signal : sf->wait)(queue, 1, &s.sem, NULL, o->num_wait_for, o->wait_for, o->event);
    return err == CL_SUCCESS ? CL_SUCCESS
                             : clmem__cl_fail(err, fn, signal ? "clEnqueueSignalSemaphoresKHR" : "clEnqueueWaitSemaphoresKHR");
}
CLMEM_API cl_int clmem_enqueue_wait_semaphore_opts(cl_command_queue queue, clmem_semaphore s,
                                                   const clmem_enqueue_options *opts) {
    return clmem__semaphore_enqueue("clmem_enqueue_wait_semaphore", queue, s, opts, false);
}
CLMEM_API cl_int clmem_enqueue_signal_semaphore_opts(cl_command_queue queue, clmem_semaphore s,
                                                     const clmem_enqueue_options *opts) {
    return clmem__semaphore_enqueue("clmem_enqueue_signal_semaphore", queue, s, opts, true);
}

CLMEM_API cl_int clmem_semaphore_release(clmem_semaphore *s) {
    static const char fn[] = "clmem_semaphore_release";
    const void *f = NULL;
    cl_semaphore_khr sem;
    cl_int err;
    if (!s || !s->sem) return CL_SUCCESS;
    if ((err = clmem__ext_of_platform(fn, s->platform, &clmem__sem_set, &f)) != CL_SUCCESS) return err;
    sem = s->sem;
    s->sem = NULL;
    err = CLMEM__CAST(const clmem__sem_fns *, f)->release(sem);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clReleaseSemaphoreKHR");
}
