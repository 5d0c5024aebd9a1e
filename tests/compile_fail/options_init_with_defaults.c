/* expect: CLMEM_OPTIONS_INIT_is_not_for_this_type__write_CLMEM_X_OPTIONS_INIT_for_clmem_x_options */
#include "clmem.h"
/* The generic initializer on a type with an option whose default is not 0: its zeros
   would silently mean the defaults, so it does not compile; the message names the
   type's own initializer (CLMEM_COPY_OPTIONS_INIT). */
int f(void);
int f(void) {
    clmem_copy_options o = CLMEM_OPTIONS_INIT;
    o.is_blocking = CL_FALSE;
    return o.is_blocking;
}
