// expect: clmem_enqueue_copy: OpenCL has no copy between these types
#include "clmem.h"
int main() {
    float a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0};
    return clmem_enqueue_copy((cl_command_queue)0, a, b);
}
