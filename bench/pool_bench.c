/* bench/pool_bench.c - what a pooled allocation costs, in one run: one thread, N
   threads sharing one pool, queue-ordered reuse, the SVM pool, a raw OpenCL buffer,
   and PyOpenCL's MemoryPool (bench/pool_bench.py) on the same device.

   Build (from the repository root, no CMake needed):
       cc -std=c11 -O2 -I. bench/pool_bench.c -o pool_bench -lOpenCL -lpthread
   Run from the repository root (it runs bench/pool_bench.py for the PyOpenCL side):
       ./pool_bench [--quick] [--pin] [--size BYTES] [--threads N,N,..] [--py PATH|--no-py]
       ./pool_bench loop KIND N      N pairs of one kind (buffer, svm, pinned pools, or
                                     malloc), for callgrind: sh bench/pool_count.sh counts
                                     instructions
   --pin (Linux) keeps the main thread on CPU 0 and thread i on CPU i + 1 (mod cores).
   The device is the first one CLMEM_TEST (or PYOPENCL_TEST) selects; the PyOpenCL
   side gets the same platform and device (by index), and runs under $PYTHON
   (default /usr/bin/python3, where Debian's python3-pyopencl is).

   Measured, per allocate+release pair: medians over short batches (10,000 pairs, a
   fraction of a millisecond, so that the median is a batch no other process
   interrupted on a shared machine); threads: over every batch of every thread, each
   thread timing its own pairs. The pool, thread and SVM figures are the least of 3
   rounds' medians, the rounds interleaved (a shared machine's noise only adds; the H100
   host's medians swing 27-37 ns from run to run):
     pool        clmem_memory_pool_allocate + clmem_buffer_release of a held block, the
                 main thread, in loop_buffer_pairs (the loop callgrind counts)
     malloc      malloc(size) + free of glibc (the C library), timed in the same rounds;
                 pool/malloc is the pair's cost against the allocator every C
                 programmer knows
     outer handle  the pool pair in main's loop with the handle declared outside the
                 loop, as this bench timed it before: the compiler cannot return the
                 handle into a variable whose address escaped earlier, so it returns
                 into a temporary and copies 64 bytes each pair (2 ns more on the
                 2-core EPYC VM; the same loop with the handle declared in the loop body
                 matches `pool`)
     threads N   the same pair in N threads at once on one shared pool (default N =
                 1, 2, 4, 8); ratio = N-thread cost / 1-thread cost
     own pools N the control: N threads, each on a pool of its own (nothing shared),
                 in the same round; its ratio is what N threads cost the processor
                 itself (SMT siblings, clock, caches), shared/own what sharing adds
     queue same  clmem_memory_pool_allocate_on_queue(q) + clmem_pooled_buffer_enqueue_release(q)
     queue other the same, alternating two queues (a marker and a barrier each time)
     svm pool    clmem_svm_pool_allocate + clmem_pooled_svm_release (allocator without
                 a queue), where the device has SVM
     raw         clCreateBuffer + a 4-byte blocking write (first use) + clReleaseMemObject
     pyopencl    pool.allocate(size).release() on MemoryPool(ImmediateAllocator(queue)),
                 one thread and N Python threads
   Goals (issues 7, 13 and 24): pool <= 30 ns; pool <= malloc; svm pool <= 50 ns;
   N-thread / 1-thread <= 1.3 for N up to the number of cores; pyopencl/pool >= 10;
   raw/pool >= 1000.
   --quick finishes in a few seconds; the full run in well under a minute. */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_setaffinity, for --pin */
#else
#define _POSIX_C_SOURCE 200809L
#endif
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static double now_ns(void) { return 1e9 * bench_now(); }

static int g_quick, g_pin;

/* --pin: the calling thread on CPU `cpu`, or on every CPU again for cpu < 0 (Linux;
   elsewhere nothing) */
static void pin_to(int cpu) {
#if defined(__linux__)
    cpu_set_t set;
    int i, n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (!g_pin) return;
    CPU_ZERO(&set);
    for (i = 0; i < n && i < CPU_SETSIZE; ++i)
        if (cpu < 0 || i == cpu) CPU_SET((size_t)i, &set);
    sched_setaffinity(0, sizeof set, &set);
#else
    (void)cpu;
#endif
}
#define ROUNDS 3 /* of the pool, thread and SVM figures (see main) */
static size_t g_size = 4096;

/* The loops callgrind measures (bench/pool_count.sh): out of line and extern, so that
   --toggle-collect can name them; each pair allocates and releases a held block. */
void loop_buffer_pairs(clmem_memory_pool *pool, size_t size, int n);
void loop_svm_pairs(clmem_svm_pool *pool, size_t size, int n);
void loop_pinned_pairs(clmem_pinned_pool *pool, size_t size, int n);
__attribute__((noinline)) void loop_buffer_pairs(clmem_memory_pool *pool, size_t size, int n) {
    cl_int err;
    for (int i = 0; i < n; ++i) {
        clmem_buffer b = clmem_memory_pool_allocate(pool, size, &err);
        clmem_buffer_release(&b);
    }
}
__attribute__((noinline)) void loop_svm_pairs(clmem_svm_pool *pool, size_t size, int n) {
    cl_int err;
    for (int i = 0; i < n; ++i) {
        clmem_pooled_svm p = clmem_svm_pool_allocate(pool, size, &err);
        clmem_pooled_svm_release(&p);
    }
}
__attribute__((noinline)) void loop_pinned_pairs(clmem_pinned_pool *pool, size_t size, int n) {
    cl_int err;
    for (int i = 0; i < n; ++i) {
        clmem_pinned_allocation h = clmem_pinned_pool_allocate(pool, size, &err);
        clmem_pinned_allocation_release(&h);
    }
}
/* malloc + free: the empty asm takes the pointer, so the compiler keeps the pair
   (gcc and clang may drop a malloc whose result is only freed) */
void loop_malloc_pairs(size_t size, int n);
__attribute__((noinline)) void loop_malloc_pairs(size_t size, int n) {
    for (int i = 0; i < n; ++i) {
        void *m = malloc(size);
        __asm__ volatile("" : : "r"(m) : "memory");
        free(m);
    }
}

/* ./pool_bench loop KIND N: a pool of KIND on q with one held block, then N pairs */
static int loop_mode(cl_context ctx, cl_command_queue q, const char *kind, int n) {
    cl_int err = CL_SUCCESS;
    if (!strcmp(kind, "buffer")) {
        clmem_allocator *a = clmem_immediate_allocator_create(q, 0, &err);
        clmem_memory_pool *pool = clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
        clmem_buffer b = clmem_memory_pool_allocate(pool, g_size, &err); /* the held block (a miss) */
        clmem_allocator_release(a);
        clmem_buffer_release(&b);
        loop_buffer_pairs(pool, g_size, n);
        clmem_memory_pool_release(pool);
    } else if (!strcmp(kind, "svm")) {
        clmem_svm_allocator *a = clmem_svm_allocator_create(ctx, 0, 0, NULL, &err);
        clmem_svm_pool *pool = a ? clmem_svm_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err) : NULL;
        clmem_svm_allocator_release(a);
        if (!pool) return 1;
        clmem_pooled_svm p = clmem_svm_pool_allocate(pool, g_size, &err);
        clmem_pooled_svm_release(&p);
        loop_svm_pairs(pool, g_size, n);
        clmem_svm_pool_release(pool);
    } else if (!strcmp(kind, "malloc")) {
        free(malloc(g_size));
        loop_malloc_pairs(g_size, n);
    } else if (!strcmp(kind, "pinned")) {
        clmem_pinned_pool *pool = clmem_pinned_pool_create(q, 0, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
        clmem_pinned_allocation h = clmem_pinned_pool_allocate(pool, g_size, &err);
        clmem_pinned_allocation_release(&h);
        loop_pinned_pairs(pool, g_size, n);
        clmem_pinned_pool_release(pool);
    } else {
        fprintf(stderr, "pool_bench loop: KIND is buffer, svm, pinned or malloc\n");
        return 2;
    }
    return err == CL_SUCCESS ? 0 : 1;
}

/* the platform index of dev, and its index among that platform's devices */
static int device_indices(cl_platform_id plat, cl_device_id dev, int *pi, int *di) {
    cl_platform_id plats[32];
    cl_device_id devs[64];
    cl_uint np = 0, nd = 0, i;
    if (clGetPlatformIDs(32, plats, &np) != CL_SUCCESS) return -1;
    for (i = 0; i < np && i < 32; ++i)
        if (plats[i] == plat) *pi = (int)i;
    if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS) return -1;
    for (i = 0; i < nd && i < 64; ++i)
        if (devs[i] == dev) *di = (int)i;
    return 0;
}

/* ---- N threads on one pool ---- */

#define MAX_BATCHES 128
typedef struct runner {
    clmem_memory_pool *pool;
    int batches, per, cpu;
    int *go;
    double v[MAX_BATCHES];
    int failed;
} runner;

static void *run_pairs(void *arg) {
    runner *r = (runner *)arg;
    cl_int err;
    pin_to(r->cpu);
    clmem_buffer b = clmem_memory_pool_allocate(r->pool, g_size, &err); /* this thread's held block */
    int i;
    if (err != CL_SUCCESS) r->failed = 1;
    clmem_buffer_release(&b);
    while (!__atomic_load_n(r->go, __ATOMIC_ACQUIRE)) sched_yield();
    for (i = 0; i < r->batches; ++i) {
        double t0 = now_ns();
        loop_buffer_pairs(r->pool, g_size, r->per);
        r->v[i] = (now_ns() - t0) / r->per;
    }
    return NULL;
}

/* median ns per pair per thread, n threads sharing `pool`; with `own` (the control),
   each thread on a pool of its own made on queue q: what n threads cost where they
   share nothing (the processor's own scaling: SMT siblings, clock, memory) */
static double threads_cost(clmem_memory_pool *pool, int n, cl_command_queue own) {
    pthread_t th[64];
    runner r[64];
    clmem_memory_pool *pools[64] = {NULL};
    static double all[64 * MAX_BATCHES];
    size_t m = 0;
    int go = 0, i, j;
    cl_int err = CL_SUCCESS;
    for (i = 0; own && i < n && err == CL_SUCCESS; ++i) {
        clmem_allocator *a = clmem_immediate_allocator_create(own, 0, &err);
        if (err == CL_SUCCESS) pools[i] = clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
        clmem_allocator_release(a);
    }
    if (err != CL_SUCCESS) return -1;
    for (i = 0; i < n; ++i) {
        memset(&r[i], 0, sizeof r[i]);
        r[i].pool = own ? pools[i] : pool;
        r[i].batches = g_quick ? 41 : 101;
        r[i].per = 10000;
        r[i].go = &go;
        r[i].cpu = (i + 1) % (int)sysconf(_SC_NPROCESSORS_ONLN); /* the main thread has CPU 0 */
        if (pthread_create(&th[i], NULL, run_pairs, &r[i]) != 0) return -1;
    }
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    for (i = 0; i < n; ++i) pthread_join(th[i], NULL);
    for (i = 0; own && i < n; ++i) clmem_memory_pool_release(pools[i]);
    for (i = 0; i < n; ++i) {
        if (r[i].failed) return -1;
        for (j = 0; j < r[i].batches; ++j) all[m++] = r[i].v[j];
    }
    return bench_median(all, m);
}

int main(int argc, char **argv) {
    int run_py = 1, i, nthreads[8] = {1, 2, 4, 8}, nn = 4, cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    double malloc_ns = 1e300, inmain_ns = 1e300;
    size_t shards = 0;
    const char *py = "bench/pool_bench.py";
    clmem_test_device td;
    size_t count = 0;
    cl_int err;
    cl_context ctx;
    cl_command_queue q, q2;
    char name[256] = {0}, tlist[64] = "";
    double pool_ns, raw_ns, py_ns = -1, same_ns, other_ns, svm_ns = -1, tcost[8], ocost[8], py_t[8];
    int py_tn[8], py_nt = 0, loop_n = 0;
    bool goal_threads = true;
    const char *loop_kind = NULL;

    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "loop") && i + 2 < argc) {
            loop_kind = argv[i + 1];
            loop_n = atoi(argv[i + 2]);
            i += 2;
        } else if (!strcmp(argv[i], "--quick")) g_quick = 1;
        else if (!strcmp(argv[i], "--pin")) g_pin = 1;
        else if (!strcmp(argv[i], "--no-py")) run_py = 0;
        else if (!strcmp(argv[i], "--py") && i + 1 < argc) py = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) g_size = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            char *s = argv[++i], *end;
            nn = 0;
            while (*s && nn < 8) { /* up to 8 counts, e.g. 1,2,4,8,16,32,64 */
                long v = strtol(s, &end, 10);
                if (end == s || v < 1 || v > 64) break;
                nthreads[nn++] = (int)v;
                s = *end == ',' ? end + 1 : end;
            }
        } else {
            fprintf(stderr, "usage: %s [--quick] [--pin] [--size BYTES] [--threads N,N,..] [--py PATH|--no-py]\n", argv[0]);
            return 2;
        }
    }
    err = clmem_get_test_platforms_and_devices(NULL, &td, 1, &count);
    if (err != CL_SUCCESS || count == 0) {
        fprintf(stderr, "pool_bench: no device: %s\n", clmem_last_error_message());
        return 1;
    }
    clGetDeviceInfo(td.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    ctx = clCreateContext(NULL, 1, &td.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) return 1;
    q = clCreateCommandQueueWithProperties(ctx, td.device, NULL, &err);
    if (err != CL_SUCCESS) return 1;
    q2 = clCreateCommandQueueWithProperties(ctx, td.device, NULL, &err);
    if (err != CL_SUCCESS) return 1;
    if (loop_kind) return loop_mode(ctx, q, loop_kind, loop_n);
    pin_to(0); /* --pin: the main thread on CPU 0 while the pools are measured */
    printf("pool_bench: device '%s', block of %zu bytes, %d cores%s\n", name, g_size, cores,
           g_quick ? " (--quick)" : "");
    fflush(stdout);

    {
        clmem_allocator *a = clmem_immediate_allocator_create(q, 0, &err);
        clmem_memory_pool *pool = clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
        const int batches = g_quick ? 41 : 101, per = 10000;
        double v[101];
        int b, k, r;
        clmem_buffer buf;
        clmem_pool_stats st;
        clmem_allocator_release(a);
        /* pool: allocate + release of a held block, one thread */
        buf = clmem_memory_pool_allocate(pool, g_size, &err); /* the held block */
        if (err != CL_SUCCESS) {
            fprintf(stderr, "pool_bench: %s\n", clmem_last_error_message());
            return 1;
        }
        clmem_buffer_release(&buf);
        /* ROUNDS rounds, each: the main thread's pairs, then every thread count; each
           figure is the least of its rounds' medians (a shared machine's noise only
           adds), and the rounds interleave so that a slow phase of the machine does
           not fall on one figure alone. The first round before them warms up. */
        pool_ns = 1e300;
        for (i = 0; i < nn; ++i) tcost[i] = ocost[i] = 1e300;
        for (r = 0; r <= ROUNDS; ++r) {
            for (b = 0; b < batches; ++b) {
                double t0 = now_ns();
                loop_buffer_pairs(pool, g_size, per);
                v[b] = (now_ns() - t0) / per;
            }
            if (r > 0 && bench_median(v, (size_t)batches) < pool_ns) pool_ns = bench_median(v, (size_t)batches);
            /* malloc + free of the same size, in the same round */
            for (b = 0; b < batches; ++b) {
                double t0 = now_ns();
                loop_malloc_pairs(g_size, per);
                v[b] = (now_ns() - t0) / per;
            }
            if (r > 0 && bench_median(v, (size_t)batches) < malloc_ns) malloc_ns = bench_median(v, (size_t)batches);
            /* the pair in main's loop, the handle declared outside it (see "outer handle") */
            for (b = 0; b < batches; ++b) {
                double t0 = now_ns();
                for (k = 0; k < per; ++k) {
                    buf = clmem_memory_pool_allocate(pool, g_size, &err);
                    clmem_buffer_release(&buf);
                }
                v[b] = (now_ns() - t0) / per;
            }
            if (r > 0 && bench_median(v, (size_t)batches) < inmain_ns) inmain_ns = bench_median(v, (size_t)batches);
            if ((r == 0 && clmem_memory_pool_held_blocks(pool) != 1) || clmem_memory_pool_active_blocks(pool) != 0) {
                fprintf(stderr, "pool_bench: the pool's books are off\n");
                return 1;
            }
            /* N threads on the same pool */
            for (i = 0; r > 0 && i < nn; ++i) {
                double c = threads_cost(pool, nthreads[i], NULL), o = threads_cost(NULL, nthreads[i], q);
                if (c < 0 || o < 0) {
                    fprintf(stderr, "pool_bench: a thread failed: %s\n", clmem_last_error_message());
                    return 1;
                }
                if (c < tcost[i]) tcost[i] = c;
                if (o < ocost[i]) ocost[i] = o;
            }
        }
        clmem_memory_pool_get_stats(pool, &st);
        shards = st.shards;
        if (st.active_blocks != 0 || st.hits + st.misses != st.allocations) {
            fprintf(stderr, "pool_bench: the pool's books are off after the threads\n");
            return 1;
        }
        /* queue-ordered reuse: the same queue (no driver call), then two queues in turn */
        buf = clmem_memory_pool_allocate_on_queue(pool, g_size, q, &err);
        clmem_pooled_buffer_enqueue_release(&buf, q);
        for (b = 0; b < batches; ++b) {
            double t0 = now_ns();
            for (k = 0; k < per; ++k) {
                buf = clmem_memory_pool_allocate_on_queue(pool, g_size, q, &err);
                clmem_pooled_buffer_enqueue_release(&buf, q);
            }
            v[b] = (now_ns() - t0) / per;
        }
        same_ns = bench_median(v, (size_t)batches);
        for (b = 0; b < batches; ++b) {
            const int n = g_quick ? 20 : 50;
            double t0 = now_ns();
            for (k = 0; k < n; ++k) {
                cl_command_queue qq = k % 2 ? q2 : q;
                buf = clmem_memory_pool_allocate_on_queue(pool, g_size, qq, &err);
                clmem_pooled_buffer_enqueue_release(&buf, qq);
            }
            v[b] = (now_ns() - t0) / n;
            clFinish(q);
            clFinish(q2);
        }
        other_ns = bench_median(v, (size_t)batches);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "pool_bench: queue-ordered path failed: %s\n", clmem_last_error_message());
            return 1;
        }
        clmem_memory_pool_release(pool);
    }

#ifdef CL_VERSION_2_0
    {
        cl_device_svm_capabilities caps = 0;
        clGetDeviceInfo(td.device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
        if (caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) {
            clmem_svm_allocator *sa = clmem_svm_allocator_create(ctx, 0, 0, NULL, &err);
            clmem_svm_pool *sp = clmem_svm_pool_create(sa, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
            const int batches = g_quick ? 41 : 101, per = 10000;
            double v[101];
            int b, k, r;
            clmem_pooled_svm s;
            clmem_svm_allocator_release(sa);
            s = clmem_svm_pool_allocate(sp, g_size, &err);
            if (err == CL_SUCCESS) {
                clmem_pooled_svm_release(&s);
                svm_ns = 1e300;
                for (r = 0; r < ROUNDS; ++r) {
                    for (b = 0; b < batches; ++b) {
                        double t0 = now_ns();
                        for (k = 0; k < per; ++k) {
                            s = clmem_svm_pool_allocate(sp, g_size, &err);
                            clmem_pooled_svm_release(&s);
                        }
                        v[b] = (now_ns() - t0) / per;
                    }
                    if (bench_median(v, (size_t)batches) < svm_ns) svm_ns = bench_median(v, (size_t)batches);
                }
            }
            clmem_svm_pool_release(sp);
        }
    }
#endif

    pin_to(-1);
    /* raw: create + first use + release */
    {
        const int n = g_quick ? 200 : 1000;
        double *v = (double *)malloc(sizeof(double) * (size_t)n);
        unsigned zero = 0;
        int k;
        for (k = 0; k < n; ++k) {
            double t0 = now_ns();
            cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, g_size, NULL, &err);
            if (err == CL_SUCCESS) err = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL);
            clReleaseMemObject(m);
            v[k] = now_ns() - t0;
            if (err != CL_SUCCESS) {
                fprintf(stderr, "pool_bench: raw path failed: %s\n", clmem_error_string(err));
                return 1;
            }
        }
        raw_ns = bench_median(v, (size_t)n);
        free(v);
    }

    /* PyOpenCL: the same pair through MemoryPool, in a child process */
    if (run_py) {
        int pi = 0, di = 0, used = 0;
        char cmd[1024], line[256];
        FILE *f;
        /* Debian's python3-pyopencl lives with /usr/bin/python3 (a pyenv python3 on
           PATH may lack it); PYTHON overrides */
        const char *python = getenv("PYTHON");
        if (!python) python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
        device_indices(td.platform, td.device, &pi, &di);
        for (i = 0; i < nn; ++i)
            used += snprintf(tlist + used, sizeof tlist - (size_t)used, "%s%d", i ? "," : "", nthreads[i]);
        snprintf(cmd, sizeof cmd, "'%s' '%s' --platform %d --device %d --size %zu --threads %s%s 2>&1", python, py,
                 pi, di, g_size, tlist, g_quick ? " --quick" : "");
        f = popen(cmd, "r");
        if (f) {
            while (fgets(line, sizeof line, f)) {
                int tn;
                double val;
                if (sscanf(line, "pyopencl_pool_ns %lf", &py_ns) == 1) continue;
                if (sscanf(line, "pyopencl_threads %d %lf", &tn, &val) == 2 && py_nt < 8) {
                    py_tn[py_nt] = tn;
                    py_t[py_nt++] = val;
                    continue;
                }
                fputs(line, stderr);
            }
            pclose(f);
        }
        if (py_ns < 0) fprintf(stderr, "pool_bench: no PyOpenCL result (is python3-pyopencl installed?)\n");
    }

    printf("%-22s %12s %10s\n", "path", "median ns", "x pool");
    printf("%-22s %12.1f %10.1f   the main thread (loop_buffer_pairs); %zu shards\n", "pool", pool_ns, 1.0, shards);
    printf("%-22s %12.1f %10.1f   glibc malloc(%zu) + free, same rounds; pool/malloc %.2f\n", "malloc", malloc_ns,
           malloc_ns / pool_ns, g_size, pool_ns / malloc_ns);
    printf("%-22s %12.1f %10.1f   the handle declared outside the loop (a 64-byte copy a pair)\n",
           "pool, outer handle", inmain_ns, inmain_ns / pool_ns);
    for (i = 0; i < nn; ++i) {
        char label[64];
        double ratio = tcost[i] / tcost[0];
        snprintf(label, sizeof label, "pool, %d thread%s", nthreads[i], nthreads[i] > 1 ? "s" : "");
        printf("%-22s %12.1f %10.1f   per pair per thread; %.2fx the 1-thread run%s\n", label, tcost[i],
               tcost[i] / pool_ns, ratio, nthreads[i] > cores ? " (more threads than cores)" : "");
        snprintf(label, sizeof label, "own pools, %d thread%s", nthreads[i], nthreads[i] > 1 ? "s" : "");
        printf("%-22s %12.1f %10.1f   control: a pool per thread; %.2fx its 1-thread run; shared/own %.2f\n", label,
               ocost[i], ocost[i] / pool_ns, ocost[i] / ocost[0], tcost[i] / ocost[i]);
        if (nthreads[i] <= cores && ratio > 1.3) goal_threads = false;
    }
    printf("%-22s %12.1f %10.1f   allocate_on_queue + enqueue_release, one queue\n", "queue, same queue",
           same_ns, same_ns / pool_ns);
    printf("%-22s %12.1f %10.1f   two queues in turn (marker + barrier)\n", "queue, other queue", other_ns,
           other_ns / pool_ns);
    if (svm_ns >= 0) printf("%-22s %12.1f %10.1f\n", "svm pool", svm_ns, svm_ns / pool_ns);
    printf("%-22s %12.1f %10.1f\n", "raw", raw_ns, raw_ns / pool_ns);
    if (py_ns >= 0) printf("%-22s %12.1f %10.1f\n", "pyopencl, 1 thread", py_ns, py_ns / pool_ns);
    for (i = 0; i < py_nt; ++i) {
        char label[64];
        snprintf(label, sizeof label, "pyopencl, %d thread%s", py_tn[i], py_tn[i] > 1 ? "s" : "");
        printf("%-22s %12.1f %10.1f   per pair per thread\n", label, py_t[i], py_t[i] / pool_ns);
    }
    printf("goals: pool <= 30 ns: %s; pool <= malloc: %s; svm pool <= 50 ns: %s; N threads <= 1.3x for N <= %d "
           "cores: %s; pyopencl/pool >= 10: %s; raw/pool >= 1000: %s\n",
           pool_ns <= 30 ? "met" : "MISSED", pool_ns <= malloc_ns ? "met" : "MISSED", svm_ns < 0 ? "n/a" : svm_ns <= 50 ? "met" : "MISSED", cores,
           goal_threads ? "met" : "MISSED", py_ns < 0 ? "n/a" : py_ns / pool_ns >= 10 ? "met" : "MISSED",
           raw_ns / pool_ns >= 1000 ? "met" : "MISSED");
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
