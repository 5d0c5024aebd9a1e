/* clmem_release(&handle) of every handle kind, from C (_Generic); the cases are in
   tests/release_cases.h, which cxx_release.cpp runs from C++. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#define OPT(name, ...) .name = __VA_ARGS__
#include "release_cases.h"

static const clmem_test_case cases[] = {RELEASE_CASES};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
