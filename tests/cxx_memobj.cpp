// The memobj module from C++: clmem_mem_get_info, clmem_mem_get_host_array,
// clmem_mem_hostbuf, clmem_mem_hash, clmem_enqueue_migrate_mem_objects with options,
// the generic clmem_memory_object_* functions on every handle kind, clmem_release.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_generic(clmem_test_context *t) {
    cl_int err;
    float host[64];
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_mem_info info;
    CLMEM_CHECK_CL(t, clmem_mem_get_info(b.mem, &info));
    CLMEM_CHECK(t, info.size == sizeof host && info.type == CL_MEM_OBJECT_BUFFER);
    CLMEM_CHECK_CL(t, clmem_memory_object_get_info(b, &info));
    CLMEM_CHECK(t, info.host_ptr == host);
    CLMEM_CHECK_CL(t, clmem_memory_object_get_info(b.mem, &info));
    CLMEM_CHECK(t, clmem_mem_get_host_array(b.mem, sizeof host, &err) == host);
    CLMEM_CHECK(t, clmem_memory_object_get_host_array(b, 16, &err) == host);
    CLMEM_CHECK(t, clmem_memory_object_get_host_array(b, 4096, &err) == NULL && err == CL_INVALID_VALUE);
    CLMEM_CHECK(t, clmem_mem_hostbuf(b.mem) == host && clmem_memory_object_hostbuf(b) == host);
    CLMEM_CHECK(t, clmem_memory_object_int_ptr(b) == b.mem && clmem_memory_object_int_ptr(b.mem) == b.mem);
    CLMEM_CHECK(t, clmem_memory_object_equal(b, b.mem));
    CLMEM_CHECK_EQ(t, clmem_memory_object_hash(b), clmem_mem_hash(b.mem));
    clmem::unique<clmem_buffer> c(clmem_buffer_create(t->context, 0, 16, NULL, &err));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, !clmem_memory_object_equal(b, c) && clmem_memory_object_int_ptr(c) == c->mem);
    CLMEM_CHECK(t, clmem_memory_object_hostbuf(c) == NULL);
    CLMEM_CHECK_ERR(t, clmem_memory_object_get_info((cl_mem)NULL, &info), CL_INVALID_MEM_OBJECT);
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    if (img) {
        clmem_image i = clmem_create_image(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, OPT(shape, {4}));
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_memory_object_get_info(i, &info));
        CLMEM_CHECK(t, info.type == CL_MEM_OBJECT_IMAGE1D && clmem_memory_object_int_ptr(i) == i.mem);
        CLMEM_CHECK(t, clmem_memory_object_equal(i, i.mem) && clmem_memory_object_hash(i) == clmem_mem_hash(i.mem));
        CLMEM_CHECK_CL(t, clmem_release(&i));
    }
    // migrate with options
    const cl_mem objs[2] = {b.mem, c->mem};
    cl_event ev = NULL;
    cl_int r = clmem_enqueue_migrate_mem_objects(t->queue, objs, 2, 0, OPT(event, &ev));
    CLMEM_CHECK(t, r == CL_SUCCESS || r == CL_INVALID_OPERATION);
    if (r == CL_SUCCESS) {
        CLMEM_CHECK_CL(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 1, CL_MIGRATE_MEM_OBJECT_HOST,
                                                            CLMEM_WAIT_FOR(ev)));
        clReleaseEvent(ev);
    }
    CLMEM_CHECK_ERR(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 0, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_release(&b));
}

CXX_CASES({"generic", test_generic, false})
