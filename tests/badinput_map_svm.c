/* tests/badinput_map_svm.c - hostile input to maps (clmem_enqueue_map_buffer,
   clmem_enqueue_map_image, clmem_memory_map_release, clmem_enqueue_unmap_mem_object,
   clmem_memory_map_at), SVM (clmem_svm_allocation_create and release, SVM copies and
   fills, SVM maps), memory-object queries and migration, and device characterization. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "badinput.h"
#include <stdint.h>

static void test_map(clmem_test_context *t) {
    cl_int e;
    clmem_memory_map m, copy, fake;
    unsigned char host[16];
    const size_t bad_index[1] = {64};
    clmem_buffer b = clmem_buffer_create(t->context, 0, 256, NULL, &e), empty, ro;
    CLMEM_CHECK_CL(t, e);
    memset(&empty, 0, sizeof empty);
    BAD(t, clmem_enqueue_map_buffer(NULL, b, CL_MAP_READ, 0, char, &m), CL_INVALID_COMMAND_QUEUE, "clmem_enqueue_map_buffer",
        "queue");
    BAD(t, clmem_enqueue_map_buffer(t->queue, empty, CL_MAP_READ, 0, char, &m), CL_INVALID_MEM_OBJECT,
        "clmem_enqueue_map_buffer", "buf");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, 0, 0, char, &m), CL_INVALID_VALUE, "clmem_enqueue_map_buffer", "flags is 0");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, (cl_map_flags)0x80, 0, char, &m), CL_INVALID_VALUE,
        "clmem_enqueue_map_buffer", "0x80");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m), CL_INVALID_VALUE,
        "clmem_enqueue_map_buffer", "CL_MAP_WRITE_INVALIDATE_REGION");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 300, char, &m), CL_INVALID_VALUE, "clmem_enqueue_map_buffer",
        "300", "256");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 256, char, &m), CL_INVALID_VALUE, "clmem_enqueue_map_buffer",
        "0 bytes");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .shape = {SIZE_MAX, 2}), CL_INVALID_VALUE,
        "clmem_enqueue_map_buffer", "overflows");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 128, char, &m, .shape = {200}), CL_INVALID_VALUE,
        "clmem_enqueue_map_buffer", "128", "200", "256");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .shape = {16}, .strides = {32}), CL_INVALID_VALUE,
        "clmem_enqueue_map_buffer", "strides");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .order = 'X'), CL_INVALID_VALUE,
        "clmem_enqueue_map_buffer", "'X'");
    ro = clmem_buffer_create(t->context, CL_MEM_HOST_READ_ONLY, 64, NULL, &e);
    CLMEM_CHECK_CL(t, e);
    BAD(t, clmem_enqueue_map_buffer(t->queue, ro, CL_MAP_WRITE, 0, char, &m), CL_INVALID_OPERATION, "clmem_enqueue_map_buffer",
        "HOST_READ_ONLY");
    clmem_buffer_release(&ro);
    /* overlap with a live write map; double release; a copy of a released handle; a
       pointer clmem did not hand out */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, char, &m, .shape = {64}));
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 32, char, &copy, .shape = {64}), CL_INVALID_OPERATION,
        "clmem_enqueue_map_buffer", "overlaps a live map for writing");
    BAD(t, clmem_memory_map_at(&m, bad_index) == NULL ? CL_INVALID_VALUE : CL_SUCCESS, CL_INVALID_VALUE,
        "clmem_memory_map_at", "index[0] is 64", "64 elements");
    copy = m;
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    BAD(t, clmem_memory_map_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE, "clmem_memory_map_release", "already released");
    BAD(t, clmem_enqueue_unmap_mem_object(t->queue, b.mem, host), CL_INVALID_VALUE, "clmem_enqueue_unmap_mem_object",
        "not a live map");
    fake = copy;
    fake.serial = 0;
    BAD(t, clmem_memory_map_release(&fake), CL_INVALID_VALUE, "clmem_memory_map_release", "not handed out");
    BAD(t, clmem_memory_map_release(NULL), CL_INVALID_VALUE, "clmem_memory_map_release", "NULL");
    CLMEM_CHECK_EQ(t, clmem_live_map_count(NULL), 0);
    clmem_buffer_release(&b);
}

static void test_memobj(clmem_test_context *t) {
    cl_int e;
    clmem_mem_info info;
    cl_mem objs[2];
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &e), ob = {0};
    cl_context other = badinput_other_context(t);
    CLMEM_CHECK_CL(t, e);
    BAD(t, clmem_mem_get_info(NULL, &info), CL_INVALID_MEM_OBJECT, "clmem_mem_get_info", "NULL");
    BAD(t, clmem_mem_get_info(b.mem, NULL), CL_INVALID_VALUE, "clmem_mem_get_info", "info");
    objs[0] = b.mem;
    objs[1] = NULL;
    BAD(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 0, 0), CL_INVALID_VALUE, "clmem_enqueue_migrate_mem_objects",
        "n 0");
    BAD(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 2, 0), CL_INVALID_MEM_OBJECT,
        "clmem_enqueue_migrate_mem_objects", "objects[1] is NULL");
    BAD(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 1, 0x80), CL_INVALID_VALUE, "clmem_enqueue_migrate_mem_objects",
        "0x80");
    if (other) {
        ob = clmem_buffer_create(other, 0, 64, NULL, &e);
        CLMEM_CHECK_CL(t, e);
        objs[1] = ob.mem;
        BAD(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 2, 0), CL_INVALID_CONTEXT,
            "clmem_enqueue_migrate_mem_objects", "objects[1]");
        clmem_buffer_release(&ob);
        clReleaseContext(other);
    }
    clmem_buffer_release(&b);
}

static bool svm_ok(clmem_test_context *t) {
    char why[160];
    if (device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return true;
    if (loader_lacks(why, sizeof why)) clmem_test_skip(t, "no SVM: %s", why);
    else clmem_test_skip(t, "no coarse-grain SVM");
    return false;
}

static void test_svm(clmem_test_context *t) {
    cl_int e;
    unsigned char host[64];
    clmem_svm_allocation a, copy;
    clmem_svm_map m;
    if (!svm_ok(t)) return;
    BAD(t, (a = clmem_svm_allocation_create(NULL, 64, 0, 0, NULL, &e), e), CL_INVALID_CONTEXT, "clmem_svm_allocation_create",
        "context");
    BAD(t, (a = clmem_svm_allocation_create(t->context, 64, 3, 0, NULL, &e), e), CL_INVALID_VALUE,
        "clmem_svm_allocation_create", "alignment 3");
    BAD(t, (a = clmem_svm_allocation_create(t->context, SIZE_MAX, 0, 0, NULL, &e), e), CL_INVALID_BUFFER_SIZE,
        "clmem_svm_allocation_create", "18446744073709551615");
    BAD(t, (a = clmem_svm_allocation_create(t->context, 64, 0, (cl_svm_mem_flags)1 << 40, NULL, &e), e), CL_INVALID_VALUE,
        "clmem_svm_allocation_create", "0x10000000000");
    a = clmem_svm_allocation_create(t->context, 64, 0, CL_MEM_READ_WRITE, t->queue, &e);
    CLMEM_CHECK_CL(t, e);
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, a.svm, .byte_count = 128), CL_INVALID_VALUE, "clmem_enqueue_copy",
        "128", "64");
    BAD(t, clmem_enqueue_copy(t->queue, a.svm, a.svm, .byte_count = 32, .dst_offset = 16), CL_MEM_COPY_OVERLAP,
        "clmem_enqueue_copy", "overlap");
    BAD(t, clmem_enqueue_fill(t->queue, a.svm, (cl_uint)1, 64, .offset = 8), CL_INVALID_VALUE, "clmem_enqueue_fill", "64",
        "8");
    BAD(t, clmem_enqueue_svm_map(t->queue, a.svm, CL_MAP_READ, &m, .size = 128), CL_INVALID_VALUE, "clmem_enqueue_svm_map",
        "128", "64");
    copy = a;
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    BAD(t, clmem_svm_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE, "clmem_svm_allocation_release",
        "already released");
}

static void test_characterize(clmem_test_context *t) {
    clmem_device_description d;
    cl_uint simd = 0;
    char opts[4];
    BAD(t, clmem_device_describe(NULL, &d), CL_INVALID_DEVICE, "clmem_device_describe", "NULL");
    BAD(t, clmem_device_describe(t->device, NULL), CL_INVALID_VALUE, "clmem_device_describe", "NULL");
    BAD(t, clmem_get_simd_group_size(t->device, 4, NULL), CL_INVALID_VALUE, "clmem_get_simd_group_size", "NULL");
    BAD(t, clmem_get_simd_group_size(NULL, 4, &simd), CL_INVALID_DEVICE, "clmem_get_simd_group_size", "NULL");
    BAD(t, clmem_get_fast_inaccurate_build_options(t->device, opts, sizeof opts, NULL), CL_INVALID_VALUE,
        "clmem_get_fast_inaccurate_build_options", "4");
    printf("  badinput_map_svm: %lu cases\n", badinput_cases);
}

static const clmem_test_case cases[] = {{"map", test_map, false},
                                        {"memobj", test_memobj, false},
                                        {"svm", test_svm, false},
                                        {"characterize", test_characterize, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
