/* expect: clmem_options_are_named__write_e_g__is_blocking_eq_false || positional initialization of field */
#include "clmem.h"
#include <stdbool.h>
/* The raw call's habit: is_blocking as a fourth positional argument. */
int f(cl_command_queue q, clmem_buffer buf, float *host);
int f(cl_command_queue q, clmem_buffer buf, float *host) {
    return clmem_enqueue_copy(q, host, buf, false);
}
