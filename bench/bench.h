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
#endif
