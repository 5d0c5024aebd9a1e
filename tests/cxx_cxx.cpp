// The C++-only additions: clmem::unique (ownership, moves, reset, release, out) and
// CLMEM_CXX_EXCEPTIONS (clmem::error, clmem::check, the C++ forms throwing).
#define CLMEM_CXX_EXCEPTIONS
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"
#include <utility>

static cl_uint refcount(cl_mem m) {
    cl_uint n = 0;
    clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

static void test_unique(clmem_test_context *t) {
    cl_int err;
    clmem::unique<clmem_buffer> empty;
    CLMEM_CHECK(t, !empty && empty->mem == NULL);
    clmem_buffer raw = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    clRetainMemObject(raw.mem);   // our own reference, to watch the owner's
    {
        clmem::unique<clmem_buffer> a(raw);
        CLMEM_CHECK(t, bool(a) && a.get().mem == raw.mem && (*a).size == 64);
        CLMEM_CHECK_EQ(t, refcount(raw.mem), 2);
        clmem::unique<clmem_buffer> b(std::move(a));
        CLMEM_CHECK(t, !a && b->mem == raw.mem);
        a = std::move(b);
        CLMEM_CHECK(t, bool(a) && !b);
        CLMEM_CHECK_EQ(t, refcount(raw.mem), 2);
    }
    CLMEM_CHECK_EQ(t, refcount(raw.mem), 1);   // released once at scope end
    clmem::unique<clmem_buffer> c(clmem_buffer_create(t->context, 0, 64, NULL, &err));
    clmem_buffer mine = c.release();
    CLMEM_CHECK(t, !c && mine.mem != NULL);
    c.reset(mine);
    CLMEM_CHECK(t, c->mem == mine.mem);
    c.reset();
    CLMEM_CHECK(t, !c);
    clReleaseMemObject(raw.mem);
    // out(): a map filled in place, unmapped when the owner goes
    clmem::unique<clmem_buffer> d(clmem_buffer_create(t->context, 0, 64, NULL, &err));
    {
        clmem::unique<clmem_memory_map> m;
        clmem_enqueue_map_buffer(t->queue, d, CL_MAP_WRITE_INVALIDATE_REGION, 0, int, m.out());
        CLMEM_CHECK_EQ(t, clmem_live_map_count(d->mem), 1);
        clmem_enqueue_map_buffer(t->queue, d, CL_MAP_WRITE_INVALIDATE_REGION, 0, int, m.out());   // the first is unmapped
        CLMEM_CHECK_EQ(t, clmem_live_map_count(d->mem), 1);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(d->mem), 0);
    clmem::unique<clmem_image> i;
    clmem::unique<clmem_pipe> p;
    clmem::unique<clmem_sampler> s;
    clmem::unique<clmem_svm_allocation> a;
    clmem::unique<clmem_svm_array> arr;
    clmem::unique<clmem_svm_map> sm;
    CLMEM_CHECK(t, !i && !p && !s && !a && !arr && !sm);
}

static void test_exceptions(clmem_test_context *t) {
    cl_int err;
    CLMEM_CHECK_EQ(t, clmem::check(CL_SUCCESS), CL_SUCCESS);
    bool thrown = false;
    try {
        clmem::check(CL_INVALID_VALUE);
    } catch (const clmem::error &e) {
        thrown = e.code() == CL_INVALID_VALUE && strncmp(e.what(), "CL_INVALID_VALUE (-30)", 22) == 0;
    }
    CLMEM_CHECK(t, thrown);
    clmem::unique<clmem_buffer> b(clmem_buffer_create(t->context, 0, 64, NULL, &err));
    CLMEM_CHECK_CL(t, err);
    char host[64];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, host, b));   // success returns CL_SUCCESS
    thrown = false;
    try {
        clmem_enqueue_copy(t->queue, host, b, OPT(byte_count, 128));
    } catch (const clmem::error &e) {
        thrown = e.code() == CL_INVALID_VALUE && strstr(e.what(), "clmem_enqueue_copy") != NULL;
    }
    CLMEM_CHECK(t, thrown);
    thrown = false;
    try {
        clmem_set_kernel_arg(NULL, 0, 1.0f);
    } catch (const clmem::error &e) {
        thrown = e.code() == CL_INVALID_KERNEL;
    }
    CLMEM_CHECK(t, thrown);
    thrown = false;
    clmem_memory_map m;
    clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m);
    clmem_memory_map copy = m;
    clmem_release(&m);
    try {
        clmem_release(&copy);
    } catch (const clmem::error &e) {
        thrown = e.code() == CLMEM_ERROR_DOUBLE_RELEASE;
    }
    CLMEM_CHECK(t, thrown);
    thrown = false;
    cl_int code = CL_SUCCESS;
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    if (img) try {
        clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_FLOAT), &code);   // no shape
    } catch (const clmem::error &e) {
        thrown = e.code() == CL_INVALID_IMAGE_SIZE;
    }
    CLMEM_CHECK(t, !img || (thrown && code == CL_INVALID_IMAGE_SIZE));   // errcode_ret is still written
    // plain C functions return their codes
    clmem_buffer none = clmem_buffer_create(NULL, 0, 1, NULL, &err);
    CLMEM_CHECK(t, none.mem == NULL && err == CL_INVALID_CONTEXT);
}

CXX_CASES({"unique", test_unique, false}, {"exceptions", test_exceptions, false})
