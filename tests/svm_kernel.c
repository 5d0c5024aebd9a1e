/* SVM with kernels: PyOpenCL's test_coarse_grain_svm (opaque and tagged styles) and
   test_fine_grain_svm, queue-bound release while a kernel still uses the memory,
   rebinding between queues, SVM maps, as_buffer, the svm_empty family. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static const char twice_src[] = "__kernel void twice(__global float *a) { a[get_global_id(0)] *= 2; }\n";

/* slow_copy: out[i] = in[i] after some busy work, so the kernel is still reading `in`
   well after it was enqueued. */
static const char slow_src[] =
    "__kernel void slow_copy(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); int acc = 0;\n"
    "  for (int k = 0; k < 2000; ++k) acc += in[(i + k) % get_global_size(0)] & 1;\n"
    "  out[i] = in[i] + (acc - acc); }\n";

static const char double_int_src[] =
    "__kernel void dbl(__global const int *in, __global int *out) { out[get_global_id(0)] = 2 * in[get_global_id(0)]; }\n";

enum { N = 3000 };

/* The body of PyOpenCL's test_coarse_grain_svm for one SVM range of N floats. */
static void coarse_grain_body(clmem_test_context *t, clmem_svm svm) {
    float orig[N], out[N];
    float zero = 0.0f;
    size_t gsize = N, i;
    clmem_svm_map m;
    clmem_buffer buf;
    cl_kernel k;
    cl_int err;
    CLMEM_CHECK_EQ(t, svm.size, sizeof(float) * N);
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, svm, &zero, sizeof zero));
    CLMEM_CHECK_CL(t, clmem_svm_map_rw(t->queue, svm, &m));
    CLMEM_CHECK_EQ(t, m.size, 12000);
    CLMEM_CHECK(t, m.ptr == svm.ptr);
    for (i = 0; i < N; ++i) CLMEM_CHECK(t, ((float *)m.ptr)[i] == 0.0f);
    for (i = 0; i < N; ++i) orig[i] = ((float *)m.ptr)[i] = 17.0f + (float)(i % 5);
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m));
    k = build_kernel(t, twice_src, "twice");
    if (!k) return;
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, svm));
    err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gsize, NULL, 0, NULL, NULL);
    if (err != CL_SUCCESS) clReleaseKernel(k);
    CLMEM_CHECK_CL(t, err); /* the kernel on the SVM pointer */
    /* and once more through a buffer over the same memory (PyOpenCL's as_buffer) */
    buf = clmem_svm_as_buffer(t->context, svm, 0, 0, &err);
    if (err != CL_SUCCESS) clReleaseKernel(k);
    CLMEM_CHECK_CL(t, err);
    /* a fresh kernel: NVIDIA's driver (CUDA 13) fails the launch with
       CL_INVALID_KERNEL_ARGS when an argument set by clSetKernelArgSVMPointer is reset
       with a cl_mem, which is not what this test is about */
    clReleaseKernel(k);
    k = build_kernel(t, twice_src, "twice");
    if (!k) {
        clmem_buffer_release(&buf);
        return;
    }
    err = clmem_set_kernel_arg(k, 0, buf);
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gsize, NULL, 0, NULL, NULL);
    clFinish(t->queue);
    clmem_buffer_release(&buf);
    clReleaseKernel(k);
    CLMEM_CHECK_CL(t, err); /* the kernel on the buffer */
    CLMEM_CHECK_CL(t, clmem_svm_map_ro(t->queue, svm, &m));
    for (i = 0; i < N; ++i) CLMEM_CHECK(t, ((float *)m.ptr)[i] == orig[i] * 4);
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, svm));
    for (i = 0; i < N; ++i) CLMEM_CHECK(t, out[i] == orig[i] * 4);
}

static void test_coarse_grain_opaque(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocation a;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 12000, 64, CL_MEM_READ_WRITE, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    coarse_grain_body(t, a.svm);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
}

static void test_coarse_grain_tagged(clmem_test_context *t) {
    cl_int err;
    clmem_svm_array arr;
    NEED_SVM(t);
    arr = clmem_csvm_empty(t->context, float, &err, .shape = {N}, .alignment = 64, .queue = t->queue);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, arr.ndim, 1);
    CLMEM_CHECK_EQ(t, arr.shape[0], N);
    CLMEM_CHECK_EQ(t, arr.itemsize, sizeof(float));
    CLMEM_CHECK(t, strcmp(arr.dtype, "float") == 0);
    CLMEM_CHECK_EQ(t, (uintptr_t)arr.svm.ptr % 64, 0);
    CLMEM_CHECK_EQ(t, clmem_svm_allocation_flags(clmem_svm_array_allocation(arr)), CL_MEM_READ_WRITE);
    /* the tag style: a plain pointer and size, no owner */
    coarse_grain_body(t, clmem_svm_tag(arr.svm.ptr, sizeof(float) * N));
    CLMEM_CHECK_CL(t, clmem_svm_array_release(&arr));
    CLMEM_CHECK_ERR(t, clmem_svm_array_release(&arr), CLMEM_ERROR_DOUBLE_RELEASE);
}

/* PyOpenCL issue #372: read-only SVM as kernel input. */
static void test_read_only_input(clmem_test_context *t) {
    clmem_svm_array in, out;
    clmem_svm_map m;
    cl_kernel k;
    size_t gsize = 10, i;
    cl_int err;
    NEED_SVM(t);
    CLMEM_CHECK_CL(t, (in = clmem_svm_empty(t->context, CL_MEM_READ_ONLY, int, &err, .shape = {10}, .queue = t->queue), err));
    out = clmem_svm_empty(t->context, CL_MEM_READ_WRITE, int, &err, .shape = {10}, .queue = t->queue);
    if (err != CL_SUCCESS) clmem_svm_array_release(&in);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, in.alignment, sizeof(int));
    err = clmem_svm_map_rw(t->queue, in.svm, &m);
    if (err == CL_SUCCESS) {
        for (i = 0; i < 10; ++i) ((int *)m.ptr)[i] = 17;
        err = clmem_svm_map_release(&m);
    }
    k = build_kernel(t, double_int_src, "dbl");
    if (k && err == CL_SUCCESS) {
        err = clmem_set_kernel_arg(k, 0, in.svm);
        if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 1, out.svm);
        if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gsize, NULL, 0, NULL, NULL);
    }
    if (k) clReleaseKernel(k);
    if (err == CL_SUCCESS) err = clmem_svm_map_ro(t->queue, out.svm, &m);
    if (err == CL_SUCCESS) {
        for (i = 0; i < 10; ++i)
            if (((int *)m.ptr)[i] != 34) err = -1;
        clmem_svm_map_release(&m);
    }
    clmem_svm_array_release(&in);
    clmem_svm_array_release(&out);
    CLMEM_CHECK(t, k != NULL);
    CLMEM_CHECK_CL(t, err);
}

static void test_fine_grain(clmem_test_context *t) {
    clmem_svm_array arr;
    float *x;
    cl_kernel k;
    size_t gsize = N, i;
    cl_int err;
    if (!device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no fine-grain buffer SVM");
        return;
    }
    CLMEM_CHECK_CL(t, (arr = clmem_fsvm_empty(t->context, float, &err, .shape = {N}, .alignment = 64, .queue = t->queue), err));
    CLMEM_CHECK(t, clmem_svm_allocation_flags(clmem_svm_array_allocation(arr)) & CL_MEM_SVM_FINE_GRAIN_BUFFER);
    x = (float *)arr.svm.ptr;
    for (i = 0; i < N; ++i) x[i] = 17.0f + (float)i; /* straight from the host, no map */
    k = build_kernel(t, twice_src, "twice");
    err = k ? clmem_set_kernel_arg(k, 0, arr.svm) : -1;
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gsize, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(t->queue);
    if (k) clReleaseKernel(k);
    for (i = 0; i < N && err == CL_SUCCESS; ++i)
        if (x[i] != 2 * (17.0f + (float)i)) err = -2;
    clmem_svm_array_release(&arr);
    CLMEM_CHECK_CL(t, err);
}

/* Release while a kernel still reads the memory: the free is enqueued behind it. A
   user event holds the kernel back until after the release, so the order is certain;
   valgrind would report reads of freed memory otherwise. */
static void run_release_while_in_use(clmem_test_context *t, cl_command_queue second) {
    enum { M = 1024 };
    clmem_svm_allocation in;
    clmem_buffer out;
    cl_event gate;
    cl_kernel k;
    size_t gsize = M, i;
    int host[M];
    cl_int err;
    in = clmem_svm_allocation_create(t->context, sizeof host, 0, CL_MEM_READ_WRITE, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < M; ++i) host[i] = (int)(i * 7 + 1);
    err = clmem_enqueue_copy(t->queue, in.svm, (const void *)host);
    if (err != CL_SUCCESS) clmem_svm_allocation_release(&in);
    CLMEM_CHECK_CL(t, err);
    out = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    k = build_kernel(t, slow_src, "slow_copy");
    gate = clCreateUserEvent(t->context, &err);
    if (!k || !out.mem) {
        clmem_svm_allocation_release(&in);
        clmem_buffer_release(&out);
        clReleaseEvent(gate);
        if (k) clReleaseKernel(k);
        CLMEM_CHECK(t, 0);
    }
    clmem_set_kernel_arg(k, 0, in.svm);
    clmem_set_kernel_arg(k, 1, out);
    err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gsize, NULL, 1, &gate, NULL);
    clReleaseKernel(k);
    if (second) {
        /* the free moves to the second queue, which waits for the first one */
        if (err == CL_SUCCESS) err = clmem_svm_allocation_bind_to_queue(in, second);
        if (err == CL_SUCCESS && clmem_svm_allocation_queue(in) != second) err = -3;
    }
    if (err == CL_SUCCESS) err = clmem_svm_allocation_release(&in); /* while the kernel waits */
    else clmem_svm_allocation_release(&in);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    if (second) clFinish(second);
    memset(host, 0, sizeof host);
    if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, (void *)host, out);
    clmem_buffer_release(&out);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < M; ++i) CLMEM_CHECK_EQ(t, host[i], (int)(i * 7 + 1));
}

static void test_release_while_in_use(clmem_test_context *t) {
    NEED_SVM(t);
    run_release_while_in_use(t, NULL);
}

static void test_rebind_two_queues(clmem_test_context *t) {
    cl_int err;
    cl_command_queue q2;
    NEED_SVM(t);
    q2 = clCreateCommandQueueWithProperties(t->context, t->device, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    run_release_while_in_use(t, q2);
    clFinish(q2);
    clReleaseCommandQueue(q2);
}

static void test_maps(clmem_test_context *t) {
    cl_int err;
    cl_event ev = NULL, gate, unmapped = NULL;
    cl_command_queue q2;
    clmem_svm_allocation a;
    clmem_svm_map m, copy;
    int status = -1;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    /* .size is honoured (PyOpenCL maps the whole allocation) */
    CLMEM_CHECK_CL(t, clmem_svm_map_rw(t->queue, a.svm, &m, .size = 8, .event = &ev));
    CLMEM_CHECK_EQ(t, m.size, 8);
    CLMEM_CHECK(t, m.event != NULL && ev == m.event);
    clReleaseEvent(ev);
    copy = m;
    CLMEM_CHECK_CL(t, clmem_release(&m));
    CLMEM_CHECK(t, m.ptr == NULL && m.event == NULL);
    CLMEM_CHECK_ERR(t, clmem_svm_map_release(&m), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_svm_map_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_svm_map_release: the SVM map") != NULL);
    /* non-blocking map, released on another queue behind a wait list */
    q2 = clCreateCommandQueueWithProperties(t->context, t->device, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    err = clmem_enqueue_svm_map(t->queue, a.svm, CL_MAP_WRITE_INVALIDATE_REGION, &m, .is_blocking = CLMEM_NON_BLOCKING);
    if (err == CL_SUCCESS) err = clWaitForEvents(1, &m.event);
    gate = clCreateUserEvent(t->context, &err);
    if (err == CL_SUCCESS) err = clmem_svm_map_release(&m, .queue = q2, CLMEM_WAIT_FOR(gate), .event = &unmapped);
    if (err == CL_SUCCESS) {
        clGetEventInfo(unmapped, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (status == CL_COMPLETE) err = -4; /* the wait list was not honoured */
    }
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    if (unmapped) {
        clWaitForEvents(1, &unmapped);
        clReleaseEvent(unmapped);
    }
    clReleaseCommandQueue(q2);
    CLMEM_CHECK_CL(t, err);
    /* rejections */
    CLMEM_CHECK_ERR(t, clmem_svm_map_rw(t->queue, a.svm, &m, .size = 65), CL_INVALID_VALUE);
    CLMEM_CHECK(t, m.id == 0 && m.ptr == NULL);
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m)); /* an empty handle */
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_map(t->queue, a.svm, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, &m),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_map(t->queue, a.svm, 0x80, &m), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_svm_map_rw(t->queue, clmem_svm_tag(a.svm.ptr, 0), &m), CLMEM_ERROR_SIZE_UNKNOWN);
    CLMEM_CHECK_ERR(t, clmem_svm_map_rw(t->queue, a.svm, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    CLMEM_CHECK_ERR(t, clmem_svm_map_rw(t->queue, a.svm, &m), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
}

static void test_as_buffer_and_args(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocation a;
    clmem_buffer b;
    cl_kernel k;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 256, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_svm_as_buffer(t->context, a.svm, 0, 128, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, b.size, 128);
    CLMEM_CHECK(t, b.flags & CL_MEM_USE_HOST_PTR);
    CLMEM_CHECK(t, clmem_buffer_hostbuf(b) == a.svm.ptr);
    clmem_buffer_release(&b);
    b = clmem_svm_as_buffer(t->context, a.svm, 0, 257, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK(t, b.mem == NULL);
    b = clmem_svm_as_buffer(t->context, clmem_svm_tag(a.svm.ptr, 0), 0, 0, &err);
    CLMEM_CHECK_EQ(t, err, CLMEM_ERROR_SIZE_UNKNOWN);
    k = build_kernel(t, twice_src, "twice");
    if (!k) {
        clmem_svm_allocation_release(&a);
        return;
    }
    err = clmem_set_kernel_arg(k, 0, a.svm);
    if (err == CL_SUCCESS) { /* an empty handle is refused, as every kind's is */
        clmem_svm empty;
        memset(&empty, 0, sizeof empty);
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, empty), CL_INVALID_ARG_VALUE);
    }
    clmem_svm_allocation_release(&a);
    if (err == CL_SUCCESS) {
        clmem_clear_error();
        err = clmem_set_kernel_arg(k, 0, a.svm); /* released */
        if (err == CL_INVALID_VALUE && !strstr(clmem_last_error_message(), "released")) err = -5;
    }
    clReleaseKernel(k);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
}

static void test_svm_empty_shapes(clmem_test_context *t) {
    clmem_svm_array c, f, like, z;
    cl_int err;
    NEED_SVM(t);
    CLMEM_CHECK_CL(t, (c = clmem_csvm_empty(t->context, double, &err, .shape = {3, 4}), err));
    CLMEM_CHECK_EQ(t, c.svm.size, 96); /* PyOpenCL: (3,4) float64 -> .base.size == 96 */
    CLMEM_CHECK_EQ(t, c.ndim, 2);
    CLMEM_CHECK_EQ(t, c.order, 'C');
    CLMEM_CHECK_EQ(t, c.strides[0], 32);
    CLMEM_CHECK_EQ(t, c.strides[1], 8);
    CLMEM_CHECK_EQ(t, c.alignment, 8);
    f = clmem_svm_empty(t->context, CL_MEM_READ_WRITE, cl_float4, &err, .shape = {3, 4, 5}, .order = 'F', .alignment = 128);
    if (err != CL_SUCCESS) clmem_svm_array_release(&c);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, f.svm.size, 3 * 4 * 5 * 16);
    CLMEM_CHECK_EQ(t, f.strides[0], 16);
    CLMEM_CHECK_EQ(t, f.strides[1], 48);
    CLMEM_CHECK_EQ(t, f.strides[2], 192);
    CLMEM_CHECK_EQ(t, (uintptr_t)f.svm.ptr % 128, 0);
    /* _like copies dtype, shape and order, and forwards the alignment */
    like = clmem_csvm_empty_like(t->context, &f, &err, .alignment = 64);
    if (err == CL_SUCCESS) {
        if (like.svm.size != f.svm.size || like.order != 'F' || like.strides[2] != 192 || like.alignment != 64 ||
            strcmp(like.dtype, "cl_float4") != 0 || (uintptr_t)like.svm.ptr % 64 != 0)
            err = -6;
        clmem_svm_array_release(&like);
    }
    clmem_svm_array_release(&f);
    clmem_svm_array_release(&c);
    CLMEM_CHECK_CL(t, err);
    /* zero-length arrays are empty allocations */
    CLMEM_CHECK_CL(t, (z = clmem_fsvm_empty(t->context, int, &err, .shape = {0}, .ndim = 1), err));
    CLMEM_CHECK(t, z.svm.ptr == NULL);
    CLMEM_CHECK_EQ(t, z.svm.size, 0);
    CLMEM_CHECK_CL(t, clmem_svm_array_release(&z));
    /* rejections */
    CLMEM_CHECK_ERR(t, (z = clmem_csvm_empty(t->context, int, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "no shape") != NULL);
    CLMEM_CHECK_ERR(t, (z = clmem_csvm_empty(t->context, int, &err, .shape = {4}, .order = 'X'), err), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (z = clmem_csvm_empty(t->context, int, &err, .shape = {4}, .ndim = CLMEM_SVM_MAX_DIMS + 1), err), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, (z = clmem_csvm_empty(t->context, double, &err, .shape = {SIZE_MAX / 4, 4}), err), CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK_ERR(t, (z = clmem_csvm_empty_like(t->context, NULL, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, z.svm.ptr == NULL);
}

static const clmem_test_case cases[] = {
    {"coarse_grain_opaque", test_coarse_grain_opaque, false},
    {"coarse_grain_tagged", test_coarse_grain_tagged, false},
    {"read_only_input", test_read_only_input, false},
    {"fine_grain", test_fine_grain, false},
    {"release_while_in_use", test_release_while_in_use, false},
    {"rebind_two_queues", test_rebind_two_queues, false},
    {"maps", test_maps, false},
    {"as_buffer_and_args", test_as_buffer_and_args, false},
    {"svm_empty_shapes", test_svm_empty_shapes, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
