/* expect: clmem_stager_copy: a stager copies between a clmem_buffer and host memory only */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main(void) {
    clmem_buffer a = CLMEM__ZERO, b = CLMEM__ZERO;
    return clmem_stager_copy((clmem_stager *)0, a, b);
}
