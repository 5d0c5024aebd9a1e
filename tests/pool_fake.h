/* tests/pool_fake.h - a fake buffer allocator for the pool tests (not part of clmem).
   It hands out made-up cl_mem values that are never given to OpenCL, keeps exact
   books of what is live, and fails on demand: at the Nth allocation, whenever the
   simulated device memory (budget) would be exceeded, or always with a given code.
   Include after clmem.h and common.h. */
#ifndef CLMEM_TESTS_POOL_FAKE_H
#define CLMEM_TESTS_POOL_FAKE_H

typedef struct fake_alloc {
    clmem__mutex lock;
    size_t live_blocks, live_bytes;   /* what the "device" holds now */
    size_t allocs, frees;             /* calls that succeeded */
    size_t calls;                     /* allocate calls, failed ones too */
    size_t budget;                    /* 0: unlimited; else device bytes */
    size_t fail_at;                   /* 1-based allocate call that fails (0: none) */
    cl_int fail_code;                 /* code for fail_at / always_fail (default OOM) */
    bool always_fail;
    size_t hook_calls;                /* try_release_blocks calls */
    size_t last_size;                 /* size of the last allocate call */
    unsigned yields_in_free;          /* sched_yield calls in each free (widens race windows) */
    size_t *sizes;                    /* size of each handle ever made, by index */
    size_t nsizes, capsizes;
} fake_alloc;

#define FAKE_BASE ((uintptr_t)0x100000)

static cl_int fake_allocate(void *user, size_t size, cl_mem *mem) {
    fake_alloc *f = (fake_alloc *)user;
    cl_int code;
    clmem__lock(&f->lock);
    ++f->calls;
    f->last_size = size;
    code = f->fail_code ? f->fail_code : CL_MEM_OBJECT_ALLOCATION_FAILURE;
    if (f->always_fail || f->calls == f->fail_at || (f->budget && f->live_bytes + size > f->budget)) {
        clmem__unlock(&f->lock);
        return code;
    }
    if (f->nsizes == f->capsizes) {
        size_t cap = f->capsizes ? 2 * f->capsizes : 64;
        size_t *n = (size_t *)realloc(f->sizes, cap * sizeof *n);
        if (!n) {
            clmem__unlock(&f->lock);
            return CL_OUT_OF_HOST_MEMORY;
        }
        f->sizes = n;
        f->capsizes = cap;
    }
    f->sizes[f->nsizes] = size;
    *mem = (cl_mem)(void *)(FAKE_BASE + 64 * f->nsizes++);
    ++f->allocs;
    ++f->live_blocks;
    f->live_bytes += size;
    clmem__unlock(&f->lock);
    return CL_SUCCESS;
}

static void fake_free(void *user, cl_mem mem) {
    fake_alloc *f = (fake_alloc *)user;
    size_t i = (size_t)(((uintptr_t)(void *)mem - FAKE_BASE) / 64);
    unsigned y;
    for (y = 0; y < f->yields_in_free; ++y) sched_yield();
    clmem__lock(&f->lock);
    ++f->frees;
    --f->live_blocks;
    f->live_bytes -= f->sizes[i];
    f->sizes[i] = 0;
    clmem__unlock(&f->lock);
}

static void fake_hook(void *user) {
    fake_alloc *f = (fake_alloc *)user;
    clmem__lock(&f->lock);
    ++f->hook_calls;
    clmem__unlock(&f->lock);
}

static void fake_init(fake_alloc *f) {
    memset(f, 0, sizeof *f);
    clmem__mutex_init(&f->lock);
}

static void fake_fini(fake_alloc *f) {
    free(f->sizes);
    clmem__mutex_destroy(&f->lock);
}

static clmem_allocator *fake_allocator(fake_alloc *f, cl_int *err) {
    clmem_allocator_ops ops = {fake_allocate, fake_free, fake_hook, NULL, false};
    return clmem_allocator_create(&ops, f, NULL, CL_MEM_READ_WRITE, err);
}

/* a pool (L = 4) over a fresh fake allocator; NULL (the case failed) when it cannot */
static inline clmem_memory_pool *fake_pool(clmem_test_context *t, fake_alloc *f) {
    cl_int err;
    clmem_allocator *a;
    clmem_memory_pool *pool;
    fake_init(f);
    a = fake_allocator(f, &err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    if (!pool) clmem_test_fail(t, __FILE__, __LINE__, "no pool: %s", clmem_last_error_message());
    return pool;
}
#endif
