/* tests/release_cases.h - clmem_release(&handle) of every handle kind (CLMEM__HANDLES),
   shared by memobj_release.c (C: _Generic) and cxx_release.cpp (C++: overloads), so the
   one body checks both faces. Include after clmem.h and common.h (C) or cxx_common.h
   (C++); OPT(name, value) writes one named option.

   Each case makes a handle, keeps a copy, releases it with clmem_release, and checks
   that the call succeeded, that the handle is empty, and that the release really
   happened: a pooled block is back in its pool, and releasing the copy is
   CLMEM_ERROR_DOUBLE_RELEASE where the kind recognises a stale copy. Empty is all zero
   bytes, except for the kinds that keep their identity (id, serial, owner) so that a
   second release of the same handle is recognised: maps, SVM allocations and arrays,
   pinned allocations hold no pointer, object or size after release. */
#ifndef CLMEM_TESTS_RELEASE_CASES_H
#define CLMEM_TESTS_RELEASE_CASES_H

static int all_zero(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; ++i)
        if (b[i]) return 0;
    return 1;
}
#define CHECK_EMPTY(t, h) CLMEM_CHECK((t), all_zero(&(h), sizeof(h)))

static int has_images(clmem_test_context *t) {
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    return img == CL_TRUE;
}


static void test_release_buffer(clmem_test_context *t) {
    cl_int err;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b.mem != NULL);
    CLMEM_CHECK_CL(t, clmem_release(&b));
    CHECK_EMPTY(t, b);
    CLMEM_CHECK_CL(t, clmem_release(&b)); /* an empty handle: nothing to do */
}

static void test_release_pooled_buffer(clmem_test_context *t) {
    cl_int err;
    clmem_allocator *a = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b, copy;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(a, 0, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, 100, &err);
    CLMEM_CHECK_CL(t, err);
    copy = b;
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 1);
    CLMEM_CHECK_CL(t, clmem_release(&b));
    CHECK_EMPTY(t, b);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_active_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 1);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    clmem_memory_pool_release(pool);
    clmem_allocator_release(a);
}

static void test_release_image(clmem_test_context *t) {
    cl_int err;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "device has no image support");
        return;
    }
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err, OPT(shape, {4, 4}));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.mem != NULL);
    CLMEM_CHECK_CL(t, clmem_release(&img));
    CHECK_EMPTY(t, img);
}

static void test_release_pipe(clmem_test_context *t) {
    cl_int err;
    clmem_pipe p = clmem_pipe_create(t->context, 0, sizeof(cl_int), 16, NULL, &err);
    if (err == CL_INVALID_OPERATION) {
        clmem_test_skip(t, "no pipes on this device (%s)", clmem_last_error_message());
        return;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.mem != NULL);
    CLMEM_CHECK_CL(t, clmem_release(&p));
    CHECK_EMPTY(t, p);
}

static void test_release_sampler(clmem_test_context *t) {
    cl_int err;
    clmem_sampler s;
    if (!has_images(t)) {
        clmem_test_skip(t, "device has no image support (no samplers)");
        return;
    }
    s = clmem_sampler_create(t->context, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, s.sampler != NULL);
    CLMEM_CHECK_CL(t, clmem_release(&s));
    CHECK_EMPTY(t, s);
}

static void test_release_memory_map(clmem_test_context *t) {
    cl_int err;
    clmem_memory_map m, copy;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, cl_uint, &m));
    CLMEM_CHECK(t, m.ptr != NULL);
    copy = m;
    CLMEM_CHECK_CL(t, clmem_release(&m));
    CLMEM_CHECK(t, m.ptr == NULL && m.mem == NULL && m.queue == NULL && m.event == NULL);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    clmem_release(&b);
}

static void test_release_pinned_allocation(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_allocation a = clmem_pinned_allocation_create(t->queue, 256, 0, &err), copy;
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.ptr != NULL && a.size == 256);
    copy = a;
    CLMEM_CHECK_CL(t, clmem_release(&a));
    CLMEM_CHECK(t, a.ptr == NULL && a.size == 0 && a.mem == NULL);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
}

static void test_release_pinned_pool_allocation(clmem_test_context *t) {
    cl_int err;
    clmem_pinned_pool *pool = clmem_pinned_pool_create(t->queue, 0, 0, &err);
    clmem_pinned_allocation a;
    CLMEM_CHECK_CL(t, err);
    a = clmem_pinned_pool_allocate(pool, 300, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(pool), 1);
    CLMEM_CHECK_CL(t, clmem_release(&a));
    CLMEM_CHECK(t, a.ptr == NULL && a.size == 0 && a.mem == NULL);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_active_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, clmem_pinned_pool_held_blocks(pool), 1);
    clmem_pinned_pool_release(pool);
}

static void test_release_svm_allocation(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocation a, copy;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, a.svm.ptr != NULL);
    copy = a;
    CLMEM_CHECK_CL(t, clmem_release(&a));
    CLMEM_CHECK(t, a.svm.ptr == NULL && a.svm.size == 0);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
}

static void test_release_svm_array(clmem_test_context *t) {
    cl_int err;
    clmem_svm_array arr;
    NEED_SVM(t);
    arr = clmem_svm_empty(t->context, CL_MEM_READ_WRITE, float, &err, OPT(shape, {16}));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, arr.svm.ptr != NULL);
    CLMEM_CHECK_CL(t, clmem_release(&arr));
    CLMEM_CHECK(t, arr.svm.ptr == NULL && arr.svm.size == 0);
}

static void test_release_svm_map(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocation a;
    clmem_svm_map m, copy;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, 256, 0, CL_MEM_READ_WRITE, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_svm_map_rw(t->queue, a.svm, &m));
    CLMEM_CHECK(t, m.ptr == a.svm.ptr);
    copy = m;
    CLMEM_CHECK_CL(t, clmem_release(&m));
    CLMEM_CHECK(t, m.ptr == NULL && m.size == 0 && m.svm.ptr == NULL && m.queue == NULL && m.event == NULL);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    clFinish(t->queue);
    clmem_release(&a);
}

static void test_release_pooled_svm(clmem_test_context *t) {
    cl_int err;
    clmem_svm_allocator *alloc;
    clmem_svm_pool *pool;
    clmem_pooled_svm p, copy;
    NEED_SVM(t);
    alloc = clmem_svm_allocator_create(t->context, 0, CL_MEM_READ_WRITE, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    pool = clmem_svm_pool_create(alloc, 0, &err);
    CLMEM_CHECK_CL(t, err);
    p = clmem_svm_pool_allocate(pool, 100, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, p.svm.ptr != NULL);
    copy = p;
    CLMEM_CHECK_EQ(t, clmem_svm_pool_active_blocks(pool), 1);
    CLMEM_CHECK_CL(t, clmem_release(&p));
    CHECK_EMPTY(t, p);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_active_blocks(pool), 0);
    CLMEM_CHECK_EQ(t, clmem_svm_pool_held_blocks(pool), 1);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    clmem_svm_pool_release(pool);
    clmem_svm_allocator_release(alloc);
}

#define RELEASE_CASES                                                                                        \
    {"buffer", test_release_buffer, false}, {"pooled_buffer", test_release_pooled_buffer, false},           \
        {"image", test_release_image, false}, {"pipe", test_release_pipe, false},                            \
        {"sampler", test_release_sampler, false}, {"memory_map", test_release_memory_map, false},           \
        {"pinned_allocation", test_release_pinned_allocation, false},                                       \
        {"pinned_pool_allocation", test_release_pinned_pool_allocation, false},                             \
        {"svm_allocation", test_release_svm_allocation, false}, {"svm_array", test_release_svm_array, false}, \
        {"svm_map", test_release_svm_map, false}, {"pooled_svm", test_release_pooled_svm, false}
#endif
