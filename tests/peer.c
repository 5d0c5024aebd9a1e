/* Peer memory (>>peer). Everywhere: the refusals, in words (on PoCL and Oclgrind the
   missing cl_khr_external_memory_opaque_fd); the device-link route over peer views,
   with a peer buffer built by the test around ordinary buffers (the extension's entry
   points replaced by markers): exact bytes, the destination queue ordered after the
   copy, the statistics. Where the devices have the extension and libcuda is there
   (NVIDIA): real peer buffers, exact bytes through views in copies, fills, maps and a
   kernel, views refused on another device's queue, the import limit, and with two
   devices (CLMEM_TEST="nvidia:0+1") GPU-to-GPU device-link copies. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "fake_peer.h"

#define NAMES(t, s) CLMEM_CHECK(t, strstr(clmem_last_error_message(), s) != NULL)

static void test_refusals(clmem_test_context *t) {
    cl_int err = 0;
    clmem_buffer plain, v;
    CLMEM_CHECK(t, !clmem_peer_buffer_create(NULL, t->device, 64, &err) && err == CL_INVALID_CONTEXT);
    CLMEM_CHECK(t, !clmem_peer_buffer_create(t->context, NULL, 64, &err) && err == CL_INVALID_DEVICE);
    CLMEM_CHECK(t, !clmem_peer_buffer_create(t->context, t->device, 0, &err) && err == CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK(t, !clmem_peer_buffer_create(t->context, t->device, CLMEM_PEER_BUFFER_MAX + 1, &err) &&
                       err == CL_INVALID_BUFFER_SIZE);
    NAMES(t, "is above CLMEM_PEER_BUFFER_MAX");
    v = clmem_peer_buffer_view(NULL, t->queue, &err);
    CLMEM_CHECK(t, v.mem == NULL && err == CL_INVALID_VALUE);
    NAMES(t, "clmem_peer_buffer_view: pb is NULL");
    CLMEM_CHECK_ERR(t, clmem_peer_buffer_release(NULL), CL_SUCCESS);
    CLMEM_CHECK_EQ(t, clmem_peer_buffer_size(NULL), 0);
    CLMEM_CHECK(t, clmem_peer_buffer_home(NULL) == NULL);
    CLMEM_CHECK_EQ(t, clmem_peer_buffer_fd(NULL), -1);
    plain = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_peer_buffer_of(plain) == NULL);
    clmem_buffer_release(&plain);
    if (!clmem__device_lists(t->device, "cl_khr_external_memory_opaque_fd")) {
        CLMEM_CHECK(t, !clmem_peer_buffer_create(t->context, t->device, 64, &err));
        CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
        NAMES(t, "has no cl_khr_external_memory_opaque_fd");
    }
}

/* ---- a peer buffer built around ordinary buffers (tests/fake_peer.h) ---- */

static void test_link_route(clmem_test_context *t) {
    enum { N = 1 << 20 };
    unsigned char *host = (unsigned char *)malloc(N), *back = (unsigned char *)malloc(N);
    clmem_peer_buffer *a = fake_peer(t, N, false), *b = fake_peer(t, N, false);
    cl_int err;
    cl_command_queue q2 = extra_queue(t, t->context, &err);
    clmem_device_link *l;
    clmem_device_link_stats st;
    clmem_buffer va, vb, plain;
    cl_event done = NULL;
    size_t i;
    CLMEM_CHECK(t, host && back && a && b && q2);
    for (i = 0; i < N; ++i) host[i] = (unsigned char)(i * 131 + 17);
    va = clmem_peer_buffer_view(a, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_peer_buffer_of(va) == a);
    vb = clmem_peer_buffer_view(b, q2, &err); /* the same device's view: the one made */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_peer_buffer_of(vb) == b && vb.mem == b->views[0].buf.mem);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, va, host, .byte_count = N));
    l = clmem_device_link_create(t->queue, q2, 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, vb, va, .byte_count = N - 64, .src_offset = 64, .event = &done));
    CLMEM_CHECK(t, done != NULL);
    /* the destination queue's later work runs after the copy */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(q2, back, vb, .byte_count = N - 64));
    CLMEM_CHECK(t, memcmp(back, host + 64, N - 64) == 0);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &done));
    clReleaseEvent(done);
    CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &st));
    CLMEM_CHECK_EQ(t, st.peer_copies, 1);
    CLMEM_CHECK_EQ(t, st.peer_bytes, N - 64);
    CLMEM_CHECK_EQ(t, st.staged_copies + st.direct_copies, 0);
    /* blocking, and one side plain: the link's own path, with the view */
    plain = clmem_buffer_create(t->context, 0, N, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, plain, va, .is_blocking = true));
    memset(back, 0, N);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(q2, back, plain));
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &st));
    CLMEM_CHECK_EQ(t, st.peer_copies, 1);
    CLMEM_CHECK_EQ(t, st.staged_copies + st.direct_copies, 1);
    CLMEM_CHECK_CL(t, clmem_device_link_release(l));
    clmem_buffer_release(&plain);
    CLMEM_CHECK_CL(t, clFinish(q2));
    /* released once: every view is stale */
    CLMEM_CHECK_CL(t, clmem_peer_buffer_release(a));
    CLMEM_CHECK(t, clmem_peer_buffer_of(va) == NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, va, .byte_count = 16), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_CL(t, clmem_peer_buffer_release(b));
    clReleaseCommandQueue(q2);
    free(host);
    free(back);
}

/* ---- real peer memory (NVIDIA) ---- */
static int peer_ready(clmem_test_context *t) {
    cl_int err;
    clmem_peer_buffer *pb;
    size_t i;
    for (i = 0; i < t->num_devices; ++i)
        if (!clmem__device_lists(t->devices[i], "cl_khr_external_memory_opaque_fd")) {
            clmem_test_skip(t, "a device lacks cl_khr_external_memory_opaque_fd (the refusal is tested in 'refusals')");
            return 0;
        }
    pb = clmem_peer_buffer_create(t->context, t->device, 1, &err);
    if (!pb) {
        clmem_test_skip(t, "no peer memory here: %s", clmem_last_error_message());
        return 0;
    }
    clmem_peer_buffer_release(pb);
    return 1;
}

static void test_views(clmem_test_context *t) {
    enum { N = 3 << 20 }; /* not a multiple of the granularity */
    static const char src[] = "__kernel void inc(__global uchar *p) { size_t i = get_global_id(0); p[i] = (uchar)(p[i] + 1); }";
    unsigned char *host = (unsigned char *)malloc(N), *back = (unsigned char *)malloc(N);
    clmem_peer_buffer *pb;
    clmem_buffer v, v2;
    clmem_memory_map map;
    cl_kernel k;
    cl_int err;
    size_t i, global = N;
    cl_uint pattern = 0x5a5a5a5au;
    if (!peer_ready(t)) {
        free(host);
        free(back);
        return;
    }
    CLMEM_CHECK(t, host && back);
    for (i = 0; i < N; ++i) host[i] = (unsigned char)(i * 7 + 3);
    pb = clmem_peer_buffer_create(t->context, t->device, N, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, clmem_peer_buffer_size(pb), N);
    CLMEM_CHECK(t, clmem_peer_buffer_home(pb) == t->device && clmem_peer_buffer_fd(pb) >= 0);
    v = clmem_peer_buffer_view(pb, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    v2 = clmem_peer_buffer_view(pb, t->queue, &err);
    CLMEM_CHECK(t, v2.mem == v.mem && v2.generation == v.generation);
    CLMEM_CHECK_EQ(t, v.size, N);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, v, host));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, v));
    CLMEM_CHECK(t, memcmp(host, back, N) == 0);
    /* a kernel: every byte + 1 */
    k = build_kernel(t, src, "inc");
    CLMEM_CHECK(t, k != NULL);
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, v));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, v));
    clReleaseKernel(k);
    for (i = 0; i < N; ++i)
        if (back[i] != (unsigned char)(host[i] + 1)) break;
    CLMEM_CHECK_EQ(t, i, N);
    /* a fill and a map */
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, v, pattern, 4096));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, v, CL_MAP_READ, 0, cl_uint, &map, .shape = {1024}));
    CLMEM_CHECK_EQ(t, ((cl_uint *)map.ptr)[1023], pattern);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&map));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_peer_buffer_release(pb));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, v, .byte_count = 16), CL_INVALID_MEM_OBJECT);
    free(host);
    free(back);
}

static void test_import_limit(clmem_test_context *t) {
    /* the limit filled with buffers of the largest size, then one more view refused */
    enum { MOST = 64 };
    size_t n = (size_t)(CLMEM_PEER_IMPORT_LIMIT / CLMEM_PEER_BUFFER_MAX), i, made = 0;
    clmem_peer_buffer *pb[MOST + 1] = {NULL}, *extra;
    clmem_buffer v;
    cl_int err = CL_SUCCESS;
    if (!peer_ready(t)) return;
    if (n > MOST) {
        clmem_test_skip(t, "CLMEM_PEER_IMPORT_LIMIT holds more than %d buffers of CLMEM_PEER_BUFFER_MAX", MOST);
        return;
    }
    for (i = 0; i < n && err == CL_SUCCESS; ++i)
        if ((pb[i] = clmem_peer_buffer_create(t->context, t->device, CLMEM_PEER_BUFFER_MAX, &err)) != NULL) made++;
    extra = err == CL_SUCCESS ? clmem_peer_buffer_create(t->context, t->device, (size_t)2 << 20, &err) : NULL;
    if (err != CL_SUCCESS) {
        for (i = 0; i < made; ++i) clmem_peer_buffer_release(pb[i]);
        clmem_test_skip(t, "no room for %zu buffers of %zu bytes: %s", n, (size_t)CLMEM_PEER_BUFFER_MAX,
                        clmem_last_error_message());
        return;
    }
    for (i = 0; i < n; ++i) {
        v = clmem_peer_buffer_view(pb[i], t->queue, &err);
        CLMEM_CHECK_CL(t, err);
    }
    v = clmem_peer_buffer_view(extra, t->queue, &err);
    CLMEM_CHECK(t, v.mem == NULL && err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAMES(t, "past CLMEM_PEER_IMPORT_LIMIT");
    CLMEM_CHECK_CL(t, clmem_peer_buffer_release(pb[0]));
    v = clmem_peer_buffer_view(extra, t->queue, &err); /* room again */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_peer_buffer_release(extra));
    for (i = 1; i < n; ++i) CLMEM_CHECK_CL(t, clmem_peer_buffer_release(pb[i]));
}

static void test_two_gpus(clmem_test_context *t) {
    enum { N = 64 << 20 };
    unsigned char *host = (unsigned char *)malloc(N), *back = (unsigned char *)malloc(N);
    clmem_peer_buffer *a, *b;
    clmem_buffer a0, b1, b0;
    clmem_device_link *l;
    clmem_device_link_stats st;
    cl_int err;
    size_t i;
    if (t->num_devices < 2) {
        clmem_test_skip(t, "needs two devices in one context (CLMEM_TEST=\"nvidia:0+1\")");
        free(host);
        free(back);
        return;
    }
    if (!peer_ready(t)) {
        free(host);
        free(back);
        return;
    }
    CLMEM_CHECK(t, host && back);
    for (i = 0; i < N; ++i) host[i] = (unsigned char)(i * 131 + 17);
    a = clmem_peer_buffer_create(t->context, t->devices[0], N, &err);
    CLMEM_CHECK_CL(t, err);
    b = clmem_peer_buffer_create(t->context, t->devices[1], N, &err);
    CLMEM_CHECK_CL(t, err);
    a0 = clmem_peer_buffer_view(a, t->queues[0], &err);
    CLMEM_CHECK_CL(t, err);
    b1 = clmem_peer_buffer_view(b, t->queues[1], &err);
    CLMEM_CHECK_CL(t, err);
    /* a view on a queue of another device: refused, never handed to the driver */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queues[0], b1, a0, .byte_count = 64), CL_INVALID_COMMAND_QUEUE);
    NAMES(t, "imported for device");
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queues[1], host, a0, .byte_count = 64), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queues[0], a0, host));
    l = clmem_device_link_create(t->queues[0], t->queues[1], 0, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, b1, a0));
    memset(back, 0, N);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queues[1], back, b1)); /* ordered after the copy */
    CLMEM_CHECK(t, memcmp(back, host, N) == 0);
    CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &st));
    CLMEM_CHECK_EQ(t, st.peer_copies, 1);
    CLMEM_CHECK_EQ(t, st.peer_bytes, N);
    /* the view given for either device: the right one is used */
    b0 = clmem_peer_buffer_view(b, t->queues[0], &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queues[1], b1, (cl_uint)0, N));
    CLMEM_CHECK_CL(t, clmem_device_link_copy(l, b0, a0, .byte_count = N / 2, .dst_offset = N / 2, .is_blocking = true));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queues[1], back, b1));
    CLMEM_CHECK(t, memcmp(back + N / 2, host, N / 2) == 0 && back[0] == 0 && back[N / 2 - 1] == 0);
    /* peer memory on one side: small (the driver's copy on q1: a's view for GPU 1) and
       staged (a's view for GPU 0 read on q0) */
    {
        clmem_buffer plain = clmem_buffer_create(t->context, 0, N, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queues[1], plain, (cl_uint)0, N));
        CLMEM_CHECK_CL(t, clmem_device_link_copy(l, plain, a0, .byte_count = 4096, .is_blocking = true));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queues[1], back, plain, .byte_count = 8192));
        CLMEM_CHECK(t, memcmp(back, host, 4096) == 0 && back[4096] == 0);
        CLMEM_CHECK_CL(t, clmem_device_link_copy(l, plain, a0, .is_blocking = true));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queues[1], back, plain));
        CLMEM_CHECK(t, memcmp(back, host, N) == 0);
        CLMEM_CHECK_CL(t, clmem_device_link_copy(l, b1, plain, .is_blocking = true)); /* plain -> peer, staged */
        CLMEM_CHECK_CL(t, clmem_device_link_get_stats(l, &st));
        CLMEM_CHECK_EQ(t, st.peer_copies, 2);
        CLMEM_CHECK_EQ(t, st.staged_copies, 2);
        CLMEM_CHECK_EQ(t, st.direct_copies, 1);
        clmem_buffer_release(&plain);
    }
    CLMEM_CHECK_CL(t, clmem_device_link_release(l));
    CLMEM_CHECK_CL(t, clmem_peer_buffer_release(a));
    CLMEM_CHECK_CL(t, clmem_peer_buffer_release(b));
    free(host);
    free(back);
}

static const clmem_test_case cases[] = {{"refusals", test_refusals, false},
                                        {"link_route", test_link_route, false},
                                        {"views", test_views, false},
                                        {"import_limit", test_import_limit, false},
                                        {"two_gpus", test_two_gpus, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
