/* bench/bench.h - the clock and the median every benchmark here uses. Include it after
   the file's feature macros (_POSIX_C_SOURCE: clock_gettime). */
#ifndef CLMEM_BENCH_H
#define CLMEM_BENCH_H
#include <stdlib.h>
#include <time.h>

/* seconds on the monotonic clock */
static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the median of v[0..n) (n > 0; v is sorted in place) */
static inline double bench_median(double *v, size_t n) {
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* bench_parse_size("64M"): bytes of a size argument with an optional K, M or G suffix */
static inline size_t bench_parse_size(const char *s) {
    char *end;
    double v = strtod(s, &end);
    if (*end == 'K' || *end == 'k') v *= 1024.0;
    else if (*end == 'M' || *end == 'm') v *= 1024.0 * 1024.0;
    else if (*end == 'G' || *end == 'g') v *= 1024.0 * 1024.0 * 1024.0;
    return v > 0 ? (size_t)v : 0;
}
#endif
