/* A wait list holding an event that has already failed (a user event set to -1) is
   refused by every enqueue, blocking or not, before anything reaches the driver:
   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, the message naming the function, the
   event's index and its status. The spec has such a command terminated (never run);
   PoCL 3.1 leaves it queued for ever, with the queue's later work behind it, and a
   blocking call on it never returns. Here: fills (buffer, image, SVM, USM, the generic
   clmem_enqueue_fill), maps (buffer, image, SVM), unmaps (clmem_memory_map_release,
   clmem_enqueue_unmap_mem_object, clmem_svm_map_release), migrations (memory objects,
   SVM, USM), USM advice, the SVM free and the AMD peer-to-peer copy. (Copies:
   transfer_copy.c and badinput_transfer.c; the stager's: stager_events.c; the device
   link's: device_link.c; external memory and semaphores: external.c.)
   After each refusal: no .event was made, the queue finishes (a watchdog turns a hang
   into a failure), the memory holds what it held, a map is neither made nor undone;
   then the same call with the list's good event alone is enqueued and does its work. */
#define _POSIX_C_SOURCE 200809L /* alarm */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "badinput.h"
#include "usm_common.h"
#include <unistd.h>

/* The events of a case: ok (CL_COMPLETE) and failed (-1); list = {ok, failed}, so the
   failed event is wait_for[1]. The watchdog runs while they live. */
typedef struct gates {
    cl_event ok, failed, list[2];
} gates;

static void gates_make(clmem_test_context *t, gates *g) {
    cl_int err;
    memset(g, 0, sizeof *g);
    g->ok = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    g->failed = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(g->ok, CL_COMPLETE));
    CLMEM_CHECK_CL(t, clSetUserEventStatus(g->failed, -1));
    g->list[0] = g->ok;
    g->list[1] = g->failed;
    alarm(60); /* a refused call that reached PoCL anyway would hang the clFinish below */
}

static void gates_free(gates *g) {
    alarm(0);
    if (g->ok) clReleaseEvent(g->ok);
    if (g->failed) clReleaseEvent(g->failed);
    memset(g, 0, sizeof *g);
}

/* Every byte of p[0..n) is v. */
static int all_bytes(const void *p, size_t n, unsigned char v) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; ++i)
        if (b[i] != v) return 0;
    return 1;
}

static int has_images(clmem_test_context *t) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    return images == CL_TRUE;
}

static void test_fill_buffer(clmem_test_context *t) {
    unsigned char back[64], pattern[4] = {9, 9, 9, 9};
    cl_event ev = NULL;
    cl_int err;
    gates g;
    clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof back, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, (unsigned char)3, sizeof back));
    gates_make(t, &g);
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, pattern, 4, 0, sizeof back, .wait_for = g.list, .num_wait_for = 2,
                                     .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_fill_buffer", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    /* nothing to fill: refused too (no marker behind the failed event) */
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, pattern, 4, 0, 0, .wait_for = &g.failed, .num_wait_for = 1,
                                     .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_fill_buffer", "wait_for[0] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    BAD(t, clmem_enqueue_fill(t->queue, b, (cl_uint)0x09090909u, sizeof back, .wait_for = g.list, .num_wait_for = 2),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_fill", "wait_for[1] (event", "status -1");
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 3));
    /* the good event alone: filled */
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer(t->queue, b, pattern, 4, 0, sizeof back, .wait_for = &g.ok,
                                                .num_wait_for = 1, .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 9));
    gates_free(&g);
    clmem_buffer_release(&b);
}

static void test_fill_image(clmem_test_context *t) {
    enum { W = 8, H = 4 };
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    cl_uint color[4] = {1, 2, 3, 4}, zero[4] = {0, 0, 0, 0};
    unsigned char back[H][W][4];
    cl_event ev = NULL;
    cl_int err;
    gates g;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err, .shape = {W, H});
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, img, zero, NULL, NULL));
    gates_make(t, &g);
    BAD(t, clmem_enqueue_fill_image(t->queue, img, color, NULL, NULL, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_fill_image", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clEnqueueReadImage(t->queue, img.mem, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 0));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill_image(t->queue, img, color, NULL, NULL, .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clEnqueueReadImage(t->queue, img.mem, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    CLMEM_CHECK(t, back[0][0][0] == 1 && back[0][0][3] == 4 && back[H - 1][W - 1][1] == 2 && back[H - 1][W - 1][2] == 3);
    gates_free(&g);
    clmem_image_release(&img);
}

/* Maps, blocking and not: no map is made (the handle stays empty, clmem's table holds
   no new entry) and the buffer can be mapped at once after. */
static void test_map_buffer(clmem_test_context *t) {
    unsigned char src[64];
    clmem_memory_map m;
    cl_event ev = NULL;
    cl_int err;
    gates g;
    int blocking;
    size_t live = clmem_live_map_count(NULL);
    clmem_buffer b;
    fill_pattern(src, sizeof src, 3);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CLMEM_CHECK_CL(t, err);
    gates_make(t, &g);
    for (blocking = 0; blocking < 2; ++blocking) {
        BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, char, &m, .is_blocking = blocking != 0,
                                        .wait_for = g.list, .num_wait_for = 2, .event = &ev),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_map_buffer", "wait_for[1] (event", "status -1");
        CLMEM_CHECK(t, m.ptr == NULL && m.serial == 0 && ev == NULL);
        CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(NULL), live);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    /* a write map over the whole buffer is allowed now: no map was left live */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ | CL_MAP_WRITE, 0, char, &m, .is_blocking = false,
                                               .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK(t, m.event != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &m.event));
    CLMEM_CHECK(t, memcmp(m.ptr, src, sizeof src) == 0);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    gates_free(&g);
    clmem_buffer_release(&b);
}

static void test_map_image(clmem_test_context *t) {
    enum { W = 8, H = 4 };
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    unsigned char src[H][W][4];
    clmem_memory_map m;
    cl_event ev = NULL;
    cl_int err;
    gates g;
    int blocking;
    size_t y;
    clmem_image img;
    if (!has_images(t)) {
        clmem_test_skip(t, "the device has no image support");
        return;
    }
    fill_pattern(src, sizeof src, 4);
    img = clmem_create_image(t->context, 0, clmem_image_format_create(CL_RGBA, CL_UNSIGNED_INT8), &err, .shape = {W, H});
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clEnqueueWriteImage(t->queue, img.mem, CL_TRUE, origin, region, 0, 0, src, 0, NULL, NULL));
    gates_make(t, &g);
    for (blocking = 0; blocking < 2; ++blocking) {
        BAD(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_WRITE, &m, .is_blocking = blocking != 0, .wait_for = g.list,
                                       .num_wait_for = 2, .event = &ev),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_map_image", "wait_for[1] (event", "status -1");
        CLMEM_CHECK(t, m.ptr == NULL && m.serial == 0 && ev == NULL);
        CLMEM_CHECK_EQ(t, clmem_live_map_count(img.mem), 0);
    }
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image(t->queue, img, CL_MAP_READ | CL_MAP_WRITE, &m, .wait_for = &g.ok,
                                              .num_wait_for = 1));
    for (y = 0; y < H; ++y) CLMEM_CHECK(t, memcmp((unsigned char *)m.ptr + y * m.row_pitch, src[y], sizeof src[y]) == 0);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    gates_free(&g);
    clmem_image_release(&img);
}

/* Unmaps: refused, the map stays live (its bytes readable and writable, clmem's table
   still holds it), and the unmap without the failed event then publishes what was
   written through it. */
static void test_unmap(clmem_test_context *t) {
    unsigned char src[64], back[64];
    clmem_memory_map m;
    cl_event ev = NULL;
    cl_int err;
    gates g;
    clmem_buffer b;
    fill_pattern(src, sizeof src, 5);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CLMEM_CHECK_CL(t, err);
    gates_make(t, &g);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ | CL_MAP_WRITE, 0, char, &m));
    BAD(t, clmem_memory_map_release(&m, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_memory_map_release", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL && m.ptr != NULL);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
    BAD(t, clmem_enqueue_unmap_mem_object(t->queue, b.mem, m.ptr, .wait_for = &g.failed, .num_wait_for = 1, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_unmap_mem_object", "wait_for[0] (event",
        "status -1");
    CLMEM_CHECK(t, ev == NULL);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
    CLMEM_CHECK(t, memcmp(m.ptr, src, sizeof src) == 0);
    memset(m.ptr, 0x5A, sizeof src);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m, .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK(t, m.ptr == NULL);
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 0x5A));
    /* the raw form: refused, then unmapped by pointer */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, char, &m));
    memset(m.ptr, 0x3C, sizeof src);
    BAD(t, clmem_enqueue_unmap_mem_object(t->queue, b.mem, m.ptr, .wait_for = g.list, .num_wait_for = 2),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_unmap_mem_object", "wait_for[1] (event",
        "status -1");
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 1);
    CLMEM_CHECK_CL(t, clmem_enqueue_unmap_mem_object(t->queue, b.mem, m.ptr, .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(b.mem), 0);
    CLMEM_CHECK_ERR(t, clmem_memory_map_release(&m), CLMEM_ERROR_DOUBLE_RELEASE); /* unmapped through the pointer */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 0x3C));
    gates_free(&g);
    clmem_buffer_release(&b);
}

static void test_migrate_mem_objects(clmem_test_context *t) {
    unsigned char src[64], back[64];
    cl_event ev = NULL;
    cl_int err;
    gates g;
    cl_mem objs[1];
    clmem_buffer b;
    if (device_version(t->device) < 120) {
        clmem_test_skip(t, "clEnqueueMigrateMemObjects needs OpenCL 1.2");
        return;
    }
    fill_pattern(src, sizeof src, 6);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CLMEM_CHECK_CL(t, err);
    objs[0] = b.mem;
    gates_make(t, &g);
    BAD(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 1, 0, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_migrate_mem_objects", "wait_for[1] (event",
        "status -1");
    CLMEM_CHECK(t, ev == NULL);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_enqueue_migrate_mem_objects(t->queue, objs, 1, 0, .wait_for = &g.ok, .num_wait_for = 1,
                                                        .event = &ev));
    CLMEM_CHECK(t, ev != NULL);
    CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
    clReleaseEvent(ev);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, memcmp(back, src, sizeof src) == 0);
    gates_free(&g);
    clmem_buffer_release(&b);
}

/* The AMD peer-to-peer copy refuses the list before it looks for the extension, so on
   every platform. */
static void test_copy_p2p_amd(clmem_test_context *t) {
    unsigned char back[64];
    cl_event ev = NULL;
    cl_int err;
    gates g;
    clmem_buffer a = clmem_buffer_create(t->context, 0, sizeof back, NULL, &err), b = CLMEM__ZERO;
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, sizeof back, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a, (unsigned char)1, sizeof back));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, (unsigned char)2, sizeof back));
    gates_make(t, &g);
    BAD(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b, .wait_for = g.list, .num_wait_for = 2,
                                             .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_copy_buffer_p2p_amd", "wait_for[1] (event",
        "status -1");
    CLMEM_CHECK(t, ev == NULL);
    BAD(t, clmem_enqueue_copy_buffer_p2p_amd(t->platform, t->queue, a, b, .num_wait_for = 2), CL_INVALID_EVENT_WAIT_LIST,
        "clmem_enqueue_copy_buffer_p2p_amd", "num_wait_for is 2 but wait_for is NULL");
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 2));
    gates_free(&g);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

#ifdef CL_VERSION_2_0
/* SVM: the fills, the map and its release, the migration and the queued free. */
static void test_svm(clmem_test_context *t) {
    unsigned char back[256];
    unsigned char pattern = 7;
    clmem_svm_map m;
    clmem_svm both[1];
    cl_event ev = NULL;
    cl_int err;
    gates g;
    int blocking;
    clmem_svm_allocation a;
    NEED_SVM(t);
    a = clmem_svm_allocation_create(t->context, sizeof back, 0, CL_MEM_READ_WRITE, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.svm, (unsigned char)1, sizeof back));
    gates_make(t, &g);
    BAD(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &pattern, 1, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_svm_memfill", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    BAD(t, clmem_enqueue_fill(t->queue, a.svm, (unsigned char)7, sizeof back, .wait_for = g.list, .num_wait_for = 2),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_fill", "wait_for[1] (event", "status -1");
    both[0] = a.svm;
    BAD(t, clmem_enqueue_svm_migratemem(t->queue, both, 1, 0, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_svm_migratemem", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    for (blocking = 0; blocking < 2; ++blocking) {
        BAD(t, clmem_enqueue_svm_map(t->queue, a.svm, CL_MAP_WRITE, &m, .is_blocking = blocking != 0, .wait_for = g.list,
                                     .num_wait_for = 2, .event = &ev),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_svm_map", "wait_for[1] (event", "status -1");
        CLMEM_CHECK(t, m.ptr == NULL && m.id == 0 && ev == NULL);
    }
    BAD(t, clmem_svm_map_ro(t->queue, a.svm, &m, .wait_for = g.list, .num_wait_for = 2),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_svm_map", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, m.ptr == NULL && m.id == 0);
    BAD(t, clmem_svm_map_rw(t->queue, a.svm, &m, .wait_for = &g.failed, .num_wait_for = 1),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_svm_map", "wait_for[0] (event", "status -1");
    CLMEM_CHECK(t, m.ptr == NULL && m.id == 0);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a.svm));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 1));
    /* a live map: its release is refused and the map stays usable */
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_map(t->queue, a.svm, CL_MAP_READ | CL_MAP_WRITE, &m, .wait_for = &g.ok,
                                            .num_wait_for = 1));
    CLMEM_CHECK(t, all_bytes(m.ptr, sizeof back, 1));
    BAD(t, clmem_svm_map_release(&m, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_svm_map_release", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL && m.ptr != NULL && m.id != 0);
    memset(m.ptr, 0x42, sizeof back);
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m, .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK(t, m.ptr == NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a.svm));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 0x42));
    /* the good event alone: filled */
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &pattern, 1, .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a.svm));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 7));
    /* the queued free: refused, the allocation stays alive and usable; then freed */
    BAD(t, clmem_svm_allocation_enqueue_release(&a, t->queue, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_svm_allocation_enqueue_release", "wait_for[1] (event",
        "status -1");
    CLMEM_CHECK(t, ev == NULL && a.svm.ptr != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.svm, (unsigned char)8, sizeof back));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a.svm));
    CLMEM_CHECK(t, all_bytes(back, sizeof back, 8));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_enqueue_release(&a, t->queue, .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK(t, a.svm.ptr == NULL);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    gates_free(&g);
}
#endif

/* USM: the fill, the migration and the advice. */
static void test_usm(clmem_test_context *t) {
    cl_event ev = NULL;
    cl_int err;
    gates g;
    clmem_usm_allocation a;
    NEED_USM(t, CL_MEM_TYPE_SHARED_INTEL);
    a = usm_alloc(t, CL_MEM_TYPE_SHARED_INTEL, 256, &err);
    CLMEM_CHECK_CL(t, err);
    memset(a.usm.ptr, 1, 256);
    gates_make(t, &g);
    BAD(t, clmem_enqueue_fill(t->queue, a.usm, (unsigned char)7, 256, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_fill", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    BAD(t, clmem_enqueue_usm_migrate(t->queue, a.usm, CL_MIGRATE_MEM_OBJECT_HOST, .wait_for = g.list, .num_wait_for = 2,
                                     .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_usm_migrate", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    BAD(t, clmem_enqueue_usm_advise(t->queue, a.usm, 0, .wait_for = g.list, .num_wait_for = 2, .event = &ev),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_usm_advise", "wait_for[1] (event", "status -1");
    CLMEM_CHECK(t, ev == NULL);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK(t, all_bytes(a.usm.ptr, 256, 1));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, a.usm, (unsigned char)7, 256, .wait_for = &g.ok, .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clmem_enqueue_usm_migrate(t->queue, a.usm, CL_MIGRATE_MEM_OBJECT_HOST, .wait_for = &g.ok,
                                                .num_wait_for = 1));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK(t, all_bytes(a.usm.ptr, 256, 7));
    gates_free(&g);
    clmem_usm_allocation_release(&a);
}

static const clmem_test_case cases[] = {
    {"fill_buffer", test_fill_buffer, false},
    {"fill_image", test_fill_image, false},
    {"map_buffer", test_map_buffer, false},
    {"map_image", test_map_image, false},
    {"unmap", test_unmap, false},
    {"migrate_mem_objects", test_migrate_mem_objects, false},
    {"copy_p2p_amd", test_copy_p2p_amd, false},
#ifdef CL_VERSION_2_0
    {"svm", test_svm, false},
#endif
    {"usm", test_usm, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
