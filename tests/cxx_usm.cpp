// The USM kind from C++: allocation and release (also through clmem_release and
// clmem::unique), copies both ways with options, fills, a kernel argument, migration,
// a USM pool with queue-ordered release; skips without cl_intel_unified_shared_memory.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"
#include "usm_common.h"

static void test_alloc_copy_fill(clmem_test_context *t) {
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    cl_int err;
    clmem::unique<clmem_usm_allocation> d(usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, 64 * sizeof(cl_uint), &err));
    CLMEM_CHECK_CL(t, err);
    cl_uint in[64], out[64];
    for (unsigned i = 0; i < 64; ++i) in[i] = 1000u + i;
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, d.get().usm, static_cast<const void *>(in)));
    for (unsigned i = 0; i < 64; ++i) out[i] = 0;
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, d.get().usm, OPT(byte_count, 16 * sizeof(cl_uint)),
                                         OPT(src_offset, 8 * sizeof(cl_uint))));
    for (unsigned i = 0; i < 16; ++i) CLMEM_CHECK_EQ(t, out[i], 1008u + i);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, d.get().usm, static_cast<cl_uint>(7), 64 * sizeof(cl_uint)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, d.get().usm));
    for (unsigned i = 0; i < 64; ++i) CLMEM_CHECK_EQ(t, out[i], 7u);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, out, d.get().usm, OPT(byte_count, 65 * sizeof(cl_uint))),
                    CL_INVALID_VALUE);
    clmem_usm_allocation plain = usm_alloc(t, CL_MEM_TYPE_DEVICE_INTEL, 16, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_usm_allocation copy = plain;
    CLMEM_CHECK_CL(t, clmem_release(&plain));
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
}

static void test_kernel_and_migrate(clmem_test_context *t) {
    NEED_USM(t, CL_MEM_TYPE_SHARED_INTEL);
    static const char src[] = "__kernel void one(__global int *p) { p[get_global_id(0)] = 1; }";
    cl_kernel k = build_kernel(t, src, "one");
    if (!k) return;
    cl_int err;
    clmem_usm_allocation s = usm_alloc(t, CL_MEM_TYPE_SHARED_INTEL, 16 * sizeof(cl_int), &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, s.usm));
    size_t gws = 16;
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &gws, NULL, 0, NULL, NULL));
    cl_event ev = NULL;
    CLMEM_CHECK_CL(t, clmem_enqueue_usm_migrate(t->queue, s.usm, CL_MIGRATE_MEM_OBJECT_HOST, OPT(event, &ev)));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    for (unsigned i = 0; i < 16; ++i) CLMEM_CHECK_EQ(t, static_cast<cl_int *>(s.usm.ptr)[i], 1);
    CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&s));
    clReleaseKernel(k);
}

static void test_pool(clmem_test_context *t) {
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    cl_int err;
    clmem_usm_pool *pool = clmem_usm_pool_create(t->context, t->device, CL_MEM_TYPE_DEVICE_INTEL, 0,
                                                 CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    CLMEM_CHECK_CL(t, err);
    if (!pool) return;
    {
        clmem::unique<clmem_pooled_usm> p(clmem_usm_pool_allocate_on_queue(pool, 256, t->queue, &err));
        CLMEM_CHECK_CL(t, err);
        void *first = p.get().usm.ptr;
        clmem_pooled_usm raw = p.release();
        CLMEM_CHECK_CL(t, clmem_pooled_usm_enqueue_release(&raw, t->queue));
        clmem::unique<clmem_pooled_usm> again(clmem_usm_pool_allocate_on_queue(pool, 256, t->queue, &err));
        CLMEM_CHECK(t, again.get().usm.ptr == first);
        CLMEM_CHECK_EQ(t, clmem_usm_pool_active_blocks(pool), 1u);
    }
    CLMEM_CHECK_EQ(t, clmem_usm_pool_active_blocks(pool), 0u);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_usm_pool_release(pool));
}

CXX_CASES({"alloc_copy_fill", test_alloc_copy_fill, false}, {"kernel_and_migrate", test_kernel_and_migrate, false},
          {"pool", test_pool, false})
