// The header, implementation included, compiles as C++ (overloads stand in for _Generic).
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <cstdio>
#include <cstring>

int main() {
    if (std::strcmp(clmem_error_string(CL_INVALID_VALUE), "CL_INVALID_VALUE") != 0) return 1;
    std::puts("ok: clmem.h compiles as C++");
    return 0;
}
