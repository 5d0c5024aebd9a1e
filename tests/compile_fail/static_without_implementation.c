/* expect: CLMEM_STATIC makes every function static, so define CLMEM_IMPLEMENTATION too */
#define CLMEM_STATIC
#include "clmem.h"
int main(void) {
    return clmem_error_string(CL_SUCCESS)[0] == 'C' ? 0 : 1;
}
