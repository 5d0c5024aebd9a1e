// expect: clmem_svm_map_array_is_now_ptr
#include "clmem.h"
float f(const clmem_svm_map &m) {
    const float *x = static_cast<const float *>(m.array); // 0.1.0's name of .ptr
    return x[0];
}
