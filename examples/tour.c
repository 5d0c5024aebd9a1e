/* tour.c - a walk through clmem on the default OpenCL device.

   Build and run:  cc -std=c11 -I. examples/tour.c -lOpenCL -lpthread -lm && ./a.out
   (or: sh tools/demo). It creates buffers and sub-buffers, copies and fills them with
   the one clmem_enqueue_copy / clmem_enqueue_fill, shows an error explained in words,
   then visits every other part of clmem, printing what it does. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue, for OpenCL 1.x devices */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <stdio.h>
#include <string.h>

#define TRY(expr)                                                                                       \
    do {                                                                                                \
        cl_int tour_err_ = (expr);                                                                      \
        if (tour_err_ != CL_SUCCESS) {                                                                  \
            printf("  failed: %s -> %s\n  %s\n", #expr, clmem_error_string(tour_err_), clmem_last_error_message()); \
            return 1;                                                                                   \
        }                                                                                               \
    } while (0)

static int tour_buffers(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err;
    float host[256], back[256];
    int i;
    clmem_buffer a, b, tail;
    (void)dev;
    printf("\n== buffers, sub-buffers and the one enqueue_copy\n");
    for (i = 0; i < 256; ++i) host[i] = (float)i;
    a = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    TRY(err);
    b = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    TRY(err);
    TRY(clmem_enqueue_copy(q, a, host));                          /* host -> buffer */
    TRY(clmem_enqueue_copy(q, b, a));                             /* buffer -> buffer */
    TRY(clmem_enqueue_copy(q, back, b, .byte_count = 4 * sizeof(float), .src_offset = 10 * sizeof(float)));
    printf("  copied 1 KiB host -> a -> b; b[10..13] = %g %g %g %g\n", back[0], back[1], back[2], back[3]);

    tail = clmem_buffer_slice(a, -512, CLMEM_END, &err);          /* Python's a[-512:] */
    TRY(err);
    TRY(clmem_enqueue_fill(q, tail, -1.0f, tail.size));           /* the pattern's type gives its size */
    TRY(clmem_enqueue_copy(q, back, a));
    printf("  a[-512:] is a %zu-byte sub-buffer at byte %zu; after filling it with -1.0f: a[127] = %g, a[128] = %g\n",
           tail.size, tail.origin, back[127], back[128]);

    /* a rectangular copy: column block 4x3 of a 16x16 float matrix into a packed 4x3 one */
    TRY(clmem_enqueue_copy(q, back, b, .region = {4 * sizeof(float), 3}, .buffer_origin = {2 * sizeof(float), 5},
                           .buffer_pitches = {16 * sizeof(float)}));
    printf("  rect copy of rows 5..7, columns 2..5: %g %g ... %g\n", back[0], back[1], back[11]);

    /* errors are explained in words */
    err = clmem_enqueue_copy(q, a, a, .byte_count = 64, .dst_offset = 32);
    printf("  a copy of a buffer onto itself -> %s:\n    %s\n", clmem_error_string(err), clmem_last_error_message());

    clmem_release(&tail);
    clmem_release(&a);
    clmem_release(&b);
    return 0;
}

static int tour_images(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err;
    float pic[4][6], back[4][6], gray[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    const size_t shape[] = {4, 6}, origin[3] = {2, 1, 0}, region[3] = {2, 2, 1};
    char name[64];
    int x, y;
    clmem_image img, copy;
    clmem_sampler samp;
    (void)dev;
    printf("\n== images, formats and samplers\n");
    for (y = 0; y < 4; ++y)
        for (x = 0; x < 6; ++x) pic[y][x] = (float)(10 * y + x);
    img = clmem_image_from_array(ctx, &pic[0][0], 2, shape, &err); /* pic[y][x] is pixel (x, y) */
    TRY(err);
    printf("  image_from_array: %zu x %zu image, %s, %zu bytes a pixel\n", img.width, img.height,
           clmem_image_format_repr(img.format, name, sizeof name), img.element_size);
    copy = clmem_create_image(ctx, 0, img.format, &err, .shape = {6, 4});
    TRY(err);
    TRY(clmem_enqueue_copy(q, copy, img));                                    /* image <- image */
    TRY(clmem_enqueue_fill_image(q, copy, gray, origin, region));
    TRY(clmem_enqueue_copy(q, (void *)back, copy));                           /* host <- image */
    printf("  copied and filled a 2x2 patch at (2, 1): back[1][2] = %g, back[0][0] = %g, back[3][5] = %g\n",
           (double)back[1][2], (double)back[0][0], (double)back[3][5]);
    printf("  RGB 565 is %zu bytes a pixel (PyOpenCL says 6)\n",
           clmem_image_format_itemsize(clmem_image_format_create(CL_RGB, CL_UNORM_SHORT_565)));
    samp = clmem_sampler_create(ctx, false, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err);
    printf("  sampler REPEAT with pixel coordinates: %s\n    %s\n", clmem_error_string(err), clmem_last_error_message());
    clmem_release(&samp);
    clmem_release(&copy);
    clmem_release(&img);
    return back[1][2] == 0.5f && back[0][0] == 0.0f && back[3][5] == 35.0f ? 0 : 1;
}

static int tour_map(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err;
    float sum = 0.0f;
    size_t i;
    clmem_memory_map m;
    clmem_buffer b = clmem_buffer_create(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 5 * 6 * 7 * sizeof(float), NULL, &err);
    (void)dev;
    printf("\n== mapping memory into the host's address space\n");
    TRY(err);
    /* scoped map (PyOpenCL's `with`): unmapped when the block ends, break included */
    CLMEM_WITH_MAP(w, err, clmem_enqueue_map_buffer(q, b, CL_MAP_WRITE_INVALIDATE_REGION, 0, float, &w, .shape = {5, 6, 7})) {
        for (i = 0; i < 5 * 6 * 7; ++i) ((float *)w.ptr)[i] = (float)i;
        printf("  wrote %zu floats through a scoped %zux%zux%zu map (strides %zu, %zu, %zu bytes)\n", w.size / sizeof(float),
               w.shape[0], w.shape[1], w.shape[2], w.strides[0], w.strides[1], w.strides[2]);
    }
    TRY(err);
    /* explicit map and release; element [i][2][3] through the strides */
    TRY(clmem_enqueue_map_buffer(q, b, CL_MAP_READ, 0, float, &m, .shape = {5, 6, 7}));
    for (i = 0; i < m.shape[0]; ++i) sum += *(const float *)clmem_memory_map_at(&m, (const size_t[]){i, 2, 3});
    printf("  read back a[:,2,3] summing to %g (dtype %s, %zu live map)\n", sum, m.dtype, clmem_live_map_count(b.mem));
    clmem_memory_map_release(&m);
    err = clmem_memory_map_release(&m); /* a second release is caught, not enqueued */
    printf("  second release -> %s:\n    %s\n", clmem_error_string(err), clmem_last_error_message());
    clFinish(q);
    clmem_buffer_release(&b);
    return sum == 17.0f + 59 + 101 + 143 + 185 && err == CLMEM_ERROR_DOUBLE_RELEASE ? 0 : 1;
}

static int tour_pool(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err;
    clmem_pool_stats st;
    clmem_buffer big;
    int i;
    clmem_allocator *alloc = clmem_immediate_allocator_create(q, CL_MEM_READ_WRITE, &err);
    clmem_memory_pool *pool;
    (void)ctx; (void)dev;
    printf("\n== allocators and memory pools\n");
    TRY(err);
    pool = clmem_memory_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    clmem_allocator_release(alloc); /* the pool keeps its own reference */
    TRY(err);
    printf("  1000 bytes go to bin %u, blocks of %zu bytes\n", clmem_bin_number(4, 1000),
           clmem_alloc_size(4, clmem_bin_number(4, 1000)));
    for (i = 0; i < 1000; ++i) { /* a temporary per "kernel launch" */
        clmem_buffer tmp = clmem_memory_pool_allocate(pool, 1000, &err);
        TRY(err);
        if (i == 0) TRY(clmem_enqueue_fill(q, tmp, 1.0f, 1000)); /* a buffer like any other */
        clmem_buffer_release(&tmp);                               /* back into the pool */
    }
    clmem_memory_pool_get_stats(pool, &st);
    printf("  %llu allocations, %llu from the bin, %llu from OpenCL; %zu bytes managed, %zu held blocks\n",
           st.allocations, st.hits, st.misses, st.managed_bytes, st.held_blocks);
    clmem_memory_pool_set_limit(pool, 4096);
    big = clmem_memory_pool_allocate(pool, 8192, &err);
    printf("  8192 bytes under a 4096-byte limit -> %s\n", clmem_error_string(err));
    clmem_buffer_release(&big);
    clmem_memory_pool_release(pool);
    return clFinish(q) == CL_SUCCESS ? 0 : 1;
}

static int tour_svm(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_device_svm_capabilities caps = 0;
    cl_int err;
    float host[64], pattern = 2.5f;
    clmem_svm_allocation a, copy;
    clmem_svm_map m;
    clmem_svm_array arr;
    printf("\n== shared virtual memory\n");
    if (clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) != CL_SUCCESS || !caps) {
        printf("  this device has no SVM\n");
        return 0;
    }
    a = clmem_svm_allocation_create(ctx, sizeof host, 64, CL_MEM_READ_WRITE, q, &err); /* release is enqueued on q */
    TRY(err);
    TRY(clmem_enqueue_svm_memfill(q, a.svm, &pattern, sizeof pattern, .byte_count = 8 * sizeof(float)));
    TRY(clmem_svm_map_rw(q, a.svm, &m, .size = 16));              /* .size honoured: 16 bytes mapped */
    ((float *)m.ptr)[3] = 7.0f;
    TRY(clmem_svm_map_release(&m));
    TRY(clmem_enqueue_copy(q, host, a.svm, .byte_count = 8 * sizeof(float)));
    printf("  %zu-byte allocation, memfill of 8 floats with 2.5, host write through a 16-byte map: "
           "%g %g %g %g ...\n", a.svm.size, host[0], host[1], host[2], host[3]);
    copy = a;
    TRY(clmem_svm_allocation_release(&a));
    err = clmem_svm_allocation_release(&copy);
    printf("  releasing a copy of the handle again: %s\n  (%s)\n", clmem_error_string(err), clmem_last_error_message());
    TRY((arr = clmem_csvm_empty(ctx, double, &err, .shape = {3, 4}, .queue = q), err));
    printf("  csvm_empty(double, {3, 4}): %zu bytes, strides {%zu, %zu}, alignment %zu\n", arr.svm.size,
           arr.strides[0], arr.strides[1], arr.alignment);
    TRY(clmem_svm_array_release(&arr));
    return 0;
}

static cl_int tour__count_devices(cl_context c, cl_uint *n) {
    printf("  (computing the device count of context %p)\n", (void *)c);
    return clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof *n, n, NULL);
}
CLMEM_CONTEXT_DEPENDENT_MEMOIZE(tour__num_devices, cl_uint, tour__count_devices, NULL)

static int tour_characterize(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    clmem_device_description d;
    cl_uint n = 0, simd = 0, banks = 0, m = 0;
    size_t tile[2] = {32, 32}, padded[2] = {32, 33};
    char opts[128];
    (void)q;
    printf("\n== per-context caching and device characterization\n");
    /* memoize per context: the body runs once, the second call is a hit */
    TRY(tour__num_devices(ctx, &n));
    TRY(tour__num_devices(ctx, &n));
    printf("  cache: %u device(s) in the context, computed once\n", n);
    TRY(clmem_get_simd_group_size(dev, 4, &simd));
    TRY(clmem_get_fast_inaccurate_build_options(dev, opts, sizeof opts, NULL));
    printf("  SIMD group %u, fast options \"%s\"\n", simd, opts);
    /* the test seam: ask what an NVIDIA Fermi GPU would say about a 32x32 float tile */
    memset(&d, 0, sizeof d);
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA Corporation");
    d.type = CL_DEVICE_TYPE_GPU;
    d.has_nv_compute_capability = true;
    d.nv_compute_capability_major = 2;
    TRY(clmem_local_memory_bank_count_desc(&d, &banks));
    TRY(clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, tile, NULL, &m, NULL, 0, NULL));
    printf("  a Fermi GPU has %u banks: float[32][32] column reads conflict %ux", banks, m);
    TRY(clmem_why_not_local_access_conflict_free_desc(&d, 4, 2, tile, padded, &m, NULL, 0, NULL));
    printf(", padded to [32][33]: %ux\n", m);
    clmem_clear_first_arg_caches();
    return 0;
}

static int tour_queue_order(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err;
    clmem_pool_stats st;
    int i;
    clmem_allocator *alloc = clmem_immediate_allocator_create(q, CL_MEM_READ_WRITE, &err);
    clmem_memory_pool *pool;
    (void)ctx; (void)dev;
    printf("\n== queue-ordered release (cudaMallocAsync / cudaFreeAsync)\n");
    TRY(err);
    pool = clmem_memory_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    clmem_allocator_release(alloc);
    TRY(err);
    for (i = 0; i < 100; ++i) { /* a temporary per step, freed once the queue gets past its use */
        clmem_buffer tmp = clmem_memory_pool_allocate_on_queue(pool, 4096, q, &err);
        TRY(err);
        TRY(clmem_enqueue_fill(q, tmp, (float)i, 4096)); /* the step's work (enqueued, not waited for) */
        TRY(clmem_pooled_buffer_enqueue_release(&tmp, q));
    }
    clmem_memory_pool_get_stats(pool, &st);
    printf("  100 steps on one queue, nothing waited for: %llu from OpenCL, %llu reused at once\n", st.misses, st.hits);
    TRY(clFinish(q));
    clmem_memory_pool_release(pool);
    return 0;
}

static int tour_pinned(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    enum { N = 1 << 20 };
    static unsigned char pageable[N], back[N];
    cl_int err;
    clmem_stager_stats stats;
    clmem_pinned_allocation h;
    clmem_stager *st;
    size_t i;
    clmem_buffer buf = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
    (void)dev;
    printf("\n== pinned host memory and the stager\n");
    TRY(err);
    h = clmem_pinned_allocation_create(q, N, 0, &err); /* a mapped CL_MEM_ALLOC_HOST_PTR buffer */
    TRY(err);
    memset(h.ptr, 7, h.size);
    TRY(clmem_enqueue_copy(q, buf, h.ptr, .byte_count = h.size)); /* exactly clEnqueueWriteBuffer from pinned memory */
    printf("  1 MiB written from pinned memory at %p\n", h.ptr);
    TRY(clmem_pinned_allocation_release(&h));

    for (i = 0; i < N; ++i) pageable[i] = (unsigned char)(i * 31u);
    st = clmem_stager_create(q, 256 << 10, 2, 2, &err); /* 2 pinned slots of 256 KiB, 2 copying threads */
    TRY(err);
    if (clmem_stager_threshold(st) == CLMEM_STAGER_NEVER)
        printf("  this device uses host memory: the stager copies directly unless told otherwise\n");
    else
        printf("  the stager stages copies of %zu bytes and more on this device\n", clmem_stager_threshold(st));
    TRY(clmem_stager_set_threshold(st, 0)); /* stage every copy, to show it here */
    TRY(clmem_stager_copy(st, buf, pageable));
    TRY(clmem_stager_copy(st, back, buf));
    TRY(clmem_stager_get_stats(st, &stats));
    printf("  1 MiB there and back through the slots: %llu staged copies in %llu pieces, bytes %s\n",
           stats.staged_copies, stats.pieces, memcmp(pageable, back, N) == 0 ? "equal" : "DIFFERENT");
    TRY(clmem_stager_release(st));
    clmem_release(&buf);
    return 0;
}

int main(void) {
    clmem_test_device dev;
    size_t n = 0;
    cl_int err;
    cl_context ctx;
    cl_command_queue q;
    char name[128] = {0}, version[256] = {0};
    int failed = 0;

    /* The default device: the first that CLMEM_TEST (if set) selects. */
    err = clmem_get_test_platforms_and_devices(NULL, &dev, 1, &n);
    if (err != CL_SUCCESS || n == 0) {
        printf("no OpenCL device: %s\n", clmem_last_error_message());
        return 1;
    }
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(dev.device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    printf("clmem %s tour on '%s' (%s)\n", CLMEM_VERSION_STRING, name, version);
    ctx = clCreateContext(NULL, 1, &dev.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) return 1;
    /* OpenCL 1.x devices (Oclgrind) have no clCreateCommandQueueWithProperties */
    q = strncmp(version, "OpenCL 1.", 9) == 0 ? clCreateCommandQueue(ctx, dev.device, 0, &err)
                                               : clCreateCommandQueueWithProperties(ctx, dev.device, NULL, &err);
    if (err != CL_SUCCESS) return 1;

    failed |= tour_buffers(ctx, dev.device, q);
    failed |= tour_images(ctx, dev.device, q);
    failed |= tour_map(ctx, dev.device, q);
    failed |= tour_svm(ctx, dev.device, q);
    failed |= tour_pool(ctx, dev.device, q);
    failed |= tour_queue_order(ctx, dev.device, q);
    failed |= tour_pinned(ctx, dev.device, q);
    failed |= tour_characterize(ctx, dev.device, q);

    clFinish(q);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("\n%s\n", failed ? "tour: something failed (see above)" : "tour: done");
    return failed;
}
