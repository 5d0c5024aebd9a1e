/* arg_size.c - clSetKernelArg with a size that is not the argument's: a double (8
   bytes) for a float parameter must be refused with CL_INVALID_ARG_SIZE, an index past
   the last parameter with CL_INVALID_ARG_INDEX (transfer_copy's
   kernel_arg_driver_refusals). */
#include "repro.h"

int main(void) {
    repro r;
    cl_int err, e_size, e_index, e_ok;
    static const char *src = "__kernel void k(__global float *y, float a) { y[get_global_id(0)] = a; }\n";
    const double d = 2.0;
    const float f = 2.0f;
    cl_program p;
    cl_kernel k;
    repro_open(&r, 1);
    p = clCreateProgramWithSource(r.ctx, 1, &src, NULL, &err);
    REPRO_CL(&r, err);
    REPRO_CL(&r, clBuildProgram(p, 1, r.dev, "", NULL, NULL));
    k = clCreateKernel(p, "k", &err);
    REPRO_CL(&r, err);
    e_size = clSetKernelArg(k, 1, sizeof d, &d);
    e_ok = clSetKernelArg(k, 1, sizeof f, &f);
    e_index = clSetKernelArg(k, 9, sizeof f, &f);
    printf("clSetKernelArg: 8 bytes for a float: %d; 4 bytes: %d; index 9 of 2: %d\n", e_size, e_ok, e_index);
    REPRO_EXPECT(&r, e_size == CL_INVALID_ARG_SIZE, "8 bytes for a float argument: %d, not CL_INVALID_ARG_SIZE (%d)", e_size,
                 CL_INVALID_ARG_SIZE);
    REPRO_EXPECT(&r, e_ok == CL_SUCCESS, "4 bytes for a float argument: %d", e_ok);
    REPRO_EXPECT(&r, e_index == CL_INVALID_ARG_INDEX, "index 9: %d, not CL_INVALID_ARG_INDEX (%d)", e_index,
                 CL_INVALID_ARG_INDEX);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return repro_close(&r);
}
