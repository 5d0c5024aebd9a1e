/* USM transfers: every clmem_enqueue_copy pair with USM (usm <- host, usm <- usm,
   host <- usm) with exact bytes, offsets, byte counts, zero bytes and the refusals
   (range, overlap, released or stale memory, another context); clmem_enqueue_fill on
   USM; USM kernel arguments; migration and advice. Skips without USM. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "usm_common.h"

/* device memory both ways and between two allocations, then offsets and counts */
static void test_every_pair(clmem_test_context *t) {
    unsigned char in[256], out[256], expect[256];
    cl_int err;
    clmem_usm_allocation a, b;
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    a = usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, 256, &err);
    CLMEM_CHECK_CL(t, err);
    b = usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, 256, &err);
    if (err != CL_SUCCESS) clmem_usm_allocation_release(&a);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(in, sizeof in, 3);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.usm, (const void *)in)); /* size from the USM side */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.usm, a.usm));
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b.usm));
    CLMEM_CHECK(t, memcmp(out, in, sizeof in) == 0);
    /* 16 bytes from a+8 to b+100 */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.usm, a.usm, .byte_count = 16, .src_offset = 8, .dst_offset = 100));
    memcpy(expect, in, sizeof expect);
    memcpy(expect + 100, in + 8, 16);
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b.usm));
    CLMEM_CHECK(t, memcmp(out, expect, sizeof out) == 0);
    /* host <- usm with .src_offset and .byte_count, non-blocking with an event */
    {
        cl_event ev = NULL;
        unsigned char part[32];
        memset(part, 0, sizeof part);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, part, b.usm, .byte_count = 32, .src_offset = 96,
                                             .is_blocking = CLMEM_NON_BLOCKING, .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        CLMEM_CHECK(t, memcmp(part, expect + 96, 32) == 0);
    }
    /* zero bytes: nothing copied, the event a marker */
    {
        cl_event ev = NULL;
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.usm, (const void *)in, .byte_count = 0, .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
    }
    clmem_usm_allocation_release(&a);
    clmem_usm_allocation_release(&b);
}

/* host and shared memory work as copy sides too */
static void test_host_and_shared(clmem_test_context *t) {
    unsigned char in[128], out[128];
    cl_int err;
    clmem_usm_allocation h, s;
    NEED_USM(t, CL_MEM_TYPE_HOST_INTEL);
    NEED_USM(t, CL_MEM_TYPE_SHARED_INTEL);
    h = usm_alloc(t, CL_MEM_TYPE_HOST_INTEL, 128, &err);
    CLMEM_CHECK_CL(t, err);
    s = usm_alloc(t, CL_MEM_TYPE_SHARED_INTEL, 128, &err);
    if (err != CL_SUCCESS) clmem_usm_allocation_release(&h);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(in, sizeof in, 9);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, h.usm, (const void *)in));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, s.usm, h.usm));
    CLMEM_CHECK(t, memcmp(s.usm.ptr, in, sizeof in) == 0); /* shared: the host reads it after the blocking copy */
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, s.usm));
    CLMEM_CHECK(t, memcmp(out, in, sizeof in) == 0);
    clmem_usm_allocation_release(&h);
    clmem_usm_allocation_release(&s);
}

static void test_copy_refusals(clmem_test_context *t) {
    unsigned char host[64] = {0};
    cl_int err;
    clmem_usm_allocation a, gone;
    clmem_usm stale;
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    a = usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, 64, &err);
    CLMEM_CHECK_CL(t, err);
    /* beyond the 64 bytes */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.usm, (const void *)host, .byte_count = 65), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, host, a.usm, .src_offset = 65), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.usm, (const void *)host, .byte_count = 60, .dst_offset = 8),
                    CL_INVALID_VALUE);
    /* .host_size bounds the host side */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, host, a.usm, .byte_count = 64, .host_size = 32), CL_INVALID_VALUE);
    /* overlap within one allocation */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.usm, a.usm, .byte_count = 16, .dst_offset = 8), CL_MEM_COPY_OVERLAP);
    /* neither side has a size */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, clmem_usm_tag(t->context, a.usm.ptr, 0, CL_MEM_TYPE_DEVICE_INTEL),
                                          (const void *)host),
                    CLMEM_ERROR_SIZE_UNKNOWN);
    /* empty handle, NULL queue */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, clmem_usm_tag(NULL, NULL, 0, 0), (const void *)host, .byte_count = 4),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(NULL, a.usm, (const void *)host), CL_INVALID_COMMAND_QUEUE);
    /* a released allocation, through a copy of its handle */
    gone = usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, 64, &err);
    CLMEM_CHECK_CL(t, err);
    stale = gone.usm;
    CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&gone));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, stale, (const void *)host), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "released") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, host, stale), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, stale, (cl_uint)1, 64), CL_INVALID_VALUE);
    /* memory of another context than the queue's */
    {
        cl_context other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        if (other) {
            clmem_usm_allocation o = clmem_usm_allocation_create(other, t->device, CL_MEM_TYPE_DEVICE_INTEL, 64, 0, NULL, &err);
            CLMEM_CHECK_CL(t, err);
            CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, o.usm, (const void *)host), CL_INVALID_CONTEXT);
            CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a.usm, o.usm), CL_INVALID_CONTEXT);
            clmem_usm_allocation_release(&o);
            clReleaseContext(other);
        }
    }
    clmem_usm_allocation_release(&a);
}

static void test_fill(clmem_test_context *t) {
    cl_uint out[64];
    cl_uint v = 0xA5A5A5A5u, w = 0x01020304u;
    unsigned i;
    cl_int err;
    clmem_usm_allocation a;
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    a = usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, sizeof out, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.usm, v, sizeof out));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.usm, &w, 16 * sizeof w, .pattern_size = sizeof w, .offset = 8 * sizeof w));
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, a.usm));
    for (i = 0; i < 64; ++i) CLMEM_CHECK_EQ(t, out[i], i >= 8 && i < 24 ? w : v);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, a.usm, &w, 6, .pattern_size = 3), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, a.usm, v, 4, .offset = sizeof out), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, a.usm, v, 6), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, a.usm, v, 4, .offset = 2), CL_INVALID_VALUE);
    clmem_usm_allocation_release(&a);
}

static void test_kernel_arg(clmem_test_context *t) {
    static const char src[] =
        "__kernel void triple(__global int *p) { p[get_global_id(0)] = 3 * (int)get_global_id(0); }";
    cl_int out[64], err;
    size_t gws = 64;
    unsigned i;
    clmem_usm_allocation a;
    clmem_usm stale;
    cl_kernel k;
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    k = build_kernel(t, src, "triple");
    if (!k) return;
    a = usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, sizeof out, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, a.usm));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gws, NULL, 0, NULL, NULL));
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, a.usm));
    for (i = 0; i < 64; ++i) CLMEM_CHECK_EQ(t, out[i], (cl_int)(3 * i));
    stale = a.usm;
    CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&a));
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, stale), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, clmem_usm_tag(NULL, NULL, 0, 0)), CL_INVALID_VALUE);
    clReleaseKernel(k);
}

static void test_migrate_advise(clmem_test_context *t) {
    cl_int err;
    cl_event ev = NULL;
    clmem_usm_allocation s;
    clmem_usm stale;
    NEED_USM(t, CL_MEM_TYPE_SHARED_INTEL);
    s = usm_alloc(t, CL_MEM_TYPE_SHARED_INTEL, 4096, &err);
    CLMEM_CHECK_CL(t, err);
    memset(s.usm.ptr, 7, 4096);
    CLMEM_CHECK_CL(t, clmem_enqueue_usm_migrate(t->queue, s.usm, 0 | CL_MIGRATE_MEM_OBJECT_HOST, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_EQ(t, ((unsigned char *)s.usm.ptr)[4095], 7);
    CLMEM_CHECK_ERR(t, clmem_enqueue_usm_migrate(t->queue, s.usm, (cl_mem_migration_flags)1 << 5), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_usm_migrate(t->queue, clmem_usm_tag(t->context, s.usm.ptr, 0, 0), 0),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_usm_advise(NULL, s.usm, 0), CL_INVALID_COMMAND_QUEUE);
    /* the advice values are the driver's: 0 is either taken or refused in its words */
    err = clmem_enqueue_usm_advise(t->queue, s.usm, 0);
    CLMEM_CHECK(t, err == CL_SUCCESS || strstr(clmem_last_error_message(), "clEnqueueMemAdviseINTEL") != NULL);
    stale = s.usm;
    CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&s));
    CLMEM_CHECK_ERR(t, clmem_enqueue_usm_migrate(t->queue, stale, CL_MIGRATE_MEM_OBJECT_HOST), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_usm_advise(t->queue, stale, 0), CL_INVALID_VALUE);
}

static const clmem_test_case cases[] = {
    {"every_pair", test_every_pair, false},           {"host_and_shared", test_host_and_shared, false},
    {"copy_refusals", test_copy_refusals, false},     {"fill", test_fill, false},
    {"kernel_arg", test_kernel_arg, false},           {"migrate_advise", test_migrate_advise, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
