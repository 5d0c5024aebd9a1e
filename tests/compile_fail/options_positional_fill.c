/* expect: clmem_options_are_named__write_e_g__is_blocking_eq_false || positional initialization of field */
#include "clmem.h"
/* A fill's offset given without its name. */
int f(cl_command_queue q, clmem_buffer buf);
int f(cl_command_queue q, clmem_buffer buf) {
    return clmem_enqueue_fill(q, buf, 1.0f, 64, 16);
}
