/* clmem_set_kernel_arg takes a value of every OpenCL scalar and vector type (2, 3, 4,
   8 and 16 components; double where the device has cl_khr_fp64, half where it has
   cl_khr_fp16, the half values as the cl_ushortN of their bits), and the kernel sees
   the bytes: each kernel stores its six parameters (T, T2, T3, T4, T8, T16) to a
   buffer, which is compared with what was passed. Every program is built five ways:
   without options (NULL), with "", with -cl-kernel-arg-info, and with another option
   with and without -cl-kernel-arg-info. Where the device reports the argument types
   (clGetKernelArgInfo: always with -cl-kernel-arg-info; PoCL also with NULL options)
   a value of the wrong size or kind for a wide vector is refused as well. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#define KERNELS                                                                                             \
    "#define K(T) __kernel void k_##T(__global T *out, T a, T##2 a2, T##3 a3, T##4 a4, T##8 a8, T##16 a16) { \\\n" \
    "    out[0] = a; vstore2(a2, 0, out + 1); vstore3(a3, 0, out + 3); vstore4(a4, 0, out + 6);          \\\n" \
    "    vstore8(a8, 0, out + 10); vstore16(a16, 0, out + 18); }\n"
static const char int_src[] = KERNELS "K(char) K(uchar) K(short) K(ushort) K(int) K(uint) K(long) K(ulong) K(float)\n";
static const char double_src[] = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" KERNELS "K(double)\n";
static const char half_src[] = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" KERNELS "K(half)\n";

enum { COMPONENTS = 1 + 2 + 3 + 4 + 8 + 16 }; /* out[] of one kernel */

/* The value of component j (0 .. COMPONENTS - 1) for each element type. */
#define VALUE_INT(T, j) ((T)((j) * 3 + 1))
#define VALUE_FLOAT(T, j) ((T)(j) + (T)0.5)
#define VALUE_HALF(T, j) ((T)(0x3C00 + (j))) /* 1 + j/1024: exact half bits */

typedef struct build {
    cl_program program;
    const char *options; /* as given to clBuildProgram (NULL: none) */
    int arg_info;        /* the device reports argument types for it */
} build;

/* The kernel k_<name> of b and its output buffer (argument 0 set); NULL after
   recording a failure. */
static cl_kernel begin(clmem_test_context *t, const build *b, const char *name, size_t bytes, clmem_buffer *out) {
    char kname[32];
    cl_int err;
    cl_kernel k;
    snprintf(kname, sizeof kname, "k_%s", name);
    *out = clmem_buffer_create(t->context, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    k = err == CL_SUCCESS ? clCreateKernel(b->program, kname, &err) : NULL;
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 0, *out);
    if (err != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "%s: %s", kname, clmem_error_string(err));
        if (k) clReleaseKernel(k);
        clmem_buffer_release(out);
        return NULL;
    }
    return k;
}

/* Run k once (err: the first error of setting its arguments), read out[] and compare
   it with want; release k and out. */
static void finish(clmem_test_context *t, const build *b, const char *name, cl_kernel k, clmem_buffer *out, cl_int err,
                   const void *want, void *got, size_t bytes) {
    size_t one = 1;
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, got, *out, .byte_count = bytes);
    clReleaseKernel(k);
    clmem_buffer_release(out);
    if (err == CL_INVALID_OPERATION && !b->arg_info && strstr(clmem_last_error_message(), "driver fault") != NULL) {
        /* a driver that checks no argument sizes, a source (macros) clmem cannot read
           the types from: clmem refuses (clmem/quirks.h); the builds with argument
           information still run */
        clmem_test_skip(t, "without argument information, clmem refuses it: %s", clmem_last_error_message());
        return;
    }
    if (err != CL_SUCCESS)
        clmem_test_fail(t, __FILE__, __LINE__, "k_%s built with options %s%s%s: %s (%s)", name, b->options ? "'" : "",
                        b->options ? b->options : "NULL", b->options ? "'" : "", clmem_error_string(err),
                        clmem_last_error_message());
    else if (memcmp(want, got, bytes) != 0)
        clmem_test_fail(t, __FILE__, __LINE__, "k_%s built with options %s%s%s: the kernel saw other values", name,
                        b->options ? "'" : "", b->options ? b->options : "NULL", b->options ? "'" : "");
}

static cl_int first_error(cl_int e1, cl_int e2, cl_int e3, cl_int e4, cl_int e5, cl_int e6) {
    const cl_int e[6] = {e1, e2, e3, e4, e5, e6};
    int i;
    for (i = 0; i < 6; ++i)
        if (e[i] != CL_SUCCESS) return e[i];
    return CL_SUCCESS;
}

/* Run kernel k_<name> of build b with the six values of element type T (vector types
   V2 ... V16; V3 is V4 in cl_platform.h) and compare out[] with them. */
#define RUN_TYPE(t, b, name, T, V2, V4, V8, V16, VALUE)                                                       \
    do {                                                                                                       \
        T want[COMPONENTS], got[COMPONENTS];                                                                   \
        V2 v2;                                                                                                 \
        V4 v3, v4;                                                                                             \
        V8 v8;                                                                                                 \
        V16 v16;                                                                                               \
        clmem_buffer out;                                                                                      \
        cl_kernel k;                                                                                           \
        int j;                                                                                                 \
        for (j = 0; j < COMPONENTS; ++j) want[j] = VALUE(T, j);                                                \
        memset(&v3, 0, sizeof v3);                                                                             \
        memcpy(v2.s, want + 1, sizeof(T) * 2);                                                                 \
        memcpy(v3.s, want + 3, sizeof(T) * 3);                                                                 \
        memcpy(v4.s, want + 6, sizeof(T) * 4);                                                                 \
        memcpy(v8.s, want + 10, sizeof(T) * 8);                                                                \
        memcpy(v16.s, want + 18, sizeof(T) * 16);                                                              \
        k = begin(t, b, name, sizeof want, &out);                                                              \
        if (k)                                                                                                 \
            finish(t, b, name, k, &out,                                                                        \
                   first_error(clmem_set_kernel_arg(k, 1, want[0]), clmem_set_kernel_arg(k, 2, v2),            \
                               clmem_set_kernel_arg(k, 3, v3), clmem_set_kernel_arg(k, 4, v4),                 \
                               clmem_set_kernel_arg(k, 5, v8), clmem_set_kernel_arg(k, 6, v16)),               \
                   want, got, sizeof want);                                                                    \
    } while (0)

static const char *const build_options[] = {NULL, "", "-cl-kernel-arg-info", "-cl-mad-enable",
                                            "-cl-mad-enable -cl-kernel-arg-info"};
enum { BUILDS = sizeof build_options / sizeof build_options[0] };

/* Build src five ways; false (after recording the failure) when one does not build. */
static bool build_all(clmem_test_context *t, const char *src, const char *kernel, build out[BUILDS]) {
    int i;
    for (i = 0; i < BUILDS; ++i) {
        char name[64];
        cl_int err;
        cl_kernel k = build_with(t, src, kernel, build_options[i]);
        out[i].options = build_options[i];
        out[i].program = NULL;
        if (!k) {
            while (i-- > 0) clReleaseProgram(out[i].program);
            return false;
        }
        err = clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof out[i].program, &out[i].program, NULL);
        if (err == CL_SUCCESS) err = clRetainProgram(out[i].program);
        out[i].arg_info = clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL) == CL_SUCCESS;
        clReleaseKernel(k);
        if (err != CL_SUCCESS) {
            clmem_test_fail(t, __FILE__, __LINE__, "clGetKernelInfo(CL_KERNEL_PROGRAM): %s", clmem_error_string(err));
            while (i-- > 0) clReleaseProgram(out[i].program);
            return false;
        }
    }
    /* -cl-kernel-arg-info always gives the types (OpenCL 1.2 and later) */
    if (!out[2].arg_info || !out[4].arg_info)
        clmem_test_fail(t, __FILE__, __LINE__, "no argument types with -cl-kernel-arg-info");
    return true;
}
static void release_all(build b[BUILDS]) {
    int i;
    for (i = 0; i < BUILDS; ++i) clReleaseProgram(b[i].program);
}

static void test_integer_and_float(clmem_test_context *t) {
    build b[BUILDS];
    int i;
    if (!build_all(t, int_src, "k_int", b)) return;
    for (i = 0; i < BUILDS; ++i) {
        const build *p = &b[i];
        RUN_TYPE(t, p, "char", cl_char, cl_char2, cl_char4, cl_char8, cl_char16, VALUE_INT);
        RUN_TYPE(t, p, "uchar", cl_uchar, cl_uchar2, cl_uchar4, cl_uchar8, cl_uchar16, VALUE_INT);
        RUN_TYPE(t, p, "short", cl_short, cl_short2, cl_short4, cl_short8, cl_short16, VALUE_INT);
        RUN_TYPE(t, p, "ushort", cl_ushort, cl_ushort2, cl_ushort4, cl_ushort8, cl_ushort16, VALUE_INT);
        RUN_TYPE(t, p, "int", cl_int, cl_int2, cl_int4, cl_int8, cl_int16, VALUE_INT);
        RUN_TYPE(t, p, "uint", cl_uint, cl_uint2, cl_uint4, cl_uint8, cl_uint16, VALUE_INT);
        RUN_TYPE(t, p, "long", cl_long, cl_long2, cl_long4, cl_long8, cl_long16, VALUE_INT);
        RUN_TYPE(t, p, "ulong", cl_ulong, cl_ulong2, cl_ulong4, cl_ulong8, cl_ulong16, VALUE_INT);
        RUN_TYPE(t, p, "float", cl_float, cl_float2, cl_float4, cl_float8, cl_float16, VALUE_FLOAT);
    }
    /* where the types are known, a wide vector of the wrong size or kind is refused */
    for (i = 0; i < BUILDS; ++i) {
        cl_int err;
        cl_kernel k;
        if (!b[i].arg_info) continue;
        k = clCreateKernel(b[i].program, "k_float", &err);
        CLMEM_CHECK_CL(t, err);
        if (!k) break;
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 5, ((cl_float4){{1, 2, 3, 4}})), CL_INVALID_ARG_SIZE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "argument at index 5 ('a8', declared float8) is given a float4") != NULL);
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 5, ((cl_int8){{1, 2, 3, 4, 5, 6, 7, 8}})), CL_INVALID_ARG_VALUE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "declared float8) is given an int8 (32 bytes)") != NULL);
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 6, ((cl_long8){{0}})), CL_INVALID_ARG_VALUE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "declared float16) is given a long8 (64 bytes)") != NULL);
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 4, ((cl_float8){{0}})), CL_INVALID_ARG_SIZE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "the parameter is 16 bytes") != NULL);
        clReleaseKernel(k);
    }
    release_all(b);
}

static void test_double(clmem_test_context *t) {
    build b[BUILDS];
    bool fp64 = false;
    int i;
    CLMEM_CHECK_CL(t, clmem_has_double_support(t->device, &fp64));
    if (!fp64) {
        clmem_test_skip(t, "the device has no cl_khr_fp64");
        return;
    }
    if (!build_all(t, double_src, "k_double", b)) return;
    for (i = 0; i < BUILDS; ++i)
        RUN_TYPE(t, &b[i], "double", cl_double, cl_double2, cl_double4, cl_double8, cl_double16, VALUE_FLOAT);
    release_all(b);
}

static void test_half(clmem_test_context *t) {
    build b[BUILDS];
    clmem_device_description d;
    int i;
    CLMEM_CHECK_CL(t, clmem_device_describe(t->device, &d));
    if (!clmem__has_token(d.extensions, "cl_khr_fp16")) {
        clmem_test_skip(t, "the device has no cl_khr_fp16");
        return;
    }
    if (!build_all(t, half_src, "k_half", b)) return;
    for (i = 0; i < BUILDS; ++i)
        RUN_TYPE(t, &b[i], "half", cl_half, cl_ushort2, cl_ushort4, cl_ushort8, cl_ushort16, VALUE_HALF);
    release_all(b);
}

static const clmem_test_case cases[] = {
    {"integer_and_float", test_integer_and_float, false},
    {"double", test_double, false},
    {"half", test_half, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
