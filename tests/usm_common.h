/* tests/usm_common.h - helpers of the USM tests (include after common.h). */
#ifndef CLMEM_TESTS_USM_COMMON_H
#define CLMEM_TESTS_USM_COMMON_H

/* need_usm(t, type): 1 when t->device offers USM of `type` (CL_MEM_TYPE_*_INTEL);
   otherwise the case is skipped with clmem's reason and 0 is returned. */
static inline int need_usm(clmem_test_context *t, cl_unified_shared_memory_type_intel type) {
    cl_device_unified_shared_memory_capabilities_intel caps = 0;
    if (clmem_usm_capabilities(t->device, type, &caps) != CL_SUCCESS) {
        clmem_test_skip(t, "%s", clmem_last_error_message());
        return 0;
    }
    if (!caps) {
        clmem_test_skip(t, "the device reports no capability for %s USM",
                        type == CL_MEM_TYPE_HOST_INTEL ? "host" : type == CL_MEM_TYPE_DEVICE_INTEL ? "device" : "shared");
        return 0;
    }
    return 1;
}
#define NEED_USM(t, type)              \
    do {                               \
        if (!need_usm(t, type)) return; \
    } while (0)

/* usm_alloc(t, type, size, &err): memory of `type` on t's device (none for host). */
static inline clmem_usm_allocation usm_alloc(clmem_test_context *t, cl_unified_shared_memory_type_intel type, size_t size,
                                             cl_int *err) {
    return clmem_usm_allocation_create(t->context, type == CL_MEM_TYPE_HOST_INTEL ? NULL : t->device, type, size, 0,
                                       NULL, err);
}
#endif
