/* Two-translation-unit link test, unit 2: declarations only. */
#include "clmem.h"
#include "clmem.h"
#include <string.h>

int user_unit_check(void) {
    return strcmp(clmem_error_string(CL_MEM_COPY_OVERLAP), "CL_MEM_COPY_OVERLAP") != 0 ||
           strcmp(CLMEM_VERSION_STRING, "0.1.0") != 0;
}
