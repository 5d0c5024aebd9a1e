/* examples/pool_stats.c - a memory pool serving the temporaries of an iterative
   computation, and what its statistics say.

   Build: cc -std=c11 -I. examples/pool_stats.c -o pool_stats -lOpenCL
   Run:   ./pool_stats            (first OpenCL device; CLMEM_TEST=... picks another) */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>

int main(void) {
    clmem_test_device td;
    size_t count = 0, nbins = 0, i;
    cl_int err;
    cl_context ctx;
    cl_command_queue q;
    clmem_allocator *alloc;
    clmem_memory_pool *pool;
    clmem_pool_stats st;
    clmem_pool_bin_info bins[16];
    int step;

    clmem_set_log_callback(clmem_log_stderr, NULL);
    if (clmem_get_test_platforms_and_devices(NULL, &td, 1, &count) != CL_SUCCESS || count == 0) return 1;
    ctx = clCreateContext(NULL, 1, &td.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) return 1;
    q = clCreateCommandQueueWithProperties(ctx, td.device, NULL, &err);
    if (err != CL_SUCCESS) return 1;

    /* an immediate allocator reports a lack of memory at allocation, which is what
       lets the pool free held blocks and retry */
    alloc = clmem_immediate_allocator_create(q, CL_MEM_READ_WRITE, &err);
    pool = clmem_memory_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    clmem_allocator_release(alloc); /* the pool holds its own reference */
    if (err != CL_SUCCESS) return 1;

    /* 100 steps, each with three temporaries whose sizes drift a little: after the
       first step nearly every allocation is served from a bin */
    for (step = 0; step < 100; ++step) {
        size_t n = 100000 + (size_t)(step % 7) * 1000;
        clmem_buffer a = clmem_memory_pool_allocate(pool, n * sizeof(float), &err);
        clmem_buffer b = clmem_memory_pool_allocate(pool, n * sizeof(float), &err);
        clmem_buffer c = clmem_memory_pool_allocate(pool, 4096, &err);
        float zero = 0.0f;
        if (err != CL_SUCCESS) return 1;
        clmem_enqueue_fill_buffer(q, a, &zero, sizeof zero, 0, a.size); /* pooled buffers are buffers */
        clmem_buffer_release(&c);
        clmem_buffer_release(&b);
        clmem_buffer_release(&a); /* back to the pool, not to OpenCL */
    }
    clFinish(q);

    clmem_memory_pool_get_stats(pool, &st);
    printf("allocations %llu: %llu from bins, %llu from the allocator\n", st.allocations, st.hits, st.misses);
    printf("held %zu blocks, %zu managed bytes (peak %zu); active %zu (peak %zu bytes)\n", st.held_blocks,
           st.managed_bytes, st.peak_managed_bytes, st.active_blocks, st.peak_active_bytes);
    clmem_memory_pool_bins(pool, bins, 16, &nbins);
    for (i = 0; i < nbins && i < 16; ++i)
        printf("  bin %4u: blocks of %8zu bytes, %zu held, %zu active\n", bins[i].bin, bins[i].alloc_size,
               bins[i].held, bins[i].active);

    /* a budget: the pool frees held blocks to stay under it, and says so when it cannot */
    clmem_memory_pool_set_limit(pool, 1 << 20);
    {
        clmem_buffer big = clmem_memory_pool_allocate(pool, 2 << 20, &err);
        printf("a 2 MiB request under a 1 MiB limit: %s\n", clmem_error_string(err));
        clmem_buffer_release(&big);
    }
    clmem_memory_pool_free_held(pool);
    printf("after free_held: %zu managed bytes\n", clmem_memory_pool_managed_bytes(pool));

    clmem_memory_pool_release(pool);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
