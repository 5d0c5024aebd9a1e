// expect: declaration order
#include "clmem.h"
int main() {
    clmem_buffer b = clmem_buffer();
    float h[4];
#if CLMEM_CXX_DESIGNATORS
    return clmem_enqueue_copy((cl_command_queue)0, h, b, .src_offset = 4, .byte_count = 4);
#else
#error "designators need C++20: this test is built as C++20 only"
#endif
}
