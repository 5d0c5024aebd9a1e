/* CLMEM_STATIC: each unit compiles a private copy; linking both must not clash. */
#define CLMEM_STATIC
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <stdio.h>
#include <string.h>

const char *static_b_name(cl_int code);

int main(void) {
    if (strcmp(clmem_error_string(CL_INVALID_HOST_PTR), static_b_name(CL_INVALID_HOST_PTR)) != 0) return 1;
    puts("ok: two private copies under CLMEM_STATIC");
    return 0;
}
