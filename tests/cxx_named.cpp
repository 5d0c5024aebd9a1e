// Every C named-argument macro of clmem in its C++ form, each with a named option
// (clmem::name = value as C++11, .name = value as C++20; tests/cxx_common.h's OPT).
// What the calls do is each kind's own test's; here they must compile and reach their
// C function with the option, so named_forms is compiled, not run: the test fails at
// build time when a C++ form is missing or wrong. tools/check-named (CTest
// cxx_named_listed) fails when a named-argument macro of clmem/ is not called here.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

struct named_inputs {
    cl_context ctx;
    cl_command_queue q;
    cl_platform_id platform;
    cl_event *ev;
    clmem_buffer b, b2;
    clmem_image img;
    clmem_svm_allocation a;
    clmem_svm_array arr;
    clmem_usm u;
    clmem_stager *st;
    clmem_device_link *link;
};

static cl_int named_forms(named_inputs &in) {
    cl_int err = CL_SUCCESS, r = CL_SUCCESS;
    cl_uint v = 7;
    unsigned char host[16] = {0};
    float color[4] = {0, 0, 0, 0}, pixels[4][4] = {{0}};
    size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1}, shape[2] = {4, 4};
    cl_mem objs[1] = {in.b.mem};
    clmem_svm svms[1] = {in.a.svm};
    clmem_memory_map m, mi;
    clmem_svm_map sm, sro, srw;
    // buffer.h
    r |= clmem_enqueue_fill_buffer(in.q, in.b, &v, sizeof v, 0, 4, OPT(event, in.ev));
    // image.h
    clmem_image i1 = clmem_create_image(in.ctx, 0, clmem_image_format_create(CL_RGBA, CL_FLOAT), &err, OPT(shape, {4, 4}));
    clmem_image i2 = clmem_image_from_array(in.ctx, &pixels[0][0], 2, shape, &err, OPT(mode, 'w'));
    r |= clmem_enqueue_fill_image(in.q, in.img, color, origin, region, OPT(event, in.ev));
    // map.h
    r |= clmem_enqueue_map_buffer(in.q, in.b, CL_MAP_READ, 0, float, &m, OPT(shape, {4}));
    r |= clmem_enqueue_map_image(in.q, in.img, CL_MAP_READ, &mi, OPT(region, {1, 1}));
    r |= clmem_enqueue_unmap_mem_object(in.q, in.b.mem, m.ptr, OPT(event, in.ev));
    r |= clmem_memory_map_release(&mi, OPT(event, in.ev));
    // memobj.h
    r |= clmem_enqueue_migrate_mem_objects(in.q, objs, 1, 0, OPT(event, in.ev));
    // svm.h
    r |= clmem_enqueue_svm_map(in.q, in.a.svm, CL_MAP_READ, &sm, OPT(size, 16));
    r |= clmem_svm_map_ro(in.q, in.a.svm, &sro, OPT(size, 16));
    r |= clmem_svm_map_rw(in.q, in.a.svm, &srw, OPT(is_blocking, false));
    r |= clmem_svm_map_release(&sm, OPT(event, in.ev));
    r |= clmem_enqueue_svm_memfill(in.q, in.a.svm, &v, sizeof v, OPT(event, in.ev));
    r |= clmem_enqueue_svm_migratemem(in.q, svms, 1, 0, OPT(event, in.ev));
    clmem_svm_array s1 = clmem_svm_empty(in.ctx, CL_MEM_READ_WRITE, cl_float, &err, OPT(shape, {3}));
    clmem_svm_array s2 = clmem_csvm_empty(in.ctx, int, &err, OPT(shape, {7}));
    clmem_svm_array s3 = clmem_fsvm_empty(in.ctx, int, &err, OPT(shape, {4}));
    clmem_svm_array s4 = clmem_svm_empty_like(in.ctx, CL_MEM_READ_WRITE, &in.arr, &err, OPT(alignment, 16));
    clmem_svm_array s5 = clmem_csvm_empty_like(in.ctx, &in.arr, &err, OPT(alignment, 16));
    clmem_svm_array s6 = clmem_fsvm_empty_like(in.ctx, &in.arr, &err, OPT(alignment, 16));
    r |= clmem_svm_allocation_enqueue_release(&in.a, in.q, OPT(event, in.ev));
    // usm.h
    r |= clmem_enqueue_usm_migrate(in.q, in.u, CL_MIGRATE_MEM_OBJECT_HOST, OPT(event, in.ev));
    r |= clmem_enqueue_usm_advise(in.q, in.u, 0, OPT(event, in.ev));
    // transfer.h
    r |= clmem_enqueue_copy(in.q, in.b, static_cast<const void *>(host), OPT(byte_count, 4));
    r |= clmem_enqueue_fill(in.q, in.b, static_cast<cl_uchar>(1), 4, OPT(offset, 4));
    r |= clmem_enqueue_copy_buffer_p2p_amd(in.platform, in.q, in.b, in.b2, OPT(byte_count, 16));
    // stager.h, device_link.h
    r |= clmem_stager_copy(in.st, in.b, static_cast<const void *>(host), OPT(byte_count, 4));
    r |= clmem_stager_copy(in.st, static_cast<void *>(host), in.b, OPT(src_offset, 4));
    r |= clmem_device_link_copy(in.link, in.b2, in.b, OPT(byte_count, 4));
    clmem_image_release(&i1);
    clmem_image_release(&i2);
    clmem_svm_array_release(&s1);
    clmem_svm_array_release(&s2);
    clmem_svm_array_release(&s3);
    clmem_svm_array_release(&s4);
    clmem_svm_array_release(&s5);
    clmem_svm_array_release(&s6);
    return r | err;
}

static void test_forms_compile(clmem_test_context *t) {
    cl_int (*volatile forms)(named_inputs &) = named_forms; // compiled, not run (see the top)
    CLMEM_CHECK(t, forms != NULL);
}

CXX_CASES({"forms_compile", test_forms_compile, false})
