/* clmem compiles against OpenCL 1.2 headers: 2.0 features (SVM, pipes) report
   CL_INVALID_OPERATION at run time instead of failing the build. */
#define CL_TARGET_OPENCL_VERSION 120
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <stdio.h>

int main(void) {
    printf("ok: clmem %s built against OpenCL 1.2 headers\n", CLMEM_VERSION_STRING);
    return 0;
}
