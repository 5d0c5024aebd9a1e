/* A project using the installed clmem. */
#define CLMEM_IMPLEMENTATION
#include <clmem.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    if (strcmp(clmem_error_string(CL_MISALIGNED_SUB_BUFFER_OFFSET), "CL_MISALIGNED_SUB_BUFFER_OFFSET") != 0) return 1;
    printf("ok: installed clmem %s\n", CLMEM_VERSION_STRING);
    return 0;
}
