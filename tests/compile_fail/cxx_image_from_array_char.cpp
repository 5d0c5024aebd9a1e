// expect: clmem_image_from_array: the element type must be
#include "clmem.h"
int main() {
    char a[4] = {0, 0, 0, 0};
    const size_t shape[1] = {4};
    clmem_image i = clmem_image_from_array((cl_context)0, a, 1, shape, NULL);
    return i.mem != NULL;
}
