/* Two-translation-unit link test, unit 1: the header twice, then the implementation
   (the implementation must still appear: it lives outside the include guard). */
#include "clmem.h"
#include "clmem.h"
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <stdio.h>
#include <string.h>

int user_unit_check(void);

int main(void) {
    if (strcmp(clmem_error_string(CL_INVALID_VALUE), "CL_INVALID_VALUE") != 0) return 1;
    if (user_unit_check() != 0) return 1;
    puts("ok: two units link, one implementation");
    return 0;
}
