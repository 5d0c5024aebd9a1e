/* >>transfer_dispatch (implementation): what reaches every pair of the transfer module:
   raw cl_mem copies dispatched at run time by CL_MEM_TYPE, and fills (buffer, SVM or USM) */
#include "transfer.h"

/* ---- raw cl_mem: dispatched at run time by CL_MEM_TYPE ---- */

typedef struct clmem__any {
    bool is_image;
    clmem_buffer buffer;
    clmem_image image;
} clmem__any;

/* clmem__refail(err, what, mem): a wrapping helper failed; its message named itself:
   say it again in the name of clmem_enqueue_copy, which the user called. */
static cl_int clmem__refail(cl_int err, const char *what, cl_mem mem) {
    char why[768];
    const char *m = clmem_last_error_message(), *colon = strstr(m, ": ");
    snprintf(why, sizeof why, "%s", colon ? colon + 2 : m);
    return clmem__fail(err, CLMEM__COPY, "%s (cl_mem %p): %s", what, (void *)mem, why);
}

static cl_int clmem__any_of(cl_mem mem, const char *what, clmem__any *a) {
    cl_mem_object_type type = 0;
    cl_int err;
    memset(a, 0, sizeof *a);
    if (!mem) return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s is a NULL cl_mem", what);
    err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_INVALID_MEM_OBJECT)
        return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s (%p) is not a valid memory object", what, (void *)mem);
    if (err != CL_SUCCESS)
        return clmem__fail(err, CLMEM__COPY, "clGetMemObjectInfo(%s %p, CL_MEM_TYPE) failed with %s (%d)", what,
                           (void *)mem, clmem_error_string(err), (int)err);
    if (type == CL_MEM_OBJECT_BUFFER) { /* the five facts a copy needs, not every mem_info */
        clmem_buffer *b = &a->buffer;
        cl_mem parent = NULL;
        size_t offset = 0;
        if ((err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof b->context, &b->context, NULL)) != CL_SUCCESS ||
            (err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof b->size, &b->size, NULL)) != CL_SUCCESS ||
            (err = clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof b->flags, &b->flags, NULL)) != CL_SUCCESS ||
            (err = clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL)) != CL_SUCCESS ||
            (parent && (err = clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof offset, &offset, NULL)) != CL_SUCCESS))
            return clmem__fail(err, CLMEM__COPY, "clGetMemObjectInfo(%s %p) failed with %s (%d)", what, (void *)mem,
                               clmem_error_string(err), (int)err);
        b->mem = mem;
        b->root = parent ? parent : mem;
        b->origin = parent ? offset : 0;
        return CL_SUCCESS;
    }
#ifdef CL_VERSION_2_0
    if (type == CL_MEM_OBJECT_PIPE)
        return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s is a pipe; pipes cannot be copied", what);
#endif
    if (!clmem__is_image_type(type))
        return clmem__fail(CL_INVALID_MEM_OBJECT, CLMEM__COPY, "%s (%p) has CL_MEM_TYPE 0x%x, neither a buffer nor an image",
                           what, (void *)mem, (unsigned)type);
    a->is_image = true;
    a->image = clmem_image_from_int_ptr(mem, false, &err);
    return err == CL_SUCCESS ? err : clmem__refail(err, what, mem);
}

CLMEM_API cl_int clmem__copy_mem_from_mem(cl_command_queue queue, cl_mem dst, cl_mem src, const clmem_copy_options *o) {
    clmem__any d, s;
    cl_int err;
    if ((err = clmem__any_of(dst, "dst", &d)) != CL_SUCCESS || (err = clmem__any_of(src, "src", &s)) != CL_SUCCESS)
        return err;
    if (d.is_image)
        return s.is_image ? clmem__copy_image_from_image(queue, d.image, s.image, o)
                          : clmem__copy_image_from_buffer(queue, d.image, s.buffer, o);
    return s.is_image ? clmem__copy_buffer_from_image(queue, d.buffer, s.image, o)
                      : clmem__copy_buffer_from_buffer(queue, d.buffer, s.buffer, o);
}
/* The pairs with one raw side: the raw side is looked up (clmem__any_of), then the
   image's or the buffer's pair copies. CLMEM__RAW_DST(kind, T): dst a cl_mem, src a
   `kind` of type T; CLMEM__RAW_SRC(kind, T): the reverse. */
#define CLMEM__RAW_DST(kind, T)                                                                                   \
    CLMEM_API cl_int clmem__copy_mem_from_##kind(cl_command_queue queue, cl_mem dst, T src, const clmem_copy_options *o) { \
        clmem__any d;                                                                                             \
        cl_int err = clmem__any_of(dst, "dst", &d);                                                               \
        if (err != CL_SUCCESS) return err;                                                                        \
        return d.is_image ? clmem__copy_image_from_##kind(queue, d.image, src, o)                                 \
                          : clmem__copy_buffer_from_##kind(queue, d.buffer, src, o);                              \
    }
#define CLMEM__RAW_SRC(kind, T)                                                                                   \
    CLMEM_API cl_int clmem__copy_##kind##_from_mem(cl_command_queue queue, T dst, cl_mem src, const clmem_copy_options *o) { \
        clmem__any s;                                                                                             \
        cl_int err = clmem__any_of(src, "src", &s);                                                               \
        if (err != CL_SUCCESS) return err;                                                                        \
        return s.is_image ? clmem__copy_##kind##_from_image(queue, dst, s.image, o)                               \
                          : clmem__copy_##kind##_from_buffer(queue, dst, s.buffer, o);                            \
    }
/* host, and the kinds of CLMEM__KINDS (memobj.h) with copy 1 and mem 1: buffer, image */
#define CLMEM__RAW_PAIRS(T, name) CLMEM__RAW_DST(name, T) CLMEM__RAW_SRC(name, T)
CLMEM__RAW_DST(host, const void *)
CLMEM__RAW_SRC(host, void *)
CLMEM__KINDS(CLMEM__KIND_IF_COPY_MEM, CLMEM__RAW_PAIRS)
#undef CLMEM__RAW_PAIRS
#undef CLMEM__RAW_DST
#undef CLMEM__RAW_SRC

CLMEM_API cl_int clmem__copy_unsupported(cl_command_queue queue, ...) {
    (void)queue;
    return clmem__fail(CL_INVALID_OPERATION, CLMEM__COPY, "OpenCL has no copy between these types");
}

/* ---- fills ---- */

static cl_int clmem__fill_run(cl_command_queue queue, clmem__fill_target dst, const void *pattern, size_t pattern_size,
                              size_t size, const clmem_fill_options *o) {
    static const clmem_fill_options none = CLMEM_OPTIONS_INIT;
    clmem_enqueue_options eo;
    cl_int err;
    if (!o) o = &none;
    if ((err = clmem__check_made("clmem_enqueue_fill", o->given)) != CL_SUCCESS) return err;
    if (!dst.buffer.mem && dst.svm.ptr) return clmem__fill_svm(queue, dst.svm, pattern, pattern_size, size, o);
    if (!dst.buffer.mem && dst.usm.ptr) return clmem__fill_usm(queue, dst.usm, pattern, pattern_size, size, o);
    if (CLMEM__CHECKS && !dst.buffer.mem && !dst.svm.ptr)
        return clmem__fail(CL_INVALID_MEM_OBJECT, "clmem_enqueue_fill", "dst is an empty or released handle");
    eo.given = CLMEM_OPTIONS_MARK;
    eo.wait_for = o->wait_for;
    eo.num_wait_for = o->num_wait_for;
    eo.event = o->event;
    err = clmem_enqueue_fill_buffer_opts(queue, dst.buffer, pattern, pattern_size, o->offset, size, &eo);
    /* the message names clmem_enqueue_fill, the function the user called */
    return err == CL_SUCCESS ? err : clmem__refail_as("clmem_enqueue_fill", err);
}

#define CLMEM__FILL_DEF(T, name)                                                                          \
    CLMEM_API cl_int clmem__fill_##name(cl_command_queue queue, clmem__fill_target dst, T pattern, size_t size, \
                                        const clmem_fill_options *opts) {                                 \
        if (CLMEM__CHECKS && opts && opts->pattern_size && opts->pattern_size != sizeof pattern)          \
            return clmem__fail(CL_INVALID_VALUE, "clmem_enqueue_fill",                                    \
                               "pattern_size %zu contradicts the pattern's type " #T " (%zu bytes)",       \
                               opts->pattern_size, sizeof pattern);                                       \
        return clmem__fill_run(queue, dst, &pattern, sizeof pattern, size, opts);                         \
    }
CLMEM__PATTERN_TYPES(CLMEM__FILL_DEF)
#undef CLMEM__FILL_DEF

CLMEM_API cl_int clmem__fill_ptr(cl_command_queue queue, clmem__fill_target dst, const void *pattern, size_t size,
                                 const clmem_fill_options *opts) {
    if (CLMEM__CHECKS && (!opts || !opts->pattern_size))
        return clmem__fail(CL_INVALID_VALUE, "clmem_enqueue_fill",
                           "the pattern is a pointer, so .pattern_size must say how many bytes it has");
    return clmem__fill_run(queue, dst, pattern, opts->pattern_size, size, opts);
}
