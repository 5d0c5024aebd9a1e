/* Two-translation-unit link test, unit 2: declarations only. */
#include "clmem.h"
#include "clmem.h"
#include <string.h>

int user_unit_check(void);

/* CLMEM_VERSION is one number usable in #if: MAJOR * 10000 + MINOR * 100 + PATCH. */
#if !defined(CLMEM_VERSION) || CLMEM_VERSION != CLMEM_VERSION_MAJOR * 10000 + CLMEM_VERSION_MINOR * 100 + CLMEM_VERSION_PATCH
#error "CLMEM_VERSION should be MAJOR * 10000 + MINOR * 100 + PATCH"
#endif
#define USER_UNIT_STR2(x) #x
#define USER_UNIT_STR(x) USER_UNIT_STR2(x)

int user_unit_check(void) {
    return strcmp(clmem_error_string(CL_MEM_COPY_OVERLAP), "CL_MEM_COPY_OVERLAP") != 0 ||
           strcmp(CLMEM_VERSION_STRING, USER_UNIT_STR(CLMEM_VERSION_MAJOR) "." USER_UNIT_STR(
                                             CLMEM_VERSION_MINOR) "." USER_UNIT_STR(CLMEM_VERSION_PATCH)) != 0;
}
