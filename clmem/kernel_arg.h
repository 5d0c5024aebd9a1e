/* >>kernel_arg: clmem_set_kernel_arg, clmem_local_memory (PyOpenCL's Kernel.set_arg
   and LocalMemory): one call for every kind of kernel argument, checked against the
   parameter's declared type where the program has argument info */
#include "base.h"
#include "buffer.h"
#include "image.h"
#include "sampler.h"
#include "pipe.h"
#include "svm.h"
#include "usm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The value types: a value of one of these gives its own size, as a kernel argument
   (clmem_set_kernel_arg) and as a fill pattern (clmem_enqueue_fill); it is passed by
   value. One spelling per underlying type (cl_int is int, so only int is listed). A
   3-vector is a 4-vector in cl_platform.h; cl_half is cl_ushort (cl_halfN vectors are
   not in every OpenCL header: a half vector goes as the cl_ushortN of its bits).
   Vectors of 32 bytes and more are CLMEM__WIDE_VECTOR_TYPES, below. */
#define CLMEM__PATTERN_TYPES(X)                                                                        \
    X(char, char) X(signed char, schar) X(unsigned char, uchar) X(short, short)                        \
    X(unsigned short, ushort) X(int, int) X(unsigned int, uint) X(long, long) X(unsigned long, ulong)   \
    X(long long, llong) X(unsigned long long, ullong) X(float, float) X(double, double)                 \
    X(cl_char2, char2) X(cl_char4, char4) X(cl_char8, char8) X(cl_char16, char16)                      \
    X(cl_uchar2, uchar2) X(cl_uchar4, uchar4) X(cl_uchar8, uchar8) X(cl_uchar16, uchar16)              \
    X(cl_short2, short2) X(cl_short4, short4) X(cl_short8, short8)                                     \
    X(cl_ushort2, ushort2) X(cl_ushort4, ushort4) X(cl_ushort8, ushort8)                               \
    X(cl_int2, int2) X(cl_int4, int4) X(cl_uint2, uint2) X(cl_uint4, uint4)                            \
    X(cl_long2, long2) X(cl_ulong2, ulong2) X(cl_float2, float2) X(cl_float4, float4) X(cl_double2, double2)

/* The wide vectors, 32 to 128 bytes, each with a number (1 ...). cl_platform.h aligns
   them to their size, and gcc notes at every function that takes or passes such a
   value by value that its ABI changed in gcc 4.6; so clmem takes them by address, the
   address of the value's elements (an lvalue's own, or a temporary's, which lives to
   the end of the call). CLMEM__WIDE(value) is the number of value's type as a char
   (0, an int, for any other type); the expansion stays short because
   clmem_set_kernel_arg names each type only in it. */
#define CLMEM__WIDE_VECTOR_TYPES(X)                                                                          \
    X(cl_short16, short16, 1) X(cl_ushort16, ushort16, 2) X(cl_int8, int8, 3) X(cl_int16, int16, 4)         \
    X(cl_uint8, uint8, 5) X(cl_uint16, uint16, 6) X(cl_long4, long4, 7) X(cl_long8, long8, 8)               \
    X(cl_long16, long16, 9) X(cl_ulong4, ulong4, 10) X(cl_ulong8, ulong8, 11) X(cl_ulong16, ulong16, 12)    \
    X(cl_float8, float8, 13) X(cl_float16, float16, 14) X(cl_double4, double4, 15) X(cl_double8, double8, 16) \
    X(cl_double16, double16, 17)
#define CLMEM__WIDE_ASSOC(T, name, n) T:(char)n,
#define CLMEM__WIDE(value) _Generic((value),CLMEM__WIDE_VECTOR_TYPES(CLMEM__WIDE_ASSOC)default:0)

/** Local memory of a given size for a kernel argument (PyOpenCL's LocalMemory). */
typedef struct clmem_local_memory {
    size_t size;
} clmem_local_memory;
/** clmem_local_memory_create(size) / clmem_local_memory(size): a __local argument of size bytes. */
static inline clmem_local_memory clmem_local_memory_create(size_t size) {
    clmem_local_memory l;
    l.size = size;
    return l;
}
#define clmem_local_memory(size) clmem_local_memory_create(size)

/* The setters behind clmem_set_kernel_arg, one per kind of value (private):
   clmem__set_arg_<name> for each kind of kernel argument of CLMEM__KINDS (memobj.h;
   clmem__set_arg_buffer, _mem, _local, _image, _sampler, _pipe, _svm (clSetKernelArgSVMPointer;
   CL_INVALID_VALUE for a released allocation, CL_INVALID_OPERATION without OpenCL 2.0
   headers), _usm (clSetKernelArgMemPointerINTEL; CL_INVALID_VALUE for a released
   allocation or stale pooled block, CL_INVALID_OPERATION without
   cl_intel_unified_shared_memory)) and for each value type of CLMEM__PATTERN_TYPES. */
#define CLMEM__ARG_KIND_DECL(T, name, ARG, arg, text) \
    CLMEM_API cl_int clmem__set_arg_##name(cl_kernel kernel, cl_uint index, T value);
CLMEM__KINDS(CLMEM__KIND_IF_ARG, CLMEM__ARG_KIND_DECL)
#undef CLMEM__ARG_KIND_DECL
#define CLMEM__ARG_DECL(T, name) CLMEM_API cl_int clmem__set_arg_##name(cl_kernel kernel, cl_uint index, T value);
CLMEM__PATTERN_TYPES(CLMEM__ARG_DECL)
#undef CLMEM__ARG_DECL
/* A wide vector by address: size bytes at elements, wide its CLMEM__WIDE_VECTOR_TYPES
   number. */
CLMEM_API cl_int clmem__set_arg_vector(cl_kernel kernel, cl_uint index, const void *elements, size_t size, int wide);
CLMEM_API cl_int clmem__set_arg_unsupported(cl_kernel kernel, cl_uint index, ...);

/** clmem_set_kernel_arg(kernel, index, value): set one kernel argument from a clmem
    handle or a value: clmem_buffer (also pooled and sub-buffers), clmem_image,
    clmem_sampler, clmem_pipe, clmem_svm (clSetKernelArgSVMPointer), clmem_usm
    (clSetKernelArgMemPointerINTEL; also .usm of a pooled USM block), a raw cl_mem,
    clmem_local_memory(size), or a scalar or vector value whose type gives its size
    (every OpenCL scalar and cl_<type>N vector of 2, 3, 4, 8 and 16 components;
    clmem_set_kernel_arg(k, 2, 1.5f), clmem_set_kernel_arg(k, 3, (cl_uint)n)).
    Where the program was built with -cl-kernel-arg-info, the value is checked against
    the parameter's declared type first (clGetKernelArgInfo): a value of the wrong size
    (CL_INVALID_ARG_SIZE), an integer for a floating-point parameter or the reverse, a
    handle for a value or local memory for a non-__local pointer (CL_INVALID_ARG_VALUE),
    a non-memory value for a pointer, image or pipe (CL_INVALID_MEM_OBJECT), a
    non-sampler for a sampler_t (CL_INVALID_SAMPLER), each message naming the argument
    and both types. Without argument info nothing is checked beyond what the driver
    checks: OpenCL promises the info only with -cl-kernel-arg-info, and PoCL, which
    keeps it for every program, reports it only where the build options were NULL or
    name -cl-kernel-arg-info (so "" turns the check off there). CLMEM_NO_VALIDATION or
    CLMEM_NO_KERNEL_ARG_CHECK compiles the check out.
    Returns CL_SUCCESS, one of the codes above, CL_INVALID_KERNEL (NULL kernel),
    CL_INVALID_MEM_OBJECT (an empty or stale handle), CL_INVALID_SAMPLER (an empty
    sampler), CL_INVALID_ARG_SIZE (local memory of size 0), CL_INVALID_ARG_VALUE (a
    pointer or another type that is not a kernel argument, an empty clmem_svm),
    CL_INVALID_VALUE (a released or stale clmem_svm), or the driver's code with a
    message naming the argument index.
    Thread safety: as clSetKernelArg (one thread per kernel at a time). */
#ifndef __cplusplus
#define CLMEM__ARG_ASSOC(T, name) T: clmem__set_arg_##name,
#define CLMEM__ARG_KIND_ASSOC(T, name, ARG, arg, text) T: clmem__set_arg_##name,
#define clmem_set_kernel_arg(kernel, index, value)                                                              \
    _Generic(CLMEM__WIDE(value),                                                                                \
             char: clmem__set_arg_vector(kernel, index,                                                         \
                                         _Generic(CLMEM__WIDE(value), char: (value), default: (cl_char16){{0}}).s, \
                                         sizeof(value), CLMEM__WIDE(value)),                                    \
             default: _Generic((value), CLMEM__KINDS(CLMEM__KIND_IF_ARG, CLMEM__ARG_KIND_ASSOC)                  \
                               CLMEM__PATTERN_TYPES(CLMEM__ARG_ASSOC) default: clmem__set_arg_unsupported)(kernel, \
                                                                                                        index, value))
#endif

#ifdef __cplusplus
}
#endif
