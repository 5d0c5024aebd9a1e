// Every public *_opts function called directly from C++ (as code that keeps function
// pointers or builds its options at run time does): a struct started from
// CLMEM_OPTIONS_INIT (or its type's own CLMEM_X_OPTIONS_INIT) means the fields set, 0 and
// false included, and the defaults of the others; the CLMEM_GIVEN_* bits of older code
// still count; a struct not made by clmem (clmem_copy_options(), = {}) is refused, of
// every options type alike (one rule); NULL options are the defaults.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

static void test_buffer_opts(clmem_test_context *t) {
    cl_int err;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    cl_uint v = 7;
    cl_event ev = NULL;
    clmem_enqueue_options eo = CLMEM_OPTIONS_INIT;
    eo.event = &ev;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer_opts(t->queue, b, &v, sizeof v, 0, 64, &eo));
    CLMEM_CHECK(t, ev != NULL);
    eo = CLMEM_OPTIONS_INIT;
    eo.wait_for = &ev;
    eo.num_wait_for = 1;
    const cl_mem objs[1] = {b.mem};
    cl_int r = clmem_enqueue_migrate_mem_objects_opts(t->queue, objs, 1, 0, &eo);
    CLMEM_CHECK(t, r == CL_SUCCESS || r == CL_INVALID_OPERATION);
    clReleaseEvent(ev);
    // copy with .byte_count = 0 set: nothing
    clmem_copy_options co = CLMEM_OPTIONS_INIT;
    co.byte_count = 0;
    cl_uint out[16];
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem::detail::copy(t->queue, out, b, &co));
    CLMEM_CHECK_EQ(t, out[0], 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b, co));   // a whole struct among the options
    CLMEM_CHECK_EQ(t, out[0], 0);
    co = CLMEM_OPTIONS_INIT;   // left out: the default, everything
    CLMEM_CHECK_CL(t, clmem::detail::copy(t->queue, out, b, &co));
    CLMEM_CHECK_EQ(t, out[15], 7);
    // older code: the bit of a field left out means 0
    memset(out, 0, sizeof out);
    co = CLMEM_COPY_OPTIONS_INIT;
    co.given |= CLMEM_GIVEN_BYTE_COUNT;
    CLMEM_CHECK_CL(t, clmem::detail::copy(t->queue, out, b, &co));
    CLMEM_CHECK_EQ(t, out[15], 0);
    // host_size 0 set: no room; region element 0 set to 0: a rectangle of nothing
    co = CLMEM_OPTIONS_INIT;
    co.host_size = 0;
    CLMEM_CHECK_ERR(t, clmem::detail::copy(t->queue, out, b, &co), CL_INVALID_VALUE);
    co = CLMEM_OPTIONS_INIT;
    co.region[0] = 0;
    CLMEM_CHECK_CL(t, clmem::detail::copy(t->queue, out, b, &co));
    CLMEM_CHECK_EQ(t, out[15], 0);
    clmem_buffer c = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    r = clmem_enqueue_copy_buffer_p2p_amd_opts(t->platform, t->queue, b, c, &co);
    CLMEM_CHECK(t, r == CL_SUCCESS || r == CL_INVALID_OPERATION);
    // maps
    clmem_memory_map m;
    clmem_map_options mo = CLMEM_OPTIONS_INIT;
    mo.shape[0] = 4;
    mo.shape[1] = 4;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, sizeof(cl_uint), "cl_uint", &m, &mo));
    CLMEM_CHECK(t, m.ndim == 2 && m.file == NULL && strcmp(m.dtype, "cl_uint") == 0);
    CLMEM_CHECK_EQ(t, *(cl_uint *)clmem_memory_map_at(&m, {3, 3}), 7);
    clmem_unmap_options uo = CLMEM_OPTIONS_INIT;
    uo.queue = t->queue;
    CLMEM_CHECK_CL(t, clmem_memory_map_release_opts(&m, &uo));
    mo = CLMEM_OPTIONS_INIT;   // .shape left out: everything; .shape[0] = 0 set: refused; .order 0: refused
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, sizeof(cl_uint), "cl_uint", &m, &mo));
    CLMEM_CHECK(t, m.ndim == 1 && m.shape[0] == 16);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    mo.shape[0] = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, 4, "int", &m, &mo), CL_INVALID_VALUE);
    mo = CLMEM_MAP_OPTIONS_INIT;
    mo.order = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, 4, "int", &m, &mo), CL_INVALID_VALUE);
    mo = CLMEM_MAP_OPTIONS_INIT;
    mo.ndim = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, 4, "int", &m, &mo), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, 4, "int", &m, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_unmap_mem_object_opts(t->queue, b.mem, m.ptr, NULL));
    clmem_release(&b);
    clmem_release(&c);
}

static void test_image_opts(clmem_test_context *t) {
    cl_bool has = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof has, &has, NULL);
    if (!has) {
        clmem_test_skip(t, "no image support");
        return;
    }
    cl_int err;
    clmem_image_options io = CLMEM_OPTIONS_INIT;
    io.shape[0] = 8;
    io.shape[1] = 2;
    clmem_image img = clmem_create_image_opts(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, &io);
    CLMEM_CHECK_CL(t, err);
    const float c[4] = {3, 0, 0, 0};
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image_opts(t->queue, img, c, CLMEM_COLOR_FLOAT, NULL, NULL, NULL));
    clmem_memory_map m;
    clmem_map_options mo = CLMEM_OPTIONS_INIT;
    mo.region[0] = 2;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image_opts(t->queue, img, CL_MAP_READ, &m, &mo));
    CLMEM_CHECK(t, m.shape[0] == 1 && m.shape[1] == 2 && ((const float *)m.ptr)[1] == 3.0f);   // {2} is {2, 1, 1}
    clmem_release(&m);
    clmem_release(&img);
    const float a[4] = {1, 2, 3, 4};
    const size_t shape[1] = {4};
    clmem_image_from_array_options fo = CLMEM_OPTIONS_INIT;
    fo.mode = 'w';
    img = clmem_image_from_array_opts(t->context, a, CL_FLOAT, 1, 1, shape, &err, &fo);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.flags & CL_MEM_WRITE_ONLY, CL_MEM_WRITE_ONLY);
    clmem_release(&img);
    fo = CLMEM_OPTIONS_INIT;
    fo.num_channels = 0;   // set to 0: refused
    img = clmem_image_from_array_opts(t->context, a, CL_FLOAT, 1, 1, shape, &err, &fo);
    CLMEM_CHECK(t, img.mem == NULL && err == CL_INVALID_VALUE);
    fo = CLMEM_IMAGE_FROM_ARRAY_OPTIONS_INIT;
    fo.given |= CLMEM_GIVEN_NUM_CHANNELS;   // older code: the bit of a field left out means 0
    img = clmem_image_from_array_opts(t->context, a, CL_FLOAT, 1, 1, shape, &err, &fo);
    CLMEM_CHECK(t, img.mem == NULL && err == CL_INVALID_VALUE);
    fo = CLMEM_OPTIONS_INIT;
    fo.mode = 0;   // set to 0: refused
    img = clmem_image_from_array_opts(t->context, a, CL_FLOAT, 1, 1, shape, &err, &fo);
    CLMEM_CHECK(t, img.mem == NULL && err == CL_INVALID_VALUE);
    fo = CLMEM_OPTIONS_INIT;   // left out: 1 channel, read-only
    img = clmem_image_from_array_opts(t->context, a, CL_FLOAT, 1, 1, shape, &err, &fo);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, (img.flags & CL_MEM_READ_ONLY) != 0 && img.width == 4);
    clmem_release(&img);
    io = CLMEM_IMAGE_OPTIONS_INIT;
    io.shape[0] = 8;
    io.ndim = 0;   // set to 0: not the shape's 1
    img = clmem_create_image_opts(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, &io);
    CLMEM_CHECK(t, img.mem == NULL && err == CL_INVALID_VALUE);
    io.ndim = 1;
    img = clmem_create_image_opts(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, &io);
    CLMEM_CHECK_CL(t, err);
    clmem_release(&img);
}

static void test_svm_opts(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no coarse-grain buffer SVM");
        return;
    }
    cl_int err;
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    cl_uint v = 5;
    clmem_svm_memfill_options fo = CLMEM_OPTIONS_INIT;
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill_opts(t->queue, a.svm, &v, sizeof v, &fo));
    cl_uint w = 6;
    fo.byte_count = 0;   // set to 0: fills nothing
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill_opts(t->queue, a.svm, &w, sizeof w, &fo));
    clmem_svm_map m;
    clmem_svm_map_options mo = CLMEM_OPTIONS_INIT;
    mo.size = 0;   // set to 0: refused
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_map_opts(t->queue, a.svm, CL_MAP_READ, &m, &mo), CL_INVALID_VALUE);
    mo.size = 8;
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_map_opts(t->queue, a.svm, CL_MAP_READ, &m, &mo));
    CLMEM_CHECK(t, m.size == 8 && ((cl_uint *)m.ptr)[1] == 5);
    clmem_svm_unmap_options uo = CLMEM_OPTIONS_INIT;
    CLMEM_CHECK_CL(t, clmem_svm_map_release_opts(&m, &uo));
    const clmem_svm svms[1] = {a.svm};
    cl_int r = clmem_enqueue_svm_migratemem_opts(t->queue, svms, 1, 0, NULL);
    CLMEM_CHECK(t, r == CL_SUCCESS || r == CL_INVALID_OPERATION);
    CLMEM_CHECK_CL(t, clmem_svm_allocation_enqueue_release_opts(&a, NULL, NULL));
    clmem_svm_array arr, like;
    clmem_svm_empty_options eo = CLMEM_OPTIONS_INIT;
    eo.ndim = 0;   // set to 0: no shape, refused
    arr = clmem_svm_empty_opts(t->context, CL_MEM_READ_WRITE, sizeof(double), "double", &err, &eo);
    CLMEM_CHECK(t, err == CL_INVALID_VALUE && arr.svm.ptr == NULL);
    eo = CLMEM_SVM_EMPTY_OPTIONS_INIT;
    eo.shape[0] = 2;
    eo.shape[1] = 3;
    arr = clmem_svm_empty_opts(t->context, CL_MEM_READ_WRITE, sizeof(double), "double", &err, &eo);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, arr.ndim == 2 && arr.strides[0] == 24 && strcmp(arr.dtype, "double") == 0 && arr.order == 'C' &&
                       arr.alignment == sizeof(double));
    like = clmem_svm_empty_like_opts(t->context, CL_MEM_READ_WRITE, &arr, &err, NULL);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, like.shape[1] == 3);
    clmem_release(&like);
    clmem_release(&arr);
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

// A struct not made by clmem cannot say whether a zero means 0 or the default: refused
// by every function that takes options, never a silent guess.
static void test_not_made_refused(clmem_test_context *t) {
    cl_int err;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    cl_uint out[16];
    clmem_copy_options co = clmem_copy_options();
    co.is_blocking = CLMEM_NON_BLOCKING;
    CLMEM_CHECK_ERR(t, clmem::detail::copy(t->queue, out, b, &co), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CLMEM_OPTIONS_INIT") != NULL);
    CLMEM_CHECK_ERR(t, clmem::detail::copy(t->queue, b, static_cast<const void *>(out), &co), CL_INVALID_VALUE);
    clmem_buffer c = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem::detail::copy(t->queue, c, b, &co), CL_INVALID_VALUE);
    clmem_memory_map m;
    clmem_map_options mo = clmem_map_options();
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, 4, "int", &m, &mo), CL_INVALID_VALUE);
    clmem_image_options io = clmem_image_options();
    io.shape[0] = 8;
    clmem_image img = clmem_create_image_opts(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, &io);
    CLMEM_CHECK(t, img.mem == NULL && err == CL_INVALID_VALUE);
    // the same rule for the types without an option whose default is not 0
    clmem_enqueue_options eo = clmem_enqueue_options();
    CLMEM_CHECK_ERR(t, clmem_enqueue_migrate_mem_objects_opts(t->queue, &b.mem, 1, 0, &eo), CL_INVALID_VALUE);
    cl_uint v = 1;
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer_opts(t->queue, b, &v, sizeof v, 0, 64, &eo), CL_INVALID_VALUE);
    clmem_fill_options fo = clmem_fill_options();
    CLMEM_CHECK_ERR(t, clmem::detail::fill(t->queue, b, v, 64, &fo), CL_INVALID_VALUE);
    clmem_unmap_options uo = clmem_unmap_options();
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, b, CL_MAP_READ, 0, 4, "int", &m, NULL));
    CLMEM_CHECK_ERR(t, clmem_memory_map_release_opts(&m, &uo), CL_INVALID_VALUE);
    uo = CLMEM_OPTIONS_INIT;
    CLMEM_CHECK_CL(t, clmem_memory_map_release_opts(&m, &uo));
    eo = CLMEM_OPTIONS_INIT;
    CLMEM_CHECK_CL(t, clmem_enqueue_migrate_mem_objects_opts(t->queue, &b.mem, 1, 0, &eo));
    fo = CLMEM_OPTIONS_INIT;
    CLMEM_CHECK_CL(t, clmem::detail::fill(t->queue, b, v, 64, &fo));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_release(&b);
    clmem_release(&c);
}

// A copy whose options struct is built by hand from CLMEM_OPTIONS_INIT with is_blocking =
// CLMEM_NON_BLOCKING (how 0), also with the bit of older code (1), from
// CLMEM_COPY_OPTIONS_INIT (2), returns before the copy is done. The copy waits for a gate
// only this thread opens after the call returned (a watchdog opens it after 10 s, should
// the call block; the test then sees a complete copy).
static void non_blocking_by_hand(clmem_test_context *t, int how) {
    cl_int err;
    unsigned char want[256], back[256];
    fill_pattern(want, sizeof want, 5);
    memset(back, 0, sizeof back);
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof want, want, &err);
    CLMEM_CHECK_CL(t, err);
    cl_event gate = clCreateUserEvent(t->context, &err), ev = NULL;
    CLMEM_CHECK_CL(t, err);
    std::mutex lock;
    std::condition_variable cv;
    bool done = false;
    std::thread watchdog([&] {
        std::unique_lock<std::mutex> l(lock);
        if (!cv.wait_for(l, std::chrono::seconds(10), [&] { return done; })) clSetUserEventStatus(gate, CL_COMPLETE);
    });
    clmem_copy_options o = CLMEM_OPTIONS_INIT;
    if (how == 2) o = CLMEM_COPY_OPTIONS_INIT;
    o.is_blocking = CLMEM_NON_BLOCKING;
    if (how == 1) o.given |= CLMEM_GIVEN_IS_BLOCKING;
    o.wait_for = &gate;
    o.num_wait_for = 1;
    o.event = &ev;
    err = clmem::detail::copy(t->queue, back, b, &o);
    cl_int status = -1;
    if (err == CL_SUCCESS) clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    {
        std::lock_guard<std::mutex> l(lock);
        done = true;
    }
    cv.notify_one();
    watchdog.join();
    clSetUserEventStatus(gate, CL_COMPLETE);
    if (ev) clWaitForEvents(1, &ev);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, status != CL_COMPLETE); // returned before the copy was done
    CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
    if (ev) clReleaseEvent(ev);
    clReleaseEvent(gate);
    clmem_release(&b);
}

static void test_non_blocking_built_by_hand(clmem_test_context *t) {
    non_blocking_by_hand(t, 0);
    non_blocking_by_hand(t, 1);
    non_blocking_by_hand(t, 2);
}

CXX_CASES({"buffer_opts", test_buffer_opts, false}, {"image_opts", test_image_opts, false},
          {"svm_opts", test_svm_opts, false}, {"not_made_refused", test_not_made_refused, false},
          {"non_blocking_built_by_hand", test_non_blocking_built_by_hand, false})
