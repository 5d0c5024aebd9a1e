// The transfer module from C++: clmem_enqueue_copy over every pair of the dispatch
// table, clmem_enqueue_fill, clmem_set_kernel_arg, clmem_local_memory,
// clmem_enqueue_copy_buffer_p2p_amd, with the options in the spelling this build uses
// (see tests/cxx_common.h) and the meaning C gives them.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static bool has_images(clmem_test_context *t) {
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    return img == CL_TRUE;
}

static void test_buffer_host(clmem_test_context *t) {
    cl_int err;
    unsigned char in[256], out[256];
    fill_pattern(in, sizeof in, 1);
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof in, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, in));            // host -> buffer, all of it
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));           // buffer -> host
    CLMEM_CHECK(t, memcmp(in, out, sizeof in) == 0);
    // .byte_count and .src_offset
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b, OPT(byte_count, 64), OPT(src_offset, 128)));
    CLMEM_CHECK(t, memcmp(out, in + 128, 64) == 0);
    CLMEM_CHECK_EQ(t, out[64], 0);
    // .byte_count = 0 copies nothing (the given bit), also from a computed zero
    size_t zero = 0;
    memset(out, 0xAB, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b, OPT(byte_count, zero)));
    CLMEM_CHECK_EQ(t, out[0], 0xAB);
    CLMEM_CHECK_EQ(t, out[255], 0xAB);
    // .dst_offset on a write, const host source
    const unsigned char *cin = in;
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, cin, OPT(byte_count, 16), OPT(dst_offset, 240)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    CLMEM_CHECK(t, memcmp(out + 240, in, 16) == 0);
    // non-blocking with an event, then CLMEM_WAIT_FOR on it
    cl_event ev = NULL, ev2 = NULL;
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b, OPT(is_blocking, false), OPT(event, &ev)));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out + 128, b, OPT(byte_count, 8), CLMEM_WAIT_FOR(ev, ev),
                                         OPT(event, &ev2)));
    CLMEM_CHECK(t, ev2 != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev2));
    CLMEM_CHECK(t, memcmp(out + 128, in, 8) == 0);
    clReleaseEvent(ev);
    clReleaseEvent(ev2);
    // .host_size is checked
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, out, b, OPT(host_size, 16)), CL_INVALID_VALUE);
    // errors keep their codes: an empty handle
    clmem_buffer empty = clmem_buffer();
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, out, empty), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_CL(t, clmem_release(&b));
}

static void test_buffer_buffer_rect(clmem_test_context *t) {
    cl_int err;
    unsigned char in[256], out[256];
    fill_pattern(in, sizeof in, 2);
    clmem_buffer a = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof in, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    unsigned char z = 0;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, z, sizeof in));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, OPT(byte_count, 32), OPT(src_offset, 8), OPT(dst_offset, 16)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    CLMEM_CHECK(t, memcmp(out + 16, in + 8, 32) == 0);
    CLMEM_CHECK_EQ(t, out[15], 0);
    CLMEM_CHECK_EQ(t, out[48], 0);
    // rectangular: 4 rows of 16 bytes from x = 8 of a 64-byte pitched source
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, z, sizeof in));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, OPT(region, {16, 4}), OPT(src_origin, {8, 0}),
                                         OPT(src_pitches, {64}), OPT(dst_pitches, {16})));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    for (int r = 0; r < 4; r++) CLMEM_CHECK(t, memcmp(out + 16 * r, in + 64 * r + 8, 16) == 0);
    CLMEM_CHECK_EQ(t, out[64], 0);
    // a region written as all zero copies nothing
    size_t none[3] = {0, 0, 0};
    (void)none;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, z, sizeof in));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, OPT(region, {0})));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    CLMEM_CHECK_EQ(t, out[0], 0);
    // raw cl_mem on both sides and mixed
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.mem, a.mem));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b.mem));
    CLMEM_CHECK(t, memcmp(out, in, sizeof in) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, z, sizeof in));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.mem, a, OPT(byte_count, 4)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a.mem, OPT(byte_count, 4), OPT(src_offset, 4), OPT(dst_offset, 4)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.mem, in, OPT(byte_count, 4), OPT(dst_offset, 8)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b));
    CLMEM_CHECK(t, memcmp(out, in, 8) == 0);
    CLMEM_CHECK(t, memcmp(out + 8, in, 4) == 0);
    CLMEM_CHECK_EQ(t, out[12], 0);
    // overlap in one buffer is refused with the spec's code
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, a, a, OPT(byte_count, 32), OPT(dst_offset, 16)), CL_MEM_COPY_OVERLAP);
    // clmem::unique passes as the handle it owns
    clmem::unique<clmem_buffer> u(clmem_buffer_create(t->context, 0, 64, NULL, &err));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, u, in, OPT(byte_count, 64)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, u));
    CLMEM_CHECK(t, memcmp(out, in, 64) == 0);
    clmem_release(&a);
    clmem_release(&b);
}

static void test_images(clmem_test_context *t) {
    if (!has_images(t)) {
        clmem_test_skip(t, "no image support");
        return;
    }
    cl_int err;
    float in[8][16], out[8][16];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) in[y][x] = (float)(y * 100 + x);
    clmem_image img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err,
                                         OPT(shape, {16, 8}));
    CLMEM_CHECK_CL(t, err);
    clmem_image img2 = clmem_image_create(t->context, 0, clmem_image_format_create(CL_R, CL_FLOAT), &err,
                                          OPT(shape, {16, 8}));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img, &in[0][0]));
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &out[0][0], img));
    CLMEM_CHECK(t, memcmp(in, out, sizeof in) == 0);
    // a box: origin {2, 3}, region {4, 2}, packed host rows
    float box[2][4];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &box[0][0], img, OPT(region, {4, 2}), OPT(origin, {2, 3})));
    CLMEM_CHECK(t, box[0][0] == 302.0f && box[1][3] == 405.0f);
    // image <- image with .src_origin / .dst_origin
    float zero4[4] = {0, 0, 0, 0};
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, img2, zero4, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img2, img, OPT(region, {2, 2}), OPT(src_origin, {1, 1}),
                                         OPT(dst_origin, {0, 0})));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &out[0][0], img2));
    CLMEM_CHECK(t, out[0][0] == 101.0f && out[1][1] == 202.0f && out[2][2] == 0.0f);
    // buffer <-> image
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof in, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, img));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &out[0][0], b));
    CLMEM_CHECK(t, memcmp(in, out, sizeof in) == 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img2, b, OPT(offset, 16 * sizeof(float)), OPT(region, {16, 7})));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &out[0][0], img2));
    CLMEM_CHECK(t, out[0][0] == 100.0f && out[6][15] == 715.0f);
    // raw cl_mem pairs with images, dispatched at run time
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img2.mem, img));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, img, img2.mem));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, &out[0][0], img2.mem));
    CLMEM_CHECK(t, memcmp(in, out, sizeof in) == 0);
    // an option that does not apply to the pair is refused
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, &out[0][0], img, OPT(byte_count, 4)), CL_INVALID_VALUE);
    clmem_release(&b);
    clmem_release(&img);
    clmem_release(&img2);
}

static void test_svm(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no coarse-grain buffer SVM");
        return;
    }
    cl_int err;
    unsigned char in[128], out[128];
    fill_pattern(in, sizeof in, 3);
    clmem_svm_allocation a = clmem_svm_allocation_create(t->context, sizeof in, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_svm_allocation b = clmem_svm_allocation_create(t->context, sizeof in, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a.svm, in));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b.svm, a.svm, OPT(byte_count, 64)));
    memset(out, 0, sizeof out);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b.svm, OPT(byte_count, 64)));
    CLMEM_CHECK(t, memcmp(out, in, 64) == 0);
    // fill SVM with a value and with a pointer pattern
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.svm, (unsigned char)7, sizeof in));
    const cl_uint pat[2] = {0x01020304u, 0x05060708u};
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b.svm, pat, 16, OPT(pattern_size, sizeof pat)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, a.svm));
    CLMEM_CHECK_EQ(t, out[0], 7);
    CLMEM_CHECK_EQ(t, out[127], 7);
    cl_uint w[4];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, w, b.svm, OPT(byte_count, 16)));
    CLMEM_CHECK(t, w[0] == pat[0] && w[3] == pat[1]);
    clmem_release(&a);
    clmem_release(&b);
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

static void test_fill(clmem_test_context *t) {
    cl_int err;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    float f[16];
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, 1.5f, 64));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, f, b));
    CLMEM_CHECK(t, f[0] == 1.5f && f[15] == 1.5f);
    // an OpenCL vector value, in parentheses (the braces hold commas), and .offset
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, (cl_float4{{1, 2, 3, 4}}), 32, OPT(offset, 16)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, f, b));
    CLMEM_CHECK(t, f[3] == 1.5f && f[4] == 1 && f[7] == 4 && f[11] == 4 && f[12] == 1.5f);
    // a pointer with .pattern_size
    const float rgba[4] = {5, 6, 7, 8};
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, rgba, 64, OPT(pattern_size, 16)));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, f, b));
    CLMEM_CHECK(t, f[0] == 5 && f[15] == 8);
    // a pointer without .pattern_size is refused; int, double, char patterns
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b, rgba, 64), CL_INVALID_VALUE);
    int i7 = 7;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, i7, 64));
    int iv[16];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, iv, b));
    CLMEM_CHECK_EQ(t, iv[15], 7);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, 2.0, 64));
    double d[8];
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, d, b));
    CLMEM_CHECK(t, d[7] == 2.0);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b, 'x', 65), CL_INVALID_VALUE);
    cl_event ev = NULL;
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, 'x', 0, OPT(event, &ev)));   // nothing to do: a marker
    CLMEM_CHECK(t, ev != NULL);
    clReleaseEvent(ev);
    clmem_release(&b);
}

static const char *kernel_src =
    "__kernel void scale(__global float *out, float a, __local float *tmp, uint n, __global const float *in) {\n"
    "    size_t i = get_global_id(0);\n"
    "    tmp[get_local_id(0)] = a * in[i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[i] = tmp[get_local_id(0)] + (float)n;\n"
    "}\n";

static void test_kernel_args(clmem_test_context *t) {
    cl_int err;
    cl_kernel k = build_kernel(t, kernel_src, "scale");
    if (!k) return;
    float in[16], out[16];
    for (int i = 0; i < 16; i++) in[i] = (float)i;
    clmem_buffer bin = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CLMEM_CHECK_CL(t, err);
    clmem::unique<clmem_buffer> bout(clmem_buffer_create(t->context, 0, sizeof out, NULL, &err));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, bout));                  // unique<clmem_buffer>
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 1, 2.0f));                  // float by value
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 2, clmem_local_memory(16 * sizeof(float))));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 3, (cl_uint)100));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 4, bin.mem));               // raw cl_mem
    size_t global = 16, local = 16;
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, bout));
    CLMEM_CHECK(t, out[0] == 100.0f && out[15] == 130.0f);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 4, bin));                   // clmem_buffer
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 2, clmem_local_memory_create(0)), CL_INVALID_ARG_SIZE);
    clmem_buffer empty = clmem_buffer();
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(k, 0, empty), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_set_kernel_arg(NULL, 0, 1.0f), CL_INVALID_KERNEL);
    clReleaseKernel(k);
    clmem_release(&bin);
}

static void test_p2p(clmem_test_context *t) {
    cl_int err;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    size_t n = 0;
    clGetPlatformInfo(t->platform, CL_PLATFORM_EXTENSIONS, 0, NULL, &n);
    char *ext = (char *)malloc(n + 1);
    ext[0] = 0;
    clGetPlatformInfo(t->platform, CL_PLATFORM_EXTENSIONS, n, ext, NULL);
    bool has = strstr(ext, "cl_amd_copy_buffer_p2p") != NULL;
    free(ext);
    if (has) {
        CLMEM_CHECK_CL(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b, OPT(byte_count, 16)));
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b, OPT(byte_count, 128)),
                        CL_INVALID_VALUE);
    } else {
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b), CL_INVALID_OPERATION);
        CLMEM_CHECK_ERR(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b, OPT(byte_count, 16),
                                                             OPT(src_offset, 8)),
                        CL_INVALID_OPERATION);
    }
    clmem_release(&a);
    clmem_release(&b);
}

// The options structs themselves, as the *_opts functions and the keywords see them.
static void test_options_values(clmem_test_context *t) {
    clmem_copy_options o = clmem_copy_options();
    CLMEM_CHECK_EQ(t, o.given, 0);
    CLMEM_CHECK_EQ(t, o.byte_count, 0);
    clmem_copy_options k = clmem::detail::make<clmem_copy_options>(
        clmem::byte_count = 0, clmem::is_blocking = false, clmem::region(16, 4), clmem::src_pitches = {64},
        clmem::dst_origin(1, 2, 3), clmem::detail::end_t());
    CLMEM_CHECK_EQ(t, k.given, CLMEM_OPTIONS_MARK | CLMEM_GIVEN_BYTE_COUNT | CLMEM_GIVEN_IS_BLOCKING | CLMEM_GIVEN_REGION);
    CLMEM_CHECK_EQ(t, k.region[0], 16);
    CLMEM_CHECK_EQ(t, k.region[1], 4);
    CLMEM_CHECK_EQ(t, k.region[2], 0);
    CLMEM_CHECK_EQ(t, k.src_pitches[0], 64);
    CLMEM_CHECK_EQ(t, k.dst_origin[2], 3);
    // a whole struct among keywords, later keywords win
    clmem_copy_options w = clmem::detail::make<clmem_copy_options>(k, clmem::byte_count(8));
    CLMEM_CHECK_EQ(t, w.byte_count, 8);
    CLMEM_CHECK_EQ(t, w.region[1], 4);
#if CLMEM_CXX_DESIGNATORS
    clmem_copy_options d = CLMEM__CXX_OV(clmem_copy_options, .byte_count = 0, .region = {16, 4}, .is_blocking = false, );
    CLMEM_CHECK_EQ(t, d.given, CLMEM_OPTIONS_MARK | CLMEM_GIVEN_BYTE_COUNT | CLMEM_GIVEN_IS_BLOCKING | CLMEM_GIVEN_REGION);
    CLMEM_CHECK_EQ(t, d.region[1], 4);
#endif
}

CXX_CASES({"buffer_host", test_buffer_host, false}, {"buffer_buffer_rect", test_buffer_buffer_rect, false},
          {"images", test_images, false}, {"svm", test_svm, false}, {"fill", test_fill, false},
          {"kernel_args", test_kernel_args, false}, {"p2p", test_p2p, false},
          {"options_values", test_options_values, true})
