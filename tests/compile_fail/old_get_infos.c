/* expect: clmem_memory_object_get_infos was renamed: write clmem_memory_object_get_info */
#include "clmem.h"
int f(clmem_buffer b);
int f(clmem_buffer b) {
    clmem_mem_info info;
    return clmem_memory_object_get_infos(b, &info);
}
