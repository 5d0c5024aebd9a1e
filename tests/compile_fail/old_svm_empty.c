/* expect: the svm_empty family returns the array and takes cl_int *errcode_ret where it took the array */
#include "clmem.h"
void f(cl_context ctx, clmem_svm_array *a);
void f(cl_context ctx, clmem_svm_array *a) {
    clmem_fsvm_empty(ctx, float, a, .shape = {4}); /* 0.1.0: filled *a and returned the code */
}
