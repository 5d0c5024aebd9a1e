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
    void *mapped = NULL;
    CLMEM_WITH_MAP(m, map_err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m)) { mapped = m.ptr; }
    if (map_err == CL_SUCCESS) map_err = clmem_live_map_count(NULL) ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
    /* the unmap was refused (injected): clmem dropped its record (nothing of clmem's
       leaks); the driver's mapping is the caller's to undo, or PoCL keeps the buffer */
    if (mapped && clshim_injected() && strcmp(clshim_injected(), "clEnqueueUnmapMemObject") == 0)
        clEnqueueUnmapMemObject(t->queue, b.mem, mapped, 0, NULL, NULL);
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
};

/* Failures an operation may swallow, each for a documented reason (function names
   as "op:call"; "*" for any op). Keep this list short and every entry explained. */
static const char *const optional[] = {
    /* CL_DEVICE_NAME (0x102b): a device's name only decorates a message */
    "*:clGetDeviceInfo(0x102b)",
    /* CLMEM_WITH_MAP discards the unmap's result (a for statement has no value to return
       it through); the failure is logged with its message, and the record is dropped so
       nothing clmem holds leaks (tested below: the driver's own mapping stays) */
    "with_map:clEnqueueUnmapMemObject",
    /* NVIDIA's attribute queries (cl_nv_device_attribute_query): a failure means the
       attribute is absent, as PyOpenCL's `except Exception` (clmem/characterize.c);
       found on the H100, the only platform here with the extension */
    "characterize:clGetDeviceInfo(0x4000)", "characterize:clGetDeviceInfo(0x4001)",
    "characterize:clGetDeviceInfo(0x4003)",
    NULL};

/* Calls whose failure has a documented code of its own: clSVMAlloc returns NULL, no
   code; clmem_svm_allocation_create documents CL_MEM_OBJECT_ALLOCATION_FAILURE. */
static cl_int documented_code(const char *call) {
    if (strcmp(call, "clSVMAlloc") == 0) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return CL_OUT_OF_HOST_MEMORY;
}

/* Failures in code other helpers own (pool.c: helper `pool`); reported, not failed
   here. Each is listed in docs/robustness.md with the change it needs. */
static const char *const elsewhere[] = {"pool:*", NULL};

static bool is_elsewhere(const char *opname) {
    size_t i;
    char a[160];
    snprintf(a, sizeof a, "%s:*", opname);
    for (i = 0; elsewhere[i]; ++i)
        if (strcmp(elsewhere[i], a) == 0) return true;
    return false;
}

static bool is_optional(const char *opname, const char *call) {
    size_t i;
    char a[160], b[160];
    snprintf(a, sizeof a, "%s:%s", opname, call);
    snprintf(b, sizeof b, "*:%s", call);
    for (i = 0; optional[i]; ++i)
        if (strcmp(optional[i], a) == 0 || strcmp(optional[i], b) == 0) return true;
    return false;
}

static bool svm_ok(clmem_test_context *t) {
    cl_device_svm_capabilities caps = 0;
    return clGetDeviceInfo(t->device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) == CL_SUCCESS &&
           (caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
}

static unsigned long total_points, total_cl, total_malloc, total_propagated, total_swallowed, total_failures, total_known;

static void sweep(clmem_test_context *t) {
    size_t i;
    unsigned long k;
    for (i = 0; i < sizeof ops / sizeof ops[0]; ++i) {
        const op *o = &ops[i];
        unsigned long n_cl, n_m, prop = 0, swallowed = 0;
        long refs0, maps0, svm0, host0;
        cl_int r;
        if (o->svm && !svm_ok(t)) {
            printf("  %-22s skipped: no coarse-grain SVM\n", o->name);
            continue;
        }
        /* a warm-up run: global tables that only grow (the SVM registry, the map
           table's first block) are allocated before anything is counted */
        clshim_arm(0, CL_SUCCESS);
        fm_arm(0);
        (void)o->fn(t);
        clFinish(t->queue);
        /* the clean run: counts the points, must succeed and leak nothing */
        refs0 = clshim_live_refs(), maps0 = clshim_live_maps(), svm0 = clshim_live_svm(), host0 = fm_live;
        clshim_arm(0, CL_SUCCESS);
        fm_arm(0);
        why[0] = '\0';
        r = o->fn(t);
        n_cl = clshim_calls();
        n_m = fm_calls;
        clFinish(t->queue); /* callbacks (SVM frees) run */
        if (r != CL_SUCCESS) {
            clmem_test_fail(t, __FILE__, __LINE__, "%s: the clean run failed: %s (%s)", o->name, clmem_error_string(r), why);
            continue;
        }
        if (clshim_live_refs() != refs0 || clshim_live_maps() != maps0 || clshim_live_svm() != svm0 || fm_live != host0) {
            clshim_live_report();
            clmem_test_fail(t, __FILE__, __LINE__, "%s: the clean run leaks: refs %+ld maps %+ld svm %+ld host %+ld", o->name,
                            clshim_live_refs() - refs0, clshim_live_maps() - maps0, clshim_live_svm() - svm0,
                            fm_live - host0);
            continue;
        }
        /* every OpenCL call that can fail, and every CLMEM_MALLOC, fails once */
        for (k = 1; k <= n_cl + n_m; ++k) {
            bool is_cl = k <= n_cl;
            const char *hit;
            unsigned param;
            char call[160];
            refs0 = clshim_live_refs(), maps0 = clshim_live_maps(), svm0 = clshim_live_svm(), host0 = fm_live;
            clshim_arm(is_cl ? k : 0, CL_OUT_OF_HOST_MEMORY);
            fm_arm(is_cl ? 0 : k - n_cl);
            why[0] = '\0';
            r = o->fn(t);
            hit = is_cl ? clshim_injected() : (fm_hit ? "CLMEM_MALLOC" : NULL);
            param = is_cl ? clshim_injected_param() : 0;
            clshim_arm(0, CL_SUCCESS);
            fm_arm(0);
            clFinish(t->queue);
            if (!hit) continue; /* the path changed before reaching point k */
            if (param)
                snprintf(call, sizeof call, "%s(0x%x)", hit, param);
            else
                snprintf(call, sizeof call, "%s", hit);
            ++total_points;
            if (is_cl)
                ++total_cl;
            else
                ++total_malloc;
            if (r == CL_SUCCESS) {
                if (!is_elsewhere(o->name)) ++swallowed;
                if (is_elsewhere(o->name)) {
                    printf("    known (%s is another helper's): point %lu (%s) swallowed\n", o->name, k, call);
                    ++total_known;
                } else if (is_optional(o->name, call) || is_optional(o->name, hit)) {
                    printf("    optional: %s point %lu (%s) swallowed, as documented\n", o->name, k, call);
                } else {
                    ++total_failures;
                    clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s) failed but the operation succeeded", o->name,
                                    k, call);
                }
            } else {
                if (!is_elsewhere(o->name)) ++prop;
                cl_int want = is_cl ? documented_code(hit) : CL_OUT_OF_HOST_MEMORY;
                if (r != want && is_elsewhere(o->name)) {
                    printf("    known (%s is another helper's): point %lu (%s) gave %s\n", o->name, k, call,
                           clmem_error_string(r));
                    ++total_known;
                } else if (r != want) {
                    ++total_failures;
                    clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s) gave %s, not %s: %s", o->name, k, call,
                                    clmem_error_string(r), clmem_error_string(want), why);
                } else if (is_cl ? strstr(why, hit) == NULL
                                 : (strstr(why, "memory") == NULL && strstr(why, "CLMEM_MALLOC") == NULL)) {
                    ++total_failures;
                    clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s): the message does not name it: '%s'", o->name, k,
                                    call, why);
                }
            }
            if (clshim_live_refs() != refs0 || clshim_live_maps() != maps0 || clshim_live_svm() != svm0 || fm_live != host0) {
                ++total_failures;
                clshim_live_report();
                clmem_test_fail(t, __FILE__, __LINE__, "%s: point %lu (%s) leaks: refs %+ld maps %+ld svm %+ld host %+ld",
                                o->name, k, call, clshim_live_refs() - refs0, clshim_live_maps() - maps0,
                                clshim_live_svm() - svm0, fm_live - host0);
            }
        }
        total_propagated += prop;
        total_swallowed += swallowed;
        printf("  %-22s %3lu OpenCL points, %3lu CLMEM_MALLOC points: %lu propagated, %lu optional\n", o->name, n_cl, n_m,
               prop, swallowed);
    }
    printf("fault sweep: %zu operations, %lu injection points (%lu OpenCL, %lu CLMEM_MALLOC), %lu propagated (code and "
           "call named), %lu optional (documented), %lu known in pool.c (another helper's), %lu failures\n",
           sizeof ops / sizeof ops[0], total_points, total_cl, total_malloc, total_propagated, total_swallowed, total_known,
           total_failures);
}

static const clmem_test_case cases[] = {{"sweep", sweep, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
