/* expect: clmem.h needs OpenCL 1.2 headers or later */
#define CL_TARGET_OPENCL_VERSION 100
#include "clmem.h"
int main(void) { return 0; }
