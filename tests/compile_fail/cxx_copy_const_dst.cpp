// expect: clmem_enqueue_copy: the destination host pointer points to const
#include "clmem.h"
int main() {
    const float a[4] = {0, 0, 0, 0};
    clmem_buffer b = clmem_buffer();
    return clmem_enqueue_copy((cl_command_queue)0, a, b);
}
