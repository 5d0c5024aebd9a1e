/* expect: clmem_image_from_array_opts take cl_int *errcode_ret before the options */
#include "clmem.h"
clmem_image f(cl_context ctx, const float *a);
clmem_image f(cl_context ctx, const float *a) {
    cl_int err;
    clmem_image_from_array_options o;
    memset(&o, 0, sizeof o);
    return clmem_image_from_array_opts(ctx, a, CL_FLOAT, 1, 1, (const size_t[]){4}, &o, &err);
}
