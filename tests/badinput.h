/* tests/badinput.h - shared by tests/badinput_*.c (not part of clmem). BAD(t, expr,
   code, fn, ...) runs expr, which must return `code`, and demands that the message
   starts with "fn: " (the function the user called) and contains each further string
   (the argument and the values; at least one). For constructors:
   BAD(t, (h = ctor(..., &e), e), code, fn, "words"). */
#ifndef CLMEM_TESTS_BADINPUT_H
#define CLMEM_TESTS_BADINPUT_H
#include <stdio.h>
#include <string.h>

static unsigned long badinput_cases;

static inline int badinput_words(clmem_test_context *t, const char *file, int line, const char *expr, const char *fn,
                                 const char *const *words) {
    const char *m = clmem_last_error_message();
    size_t n = strlen(fn), i;
    ++badinput_cases;
    if (strncmp(m, fn, n) != 0 || strncmp(m + n, ": ", 2) != 0) {
        clmem_test_fail(t, file, line, "%s: the message does not start with '%s: ': '%s'", expr, fn, m);
        return 0;
    }
    for (i = 0; words[i]; ++i)
        if (!strstr(m, words[i])) {
            clmem_test_fail(t, file, line, "%s: the message lacks '%s': '%s'", expr, words[i], m);
            return 0;
        }
    return 1;
}

#define BAD(t, expr, code, fn, ...)                                                                       \
    do {                                                                                                  \
        static const char *const bad_words_[] = {__VA_ARGS__, NULL};                                          \
        cl_int bad_e_;                                                                                    \
        clmem_clear_error();                                                                              \
        bad_e_ = (expr);                                                                                  \
        if (bad_e_ != (code)) {                                                                           \
            clmem_test_fail((t), __FILE__, __LINE__, "%s returned %s (%d), expected %s (%d): %s", #expr,  \
                            clmem_error_string(bad_e_), (int)bad_e_, clmem_error_string(code), (int)(code), \
                            clmem_last_error_message());                                                  \
            return;                                                                                       \
        }                                                                                                 \
        if (!badinput_words((t), __FILE__, __LINE__, #expr, (fn), bad_words_)) return;                    \
    } while (0)

/* A second context on the test's device: objects of "another context". */
static inline cl_context badinput_other_context(clmem_test_context *t) {
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    return err == CL_SUCCESS ? c : NULL;
}
#endif
