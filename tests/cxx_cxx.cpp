// The C++-only additions: clmem::unique (ownership, moves, reset, release, out,
// assignment from a handle), CLMEM_CXX_EXCEPTIONS (clmem::error, clmem::check, the C++
// forms throwing), and the keyword spelling of the options, which compiles in every
// standard (built as C++11, 14, 17 and 20) next to designators where they exist.
#define CLMEM_CXX_EXCEPTIONS
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"
#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

// An owner's releases, watched through the memory object's destructor callback (the
// spec's observable end of an object; its reference count is for finding leaks only).
// The test keeps a reference of its own: while it holds it, the object must live (an
// owner that released twice would have ended it); once it lets go, the object must end
// (an owner that never released keeps it).
struct watched {
    std::atomic<int> ends;
};
static void CL_CALLBACK on_end(cl_mem, void *w) { ++static_cast<watched *>(w)->ends; }
// true when w saw its object end once (the callback may come from another thread:
// waited for up to 2 s)
static bool ended_once(watched *w) {
    for (int i = 0; i < 2000 && w->ends == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return w->ends == 1;
}
static void watch(cl_mem m, watched *w) {
    w->ends = 0;
    clRetainMemObject(m);
    clSetMemObjectDestructorCallback(m, on_end, w);
}
// Whether the driver calls destructor callbacks at all: Wine's OpenCL.dll, which passes
// calls on to the host's driver, never calls them (the probe's object ended unseen).
static bool callbacks_come(clmem_test_context *t) {
    static watched probe; // static: a callback later than the wait finds it alive
    cl_int err;
    cl_mem m = clCreateBuffer(t->context, CL_MEM_READ_WRITE, 16, NULL, &err);
    if (err != CL_SUCCESS) return false;
    probe.ends = 0;
    if (clSetMemObjectDestructorCallback(m, on_end, &probe) != CL_SUCCESS) {
        clReleaseMemObject(m);
        return false;
    }
    clReleaseMemObject(m);
    return ended_once(&probe);
}
static bool skip_unless_callbacks_come(clmem_test_context *t) {
    if (callbacks_come(t)) return false;
    clmem_test_skip(t, "the driver calls no destructor callback of a memory object (clSetMemObjectDestructorCallback), "
                       "by which this case sees the owner's releases");
    return true;
}
// the test's own reference goes: true when the object then ends, once
static bool ends_with_ours(clmem_test_context *t, cl_mem m, watched *w) {
    if (w->ends != 0 || clReleaseMemObject(m) != CL_SUCCESS) return false;
    clFinish(t->queue);
    return ended_once(w);
}

static void test_unique(clmem_test_context *t) {
    if (skip_unless_callbacks_come(t)) return;
    cl_int err;
    clmem::unique<clmem_buffer> empty;
    CLMEM_CHECK(t, !empty && empty->mem == NULL);
    clmem_buffer raw = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    watched w;
    watch(raw.mem, &w);
    {
        clmem::unique<clmem_buffer> a(raw);
        CLMEM_CHECK(t, bool(a) && a.get().mem == raw.mem && (*a).size == 64);
        clmem::unique<clmem_buffer> b(std::move(a));
        CLMEM_CHECK(t, !a && b->mem == raw.mem);
        a = std::move(b);
        CLMEM_CHECK(t, bool(a) && !b);
    }
    CLMEM_CHECK(t, ends_with_ours(t, raw.mem, &w));   // released once at scope end
    clmem::unique<clmem_buffer> c(clmem_buffer_create(t->context, 0, 64, NULL, &err));
    clmem_buffer mine = c.release();
    CLMEM_CHECK(t, !c && mine.mem != NULL);
    c.reset(mine);
    CLMEM_CHECK(t, c->mem == mine.mem);
    c.reset();
    CLMEM_CHECK(t, !c);
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

// u = handle: the old handle is released, the new one owned; u = u.get() keeps it.
static void test_unique_assign(clmem_test_context *t) {
    if (skip_unless_callbacks_come(t)) return;
    cl_int err;
    clmem_buffer first = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_buffer second = clmem_buffer_create(t->context, 0, 32, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    watched w1, w2;
    watch(first.mem, &w1);
    watch(second.mem, &w2);
    {
        clmem::unique<clmem_buffer> u;
        u = first;
        CLMEM_CHECK(t, bool(u) && u->mem == first.mem);
        u = second;   // first released, once
        CLMEM_CHECK(t, ends_with_ours(t, first.mem, &w1));
        CLMEM_CHECK(t, u->mem == second.mem && u->size == 32);
        u = u.get();   // itself: kept
        CLMEM_CHECK(t, w2.ends == 0 && u->size == 32);
    }
    CLMEM_CHECK(t, ends_with_ours(t, second.mem, &w2));   // released once at scope end
}

// The keyword spelling in every standard, also where designators exist, and a whole
// options struct in both spellings.
static void test_keywords(clmem_test_context *t) {
    cl_int err;
    unsigned char want[64], back[64];
    fill_pattern(want, sizeof want, 3);
    clmem::unique<clmem_buffer> b(clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof want, want, &err));
    CLMEM_CHECK_CL(t, err);
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, clmem::byte_count = 8, clmem::src_offset(4)));
    CLMEM_CHECK(t, memcmp(back, want + 4, 8) == 0 && back[8] == 0);
    size_t zero = 0;
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, clmem::byte_count = zero));   // given: nothing
    CLMEM_CHECK_EQ(t, back[0], 0);
    // the example: clmem::shape(w, h)
    int w = 4, h = 2;
    clmem::unique<clmem_memory_map> m;
    clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, cl_uint, m.out(), clmem::shape(h, w));
    CLMEM_CHECK(t, m->ndim == 2 && m->shape[0] == 2 && m->shape[1] == 4 && m->size == 32);
    m.reset();
    // a wait list from the events, non-blocking, an event out
    cl_event ev = NULL, done = NULL;
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, clmem::is_blocking = false, clmem::event = &ev));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back + 32, b, clmem::byte_count = 32, clmem::wait_for(ev, ev),
                                         clmem::event = &done));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &done));
    CLMEM_CHECK(t, memcmp(back, want, 32) == 0 && memcmp(back + 32, want, 32) == 0);
    clReleaseEvent(ev);
    clReleaseEvent(done);
    // a whole struct, alone and followed by keywords (the later keyword wins)
    clmem_copy_options o = CLMEM_OPTIONS_INIT;
    o.byte_count = 16;
    o.src_offset = 8;
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, o));
    CLMEM_CHECK(t, memcmp(back, want + 8, 16) == 0 && back[16] == 0);
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, o, clmem::byte_count = 4));
    CLMEM_CHECK(t, memcmp(back, want + 8, 4) == 0 && back[4] == 0);
    // a struct not made by clmem is refused, also passed whole
    clmem_copy_options bare = clmem_copy_options();
    bool thrown = false;
    try {
        clmem_enqueue_copy(t->queue, back, b, bare);
    } catch (const clmem::error &e) {
        thrown = e.code() == CL_INVALID_VALUE && strstr(e.what(), "CLMEM_OPTIONS_INIT") != NULL;
    }
    CLMEM_CHECK(t, thrown);
#if CLMEM_CXX_DESIGNATORS
    // designators in the same unit, call by call
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = 8, .src_offset = 4));
    CLMEM_CHECK(t, memcmp(back, want + 4, 8) == 0 && back[8] == 0);
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = zero));
    CLMEM_CHECK_EQ(t, back[0], 0);
#endif
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

CXX_CASES({"unique", test_unique, false}, {"unique_assign", test_unique_assign, false},
          {"keywords", test_keywords, false}, {"exceptions", test_exceptions, false})
