// expect: no member named
// (no CLMEM_CXX_DESIGNATORS: a keyword call is a keyword call also where designators exist)
#include "clmem.h"
int main() {
    clmem_buffer b = clmem_buffer();
    float h[4];
    return clmem_enqueue_copy((cl_command_queue)0, h, b, clmem::pattern_size = 4);
}
