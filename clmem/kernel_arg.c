/* >>kernel_arg (implementation): the check of a value against the parameter's
   declared type, and one setter per kind of value */
#include "kernel_arg.h"

/* The kinds of value a setter passes to clmem__check_kernel_arg: integer and
   floating-point values, and the kinds of kernel argument of CLMEM__KINDS (memobj.h),
   each CLMEM__ARG_KIND_<ARG> (CLMEM__ARG_KIND_BUFFER, _MEM, _LOCAL, _SVM, _USM, _IMAGE,
   _SAMPLER, _PIPE). */
#define CLMEM__ARG_KIND_ENUM(T, name, ARG, arg, text) CLMEM__ARG_KIND_##ARG,
enum { CLMEM__ARG_KIND_INT = 1, CLMEM__ARG_KIND_FLOAT, CLMEM__KINDS(CLMEM__KIND_IF_ARG, CLMEM__ARG_KIND_ENUM) };
#undef CLMEM__ARG_KIND_ENUM
/* how messages name a kind (its row's text) */
static const char *clmem__arg_kind_text(int kind) {
#define CLMEM__ARG_KIND_TEXT(T, name, ARG, arg, text) \
    if (kind == CLMEM__ARG_KIND_##ARG) return text;
    CLMEM__KINDS(CLMEM__KIND_IF_ARG, CLMEM__ARG_KIND_TEXT)
#undef CLMEM__ARG_KIND_TEXT
    return "a value";
}
#if !defined(CLMEM_NO_KERNEL_ARG_CHECK)
/* a memory object (arg P or M in CLMEM__KINDS), and of those a pointer (P) */
#define CLMEM__KIND_MEMORY_P CLMEM__KIND_YES
#define CLMEM__KIND_MEMORY_M CLMEM__KIND_YES
#define CLMEM__KIND_MEMORY_S CLMEM__KIND_NO
#define CLMEM__KIND_MEMORY_L CLMEM__KIND_NO
#define CLMEM__KIND_POINTER_P CLMEM__KIND_YES
#define CLMEM__KIND_POINTER_M CLMEM__KIND_NO
#define CLMEM__KIND_POINTER_S CLMEM__KIND_NO
#define CLMEM__KIND_POINTER_L CLMEM__KIND_NO
static bool clmem__arg_is_memory(int kind) {
#define CLMEM__ARG_KIND_MEMORY(T, name, ARG, arg, text) CLMEM__KIND_MEMORY_##arg(if (kind == CLMEM__ARG_KIND_##ARG) return true;)
    CLMEM__KINDS(CLMEM__KIND_IF_ARG, CLMEM__ARG_KIND_MEMORY)
#undef CLMEM__ARG_KIND_MEMORY
    return false;
}
static bool clmem__arg_is_pointer(int kind) {
#define CLMEM__ARG_KIND_POINTER(T, name, ARG, arg, text) CLMEM__KIND_POINTER_##arg(if (kind == CLMEM__ARG_KIND_##ARG) return true;)
    CLMEM__KINDS(CLMEM__KIND_IF_ARG, CLMEM__ARG_KIND_POINTER)
#undef CLMEM__ARG_KIND_POINTER
    return false;
}
#endif

/* The check of a value against the kernel parameter's declared type
   (clGetKernelArgInfo, available where the program was built with
   -cl-kernel-arg-info; otherwise CL_KERNEL_ARG_INFO_NOT_AVAILABLE and nothing is
   checked). One query for a scalar (the type name), two for a buffer or an SVM
   pointer (type name and address space), one for local memory (address space); more
   only on the way to a rejection. No cache: a cl_kernel's address is reused by the
   next kernel once it is released, and OpenCL tells nobody. CLMEM_NO_VALIDATION or
   CLMEM_NO_KERNEL_ARG_CHECK compiles it out. */
#if !defined(CLMEM_NO_KERNEL_ARG_CHECK)
enum {
    CLMEM__PARAM_UNKNOWN = 0, /* a struct, a typedef name, queue_t, ...: not checked */
    CLMEM__PARAM_SCALAR,      /* a scalar or vector of a built-in type */
    CLMEM__PARAM_POINTER,     /* a pointer (to __global, __constant or __local) */
    CLMEM__PARAM_IMAGE,
    CLMEM__PARAM_SAMPLER
};

typedef struct clmem__param_type {
    int kind;
    size_t size;   /* scalars: bytes; 0 when device-dependent (size_t, ptrdiff_t, ...) */
    int floating;  /* scalars: 1 float/double, 0 integer, 2 half (any 2-byte value) */
} clmem__param_type;

/* The parameter type from its CL_KERNEL_ARG_TYPE_NAME (whitespace removed). */
static clmem__param_type clmem__param_classify(const char *t) {
    static const struct {
        const char *name;
        unsigned char len, size, floating;
    } scalars[] = {{"char", 4, 1, 0},          {"uchar", 5, 1, 0},          {"short", 5, 2, 0},
                   {"ushort", 6, 2, 0},        {"int", 3, 4, 0},            {"uint", 4, 4, 0},
                   {"long", 4, 8, 0},          {"ulong", 5, 8, 0},          {"half", 4, 2, 2},
                   {"float", 5, 4, 1},         {"double", 6, 8, 1},         {"unsignedchar", 12, 1, 0},
                   {"unsignedshort", 13, 2, 0}, {"unsignedint", 11, 4, 0},  {"unsignedlong", 12, 8, 0},
                   {"signedchar", 10, 1, 0},   {"size_t", 6, 0, 0},         {"ptrdiff_t", 9, 0, 0},
                   {"intptr_t", 8, 0, 0},      {"uintptr_t", 9, 0, 0}};
    clmem__param_type p;
    size_t len = strlen(t), base = len, i;
    unsigned width = 1;
    p.kind = CLMEM__PARAM_UNKNOWN;
    p.size = 0;
    p.floating = 0;
    if (len == 0) return p;
    if (t[len - 1] == '*') {
        p.kind = CLMEM__PARAM_POINTER;
        return p;
    }
    if (strcmp(t, "sampler_t") == 0) {
        p.kind = CLMEM__PARAM_SAMPLER;
        return p;
    }
    if (strncmp(t, "image", 5) == 0 && len > 7 && strcmp(t + len - 2, "_t") == 0) {
        p.kind = CLMEM__PARAM_IMAGE;
        return p;
    }
    while (base > 0 && t[base - 1] >= '0' && t[base - 1] <= '9') --base;
    if (base < len) {
        width = 0;
        for (i = base; i < len && width < 100; ++i) width = width * 10 + (unsigned)(t[i] - '0');
        if (width != 2 && width != 3 && width != 4 && width != 8 && width != 16) return p;
    }
    for (i = 0; i < sizeof scalars / sizeof scalars[0]; ++i)
        if (scalars[i].len == base && memcmp(t, scalars[i].name, base) == 0) {
            if (width > 1 && scalars[i].size == 0) return p; /* no size_t4 */
            p.kind = CLMEM__PARAM_SCALAR;
            p.size = (size_t)scalars[i].size * (width == 3 ? 4 : width);
            p.floating = scalars[i].floating;
            return p;
        }
    return p;
}


/* Reject argument `index` with code: "argument 2 ('n', declared __global float*) is
   given <what>: <why>". */
static cl_int clmem__arg_reject(cl_int code, cl_kernel kernel, cl_uint index, const char *declared, const char *space,
                                int kind, const char *value_type, size_t size, const char *why) {
    char name[64] = "?", given[96];
    if (kind == CLMEM__ARG_KIND_INT || kind == CLMEM__ARG_KIND_FLOAT)
        snprintf(given, sizeof given, "%s %s (%zu byte%s)", strchr("aeiou", value_type[0]) ? "an" : "a", value_type, size,
                 size == 1 ? "" : "s");
    else
        snprintf(given, sizeof given, "%s", clmem__arg_kind_text(kind));
#if defined(CL_VERSION_1_2)
    if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS)
        snprintf(name, sizeof name, "?");
    name[sizeof name - 1] = '\0';
#else
    (void)kernel;
#endif
    return clmem__fail(code, "clmem_set_kernel_arg", "argument at index %u ('%s', declared %s%s) is given %s: %s", index, name,
                       space, declared, given, why);
}

#endif

/* Over 100 lines on purpose: one switch over the parameter kinds (pointer, image,
   sampler, scalar/vector), each case the rule of that kind, after the two fast paths. */
/* clmem__check_kernel_arg(kernel, index, kind, size, value, value_type): CL_SUCCESS
   where the value (kind CLMEM__ARG_KIND_*, size bytes at value; value_type its name
   for messages) fits parameter `index`, or where the parameter's type is not known;
   else the rejection, worded. */
static cl_int clmem__check_kernel_arg(cl_kernel kernel, cl_uint index, int kind, size_t size, const void *value,
                                      const char *value_type) {
#if defined(CLMEM_NO_KERNEL_ARG_CHECK)
    (void)kernel; (void)index; (void)kind; (void)size; (void)value; (void)value_type;
    return CL_SUCCESS;
#else
    const cl_kernel_arg_type_qualifier pipe_bit = (cl_kernel_arg_type_qualifier)1 << 3; /* CL_KERNEL_ARG_TYPE_PIPE */
    cl_kernel_arg_address_qualifier aq = 0;
    cl_kernel_arg_type_qualifier tq = 0;
    clmem__param_type p;
    char raw[128], type[128];
    const char *space = "";
    size_t i, j;
    if (!CLMEM__CHECKS || !kernel) return CL_SUCCESS;
    if (kind == CLMEM__ARG_KIND_LOCAL) { /* the common case in one query */
        if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) != CL_SUCCESS)
            return CL_SUCCESS;
        if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) return CL_SUCCESS;
    }
    /* not available (no -cl-kernel-arg-info), a bad index or kernel (the driver says
       so in clSetKernelArg), a name longer than the buffer: not checked */
    if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_NAME, sizeof raw - 1, raw, NULL) != CL_SUCCESS)
        return CL_SUCCESS;
    raw[sizeof raw - 1] = '\0';
    for (i = j = 0; raw[i]; ++i)
        if (raw[i] != ' ' && raw[i] != '\t') type[j++] = raw[i];
    type[j] = '\0';
    /* the common case: a value of exactly the declared type (value_type is its OpenCL
       name; C's long is not always OpenCL's) */
    if ((kind == CLMEM__ARG_KIND_INT || kind == CLMEM__ARG_KIND_FLOAT) && strcmp(type, value_type) == 0 &&
        ((type[0] != 'l' && type[0] != 'u') || (strcmp(type, "long") != 0 && strcmp(type, "ulong") != 0)))
        return CL_SUCCESS;
    p = clmem__param_classify(type);
    if (p.kind == CLMEM__PARAM_POINTER && kind != CLMEM__ARG_KIND_LOCAL &&
        clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) != CL_SUCCESS)
        return CL_SUCCESS;
    if (p.kind == CLMEM__PARAM_POINTER)
        space = aq == CL_KERNEL_ARG_ADDRESS_LOCAL      ? "__local "
                : aq == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "__constant "
                : aq == CL_KERNEL_ARG_ADDRESS_GLOBAL   ? "__global "
                                                       : "";
    /* a pipe is declared with its element type: "pipe int p" says "int" */
    if ((p.kind == CLMEM__PARAM_SCALAR || p.kind == CLMEM__PARAM_UNKNOWN) &&
        clmem__arg_is_memory(kind) &&
        clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL) == CL_SUCCESS &&
        (tq & pipe_bit)) {
        if (kind == CLMEM__ARG_KIND_PIPE) return CL_SUCCESS;
        if (kind == CLMEM__ARG_KIND_MEM && value && *(const cl_mem *)value) {
            cl_mem_object_type mt = 0;
            if (clGetMemObjectInfo(*(const cl_mem *)value, CL_MEM_TYPE, sizeof mt, &mt, NULL) == CL_SUCCESS &&
                mt == 0x10F7 /* CL_MEM_OBJECT_PIPE */)
                return CL_SUCCESS;
        }
        return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, "pipe ", kind, value_type, size, "a pipe parameter needs a pipe");
    }

    switch (p.kind) {
    case CLMEM__PARAM_POINTER:
        if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) {
            return clmem__arg_reject(CL_INVALID_ARG_VALUE, kernel, index, type, space, kind, value_type, size,
                                     "a __local parameter takes local memory: clmem_local_memory(bytes)");
        }
        if (clmem__arg_is_pointer(kind)) return CL_SUCCESS;
        if (kind == CLMEM__ARG_KIND_MEM) {
            cl_mem m = *(const cl_mem *)value;
            cl_mem_object_type mt = 0;
            if (!m) return CL_SUCCESS; /* a NULL buffer: OpenCL passes a NULL pointer */
            if (clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof mt, &mt, NULL) != CL_SUCCESS)
                return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                         "the cl_mem is not a valid memory object");
            if (mt == CL_MEM_OBJECT_BUFFER) return CL_SUCCESS;
            return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                     "the cl_mem is an image or a pipe, a pointer parameter needs a buffer");
        }
        return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                 kind == CLMEM__ARG_KIND_LOCAL
                                     ? "local memory fits only a __local pointer; this one needs a buffer or an SVM pointer"
                                     : "a pointer parameter needs a buffer, an SVM or a USM pointer (clmem_buffer, clmem_svm, clmem_usm)");
    case CLMEM__PARAM_IMAGE:
        if (kind == CLMEM__ARG_KIND_IMAGE) return CL_SUCCESS;
        if (kind == CLMEM__ARG_KIND_MEM && *(const cl_mem *)value) {
            cl_mem_object_type mt = 0;
            if (clGetMemObjectInfo(*(const cl_mem *)value, CL_MEM_TYPE, sizeof mt, &mt, NULL) != CL_SUCCESS)
                return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                         "the cl_mem is not a valid memory object");
            if (mt != CL_MEM_OBJECT_BUFFER && mt != 0x10F7 /* pipe */) return CL_SUCCESS;
        }
        return clmem__arg_reject(CL_INVALID_MEM_OBJECT, kernel, index, type, space, kind, value_type, size,
                                 "an image parameter needs an image (clmem_image)");
    case CLMEM__PARAM_SAMPLER:
        if (kind == CLMEM__ARG_KIND_SAMPLER) return CL_SUCCESS;
        return clmem__arg_reject(CL_INVALID_SAMPLER, kernel, index, type, space, kind, value_type, size,
                                 "a sampler_t parameter needs a sampler (clmem_sampler)");
    case CLMEM__PARAM_SCALAR:
        if (kind != CLMEM__ARG_KIND_INT && kind != CLMEM__ARG_KIND_FLOAT)
            return clmem__arg_reject(CL_INVALID_ARG_VALUE, kernel, index, type, space, kind, value_type, size,
                                     "a scalar or vector parameter needs a value of its type");
        if (p.size && p.size != size) {
            char why[96];
            snprintf(why, sizeof why, "the parameter is %zu bytes; pass a value of its type", p.size);
            return clmem__arg_reject(CL_INVALID_ARG_SIZE, kernel, index, type, space, kind, value_type, size, why);
        }
        if (p.floating != 2 && (p.floating == 1) != (kind == CLMEM__ARG_KIND_FLOAT))
            return clmem__arg_reject(CL_INVALID_ARG_VALUE, kernel, index, type, space, kind, value_type, size,
                                     p.floating ? "the parameter is floating-point and the value an integer (its bits "
                                                  "would be read as a floating-point number)"
                                                : "the parameter is an integer and the value floating-point (its bits "
                                                  "would be read as an integer)");
        return CL_SUCCESS;
    default:
        return CL_SUCCESS;
    }
#endif
}

static cl_int clmem__set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value, const char *what) {
    cl_int err;
    if (CLMEM__CHECKS && !kernel) return clmem__fail(CL_INVALID_KERNEL, "clmem_set_kernel_arg", "kernel is NULL");
    err = clSetKernelArg(kernel, index, size, value);
    if (err != CL_SUCCESS)
        return clmem__fail(err, "clmem_set_kernel_arg", "clSetKernelArg(index %u, %s of %zu bytes) failed with %s", index,
                           what, size, clmem_error_string(err));
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem__set_arg_buffer(cl_kernel kernel, cl_uint index, clmem_buffer value) {
    cl_int err;
    if (CLMEM__CHECKS && (!value.mem || clmem__buffer_stale(value))) {
        char what[32];
        snprintf(what, sizeof what, "argument %u", index);
        return clmem__buffer_invalid("clmem_set_kernel_arg", what, value);
    }
    if (CLMEM__CHECKS && kernel &&
        (err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_BUFFER, sizeof value.mem, &value.mem, "clmem_buffer")) !=
            CL_SUCCESS)
        return err;
    return clmem__set_arg(kernel, index, sizeof value.mem, &value.mem, "a buffer");
}
CLMEM_API cl_int clmem__set_arg_mem(cl_kernel kernel, cl_uint index, cl_mem value) {
    cl_int err;
    if (CLMEM__CHECKS && kernel &&
        (err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_MEM, sizeof value, &value, "cl_mem")) != CL_SUCCESS)
        return err;
    return clmem__set_arg(kernel, index, sizeof value, &value, "a cl_mem");
}
CLMEM_API cl_int clmem__set_arg_local(cl_kernel kernel, cl_uint index, clmem_local_memory value) {
    cl_int err;
    if (CLMEM__CHECKS && value.size == 0)
        return clmem__fail(CL_INVALID_ARG_SIZE, "clmem_set_kernel_arg", "argument %u: local memory of 0 bytes", index);
    if (CLMEM__CHECKS && kernel &&
        (err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_LOCAL, value.size, NULL, "clmem_local_memory")) !=
            CL_SUCCESS)
        return err;
    return clmem__set_arg(kernel, index, value.size, NULL, "local memory");
}
/* An image, sampler or pipe: the handle's object, refused with empty_code when the
   handle is empty. */
static cl_int clmem__set_arg_object(cl_kernel kernel, cl_uint index, int kind, const void *object, size_t size, bool empty,
                                    cl_int empty_code, const char *type, const char *noun) {
    cl_int err;
    if (CLMEM__CHECKS) {
        if (!kernel) return clmem__fail(CL_INVALID_KERNEL, "clmem_set_kernel_arg", "kernel is NULL");
        if (empty)
            return clmem__fail(empty_code, "clmem_set_kernel_arg", "argument %u: the %s is an empty or released handle", index,
                               noun);
        if ((err = clmem__check_kernel_arg(kernel, index, kind, size, object, type)) != CL_SUCCESS) return err;
    }
    return clmem__set_arg(kernel, index, size, object, clmem__arg_kind_text(kind));
}
CLMEM_API cl_int clmem__set_arg_image(cl_kernel kernel, cl_uint index, clmem_image value) {
    return clmem__set_arg_object(kernel, index, CLMEM__ARG_KIND_IMAGE, &value.mem, sizeof value.mem, !value.mem,
                                 CL_INVALID_MEM_OBJECT, "clmem_image", "image");
}
CLMEM_API cl_int clmem__set_arg_sampler(cl_kernel kernel, cl_uint index, clmem_sampler value) {
    return clmem__set_arg_object(kernel, index, CLMEM__ARG_KIND_SAMPLER, &value.sampler, sizeof value.sampler, !value.sampler,
                                 CL_INVALID_SAMPLER, "clmem_sampler", "sampler");
}
CLMEM_API cl_int clmem__set_arg_pipe(cl_kernel kernel, cl_uint index, clmem_pipe value) {
    return clmem__set_arg_object(kernel, index, CLMEM__ARG_KIND_PIPE, &value.mem, sizeof value.mem, !value.mem,
                                 CL_INVALID_MEM_OBJECT, "clmem_pipe", "pipe");
}
/* An SVM pointer (clSetKernelArgSVMPointer); the pointer must be live. */
CLMEM_API cl_int clmem__set_arg_svm(cl_kernel kernel, cl_uint index, clmem_svm value) {
    static const char fn[] = "clmem_set_kernel_arg";
    cl_context ctx;
    cl_int err;
    if (CLMEM__CHECKS) {
        if (!kernel) return clmem__fail(CL_INVALID_KERNEL, fn, "kernel is NULL");
        if ((err = clmem__svm_check_live(fn, "the SVM argument", value, &ctx)) != CL_SUCCESS) return err;
        /* as for every other handle kind; it also keeps an empty handle from reaching
           clSetKernelArgSVMPointer on a device without SVM */
        if (!value.ptr) return clmem__fail(CL_INVALID_ARG_VALUE, fn, "argument %u: the SVM pointer is an empty handle", index);
        if ((err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_SVM, sizeof value.ptr, &value.ptr, "clmem_svm")) !=
            CL_SUCCESS)
            return err;
    }
#ifdef CL_VERSION_2_0
    err = clSetKernelArgSVMPointer(kernel, index, value.ptr);
    if (err != CL_SUCCESS) return clmem__fail(err, fn, "clSetKernelArgSVMPointer(index %u, %p) failed with %s (%d)", index, value.ptr,
                                              clmem_error_string(err), (int)err);
    return CL_SUCCESS;
#else
    (void)index; (void)ctx; (void)err;
    return clmem__svm_unsupported(fn);
#endif
}
/* A USM pointer (clSetKernelArgMemPointerINTEL); the memory must be live. */
CLMEM_API cl_int clmem__set_arg_usm(cl_kernel kernel, cl_uint index, clmem_usm value) {
    static const char fn[] = "clmem_set_kernel_arg";
    const clmem__usm_fns *fns = NULL;
    cl_context ctx = NULL;
    cl_int err;
    if (CLMEM__CHECKS) {
        if (!kernel) return clmem__fail(CL_INVALID_KERNEL, fn, "kernel is NULL");
        if ((err = clmem__usm_check_live(fn, "the USM argument", value)) != CL_SUCCESS) return err;
        if ((err = clmem__check_kernel_arg(kernel, index, CLMEM__ARG_KIND_USM, sizeof value.ptr, &value.ptr, "clmem_usm")) !=
            CL_SUCCESS)
            return err;
    }
    if ((err = clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof ctx, &ctx, NULL)) != CL_SUCCESS)
        return clmem__info_fail(fn, err, "clGetKernelInfo", "CL_KERNEL_CONTEXT");
    if (CLMEM__CHECKS && value.context && value.context != ctx)
        return clmem__fail(CL_INVALID_CONTEXT, fn, "the USM argument (index %u) belongs to context %p, the kernel to %p",
                           index, (void *)value.context, (void *)ctx);
    if ((err = clmem__usm_fns_of_context(fn, ctx, &fns)) != CL_SUCCESS) return err;
    err = fns->set_arg(kernel, index, value.ptr);
    if (err != CL_SUCCESS)
        return clmem__fail(err, fn, "clSetKernelArgMemPointerINTEL(index %u, %p) failed with %s (%d)", index, value.ptr,
                           clmem_error_string(err), (int)err);
    return CL_SUCCESS;
}
/* The kind of a scalar or vector value from its clmem__set_arg_ name. */
static int clmem__arg_value_kind(const char *name) {
    return (name[0] == 'f' || name[0] == 'd') ? CLMEM__ARG_KIND_FLOAT : CLMEM__ARG_KIND_INT; /* float*, double* */
}
/* ... and its name as OpenCL C spells it (for messages and the exact-type shortcut) */
static const char *clmem__arg_value_name(const char *name) {
    if (name[0] == 's' && name[1] == 'c') return "signed char";                          /* schar */
    if (name[0] == 'l' && name[1] == 'l') return "long long";                            /* llong */
    if (name[0] == 'u' && name[1] == 'l' && name[2] == 'l') return "unsigned long long"; /* ullong */
    return name;
}
#define CLMEM__ARG_DEF(T, name)                                                                                 \
    CLMEM_API cl_int clmem__set_arg_##name(cl_kernel kernel, cl_uint index, T value) {                          \
        cl_int err;                                                                                             \
        if (CLMEM__CHECKS && kernel &&                                                                          \
            (err = clmem__check_kernel_arg(kernel, index, clmem__arg_value_kind(#name), sizeof value, &value,    \
                                           clmem__arg_value_name(#name))) != CL_SUCCESS)                        \
            return err;                                                                                         \
        return clmem__set_arg(kernel, index, sizeof value, &value, "a " #T);                                    \
    }
CLMEM__PATTERN_TYPES(CLMEM__ARG_DEF)
#undef CLMEM__ARG_DEF
CLMEM_API cl_int clmem__set_arg_vector(cl_kernel kernel, cl_uint index, const void *elements, size_t size, int wide) {
    const char *name = "a wide vector";
    cl_int err;
    switch (wide) {
#define CLMEM__WIDE_NAME(T, type, n) \
    case n: name = #type; break;
        CLMEM__WIDE_VECTOR_TYPES(CLMEM__WIDE_NAME)
#undef CLMEM__WIDE_NAME
    default: break;
    }
    if (CLMEM__CHECKS && !elements) /* clSetKernelArg would take NULL as a NULL pointer argument */
        return clmem__fail(CL_INVALID_ARG_VALUE, "clmem_set_kernel_arg", "argument %u: the %s value is NULL", index, name);
    if (CLMEM__CHECKS && kernel &&
        (err = clmem__check_kernel_arg(kernel, index, clmem__arg_value_kind(name), size, elements, name)) != CL_SUCCESS)
        return err;
    return clmem__set_arg(kernel, index, size, elements, name);
}
CLMEM_API cl_int clmem__set_arg_unsupported(cl_kernel kernel, cl_uint index, ...) {
    (void)kernel;
    return clmem__fail(CL_INVALID_ARG_VALUE, "clmem_set_kernel_arg",
                       "argument %u: the value is a pointer or of a type that is no OpenCL scalar, vector or clmem "
                       "handle (wrap a pointer: clmem_svm, clmem_buffer; a struct goes through clSetKernelArg)", index);
}

