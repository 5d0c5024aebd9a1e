// The map module from C++: clmem_enqueue_map_buffer (element type and call site
// recorded), clmem_enqueue_map_image, clmem_memory_map_release with options,
// clmem_memory_map_release_default, clmem_enqueue_unmap_mem_object,
// clmem_memory_map_at (also with a brace list), clmem_live_map_count, CLMEM_WITH_MAP,
// clmem_release of a map, clmem::data / clmem::at / clmem::unique of maps.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_map_buffer(clmem_test_context *t) {
    cl_int err;
    float in[5][6][7];
    for (int i = 0; i < 5 * 6 * 7; i++) (&in[0][0][0])[i] = (float)i;
    clmem_buffer b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_memory_map m;
    int line = __LINE__ + 1;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, float, &m, OPT(shape, {5, 6, 7})));
    CLMEM_CHECK(t, m.ptr != NULL);
    CLMEM_CHECK(t, strcmp(m.dtype, "float") == 0);
    CLMEM_CHECK_EQ(t, m.itemsize, sizeof(float));
    CLMEM_CHECK_EQ(t, m.ndim, 3);
    CLMEM_CHECK_EQ(t, m.strides[0], 6 * 7 * sizeof(float));
    CLMEM_CHECK(t, m.file != NULL && strstr(m.file, "cxx_map.cpp") != NULL);
    CLMEM_CHECK_EQ(t, m.line, line);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
    // typed access: C's clmem_memory_map_at with a brace list, clmem::at and clmem::data
    CLMEM_CHECK(t, *(const float *)clmem_memory_map_at(&m, {1, 2, 3}) == (float)(1 * 42 + 2 * 7 + 3));
    const size_t idx[3] = {4, 5, 6};
    CLMEM_CHECK(t, *(const float *)clmem_memory_map_at(&m, idx) == 209.0f);
    CLMEM_CHECK(t, *clmem::at<float>(m, {2, 0, 1}) == 85.0f);
    CLMEM_CHECK(t, clmem::at<double>(m, {2, 0, 1}) == NULL);   // wrong element size
    CLMEM_CHECK(t, clmem::at<float>(m, {2, 0}) == NULL);       // wrong number of indices
    CLMEM_CHECK(t, clmem::data<float>(m)[10] == 10.0f);
    CLMEM_CHECK(t, clmem::data<cl_uint2>(m) == NULL);
    // release with an option, then a second release is reported
    cl_event ev = NULL;
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m, OPT(event, &ev)));
    CLMEM_CHECK(t, ev != NULL);
    clReleaseEvent(ev);
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&m), CLMEM_ERROR_DOUBLE_RELEASE);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    // non-blocking map with .ndim / .order / strides, CLMEM_WAIT_FOR on the unmap
    clmem_memory_map f;
    cl_event mev = NULL;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, cl_float2, &f, OPT(shape, {3, 2}),
                                               OPT(ndim, 2), OPT(order, 'F'), OPT(is_blocking, false),
                                               OPT(event, &mev)));
    CLMEM_CHECK(t, strcmp(f.dtype, "cl_float2") == 0 && f.itemsize == 8);
    CLMEM_CHECK_EQ(t, f.strides[0], 8);
    CLMEM_CHECK_EQ(t, f.strides[1], 24);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &mev));
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&f, OPT(queue, t->queue), CLMEM_WAIT_FOR(mev)));
    clReleaseEvent(mev);
    // a computed zero extent with .ndim fails instead of mapping the rest
    size_t zero = 0;
    clmem_memory_map z;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, float, &z, OPT(shape, {zero}), OPT(ndim, 1)),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, z.ptr == NULL);
    // clmem_enqueue_unmap_mem_object by pointer; clmem_release(&map) and the default release
    clmem_memory_map w;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &w));
    CLMEM_CHECK_EQ(t, w.size, sizeof in);
    CLMEM_CHECK_CL(t, clmem_enqueue_unmap_mem_object(t->queue, b.mem, w.ptr, OPT(event, &ev)));
    clReleaseEvent(ev);
    CLMEM_CHECK_ERR(t, clmem_enqueue_unmap_mem_object(t->queue, b.mem, w.ptr), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 4, float, &w, OPT(shape, {2})));
    CLMEM_CHECK_CL(t, clmem_release(&w));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 4, float, &w, OPT(shape, {2})));
    CLMEM_CHECK_CL(t, clmem_memory_map_release_default(&w));
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, 0, 0, float, &w), CL_INVALID_VALUE);
    clmem_release(&b);
}

static void test_with_map(clmem_test_context *t) {
    cl_int err = CL_SUCCESS;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    int ran = 0;
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE_INVALIDATE_REGION, 0, cl_uint, &m)) {
        CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
        CLMEM_CHECK(t, strstr(m.file, "cxx_map.cpp") != NULL);
        cl_uint *p = clmem::data<cl_uint>(m);
        for (int i = 0; i < 16; i++) p[i] = (cl_uint)(i * 3);
        ran = 1;
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, ran, 1);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    cl_uint out[16];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    CLMEM_CHECK_EQ(t, out[15], 45);
    // a failed map skips the block
    ran = 0;
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 128, float, &m)) { ran = 1; }
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, ran, 0);
    // clmem::unique owns a map: out() for the call, the unmap at scope end
    {
        clmem::unique<clmem_memory_map> um;
        CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, cl_uint, um.out(), OPT(shape, {4, 4})));
        CLMEM_CHECK(t, bool(um));
        CLMEM_CHECK_EQ(t, *clmem::at<cl_uint>(*um, {3, 3}), 45);
        CLMEM_CHECK_EQ(t, clmem::data<cl_uint>(um)[1], 3);
        CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    clmem_release(&b);
}

static void test_map_image(clmem_test_context *t) {
    cl_bool has = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof has, &has, NULL);
    if (!has) {
        clmem_test_skip(t, "no image support");
        return;
    }
    cl_int err;
    clmem_image img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_FLOAT), &err,
                                         OPT(shape, {32, 16}));
    CLMEM_CHECK_CL(t, err);
    const float c[4] = {1, 2, 3, 4};
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, img, c, NULL, NULL));
    clmem_memory_map m;
    int line = __LINE__ + 1;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, OPT(origin, {8, 8}), OPT(region, {16, 4})));
    CLMEM_CHECK_EQ(t, m.line, line);
    CLMEM_CHECK(t, strcmp(m.dtype, "cl_float4") == 0);
    CLMEM_CHECK_EQ(t, m.ndim, 2);
    CLMEM_CHECK_EQ(t, m.shape[0], 4);
    CLMEM_CHECK_EQ(t, m.shape[1], 16);
    const cl_float4 *px = clmem::at<cl_float4>(m, {3, 15});
    CLMEM_CHECK(t, px != NULL && px->s[0] == 1.0f && px->s[3] == 4.0f);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, OPT(origin, {8, 8}), OPT(region, {32, 4})),
                    CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ, &m, OPT(shape, {2})), CL_INVALID_VALUE);
    clmem_release(&img);
}

CXX_CASES({"map_buffer", test_map_buffer, false}, {"with_map", test_with_map, false},
          {"map_image", test_map_image, false})
