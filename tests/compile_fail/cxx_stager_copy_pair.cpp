// expect: clmem_stager_copy: a stager copies between a clmem_buffer and host memory only
#include "clmem.h"
int main() {
    clmem_buffer a = clmem_buffer(), b = clmem_buffer();
    return clmem_stager_copy((clmem_stager *)0, a, b);
}
