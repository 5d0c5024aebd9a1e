/* clmem_set_kernel_arg checks a value against the kernel parameter's declared type
   where the program was built with -cl-kernel-arg-info (clGetKernelArgInfo): sizes
   (CL_INVALID_ARG_SIZE), integer against floating-point values and handles against
   scalar or __local parameters (CL_INVALID_ARG_VALUE), non-memory values for pointer
   and image parameters (CL_INVALID_MEM_OBJECT), non-samplers for sampler_t
   (CL_INVALID_SAMPLER), each message naming the argument and both types. Without
   the argument info nothing can be checked, and nothing is. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* y[i] = a * x[i] + n + v.s0 + w, staged through local memory (every kind of parameter
   a memory API touches, plus scalars and a vector). */
static const char axpy_src[] =
    "__kernel void axpy(__global float *y, __local float *tmp, __constant float *x, float a, int n,\n"
    "                   uint4 v, long w) {\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  tmp[l] = x[i];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (i < (size_t)n) y[i] = a * tmp[l] + (float)n + (float)v.s0 + (float)w; }\n";

/* The message of the last rejection contains `text`. */
#define CHECK_MSG(t, text) CLMEM_CHECK(t, strstr(clmem_last_error_message(), (text)) != NULL)

static void test_with_arg_info(clmem_test_context *t) {
    enum { N = 64 };
    float host_x[N], host_y[N];
    cl_int err;
    cl_kernel k;
    clmem_buffer x, y;
    size_t gsize = N, lsize = 16, i;
    k = build_with(t, axpy_src, "axpy", "-cl-kernel-arg-info");
    if (!k) return;
    for (i = 0; i < N; ++i) host_x[i] = (float)i;
    x = clmem_buffer_create(t->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof host_x, host_x, &err);
    if (err != CL_SUCCESS) clReleaseKernel(k);
    CLMEM_CHECK_CL(t, err);
    y = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, sizeof host_y, NULL, &err);
    if (err != CL_SUCCESS) {
        clReleaseKernel(k);
        clmem_buffer_release(&x);
    }
    CLMEM_CHECK_CL(t, err);

    /* every argument of the right kind is taken, and the kernel sees the values */
    err = clmem_set_kernel_arg(k, 0, y);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 1, clmem_local_memory(lsize * sizeof(float)));
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 2, x);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 3, 2.0f);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 4, (cl_uint)N); /* signedness is not a mismatch */
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 5, ((cl_uint4){{100, 0, 0, 0}}));
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 6, (cl_long)1000);
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gsize, &lsize, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, (void *)host_y, y);
    if (err != CL_SUCCESS) {
        clReleaseKernel(k);
        clmem_buffer_release(&x);
        clmem_buffer_release(&y);
    }
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < N; ++i) CLMEM_CHECK(t, host_y[i] == 2.0f * (float)i + (float)N + 100.0f + 1000.0f);

    /* scalars: an int for a float is taken bit for bit by OpenCL (2 becomes 2.8e-45) */
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 3, 2), CL_INVALID_ARG_VALUE);
    CHECK_MSG(t, "clmem_set_kernel_arg: argument at index 3 ('a', declared float) is given an int (4 bytes)");
    CHECK_MSG(t, "floating-point");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 3, 2.0), CL_INVALID_ARG_SIZE); /* a double for a float */
    CHECK_MSG(t, "argument at index 3 ('a', declared float) is given a double (8 bytes): the parameter is 4 bytes");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 4, 1.5f), CL_INVALID_ARG_VALUE);
    CHECK_MSG(t, "argument at index 4 ('n', declared int) is given a float (4 bytes)");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 4, (cl_long)5), CL_INVALID_ARG_SIZE);
    CHECK_MSG(t, "declared int) is given a long"); /* cl_long: long, or long long on Windows */
    CHECK_MSG(t, "(8 bytes)");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 5, ((cl_float4){{1, 2, 3, 4}})), CL_INVALID_ARG_VALUE);
    CHECK_MSG(t, "argument at index 5 ('v', declared uint4) is given a float4 (16 bytes)");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 5, ((cl_uint2){{1, 2}})), CL_INVALID_ARG_SIZE);
    CHECK_MSG(t, "the parameter is 16 bytes");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 6, 1), CL_INVALID_ARG_SIZE); /* an int for a long */
    /* a buffer for a scalar of the same size (PoCL 3.1 takes it) */
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 6, y), CL_INVALID_ARG_VALUE);
    CHECK_MSG(t, "argument at index 6 ('w', declared long) is given a buffer");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 6, clmem_local_memory(8)), CL_INVALID_ARG_VALUE);

    /* pointers to __global / __constant: a buffer, a NULL cl_mem, an SVM pointer */
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, 1.5f), CL_INVALID_MEM_OBJECT);
    CHECK_MSG(t, "argument at index 0 ('y', declared __global float*) is given a float (4 bytes)");
    /* 8 bytes of a double taken as a cl_mem crash PoCL 3.1: clmem refuses them first */
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, 1.0), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 2, (cl_ulong)42), CL_INVALID_MEM_OBJECT);
    CHECK_MSG(t, "declared __constant float*");
    /* local memory for a __global pointer: OpenCL would pass a NULL pointer */
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, clmem_local_memory(sizeof(cl_mem))), CL_INVALID_MEM_OBJECT);
    CHECK_MSG(t, "local memory fits only a __local pointer");
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, (cl_mem)NULL)); /* a NULL buffer is allowed */
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, y.mem));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 2, y));

    /* __local: only local memory (Oclgrind takes a buffer there) */
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 1, x), CL_INVALID_ARG_VALUE);
    CHECK_MSG(t, "argument at index 1 ('tmp', declared __local float*) is given a buffer");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 1, 7), CL_INVALID_ARG_VALUE);
    CHECK_MSG(t, "argument at index 1 ('tmp', declared __local float*) is given an int (4 bytes)");
    CHECK_MSG(t, "clmem_local_memory(bytes)");
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 1, x.mem), CL_INVALID_ARG_VALUE);

#ifdef CL_VERSION_2_0
    if (device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
        if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 0, a.svm);
        if (err == CL_SUCCESS) {
            clmem_clear_error();
            err = clmem_set_kernel_arg(k, 4, a.svm) == CL_INVALID_ARG_VALUE ? CL_SUCCESS : -1;
            if (err == CL_SUCCESS && !strstr(clmem_last_error_message(), "argument at index 4 ('n', declared int) is given an SVM pointer"))
                err = -2;
        }
        if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 1, a.svm) == CL_INVALID_ARG_VALUE ? CL_SUCCESS : -3;
        clmem_svm_allocation_release(&a);
        if (err != CL_SUCCESS) {
            clReleaseKernel(k);
            clmem_buffer_release(&x);
            clmem_buffer_release(&y);
        }
        CLMEM_CHECK_CL(t, err);
    }
#endif

    /* an index the kernel does not have: not checked here, the driver says so */
    if (!getenv("OCLGRIND_CHECK_API")) /* Oclgrind's API checker reports this refusal, provoked on purpose, as misuse */
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 99, 1.0f), CL_INVALID_ARG_INDEX);
    clReleaseKernel(k);
    clmem_buffer_release(&x);
    clmem_buffer_release(&y);
}

/* Images and samplers: a buffer, a number or an image cl_mem where the other is due. */
static const char image_src[] =
    "__kernel void get(__read_only image2d_t img, sampler_t s, __global float4 *out) {\n"
    "  out[0] = read_imagef(img, s, (int2)(0, 0)); }\n";

static void test_image_and_sampler_params(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    cl_image_format fmt = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc;
    cl_int err;
    cl_mem img;
    cl_kernel k;
    clmem_buffer b;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) {
        clmem_test_skip(t, "device has no image support");
        return;
    }
    k = build_with(t, image_src, "get", "-cl-kernel-arg-info");
    if (!k) return;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 4;
    desc.image_height = 4;
    img = clCreateImage(t->context, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err);
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    if (!img || !b.mem) {
        if (img) clReleaseMemObject(img);
        clmem_buffer_release(&b);
        clReleaseKernel(k);
        CLMEM_CHECK(t, 0);
    }
    err = CL_SUCCESS;
    clmem_clear_error();
    if (clmem_set_kernel_arg(k, 0, b) != CL_INVALID_MEM_OBJECT ||
        !strstr(clmem_last_error_message(), "argument at index 0 ('img', declared image2d_t) is given a buffer"))
        err = -1;
    if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 0, b.mem) != CL_INVALID_MEM_OBJECT) err = -2;
    if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 0, 3) != CL_INVALID_MEM_OBJECT) err = -3;
    if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 0, img) != CL_SUCCESS) err = -4; /* an image cl_mem */
    clmem_clear_error();
    if (err == CL_SUCCESS && (clmem_set_kernel_arg(k, 1, b) != CL_INVALID_SAMPLER ||
                              !strstr(clmem_last_error_message(), "argument at index 1 ('s', declared sampler_t) is given a buffer")))
        err = -5;
    if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 1, (cl_uint)0x10) != CL_INVALID_SAMPLER) err = -6;
    /* an image's cl_mem for a pointer */
    clmem_clear_error();
    if (err == CL_SUCCESS && (clmem_set_kernel_arg(k, 2, img) != CL_INVALID_MEM_OBJECT ||
                              !strstr(clmem_last_error_message(), "a pointer parameter needs a buffer")))
        err = -7;
    if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 2, b) != CL_SUCCESS) err = -8;
    /* clmem handles of images and samplers where the other, or a buffer, is due */
    if (err == CL_SUCCESS) {
        clmem_image wrapped = clmem_image_from_int_ptr(img, true, &err);
        clmem_sampler s = clmem_sampler_create(t->context, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
        if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 0, wrapped) != CL_SUCCESS) err = -9;
        if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 1, s) != CL_SUCCESS) err = -10;
        clmem_clear_error();
        if (err == CL_SUCCESS && (clmem_set_kernel_arg(k, 2, wrapped) != CL_INVALID_MEM_OBJECT ||
                                  !strstr(clmem_last_error_message(), "declared __global float4*) is given an image")))
            err = -11;
        if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 1, wrapped) != CL_INVALID_SAMPLER) err = -12;
        if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 0, s) != CL_INVALID_MEM_OBJECT) err = -13;
        if (err == CL_SUCCESS && clmem_set_kernel_arg(k, 2, s) != CL_INVALID_MEM_OBJECT) err = -14;
        clmem_image_release(&wrapped);
        clmem_sampler_release(&s);
    }
    clReleaseMemObject(img);
    clmem_buffer_release(&b);
    clReleaseKernel(k);
    CLMEM_CHECK_CL(t, err);
}

/* Without -cl-kernel-arg-info there is no type to check against: clmem passes the
   value on, and only what the driver itself checks is caught. On a driver that checks
   no argument sizes (PoCL-Remote 6.0: it takes 0 bytes), clmem checks against the
   parameter types of the program's source instead (clmem/quirks.h). */
static void test_without_arg_info(clmem_test_context *t) {
    char name[64];
    const cl_int two = 2;
    bool unchecked;
    cl_int info;
    cl_kernel k = build_with(t, axpy_src, "axpy", "");
    if (!k) return;
    info = clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL);
    if (info != CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
        clReleaseKernel(k);
        clmem_test_skip(t, "the device reports argument types even without -cl-kernel-arg-info (clGetKernelArgInfo: %s)",
                        clmem_error_string(info));
        return;
    }
    unchecked = clSetKernelArg(k, 3, 0, &two) == CL_SUCCESS;
    if (unchecked) {
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 3, 2), CL_INVALID_ARG_VALUE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "declared float) is given an int") != NULL);
    }
    /* an int for the float, a float for the int: the same 4 bytes, nothing to compare
       them with (where clmem checks against the source: the declared types) */
    info = unchecked ? clmem_set_kernel_arg(k, 3, 2.0f) : clmem_set_kernel_arg(k, 3, 2);
    if (info == CL_SUCCESS) info = unchecked ? clmem_set_kernel_arg(k, 4, 1) : clmem_set_kernel_arg(k, 4, 1.5f);
    if (info == CL_SUCCESS) info = clmem_set_kernel_arg(k, 1, clmem_local_memory(64));
    clReleaseKernel(k);
    CLMEM_CHECK_CL(t, info);
}

/* The parameter types as clGetKernelArgInfo spells them. */
static void test_type_names(clmem_test_context *t) {
    static const struct {
        const char *name;
        int kind;
        size_t size;
        int floating;
    } cases[] = {
        {"float*", CLMEM__PARAM_POINTER, 0, 0},       {"structS*", CLMEM__PARAM_POINTER, 0, 0},
        {"image2d_t", CLMEM__PARAM_IMAGE, 0, 0},      {"image2d_array_depth_t", CLMEM__PARAM_IMAGE, 0, 0},
        {"image1d_buffer_t", CLMEM__PARAM_IMAGE, 0, 0}, {"sampler_t", CLMEM__PARAM_SAMPLER, 0, 0},
        {"float", CLMEM__PARAM_SCALAR, 4, 1},         {"double16", CLMEM__PARAM_SCALAR, 128, 1},
        {"float3", CLMEM__PARAM_SCALAR, 16, 1},       {"uchar16", CLMEM__PARAM_SCALAR, 16, 0},
        {"uint", CLMEM__PARAM_SCALAR, 4, 0},          {"unsignedint", CLMEM__PARAM_SCALAR, 4, 0},
        {"ulong2", CLMEM__PARAM_SCALAR, 16, 0},       {"half", CLMEM__PARAM_SCALAR, 2, 2},
        {"half8", CLMEM__PARAM_SCALAR, 16, 2},        {"char", CLMEM__PARAM_SCALAR, 1, 0},
        {"size_t", CLMEM__PARAM_SCALAR, 0, 0},        {"size_t4", CLMEM__PARAM_UNKNOWN, 0, 0},
        {"int5", CLMEM__PARAM_UNKNOWN, 0, 0},         {"int32", CLMEM__PARAM_UNKNOWN, 0, 0},
        {"real", CLMEM__PARAM_UNKNOWN, 0, 0},         {"structS", CLMEM__PARAM_UNKNOWN, 0, 0},
        {"queue_t", CLMEM__PARAM_UNKNOWN, 0, 0},      {"image", CLMEM__PARAM_UNKNOWN, 0, 0},
        {"", CLMEM__PARAM_UNKNOWN, 0, 0},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        clmem__param_type p = clmem__param_classify(cases[i].name);
        if (p.kind != cases[i].kind || p.size != cases[i].size || p.floating != cases[i].floating)
            clmem_test_fail(t, __FILE__, __LINE__, "'%s': kind %d size %zu floating %d, expected %d %zu %d", cases[i].name,
                            p.kind, p.size, p.floating, cases[i].kind, cases[i].size, cases[i].floating);
    }
}

static const clmem_test_case cases[] = {
    {"with_arg_info", test_with_arg_info, false},
    {"image_and_sampler_params", test_image_and_sampler_params, false},
    {"without_arg_info", test_without_arg_info, false},
    {"type_names", test_type_names, true},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
