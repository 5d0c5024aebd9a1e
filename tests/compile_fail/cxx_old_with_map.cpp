// expect: CLMEM_WITH_MAP takes the error variable: write CLMEM_WITH_MAP(m, err, map_call)
#include "clmem.h"
cl_int f(cl_command_queue q, clmem_buffer b) {
    cl_int err = CL_SUCCESS;
    (void)q, (void)b;
    CLMEM_WITH_MAP(m, err = clmem_enqueue_map_buffer(q, b, CL_MAP_READ, 0, float, &m)) {
        static_cast<float *>(m.ptr)[0] = 1;
    }
    return err;
}
