/* tests/fuzz/fuzz.h - shared by the libFuzzer targets (not part of clmem).
   Each target defines LLVMFuzzerTestOneInput. Built with clang -fsanitize=fuzzer it is
   a libFuzzer binary; built without (CLMEM_FUZZ_REPLAY), replay.c gives it a main that
   runs every file of the corpus directories named on the command line (CI does this
   with tests/fuzz/corpus/<target>). A target reports a disagreement with its reference
   model through fuzz_fail, which aborts (libFuzzer saves the input; replay fails). */
#ifndef CLMEM_FUZZ_H
#define CLMEM_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A reader over the fuzzer's bytes: past the end it yields zeros. */
typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static inline uint8_t fuzz_u8(fuzz_in *in) {
    uint8_t v = 0;
    if (in->n) {
        v = *in->p++;
        in->n--;
    }
    return v;
}

/* fuzz_size(in, small): mostly values below `small`, sometimes one of the values
   that break arithmetic (0, 1, powers of two, SIZE_MAX and its neighbours). */
static inline size_t fuzz_size(fuzz_in *in, size_t small) {
    static const size_t huge[] = {0,
                                  1,
                                  2,
                                  3,
                                  (size_t)1 << 31,
                                  (size_t)1 << 32,
                                  (size_t)1 << 62,
                                  ((size_t)1 << 63) + 1,
                                  SIZE_MAX,
                                  SIZE_MAX - 1,
                                  SIZE_MAX / 2,
                                  SIZE_MAX / 3 + 1,
                                  SIZE_MAX / 4,
                                  (SIZE_MAX >> 1) + 1,
                                  65536,
                                  4096};
    uint8_t sel = fuzz_u8(in);
    if (sel >= 0xF0) return huge[sel & 0x0F];
    return small ? (size_t)(((size_t)sel << 8 | fuzz_u8(in)) % small) : 0;
}

#define fuzz_fail(...)                                                     \
    do {                                                                   \
        fprintf(stderr, "%s:%d: model disagrees: ", __FILE__, __LINE__);  \
        fprintf(stderr, __VA_ARGS__);                                      \
        fprintf(stderr, "\n");                                             \
        abort();                                                           \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
