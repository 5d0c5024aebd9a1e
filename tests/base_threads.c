/* base: the thread and atomics layer (clmem/base.h ATOMICS, clmem/base.c THREADS) that
   pools, caches, registries and the stager use: threads started and joined, a mutex
   that serializes, a condition variable that hands work over, the atomics' exact
   results under contention, a static mutex (CLMEM__MUTEX_INIT) and the loader version.
   CMake builds it also with CLMEM_NO_GNU_EXTENSIONS and with CLMEM_USE_C11_THREADS
   (test_base_threads_c11), so each backend runs here. No device needed. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

enum { NTHREADS = 4, ROUNDS = 20000 };

typedef struct shared {
    clmem__mutex lock;
    clmem__cond cond;
    unsigned long long plain;     /* guarded by lock */
    CLMEM__ALIGN8 uint64_t gen;   /* atomic: compare-and-swap increments */
    unsigned counter;             /* atomic: add */
    int spin;                     /* atomic: exchange (a spinlock) */
    unsigned long long spun;      /* guarded by spin */
    int turn, handed;             /* guarded by lock: the condition variable's hand-over */
} shared;

static shared sh;
static clmem__mutex static_lock = CLMEM__MUTEX_INIT; /* never initialized by a call */
static unsigned long long static_count;

static void worker(void *arg) {
    int id = (int)(intptr_t)arg, i;
    for (i = 0; i < ROUNDS; ++i) {
        uint64_t g;
        clmem__lock(&sh.lock);
        ++sh.plain;
        clmem__unlock(&sh.lock);
        do g = clmem__atomic_load_u64(&sh.gen);
        while (!clmem__atomic_cas_u64(&sh.gen, g, g + 1));
        clmem__atomic_add_uint(&sh.counter, 1u);
        while (clmem__atomic_exchange_int(&sh.spin, 1)) clmem__thread_yield();
        ++sh.spun;
        clmem__atomic_store_int(&sh.spin, 0);
        clmem__lock(&static_lock);
        ++static_count;
        clmem__unlock(&static_lock);
    }
    /* each thread waits for its turn, in order of id, and passes it on */
    clmem__lock(&sh.lock);
    while (sh.turn != id) clmem__cond_wait(&sh.cond, &sh.lock);
    ++sh.handed;
    ++sh.turn;
    clmem__cond_broadcast(&sh.cond);
    clmem__unlock(&sh.lock);
}

static void test_threads_and_atomics(clmem_test_context *t) {
    clmem__thread th[NTHREADS];
    int i;
    memset(&sh, 0, sizeof sh);
    clmem__mutex_init(&sh.lock);
    clmem__cond_init(&sh.cond);
    static_count = 0;
    for (i = 0; i < NTHREADS; ++i) CLMEM_CHECK_EQ(t, clmem__thread_start(&th[i], worker, (void *)(intptr_t)i), 0);
    for (i = 0; i < NTHREADS; ++i) clmem__thread_join(&th[i]);
    clmem__cond_destroy(&sh.cond);
    clmem__mutex_destroy(&sh.lock);
    CLMEM_CHECK_EQ(t, sh.plain, (unsigned long long)NTHREADS * ROUNDS);
    CLMEM_CHECK_EQ(t, clmem__atomic_load_u64(&sh.gen), (uint64_t)NTHREADS * ROUNDS);
    CLMEM_CHECK_EQ(t, sh.counter, (unsigned)(NTHREADS * ROUNDS));
    CLMEM_CHECK_EQ(t, sh.spun, (unsigned long long)NTHREADS * ROUNDS);
    CLMEM_CHECK_EQ(t, static_count, (unsigned long long)NTHREADS * ROUNDS);
    CLMEM_CHECK_EQ(t, sh.handed, NTHREADS);
    CLMEM_CHECK_EQ(t, sh.turn, NTHREADS);
}

static void test_atomic_values(clmem_test_context *t) {
    CLMEM__ALIGN8 uint64_t g = 0;
    int s = 5;
    unsigned u = 0xfffffffeu;
    size_t z = 0;
    void *p = NULL;
    clmem__atomic_store_u64(&g, 0x123456789abcdef0ull);
    CLMEM_CHECK_EQ(t, clmem__atomic_load_u64(&g), 0x123456789abcdef0ull);
    CLMEM_CHECK(t, !clmem__atomic_cas_u64(&g, 1, 2));
    CLMEM_CHECK(t, clmem__atomic_cas_u64(&g, 0x123456789abcdef0ull, 0xfedcba9876543211ull));
    CLMEM_CHECK_EQ(t, g, 0xfedcba9876543211ull);
    CLMEM_CHECK_EQ(t, clmem__atomic_exchange_int(&s, 7), 5);
    CLMEM_CHECK_EQ(t, clmem__atomic_load_int(&s), 7);
    CLMEM_CHECK_EQ(t, clmem__atomic_add_uint(&u, 3u), 1u); /* wraps, returns the new value */
    clmem__atomic_store_uint(&u, 7u);
    CLMEM_CHECK_EQ(t, clmem__atomic_load_uint(&u), 7u);
    CLMEM_CHECK_EQ(t, clmem__atomic_add_uint(&u, (unsigned)-1), 6u); /* a decrement */
    clmem__atomic_store_size(&z, (size_t)-2);
    CLMEM_CHECK_EQ(t, clmem__atomic_load_size(&z), (size_t)-2);
    clmem__atomic_store_ptr(&p, &z);
    CLMEM_CHECK(t, clmem__atomic_load_ptr(&p) == (void *)&z);
    CLMEM_CHECK(t, clmem__cpu_count() >= 1);
    /* the 64-bit atomics' fields are 8-aligned on every target (no libatomic) */
    CLMEM_CHECK_EQ(t, offsetof(shared, gen) % 8, 0);
    CLMEM_CHECK_EQ(t, offsetof(clmem__buffer_owner, gen) % 8, 0);
}

static void test_backend_named(clmem_test_context *t) {
    /* the backends this build was meant to get */
#if defined(_WIN32)
    CLMEM_CHECK(t, strcmp(CLMEM__THREADS, "win32") == 0);
#elif defined(CLMEM_USE_C11_THREADS)
    CLMEM_CHECK(t, strcmp(CLMEM__THREADS, "c11") == 0);
#else
    CLMEM_CHECK(t, strcmp(CLMEM__THREADS, "pthreads") == 0);
#endif
#if defined(CLMEM_NO_GNU_EXTENSIONS)
    CLMEM_CHECK(t, !CLMEM__GNU);
#if defined(_WIN32)
    CLMEM_CHECK(t, strcmp(CLMEM__ATOMICS, "interlocked") == 0);
#else
    CLMEM_CHECK(t, strcmp(CLMEM__ATOMICS, "c11") == 0);
#endif
#elif defined(__GNUC__)
    CLMEM_CHECK(t, CLMEM__GNU);
    CLMEM_CHECK(t, strcmp(CLMEM__ATOMICS, "gnu") == 0);
#endif
    printf("threads: %s, atomics: %s\n", CLMEM__THREADS, CLMEM__ATOMICS);
}

static void test_loader_version(clmem_test_context *t) {
    const char *missing = "x";
    int v = clmem__loader_version(&missing);
#if defined(_WIN32)
    /* Wine's OpenCL.dll stops at 1.2 (clSVMAlloc missing); the Khronos loader has all */
    if (v) {
        CLMEM_CHECK(t, missing != NULL);
        CLMEM_CHECK(t, v >= 120 && v < 300);
        CLMEM_CHECK(t, clmem__parse_opencl_version("OpenCL 3.0 PoCL") == v);
        printf("OpenCL.dll: OpenCL %d.%d entry points (no %s)\n", v / 100, v % 100 / 10, missing);
    } else {
        CLMEM_CHECK(t, missing == NULL);
    }
#else
    CLMEM_CHECK_EQ(t, v, 0);
    CLMEM_CHECK(t, missing == NULL);
    CLMEM_CHECK_EQ(t, clmem__parse_opencl_version("OpenCL 3.0 PoCL"), 300);
#endif
    CLMEM_CHECK_EQ(t, clmem__parse_opencl_version("OpenCL 1.2 x"), 120);
}

static const clmem_test_case cases[] = {
    {"threads_and_atomics", test_threads_and_atomics, true},
    {"atomic_values", test_atomic_values, true},
    {"backend_named", test_backend_named, true},
    {"loader_version", test_loader_version, true},
};

int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
