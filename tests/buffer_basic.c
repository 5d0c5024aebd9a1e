/* buffer and memobj: creation and its rejections, sub-buffers and slices, fills,
   info, int_ptr, host arrays, migration. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static size_t base_align(clmem_test_context *t) {
    cl_uint bits = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    return bits / 8 ? bits / 8 : 1;
}

static cl_int read_all(clmem_test_context *t, clmem_buffer b, void *host) {
    return clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, b.size, host, 0, NULL, NULL);
}

static void test_create_rejections(clmem_test_context *t) {
    cl_int err = 0;
    char host[64];
    cl_ulong max = 0;
    clmem_buffer b;
#define REJECT(flags, size, hostp, code)                                       \
    b = clmem_buffer_create(t->context, flags, size, hostp, &err);            \
    CLMEM_CHECK_EQ(t, err, code);                                              \
    CLMEM_CHECK(t, b.mem == NULL);                                             \
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_buffer_create: ") != NULL)
    REJECT(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "WRITE_ONLY|READ_ONLY") != NULL);
    REJECT(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL, CL_INVALID_VALUE);
    REJECT(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL, CL_INVALID_VALUE);
    REJECT((cl_mem_flags)1 << 40, 64, NULL, CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "unknown bits 0x10000000000") != NULL);
    REJECT(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, CL_INVALID_VALUE);
    REJECT(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host, CL_INVALID_VALUE);
    REJECT(CL_MEM_USE_HOST_PTR, 64, NULL, CL_INVALID_HOST_PTR);
    REJECT(CL_MEM_COPY_HOST_PTR, 64, NULL, CL_INVALID_HOST_PTR);
    REJECT(CL_MEM_READ_WRITE, 64, host, CL_INVALID_HOST_PTR);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "neither USE_HOST_PTR nor COPY_HOST_PTR") != NULL);
    REJECT(0, 0, NULL, CL_INVALID_BUFFER_SIZE);
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL);
    REJECT(0, (size_t)max + 1, NULL, CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_DEVICE_MAX_MEM_ALLOC_SIZE") != NULL);
    REJECT(0, SIZE_MAX, NULL, CL_INVALID_BUFFER_SIZE);
    b = clmem_buffer_create(NULL, 0, 64, NULL, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
#undef REJECT
}

static void test_create_and_info(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char src[256], back[256];
    clmem_mem_info info;
    clmem_buffer b, w;
    fill_pattern(src, sizeof src, 1);
    b = clmem_buffer_create(t->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, b.size, 256);
    CLMEM_CHECK(t, b.root == b.mem && b.origin == 0 && b.pool == NULL && b.context == t->context);
    CLMEM_CHECK_CL(t, read_all(t, b, back));
    CLMEM_CHECK(t, memcmp(src, back, sizeof src) == 0);
    CLMEM_CHECK_CL(t, clmem_memory_object_get_info(b, &info));
    CLMEM_CHECK_EQ(t, info.type, CL_MEM_OBJECT_BUFFER);
    CLMEM_CHECK_EQ(t, info.flags, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    CLMEM_CHECK_EQ(t, info.size, 256);
    CLMEM_CHECK(t, info.host_ptr == NULL);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* not info.map_count: CL_MEM_MAP_COUNT is debugging only */
    CLMEM_CHECK_EQ(t, info.reference_count, 1);
    CLMEM_CHECK(t, info.context == t->context);
    CLMEM_CHECK(t, info.associated_memobject == NULL);
    CLMEM_CHECK_EQ(t, info.offset, 0);
    CLMEM_CHECK(t, clmem_memory_object_hostbuf(b) == NULL);
    /* int_ptr round trip, with and without retain; equality and hash */
    CLMEM_CHECK(t, clmem_memory_object_int_ptr(b) == b.mem);
    w = clmem_buffer_from_int_ptr(clmem_memory_object_int_ptr(b), true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_memory_object_equal(w, b));
    CLMEM_CHECK(t, clmem_memory_object_equal(w.mem, b));
    CLMEM_CHECK_EQ(t, clmem_memory_object_hash(w), clmem_memory_object_hash(b));
    CLMEM_CHECK_EQ(t, w.size, 256);
    CLMEM_CHECK_EQ(t, w.flags, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
    CLMEM_CHECK_CL(t, clmem_mem_get_info(b.mem, &info));
    CLMEM_CHECK_EQ(t, info.reference_count, 2);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&w));
    CLMEM_CHECK(t, w.mem == NULL);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&w)); /* empty handle: no-op */
    CLMEM_CHECK_CL(t, clmem_mem_get_info(b.mem, &info));
    CLMEM_CHECK_EQ(t, info.reference_count, 1);
    CLMEM_CHECK_CL(t, clRetainMemObject(b.mem));
    w = clmem_buffer_from_int_ptr(b.mem, false, &err); /* takes over that reference */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&w));
    CLMEM_CHECK_CL(t, clmem_mem_get_info(b.mem, &info));
    CLMEM_CHECK_EQ(t, info.reference_count, 1);
    w = clmem_buffer_from_int_ptr(NULL, true, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_mem_get_info(NULL, &info), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
}

static void test_use_host_ptr(clmem_test_context *t) {
    cl_int err = 0;
    size_t align = base_align(t);
    size_t n = 4 * align;
    unsigned char *host = (unsigned char *)malloc(n), *arr;
    unsigned char back[16];
    clmem_buffer b, sub, plain;
    CLMEM_CHECK(t, host != NULL);
    fill_pattern(host, n, 7);
    b = clmem_buffer_create(t->context, CL_MEM_USE_HOST_PTR, n, host, &err);
    if (err != CL_SUCCESS) free(host);
    CLMEM_CHECK_CL(t, err);
    arr = (unsigned char *)clmem_memory_object_get_host_array(b, n, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, arr == host);
    CLMEM_CHECK(t, clmem_buffer_hostbuf(b) == host);
    /* host -> device through the array: write on the host, read through OpenCL */
    arr[5] = 0xAB;
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, 16, back, 0, NULL, NULL));
    CLMEM_CHECK_EQ(t, back[5], 0xAB);
    CLMEM_CHECK(t, clmem_memory_object_get_host_array(b, n + 1, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    /* slicing a USE_HOST_PTR buffer works (PyOpenCL forwards the flag and fails) */
    sub = clmem_buffer_slice(b, (ptrdiff_t)align, (ptrdiff_t)(2 * align), &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_buffer_hostbuf(sub) == host + align);
    CLMEM_CHECK(t, sub.flags & CL_MEM_USE_HOST_PTR);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&sub));
    plain = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_memory_object_get_host_array(plain, 0, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_MEM_USE_HOST_PTR") != NULL);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&plain));
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    clFinish(t->queue);
    free(host);
}

static void test_sub_buffers(clmem_test_context *t) {
    cl_int err = 0;
    size_t a = base_align(t), n = 8 * a, i;
    unsigned char *src = (unsigned char *)malloc(n), *back = (unsigned char *)malloc(n);
    clmem_buffer b, s1, s2, tail, big;
    clmem_mem_info info;
    CLMEM_CHECK(t, src && back);
    fill_pattern(src, n, 3);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, n, src, &err);
    CLMEM_CHECK_CL(t, err);
    s1 = clmem_buffer_get_sub_region(b, 2 * a, 4 * a, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, s1.root == b.mem && s1.origin == 2 * a && s1.size == 4 * a);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, s1.mem, CL_TRUE, 0, s1.size, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, src + 2 * a, 4 * a) == 0);
    CLMEM_CHECK_CL(t, clmem_memory_object_get_info(s1, &info));
    CLMEM_CHECK(t, info.associated_memobject == b.mem);
    CLMEM_CHECK_EQ(t, info.offset, 2 * a);
    /* a slice of a slice is relative to the slice, made on the root */
    s2 = clmem_buffer_slice(s1, (ptrdiff_t)a, -(ptrdiff_t)a, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, s2.root == b.mem && s2.origin == 3 * a && s2.size == 2 * a);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, s2.mem, CL_TRUE, 0, s2.size, back, 0, NULL, NULL));
    CLMEM_CHECK(t, memcmp(back, src + 3 * a, 2 * a) == 0);
    /* Python slice rules: negative start, clamped stop */
    tail = clmem_buffer_slice(b, -(ptrdiff_t)a, CLMEM_END, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, tail.origin == n - a && tail.size == a);
    big = clmem_buffer_slice(b, 0, (ptrdiff_t)(n * 1000), &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, big.size, n);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&big));
    big = clmem_buffer_slice(b, -(ptrdiff_t)(n * 5), (ptrdiff_t)a, &err); /* start clamps to 0 */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, big.origin == 0 && big.size == a);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&big));
    /* the parent may go first: sub-buffers stay readable */
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, tail.mem, CL_TRUE, 0, a, back, 0, NULL, NULL));
    for (i = 0; i < a; ++i) CLMEM_CHECK_EQ(t, back[i], src[n - a + i]);
    clmem_buffer_release(&tail);
    clmem_buffer_release(&s2);
    clmem_buffer_release(&s1);
    free(src);
    free(back);
}

static void test_sub_buffer_rejections(clmem_test_context *t) {
    cl_int err = 0;
    size_t a = base_align(t), n = 4 * a;
    clmem_buffer b, s, ro, empty;
    b = clmem_buffer_create(t->context, 0, n, NULL, &err);
    CLMEM_CHECK_CL(t, err);
#define REJECT_SUB(expr, code)                       \
    s = (expr);                                      \
    CLMEM_CHECK_EQ(t, err, code);                    \
    CLMEM_CHECK(t, s.mem == NULL);                   \
    CLMEM_CHECK(t, clmem_last_error_message()[0] != '\0')
    REJECT_SUB(clmem_buffer_get_sub_region(b, 4, a, 0, &err), CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "origin 4") != NULL);
    if (a > 1 && n > 1024) {
        REJECT_SUB(clmem_buffer_get_sub_region(b, a / 2 ? a / 2 : 1, a, 0, &err), CL_MISALIGNED_SUB_BUFFER_OFFSET);
    }
    REJECT_SUB(clmem_buffer_get_sub_region(b, 0, 0, 0, &err), CL_INVALID_BUFFER_SIZE);
    REJECT_SUB(clmem_buffer_get_sub_region(b, a, n, 0, &err), CL_INVALID_VALUE);
    /* origin near SIZE_MAX: origin + size wraps (PoCL 3.1 creates the object) */
    REJECT_SUB(clmem_buffer_get_sub_region(b, SIZE_MAX - 127, 256, 0, &err), CL_INVALID_VALUE);
    REJECT_SUB(clmem_buffer_get_sub_region(b, 0, a, CL_MEM_USE_HOST_PTR, &err), CL_INVALID_VALUE);
    REJECT_SUB(clmem_buffer_get_sub_region(b, 0, a, CL_MEM_COPY_HOST_PTR, &err), CL_INVALID_VALUE);
    REJECT_SUB(clmem_buffer_get_sub_region(b, 0, a, (cl_mem_flags)1 << 40, &err), CL_INVALID_VALUE);
    REJECT_SUB(clmem_buffer_slice(b, 16, 16, &err), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "is empty") != NULL);
    REJECT_SUB(clmem_buffer_slice(b, 32, 8, &err), CL_INVALID_VALUE);
    REJECT_SUB(clmem_buffer_slice(b, (ptrdiff_t)n, CLMEM_END, &err), CL_INVALID_VALUE);
    ro = clmem_buffer_create(t->context, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, n, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    REJECT_SUB(clmem_buffer_get_sub_region(ro, 0, a, CL_MEM_READ_WRITE, &err), CL_INVALID_VALUE);
    REJECT_SUB(clmem_buffer_get_sub_region(ro, 0, a, CL_MEM_HOST_WRITE_ONLY, &err), CL_INVALID_VALUE);
    s = clmem_buffer_get_sub_region(ro, 0, a, 0, &err); /* inherits */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, (s.flags & CL_MEM_READ_ONLY) && (s.flags & CL_MEM_HOST_READ_ONLY));
    clmem_buffer_release(&s);
    memset(&empty, 0, sizeof empty);
    REJECT_SUB(clmem_buffer_get_sub_region(empty, 0, a, 0, &err), CL_INVALID_MEM_OBJECT);
    REJECT_SUB(clmem_buffer_slice(empty, 0, 1, &err), CL_INVALID_MEM_OBJECT);
#undef REJECT_SUB
    clmem_buffer_release(&ro);
    clmem_buffer_release(&b);
}

static void test_fill_every_pattern_size(clmem_test_context *t) {
    cl_int err = 0;
    size_t ps;
    unsigned char pattern[128], back[1024], want[1024];
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof back, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    for (ps = 1; ps <= 128; ps *= 2) {
        size_t off = 2 * ps, size = 4 * ps, i;
        memset(want, 0x5A, sizeof want);
        CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof want, want, 0, NULL, NULL));
        fill_pattern(pattern, ps, (unsigned)ps);
        for (i = 0; i < size; ++i) want[off + i] = pattern[i % ps];
        CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, pattern, ps, off, size));
        CLMEM_CHECK_CL(t, read_all(t, b, back));
        CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0); /* bytes outside untouched */
    }
    {
        cl_event ev = NULL;
        cl_int status = 0;
        unsigned short v = 0xABCD;
        CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 2, 0, 16, .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        CLMEM_CHECK_EQ(t, status, CL_COMPLETE);
        CLMEM_CHECK_CL(t, read_all(t, b, back));
        CLMEM_CHECK_EQ(t, back[0], 0xCD);
        CLMEM_CHECK_EQ(t, back[1], 0xAB);
        CLMEM_CHECK_EQ(t, back[14], 0xCD);
        CLMEM_CHECK_EQ(t, back[15], 0xAB);
        /* size 0: a no-op that still yields an event, waiting for the given one */
        {
            cl_event ev2 = NULL;
            CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 2, 0, 0, CLMEM_WAIT_FOR(ev), .event = &ev2));
            CLMEM_CHECK(t, ev2 != NULL);
            CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev2));
            clReleaseEvent(ev2);
        }
        clReleaseEvent(ev);
    }
    clmem_buffer_release(&b);
}

static void test_fill_rejections(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char p[256] = {0};
    cl_event ev = NULL;
    clmem_buffer empty, b = clmem_buffer_create(t->context, 0, 256, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    memset(&empty, 0, sizeof empty);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 3, 0, 6), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "pattern_size 3") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 0, 0, 8), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 256, 0, 256), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, NULL, 4, 0, 8), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 4, 2, 8), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 4, 0, 6), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 4, 252, 8), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "offset 252 + size 8 is beyond the buffer's 256 bytes") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 4, SIZE_MAX - 3, 8), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, empty, p, 4, 0, 8), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(NULL, b, p, 4, 0, 8), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 4, 0, 8, .num_wait_for = 1), CL_INVALID_EVENT_WAIT_LIST);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer(t->queue, b, p, 4, 0, 8, .wait_for = &ev), CL_INVALID_EVENT_WAIT_LIST);
    clmem_buffer_release(&b);
}

static void test_other_context(clmem_test_context *t) {
    cl_int err = 0;
    unsigned v = 1;
    cl_context other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    clmem_buffer b;
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(other, 0, 64, NULL, &err);
    if (err != CL_SUCCESS) clReleaseContext(other);
    CLMEM_CHECK_CL(t, err);
    err = clmem_enqueue_fill_buffer(t->queue, b, &v, 4, 0, 64);
    clmem_buffer_release(&b);
    clReleaseContext(other);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "buf belongs to context") != NULL);
}

static void test_migrate(clmem_test_context *t) {
    cl_int err = 0;
    cl_event ev = NULL;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err), b;
    cl_mem objs[2];
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    objs[0] = a.mem;
    objs[1] = b.mem;
    CLMEM_CHECK_CL(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 2, 0));
    CLMEM_CHECK_CL(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 2, CL_MIGRATE_MEM_OBJECT_HOST |
                                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_ERR(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 0, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_migrate_mem_objects(t->queue, NULL, 2, 0), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 2, 0x80), CL_INVALID_VALUE);
    objs[1] = NULL;
    CLMEM_CHECK_ERR(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 2, 0), CL_INVALID_MEM_OBJECT);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

static const clmem_test_case cases[] = {
    {"create_rejections", test_create_rejections, false},
    {"create_and_info", test_create_and_info, false},
    {"use_host_ptr", test_use_host_ptr, false},
    {"sub_buffers", test_sub_buffers, false},
    {"sub_buffer_rejections", test_sub_buffer_rejections, false},
    {"fill_every_pattern_size", test_fill_every_pattern_size, false},
    {"fill_rejections", test_fill_rejections, false},
    {"other_context", test_other_context, false},
    {"migrate", test_migrate, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
