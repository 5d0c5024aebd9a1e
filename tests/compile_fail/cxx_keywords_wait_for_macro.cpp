// expect: with keywords write clmem::wait_for(e1, e2)
// Where designators exist CLMEM_WAIT_FOR expands to designators: a keyword call says so.
#include "clmem.h"
int main() {
    clmem_buffer b = clmem_buffer();
    float h[4];
    cl_event e = NULL;
    return clmem_enqueue_copy((cl_command_queue)0, h, b, clmem::byte_count = 4, CLMEM_WAIT_FOR(e));
}
