/* USM allocations: host, device and shared memory, their facts and
   clGetMemAllocInfoINTEL's answers, release (plain, double, through clmem_release),
   and each refused argument. Skips where the device lacks
   cl_intel_unified_shared_memory (tests/usm_absent.c covers that case). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "usm_common.h"

static const cl_unified_shared_memory_type_intel types[3] = {CL_MEM_TYPE_HOST_INTEL, CL_MEM_TYPE_DEVICE_INTEL,
                                                              CL_MEM_TYPE_SHARED_INTEL};

/* each type the device has: the handle's facts, alignment, the lookup of an interior
   pointer, release and double release */
static void test_create_lookup_release(clmem_test_context *t) {
    unsigned i, done = 0;
    for (i = 0; i < 3; ++i) {
        cl_device_unified_shared_memory_capabilities_intel caps = 0;
        clmem_usm_alloc_info info;
        clmem_usm_allocation a, copy;
        cl_int err = 1;
        if (clmem_usm_capabilities(t->device, types[i], &caps) != CL_SUCCESS || !caps) continue;
        ++done;
        a = clmem_usm_allocation_create(t->context, types[i] == CL_MEM_TYPE_HOST_INTEL ? NULL : t->device, types[i], 4096,
                                        64, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        if (err != CL_SUCCESS) continue;
        CLMEM_CHECK(t, a.usm.ptr != NULL);
        CLMEM_CHECK_EQ(t, a.usm.size, 4096);
        CLMEM_CHECK_EQ(t, a.usm.type, types[i]);
        CLMEM_CHECK(t, a.usm.context == t->context);
        CLMEM_CHECK_EQ(t, (uintptr_t)a.usm.ptr % 64, 0);
        CLMEM_CHECK_CL(t, clmem_usm_get_alloc_info(t->context, (char *)a.usm.ptr + 17, &info));
        CLMEM_CHECK_EQ(t, info.type, types[i]);
        CLMEM_CHECK(t, info.base == a.usm.ptr);
        CLMEM_CHECK_EQ(t, info.size, 4096);
        CLMEM_CHECK(t, info.device == (types[i] == CL_MEM_TYPE_HOST_INTEL ? NULL : t->device));
        copy = a;
        CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&a));
        CLMEM_CHECK(t, a.usm.ptr == NULL && a.usm.size == 0 && a.usm.generation == 0);
        CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&a)); /* an emptied handle: nothing to do */
        CLMEM_CHECK_ERR(t, clmem_usm_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
        CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    }
    if (!done) (void)need_usm(t, CL_MEM_TYPE_HOST_INTEL); /* skips with the reason */
}

/* host and shared memory are the host's to read and write directly */
static void test_host_access(clmem_test_context *t) {
    unsigned i, done = 0;
    for (i = 0; i < 3; i += 2) {
        cl_device_unified_shared_memory_capabilities_intel caps = 0;
        unsigned char out[256];
        unsigned j;
        cl_int err;
        clmem_usm_allocation a;
        if (clmem_usm_capabilities(t->device, types[i], &caps) != CL_SUCCESS || !caps) continue;
        ++done;
        a = usm_alloc(t, types[i], 256, &err);
        CLMEM_CHECK_CL(t, err);
        if (err != CL_SUCCESS) continue;
        for (j = 0; j < 256; ++j) ((unsigned char *)a.usm.ptr)[j] = (unsigned char)(j * 7 + 1);
        memset(out, 0, sizeof out);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, a.usm));
        for (j = 0; j < 256; ++j) CLMEM_CHECK_EQ(t, out[j], (unsigned char)(j * 7 + 1));
        CLMEM_CHECK_CL(t, clmem_release(&a));
        CLMEM_CHECK(t, a.usm.ptr == NULL);
    }
    if (!done) (void)need_usm(t, CL_MEM_TYPE_HOST_INTEL); /* skips with the reason */
}

/* a pointer USM does not know (host stack memory) */
static void test_lookup_unknown(clmem_test_context *t) {
    int local = 0;
    clmem_usm_alloc_info info;
    NEED_USM(t, CL_MEM_TYPE_HOST_INTEL);
    CLMEM_CHECK_CL(t, clmem_usm_get_alloc_info(t->context, &local, &info));
    CLMEM_CHECK_EQ(t, info.type, CL_MEM_TYPE_UNKNOWN_INTEL);
    CLMEM_CHECK(t, info.base == NULL);
    CLMEM_CHECK_EQ(t, info.size, 0);
}

/* the properties list is passed on: an empty flags property is accepted */
static void test_properties(clmem_test_context *t) {
    const cl_mem_properties_intel props[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
    cl_int err = 1;
    clmem_usm_allocation a;
    NEED_USM(t, CL_MEM_TYPE_HOST_INTEL);
    a = clmem_usm_allocation_create(t->context, NULL, CL_MEM_TYPE_HOST_INTEL, 100, 0, props, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.usm.ptr != NULL);
    CLMEM_CHECK_EQ(t, a.usm.size, 100);
    CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&a));
}

/* try_create: the code of a refused creation; the handle must come back empty */
static cl_int try_create(cl_context ctx, cl_device_id dev, cl_unified_shared_memory_type_intel type, size_t size,
                         cl_uint alignment) {
    cl_int err = 12345;
    clmem_usm_allocation a = clmem_usm_allocation_create(ctx, dev, type, size, alignment, NULL, &err);
    if (a.usm.ptr != NULL || a.usm.size != 0 || a.usm.generation != 0) {
        clmem_usm_allocation_release(&a);
        return 99999;
    }
    return err;
}

/* refusals clmem words before the extension is asked for: these run everywhere */
static void test_refused_arguments(clmem_test_context *t) {
    cl_device_unified_shared_memory_capabilities_intel caps = 5;
    clmem_usm_alloc_info info;
    clmem_usm_allocation a;
    int x = 0;
    CLMEM_CHECK_ERR(t, try_create(NULL, NULL, CL_MEM_TYPE_HOST_INTEL, 64, 0), CL_INVALID_CONTEXT);
    CLMEM_CHECK_ERR(t, try_create(t->context, NULL, 0x1234, 64, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, try_create(t->context, t->device, CL_MEM_TYPE_HOST_INTEL, 64, 0), CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, try_create(t->context, NULL, CL_MEM_TYPE_DEVICE_INTEL, 64, 0), CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, try_create(t->context, NULL, CL_MEM_TYPE_HOST_INTEL, 64, 3), CL_INVALID_VALUE);
    /* a device that is not one of the context's (never handed to the driver) */
    CLMEM_CHECK_ERR(t, try_create(t->context, (cl_device_id)(uintptr_t)&x, CL_MEM_TYPE_DEVICE_INTEL, 64, 0),
                    CL_INVALID_DEVICE);
    CLMEM_CHECK_ERR(t, clmem_usm_capabilities(NULL, CL_MEM_TYPE_HOST_INTEL, &caps), CL_INVALID_DEVICE);
    CLMEM_CHECK_EQ(t, caps, 0);
    CLMEM_CHECK_ERR(t, clmem_usm_capabilities(t->device, CL_MEM_TYPE_HOST_INTEL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_usm_capabilities(t->device, 0x1234, &caps), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_usm_get_alloc_info(NULL, &x, &info), CL_INVALID_CONTEXT);
    CLMEM_CHECK_ERR(t, clmem_usm_get_alloc_info(t->context, &x, NULL), CL_INVALID_VALUE);
    /* releases of what owns nothing */
    CLMEM_CHECK_ERR(t, clmem_usm_allocation_release(NULL), CL_INVALID_VALUE);
    a.usm = clmem_usm_tag(t->context, &x, sizeof x, CL_MEM_TYPE_HOST_INTEL);
    CLMEM_CHECK_ERR(t, clmem_usm_allocation_release(&a), CL_INVALID_VALUE);
    CLMEM_CHECK(t, a.usm.ptr == &x); /* untouched */
    memset(&a, 0, sizeof a);
    CLMEM_CHECK_CL(t, clmem_usm_allocation_release(&a));
}

/* refusals that need the extension (the driver would be asked otherwise) */
static void test_refused_with_usm(clmem_test_context *t) {
    cl_device_unified_shared_memory_capabilities_intel host = 0;
    NEED_USM(t, CL_MEM_TYPE_DEVICE_INTEL);
    CLMEM_CHECK_ERR(t, try_create(t->context, t->device, CL_MEM_TYPE_DEVICE_INTEL, 0, 0), CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK_CL(t, clmem_usm_capabilities(t->device, CL_MEM_TYPE_HOST_INTEL, &host));
    if (host) CLMEM_CHECK_ERR(t, try_create(t->context, NULL, CL_MEM_TYPE_HOST_INTEL, 0, 0), CL_INVALID_BUFFER_SIZE);
}

static const clmem_test_case cases[] = {
    {"create_lookup_release", test_create_lookup_release, false},
    {"host_access", test_host_access, false},
    {"lookup_unknown", test_lookup_unknown, false},
    {"properties", test_properties, false},
    {"refused_arguments", test_refused_arguments, false},
    {"refused_with_usm", test_refused_with_usm, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
