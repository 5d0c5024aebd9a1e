/* clmem_kernel_set_exec_info (clSetKernelExecInfo with clmem_svm handles): the SVM
   linked-list sample, a list whose nodes live in separate SVM allocations and point
   to each other, walked by a kernel that is given only the head; the other nodes
   reach it through CL_KERNEL_EXEC_INFO_SVM_PTRS. Then every rejection, and the
   fine-grain-system flag where a device has (or lacks) system SVM. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <stdlib.h>

/* The node as the kernel sees it; the host's layout matches where the device's
   pointers are as wide as the host's (checked: CL_DEVICE_ADDRESS_BITS). */
typedef struct node {
    cl_int value;
    cl_int pad;
    struct node *next;
} node;

static const char walk_src[] =
    "typedef struct node { int value; int pad; __global struct node *next; } node;\n"
    "__kernel void walk(__global node *head, __global int *out) {\n"
    "  int sum = 0, count = 0;\n"
    "  for (__global node *n = head; n; n = n->next) { sum += n->value; ++count; n->pad = count; }\n"
    "  out[0] = sum; out[1] = count; }\n";

enum { NODES = 24 };

#ifdef CL_VERSION_2_0
static int host_pointers_fit(clmem_test_context *t) {
    cl_uint bits = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
    return bits == sizeof(void *) * 8;
}

/* Write node i of the list (value i*3+1, next: node i+1) into the SVM memory of a[i]
   (coarse grain: through a map). */
static cl_int write_node(clmem_test_context *t, clmem_svm_allocation *a, int i, int fine) {
    node *n;
    clmem_svm_map m;
    cl_int err = CL_SUCCESS;
    if (fine) {
        n = (node *)a[i].svm.ptr;
    } else {
        err = clmem_svm_map_rw(t->queue, a[i].svm, &m);
        if (err != CL_SUCCESS) return err;
        n = (node *)m.ptr;
    }
    n->value = i * 3 + 1;
    n->pad = 0;
    n->next = i + 1 < NODES ? (node *)a[i + 1].svm.ptr : NULL;
    if (!fine) err = clmem_svm_map_release(&m);
    return err;
}

/* Build the list, walk it from its head with every other node named through
   clmem_kernel_set_exec_info, and check the sum, the count and what the kernel
   wrote into every node. */
static void walk_list(clmem_test_context *t, cl_svm_mem_flags flags) {
    const int fine = (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) != 0;
    clmem_svm_allocation a[NODES];
    clmem_svm rest[NODES - 1];
    clmem_buffer out;
    cl_kernel k;
    cl_int err = CL_SUCCESS, result[2] = {0, 0}, want = 0;
    size_t one = 1;
    int i, made = 0;
    for (i = 0; i < NODES && err == CL_SUCCESS; ++i) {
        a[i] = clmem_svm_allocation_create(t->context, sizeof(node), 0, flags, t->queue, &err);
        if (err == CL_SUCCESS) ++made;
    }
    for (i = 0; i < made && err == CL_SUCCESS; ++i) err = write_node(t, a, i, fine);
    for (i = 1; i < NODES; ++i) rest[i - 1] = a[i < made ? i : 0].svm;
    out = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, sizeof result, NULL, NULL);
    k = build_kernel(t, walk_src, "walk");
    if (err == CL_SUCCESS && (!k || !out.mem)) err = -1;
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 0, a[0].svm);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 1, out);
    if (err == CL_SUCCESS) err = clmem_kernel_set_exec_info(k, rest, NODES - 1, CL_FALSE);
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, (void *)result, out);
    if (err == CL_SUCCESS) err = clFinish(t->queue);
    for (i = 0; i < NODES; ++i) want += i * 3 + 1;
    /* the kernel numbered the nodes as it went: read them back */
    for (i = 0; i < made && err == CL_SUCCESS; ++i) {
        node back;
        err = clmem_enqueue_copy(t->queue, (void *)&back, a[i].svm);
        if (err == CL_SUCCESS && (back.pad != i + 1 || back.value != i * 3 + 1)) err = -2;
    }
    if (k) clReleaseKernel(k);
    clmem_buffer_release(&out);
    for (i = 0; i < made; ++i) clmem_svm_allocation_release(&a[i]);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, result[0], want);
    CLMEM_CHECK_EQ(t, result[1], NODES);
}
#endif

static void test_linked_list_coarse(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no coarse-grain buffer SVM");
        return;
    }
    if (!host_pointers_fit(t)) {
        clmem_test_skip(t, "device pointers are not %u bits wide like the host's", (unsigned)(sizeof(void *) * 8));
        return;
    }
    walk_list(t, CL_MEM_READ_WRITE);
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

static void test_linked_list_fine(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    if (!device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no fine-grain buffer SVM");
        return;
    }
    if (!host_pointers_fit(t)) {
        clmem_test_skip(t, "device pointers are not %u bits wide like the host's", (unsigned)(sizeof(void *) * 8));
        return;
    }
    walk_list(t, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER);
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

/* Fine-grain system SVM: nodes from malloc, no clSVMAlloc at all. */
static void test_fine_grain_system(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    node *nodes;
    clmem_buffer out;
    cl_kernel k;
    cl_int err = CL_SUCCESS, result[2] = {0, 0}, want = 0;
    size_t one = 1;
    int i;
    if (!device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) {
        clmem_test_skip(t, "device has no fine-grain system SVM (the refusal is tested in 'rejections')");
        return;
    }
    if (!host_pointers_fit(t)) {
        clmem_test_skip(t, "device pointers are not as wide as the host's");
        return;
    }
    nodes = (node *)malloc(sizeof(node) * NODES);
    CLMEM_CHECK(t, nodes != NULL);
    for (i = 0; i < NODES; ++i) {
        nodes[i].value = i * 3 + 1;
        nodes[i].pad = 0;
        nodes[i].next = i + 1 < NODES ? &nodes[i + 1] : NULL;
        want += i * 3 + 1;
    }
    out = clmem_buffer_create(t->context, CL_MEM_READ_WRITE, sizeof result, NULL, &err);
    k = build_kernel(t, walk_src, "walk");
    if (err == CL_SUCCESS && !k) err = -1;
    if (err == CL_SUCCESS) err = clmem_kernel_set_exec_info(k, NULL, 0, CL_TRUE);
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 0, clmem_svm_tag(nodes, sizeof(node) * NODES));
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 1, out);
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clmem_enqueue_copy(t->queue, (void *)result, out);
    if (err == CL_SUCCESS) err = clFinish(t->queue);
    for (i = 0; i < NODES && err == CL_SUCCESS; ++i)
        if (nodes[i].pad != i + 1) err = -2;
    /* and off again */
    if (err == CL_SUCCESS) err = clmem_kernel_set_exec_info(k, NULL, 0, CL_FALSE);
    if (k) clReleaseKernel(k);
    clmem_buffer_release(&out);
    free(nodes);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, result[0], want);
    CLMEM_CHECK_EQ(t, result[1], NODES);
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

static void test_rejections(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    clmem_svm_allocation a, b, other_a;
    clmem_svm list[2];
    cl_context other;
    cl_kernel k;
    cl_int err;
    int fgs = device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_SYSTEM);
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no SVM (see 'no_svm')");
        return;
    }
    CLMEM_CHECK_ERR(t, clmem_kernel_set_exec_info(NULL, NULL, 0, CL_FALSE), CL_INVALID_KERNEL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_kernel_set_exec_info: kernel is NULL") != NULL);
    k = build_kernel(t, walk_src, "walk");
    CLMEM_CHECK(t, k != NULL);
    a = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
    b = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
    other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    other_a = clmem_svm_allocation_create(other, 64, 0, 0, NULL, &err);
    if (!a.svm.ptr || !b.svm.ptr || !other_a.svm.ptr) err = -1;
    list[0] = a.svm;
    list[1] = b.svm;
    /* nothing to set: fine */
    if (err == CL_SUCCESS) err = clmem_kernel_set_exec_info(k, NULL, 0, CL_FALSE);
    if (err == CL_SUCCESS) err = clmem_kernel_set_exec_info(k, list, 2, CL_FALSE);
    /* an interior pointer is an SVM pointer too */
    if (err == CL_SUCCESS) {
        clmem_svm inner = a.svm;
        inner.ptr = (char *)a.svm.ptr + 16;
        err = clmem_kernel_set_exec_info(k, &inner, 1, CL_FALSE);
    }
    if (err != CL_SUCCESS) goto done;
#define EXPECT(call, code, text)                                                                           \
    do {                                                                                                   \
        clmem_clear_error();                                                                               \
        if ((call) != (code) || !strstr(clmem_last_error_message(), text)) {                               \
            clmem_test_fail(t, __FILE__, __LINE__, "%s: expected %s with '%s', message '%s'", #call, #code, \
                            text, clmem_last_error_message());                                             \
            goto done;                                                                                     \
        }                                                                                                  \
    } while (0)
    EXPECT(clmem_kernel_set_exec_info(k, list, 0, CL_FALSE), CL_INVALID_VALUE, "n is 0 but svms is not NULL");
    EXPECT(clmem_kernel_set_exec_info(k, NULL, 2, CL_FALSE), CL_INVALID_VALUE, "svms is NULL but n is 2");
    list[1].ptr = NULL;
    EXPECT(clmem_kernel_set_exec_info(k, list, 2, CL_FALSE), CL_INVALID_VALUE, "svms[1].ptr is NULL");
    list[1] = other_a.svm;
    EXPECT(clmem_kernel_set_exec_info(k, list, 2, CL_FALSE), CL_INVALID_CONTEXT, "svms[1] (SVM pointer");
    list[1] = b.svm;
    clmem_svm_allocation_release(&b);
    EXPECT(clmem_kernel_set_exec_info(k, list, 2, CL_FALSE), CL_INVALID_VALUE, "svms[1] (SVM pointer");
    EXPECT(clmem_kernel_set_exec_info(k, list, 2, CL_FALSE), CL_INVALID_VALUE, "was released");
    if (!fgs)
        EXPECT(clmem_kernel_set_exec_info(k, NULL, 0, CL_TRUE), CL_INVALID_OPERATION,
               "fine_grain_system is CL_TRUE but no device of the kernel's context has fine-grain system SVM");
#undef EXPECT
done:
    clmem_svm_allocation_release(&a);
    clmem_svm_allocation_release(&b);
    clmem_svm_allocation_release(&other_a);
    if (other) clReleaseContext(other);
    clReleaseKernel(k);
    CLMEM_CHECK_CL(t, err);
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

/* A device without SVM (an OpenCL 1.2 device such as Oclgrind): refused in words. */
static void test_no_svm(clmem_test_context *t) {
    cl_kernel k;
    cl_int err;
#ifdef CL_VERSION_2_0
    if (device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has SVM");
        return;
    }
#endif
    k = build_kernel(t, "__kernel void f(__global int *x) { x[0] = 1; }\n", "f");
    CLMEM_CHECK(t, k != NULL);
    clmem_clear_error();
    err = clmem_kernel_set_exec_info(k, NULL, 0, CL_FALSE);
    clReleaseKernel(k);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "SVM") != NULL);
}

static const clmem_test_case cases[] = {
    {"linked_list_coarse", test_linked_list_coarse, false},
    {"linked_list_fine", test_linked_list_fine, false},
    {"fine_grain_system", test_fine_grain_system, false},
    {"rejections", test_rejections, false},
    {"no_svm", test_no_svm, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
