/* expect: clmem.h needs OpenCL 1.2 headers or later */
#define CL_TARGET_OPENCL_VERSION 110
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main(void) { return 0; }
