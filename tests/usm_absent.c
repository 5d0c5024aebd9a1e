/* Where the device has no cl_intel_unified_shared_memory (Debian 12's PoCL 3.1,
   NVIDIA, Oclgrind): every USM call that needs the extension returns
   CL_INVALID_OPERATION with a message naming it. Skips where the extension exists
   (tests/usm_*.c cover that). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* NAMES_USM(t): the message of the refusal just checked names the extension */
#define NAMES_USM(t) CLMEM_CHECK(t, strstr(clmem_last_error_message(), "cl_intel_unified_shared_memory") != NULL)

/* the code of a refused creation; the handle must come back empty */
static cl_int try_create(clmem_test_context *t, cl_device_id dev, cl_unified_shared_memory_type_intel type) {
    cl_int err = 12345;
    clmem_usm_allocation a = clmem_usm_allocation_create(t->context, dev, type, 64, 0, NULL, &err);
    return a.usm.ptr == NULL && a.usm.generation == 0 ? err : 99999;
}
static cl_int try_pool(clmem_test_context *t) {
    cl_int err = 12345;
    clmem_usm_pool *pool = clmem_usm_pool_create(t->context, NULL, CL_MEM_TYPE_HOST_INTEL, 0, 4, &err);
    if (pool) clmem_usm_pool_release(pool);
    return pool == NULL ? err : 99999;
}

static int usm_present(clmem_test_context *t) {
    cl_device_unified_shared_memory_capabilities_intel caps = 0;
    if (clmem_usm_capabilities(t->device, CL_MEM_TYPE_HOST_INTEL, &caps) == CL_SUCCESS) {
        clmem_test_skip(t, "the device has cl_intel_unified_shared_memory (tests/usm_alloc.c and others cover it)");
        return 1;
    }
    return 0;
}

static void test_every_call(clmem_test_context *t) {
    static const char src[] = "__kernel void k(__global int *p) { p[0] = 1; }";
    cl_device_unified_shared_memory_capabilities_intel caps = 7;
    int host[16] = {0};
    int pattern = 5;
    clmem_usm tag = clmem_usm_tag(t->context, host, sizeof host, CL_MEM_TYPE_HOST_INTEL);
    clmem_usm_alloc_info info;
    cl_kernel k;
    if (usm_present(t)) return;
    CLMEM_CHECK_ERR(t, clmem_usm_capabilities(t->device, CL_MEM_TYPE_DEVICE_INTEL, &caps), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_EQ(t, caps, 0);
    CLMEM_CHECK_ERR(t, try_create(t, NULL, CL_MEM_TYPE_HOST_INTEL), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, try_create(t, t->device, CL_MEM_TYPE_DEVICE_INTEL), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, try_create(t, t->device, CL_MEM_TYPE_SHARED_INTEL), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, clmem_usm_get_alloc_info(t->context, host, &info), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_EQ(t, info.type, CL_MEM_TYPE_UNKNOWN_INTEL);
    /* copies and fills of a tag: the queue's platform has no entry points */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, tag, (const void *)(host + 8), .byte_count = 16), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, (void *)(host + 8), tag, .byte_count = 16), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, tag, tag, .byte_count = 0), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, tag, pattern, sizeof host), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, clmem_enqueue_usm_migrate(t->queue, tag, CL_MIGRATE_MEM_OBJECT_HOST), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, clmem_enqueue_usm_advise(t->queue, tag, 0), CL_INVALID_OPERATION);
    NAMES_USM(t);
    CLMEM_CHECK_ERR(t, try_pool(t), CL_INVALID_OPERATION);
    NAMES_USM(t);
    k = build_kernel(t, src, "k");
    if (!k) return;
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, tag), CL_INVALID_OPERATION);
    NAMES_USM(t);
    clReleaseKernel(k);
    CLMEM_CHECK(t, host[0] == 0); /* nothing was written */
}

static const clmem_test_case cases[] = {{"every_call", test_every_call, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
