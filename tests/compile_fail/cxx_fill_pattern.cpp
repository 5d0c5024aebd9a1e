// expect: clmem_enqueue_fill: the pattern must be a scalar or OpenCL vector value
#include "clmem.h"
int main() {
    clmem_buffer b = clmem_buffer();
    return clmem_enqueue_fill((cl_command_queue)0, b, true, 4);
}
