/* svm_linked_list.c - a linked list in shared virtual memory, walked by a kernel.

   Each node is its own SVM allocation and points to the next. The kernel gets only
   the head as an argument; the other nodes are named with clmem_kernel_set_exec_info
   (clSetKernelExecInfo's CL_KERNEL_EXEC_INFO_SVM_PTRS), and the list is freed from the
   host by following the pointers: clmem_svm_allocation_lookup finds each node's
   allocation from its address. No raw OpenCL call touches memory.

   Build: cc -std=c11 -I. examples/svm_linked_list.c -o svm_linked_list -lOpenCL */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>

typedef struct node {
    cl_int value;
    cl_int visits;
    struct node *next; /* the device sees the same address (CL_DEVICE_ADDRESS_BITS 64) */
} node;

static const char *src =
    "typedef struct node { int value; int visits; __global struct node *next; } node;\n"
    "__kernel void walk(__global node *head, __global int *sum) {\n"
    "  int s = 0;\n"
    "  for (__global node *n = head; n; n = n->next) { s += n->value; n->visits += 1; }\n"
    "  *sum = s; }\n";

enum { N = 10 };

int main(void) {
    clmem_test_device d;
    size_t count = 0, one = 1;
    cl_int err, sum = 0;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    clmem_svm_allocation nodes[N];
    clmem_svm rest[N - 1];
    clmem_buffer out;
    node *n;
    int i;
    if (clmem_get_test_platforms_and_devices(NULL, &d, 1, &count) != CL_SUCCESS || count == 0) {
        fprintf(stderr, "no OpenCL device: %s\n", clmem_last_error_message());
        return 1;
    }
    ctx = clCreateContext(NULL, 1, &d.device, NULL, NULL, &err);
    q = clCreateCommandQueueWithProperties(ctx, d.device, NULL, &err);

    /* the list: node i holds i + 1 and points to node i + 1 (coarse-grain SVM is
       written through a map) */
    for (i = 0; i < N; ++i) {
        nodes[i] = clmem_svm_allocation_create(ctx, sizeof(node), 0, CL_MEM_READ_WRITE, q, &err);
        if (err != CL_SUCCESS) {
            printf("no SVM here: %s\n", clmem_last_error_message());
            while (i-- > 0) clmem_svm_allocation_release(&nodes[i]);
            clReleaseCommandQueue(q);
            clReleaseContext(ctx);
            return 0;
        }
    }
    for (i = 0; i < N; ++i) {
        clmem_svm_map m;
        if (clmem_svm_map_rw(q, nodes[i].svm, &m) != CL_SUCCESS) return 1;
        n = (node *)m.ptr;
        n->value = i + 1;
        n->visits = 0;
        n->next = i + 1 < N ? (node *)nodes[i + 1].svm.ptr : NULL;
        clmem_svm_map_release(&m);
    }
    for (i = 1; i < N; ++i) rest[i - 1] = nodes[i].svm;

    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    clBuildProgram(prog, 1, &d.device, "-cl-kernel-arg-info", NULL, NULL);
    k = clCreateKernel(prog, "walk", &err);
    out = clmem_buffer_create(ctx, CL_MEM_WRITE_ONLY, sizeof sum, NULL, &err);
    err = clmem_set_kernel_arg(k, 0, nodes[0].svm);                 /* the head */
    if (err == CL_SUCCESS) err = clmem_set_kernel_arg(k, 1, out);
    if (err == CL_SUCCESS) err = clmem_kernel_set_exec_info(k, rest, N - 1, CL_FALSE); /* the others */
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clmem_enqueue_copy(q, &sum, out);
    if (err != CL_SUCCESS) fprintf(stderr, "failed: %s\n", clmem_last_error_message());
    else printf("sum of the list: %d (expected %d)\n", sum, N * (N + 1) / 2);

    /* free the list from its head, node by node, following the pointers: each
       node's address finds its allocation (read next before freeing the node) */
    n = (node *)nodes[0].svm.ptr;
    while (n) {
        clmem_svm_allocation a;
        node copy;
        clmem_enqueue_copy(q, (void *)&copy, clmem_svm_tag(n, sizeof *n));
        if (clmem_svm_allocation_lookup(&n->visits, &a) != CL_SUCCESS) break; /* an interior pointer */
        clmem_svm_allocation_release(&a);
        n = copy.next;
    }
    /* the handles made at the start know their allocations are gone */
    printf("releasing the head's own handle again: %s\n", clmem_error_string(clmem_svm_allocation_release(&nodes[0])));

    clmem_buffer_release(&out);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return err == CL_SUCCESS && sum == N * (N + 1) / 2 ? 0 : 1;
}
