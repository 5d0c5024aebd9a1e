/* A program of the exporting parent: clmem's functions come from mylib. */
#include "clmem.h"
#include <stdio.h>
#include <string.h>

int main(void) {
    if (strcmp(clmem_error_string(CL_INVALID_VALUE), "CL_INVALID_VALUE") != 0) return 1;
    printf("ok: an exporting parent links clmem::clmem (%s)\n", CLMEM_VERSION_STRING);
    return 0;
}
