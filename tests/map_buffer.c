/* map: buffer maps (PyOpenCL's enqueue_map_buffer, MemoryMap): dtype and shape,
   map-to-host, write -> kernel -> read, non-blocking maps, the scoped form, the
   live-map table (double release, foreign pointers, two maps of one region,
   overlapping write maps, the warning on a buffer released while mapped), sub-buffers,
   USE_HOST_PTR and pooled buffers, and every rejection. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <pthread.h>

/* Whether a map is live is told by what can be observed: clmem's own table
   (clmem_live_map_count), the mapped bytes, a write map over the region (refused while
   another map overlaps it), the data written through a map once it is unmapped. The
   driver's CL_MEM_MAP_COUNT is never asked: the spec has it for debugging only (stale
   at once), PoCL updates it after the unmap completes, Oclgrind 21.10 always says 0. */

/* every byte of p[0..n) is v */
static int all_bytes(const void *p, size_t n, unsigned char v) {
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; ++i)
        if (c[i] != v) return 0;
    return 1;
}

/* PyOpenCL test_map_dtype: a READ_ONLY buffer of one element mapped for writing with
   dtype uint and uint2; the map's dtype is the one asked for. */
static void test_map_dtype(clmem_test_context *t) {
    cl_int err;
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_READ_ONLY, sizeof(cl_uint), NULL, &err);
    clmem_buffer b2;
    CLMEM_CHECK_CL(t, err);
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, cl_uint, &m, .shape = {1})) {
        CLMEM_CHECK(t, strcmp(m.dtype, "cl_uint") == 0);
        CLMEM_CHECK_EQ(t, m.itemsize, 4);
        CLMEM_CHECK_EQ(t, m.ndim, 1);
        CLMEM_CHECK_EQ(t, m.shape[0], 1);
        CLMEM_CHECK_EQ(t, m.size, 4);
        CLMEM_CHECK_EQ(t, m.flags, CL_MAP_WRITE);
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    b2 = clmem_buffer_create(t->context, CL_MEM_READ_ONLY, sizeof(cl_uint2), NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b2, CL_MAP_WRITE, 0, cl_uint2, &m, .shape = {1})) {
        CLMEM_CHECK(t, strcmp(m.dtype, "cl_uint2") == 0);
        CLMEM_CHECK_EQ(t, m.itemsize, 8);
        CLMEM_CHECK_EQ(t, m.size, 8);
        ((cl_uint2 *)m.ptr)->s[0] = 7;
        ((cl_uint2 *)m.ptr)->s[1] = 9;
    }
    CLMEM_CHECK_CL(t, err);
    {
        cl_uint back[2] = {0, 0};
        CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b2.mem, CL_TRUE, 0, 8, back, 0, NULL, NULL));
        CLMEM_CHECK(t, back[0] == 7 && back[1] == 9);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b2.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    clmem_buffer_release(&b);
    clmem_buffer_release(&b2);
}

/* PyOpenCL test_map_to_host: zeros((5,6,7)), [3,2,1] = 10 on the device, map,
   [1,2,3] = 10 on the host, release; the device copy equals the host copy. */
static void test_map_to_host(clmem_test_context *t) {
    enum { N = 5 * 6 * 7 };
    cl_int err;
    float zero = 0.0f, ten = 10.0f, back[N];
    size_t dev_at = ((3 * 6 + 2) * 7 + 1), host_at = ((1 * 6 + 2) * 7 + 3), i;
    clmem_memory_map m;
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, sizeof back, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, &zero, sizeof zero, 0, sizeof back));
    CLMEM_CHECK_CL(t, clEnqueueWriteBuffer(t->queue, b.mem, CL_TRUE, dev_at * 4, 4, &ten, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ | CL_MAP_WRITE, 0, float, &m, .shape = {5, 6, 7}));
    CLMEM_CHECK_EQ(t, m.ndim, 3);
    CLMEM_CHECK(t, m.shape[0] == 5 && m.shape[1] == 6 && m.shape[2] == 7);
    CLMEM_CHECK(t, m.strides[0] == 168 && m.strides[1] == 28 && m.strides[2] == 4);
    CLMEM_CHECK_EQ(t, m.size, sizeof back);
    CLMEM_CHECK(t, m.event == NULL); /* blocking, no .event asked: no event made */
    CLMEM_CHECK(t, *(float *)clmem_memory_map_at(&m, (const size_t[]){3, 2, 1}) == 10.0f);
    CLMEM_CHECK(t, clmem_memory_map_at(&m, (const size_t[]){3, 6, 1}) == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "index[1] is 6 but the axis has 6 elements") != NULL);
    *(float *)clmem_memory_map_at(&m, (const size_t[]){1, 2, 3}) = 10.0f;
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK(t, m.ptr == NULL && m.mem == NULL && m.queue == NULL && m.serial != 0);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    for (i = 0; i < N; ++i) CLMEM_CHECK(t, back[i] == ((i == dev_at || i == host_at) ? 10.0f : 0.0f));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */

    /* Fortran order and explicit strides describe the same bytes differently. */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, float, &m, .shape = {5, 6, 7}, .order = 'F'));
    CLMEM_CHECK(t, m.strides[0] == 4 && m.strides[1] == 20 && m.strides[2] == 120);
    CLMEM_CHECK(t, *(float *)clmem_memory_map_at(&m, (const size_t[]){dev_at % 5, dev_at / 5 % 6, dev_at / 30}) == 10.0f);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, float, &m, .shape = {7, 30},
                                               .strides = {4, 28}));
    CLMEM_CHECK_EQ(t, m.size, sizeof back);
    CLMEM_CHECK(t, *(float *)clmem_memory_map_at(&m, (const size_t[]){3, 8}) == 10.0f); /* host_at 59 = 3 + 7 * 8 */
    CLMEM_CHECK(t, *(float *)clmem_memory_map_at(&m, (const size_t[]){1, 20}) == 10.0f); /* dev_at 141 = 1 + 7 * 20 */
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    /* no shape: the whole rest of the buffer as one axis */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 40, float, &m));
    CLMEM_CHECK(t, m.ndim == 1 && m.shape[0] == N - 10 && m.size == (N - 10) * 4);
    CLMEM_CHECK(t, ((float *)m.ptr)[host_at - 10] == 10.0f);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    clmem_buffer_release(&b);
}

/* Write through a map, run a kernel on the buffer, read through a map. */
static void test_write_kernel_read(clmem_test_context *t) {
    enum { N = 1024 };
    static const char *src = "__kernel void twice(__global int *a) { size_t i = get_global_id(0); a[i] = 2 * a[i] + 1; }";
    cl_int err;
    size_t global = N, i;
    clmem_memory_map m;
    cl_kernel k;
    clmem_buffer b = clmem_buffer_create(t->context, 0, N * sizeof(cl_int), NULL, &err);
    CLMEM_CHECK_CL(t, err);
    k = build_kernel(t, src, "twice");
    if (!k) {
        clmem_buffer_release(&b);
        return;
    }
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE_INVALIDATE_REGION, 0, cl_int, &m));
    CLMEM_CHECK_EQ(t, m.shape[0], N);
    for (i = 0; i < N; ++i) ((cl_int *)m.ptr)[i] = (cl_int)i;
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clSetKernelArg(k, 0, sizeof b.mem, &b.mem));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CLMEM_WITH_MAP(r, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, cl_int, &r)) {
        for (i = 0; i < N; ++i) CLMEM_CHECK_EQ(t, ((cl_int *)r.ptr)[i], 2 * (cl_int)i + 1);
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    clReleaseKernel(k);
    clmem_buffer_release(&b);
}

/* A non-blocking map behind a user event: nothing happens until the event is set;
   then the data is there once map.event completes. */
static void test_non_blocking(clmem_test_context *t) {
    cl_int err, status = 0;
    unsigned char src[256];
    cl_event gate, mine = NULL, unmapped = NULL;
    clmem_memory_map m;
    clmem_buffer b;
    fill_pattern(src, sizeof src, 3);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CLMEM_CHECK_CL(t, err);
    gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    err = clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 64, unsigned char, &m, .shape = {128},
                                   .is_blocking = CLMEM_NON_BLOCKING, CLMEM_WAIT_FOR(gate), .event = &mine);
    if (err != CL_SUCCESS) clSetUserEventStatus(gate, CL_COMPLETE);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, m.event != NULL && mine == m.event);
    CLMEM_CHECK_CL(t, clGetEventInfo(m.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CLMEM_CHECK(t, status != CL_COMPLETE);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(gate, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &m.event));
    CLMEM_CHECK(t, memcmp(m.ptr, src + 64, 128) == 0);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m, .event = &unmapped));
    CLMEM_CHECK(t, m.event == NULL && unmapped != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &unmapped));
    /* the caller's reference to the map event outlives the map */
    CLMEM_CHECK_CL(t, clGetEventInfo(mine, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CLMEM_CHECK_EQ(t, status, CL_COMPLETE);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    clReleaseEvent(mine);
    clReleaseEvent(unmapped);
    clReleaseEvent(gate);
    clmem_buffer_release(&b);
}

/* CLMEM_WITH_MAP unmaps on normal exit, on break and on continue, and skips the body
   when the map fails. */
static void test_scoped(clmem_test_context *t) {
    cl_int err;
    int ran = 0, pass;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, char, &m)) {
        memset(m.ptr, 'a', m.size);
        ran += clmem_live_map_count(b.mem) == 1;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, ran, 1);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    CLMEM_CHECK_CL(t, clFinish(t->queue)); /* the unmap is enqueued, not waited for */
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    for (pass = 0; pass < 3; ++pass) { /* break leaves only the map's block, not this loop */
        CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m)) {
            ++ran;
            if (((char *)m.ptr)[0] == 'a') break;
            ran += 100; /* not reached */
        }
        CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    }
    CLMEM_CHECK_EQ(t, ran, 4);
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m)) {
        ++ran;
        if (ran) continue;
        ran += 100; /* not reached */
    }
    CLMEM_CHECK_EQ(t, ran, 5);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 65, char, &m)) { ran += 100; }
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, ran, 5);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    clmem_buffer_release(&b);
}

/* A second release (same handle or a copy) is reported and enqueues nothing. */
static void test_double_release(clmem_test_context *t) {
    cl_int err;
    clmem_memory_map m, copy, empty;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m));
    copy = m;
    CLMEM_CHECK(t, m.file != NULL && strstr(m.file, "map_buffer.c") != NULL && m.line > 0);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&m), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "map_buffer.c:") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "already released") != NULL);
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_ERR(t, clmem_release(&copy), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    /* a map that never held anything (a failed map) releases as a no-op */
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, 0, 0, char, &empty), CL_INVALID_VALUE);
    CLMEM_CHECK(t, empty.ptr == NULL && empty.serial == 0);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&empty));
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(NULL), CL_INVALID_VALUE);
    /* clmem_release dispatches to the map's release */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m));
    CLMEM_CHECK_CL(t, clmem_release(&m));
    CLMEM_CHECK(t, m.ptr == NULL);
    clmem_buffer_release(&b);
}

/* Unmapping a pointer clmem did not hand out, through the wrong object, twice, or
   with a handle whose pointer was changed. */
static void test_foreign_pointer(clmem_test_context *t) {
    cl_int err;
    char host[64];
    clmem_memory_map m, forged;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a, (unsigned char)0x61, 64));
    CLMEM_CHECK_ERR(t, clmem_enqueue_unmap_mem_object(t->queue, a.mem, host), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "not a live map") != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, a, CL_MAP_READ, 0, char, &m));
    CLMEM_CHECK_ERR(t, clmem_enqueue_unmap_mem_object(t->queue, b.mem, m.ptr), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "another memory object") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_unmap_mem_object(t->queue, a.mem, (char *)m.ptr + 1), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_unmap_mem_object(t->queue, a.mem, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_unmap_mem_object(t->queue, NULL, m.ptr), CL_INVALID_MEM_OBJECT);
    forged = m;
    forged.ptr = host;
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&forged), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "did not hand out") != NULL);
    forged = m;
    forged.mem = b.mem;
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&forged), CL_INVALID_VALUE);
    forged.serial = 0;
    forged.mem = a.mem;
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&forged), CL_INVALID_VALUE);
    /* the refusals unmapped nothing: the map is live and holds the buffer's bytes */
    CLMEM_CHECK_EQ(t, clmem_live_map_count(a.mem), 1);
    CLMEM_CHECK(t, all_bytes(m.ptr, 64, 0x61));
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, a, CL_MAP_WRITE, 0, char, &forged), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "overlaps a live map for reading") != NULL);
    /* the pointer itself unmaps once; the handle is then stale */
    CLMEM_CHECK_CL(t, clmem_enqueue_unmap_mem_object(t->queue, a.mem, m.ptr));
    CLMEM_CHECK_ERR(t, clmem_enqueue_unmap_mem_object(t->queue, a.mem, m.ptr), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "not a live map") != NULL);
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&m), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "was already released") != NULL);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    /* unmapped: no map of a is left, so a write map over all of it is taken, and what is
       written through it is the buffer's once unmapped */
    CLMEM_CHECK_EQ(t, clmem_live_map_count(a.mem), 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, a, CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m));
    memset(m.ptr, 0x62, 64);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    memset(host, 0, sizeof host);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, host, a));
    CLMEM_CHECK(t, all_bytes(host, sizeof host, 0x62));
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

/* Two read maps of one region (PoCL hands out the same pointer): each is its own
   entry; releasing one leaves the other live. Write maps may not overlap anything. */
static void test_two_maps_one_region(clmem_test_context *t) {
    cl_int err;
    unsigned char src[128];
    clmem_memory_map m1, m2, w;
    clmem_buffer b;
    fill_pattern(src, sizeof src, 5);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m1));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m2));
    CLMEM_CHECK(t, m1.serial != m2.serial);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 2);
    CLMEM_CHECK(t, memcmp(m1.ptr, src, sizeof src) == 0 && memcmp(m2.ptr, src, sizeof src) == 0); /* both live */
    /* a write map over a read map, and a read map over a write map, are refused */
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 32, char, &w, .shape = {16}),
                    CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "overlaps a live map for reading") != NULL);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m1));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
    CLMEM_CHECK(t, memcmp(m2.ptr, src, sizeof src) == 0); /* still mapped */
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m2));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 32, char, &w, .shape = {16}));
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 40, char, &m1, .shape = {4}),
                    CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "overlaps a live map for writing") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "map_buffer.c:") != NULL);
    /* adjacent ranges do not overlap */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 48, char, &m1, .shape = {16}));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m2, .shape = {32}));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&w));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m1));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m2));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    clmem_buffer_release(&b);
}

/* Sub-buffers map their own bytes; a sub-buffer map and a parent map that overlap
   for writing are refused; a sub-buffer inherits HOST_READ_ONLY. */
static void test_sub_buffer(clmem_test_context *t) {
    cl_int err;
    cl_uint bits = 0;
    size_t align, i;
    unsigned char src[4096];
    clmem_memory_map m, p;
    clmem_buffer b, sub = {0}, ro = {0}, rosub = {0};
    clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    align = bits / 8 ? bits / 8 : 1;
    if (2 * align + 64 > sizeof src) {
        clmem_test_skip(t, "CL_DEVICE_MEM_BASE_ADDR_ALIGN %zu bytes is too large for this test", align);
        return;
    }
    fill_pattern(src, sizeof src, 9);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CLMEM_CHECK_CL(t, err);
    sub = clmem_buffer_get_sub_region(b, align, 2 * align, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, sub, CL_MAP_READ | CL_MAP_WRITE, 16, char, &m, .shape = {32}));
    CLMEM_CHECK(t, memcmp(m.ptr, src + align + 16, 32) == 0);
    for (i = 0; i < 32; ++i) ((unsigned char *)m.ptr)[i] = (unsigned char)i;
    /* the parent's bytes under the sub-buffer's map are taken */
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, align + 40, char, &p, .shape = {4}),
                    CL_INVALID_OPERATION);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &p, .shape = {align}));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&p));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof src, src, 0, NULL, NULL));
    for (i = 0; i < 32; ++i) CLMEM_CHECK_EQ(t, src[align + 16 + i], i);
    /* range checks use the sub-buffer's size */
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, sub, CL_MAP_READ, 2 * align - 8, char, &m, .shape = {16}),
                    CL_INVALID_VALUE);
    ro = clmem_buffer_create(t->context, CL_MEM_HOST_READ_ONLY, sizeof src, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    rosub = clmem_buffer_get_sub_region(ro, align, align, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, rosub, CL_MAP_WRITE, 0, char, &m), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "HOST_READ_ONLY") != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, rosub, CL_MAP_READ, 0, char, &m));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_buffer_release(&rosub);
    clmem_buffer_release(&ro);
    clmem_buffer_release(&sub);
    clmem_buffer_release(&b);
}

/* USE_HOST_PTR: on a zero-copy device the map is the host memory plus the offset
   (plus the sub-buffer's origin). */
static void test_use_host_ptr(clmem_test_context *t) {
    cl_int err;
    cl_uint bits = 0;
    size_t align;
    unsigned char *host;
    clmem_memory_map m;
    clmem_buffer b, sub = {0};
    clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    align = bits / 8 ? bits / 8 : 1;
    host = (unsigned char *)malloc(4 * align + 256);
    CLMEM_CHECK(t, host != NULL);
    fill_pattern(host, 4 * align + 256, 11);
    b = clmem_buffer_create(t->context, CL_MEM_USE_HOST_PTR, 4 * align + 256, host, &err);
    if (err != CL_SUCCESS) free(host);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 24, char, &m, .shape = {100}));
    CLMEM_CHECK(t, memcmp(m.ptr, host + 24, 100) == 0);
    if (strstr(t->device_name, "pthread") || strstr(t->device_name, "cpu") || strstr(t->device_name, "Portable"))
        CLMEM_CHECK(t, m.ptr == host + 24); /* PoCL is zero-copy */
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    sub = clmem_buffer_get_sub_region(b, align, 2 * align, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, sub, CL_MAP_READ, 8, char, &m, .shape = {16}));
    CLMEM_CHECK(t, memcmp(m.ptr, host + align + 8, 16) == 0);
    if (strstr(t->device_name, "pthread") || strstr(t->device_name, "cpu") || strstr(t->device_name, "Portable"))
        CLMEM_CHECK(t, m.ptr == host + align + 8);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_buffer_release(&sub);
    clmem_buffer_release(&b);
    free(host);
}

/* A pooled buffer maps like any buffer; its block goes back to the pool afterwards. */
static void test_pooled(clmem_test_context *t) {
    cl_int err;
    size_t i;
    clmem_memory_map m;
    clmem_allocator *alloc = clmem_immediate_allocator_create(t->queue, 0, &err);
    clmem_memory_pool *pool;
    clmem_buffer b;
    CLMEM_CHECK_CL(t, err);
    pool = clmem_memory_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    clmem_allocator_release(alloc);
    CLMEM_CHECK_CL(t, err);
    b = clmem_memory_pool_allocate(pool, 1000, &err);
    if (err != CL_SUCCESS) clmem_memory_pool_release(pool);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, b.pool != NULL && b.size == 1000);
    CLMEM_WITH_MAP(w, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE_INVALIDATE_REGION, 0, cl_int, &w)) {
        CLMEM_CHECK_EQ(t, w.shape[0], 250); /* the size asked for, not the block's rounded size */
        for (i = 0; i < 250; ++i) ((cl_int *)w.ptr)[i] = (cl_int)(i * 3);
    }
    CLMEM_CHECK_CL(t, err);
    /* the block's rounded size (1023) is not the buffer's */
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 996, char, &m, .shape = {8}), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 400, cl_int, &m, .shape = {10}));
    for (i = 0; i < 10; ++i) CLMEM_CHECK_EQ(t, ((cl_int *)m.ptr)[i], (100 + i) * 3);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    clmem_buffer_release(&b);
    clmem_memory_pool_release(pool);
}

/* The log names the map when a buffer mapped for writing is released or copied; the
   map keeps the buffer alive, so the unmap still works. */
typedef struct { int warnings; char last[512]; } log_capture;
static void capture(clmem_log_level level, cl_int code, const char *message, void *user) {
    log_capture *c = (log_capture *)user;
    (void)code;
    if (level != CLMEM_LOG_WARNING) return;
    ++c->warnings;
    snprintf(c->last, sizeof c->last, "%s", message);
}

static void test_use_while_mapped(clmem_test_context *t) {
    cl_int err;
    static log_capture log; /* static: a failed check below returns with the callback still set */
    char back[64];
    clmem_memory_map m, r;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    clmem_buffer c = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    cl_mem raw;
    size_t live_before = clmem_live_map_count(NULL); /* maps another (failed) case left behind */
    CLMEM_CHECK_CL(t, err);
    memset(&log, 0, sizeof log);
    clmem_set_log_callback(capture, &log);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, c, CL_MAP_READ, 0, char, &r));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, c)); /* reading a buffer mapped for reading: fine */
    CLMEM_CHECK_EQ(t, log.warnings, 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, char, &m));
    memset(m.ptr, 'z', 64);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK_EQ(t, log.warnings, 1);
    CLMEM_CHECK(t, strstr(log.last, "clmem_enqueue_copy") != NULL && strstr(log.last, "mapped for writing") != NULL);
    CLMEM_CHECK(t, strstr(log.last, "map_buffer.c:") != NULL);
    raw = b.mem;
    clmem_buffer_release(&b);
    CLMEM_CHECK_EQ(t, log.warnings, 2);
    CLMEM_CHECK(t, strstr(log.last, "clmem_buffer_release") != NULL);
    clmem_set_log_callback(NULL, NULL);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(raw), 1); /* still alive: the map holds it */
    CLMEM_CHECK(t, all_bytes(m.ptr, 64, 'z'));       /* its memory with it */
    {
        size_t size = 0;
        CLMEM_CHECK_CL(t, clGetMemObjectInfo(raw, CL_MEM_SIZE, sizeof size, &size, NULL));
        CLMEM_CHECK_EQ(t, size, 64);
    }
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&r));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(raw), 0);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(c.mem), 0);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(NULL), live_before);
    clmem_buffer_release(&c);
}

/* Releasing on another queue of the same context; a queue of another context is
   refused. */
static void test_release_queue(clmem_test_context *t) {
    cl_int err;
    cl_command_queue q2;
    cl_context other;
    cl_command_queue oq;
    clmem_memory_map m;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    q2 = extra_queue(t, t->context, &err);
    CLMEM_CHECK_CL(t, err);
    other = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    oq = extra_queue(t, other, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(oq, b, CL_MAP_READ, 0, char, &m), CL_INVALID_CONTEXT);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m));
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&m, .queue = oq), CL_INVALID_CONTEXT);
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&m, .num_wait_for = 1), CL_INVALID_EVENT_WAIT_LIST);
    CLMEM_CHECK(t, m.ptr != NULL); /* still live after the refusals */
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m, .queue = q2));
    CLMEM_CHECK_CL(t, clFinish(q2));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */
    clReleaseCommandQueue(oq);
    clReleaseContext(other);
    clReleaseCommandQueue(q2);
    clmem_buffer_release(&b);
}

/* Four threads map, write and release disjoint ranges of one buffer, each on its own
   queue, 50 times: the live-map table stays consistent (no false overlap refusals, no
   entries left) and every byte ends up written by its owner. */
typedef struct {
    clmem_test_context *t;
    clmem_buffer b;
    size_t index;
    int failures;
} map_thread;
static void *map_worker(void *arg) {
    map_thread *w = (map_thread *)arg;
    cl_int err;
    int round;
    clmem_memory_map m;
    cl_command_queue q = extra_queue(w->t, w->t->context, &err);
    if (err != CL_SUCCESS) {
        ++w->failures;
        return NULL;
    }
    for (round = 0; round < 50; ++round) {
        if (clmem_enqueue_map_buffer(q, w->b, CL_MAP_WRITE, w->index * 64, char, &m, .shape = {64}) != CL_SUCCESS) {
            ++w->failures;
            break;
        }
        memset(m.ptr, (int)(w->index + 1), 64);
        if (clmem_memory_map_release(&m) != CL_SUCCESS) ++w->failures;
    }
    clFinish(q);
    clReleaseCommandQueue(q);
    return NULL;
}

static void test_threads(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
    enum { T = 4 };
    cl_int err;
    pthread_t threads[T];
    map_thread work[T];
    unsigned char back[T * 64];
    size_t i;
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof back, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < T; ++i) {
        work[i].t = t, work[i].b = b, work[i].index = i, work[i].failures = 0;
        pthread_create(&threads[i], NULL, map_worker, &work[i]);
    }
    for (i = 0; i < T; ++i) pthread_join(threads[i], NULL);
    for (i = 0; i < T; ++i) CLMEM_CHECK_EQ(t, work[i].failures, 0);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    CLMEM_CHECK_CL(t, clEnqueueReadBuffer(t->queue, b.mem, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    for (i = 0; i < sizeof back; ++i) CLMEM_CHECK_EQ(t, back[i], i / 64 + 1);
    clmem_buffer_release(&b);
}

/* Every rejection happens before the driver: no map is made (the handle stays empty,
   clmem's table holds none), where PoCL would map READ|WRITE_INVALIDATE_REGION and
   unknown bits anyway. */
static void test_rejections(clmem_test_context *t) {
    cl_int err;
    clmem_memory_map m;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err), empty = {0};
    clmem_buffer hro, hwo, hna;
    cl_event null_event = NULL;
    CLMEM_CHECK_CL(t, err);
#define REJECT(call, code)                                  \
    CLMEM_CHECK_ERR(t, call, code);                         \
    CLMEM_CHECK(t, m.ptr == NULL && m.serial == 0);         \
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_map_buffer: ") != NULL)
    REJECT(clmem_enqueue_map_buffer(t->queue, b, 0, 0, char, &m), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m),
           CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ") != NULL);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m),
           CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ | 0x80, 0, char, &m), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "unknown bits 0x80") != NULL);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 64, char, &m), CL_INVALID_VALUE); /* 0 bytes left */
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "0 bytes") != NULL);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .shape = {0}, .ndim = 1), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 65, char, &m), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 60, float, &m, .shape = {2}), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "offset 60 + size 8") != NULL);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, SIZE_MAX - 4, char, &m, .shape = {16}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, float, &m, .shape = {SIZE_MAX / 2, 4}),
           CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "overflows") != NULL);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .shape = {4, 0, 2}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .shape = {4}, .ndim = 9), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .shape = {4}, .order = 'X'), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, float, &m, .shape = {4, 2}, .strides = {16, 4}),
           CL_INVALID_VALUE); /* reaches 3*16 + 4 + 4 = 56 > 32 bytes mapped */
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "strides reach 56 bytes but the map holds 32") != NULL);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 4, double, &m), CL_INVALID_VALUE); /* 60 bytes: 7.5 */
    REJECT(clmem_enqueue_map_buffer(NULL, b, CL_MAP_READ, 0, char, &m), CL_INVALID_COMMAND_QUEUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, empty, CL_MAP_READ, 0, char, &m), CL_INVALID_MEM_OBJECT);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .num_wait_for = 1),
           CL_INVALID_EVENT_WAIT_LIST);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .wait_for = &null_event, .num_wait_for = 1),
           CL_INVALID_EVENT_WAIT_LIST);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .origin = {1}), CL_INVALID_VALUE);
    REJECT(clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .region = {4}), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0); /* clmem's table: the driver's CL_MEM_MAP_COUNT is debug-only and late */

    hro = clmem_buffer_create(t->context, CL_MEM_HOST_READ_ONLY, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    hwo = clmem_buffer_create(t->context, CL_MEM_HOST_WRITE_ONLY, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    hna = clmem_buffer_create(t->context, CL_MEM_HOST_NO_ACCESS, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    REJECT(clmem_enqueue_map_buffer(t->queue, hro, CL_MAP_WRITE, 0, char, &m), CL_INVALID_OPERATION);
    REJECT(clmem_enqueue_map_buffer(t->queue, hro, CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m), CL_INVALID_OPERATION);
    REJECT(clmem_enqueue_map_buffer(t->queue, hwo, CL_MAP_READ, 0, char, &m), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_MAP_READ: the host may not read buf") != NULL);
    REJECT(clmem_enqueue_map_buffer(t->queue, hna, CL_MAP_READ, 0, char, &m), CL_INVALID_OPERATION);
    REJECT(clmem_enqueue_map_buffer(t->queue, hna, CL_MAP_WRITE, 0, char, &m), CL_INVALID_OPERATION);
    /* what the host-access flags allow works */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, hro, CL_MAP_READ, 0, char, &m));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, hwo, CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK(t, clmem_live_map_count(hro.mem) == 0 && clmem_live_map_count(hwo.mem) == 0 &&
                       clmem_live_map_count(hna.mem) == 0); /* clmem's table, not the debug-only CL_MEM_MAP_COUNT */
#undef REJECT
    clmem_buffer_release(&hro);
    clmem_buffer_release(&hwo);
    clmem_buffer_release(&hna);
    clmem_buffer_release(&b);
}

static const clmem_test_case cases[] = {
    {"map_dtype", test_map_dtype, false},
    {"map_to_host", test_map_to_host, false},
    {"write_kernel_read", test_write_kernel_read, false},
    {"non_blocking", test_non_blocking, false},
    {"scoped", test_scoped, false},
    {"double_release", test_double_release, false},
    {"foreign_pointer", test_foreign_pointer, false},
    {"two_maps_one_region", test_two_maps_one_region, false},
    {"sub_buffer", test_sub_buffer, false},
    {"use_host_ptr", test_use_host_ptr, false},
    {"pooled", test_pooled, false},
    {"use_while_mapped", test_use_while_mapped, false},
    {"release_queue", test_release_queue, false},
    {"threads", test_threads, false},
    {"rejections", test_rejections, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
