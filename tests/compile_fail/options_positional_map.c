/* expect: clmem_options_are_named__write_e_g__is_blocking_eq_false || positional initialization of field */
#include "clmem.h"
/* A map with its blocking flag given without its name, after a named option. */
int f(cl_command_queue q, clmem_buffer buf, clmem_memory_map *m);
int f(cl_command_queue q, clmem_buffer buf, clmem_memory_map *m) {
    return clmem_enqueue_map_buffer(q, buf, CL_MAP_READ, 0, float, m, 1);
}
