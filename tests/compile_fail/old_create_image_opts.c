/* expect: clmem 0.2.0: clmem_create_image_opts and clmem_image_from_array_opts take cl_int *errcode_ret before the options */
#include "clmem.h"
clmem_image f(cl_context ctx);
clmem_image f(cl_context ctx) {
    cl_int err;
    /* 0.1.0 order: options, then errcode_ret (here NULL options, which took the defaults) */
    return clmem_create_image_opts(ctx, 0, clmem_image_format_create(CL_R, CL_FLOAT), NULL, &err);
}
