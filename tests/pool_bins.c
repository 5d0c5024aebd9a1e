/* Pool bin arithmetic (PyOpenCL's bin_number / alloc_size, test_mempool_2,
   test_mempool_32bit_issues) and the out-of-memory policy, with a fake allocator. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "pool_fake.h"

/* reference-semantics §2.1, L = 4 */
static void test_bin_table(clmem_test_context *t) {
    static const struct { size_t size; uint32_t bin; size_t alloc; } rows[] = {
        {0, 0, 1}, {1, 0, 1}, {2, 16, 2}, {15, 62, 15}, {16, 64, 16}, {17, 65, 17}, {32, 80, 33}, {33, 80, 33},
        {100, 105, 103}, {1000, 159, 1023}, {1024, 160, 1087}, {1025, 160, 1087}, {4096, 192, 4351},
        {5000, 195, 5119}, {(size_t)1 << 24, 384, 17825791}, {(size_t)1 << 30, 480, 1140850687}};
    size_t i;
    for (i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        uint32_t bin = clmem_bin_number(4, rows[i].size);
        CLMEM_CHECK_EQ(t, bin, rows[i].bin);
        CLMEM_CHECK_EQ(t, clmem_alloc_size(4, bin), rows[i].alloc);
    }
    /* other L (computed in §2.1) */
    CLMEM_CHECK_EQ(t, clmem_alloc_size(1, clmem_bin_number(1, 17)), 23);
    CLMEM_CHECK_EQ(t, clmem_alloc_size(1, clmem_bin_number(1, 1025)), 1535);
    CLMEM_CHECK_EQ(t, clmem_alloc_size(2, clmem_bin_number(2, 17)), 19);
    CLMEM_CHECK_EQ(t, clmem_alloc_size(2, clmem_bin_number(2, 1025)), 1279);
    CLMEM_CHECK_EQ(t, clmem_alloc_size(8, clmem_bin_number(8, 1000)), 1001);
    CLMEM_CHECK_EQ(t, clmem_alloc_size(8, clmem_bin_number(8, 1025)), 1027);
    /* L = 0: one bin per power of two, rounded to 2^(l+1)-1 */
    CLMEM_CHECK_EQ(t, clmem_alloc_size(0, clmem_bin_number(0, 1024)), 2047);
    CLMEM_CHECK_EQ(t, clmem_alloc_size(4, clmem_bin_number(4, SIZE_MAX)), SIZE_MAX);
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* test_mempool_2 with its vacuous third assert made real: waste < 2^-L of the size */
static void test_bin_invariants(clmem_test_context *t) {
    uint64_t seed = 12345;
    unsigned L;
    int i;
    for (L = 0; L <= CLMEM_POOL_MAX_LEADING_BITS; ++L) {
        for (i = 0; i <= 2000; ++i) {
            size_t s = i == 2000 ? (size_t)1 << 30 : (size_t)((splitmix(&seed) % ((uint64_t)1 << 31)) >> (splitmix(&seed) % 32));
            uint32_t bin = clmem_bin_number(L, s);
            size_t a = clmem_alloc_size(L, bin);
            CLMEM_CHECK(t, a >= s);
            CLMEM_CHECK_EQ(t, clmem_bin_number(L, a), bin);
            if (s >= 1) CLMEM_CHECK(t, (double)(a - s) < (double)s / (double)(1u << L)); /* waste < 2^-L */
            if (s >= 1 && s < ((size_t)1 << L)) CLMEM_CHECK_EQ(t, a, s);                /* exact below 2^L */
            if (bin > 0) CLMEM_CHECK(t, clmem_alloc_size(L, bin - 1) < s);              /* the tightest bin */
        }
    }
    /* measured bound at L = 4 over 1..10^5: max waste fraction 0.06248 */
    {
        double worst = 0;
        size_t s;
        for (s = 1; s <= 100000; ++s) {
            double w = (double)(clmem_alloc_size(4, clmem_bin_number(4, s)) - s) / (double)s;
            if (w > worst) worst = w;
        }
        CLMEM_CHECK(t, worst > 0.0624 && worst < 0.0625);
    }
}

/* test_mempool_32bit_issues: 2^i + offs, i in 30..34, offs in -5..4, through a pool */
static void test_32bit_sizes(clmem_test_context *t) {
    fake_alloc f;
    cl_int err;
    clmem_allocator *a;
    clmem_memory_pool *pool;
    int i, offs;
    fake_init(&f);
    a = fake_allocator(&f, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    for (i = 30; i <= 34; ++i) {
        for (offs = -5; offs <= 4; ++offs) {
            size_t s = (size_t)((int64_t)((uint64_t)1 << i) + offs);
            uint32_t bin = clmem_memory_pool_bin_number(pool, s);
            size_t asz = clmem_memory_pool_alloc_size(pool, bin);
            clmem_buffer b = clmem_memory_pool_allocate(pool, s, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_EQ(t, b.size, s);
            CLMEM_CHECK(t, b.mem != NULL && b.root == b.mem && b.origin == 0 && b.pool != NULL);
            CLMEM_CHECK_EQ(t, f.last_size, asz);
            CLMEM_CHECK(t, asz >= s && asz - s <= (s >> 4));
            CLMEM_CHECK_EQ(t, clmem_memory_pool_bin_number(pool, asz), bin);
            CLMEM_CHECK_EQ(t, clmem_memory_pool_active_bytes(pool), s);
            CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), f.live_bytes);
            CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
            CLMEM_CHECK(t, b.mem == NULL && b.pool == NULL);
        }
    }
    /* 2^30-5 .. 2^30+4 share bins pairwise with nothing else: 3 bins at i=30 (2^30-5..-1
       in bin 479, 2^30..2^30+4 in 480); every block is held now */
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), f.live_blocks);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), f.live_bytes);
    CLMEM_CHECK_EQ(t, f.live_blocks, 10);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    CLMEM_CHECK_EQ(t, f.live_bytes, 0);
    fake_fini(&f);
}

/* §2.3: hook, retry the bin, free held blocks one at a time from the largest bin,
   then CL_MEM_OBJECT_ALLOCATION_FAILURE; the books stay exact */
static void test_oom_fake(clmem_test_context *t) {
    fake_alloc f;
    cl_int err;
    clmem_allocator *a;
    clmem_memory_pool *pool;
    clmem_buffer b[4], c;
    clmem_pool_stats st;
    int i;
    fake_init(&f);
    a = fake_allocator(&f, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    /* four held blocks: 100 (103), 1000 (1023), 4096 (4351), 5000 (5119) */
    b[0] = clmem_memory_pool_allocate(pool, 100, &err);
    b[1] = clmem_memory_pool_allocate(pool, 1000, &err);
    b[2] = clmem_memory_pool_allocate(pool, 4096, &err);
    b[3] = clmem_memory_pool_allocate(pool, 5000, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < 4; ++i) CLMEM_CHECK_CL(t, clmem_buffer_release(&b[i]));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 103 + 1023 + 4351 + 5119);
    /* the "device" has room for 1087 more bytes only after the two largest held blocks go */
    f.budget = 103 + 1023 + 4351 + 5119 - 5119 - 4351 + 1087;
    c = clmem_memory_pool_allocate(pool, 1024, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, f.hook_calls, 1);
    CLMEM_CHECK_EQ(t, f.frees, 2);                         /* 5119 then 4351, and no more */
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 2);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 103 + 1023 + 1087);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), f.live_bytes);
    {
        clmem_pool_bin_info bins[8];
        size_t n = 0;
        CLMEM_CHECK_CL(t, clmem_memory_pool_bins(pool, bins, 8, &n));
        CLMEM_CHECK_EQ(t, n, 3);
        CLMEM_CHECK_EQ(t, bins[0].bin, 105);
        CLMEM_CHECK_EQ(t, bins[0].held, 1);
        CLMEM_CHECK_EQ(t, bins[1].bin, 159);
        CLMEM_CHECK_EQ(t, bins[2].bin, 160);
        CLMEM_CHECK_EQ(t, bins[2].active, 1);
        CLMEM_CHECK_EQ(t, bins[2].alloc_size, 1087);
    }
    /* nothing fits any more: every held block is freed, then the failure */
    f.budget = 1;
    CLMEM_CHECK_EQ(t, clmem_memory_pool_allocate(pool, 64, &err).mem, NULL);
    CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate(pool, 64, &err), err), CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_memory_pool_allocate: failed to free memory") != NULL);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 1);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 1087);
    CLMEM_CHECK_EQ(t, f.live_bytes, 1087);
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.oom_events, 3);
    CLMEM_CHECK_EQ(t, st.allocator_frees, 4);
    CLMEM_CHECK_EQ(t, st.peak_managed_bytes, 103 + 1023 + 4351 + 5119);
    /* a non-memory error passes through at once: no hook, no freeing */
    f.budget = 0;
    b[0] = clmem_memory_pool_allocate(pool, 100, &err);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b[0]));
    f.fail_code = CL_INVALID_CONTEXT;
    f.always_fail = true;
    i = (int)f.hook_calls;
    CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate(pool, 64, &err), err), CL_INVALID_CONTEXT);
    CLMEM_CHECK_EQ(t, f.hook_calls, (size_t)i);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 1);
    /* the Nth allocation fails once with OUT_OF_RESOURCES: retried after freeing */
    f.always_fail = false;
    f.fail_code = CL_OUT_OF_RESOURCES;
    f.fail_at = f.calls + 1;
    b[1] = clmem_memory_pool_allocate(pool, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 0); /* the 100-byte block was freed for it */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b[1]));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), f.live_bytes);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    CLMEM_CHECK_EQ(t, f.live_blocks, 0);
    CLMEM_CHECK_EQ(t, f.live_bytes, 0);
    fake_fini(&f);
}

static bool oom_cb_free(size_t bytes, unsigned attempt, void *user) {
    fake_alloc *f = (fake_alloc *)user;
    (void)bytes;
    if (attempt > 1) return false;
    f->budget = 0; /* "freed memory elsewhere" */
    return true;
}

/* the managed-byte limit and the out-of-memory callback */
static void test_limit(clmem_test_context *t) {
    fake_alloc f;
    cl_int err;
    clmem_allocator *a;
    clmem_memory_pool *pool;
    clmem_buffer b, c, d;
    clmem_pool_stats st;
    fake_init(&f);
    a = fake_allocator(&f, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_limit(pool, 3000));
    b = clmem_memory_pool_allocate(pool, 1024, &err); /* 1087 */
    CLMEM_CHECK_CL(t, err);
    c = clmem_memory_pool_allocate(pool, 1000, &err); /* 1023: 2110 */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, (d = clmem_memory_pool_allocate(pool, 1000, &err), err), CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK(t, d.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "limit of 3000 bytes") != NULL);
    /* a held block is freed to stay under the limit */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    d = clmem_memory_pool_allocate(pool, 1500, &err); /* 1535: needs the 1087 freed */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 1023 + 1535);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, f.live_bytes, 1023 + 1535);
    /* a request above the limit on its own */
    CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate(pool, 4000, &err), err), CLMEM_ERROR_LIMIT_EXCEEDED);
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_limit(pool, 0));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&d));
    /* the callback may free memory and ask for a retry */
    f.budget = 1;
    CLMEM_CHECK_CL(t, clmem_memory_pool_set_oom_callback(pool, oom_cb_free, &f));
    d = clmem_memory_pool_allocate(pool, 300, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 0); /* the 1535 block went first */
    CLMEM_CHECK_CL(t, clmem_memory_pool_get_stats(pool, &st));
    CLMEM_CHECK_EQ(t, st.active_blocks, 2);
    CLMEM_CHECK_EQ(t, st.managed_bytes, f.live_bytes);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&c));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&d));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    CLMEM_CHECK_EQ(t, f.live_bytes, 0);
    fake_fini(&f);
}

/* 1 PiB and SIZE_MAX: a clean error, no wrap in the bin arithmetic */
static void test_huge(clmem_test_context *t) {
    fake_alloc f;
    cl_int err;
    clmem_allocator *a;
    clmem_memory_pool *pool;
    clmem_buffer b;
    fake_init(&f);
    f.budget = (size_t)1 << 40;
    a = fake_allocator(&f, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, (b = clmem_memory_pool_allocate(pool, (size_t)1 << 50, &err), err),
                    CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CLMEM_CHECK(t, b.mem == NULL && b.pool == NULL);
    CLMEM_CHECK_EQ(t, f.last_size, ((size_t)1 << 50) + ((size_t)1 << 46) - 1);
    CLMEM_CHECK_ERR(t, (b = clmem_memory_pool_allocate(pool, SIZE_MAX, &err), err), CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CLMEM_CHECK_EQ(t, f.last_size, SIZE_MAX);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    fake_fini(&f);
}

static cl_int null_allocate(void *user, size_t size, cl_mem *mem) {
    (void)user; (void)size;
    *mem = NULL;
    return CL_SUCCESS;
}

static void test_bad_args(clmem_test_context *t) {
    cl_int err;
    clmem_allocator_ops ops = {NULL, NULL, NULL, NULL, false};
    fake_alloc f;
    clmem_allocator *a;
    clmem_memory_pool *np = NULL;
    CLMEM_CHECK_ERR(t, (a = clmem_allocator_create(&ops, NULL, NULL, 0, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, a == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "ops->allocate is NULL") != NULL);
    CLMEM_CHECK_ERR(t, (np = clmem_memory_pool_create(NULL, 4, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, np == NULL);
    CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate(NULL, 4, &err), err), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_memory_pool_free_held(NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_memory_pool_stop_holding(NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_release(NULL), CL_SUCCESS);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(NULL), 0);
    fake_init(&f);
    a = fake_allocator(&f, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, (np = clmem_memory_pool_create(a, CLMEM_POOL_MAX_LEADING_BITS + 1, &err), err),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, np == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "leading_bits_in_bin_id 11") != NULL);
    clmem_allocator_release(a);
    fake_fini(&f);
    /* an allocator that "succeeds" with no buffer */
    {
        clmem_allocator_ops nops = {null_allocate, fake_free, NULL, NULL, false};
        clmem_memory_pool *pool;
        a = clmem_allocator_create(&nops, NULL, NULL, 0, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_ERR(t, (clmem_allocator_allocate(a, 16, &err), err), CL_INVALID_VALUE);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "no cl_mem") != NULL);
        CLMEM_CHECK_EQ(t, clmem_allocator_allocate(a, 0, &err).mem, NULL); /* size 0: empty, success */
        CLMEM_CHECK_CL(t, err);
        pool = clmem_memory_pool_create(a, 4, &err);
        clmem_allocator_release(a);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_ERR(t, (clmem_memory_pool_allocate(pool, 16, &err), err), CL_INVALID_VALUE);
        CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 0);
        CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
    }
}

/* On a real device a 1 PiB block is more than the device allocates (clCreateBuffer says
   CL_INVALID_BUFFER_SIZE): the pool reports an allocation failure, as PyOpenCL does */
static void test_huge_device(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a;
    if (getenv("OCLGRIND_CHECK_API")) {
        clmem_test_skip(t, "Oclgrind's API checker (OCLGRIND_CHECK_API) reports the driver's refusal of 1 PiB, "
                           "provoked on purpose, as misuse");
        return;
    }
    a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 4, &err);
    clmem_allocator_release(a);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, (b = clmem_memory_pool_allocate(pool, (size_t)1 << 50, &err), err),
                    CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CLMEM_CHECK(t, b.mem == NULL);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_managed_bytes(pool), 0);
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool));
}

static const clmem_test_case cases[] = {
    {"huge_device", test_huge_device, false},
    {"bin_table", test_bin_table, true},       {"bin_invariants", test_bin_invariants, true},
    {"32bit_sizes", test_32bit_sizes, true},   {"oom_fake_allocator", test_oom_fake, true},
    {"limit_and_callback", test_limit, true},  {"huge_requests", test_huge, true},
    {"bad_args", test_bad_args, true},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
