/* expect: see the DISPATCH TABLE in clmem.h */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main(void) {
    clmem_usm u = {0};
    clmem_svm s = {0};
    return clmem_enqueue_copy((cl_command_queue)0, u, s);
}
