/* Two-translation-unit link test, unit 2: declarations only. */
#include "clmem.h"
#include "clmem.h"
#include <string.h>

int user_unit_check(void);

/* CLMEM_VERSION is one number usable in #if: MAJOR * 10000 + MINOR * 100 + PATCH. */
#if !defined(CLMEM_VERSION) || CLMEM_VERSION != 201
#error "CLMEM_VERSION should be 201 for 0.2.1"
#endif

int user_unit_check(void) {
    return strcmp(clmem_error_string(CL_MEM_COPY_OVERLAP), "CL_MEM_COPY_OVERLAP") != 0 ||
           strcmp(CLMEM_VERSION_STRING, "0.2.1") != 0;
}
