/* context_loop.c - contexts made and released in a loop, each with a command queue
   (what every test case does; argv[1] "2": contexts of two devices, as in
   multidev_context). PoCL 6.0's remote client hangs now and then in clCreateContext:
   pocl_network_create_queue waits forever on a condition variable that the writer
   thread corrupted by storing a timestamp into a finished command on the caller's
   stack (tools/remote says more and carries the fix). Run it under a time limit, as
   tools/remote --repro does: there Debian's client hangs (or crashes) in most runs,
   the fixed client never did. */
#include "repro.h"

enum { ROUNDS = 2000 };

int main(int argc, char **argv) {
    repro r;
    int i, j, n = argc > 1 && argv[1][0] == '2' ? 2 : 1;
    cl_int err;
    repro_open(&r, (cl_uint)n);
    for (i = 0; i < ROUNDS; ++i) {
        cl_context c = clCreateContext(NULL, (cl_uint)n, r.dev, NULL, NULL, &err);
        cl_command_queue q[2];
        REPRO_CL(&r, err);
        for (j = 0; j < n; ++j) {
            q[j] = clCreateCommandQueueWithProperties(c, r.dev[j], NULL, &err);
            REPRO_CL(&r, err);
        }
        for (j = 0; j < n; ++j) clReleaseCommandQueue(q[j]);
        clReleaseContext(c);
    }
    printf("%d contexts made and released\n", ROUNDS);
    return repro_close(&r);
}
