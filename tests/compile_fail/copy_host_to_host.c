/* expect: clmem_enqueue_copy: OpenCL has no copy between these types */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main(void) {
    float a[4] = {0}, b[4] = {0};
    return clmem_enqueue_copy((cl_command_queue)0, a, b);
}
