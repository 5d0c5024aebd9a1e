/* A Meson project using clmem as a subproject: builds, links OpenCL, and sees the
   version the dependency declares. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <stdio.h>
#include <string.h>

int main(void) {
    if (strcmp(clmem_error_string(CL_MISALIGNED_SUB_BUFFER_OFFSET), "CL_MISALIGNED_SUB_BUFFER_OFFSET") != 0) return 1;
    if (strcmp(CONSUMER_CLMEM_VERSION, CLMEM_VERSION_STRING) != 0) {
        printf("dependency('clmem').version() is %s, the header is %s\n", CONSUMER_CLMEM_VERSION, CLMEM_VERSION_STRING);
        return 1;
    }
    printf("ok: clmem %s as a Meson subproject\n", CLMEM_VERSION_STRING);
    return 0;
}
