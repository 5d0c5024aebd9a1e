// expect: clmem_set_kernel_arg: the value must be a clmem handle
#include "clmem.h"
int main() {
    float x[4] = {0, 0, 0, 0};
    return clmem_set_kernel_arg((cl_kernel)0, 0, x);
}
