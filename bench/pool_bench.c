/* bench/pool_bench.c - what a pooled allocation costs, side by side with a raw
   OpenCL buffer and with PyOpenCL's MemoryPool, in one run.

   Build (from the repository root, no CMake needed):
       cc -std=c11 -O2 -I. bench/pool_bench.c -o pool_bench -lOpenCL -lpthread
   Run from the repository root (it runs bench/pool_bench.py for the PyOpenCL side):
       ./pool_bench [--quick] [--size BYTES] [--py PATH|--no-py]
   The device is the first one CLMEM_TEST (or PYOPENCL_TEST) selects; the PyOpenCL
   side gets the same platform and device (by index), and runs under
   $PYTHON (default /usr/bin/python3, where Debian's python3-pyopencl is).

   Measured, per allocate+release pair (medians over batches):
     pool     clmem_memory_pool_allocate + clmem_buffer_release of a held block
     raw      clCreateBuffer + a 4-byte blocking write (first use) + clReleaseMemObject
     pyopencl pool.allocate(size).release() on MemoryPool(ImmediateAllocator(queue))
   Goals (issue 7): pool <= 30 ns; pyopencl/pool >= 10; raw/pool >= 1000 on PoCL.
   --quick finishes in a few seconds; the full run in well under a minute. */
#define _POSIX_C_SOURCE 200809L
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
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

int main(int argc, char **argv) {
    int quick = 0, run_py = 1, i;
    size_t size = 4096;
    const char *py = "bench/pool_bench.py";
    clmem_test_device td;
    size_t count = 0;
    cl_int err;
    cl_context ctx;
    cl_command_queue q;
    char name[256] = {0};
    double pool_ns, raw_ns, py_ns = -1;

    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--no-py")) run_py = 0;
        else if (!strcmp(argv[i], "--py") && i + 1 < argc) py = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) size = (size_t)strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--quick] [--size BYTES] [--py PATH|--no-py]\n", argv[0]);
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
    printf("pool_bench: device '%s', block of %zu bytes%s\n", name, size, quick ? " (--quick)" : "");

    /* pool: allocate + release of a held block */
    {
        clmem_allocator *a = clmem_immediate_allocator_create(q, 0, &err);
        clmem_memory_pool *pool = clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
        const int batches = quick ? 15 : 41, per = quick ? 100000 : 400000;
        double v[41];
        int b, k;
        clmem_buffer buf;
        clmem_allocator_release(a);
        buf = clmem_memory_pool_allocate(pool, size, &err); /* the held block */
        if (err != CL_SUCCESS) {
            fprintf(stderr, "pool_bench: %s\n", clmem_last_error_message());
            return 1;
        }
        clmem_buffer_release(&buf);
        for (b = 0; b < batches; ++b) {
            double t0 = now_ns();
            for (k = 0; k < per; ++k) {
                buf = clmem_memory_pool_allocate(pool, size, &err);
                clmem_buffer_release(&buf);
            }
            v[b] = (now_ns() - t0) / per;
        }
        pool_ns = median(v, (size_t)batches);
        if (clmem_memory_pool_held_blocks(pool) != 1 || clmem_memory_pool_active_blocks(pool) != 0) {
            fprintf(stderr, "pool_bench: the pool's books are off\n");
            return 1;
        }
        clmem_memory_pool_release(pool);
    }

    /* raw: create + first use + release */
    {
        const int n = quick ? 200 : 1000;
        double *v = (double *)malloc(sizeof(double) * (size_t)n);
        unsigned zero = 0;
        int k;
        for (k = 0; k < n; ++k) {
            double t0 = now_ns();
            cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
            if (err == CL_SUCCESS) err = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL);
            clReleaseMemObject(m);
            v[k] = now_ns() - t0;
            if (err != CL_SUCCESS) {
                fprintf(stderr, "pool_bench: raw path failed: %s\n", clmem_error_string(err));
                return 1;
            }
        }
        raw_ns = median(v, (size_t)n);
        free(v);
    }

    /* PyOpenCL: the same pair through MemoryPool, in a child process */
    if (run_py) {
        int pi = 0, di = 0;
        char cmd[1024], line[256];
        FILE *f;
        /* Debian's python3-pyopencl lives with /usr/bin/python3 (a pyenv python3 on
           PATH may lack it); PYTHON overrides */
        const char *python = getenv("PYTHON");
        if (!python) python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
        device_indices(td.platform, td.device, &pi, &di);
        snprintf(cmd, sizeof cmd, "'%s' '%s' --platform %d --device %d --size %zu%s 2>&1", python, py, pi, di, size,
                 quick ? " --quick" : "");
        f = popen(cmd, "r");
        if (f) {
            while (fgets(line, sizeof line, f)) {
                if (sscanf(line, "pyopencl_pool_ns %lf", &py_ns) != 1) fputs(line, stderr);
            }
            pclose(f);
        }
        if (py_ns < 0) fprintf(stderr, "pool_bench: no PyOpenCL result (is python3-pyopencl installed?)\n");
    }

    printf("%-10s %12s %14s\n", "path", "median ns", "x pool");
    printf("%-10s %12.1f %14.1f\n", "pool", pool_ns, 1.0);
    printf("%-10s %12.1f %14.1f\n", "raw", raw_ns, raw_ns / pool_ns);
    if (py_ns >= 0) printf("%-10s %12.1f %14.1f\n", "pyopencl", py_ns, py_ns / pool_ns);
    printf("goals: pool <= 30 ns: %s; pyopencl/pool >= 10: %s; raw/pool >= 1000: %s\n",
           pool_ns <= 30 ? "met" : "MISSED",
           py_ns < 0 ? "n/a" : py_ns / pool_ns >= 10 ? "met" : "MISSED",
           raw_ns / pool_ns >= 1000 ? "met" : "MISSED");
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
