/* CLMEM_NO_VALIDATION compiles the checks out; the header must still build clean. */
#define CLMEM_NO_VALIDATION
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <stdio.h>

int main(void) {
    printf("ok: %s built without validation\n", CLMEM_VERSION_STRING);
    return 0;
}
