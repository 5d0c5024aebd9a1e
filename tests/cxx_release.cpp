// clmem_release(&handle) of every handle kind, from C++ (overloads); the cases are in
// tests/release_cases.h, which memobj_release.c runs from C.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"
#include "release_cases.h"

CXX_CASES(RELEASE_CASES)
