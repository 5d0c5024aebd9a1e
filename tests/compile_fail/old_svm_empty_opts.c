/* expect: clmem 0.2.0: the svm_empty family returns the array and takes cl_int *errcode_ret where it took the array, before the options */
#include "clmem.h"
void f(cl_context ctx, clmem_svm_array *a);
void f(cl_context ctx, clmem_svm_array *a) {
    clmem_svm_empty_opts(ctx, CL_MEM_READ_WRITE, sizeof(float), "float", a, NULL);
}
