/* >>memobj (implementation) */

/* clmem__marker(queue, opts...): an enqueue that has nothing to do still honours its
   wait list and produces the event that was asked for. */
static cl_int clmem__nothing_to_do(const char *fn, cl_command_queue queue, const cl_event *wait_for, cl_uint num_wait_for,
                                   cl_event *event) {
    cl_int err;
    if (!event) return CL_SUCCESS;
    err = clEnqueueMarkerWithWaitList(queue, num_wait_for, wait_for, event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
}

/* clmem__wait_list_ok(fn, wait_for, n): before a blocking call, no event of the wait
   list has failed. A blocking read or map that waits on a failed user event hangs in
   PoCL 3.1 (reproduced with bare OpenCL calls); the spec's answer is
   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. A failure of the status query itself
   keeps its own code and names clGetEventInfo. (An event that fails after this check
   is the driver's to report.) */
static cl_int clmem__wait_list_ok(const char *fn, const cl_event *wait_for, cl_uint n) {
    cl_uint i;
    if (!CLMEM__CHECKS) return CL_SUCCESS;
    for (i = 0; i < n; ++i) {
        cl_int status = CL_COMPLETE, err;
        if (!wait_for || !wait_for[i]) continue; /* clmem__check_wait_list reports these */
        err = clGetEventInfo(wait_for[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (err != CL_SUCCESS)
            return clmem__fail(err, fn, "clGetEventInfo(wait_for[%u], CL_EVENT_COMMAND_EXECUTION_STATUS) failed with %s "
                               "(%d)", i, clmem_error_string(err), (int)err);
        if (status < 0)
            return clmem__fail(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, fn,
                               "wait_for[%u] (event %p) has failed with status %d (%s); the blocking call would "
                               "never complete", i, (void *)wait_for[i], (int)status, clmem_error_string(status));
    }
    return CL_SUCCESS;
}

/* clmem__host_access_check(fn, what, flags, write, how): CL_INVALID_OPERATION, in
   words, when the object's HOST_* flags forbid the host access (how: "" for a copy,
   "CL_MAP_READ " or the like for a map, written before the sentence). */
static cl_int clmem__host_access_check(const char *fn, const char *what, cl_mem_flags flags, int write, const char *how) {
    char text[200];
    if (!CLMEM__CHECKS || !clmem__host_forbidden(flags, write)) return CL_SUCCESS;
    return clmem__fail(CL_INVALID_OPERATION, fn, "%sthe host may not %s %s: its flags are %s", how,
                       write ? "write" : "read", what, clmem__mem_flags_text(flags, text, sizeof text));
}

/* clmem__host_wait_check(fn, blocking, wait_for, n): the wait list is well formed,
   and a blocking call waits for no failed event (clmem__wait_list_ok). */
static cl_int clmem__host_wait_check(const char *fn, cl_bool blocking, const cl_event *wait_for, cl_uint n) {
    cl_int err;
    if ((err = clmem__check_wait_list(fn, wait_for, n)) != CL_SUCCESS) return err;
    return blocking ? clmem__wait_list_ok(fn, wait_for, n) : CL_SUCCESS;
}

CLMEM_API cl_int clmem_mem_get_info(cl_mem mem, clmem_mem_info *info) {
    static const char fn[] = "clmem_mem_get_info";
    cl_int err;
    size_t props_size = 0;
    if (!info) return clmem__fail(CL_INVALID_VALUE, fn, "info is NULL");
    memset(info, 0, sizeof *info);
    if (!mem) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "the memory object is NULL (empty or released handle)");
#define CLMEM__MEMQ(param, field)                                                     \
    err = clGetMemObjectInfo(mem, param, sizeof info->field, &info->field, NULL);     \
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(" #param ")");
    CLMEM__MEMQ(CL_MEM_TYPE, type)
    CLMEM__MEMQ(CL_MEM_FLAGS, flags)
    CLMEM__MEMQ(CL_MEM_SIZE, size)
    CLMEM__MEMQ(CL_MEM_HOST_PTR, host_ptr)
    CLMEM__MEMQ(CL_MEM_MAP_COUNT, map_count)
    CLMEM__MEMQ(CL_MEM_REFERENCE_COUNT, reference_count)
    CLMEM__MEMQ(CL_MEM_CONTEXT, context)
    CLMEM__MEMQ(CL_MEM_ASSOCIATED_MEMOBJECT, associated_memobject)
    CLMEM__MEMQ(CL_MEM_OFFSET, offset)
#undef CLMEM__MEMQ
    /* 2.0 and 3.0 queries: absent on older platforms (CL_INVALID_VALUE: an unknown
       query), which is not an error; any other failure is. */
#ifdef CL_MEM_USES_SVM_POINTER
    err = clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof info->uses_svm_pointer, &info->uses_svm_pointer, NULL);
    if (err == CL_INVALID_VALUE) info->uses_svm_pointer = CL_FALSE;
    else if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(CL_MEM_USES_SVM_POINTER)");
#endif
#ifdef CL_MEM_PROPERTIES
    err = clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, 0, NULL, &props_size);
    if (err != CL_SUCCESS && err != CL_INVALID_VALUE) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(CL_MEM_PROPERTIES)");
    if (err == CL_SUCCESS && props_size > 0 && props_size <= sizeof info->properties) {
        err = clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, props_size, info->properties, NULL);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(CL_MEM_PROPERTIES)");
        {
            size_t n = props_size / sizeof(cl_ulong);
            while (n > 0 && info->properties[n - 1] == 0) --n;
            info->num_properties = n;
        }
    }
#else
    (void)props_size;
#endif
    return CL_SUCCESS;
}

CLMEM_API void *clmem_mem_get_host_array(cl_mem mem, size_t nbytes, cl_int *errcode_ret) {
    static const char fn[] = "clmem_memory_object_get_host_array";
    cl_mem_flags flags = 0;
    size_t size = 0;
    void *host = NULL;
    cl_int err;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    if (!mem) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_MEM_OBJECT, fn, "the memory object is NULL"));
        return NULL;
    }
    if ((err = clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL)) != CL_SUCCESS ||
        (err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL)) != CL_SUCCESS ||
        (err = clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof host, &host, NULL)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, clmem__cl_fail(err, fn, "clGetMemObjectInfo"));
        return NULL;
    }
    if (!(flags & CL_MEM_USE_HOST_PTR)) {
        char text[160];
        clmem__set_err(errcode_ret,
                       clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                                   "only objects created with CL_MEM_USE_HOST_PTR have a host array (flags are %s)",
                                   clmem__mem_flags_text(flags, text, sizeof text)));
        return NULL;
    }
    if (nbytes > size) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                "nbytes %zu is more than the object's %zu bytes", nbytes, size));
        return NULL;
    }
    return host;
}

CLMEM_API cl_int clmem__object_get_info(cl_mem mem, int stale, clmem_mem_info *info) {
    if (CLMEM__CHECKS && stale) {
        if (info) memset(info, 0, sizeof *info);
        return clmem__fail(CL_INVALID_MEM_OBJECT, "clmem_memory_object_get_info",
                           "obj is a stale pooled buffer handle: its block was released (it may belong to another "
                           "owner now)");
    }
    return clmem_mem_get_info(mem, info);
}

CLMEM_API void *clmem_mem_hostbuf(cl_mem mem) {
    cl_mem_flags flags = 0;
    void *host = NULL;
    if (!mem || clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS) return NULL;
    if (!(flags & CL_MEM_USE_HOST_PTR)) return NULL;
    if (clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof host, &host, NULL) != CL_SUCCESS) return NULL;
    return host;
}

CLMEM_API size_t clmem_mem_hash(cl_mem mem) {
    /* Pointer identity, mixed so that aligned pointers spread over hash buckets. */
    uint64_t x = (uint64_t)(uintptr_t)mem;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

/* clmem__enqueue_migrate: clEnqueueMigrateMemObjects, one call at a time in the
   process. NVIDIA's OpenCL 3.0 driver (580.159) crashes when threads migrate onto one
   queue at once, and when a migration meets another thread's write on that queue
   (bare calls, 4 threads x 100 rounds: every run; concurrent clCreateBuffer, concurrent
   writes, and one queue per thread do not crash). The lock covers the first case; a
   migration is an enqueue of microseconds, so it costs nothing measurable. */
static clmem__mutex clmem__migrate_lock = CLMEM__MUTEX_INIT;
static cl_int clmem__enqueue_migrate(cl_command_queue queue, cl_uint n, const cl_mem *objects,
                                     cl_mem_migration_flags flags, cl_uint num_wait, const cl_event *wait,
                                     cl_event *event) {
    cl_int err;
    clmem__lock(&clmem__migrate_lock);
    err = clEnqueueMigrateMemObjects(queue, n, objects, flags, num_wait, wait, event);
    clmem__unlock(&clmem__migrate_lock);
    return err;
}

CLMEM_API cl_int clmem_enqueue_migrate_mem_objects_opts(cl_command_queue queue, const cl_mem *objects, cl_uint n,
                                                        cl_mem_migration_flags flags, const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_migrate_mem_objects";
    static const clmem_enqueue_options none = CLMEM__ZERO;
    const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    cl_device_id dev = NULL;
    cl_int err;
    cl_uint i;
    if (!opts) opts = &none;
    if (CLMEM__CHECKS) {
        cl_context qctx = NULL;
        if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
        if ((err = clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for)) != CL_SUCCESS) return err;
        if (n == 0 || objects == NULL)
            return clmem__fail(CL_INVALID_VALUE, fn, "no memory objects given (objects %p, n %u)", (const void *)objects, n);
        if (flags & ~known)
            return clmem__fail(CL_INVALID_VALUE, fn, "flags 0x%llx has unknown bits 0x%llx", (unsigned long long)flags,
                               (unsigned long long)(flags & ~known));
        err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
        if (err == CL_INVALID_COMMAND_QUEUE)
            return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is not a valid command queue", (void *)queue);
        if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
        for (i = 0; i < n; ++i) {
            cl_context c = NULL;
            if (!objects[i]) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "objects[%u] is NULL", i);
            err = clGetMemObjectInfo(objects[i], CL_MEM_CONTEXT, sizeof c, &c, NULL);
            if (err == CL_INVALID_MEM_OBJECT)
                return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "objects[%u] is not a valid memory object", i);
            if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetMemObjectInfo", "CL_MEM_CONTEXT");
            if (c != qctx)
                return clmem__fail(CL_INVALID_CONTEXT, fn, "objects[%u] belongs to context %p, the queue to %p", i,
                                   (void *)c, (void *)qctx);
        }
    }
    err = clmem__enqueue_migrate(queue, n, objects, flags, opts->num_wait_for, opts->wait_for, opts->event);
    if (err == CL_SUCCESS) return CL_SUCCESS;
    /* asked only on failure (it cost a third of a call when asked every time) */
    if (CLMEM__CHECKS && clmem__device_version(clmem__queue_device_of(fn, queue, &dev) == CL_SUCCESS ? dev : NULL) < 120)
        return clmem__fail(CL_INVALID_OPERATION, fn, "the queue's device is older than OpenCL 1.2 (no migration)");
    return clmem__cl_fail(err, fn, "clEnqueueMigrateMemObjects");
}
