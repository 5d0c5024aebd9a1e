/* >>buffer (implementation) */
#include "buffer.h"


#define CLMEM__ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define CLMEM__HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define CLMEM__HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
/* Bit 6 is vendor-defined (CL_MEM_USE_PERSISTENT_MEM_AMD, CL_MEM_IMMUTABLE_EXT): passed on. */
#define CLMEM__BUFFER_FLAGS (CLMEM__ACCESS_FLAGS | CLMEM__HOST_PTR_FLAGS | CLMEM__HOST_ACCESS_FLAGS | ((cl_mem_flags)1 << 6))

static unsigned clmem__popcount(cl_mem_flags f) {
    unsigned n = 0;
    for (; f; f &= f - 1) ++n;
    return n;
}

/* clmem__check_mem_flags(fn, flags, known): the conflicts every memory object shares. */
static cl_int clmem__check_mem_flags(const char *fn, cl_mem_flags flags, cl_mem_flags known) {
    char text[200];
    if (flags & ~known)
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s: unknown bits 0x%llx", clmem__mem_flags_text(flags, text, sizeof text),
                           (unsigned long long)(flags & ~known));
    if (clmem__popcount(flags & CLMEM__ACCESS_FLAGS) > 1)
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s: READ_WRITE, WRITE_ONLY and READ_ONLY exclude each other",
                           clmem__mem_flags_text(flags, text, sizeof text));
    if (clmem__popcount(flags & CLMEM__HOST_ACCESS_FLAGS) > 1)
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "flags %s: HOST_WRITE_ONLY, HOST_READ_ONLY and HOST_NO_ACCESS exclude each other",
                           clmem__mem_flags_text(flags, text, sizeof text));
    if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s: USE_HOST_PTR excludes COPY_HOST_PTR and ALLOC_HOST_PTR",
                           clmem__mem_flags_text(flags, text, sizeof text));
    return CL_SUCCESS;
}

/* clmem__check_host_ptr(fn, flags, host): a host pointer goes with USE/COPY_HOST_PTR. */
static cl_int clmem__check_host_ptr(const char *fn, cl_mem_flags flags, const void *host) {
    char text[200];
    bool wants = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    if (wants && !host)
        return clmem__fail(CL_INVALID_HOST_PTR, fn, "flags %s need a host pointer but hostbuf is NULL",
                           clmem__mem_flags_text(flags, text, sizeof text));
    if (!wants && host)
        return clmem__fail(CL_INVALID_HOST_PTR, fn,
                           "hostbuf %p is given but flags %s have neither USE_HOST_PTR nor COPY_HOST_PTR", host,
                           clmem__mem_flags_text(flags, text, sizeof text));
    return CL_SUCCESS;
}

/* clmem__check_alloc_size(fn, ctx, size): size is at most CL_DEVICE_MAX_MEM_ALLOC_SIZE of
   every device of the context. */
static cl_int clmem__check_alloc_size(const char *fn, cl_context ctx, size_t size) {
    cl_uint n = 0, i;
    cl_int result = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &result);
    if (!devs) return result;
    for (i = 0; i < n && result == CL_SUCCESS; ++i) {
        cl_ulong max = 0;
        if ((result = clmem__device_max_alloc(fn, devs[i], &max)) == CL_SUCCESS)
            result = clmem__check_max_alloc(fn, devs[i], "size", size, max);
    }
    CLMEM_FREE(devs);
    return result;
}

/* clmem__check_pooled_ptr(fn, what, kind, record, generation, ptr): a pooled pointer
   handle (kind "SVM" or "USM") must still be handed out: CL_SUCCESS, or
   CL_INVALID_VALUE with a message when it is a stale copy (clmem__handout_stale). */
static cl_int clmem__check_pooled_ptr(const char *fn, const char *what, const char *kind, const void *record,
                                      uint64_t generation, const void *ptr) {
    if (!clmem__handout_stale(record, generation)) return CL_SUCCESS;
    return clmem__fail(CL_INVALID_VALUE, fn,
                       "%s (%s pointer %p) is a stale pooled %s handle: its block was released to its pool "
                       "(it may belong to another owner now)", what, kind, clmem__unconst(ptr), kind);
}

static clmem_buffer clmem__buffer_empty(void) {
    clmem_buffer b;
    memset(&b, 0, sizeof b);
    return b;
}

/* clmem__buffer_failed(errcode_ret, err): a buffer constructor's failure exit: the
   code, and an empty handle. */
static clmem_buffer clmem__buffer_failed(cl_int *errcode_ret, cl_int err) {
    clmem__set_err(errcode_ret, err);
    return clmem__buffer_empty();
}

/* what clmem_buffer_create checks before the driver */
static cl_int clmem__buffer_create_check(const char *fn, cl_context context, cl_mem_flags flags, size_t size,
                                         const void *hostbuf) {
    cl_int err;
    if (!context) return clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
    if ((err = clmem__check_mem_flags(fn, flags, CLMEM__BUFFER_FLAGS)) != CL_SUCCESS ||
        (err = clmem__check_host_ptr(fn, flags, hostbuf)) != CL_SUCCESS)
        return err;
    if (size == 0) return clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size is 0");
    return clmem__check_alloc_size(fn, context, size);
}

CLMEM_API clmem_buffer clmem_buffer_create(cl_context context, cl_mem_flags flags, size_t size, void *hostbuf,
                                           cl_int *errcode_ret) {
    static const char fn[] = "clmem_buffer_create";
    clmem_buffer b = clmem__buffer_empty();
    cl_int err;
    if (CLMEM__CHECKS && (err = clmem__buffer_create_check(fn, context, flags, size, hostbuf)) != CL_SUCCESS)
        return clmem__buffer_failed(errcode_ret, err);
    b.mem = clCreateBuffer(context, flags, size, hostbuf, &err);
    if (err != CL_SUCCESS || !b.mem)
        return clmem__buffer_failed(errcode_ret,
                                    clmem__cl_fail(err != CL_SUCCESS ? err : CL_OUT_OF_RESOURCES, fn, "clCreateBuffer"));
    b.context = context;
    b.size = size;
    b.flags = flags ? flags : CL_MEM_READ_WRITE;
    b.root = b.mem;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return b;
}

/* clmem__buffer_invalid(fn, what, b): CL_INVALID_MEM_OBJECT, in words, for an empty or
   released handle or a stale copy of a pooled one (its block was released since);
   CL_SUCCESS otherwise. Every call that takes a clmem_buffer asks this first. */
static cl_int clmem__buffer_invalid(const char *fn, const char *what, clmem_buffer b) {
    if (!b.mem) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "%s is an empty or released buffer handle", what);
    if (clmem__buffer_stale(b))
        return clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                           "%s is a stale pooled buffer handle: its block was released (it may belong to another owner "
                           "now)", what);
    return CL_SUCCESS;
}

CLMEM_API clmem_buffer clmem_buffer_from_int_ptr(cl_mem mem, bool retain, cl_int *errcode_ret) {
    static const char fn[] = "clmem_buffer_from_int_ptr";
    clmem_buffer b = clmem__buffer_empty();
    clmem_mem_info info;
    cl_int err;
    if (!mem) return clmem__buffer_failed(errcode_ret, clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem is NULL"));
    if ((err = clmem_mem_get_info(mem, &info)) != CL_SUCCESS) {
        if (err == CL_INVALID_MEM_OBJECT)
            err = clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem %p is not a valid memory object", (void *)mem);
        else /* a failed query keeps its code; clmem_mem_get_info named it */
            err = clmem__refail_as(fn, err);
        return clmem__buffer_failed(errcode_ret, err);
    }
    if (info.type != CL_MEM_OBJECT_BUFFER)
        return clmem__buffer_failed(errcode_ret, clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem %p is not a buffer (CL_MEM_TYPE 0x%x)",
                                                             (void *)mem, (unsigned)info.type));
    if (retain && (err = clRetainMemObject(mem)) != CL_SUCCESS)
        return clmem__buffer_failed(errcode_ret, clmem__cl_fail(err, fn, "clRetainMemObject"));
    b.mem = mem;
    b.context = info.context;
    b.size = info.size;
    b.flags = info.flags;
    b.root = info.associated_memobject ? info.associated_memobject : mem;
    b.origin = info.associated_memobject ? info.offset : 0;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return b;
}

CLMEM_API cl_int clmem_buffer_release(clmem_buffer *buf) {
    cl_mem mem;
    if (!buf || !buf->mem) return CL_SUCCESS;
    if (buf->pool) {
        clmem__map_note_use(buf->mem, "clmem_buffer_release");
        return CLMEM__CAST(const clmem__buffer_owner *, buf->pool)->release(buf);
    }
    mem = buf->mem;
    *buf = clmem__buffer_empty();
    return clmem__release_mem("clmem_buffer_release", mem);
}

/* clmem__check_sub_flags(fn, parent, flags): what a sub-buffer may ask of its parent. */
static cl_int clmem__check_sub_flags(const char *fn, cl_mem_flags parent, cl_mem_flags flags) {
    char text[200], ptext[200];
    cl_int err;
    if (flags & CLMEM__HOST_PTR_FLAGS)
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s: a sub-buffer inherits host-pointer flags; do not pass them",
                           clmem__mem_flags_text(flags, text, sizeof text));
    if ((err = clmem__check_mem_flags(fn, flags, CLMEM__ACCESS_FLAGS | CLMEM__HOST_ACCESS_FLAGS)) != CL_SUCCESS) return err;
    if (((parent & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((parent & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((parent & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((parent & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((parent & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s ask for access the parent's flags %s forbid",
                           clmem__mem_flags_text(flags, text, sizeof text), clmem__mem_flags_text(parent, ptext, sizeof ptext));
    return CL_SUCCESS;
}

/* clmem__check_sub_alignment(fn, ctx, origin): origin (in the root) is a multiple of
   CL_DEVICE_MEM_BASE_ADDR_ALIGN (bits) of every device of the context, as
   clmem_buffer_get_sub_region documents. OpenCL itself refuses only when no device
   has it aligned, and then fails the enqueues on the other devices' queues
   (CL_MISALIGNED_SUB_BUFFER_OFFSET); refusing here names the device at once. */
static cl_int clmem__check_sub_alignment(const char *fn, cl_context ctx, size_t origin) {
    cl_uint n = 0, i;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &err);
    if (!devs) return err;
    for (i = 0; i < n; ++i) {
        cl_uint bits = 0, bytes;
        if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL)) != CL_SUCCESS) {
            CLMEM_FREE(devs);
            return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_MEM_BASE_ADDR_ALIGN");
        }
        bytes = bits / 8 ? bits / 8 : 1;
        if (origin % bytes != 0) {
            char name[128] = {0};
            clGetDeviceInfo(devs[i], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
            CLMEM_FREE(devs);
            if (n == 1)
                return clmem__fail(CL_MISALIGNED_SUB_BUFFER_OFFSET, fn,
                                   "origin %zu (in the root buffer) is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN "
                                   "(%u bytes) of device '%s'",
                                   origin, bytes, name);
            return clmem__fail(CL_MISALIGNED_SUB_BUFFER_OFFSET, fn,
                               "origin %zu (in the root buffer) is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN (%u "
                               "bytes) of device %u '%s' of the context's %u devices (a sub-buffer must be aligned for "
                               "every device of its context)",
                               origin, bytes, i, name, n);
        }
    }
    CLMEM_FREE(devs);
    return CL_SUCCESS;
}

CLMEM_API clmem_buffer clmem_buffer_get_sub_region(clmem_buffer buf, size_t origin, size_t size, cl_mem_flags flags,
                                                   cl_int *errcode_ret) {
    static const char fn[] = "clmem_buffer_get_sub_region";
    clmem_buffer sub = clmem__buffer_empty();
    cl_buffer_region region;
    cl_int err;
    size_t root_origin = buf.origin + origin;
    if (CLMEM__CHECKS) {
        if ((err = clmem__buffer_invalid(fn, "buf", buf)) != CL_SUCCESS) {
            clmem__set_err(errcode_ret, err);
            return sub;
        }
        if (size == 0) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size is 0"));
            return sub;
        }
        if (!clmem__range_ok(origin, size, buf.size)) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                    "origin %zu + size %zu is beyond the buffer's %zu bytes", origin, size,
                                                    buf.size));
            return sub;
        }
        if ((err = clmem__check_sub_flags(fn, buf.flags, flags)) != CL_SUCCESS ||
            (err = clmem__check_sub_alignment(fn, buf.context, root_origin)) != CL_SUCCESS) {
            clmem__set_err(errcode_ret, err);
            return sub;
        }
    }
    region.origin = root_origin;
    region.size = size;
    sub.mem = clCreateSubBuffer(buf.root ? buf.root : buf.mem, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err != CL_SUCCESS || !sub.mem) {
        clmem__set_err(errcode_ret, clmem__cl_fail(err != CL_SUCCESS ? err : CL_OUT_OF_RESOURCES, fn, "clCreateSubBuffer"));
        return clmem__buffer_empty();
    }
    sub.context = buf.context;
    sub.size = size;
    sub.root = buf.root ? buf.root : buf.mem;
    sub.origin = root_origin;
    /* the flags the sub-buffer inherited, as the driver resolved them */
    if ((err = clGetMemObjectInfo(sub.mem, CL_MEM_FLAGS, sizeof sub.flags, &sub.flags, NULL)) != CL_SUCCESS) {
        clReleaseMemObject(sub.mem);
        clmem__set_err(errcode_ret, clmem__cl_fail(err, fn, "clGetMemObjectInfo(CL_MEM_FLAGS)"));
        return clmem__buffer_empty();
    }
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return sub;
}

CLMEM_API clmem_buffer clmem_buffer_slice(clmem_buffer buf, ptrdiff_t start, ptrdiff_t stop, cl_int *errcode_ret) {
    static const char fn[] = "clmem_buffer_slice";
    ptrdiff_t len = (ptrdiff_t)buf.size, a = start, b = stop;
    cl_int err;
    if ((err = clmem__buffer_invalid(fn, "buf", buf)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return clmem__buffer_empty();
    }
    /* Python's slice.indices(len) with step 1. */
    if (a < 0) a = a + len < 0 ? 0 : a + len;
    if (a > len) a = len;
    if (b < 0) b = b + len < 0 ? 0 : b + len;
    if (b > len) b = len;
    if (b <= a) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                "slice [%td:%td] of a %zu-byte buffer is empty", start, stop, buf.size));
        return clmem__buffer_empty();
    }
    return clmem_buffer_get_sub_region(buf, (size_t)a, (size_t)(b - a), 0, errcode_ret);
}

CLMEM_API void *clmem_buffer_hostbuf(clmem_buffer buf) { return clmem_mem_hostbuf(buf.mem); }

static bool clmem__valid_pattern_size(size_t s) {
    return s == 1 || s == 2 || s == 4 || s == 8 || s == 16 || s == 32 || s == 64 || s == 128;
}

CLMEM_API cl_int clmem_enqueue_fill_buffer_opts(cl_command_queue queue, clmem_buffer buf, const void *pattern,
                                                size_t pattern_size, size_t offset, size_t size,
                                                const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_fill_buffer";
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if (CLMEM__CHECKS) {
        if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
        if ((err = clmem__buffer_invalid(fn, "buf", buf)) != CL_SUCCESS) return err;
        if ((err = clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for)) != CL_SUCCESS) return err;
        if (!pattern) return clmem__fail(CL_INVALID_VALUE, fn, "pattern is NULL");
        if (!clmem__valid_pattern_size(pattern_size))
            return clmem__fail(CL_INVALID_VALUE, fn, "pattern_size %zu is not one of 1, 2, 4, 8, 16, 32, 64, 128",
                               pattern_size);
        if (offset % pattern_size || size % pattern_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "offset %zu and size %zu must be multiples of pattern_size %zu",
                               offset, size, pattern_size);
        if (!clmem__range_ok(offset, size, buf.size))
            return clmem__fail(CL_INVALID_VALUE, fn, "offset %zu + size %zu is beyond the buffer's %zu bytes", offset,
                               size, buf.size);
        if ((err = clmem__same_context(fn, queue, buf.context, "buf")) != CL_SUCCESS) return err;
    }
    if (size == 0) return clmem__nothing_to_do(fn, queue, opts->wait_for, opts->num_wait_for, opts->event);
    err = clEnqueueFillBuffer(queue, buf.mem, pattern, pattern_size, offset, size, opts->num_wait_for, opts->wait_for,
                              opts->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueFillBuffer");
}
