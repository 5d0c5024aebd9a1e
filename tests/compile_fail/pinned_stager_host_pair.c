/* expect: clmem_stager_copy: a stager copies between a clmem_buffer and host memory only */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main(void) {
    float a[4] = {0}, b[4] = {0};
    return clmem_stager_copy((clmem_stager *)0, a, b);
}
