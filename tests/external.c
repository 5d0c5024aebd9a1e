/* External memory and semaphores (>>external). Where the device lacks the extensions
   (PoCL, Oclgrind) every call refuses with CL_INVALID_OPERATION naming the one
   missing; bad arguments are refused first, in words. The bookkeeping of an import
   (no buffer before the acquire, a stale handle after the release, no second acquire,
   no release while acquired, no queue of another device, no wait list holding a failed
   event) is tested on every device with an import built by the test around an
   ordinary buffer, the extension's two entry points replaced by the test's own
   (markers). On NVIDIA the real path is tested by tests/peer.c (CUDA's exports
   imported). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <unistd.h>

#define NAMES(t, s) CLMEM_CHECK(t, strstr(clmem_last_error_message(), s) != NULL)

static void test_argument_refusals(clmem_test_context *t) {
    cl_int err = 0;
    clmem_buffer b;
    clmem_semaphore s = {NULL, NULL};
    int fd = 7;
    CLMEM_CHECK(t, !clmem_external_memory_import(NULL, NULL, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, 3, 64, 0, &err));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
    CLMEM_CHECK(t, !clmem_external_memory_import(t->context, NULL, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, -1, 64, 0, &err));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    NAMES(t, "fd -1 is no file descriptor");
    CLMEM_CHECK(t, !clmem_external_memory_import(t->context, NULL, 0x1234, 3, 64, 0, &err));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    NAMES(t, "handle_type 0x1234");
    CLMEM_CHECK(t, !clmem_external_memory_import(t->context, NULL, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, 3, 0, 0, &err));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_BUFFER_SIZE);
    CLMEM_CHECK(t, !clmem_external_memory_import(t->context, NULL, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, 3, 64,
                                                 CL_MEM_USE_HOST_PTR, &err));
    CLMEM_CHECK_EQ(t, err, CL_INVALID_VALUE);
    NAMES(t, "no host-pointer flags");
    CLMEM_CHECK_ERR(t, clmem_enqueue_acquire_external_memory(t->queue, NULL, &b), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_acquire_external_memory_opts(t->queue, NULL, NULL, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_release_external_memory(t->queue, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_external_memory_get_buffer(NULL, &b), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_external_memory_release(NULL), CL_SUCCESS);
    CLMEM_CHECK(t, clmem_external_memory_device(NULL) == NULL);
    /* semaphores */
    s = clmem_semaphore_import(t->context, NULL, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, -1, &err);
    CLMEM_CHECK(t, s.sem == NULL && err == CL_INVALID_VALUE);
    s = clmem_semaphore_import(t->context, NULL, 0, 3, &err);
    CLMEM_CHECK(t, s.sem == NULL && err == CL_INVALID_VALUE);
    s = clmem_semaphore_create(NULL, NULL, 0, &err);
    CLMEM_CHECK(t, s.sem == NULL && err == CL_INVALID_CONTEXT);
    s = clmem_semaphore_create(t->context, NULL, 0x77, &err);
    CLMEM_CHECK(t, s.sem == NULL && err == CL_INVALID_VALUE);
    NAMES(t, "handle type 0x77");
    CLMEM_CHECK_ERR(t, clmem_semaphore_export_fd(s, NULL, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, &fd), CL_INVALID_VALUE);
    CLMEM_CHECK_EQ(t, fd, -1);
    CLMEM_CHECK_ERR(t, clmem_semaphore_export_fd(s, NULL, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_wait_semaphore(t->queue, s), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_signal_semaphore(t->queue, s), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_signal_semaphore(NULL, s), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_release(&s), CL_SUCCESS);
    CLMEM_CHECK_ERR(t, clmem_semaphore_release(NULL), CL_SUCCESS);
}

static void test_absent_extensions(clmem_test_context *t) {
    cl_int err = 0;
    clmem_semaphore s;
    if (clmem__device_lists(t->device, "cl_khr_external_memory") && clmem__device_lists(t->device, "cl_khr_semaphore")) {
        clmem_test_skip(t, "the device has cl_khr_external_memory and cl_khr_semaphore (tests/peer.c covers them)");
        return;
    }
    if (!clmem__device_lists(t->device, "cl_khr_external_memory")) {
        CLMEM_CHECK(t, !clmem_external_memory_import(t->context, NULL, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, 0, 64, 0, &err));
        CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
        NAMES(t, "has no cl_khr_external_memory (CL_DEVICE_EXTENSIONS does not list it)");
        CLMEM_CHECK(t, !clmem_external_memory_import(t->context, t->device, CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR, 0, 64,
                                                     CL_MEM_READ_ONLY, &err));
        CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
        NAMES(t, "cl_khr_external_memory");
    }
    if (!clmem__device_lists(t->device, "cl_khr_semaphore")) {
        s = clmem_semaphore_create(t->context, t->device, 0, &err);
        CLMEM_CHECK(t, s.sem == NULL && err == CL_INVALID_OPERATION);
        NAMES(t, "has no cl_khr_semaphore");
        s = clmem_semaphore_import(t->context, NULL, CL_SEMAPHORE_HANDLE_SYNC_FD_KHR, 0, &err);
        CLMEM_CHECK(t, s.sem == NULL && err == CL_INVALID_OPERATION);
        NAMES(t, "has no cl_khr_semaphore");
        s = clmem_semaphore_create(t->context, NULL, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, &err);
        CLMEM_CHECK(t, s.sem == NULL && err == CL_INVALID_OPERATION);
        /* a handle from elsewhere on this platform: the entry points are missing */
        s.sem = (cl_semaphore_khr)(uintptr_t)16;
        s.platform = t->platform;
        if (!clGetExtensionFunctionAddressForPlatform(t->platform, "clEnqueueWaitSemaphoresKHR")) {
            CLMEM_CHECK_ERR(t, clmem_enqueue_wait_semaphore(t->queue, s), CL_INVALID_OPERATION);
            NAMES(t, "has no cl_khr_semaphore (clGetExtensionFunctionAddressForPlatform found no");
        }
    }
}

/* ---- an import built by the test around an ordinary buffer ---- */
static int acquires, releases;
static cl_int CL_API_CALL fake_acquire(cl_command_queue q, cl_uint n, const cl_mem *m, cl_uint nw, const cl_event *w,
                                       cl_event *e) {
    (void)m;
    ++acquires;
    return n == 1 ? clEnqueueMarkerWithWaitList(q, nw, w, e) : CL_INVALID_VALUE;
}
static cl_int CL_API_CALL fake_release(cl_command_queue q, cl_uint n, const cl_mem *m, cl_uint nw, const cl_event *w,
                                       cl_event *e) {
    (void)m;
    ++releases;
    return n == 1 ? clEnqueueMarkerWithWaitList(q, nw, w, e) : CL_INVALID_VALUE;
}
static const clmem__extmem_fns fake_fns = {fake_acquire, fake_release};

/* what clmem_external_memory_import makes after clCreateBufferWithProperties */
static clmem_external_memory *fake_import(clmem_test_context *t, cl_device_id device, size_t size) {
    cl_int err;
    clmem_external_memory *m = (clmem_external_memory *)calloc(1, sizeof *m);
    cl_mem mem = clCreateBuffer(t->context, CL_MEM_READ_WRITE, size, NULL, &err);
    if (!m || !mem) return NULL;
    m->rec = clmem__external_record_get(device);
    m->mem = mem;
    m->device = device;
    m->fns = &fake_fns;
    clmem__mutex_init(&m->lock);
    m->buffer.mem = m->buffer.root = mem;
    m->buffer.context = t->context;
    m->buffer.size = size;
    m->buffer.flags = CL_MEM_READ_WRITE;
    m->buffer.pool = m->rec;
    return m;
}

static void test_acquire_bookkeeping(clmem_test_context *t) {
    unsigned char host[256], back[256];
    clmem_buffer b, b2, copy;
    cl_event ev = NULL;
    size_t i;
    clmem_external_memory *m = fake_import(t, t->device, sizeof host);
    CLMEM_CHECK(t, m != NULL);
    for (i = 0; i < sizeof host; ++i) host[i] = (unsigned char)(i * 7 + 1);
    /* no buffer before the acquire */
    CLMEM_CHECK_ERR(t, clmem_external_memory_get_buffer(m, &b), CL_INVALID_OPERATION);
    NAMES(t, "m is not acquired");
    CLMEM_CHECK(t, b.mem == NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_release_external_memory(t->queue, m), CL_INVALID_OPERATION);
    NAMES(t, "m is not acquired");
    acquires = releases = 0;
    CLMEM_CHECK_CL(t, clmem_enqueue_acquire_external_memory(t->queue, m, &b, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_EQ(t, acquires, 1);
    CLMEM_CHECK_ERR(t, clmem_enqueue_acquire_external_memory(t->queue, m, &b2), CL_INVALID_OPERATION);
    NAMES(t, "acquired already");
    CLMEM_CHECK_CL(t, clmem_external_memory_get_buffer(m, &b2));
    CLMEM_CHECK(t, b2.mem == b.mem && b2.generation == b.generation);
    /* a buffer like any other while acquired: copies, fills, maps */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, host, .byte_count = sizeof host));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = sizeof back));
    CLMEM_CHECK(t, memcmp(host, back, sizeof host) == 0);
    CLMEM_CHECK_ERR(t, clmem_external_memory_release(m), CLMEM_ERROR_IN_USE);
    NAMES(t, "still acquired");
    /* releasing a copy of the handle drops that copy only */
    copy = b2;
    CLMEM_CHECK_CL(t, clmem_buffer_release(&copy));
    CLMEM_CHECK(t, copy.mem == NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = 16));
    /* after the release every copy of the handle is stale */
    CLMEM_CHECK_CL(t, clmem_enqueue_release_external_memory(t->queue, m));
    CLMEM_CHECK_EQ(t, releases, 1);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = 16), CL_INVALID_MEM_OBJECT);
    NAMES(t, "stale");
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b2, (cl_uint)5, 16), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_ERR(t, clmem_external_memory_get_buffer(m, &b2), CL_INVALID_OPERATION);
    /* acquired again: a new handle; the old stays stale */
    CLMEM_CHECK_CL(t, clmem_enqueue_acquire_external_memory(t->queue, m, &b2));
    CLMEM_CHECK(t, b2.generation != b.generation);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = 16), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b2, .byte_count = 16));
    CLMEM_CHECK_CL(t, clmem_enqueue_release_external_memory(t->queue, m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_external_memory_release(m));
    /* a record goes on serving later imports; their handles and the old ones differ */
    m = fake_import(t, t->device, 64);
    CLMEM_CHECK(t, m != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_acquire_external_memory(t->queue, m, &b2));
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = 16), CL_INVALID_MEM_OBJECT);
    CLMEM_CHECK_CL(t, clmem_enqueue_release_external_memory(t->queue, m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_external_memory_release(m));
}

/* a wait list holding an event that has already failed (a user event set to -1):
   the acquire, the release and the semaphore calls refuse it before the extension's
   entry point is called (the fake's counters stay; PoCL 3.1 would leave the command
   queued for ever), the import keeps its state, and the call without it goes through */
static void test_failed_wait_list(clmem_test_context *t) {
    cl_event failed = NULL, ok = NULL, list[2], ev = NULL;
    clmem_buffer b, b2;
    clmem_semaphore s = {NULL, NULL};
    cl_int err;
    int real_sem = clmem__device_lists(t->device, "cl_khr_semaphore");
    clmem_external_memory *m = fake_import(t, t->device, 64);
    CLMEM_CHECK(t, m != NULL);
    failed = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    ok = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(ok, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(failed, -1));
    list[0] = ok;
    list[1] = failed;
    acquires = releases = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_acquire_external_memory(t->queue, m, &b, .wait_for = list, .num_wait_for = 2,
                                                             .event = &ev),
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAMES(t, "clmem_enqueue_acquire_external_memory: wait_for[1] (event");
    NAMES(t, "status -1");
    CLMEM_CHECK(t, acquires == 0 && ev == NULL && b.mem == NULL);
    CLMEM_CHECK_ERR(t, clmem_external_memory_get_buffer(m, &b2), CL_INVALID_OPERATION); /* not acquired */
    CLMEM_CHECK_CL(t, clmem_enqueue_acquire_external_memory(t->queue, m, &b, .wait_for = &ok, .num_wait_for = 1));
    CLMEM_CHECK_EQ(t, acquires, 1);
    CLMEM_CHECK_ERR(t, clmem_enqueue_release_external_memory(t->queue, m, .wait_for = list, .num_wait_for = 2,
                                                             .event = &ev),
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAMES(t, "clmem_enqueue_release_external_memory: wait_for[1] (event");
    CLMEM_CHECK(t, releases == 0 && ev == NULL);
    CLMEM_CHECK_CL(t, clmem_external_memory_get_buffer(m, &b2)); /* still acquired: its buffer is usable */
    CLMEM_CHECK(t, b2.mem == b.mem && b2.generation == b.generation);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, (unsigned char)4, 64));
    CLMEM_CHECK_CL(t, clmem_enqueue_release_external_memory(t->queue, m, .wait_for = &ok, .num_wait_for = 1));
    CLMEM_CHECK_EQ(t, releases, 1);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_external_memory_release(m));
    /* semaphores: a real one where the device has them; elsewhere a handle from
       elsewhere, refused before anything looks at it */
    if (real_sem) {
        s = clmem_semaphore_create(t->context, t->device, 0, &err);
        CLMEM_CHECK_CL(t, err);
    } else {
        s.sem = (cl_semaphore_khr)(uintptr_t)16;
        s.platform = t->platform;
    }
    CLMEM_CHECK_ERR(t, clmem_enqueue_signal_semaphore(t->queue, s, .wait_for = list, .num_wait_for = 2, .event = &ev),
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAMES(t, "clmem_enqueue_signal_semaphore: wait_for[1] (event");
    CLMEM_CHECK(t, ev == NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_wait_semaphore(t->queue, s, .wait_for = &failed, .num_wait_for = 1, .event = &ev),
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAMES(t, "clmem_enqueue_wait_semaphore: wait_for[0] (event");
    CLMEM_CHECK(t, ev == NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_wait_semaphore(t->queue, s, .num_wait_for = 1), CL_INVALID_EVENT_WAIT_LIST);
    NAMES(t, "clmem_enqueue_wait_semaphore: num_wait_for is 1 but wait_for is NULL");
    CLMEM_CHECK_ERR(t, clmem_enqueue_signal_semaphore(t->queue, s, .wait_for = &ok), CL_INVALID_EVENT_WAIT_LIST);
    NAMES(t, "clmem_enqueue_signal_semaphore: wait_for is given but num_wait_for is 0");
    if (real_sem) {
        /* nothing was signalled or waited for: a signal and a wait still pair up */
        CLMEM_CHECK_CL(t, clmem_enqueue_signal_semaphore(t->queue, s, .wait_for = &ok, .num_wait_for = 1));
        CLMEM_CHECK_CL(t, clmem_enqueue_wait_semaphore(t->queue, s));
        CLMEM_CHECK_CL(t, clFinish(t->queue));
        CLMEM_CHECK_CL(t, clmem_semaphore_release(&s));
    }
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clReleaseEvent(ok);
    clReleaseEvent(failed);
}

/* an import for another device (a sub-device here) is refused on this device's queue:
   acquire, copies, fills, maps (NVIDIA's driver crashes there) */
static void test_other_device_refused(clmem_test_context *t) {
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub[64];
    cl_uint n = 0;
    unsigned char host[64] = {0};
    clmem_buffer b, plain;
    clmem_external_memory *m, *mine;
    cl_int err;
    cl_device_partition_property kinds[8] = {0};
    size_t got = 0, k;
    int equally = 0;
    if (clGetDeviceInfo(t->device, CL_DEVICE_PARTITION_PROPERTIES, sizeof kinds, kinds, &got) == CL_SUCCESS)
        for (k = 0; k < got / sizeof kinds[0] && k < 8; ++k) equally |= kinds[k] == CL_DEVICE_PARTITION_EQUALLY;
    if (!equally || clCreateSubDevices(t->device, props, 64, sub, &n) != CL_SUCCESS || n == 0) {
        clmem_test_skip(t, "the device makes no sub-devices (clCreateSubDevices): no second device to import for");
        return;
    }
    m = fake_import(t, sub[0], 64);
    mine = fake_import(t, t->device, 64);
    CLMEM_CHECK(t, m && mine);
    CLMEM_CHECK_ERR(t, clmem_enqueue_acquire_external_memory(t->queue, m, &b), CL_INVALID_COMMAND_QUEUE);
    NAMES(t, "m was imported for device");
    CLMEM_CHECK(t, b.mem == NULL);
    /* a handle of it (as another device's queue would have acquired it) on this queue */
    CLMEM_CHECK_CL(t, clmem_enqueue_acquire_external_memory(t->queue, mine, &plain));
    m->buffer.generation = m->rec->owner.gen + 1;
    clmem__external_set_gen(m->rec, m->buffer.generation);
    b = m->buffer;
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, plain, b, .byte_count = 64), CL_INVALID_COMMAND_QUEUE);
    NAMES(t, "src is external memory imported for device");
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, plain, .byte_count = 64), CL_INVALID_COMMAND_QUEUE);
    NAMES(t, "dst is external memory imported for device");
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, b, host, .byte_count = 64), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, host, b, .byte_count = 64), CL_INVALID_COMMAND_QUEUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill(t->queue, b, (cl_uint)1, 64), CL_INVALID_COMMAND_QUEUE);
    {
        clmem_memory_map map;
        CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &map, .shape = {64}), CL_INVALID_COMMAND_QUEUE);
    }
    clmem__external_set_gen(m->rec, m->buffer.generation + 1);
    CLMEM_CHECK_CL(t, clmem_enqueue_release_external_memory(t->queue, mine));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_external_memory_release(m));
    CLMEM_CHECK_CL(t, clmem_external_memory_release(mine));
    for (err = 0; (cl_uint)err < n; ++err) clReleaseDevice(sub[err]);
}

/* where the device has cl_khr_semaphore (NVIDIA): a binary semaphore signalled and
   waited for on the queue; exported as an opaque fd and imported again where the device
   lists that handle type */
static void test_semaphores(clmem_test_context *t) {
    cl_int err = 0;
    clmem_semaphore s, s2;
    cl_event done = NULL;
    int fd = -1;
    if (!clmem__device_lists(t->device, "cl_khr_semaphore")) {
        clmem_test_skip(t, "the device has no cl_khr_semaphore (the refusal is tested in 'absent_extensions')");
        return;
    }
    s = clmem_semaphore_create(t->context, t->device, 0, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, s.sem != NULL && s.platform == t->platform);
    CLMEM_CHECK_CL(t, clmem_enqueue_signal_semaphore(t->queue, s));
    CLMEM_CHECK_CL(t, clmem_enqueue_wait_semaphore(t->queue, s, .event = &done));
    CLMEM_CHECK(t, done != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &done));
    clReleaseEvent(done);
    CLMEM_CHECK_CL(t, clmem_semaphore_release(&s));
    CLMEM_CHECK(t, s.sem == NULL);
    if (!clmem__device_lists(t->device, "cl_khr_external_semaphore_opaque_fd") ||
        !clmem__handle_type_listed(t->device, CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR))
        return;
    s = clmem_semaphore_create(t->context, t->device, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_semaphore_export_fd(s, t->device, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, &fd));
    CLMEM_CHECK(t, fd >= 0);
    if (clmem__handle_type_listed(t->device, CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR)) {
        s2 = clmem_semaphore_import(t->context, t->device, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, fd, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_enqueue_signal_semaphore(t->queue, s));
        CLMEM_CHECK_CL(t, clmem_enqueue_wait_semaphore(t->queue, s2)); /* the same semaphore, imported */
        CLMEM_CHECK_CL(t, clFinish(t->queue));
        CLMEM_CHECK_CL(t, clmem_semaphore_release(&s2));
    } else {
        close(fd); /* (an imported fd may be the driver's now: left open there) */
    }
    CLMEM_CHECK_CL(t, clmem_release(&s)); /* the generic release (CLMEM__KINDS) */
    CLMEM_CHECK(t, s.sem == NULL);
}

static const clmem_test_case cases[] = {{"argument_refusals", test_argument_refusals, false},
                                        {"absent_extensions", test_absent_extensions, false},
                                        {"acquire_bookkeeping", test_acquire_bookkeeping, false},
                                        {"failed_wait_list", test_failed_wait_list, false},
                                        {"other_device_refused", test_other_device_refused, false},
                                        {"semaphores", test_semaphores, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
