/* Every example of clmem.h's documentation, compiled with the suite's warnings
   (tools/check-examples makes sure none is missing here). Not run: each block only
   has to be valid code with the variables the example assumes. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <stdio.h>

static void use(const void *p) { (void)p; }

static void base_examples(void) {
    clmem_set_log_callback(clmem_log_stderr, NULL);
    clmem_set_log_callback(NULL, NULL);
}

static void buffer_examples(cl_context ctx, cl_command_queue q) {
    cl_int err;
    clmem_buffer b = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    clmem_buffer tail = clmem_buffer_slice(b, -128, CLMEM_END, &err);
    float one = 1.0f;
    clmem_enqueue_fill_buffer(q, b, &one, 4, 0, 4096);
    clmem_buffer_release(&tail);
    clmem_buffer_release(&b);
}

static void cache_examples(clmem_first_arg_cache cache, cl_device_id dev) {
    int type_size = 4, v = 0;
    clmem_first_arg_dependent_memoize(&cache, dev, &type_size, sizeof type_size, &v, NULL);
}

static void characterize_examples(cl_device_id dev) {
    cl_ulong lmem;
    cl_uint m;
    {
        char o[128];
        clmem_get_fast_inaccurate_build_options(dev, o, sizeof o, NULL);
    }
    clmem_usable_local_mem_size(dev, 3, &lmem);
    {
        size_t sh[2] = {32, 32}, st[2] = {32, 33};
        clmem_why_not_local_access_conflict_free(dev, 4, 2, sh, st, &m, NULL, 0, NULL);
    }
}

static void image_examples(cl_context ctx, cl_command_queue q, clmem_image img) {
    cl_int err;
    {
        char s[64];
        puts(clmem_image_format_repr(img.format, s, sizeof s));
    }
    {
        clmem_image_format f[128];
        cl_uint n;
        clmem_get_supported_image_formats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, f, 128, &n);
    }
    {
        clmem_image img = clmem_create_image(ctx, CL_MEM_READ_ONLY,
            clmem_image_format_create(CL_RGBA, CL_FLOAT), &err, .shape = {640, 480});
        clmem_image_release(&img);
    }
    {
        static float a[512][1024];
        clmem_image img = clmem_image_from_array(ctx, &a[0][0], 2, (const size_t[]){512, 1024}, &err);
        clmem_image_release(&img);
    }
    {
        float red[4] = {1, 0, 0, 1};
        clmem_enqueue_fill_image(q, img, red, NULL, NULL);
    }
}

static void map_examples(cl_command_queue q, clmem_buffer b, clmem_buffer buf, clmem_image img, void *p) {
    cl_int err;
    cl_event unmapped;
    clmem_memory_map m;
    clmem_enqueue_map_buffer(q, b, CL_MAP_WRITE, 0, cl_uint2, &m, .shape = {1});
    clmem_memory_map_release(&m);
    clmem_enqueue_map_image(q, img, CL_MAP_READ, &m, .origin = {8, 8}, .region = {16, 16});
    *(float *)clmem_memory_map_at(&m, (const size_t[]){1, 2, 3}) = 10.0f;
    clmem_memory_map_release(&m, .event = &unmapped);
    clmem_enqueue_unmap_mem_object(q, buf.mem, p);
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(q, b, CL_MAP_READ, 0, float, &m)) { use(m.ptr); }
    CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(q, buf, CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m)) {
        memset(m.ptr, 0, m.size);
    }
    if (err != CL_SUCCESS) puts(clmem_last_error_message());
}

static void pipe_sampler_examples(cl_context ctx) {
    cl_int err;
    clmem_pipe p = clmem_pipe_create(ctx, 0, sizeof(cl_int), 1024, NULL, &err);
    clmem_sampler s = clmem_sampler_create(ctx, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    clmem_pipe_release(&p);
    clmem_sampler_release(&s);
}

static int pool_examples(cl_context ctx, cl_command_queue q, cl_device_id dev) {
    cl_int err;
    int ok = clmem_bin_number(4, 1024) == 160 && clmem_alloc_size(4, 160) == 1087;
    {
        clmem_allocator *a = clmem_deferred_allocator_create(ctx, 0, &err);
        clmem_allocator_release(a);
    }
    {
        clmem_allocator *a = clmem_immediate_allocator_create(q, CL_MEM_READ_WRITE, &err);
        clmem_memory_pool *p = clmem_memory_pool_create(a, 4, &err);
        {
            clmem_memory_pool *pool = p;
            size_t n = 4096;
            clmem_buffer t = clmem_memory_pool_allocate_on_queue(pool, n, q, &err);
            clmem_buffer tmp = t;
            clmem_pooled_buffer_enqueue_release(&tmp, q);
            clmem_memory_pool_set_keep_free(pool, dev, (size_t)1 << 30);
        }
        clmem_memory_pool_release(p);
        clmem_allocator_release(a);
    }
    return ok;
}

static void svm_examples(cl_context ctx, cl_command_queue q) {
    cl_int err;
    cl_event freed;
    {
        clmem_svm_allocation a = clmem_svm_allocation_create(ctx, 4096, 0, 0, q, &err);
        {
            clmem_svm_map m;
            clmem_svm_map_rw(q, a.svm, &m);
            ((float *)m.ptr)[0] = 1;
            clmem_svm_map_release(&m);
        }
        CLMEM_WITH_SVM_MAP(m, err, clmem_svm_map_rw(q, a.svm, &m)) { ((float *)m.ptr)[0] = 1; }
        {
            float zero = 0;
            clmem_enqueue_svm_memfill(q, a.svm, &zero, sizeof zero);
        }
        clmem_svm_allocation_enqueue_release(&a, q, .event = &freed);
    }
    {
        clmem_svm_array a = clmem_fsvm_empty(ctx, float, &err, .shape = {3000}, .alignment = 64);
        float *x = (float *)a.svm.ptr;
        use(x);
        clmem_svm_array_release(&a);
    }
}

static void transfer_examples(cl_command_queue q, clmem_buffer buf, clmem_buffer dst, clmem_buffer src, void *host) {
    cl_event ev;
    const unsigned char rgba[16] = {0};
    clmem_enqueue_copy(q, buf, host);
    clmem_enqueue_copy(q, host, buf, .byte_count = 64, .src_offset = 128);
    clmem_enqueue_copy(q, host, buf, .is_blocking = false, .event = &ev);
    clmem_enqueue_copy(q, dst, src, .region = {16, 4}, .src_origin = {0, 2},
                       .src_pitches = {64}, .dst_pitches = {16});
    clmem_enqueue_fill(q, buf, 1.5f, 4096);
    clmem_enqueue_fill(q, buf, ((cl_float4){{1, 2, 3, 4}}), 64);
    clmem_enqueue_fill(q, buf, rgba, 64, .pattern_size = 16, .offset = 16);
    {
        clmem_copy_options o = CLMEM_COPY_OPTIONS_INIT; o.is_blocking = CL_FALSE;
        use(&o);
    }
}

static void usm_examples(cl_context ctx, cl_device_id dev, cl_command_queue q, const char *bytes) {
    cl_int err;
    cl_event ev = NULL;
    cl_device_unified_shared_memory_capabilities_intel caps;
    if (clmem_usm_capabilities(dev, CL_MEM_TYPE_DEVICE_INTEL, &caps) == CL_SUCCESS && caps) {
        clmem_usm_allocation d = clmem_usm_allocation_create(ctx, dev, CL_MEM_TYPE_DEVICE_INTEL, 4096, 0,
                                                              NULL, &err);
        clmem_usm_allocation_release(&d);
    }
    {
        clmem_usm_alloc_info info;
        const char *p = bytes;
        clmem_usm_get_alloc_info(ctx, p + 17, &info);
    }
    {
        clmem_usm_allocation s = clmem_usm_allocation_create(ctx, dev, CL_MEM_TYPE_SHARED_INTEL, 64, 0, NULL, &err);
        clmem_enqueue_usm_migrate(q, s.usm, CL_MIGRATE_MEM_OBJECT_HOST, .event = &ev);
        clmem_release(&s);
    }
    {
        clmem_usm_pool *up = clmem_usm_pool_create(ctx, NULL, CL_MEM_TYPE_HOST_INTEL, 0, 4, &err);
        clmem_pooled_usm p = clmem_usm_pool_allocate_on_queue(up, 4096, q, &err);
        clmem_pooled_usm_enqueue_release(&p, q);
        clmem_usm_pool_release(up);
    }
    if (ev) clReleaseEvent(ev);
}

static void pinned_queue_examples(cl_command_queue q, clmem_pinned_pool *pp, size_t n) {
    cl_int err;
    clmem_pinned_allocation h = clmem_pinned_pool_allocate_on_queue(pp, n, q, &err);
    clmem_pinned_allocation_enqueue_release(&h, q);
}

static void pinned_examples(cl_command_queue q, clmem_buffer buf, void *dst, const void *src, size_t n) {
    cl_int err;
    clmem_pinned_allocation h = clmem_pinned_allocation_create(q, 1 << 20, 0, &err);
    clmem_pinned_pool *pp = clmem_pinned_pool_create(q, 0, 4, &err);
    clmem_stager *st = clmem_stager_create(q, 0, 0, 0, &err);
    clmem_stager_copy(st, buf, src);
    clmem_stager_copy(st, dst, buf, .byte_count = n, .src_offset = 4096);
    {
        cl_event e = NULL;
        clmem_stager_copy(st, buf, src, .is_blocking = false, .event = &e); // returns at once
        if (e) {
            clWaitForEvents(1, &e);
            clReleaseEvent(e);
        }
    }
    clmem_stager_release(st);
    pinned_queue_examples(q, pp, n);
    clmem_pinned_pool_release(pp);
    clmem_pinned_allocation_release(&h);
}

static void device_link_examples(cl_command_queue q0, cl_command_queue q1, clmem_buffer b0, clmem_buffer b1) {
    cl_int err;
    clmem_device_link *l = clmem_device_link_create(q0, q1, 0, 0, &err);
    clmem_device_link_copy(l, b1, b0);
    clmem_device_link_release(l);
}

struct list_node {
    int value;
    struct list_node *next;
};
static void svm_porter_examples(cl_kernel k, clmem_svm_allocation a, clmem_svm_allocation b, struct list_node *node) {
    {
        clmem_svm nodes[2] = {a.svm, b.svm};
        clmem_kernel_set_exec_info(k, nodes, 2, CL_FALSE);
    }
    if (clmem_svm_allocation_lookup(&node->value, &a) == CL_SUCCESS) clmem_svm_allocation_release(&a);
}

/* Referenced so that no example function is unused; never called. */
static void device_memory_examples(cl_device_id dev) {
    clmem_memory_info mi; clmem_device_memory_info(dev, &mi);
}

static void external_peer_examples(cl_context ctx, cl_device_id dev, int fd, size_t size) {
    cl_int err;
    {
        clmem_external_memory *m = clmem_external_memory_import(ctx, dev, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, fd, size, 0, &err);
        clmem_external_memory_release(m);
    }
    {
        clmem_peer_buffer *pb = clmem_peer_buffer_create(ctx, dev, size, &err);
        clmem_peer_buffer_release(pb);
    }
}

static void peer_pool_examples(cl_context ctx, cl_device_id dev, cl_command_queue q, size_t n) {
    cl_int err;
    clmem_peer_pool *pp = clmem_peer_pool_create(ctx, dev, 4, &err);
    {
        clmem_pooled_peer p = clmem_peer_pool_allocate_on_queue(pp, n, q, &err);
        {
            clmem_buffer v = clmem_pooled_peer_view(p, q, &err);
            use(&v);
        }
        clmem_pooled_peer_enqueue_release(&p, q);
    }
    clmem_peer_pool_release(pp);
}

int main(int argc, char **argv) {
    (void)argv;
    if (argc < 0) { /* never true: the examples are compiled, not run */
        clmem_first_arg_cache c;
        memset(&c, 0, sizeof c);
        base_examples();
        buffer_examples(NULL, NULL);
        cache_examples(c, NULL);
        characterize_examples(NULL);
        device_memory_examples(NULL);
        external_peer_examples(NULL, NULL, -1, 0);
        peer_pool_examples(NULL, NULL, NULL, 0);
        image_examples(NULL, NULL, clmem_image_from_int_ptr(NULL, false, NULL));
        map_examples(NULL, clmem_buffer_from_int_ptr(NULL, false, NULL), clmem_buffer_from_int_ptr(NULL, false, NULL),
                     clmem_image_from_int_ptr(NULL, false, NULL), NULL);
        pipe_sampler_examples(NULL);
        (void)pool_examples(NULL, NULL, NULL);
        svm_examples(NULL, NULL);
        usm_examples(NULL, NULL, NULL, NULL);
        {
            clmem_svm_allocation none;
            memset(&none, 0, sizeof none);
            svm_porter_examples(NULL, none, none, NULL);
        }
        pinned_examples(NULL, clmem_buffer_from_int_ptr(NULL, false, NULL), NULL,
                        NULL, 0);
        device_link_examples(NULL, NULL, clmem_buffer_from_int_ptr(NULL, false, NULL),
                             clmem_buffer_from_int_ptr(NULL, false, NULL));
        transfer_examples(NULL, clmem_buffer_from_int_ptr(NULL, false, NULL), clmem_buffer_from_int_ptr(NULL, false, NULL),
                          clmem_buffer_from_int_ptr(NULL, false, NULL), NULL);
    }
    return 0;
}
