/* tests/fault/sweep.c - fault-injection sweep. Linked with libclmem_clshim (before
   libOpenCL) and with CLMEM_MALLOC/REALLOC/FREE counting allocators. For every
   composite operation below: a clean run counts its injection points (OpenCL calls
   that can fail, and CLMEM_MALLOC/CLMEM_REALLOC calls); then the operation runs once per
   point with that call failing (CL_OUT_OF_HOST_MEMORY, or NULL from the allocator),
   and the sweep asserts
     - no crash (the sweep runs to its end; ASan/UBSan builds run it too),
     - the operation returns the injected code (CL_OUT_OF_HOST_MEMORY), or the code the
       function documents for that failure (listed per call in `remapped` below),
     - the message names the failed call (the OpenCL function, or CLMEM_MALLOC/"memory"),
     - nothing leaks: OpenCL references, live maps, SVM blocks and host blocks are as
       before the operation (each operation releases what it made),
     - a failure the operation swallows (returns CL_SUCCESS) is one of the documented
       optional queries (`optional` below: a device name for a message, ...).
   It prints the figures: operations, injection points, propagated, optional. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CLMEM_MALLOC failure injection ---- */
static unsigned long fm_calls, fm_fail_at;
static long fm_live;
static int fm_hit;
static void *fm_malloc(size_t n) {
    void *p;
    if (fm_fail_at && ++fm_calls == fm_fail_at) {
        fm_hit = 1;
        return NULL;
    }
    if (!fm_fail_at) ++fm_calls;
    p = malloc(n);
    if (p) ++fm_live;
    return p;
}
static void *fm_realloc(void *old, size_t n) {
    void *p;
    if (fm_fail_at && ++fm_calls == fm_fail_at) {
        fm_hit = 1;
        return NULL;
    }
    if (!fm_fail_at) ++fm_calls;
    p = realloc(old, n);
    if (p && !old) ++fm_live;
    return p;
}
static void fm_free(void *p) {
    if (p) --fm_live;
    free(p);
}
static void fm_arm(unsigned long n) {
    fm_calls = 0;
    fm_fail_at = n;
    fm_hit = 0;
}
#define CLMEM_MALLOC(n) fm_malloc(n)
#define CLMEM_REALLOC(p, n) fm_realloc(p, n)
#define CLMEM_FREE(p) fm_free(p)

#define CLMEM_IMPLEMENTATION
#include "../../clmem.h"
#include "clshim.h"
#include "../common.h"

/* ---- the operations ---- */
static char why[1024]; /* the message of the first failure inside an operation */
#define TRY(expr)                                                                      \
    do {                                                                               \
        cl_int try_e_ = (expr);                                                        \
        if (try_e_ != CL_SUCCESS) {                                                    \
            if (err == CL_SUCCESS) {                                                   \
                err = try_e_;                                                          \
                snprintf(why, sizeof why, "%s", clmem_last_error_message());           \
            }                                                                          \
            goto done;                                                                 \
        }                                                                              \
    } while (0)

static const clmem_image_format RGBA8 = {CL_RGBA, CL_UNSIGNED_INT8};

static cl_int op_buffer_sub(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 4096, NULL, &e), s = {0};
    TRY(e);
    s = clmem_buffer_get_sub_region(b, 1024, 512, 0, &e);
    TRY(e);
done:
    clmem_buffer_release(&s);
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_buffer_rw(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    unsigned char in[256], out[256];
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof in, NULL, &e);
    memset(in, 7, sizeof in);
    TRY(e);
    TRY(clmem_enqueue_copy(t->queue, b, (const void *)in));
    TRY(clmem_enqueue_copy(t->queue, (void *)out, b));
    TRY(clmem_enqueue_copy(t->queue, b, (const void *)in, .region = {16, 4, 2}, .buffer_pitches = {32, 128},
                           .host_size = sizeof in));
done:
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_copy_rect_siblings(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 8192, NULL, &e), s1 = {0}, s2 = {0};
    TRY(e);
    s1 = clmem_buffer_get_sub_region(b, 0, 4096, 0, &e);
    TRY(e);
    s2 = clmem_buffer_get_sub_region(b, 4096, 4096, 0, &e);
    TRY(e);
    TRY(clmem_enqueue_copy(t->queue, s2, s1, .region = {16, 8, 2}, .src_pitches = {32, 512}, .dst_pitches = {64, 1024}));
    TRY(clmem_enqueue_copy(t->queue, s2, s1, .byte_count = 1024, .is_blocking = CLMEM_BLOCKING));
done:
    clmem_buffer_release(&s2);
    clmem_buffer_release(&s1);
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_copy_raw(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 1024, NULL, &e), b = {0};
    TRY(e);
    b = clmem_buffer_create(t->context, 0, 1024, NULL, &e);
    TRY(e);
    TRY(clmem_enqueue_copy(t->queue, b.mem, a.mem));
done:
    clmem_buffer_release(&b);
    clmem_buffer_release(&a);
    return err;
}
static cl_int op_fill_buffer(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    cl_event ev = NULL;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 1024, NULL, &e);
    TRY(e);
    TRY(clmem_enqueue_fill(t->queue, b, (cl_uint)7, 0, .event = &ev));
done:
    if (ev) clReleaseEvent(ev);
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_map_buffer(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_memory_map m;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 1024, NULL, &e);
    memset(&m, 0, sizeof m);
    TRY(e);
    TRY(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, cl_uint, &m));
    memset(m.ptr, 1, m.size);
    TRY(clmem_memory_map_release(&m));
done:
    clmem_memory_map_release(&m);
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_with_map(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS, map_err = CL_SUCCESS;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 1024, NULL, &e);
    TRY(e);
    /* a refused unmap (injected): clmem drops its record (nothing of clmem's leaks); the
       driver's mapping is undone by the sweep (clshim_undo_failed_unmaps) */
    CLMEM_WITH_MAP(m, map_err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m)) { (void)m.ptr; }
    if (map_err == CL_SUCCESS) map_err = clmem_live_map_count(NULL) ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
    TRY(map_err);
done:
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_image_rw(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    unsigned char in[16 * 8 * 4], out[16 * 8 * 4];
    cl_uint color[4] = {1, 2, 3, 4};
    clmem_image img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {16, 8});
    memset(in, 3, sizeof in);
    TRY(e);
    TRY(clmem_enqueue_copy(t->queue, img, (const void *)in));
    TRY(clmem_enqueue_copy(t->queue, (void *)out, img));
    TRY(clmem_enqueue_fill_image(t->queue, img, color, NULL, NULL));
done:
    clmem_image_release(&img);
    return err;
}
static cl_int op_image_from_array(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    static const float a[4][8] = {{0}};
    const size_t shape[2] = {4, 8};
    clmem_image img = clmem_image_from_array(t->context, &a[0][0], 2, shape, &e);
    TRY(e);
done:
    clmem_image_release(&img);
    return err;
}
static cl_int op_image_buffer(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_image img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {16, 8});
    clmem_buffer b = {0};
    TRY(e);
    b = clmem_buffer_create(t->context, 0, 16 * 8 * 4, NULL, &e);
    TRY(e);
    TRY(clmem_enqueue_copy(t->queue, b, img));
    TRY(clmem_enqueue_copy(t->queue, img, b));
done:
    clmem_buffer_release(&b);
    clmem_image_release(&img);
    return err;
}
static cl_int op_map_image(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_memory_map m;
    clmem_image img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {16, 8});
    memset(&m, 0, sizeof m);
    TRY(e);
    TRY(clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m));
    TRY(clmem_memory_map_release(&m));
done:
    clmem_memory_map_release(&m);
    clmem_image_release(&img);
    return err;
}
static cl_int op_image_from_int_ptr(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_image img = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {16, 8}), w = {0};
    clmem_image_info info;
    TRY(e);
    w = clmem_image_from_int_ptr(img.mem, true, &e);
    TRY(e);
    TRY(clmem_image_get_info(w, &info));
done:
    clmem_image_release(&w);
    clmem_image_release(&img);
    return err;
}
static cl_int op_sampler(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_sampler_info info;
    clmem_sampler s = clmem_sampler_create(t->context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e);
    TRY(e);
    TRY(clmem_sampler_get_info(s, &info));
done:
    clmem_sampler_release(&s);
    return err;
}
static cl_int op_mem_info(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_mem_info info;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &e), w = {0};
    TRY(e);
    TRY(clmem_mem_get_info(b.mem, &info));
    w = clmem_buffer_from_int_ptr(b.mem, true, &e);
    TRY(e);
    {
        cl_mem objs[1];
        objs[0] = b.mem;
        TRY(clmem_enqueue_migrate_mem_objects(t->queue, objs, 1, 0));
    }
done:
    clmem_buffer_release(&w);
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_pool(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_memory_pool *pool = NULL;
    clmem_buffer a = {0}, b = {0};
    clmem_allocator *alloc = clmem_immediate_allocator_create(t->queue, 0, &e);
    TRY(e);
    pool = clmem_memory_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &e);
    TRY(e);
    a = clmem_memory_pool_allocate(pool, 1000, &e);
    TRY(e);
    clmem_buffer_release(&a);
    b = clmem_memory_pool_allocate(pool, 1000, &e);
    TRY(e);
done:
    clmem_buffer_release(&b);
    clmem_buffer_release(&a);
    if (pool) clmem_memory_pool_release(pool);
    if (alloc) clmem_allocator_release(alloc);
    return err;
}
static cl_int op_svm(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    unsigned char in[256], out[256];
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, t->queue, &e), b;
    memset(&b, 0, sizeof b);
    memset(in, 5, sizeof in);
    TRY(e);
    b = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, t->queue, &e);
    TRY(e);
    TRY(clmem_enqueue_copy(t->queue, a.svm, (const void *)in));
    TRY(clmem_enqueue_copy(t->queue, b.svm, a.svm));
    TRY(clmem_enqueue_copy(t->queue, (void *)out, b.svm, .byte_count = 256));
    TRY(clmem_enqueue_fill(t->queue, b.svm, (cl_uint)3, 0));
    TRY(clmem_svm_allocation_release(&b));
    TRY(clmem_svm_allocation_release(&a));
    return CL_SUCCESS;
done:
    clmem_svm_allocation_release(&b);
    clmem_svm_allocation_release(&a);
    return err;
}
static cl_int op_characterize(clmem_test_context *t) {
    cl_int err = CL_SUCCESS;
    clmem_device_description d;
    cl_uint simd = 0;
    cl_ulong bytes = 0;
    bool yes = false;
    TRY(clmem_device_describe(t->device, &d));
    TRY(clmem_get_simd_group_size(t->device, 4, &simd));
    TRY(clmem_usable_local_mem_size(t->device, 0, &bytes));
    TRY(clmem_has_double_support(t->device, &yes));
done:
    clmem_clear_first_arg_caches(); /* the memoization keeps results: forget them, so the leak count is exact */
    return err;
}
static cl_int op_formats(clmem_test_context *t) {
    cl_int err = CL_SUCCESS;
    clmem_image_format f[256];
    cl_uint n = 0;
    TRY(clmem_get_supported_image_formats(t->context, 0, CL_MEM_OBJECT_IMAGE2D, f, 256, &n));
done:
    return err;
}

static cl_int op_image_copy(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_image a = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {8, 8, 2}), b = {0};
    TRY(e);
    b = clmem_create_image(t->context, 0, RGBA8, &e, .shape = {8, 8, 2});
    TRY(e);
    TRY(clmem_enqueue_copy(t->queue, b, a, .region = {4, 4, 2}, .src_origin = {0, 0, 0}, .dst_origin = {4, 4, 0}));
done:
    clmem_image_release(&b);
    clmem_image_release(&a);
    return err;
}
static cl_int op_unmap_raw(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_memory_map m;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 256, NULL, &e);
    memset(&m, 0, sizeof m);
    TRY(e);
    TRY(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .is_blocking = CLMEM_NON_BLOCKING));
    TRY(clmem_enqueue_unmap_mem_object(t->queue, b.mem, m.ptr));
    memset(&m, 0, sizeof m); /* unmapped through the raw pointer: the handle is stale */
done:
    clmem_memory_map_release(&m);
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_host_array(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    static unsigned char store[256];
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_USE_HOST_PTR, sizeof store, store, &e);
    void *p;
    TRY(e);
    p = clmem_mem_get_host_array(b.mem, 128, &e);
    TRY(e);
    if (p != (void *)store) TRY(CL_INVALID_VALUE);
done:
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_svm_map(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_svm_map m;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, NULL, &e);
    memset(&m, 0, sizeof m);
    TRY(e);
    TRY(clmem_svm_map_rw(t->queue, a.svm, &m));
    memset(m.ptr, 1, 256);
    TRY(clmem_svm_map_release(&m));
    TRY(clmem_svm_allocation_release(&a));
    return CL_SUCCESS;
done:
    clmem_svm_map_release(&m);
    clmem_svm_allocation_release(&a);
    return err;
}

/* ---- composite operations added after the first sweep ---- */
/* KEEP(expr): a release on the way out whose failure is the operation's result when
   nothing failed before (a release that swallowed a failure would hide it). */
#define KEEP(expr)                                                                     \
    do {                                                                               \
        cl_int keep_e_ = (expr);                                                       \
        if (keep_e_ != CL_SUCCESS && err == CL_SUCCESS) {                              \
            err = keep_e_;                                                             \
            snprintf(why, sizeof why, "%s", clmem_last_error_message());               \
        }                                                                              \
    } while (0)
static cl_command_queue q2;  /* a second in-order queue of the case's context (made once, outside the counted runs) */
static cl_kernel svm_kernel; /* a kernel taking an SVM pointer (built once) */

static cl_int op_pool_queue(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_memory_pool *pool = NULL;
    clmem_buffer a = {0}, b = {0}, c = {0};
    clmem_allocator *alloc = clmem_immediate_allocator_create(t->queue, 0, &e);
    TRY(e);
    pool = clmem_memory_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &e);
    TRY(e);
    a = clmem_memory_pool_allocate_on_queue(pool, 1000, t->queue, &e);
    TRY(e);
    TRY(clmem_pooled_buffer_enqueue_release(&a, t->queue));
    b = clmem_memory_pool_allocate_on_queue(pool, 1000, t->queue, &e); /* the same queue: at once */
    TRY(e);
    TRY(clmem_pooled_buffer_enqueue_release(&b, t->queue));
    c = clmem_memory_pool_allocate_on_queue(pool, 1000, q2, &e); /* another queue: behind a marker */
    TRY(e);
    TRY(clmem_pooled_buffer_enqueue_release(&c, q2));
done:
    clmem_buffer_release(&c);
    clmem_buffer_release(&b);
    clmem_buffer_release(&a);
    if (pool) KEEP(clmem_memory_pool_release(pool));
    if (alloc) KEEP(clmem_allocator_release(alloc));
    return err;
}
static cl_int op_svm_pool_queue(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_svm_pool *pool = NULL;
    clmem_pooled_svm a, b;
    clmem_svm_allocator *alloc = clmem_svm_allocator_create(t->context, 0, 0, t->queue, &e);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    TRY(e);
    pool = clmem_svm_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &e);
    TRY(e);
    a = clmem_svm_pool_allocate_on_queue(pool, 1000, t->queue, &e);
    TRY(e);
    TRY(clmem_pooled_svm_enqueue_release(&a, t->queue));
    b = clmem_svm_pool_allocate_on_queue(pool, 1000, q2, &e); /* held on the first queue: behind a marker */
    TRY(e);
    TRY(clmem_pooled_svm_bind_to_queue(b, t->queue));
    TRY(clmem_pooled_svm_enqueue_release(&b, q2));
done:
    clmem_pooled_svm_release(&b);
    clmem_pooled_svm_release(&a);
    if (pool) KEEP(clmem_svm_pool_release(pool));
    if (alloc) KEEP(clmem_svm_allocator_release(alloc));
    return err;
}
static cl_int op_stager(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    static unsigned char in[16384], out[16384];
    clmem_stager_stats stats;
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof in, NULL, &e);
    clmem_stager *st = NULL;
    memset(in, 9, sizeof in);
    TRY(e);
    /* one copying thread: the calling one (a worker's calls would interleave with the
       caller's in another order from run to run, and a point must be the same call) */
    st = clmem_stager_create(t->queue, 4096, 2, 1, &e);
    TRY(e);
    TRY(clmem_stager_set_threshold(st, 0));
    TRY(clmem_stager_copy(st, b, (const void *)in));
    TRY(clmem_stager_copy(st, (void *)out, b, .byte_count = 12288, .src_offset = 1024));
    TRY(clmem_stager_set_threshold(st, CLMEM_STAGER_NEVER)); /* the direct path */
    TRY(clmem_stager_copy(st, (void *)out, b, .byte_count = 1024));
    TRY(clmem_stager_get_stats(st, &stats));
done:
    if (st) KEEP(clmem_stager_release(st));
    clmem_buffer_release(&b);
    return err;
}
static cl_int op_pinned_alloc(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_pinned_allocation a = clmem_pinned_allocation_create(t->queue, 4096, 0, &e);
    TRY(e);
    memset(a.ptr, 1, 4096);
    TRY(clmem_pinned_allocation_release(&a));
done:
    clmem_pinned_allocation_release(&a);
    return err;
}
static cl_int op_pinned_pool(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_pinned_allocation b, c;
    clmem_pinned_pool *pp = clmem_pinned_pool_create(t->queue, 0, CLMEM_POOL_DEFAULT_LEADING_BITS, &e);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    TRY(e);
    b = clmem_pinned_pool_allocate(pp, 1000, &e);
    TRY(e);
    TRY(clmem_pinned_allocation_release(&b));
    c = clmem_pinned_pool_allocate(pp, 1000, &e); /* a hit */
    TRY(e);
    TRY(clmem_pinned_allocation_release(&c));
done:
    clmem_pinned_allocation_release(&c);
    clmem_pinned_allocation_release(&b);
    if (pp) KEEP(clmem_pinned_pool_release(pp));
    return err;
}
static cl_int op_svm_lookup(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, NULL, &e), found;
    memset(&found, 0, sizeof found);
    TRY(e);
    TRY(clmem_svm_allocation_lookup((const char *)a.svm.ptr + 100, &found));
    if (found.svm.ptr != a.svm.ptr) TRY(CL_INVALID_VALUE);
done:
    KEEP(clmem_svm_allocation_release(&a));
    return err;
}
static cl_int op_exec_info(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, NULL, &e);
    TRY(e);
    TRY(clmem_kernel_set_exec_info(svm_kernel, &a.svm, 1, CL_FALSE));
done:
    KEEP(clmem_svm_allocation_release(&a));
    return err;
}
static cl_int op_svm_migrate(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, NULL, &e);
    TRY(e);
    TRY(clmem_enqueue_svm_migratemem(t->queue, &a.svm, 1, 0));
done:
    KEEP(clmem_svm_allocation_release(&a));
    return err;
}

static cl_int op_device_link(clmem_test_context *t) {
    cl_int err = CL_SUCCESS, e = CL_SUCCESS;
    clmem_device_link_stats stats;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 8192, NULL, &e), b = {0};
    clmem_device_link *l = NULL;
    cl_event ev = NULL;
    TRY(e);
    b = clmem_buffer_create(t->context, 0, 8192, NULL, &e);
    TRY(e);
    l = clmem_device_link_create(t->queue, q2, 4096, 2, &e); /* two queues of one device */
    TRY(e);
    TRY(clmem_device_link_set_threshold(l, 0)); /* staged */
    TRY(clmem_device_link_copy(l, b, a));
    TRY(clmem_device_link_copy(l, b, a, .byte_count = 4096, .src_offset = 1024, .event = &ev));
    TRY(clmem_device_link_set_threshold(l, CLMEM_DEVICE_LINK_NEVER)); /* direct */
    TRY(clmem_device_link_copy(l, b, a, .byte_count = 1024));
    TRY(clmem_device_link_get_stats(l, &stats));
done:
    if (ev) clReleaseEvent(ev);
    if (l) KEEP(clmem_device_link_release(l));
    clmem_buffer_release(&b);
    clmem_buffer_release(&a);
    return err;
}

typedef struct op {
    const char *name;
    cl_int (*fn)(clmem_test_context *t);
    bool svm;
} op;
static const op ops[] = {
    {"buffer_sub", op_buffer_sub, false},         {"buffer_rw", op_buffer_rw, false},
    {"copy_rect_siblings", op_copy_rect_siblings, false}, {"copy_raw", op_copy_raw, false},
    {"fill_buffer", op_fill_buffer, false},       {"map_buffer", op_map_buffer, false},
    {"with_map", op_with_map, false},             {"image_rw", op_image_rw, false},
    {"image_from_array", op_image_from_array, false}, {"image_buffer", op_image_buffer, false},
    {"map_image", op_map_image, false},           {"image_from_int_ptr", op_image_from_int_ptr, false},
    {"sampler", op_sampler, false},               {"mem_info", op_mem_info, false},
    {"pool", op_pool, false},                     {"svm", op_svm, true},
    {"characterize", op_characterize, false},     {"formats", op_formats, false},
    {"image_copy", op_image_copy, false},         {"unmap_raw", op_unmap_raw, false},
    {"host_array", op_host_array, false},         {"svm_map", op_svm_map, true},
    {"pool_queue", op_pool_queue, false},         {"svm_pool_queue", op_svm_pool_queue, true},
    {"stager", op_stager, false},                 {"pinned_alloc", op_pinned_alloc, false},
    {"pinned_pool", op_pinned_pool, false},
    {"svm_lookup", op_svm_lookup, true},          {"exec_info", op_exec_info, true},
    {"svm_migrate", op_svm_migrate, true},        {"device_link", op_device_link, false},
};

/* ---- the verdicts ----
   Every injection point whose outcome is not "the injected code comes back, with the
   failed call named, and nothing leaks" has a verdict here, or the sweep fails: a new
   silent success (or a new misreport) fails CI until it is fixed or given a verdict.
   Points are "op:call", call as printed ("clGetDeviceInfo(0x102b)": the param_name;
   "CLMEM_MALLOC": any allocation); op "*" is any operation. Kinds:
     OPTIONAL   the failure is swallowed and success is right (docs/robustness.md says why)
     OPEN       a defect in a file another area owns: printed, not failed here, and
                listed in docs/robustness.md as "open: file:function, owner area"
   A verdict no run reaches is printed as stale (delete it once its point is fixed). */
typedef enum verdict_kind { OPTIONAL, OPEN } verdict_kind;
typedef struct verdict {
    const char *point;
    verdict_kind kind;
    const char *why;
} verdict;
static const verdict verdicts[] = {
    {"*:clGetDeviceInfo(0x102b)", OPTIONAL, "CL_DEVICE_NAME only decorates a message"},
    {"with_map:clEnqueueUnmapMemObject", OPTIONAL,
     "CLMEM_WITH_MAP is a for statement, with no value to return the unmap's code through; the failure is logged and "
     "clmem's record dropped"},
    /* NVIDIA's attribute queries (cl_nv_device_attribute_query): a failure means the
       attribute is absent, as PyOpenCL's `except Exception`; found on the H100 */
    {"characterize:clGetDeviceInfo(0x4000)", OPTIONAL, "NV attribute absent (PyOpenCL's except)"},
    {"characterize:clGetDeviceInfo(0x4001)", OPTIONAL, "NV attribute absent (PyOpenCL's except)"},
    {"characterize:clGetDeviceInfo(0x4003)", OPTIONAL, "NV attribute absent (PyOpenCL's except)"},
    /* clFlush only asks the driver to submit what is already enqueued sooner; the
       commands stay enqueued, and the wait, clFinish, blocking call or queue release
       that follows submits them (an implicit flush) and reports a broken queue itself */
    {"stager:clFlush", OPTIONAL, "the flush after a slot's unmap when the stager is released, as pinned_alloc (a "
                                 "copy's flushes are reported)"},
    {"pinned_alloc:clFlush", OPTIONAL, "the flush after a release's unmap: the queue's next wait or release submits it"},
    {"pinned_pool:clFlush", OPTIONAL, "the flush after a freed block's unmap, as pinned_alloc"},
    {"device_link:clFlush", OPTIONAL, "the flush after a slot's unmap when the link is released, as pinned_alloc"},
    {"device_link:clGetEventInfo(0x11d3)", OPTIONAL,
     "whether the copy before is still writing only picks the piece size (a failed query: the idle link's size)"},
    {"svm_pool_queue:clFlush", OPTIONAL, "the flush after a pool block's enqueued clEnqueueSVMFree"},
    /* a pool block freed after its queue: when the enqueued free cannot be made (its
       record's CLMEM_MALLOC or clEnqueueSVMFree fails), clmem warns, waits for the queue
       and frees at once (pool.c, the block's free): freed all the same, only later */
    {"svm_pool_queue:clEnqueueSVMFree", OPTIONAL, "falls back to clFinish + clSVMFree (warned)"},
    {"svm_pool_queue:CLMEM_MALLOC", OPTIONAL, "the free record's allocation: falls back to clFinish + clSVMFree (warned)"},
    /* open: defects in other areas' files */
    {"pool:clCreateBuffer", OPEN, "pool.c:clmem__pool_get_slow, owner pool core: the allocator's CL_OUT_OF_HOST_MEMORY "
                                  "comes back as CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {"pool:clEnqueueWriteBuffer", OPEN, "pool.c:clmem__pool_get_slow, owner pool core: as clCreateBuffer"},
    {"pool_queue:clCreateBuffer", OPEN, "pool.c:clmem__pool_get_slow, owner pool core: as pool"},
    {"pool_queue:clEnqueueWriteBuffer", OPEN, "pool.c:clmem__pool_get_slow, owner pool core: as pool"},
    {"svm_pool_queue:clSVMAlloc", OPEN, "pool.c:clmem__pool_get_slow, owner pool core: the message names the allocator, "
                                        "not clSVMAlloc"},
    {"pinned_pool:clCreateBuffer", OPEN, "pinned.c:clmem_pinned_pool_allocate_at, owner pool core: CL_OUT_OF_HOST_MEMORY "
                                         "comes back as CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {"pinned_pool:clEnqueueMapBuffer", OPEN, "pinned.c:clmem_pinned_pool_allocate_at, owner pool core: as clCreateBuffer"},
    {"pinned_pool:clEnqueueUnmapMemObject", OPEN, "pinned.c:clmem__pinned_pool_free_block, owner pool core: the unmap's "
                                                  "failure is only warned; clmem_pinned_pool_release returns CL_SUCCESS"},
};
#define NVERDICTS (sizeof verdicts / sizeof verdicts[0])
static unsigned long verdict_hits[NVERDICTS];

/* the verdict of a point ("op:call"), or NULL */
static const verdict *verdict_of(const char *opname, const char *call) {
    size_t i;
    char a[200], b[200];
    snprintf(a, sizeof a, "%s:%s", opname, call);
    snprintf(b, sizeof b, "*:%s", call);
    for (i = 0; i < NVERDICTS; ++i)
        if (strcmp(verdicts[i].point, a) == 0 || strcmp(verdicts[i].point, b) == 0) {
            ++verdict_hits[i];
            return &verdicts[i];
        }
    return NULL;
}

/* Calls whose failure has a documented code of its own: clSVMAlloc returns NULL, no
   code; clmem_svm_allocation_create documents CL_MEM_OBJECT_ALLOCATION_FAILURE. */
static cl_int documented_code(const char *call) {
    if (strcmp(call, "clSVMAlloc") == 0) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return CL_OUT_OF_HOST_MEMORY;
}

static bool svm_ok(clmem_test_context *t) {
    cl_device_svm_capabilities caps = 0;
    return clGetDeviceInfo(t->device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) == CL_SUCCESS &&
           (caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
}

/* finish(t): the work of an operation is done (outside the counted calls): both
   queues, and the driver's side of an unmap that was failed by injection (clmem
   reported it and released the buffer; the driver still had it mapped) */
static void finish(clmem_test_context *t) {
    clFinish(t->queue);
    if (q2) clFinish(q2);
    clshim_undo_failed_unmaps();
}

static unsigned long total_points, total_cl, total_malloc, total_propagated, total_optional, total_open, total_failures;

/* One failed point. outcome: r (the operation's code), why (its message), leaks (a
   live count differs from before). A clean point is counted in *prop; any other
   needs a verdict, else the sweep fails. */
typedef struct point {
    const char *op, *call, *hit;
    unsigned long k;
    bool is_cl, leaks;
    cl_int r;
} point;
static void judge(clmem_test_context *t, const point *pt, unsigned long *prop) {
    cl_int want = pt->is_cl ? documented_code(pt->hit) : CL_OUT_OF_HOST_MEMORY;
    bool named = pt->is_cl ? strstr(why, pt->hit) != NULL
                           : (strstr(why, "memory") != NULL || strstr(why, "CLMEM_MALLOC") != NULL);
    bool clean = pt->r != CL_SUCCESS && pt->r == want && named;
    const verdict *v;
    if (clean && !pt->leaks) {
        ++*prop;
        return;
    }
    v = verdict_of(pt->op, pt->call);
    if (v && v->kind == OPEN) {
        printf("    open: %s point %lu (%s) %s: %s\n", pt->op, pt->k, pt->call,
               pt->r == CL_SUCCESS ? "swallowed" : clmem_error_string(pt->r), v->why);
        ++total_open;
        return;
    }
    if (pt->r == CL_SUCCESS && v && v->kind == OPTIONAL && !pt->leaks) {
        printf("    optional: %s point %lu (%s) swallowed: %s\n", pt->op, pt->k, pt->call, v->why);
        ++total_optional;
        return;
    }
    ++total_failures;
    if (pt->r == CL_SUCCESS)
        clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s) failed but the operation succeeded (no verdict)",
                        pt->op, pt->k, pt->call);
    else if (pt->r != want)
        clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s) gave %s, not %s: %s", pt->op, pt->k, pt->call,
                        clmem_error_string(pt->r), clmem_error_string(want), why);
    else if (!named)
        clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s): the message does not name it: '%s'", pt->op, pt->k,
                        pt->call, why);
    else
        clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s) leaks", pt->op, pt->k, pt->call);
}

/* sweep_op(t, o): the warm-up, the clean run and one run per point of one operation */
static void sweep_op(clmem_test_context *t, const op *o) {
    unsigned long n_cl, n_m, prop = 0, k;
    long refs0, maps0, svm0, host0;
    cl_int r;
    if (o->svm && !svm_ok(t)) {
        printf("  %-22s skipped: no coarse-grain SVM\n", o->name);
        return;
    }
    /* a warm-up run: global tables that only grow (the SVM registry, the map
       table's first block) are allocated before anything is counted */
    clshim_arm(0, CL_SUCCESS);
    fm_arm(0);
    (void)o->fn(t);
    finish(t);
    /* the clean run: counts the points, must succeed and leak nothing */
    refs0 = clshim_live_refs(), maps0 = clshim_live_maps(), svm0 = clshim_live_svm(), host0 = fm_live;
    clshim_arm(0, CL_SUCCESS);
    fm_arm(0);
    why[0] = '\0';
    r = o->fn(t);
    n_cl = clshim_calls();
    n_m = fm_calls;
    finish(t); /* callbacks (SVM frees) run */
    if (r != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "%s: the clean run failed: %s (%s)", o->name, clmem_error_string(r), why);
        return;
    }
    if (clshim_live_refs() != refs0 || clshim_live_maps() != maps0 || clshim_live_svm() != svm0 || fm_live != host0) {
        clshim_live_report();
        clmem_test_fail(t, __FILE__, __LINE__, "%s: the clean run leaks: refs %+ld maps %+ld svm %+ld host %+ld", o->name,
                        clshim_live_refs() - refs0, clshim_live_maps() - maps0, clshim_live_svm() - svm0,
                        fm_live - host0);
        return;
    }
    /* every OpenCL call that can fail, and every CLMEM_MALLOC, fails once */
    for (k = 1; k <= n_cl + n_m; ++k) {
        point pt;
        unsigned param;
        char call[160];
        pt.op = o->name;
        pt.k = k;
        pt.is_cl = k <= n_cl;
        refs0 = clshim_live_refs(), maps0 = clshim_live_maps(), svm0 = clshim_live_svm(), host0 = fm_live;
        clshim_arm(pt.is_cl ? k : 0, CL_OUT_OF_HOST_MEMORY);
        fm_arm(pt.is_cl ? 0 : k - n_cl);
        why[0] = '\0';
        pt.r = o->fn(t);
        pt.hit = pt.is_cl ? clshim_injected() : (fm_hit ? "CLMEM_MALLOC" : NULL);
        param = pt.is_cl ? clshim_injected_param() : 0;
        clshim_arm(0, CL_SUCCESS);
        fm_arm(0);
        finish(t);
        if (!pt.hit) continue; /* the path changed before reaching point k */
        if (param)
            snprintf(call, sizeof call, "%s(0x%x)", pt.hit, param);
        else
            snprintf(call, sizeof call, "%s", pt.hit);
        pt.call = call;
        ++total_points;
        if (pt.is_cl)
            ++total_cl;
        else
            ++total_malloc;
        pt.leaks = clshim_live_refs() != refs0 || clshim_live_maps() != maps0 || clshim_live_svm() != svm0 ||
                   fm_live != host0;
        if (pt.leaks) {
            clshim_live_report();
            printf("    %s point %lu (%s): refs %+ld maps %+ld svm %+ld host %+ld after it\n", o->name, k, call,
                   clshim_live_refs() - refs0, clshim_live_maps() - maps0, clshim_live_svm() - svm0, fm_live - host0);
        }
        judge(t, &pt, &prop);
    }
    total_propagated += prop;
    printf("  %-22s %3lu OpenCL points, %3lu CLMEM_MALLOC points: %lu propagated\n", o->name, n_cl, n_m, prop);
}

static void sweep(clmem_test_context *t) {
    size_t i;
    cl_int qerr = CL_SUCCESS;
    q2 = extra_queue(t, t->context, &qerr);
    if (qerr != CL_SUCCESS) {
        clmem_test_fail(t, __FILE__, __LINE__, "a second queue: %s", clmem_error_string(qerr));
        return;
    }
    if (svm_ok(t)) {
        svm_kernel = build_kernel(t, "kernel void k(global int *p) { p[0] = 1; }", "k");
        if (!svm_kernel) return;
    }
    for (i = 0; i < sizeof ops / sizeof ops[0]; ++i) sweep_op(t, &ops[i]);
    for (i = 0; i < NVERDICTS; ++i)
        if (!verdict_hits[i]) printf("  stale verdict (no point reached it on this device): %s\n", verdicts[i].point);
    printf("fault sweep: %zu operations, %lu injection points (%lu OpenCL, %lu CLMEM_MALLOC): %lu propagated (code and "
           "call named), %lu optional (documented), %lu open (other areas' files), %lu failures; %zu verdicts\n",
           sizeof ops / sizeof ops[0], total_points, total_cl, total_malloc, total_propagated, total_optional, total_open,
           total_failures, NVERDICTS);
    if (svm_kernel) clReleaseKernel(svm_kernel);
    svm_kernel = NULL;
    clReleaseCommandQueue(q2);
    q2 = NULL;
}

static const clmem_test_case cases[] = {{"sweep", sweep, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
