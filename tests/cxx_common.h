// tests/cxx_common.h - shared by the C++ test binaries (tests/cxx_*.cpp).
//
// OPT(name, value) writes one named option in the spelling the build uses, so that one
// test source checks both: `.name = value` where CLMEM_CXX_DESIGNATORS is 1 (C++20, and
// C++14/17 with g++/clang++), `clmem::name = value` where it is 0 (C++11, or asked for).
#ifndef CLMEM_TESTS_CXX_COMMON_H
#define CLMEM_TESTS_CXX_COMMON_H
#include "common.h"
#if CLMEM_CXX_DESIGNATORS
#define OPT(name, ...) .name = __VA_ARGS__
#else
#define OPT(name, ...) clmem::name = __VA_ARGS__
#endif
#define CXX_CASES(...)                                                                   \
    static const clmem_test_case cases[] = {__VA_ARGS__};                                \
    int main(int argc, char **argv) {                                                    \
        return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv);       \
    }
#endif
