/* tests/badinput_transfer.c - hostile input to clmem_enqueue_copy and
   clmem_enqueue_fill: NULL and emptied handles, NULL host pointers, zero and wrapping
   sizes and offsets, rectangles beyond their buffers, overlaps within one buffer and
   between sub-buffers, wrong-kind raw cl_mem (a message naming clmem_enqueue_copy, the
   function called), other-context objects, bad wait lists, and a blocking read waiting
   on a failed user event (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, not a hang). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "badinput.h"
#include <stdint.h>

#define COPY "clmem_enqueue_copy"

static void test_host(clmem_test_context *t) {
    cl_int e;
    unsigned char host[512];
    clmem_buffer b = clmem_buffer_create(t->context, 0, 256, NULL, &e), empty;
    cl_event ev = NULL;
    CLMEM_CHECK_CL(t, e);
    memset(&empty, 0, sizeof empty);
    BAD(t, clmem_enqueue_copy(NULL, b, (const void *)host), CL_INVALID_COMMAND_QUEUE, COPY, "queue");
    BAD(t, clmem_enqueue_copy(t->queue, empty, (const void *)host), CL_INVALID_MEM_OBJECT, COPY, "dst", "empty");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)NULL), CL_INVALID_VALUE, COPY, "host pointer", "NULL");
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, b, .src_offset = 300), CL_INVALID_VALUE, COPY, "300", "256");
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, b, .src_offset = 200, .byte_count = 100), CL_INVALID_VALUE, COPY,
        "200", "100", "256");
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, b, .src_offset = 16, .byte_count = SIZE_MAX - 8), CL_INVALID_VALUE,
        COPY, "18446744073709551607");
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, b, .byte_count = 64, .host_size = 32), CL_INVALID_VALUE, COPY, "64",
        "32");
    /* rectangles */
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .region = {0, 2, 1}), CL_INVALID_VALUE, COPY, "region",
        "{0, 2, 1}");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .region = {16, 4, 1}, .buffer_pitches = {8, 0}),
        CL_INVALID_VALUE, COPY, "row pitch 8", "16");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .region = {16, 4, 2}, .buffer_pitches = {16, 70}),
        CL_INVALID_VALUE, COPY, "slice pitch 70");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .region = {16, 4, 4}, .buffer_origin = {0, 1, 0}),
        CL_INVALID_VALUE, COPY, "beyond", "256");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .region = {16, 2, 1}, .buffer_origin = {0, SIZE_MAX / 8, 0}),
        CL_INVALID_VALUE, COPY, "overflows");
    /* wait lists */
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .num_wait_for = 2), CL_INVALID_EVENT_WAIT_LIST, COPY,
        "num_wait_for is 2");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .wait_for = &ev), CL_INVALID_EVENT_WAIT_LIST, COPY,
        "num_wait_for is 0");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .wait_for = &ev, .num_wait_for = 1),
        CL_INVALID_EVENT_WAIT_LIST, COPY, "wait_for[0] is NULL");
    clmem_buffer_release(&b);
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, b), CL_INVALID_MEM_OBJECT, COPY, "src", "released");
}

/* A blocking read that waits on a failed user event: PoCL 3.1 hangs; clmem checks the
   wait list first. */
static void test_failed_event(clmem_test_context *t) {
    cl_int e;
    unsigned char host[64];
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &e);
    cl_event user;
    clmem_memory_map m;
    CLMEM_CHECK_CL(t, e);
    user = clCreateUserEvent(t->context, &e);
    CLMEM_CHECK_CL(t, e);
    CLMEM_CHECK_CL(t, clSetUserEventStatus(user, -1234));
    BAD(t, clmem_enqueue_copy(t->queue, (void *)host, b, .wait_for = &user, .num_wait_for = 1),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, COPY, "wait_for[0]", "-1234");
    BAD(t, clmem_enqueue_copy(t->queue, b, (const void *)host, .wait_for = &user, .num_wait_for = 1),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, COPY, "wait_for[0]", "-1234");
    BAD(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_READ, 0, char, &m, .wait_for = &user, .num_wait_for = 1),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clmem_enqueue_map_buffer", "wait_for[0]", "-1234");
    CLMEM_CHECK_EQ(t, clmem_live_map_count(NULL), 0);
    clReleaseEvent(user);
    clmem_buffer_release(&b);
}

static void test_buffer_pairs(clmem_test_context *t) {
    cl_int e;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 4096, NULL, &e), b = {0}, s1 = {0}, s2 = {0}, ob = {0}, empty;
    cl_context other = badinput_other_context(t);
    memset(&empty, 0, sizeof empty);
    CLMEM_CHECK_CL(t, e);
    b = clmem_buffer_create(t->context, 0, 4096, NULL, &e);
    CLMEM_CHECK_CL(t, e);
    s1 = clmem_buffer_get_sub_region(a, 0, 2048, 0, &e);
    CLMEM_CHECK_CL(t, e);
    s2 = clmem_buffer_get_sub_region(a, 1024, 2048, 0, &e);
    CLMEM_CHECK_CL(t, e);
    BAD(t, clmem_enqueue_copy(t->queue, empty, a), CL_INVALID_MEM_OBJECT, COPY, "dst", "empty");
    BAD(t, clmem_enqueue_copy(t->queue, b, a, .src_offset = 4000, .byte_count = 200), CL_INVALID_VALUE, COPY, "4000", "200");
    BAD(t, clmem_enqueue_copy(t->queue, b, a, .dst_offset = SIZE_MAX), CL_INVALID_VALUE, COPY, "18446744073709551615");
    /* overlaps: one buffer, and sibling sub-buffers sharing [1024, 2048) of the parent */
    BAD(t, clmem_enqueue_copy(t->queue, a, a, .src_offset = 0, .dst_offset = 100, .byte_count = 200), CL_MEM_COPY_OVERLAP,
        COPY, "overlap");
    BAD(t, clmem_enqueue_copy(t->queue, s2, s1, .src_offset = 1024, .byte_count = 64), CL_MEM_COPY_OVERLAP, COPY, "overlap");
    BAD(t, clmem_enqueue_copy(t->queue, a, a, .region = {16, 4, 1}, .src_origin = {0, 0, 0}, .dst_origin = {8, 1, 0}),
        CL_MEM_COPY_OVERLAP, COPY, "share bytes");
    BAD(t, clmem_enqueue_copy(t->queue, a, a, .region = {16, 4, 1}, .src_pitches = {16, 0}, .dst_pitches = {32, 0},
                              .dst_origin = {0, 0, 8}),
        CL_INVALID_VALUE, COPY, "one buffer object", "equal pitches");
    /* siblings with different pitches: valid when they do not overlap, refused when they do */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, s2, s1, .region = {16, 4, 1}, .src_pitches = {16, 0},
                                         .dst_pitches = {64, 0}, .dst_origin = {0, 0, 0}, .src_origin = {0, 0, 0},
                                         .is_blocking = CLMEM_BLOCKING));
    BAD(t, clmem_enqueue_copy(t->queue, s2, s1, .region = {16, 4, 1}, .src_pitches = {16, 0}, .dst_pitches = {64, 0},
                              .src_origin = {0, 64, 0}),
        CL_MEM_COPY_OVERLAP, COPY, "sub-buffers of one parent");
    if (other) {
        ob = clmem_buffer_create(other, 0, 64, NULL, &e);
        CLMEM_CHECK_CL(t, e);
        BAD(t, clmem_enqueue_copy(t->queue, ob, a, .byte_count = 64), CL_INVALID_CONTEXT, COPY, "context");
        clmem_buffer_release(&ob);
        clReleaseContext(other);
    }
    clmem_buffer_release(&s2);
    clmem_buffer_release(&s1);
    clmem_buffer_release(&b);
    clmem_buffer_release(&a);
}

static void test_raw(clmem_test_context *t) {
    cl_int e;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &e);
    CLMEM_CHECK_CL(t, e);
    BAD(t, clmem_enqueue_copy(t->queue, (cl_mem)NULL, a.mem), CL_INVALID_MEM_OBJECT, COPY, "dst", "NULL");
    BAD(t, clmem_enqueue_copy(t->queue, a.mem, (cl_mem)NULL), CL_INVALID_MEM_OBJECT, COPY, "src", "NULL");
    clmem_buffer_release(&a);
}

static void test_fill(clmem_test_context *t) {
    cl_int e;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &e), empty;
    CLMEM_CHECK_CL(t, e);
    memset(&empty, 0, sizeof empty);
    BAD(t, clmem_enqueue_fill(t->queue, empty, (cl_uint)1, 0), CL_INVALID_MEM_OBJECT, "clmem_enqueue_fill", "dst");
    BAD(t, clmem_enqueue_fill(t->queue, b, (cl_uint)1, 0, .pattern_size = 2), CL_INVALID_VALUE, "clmem_enqueue_fill",
        "pattern_size 2", "4 bytes");
    BAD(t, clmem_enqueue_fill(t->queue, b, (cl_uint)1, 8, .offset = 60), CL_INVALID_VALUE, "clmem_enqueue_fill", "60",
        "64");
    clmem_buffer_release(&b);
    printf("  badinput_transfer: %lu cases\n", badinput_cases);
}

static const clmem_test_case cases[] = {{"host", test_host, false},
                                        {"failed_event", test_failed_event, false},
                                        {"buffer_pairs", test_buffer_pairs, false},
                                        {"raw", test_raw, false},
                                        {"fill", test_fill, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
