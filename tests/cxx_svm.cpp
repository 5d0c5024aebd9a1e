// The SVM module from C++: allocations (create, release, enqueue_release with options,
// bind/unbind, queue/context/flags), tags, maps (clmem_enqueue_svm_map, _ro, _rw,
// release with options and default), clmem_svm_as_buffer, memfill, migratemem, the
// svm_empty family with its element type, arrays, clmem_release of every SVM kind,
// clmem::unique and clmem::data of SVM handles.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

#ifdef CL_VERSION_2_0
static void test_allocation(clmem_test_context *t) {
    NEED_SVM(t);
    cl_int err;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 256, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == NULL);
    CLMEM_CHECK(t, clmem_svm_allocation_context(a) == t->context);
    CLMEM_CHECK_EQ(t, clmem_svm_allocation_flags(a), 0);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_bind_to_queue(a, t->queue));
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == t->queue);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_unbind_from_queue(a));
    CLMEM_CHECK(t, clmem_svm_allocation_queue(a) == NULL);
    clmem_svm_allocation copy = a;
    cl_event ev = NULL;
    CLMEM_CHECK_CL(t, clmem_svm_allocation_enqueue_release(&a, t->queue, OPT(event, &ev)));
    CLMEM_CHECK(t, ev != NULL && a.svm.ptr == NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_enqueue_release(&copy, t->queue), CLMEM_ERROR_DOUBLE_RELEASE);
    // no queue given and none bound
    clmem_svm_allocation b = clmem_svm_allocation_create(t->context, 64, 0, 0, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_enqueue_release(&b, NULL), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_CL(t, clmem_release(&b));
    CLMEM_CHECK_ERR(t, clmem_svm_allocation_create(t->context, 64, 3, 0, NULL, &err).svm.ptr == NULL ? err : CL_SUCCESS,
                    CL_INVALID_VALUE);
    // tags
    float host[8];
    clmem_svm tag = CLMEM_SVM_TAG_ARRAY(host);
    CLMEM_CHECK_EQ(t, tag.size, sizeof host);
    CLMEM_CHECK(t, clmem_svm_buf(tag) == (unsigned char *)host);
    CLMEM_CHECK(t, clmem_svm_tag(host, 4).size == 4);
}

static void test_maps(clmem_test_context *t) {
    NEED_SVM(t);
    cl_int err;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_svm_map m;
    CLMEM_CHECK_CL(t, clmem_svm_map_rw(t->queue, a.svm, &m));
    for (int i = 0; i < 16; i++) clmem::data<float>(m)[i] = (float)i;
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m));
    CLMEM_CHECK_ERR(t, clmem_svm_map_release(&m), CLMEM_ERROR_DOUBLE_RELEASE);
    cl_event ev = NULL, uev = NULL;
    CLMEM_CHECK_CL(t, clmem_svm_map_ro(t->queue, a.svm, &m, OPT(size, 16), OPT(is_blocking, false), OPT(event, &ev)));
    CLMEM_CHECK_EQ(t, m.size, 16);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    CLMEM_CHECK(t, ((float *)m.ptr)[3] == 3.0f);
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m, OPT(queue, t->queue), CLMEM_WAIT_FOR(ev), OPT(event, &uev)));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &uev));
    clReleaseEvent(ev);
    clReleaseEvent(uev);
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_map(t->queue, a.svm, CL_MAP_WRITE_INVALIDATE_REGION, &m));
    ((float *)m.ptr)[0] = 42.0f;
    CLMEM_CHECK_CL(t, clmem_release(&m));
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_map(t->queue, a.svm, CL_MAP_READ, &m));
    CLMEM_CHECK(t, ((float *)m.ptr)[0] == 42.0f && ((float *)m.ptr)[15] == 15.0f);
    CLMEM_CHECK_CL(t, clmem_svm_map_release_default(&m));
    // .size = 0 written means 0 bytes: refused rather than mapping everything
    size_t zero = 0;
    CLMEM_CHECK(t, clmem_svm_map_ro(t->queue, a.svm, &m, OPT(size, zero)) != CL_SUCCESS);
    CLMEM_CHECK_ERR(t, clmem_svm_map_ro(t->queue, a.svm, &m, OPT(size, 128)), CL_INVALID_VALUE);
    int ran = 0;
    CLMEM_WITH_SVM_MAP(wm, err, clmem_svm_map_ro(t->queue, a.svm, &wm)) {
        ran = ((float *)wm.ptr)[0] == 42.0f;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, ran, 1);
    {
        clmem::unique<clmem_svm_map> um;
        CLMEM_CHECK_CL(t, clmem_svm_map_ro(t->queue, a.svm, um.out()));
        CLMEM_CHECK(t, clmem::data<float>(um)[0] == 42.0f);
    }
    clmem_release(&a);
}

static void test_memfill_migrate_buffer(clmem_test_context *t) {
    NEED_SVM(t);
    cl_int err;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    cl_uint v = 0x11223344u, z = 0;
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &z, sizeof z));
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &v, sizeof v, OPT(byte_count, 8)));
    cl_uint out[16];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, a.svm));
    CLMEM_CHECK(t, out[0] == v && out[1] == v && out[2] == 0);
    size_t zero = 0;
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &v, sizeof v, OPT(byte_count, zero)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, a.svm));
    CLMEM_CHECK(t, out[2] == 0);
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &v, 3), CL_INVALID_VALUE);
    // migrate: works on 2.1 devices, CL_INVALID_OPERATION with a message before
    const clmem_svm svms[1] = {a.svm};
    cl_event ev = NULL;
    cl_int r = clmem_enqueue_svm_migratemem(t->queue, svms, 1, 0, OPT(event, &ev));
    CLMEM_CHECK(t, r == CL_SUCCESS || r == CL_INVALID_OPERATION);
    if (r == CL_SUCCESS) {
        CLMEM_CHECK(t, ev != NULL);
        clReleaseEvent(ev);
    }
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_migratemem(t->queue, svms, 0, 0), CL_INVALID_VALUE);
    // a buffer over the SVM memory
    clmem_buffer b = clmem_svm_as_buffer(t->context, a.svm, 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, b.size, 64);
    clmem_release(&b);
    clmem_release(&a);
}

static void test_empty_family(clmem_test_context *t) {
    NEED_SVM(t);
    cl_int err;
    clmem_svm_array a = clmem_svm_empty(t->context, CL_MEM_READ_WRITE, cl_float2, &err, OPT(shape, {3, 5}), OPT(order, 'F'),
                                        OPT(alignment, 64), OPT(queue, t->queue));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, strcmp(a.dtype, "cl_float2") == 0);
    CLMEM_CHECK_EQ(t, a.itemsize, 8);
    CLMEM_CHECK_EQ(t, a.ndim, 2);
    CLMEM_CHECK_EQ(t, a.strides[0], 8);
    CLMEM_CHECK_EQ(t, a.strides[1], 24);
    CLMEM_CHECK_EQ(t, a.order, 'F');
    CLMEM_CHECK_EQ(t, a.alignment, 64);
    CLMEM_CHECK(t, clmem_svm_array_allocation(a).svm.ptr == a.svm.ptr);
    CLMEM_CHECK(t, clmem::data<cl_float2>(a) == a.svm.ptr);
    CLMEM_CHECK(t, clmem::data<float>(a) == NULL);
    clmem_svm_array b = clmem_svm_empty_like(t->context, CL_MEM_READ_WRITE, &a, &err), c;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, strcmp(b.dtype, "cl_float2") == 0 && b.shape[1] == 5 && b.order == 'F');
    c = clmem_csvm_empty_like(t->context, &a, &err, OPT(alignment, 16));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, c.alignment, 16);
    CLMEM_CHECK_EQ(t, c.strides[1], 24);
    CLMEM_CHECK_CL(t, clmem_release(&b));
    CLMEM_CHECK_CL(t, clmem_svm_array_release(&c));
    b = clmem_csvm_empty(t->context, unsigned short, &err, OPT(shape, {7}));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, strcmp(b.dtype, "unsigned short") == 0 && b.svm.size == 14);
    clmem_release(&b);
    // a zero-length dimension given with .ndim
    b = clmem_csvm_empty(t->context, float, &err, OPT(shape, {0}), OPT(ndim, 1));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, b.svm.size, 0);
    clmem_release(&b);
    CLMEM_CHECK_ERR(t, (b = clmem_csvm_empty(t->context, float, &err), err), CL_INVALID_VALUE);   // no shape
    if (device_svm_caps(t, CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
        clmem::unique<clmem_svm_array> f(clmem_fsvm_empty(t->context, int, &err, OPT(shape, {4})));
        CLMEM_CHECK_CL(t, err);
        clmem::data<int>(f)[3] = 9;   // fine grain: the host writes directly
        b = clmem_fsvm_empty_like(t->context, &*f, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, strcmp(b.dtype, "int") == 0);
        clmem_release(&b);
        CLMEM_CHECK_EQ(t, clmem::data<int>(f)[3], 9);
    }
    clmem_release(&a);
}

static void test_kernel_arg(clmem_test_context *t) {
    NEED_SVM(t);
    cl_int err;
    cl_kernel k = build_kernel(t, "__kernel void inc(__global int *p) { p[get_global_id(0)] += 1; }", "inc");
    if (!k) return;
    clmem::unique<clmem_svm_allocation> a(clmem_svm_allocation_create(t->context, 16, 0, 0, t->queue, &err));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a->svm, 41, 16));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, a->svm));
    size_t g = 4;
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    int out[4];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, a->svm));
    CLMEM_CHECK(t, out[0] == 42 && out[3] == 42);
    clReleaseKernel(k);
}

CXX_CASES({"allocation", test_allocation, false}, {"maps", test_maps, false},
          {"memfill_migrate_buffer", test_memfill_migrate_buffer, false}, {"empty_family", test_empty_family, false},
          {"kernel_arg", test_kernel_arg, false})
#else
static void test_none(clmem_test_context *t) { clmem_test_skip(t, "OpenCL headers older than 2.0"); }
CXX_CASES({"none", test_none, true})
#endif
