// expect: clmem_enqueue_copy: OpenCL has no copy between these types
#include "clmem.h"
int main() {
    clmem_usm u = clmem_usm_tag(0, 0, 0, 0);
    clmem_buffer b = clmem_buffer();
    return clmem_enqueue_copy((cl_command_queue)0, u, b);
}
