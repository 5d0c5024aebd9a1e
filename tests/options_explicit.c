/* Named options: an option written means its value, one left out means its default.
   .is_blocking = false / CL_FALSE / 0 / CLMEM_NON_BLOCKING returns before the transfer
   is done; .byte_count = 0 copies nothing; a region written as zero copies nothing;
   a designator is recognised only as a designator, not inside an expression. An
   options struct built by hand from its type's initializer (CLMEM_COPY_OPTIONS_INIT,
   ...) means the fields set, 0 included, and the defaults of the others; the
   CLMEM_GIVEN_* bits of older code still count; one built otherwise is refused;
   NULL means defaults. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_cond_timedwait */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <pthread.h>
#include <time.h>

/* ---- the given mask itself (compile-time strings, no device needed) ---- */

struct cfg {
    size_t byte_count, size;
    int is_blocking;
};

/* the option bits, without the mark every macro adds */
#define BITS(...) (CLMEM__GIVEN(__VA_ARGS__) & ~CLMEM_OPTIONS_MARK)

static void test_given_mask(clmem_test_context *t) {
    struct cfg c = {3, 4, 0};
    size_t n = 0;
    (void)c;
    (void)n;
    CLMEM_CHECK_EQ(t, CLMEM__GIVEN(), CLMEM_OPTIONS_MARK);
    CLMEM_CHECK_EQ(t, CLMEM__GIVEN(.is_blocking = 0), CLMEM_OPTIONS_MARK | CLMEM_GIVEN_IS_BLOCKING);
    CLMEM_CHECK_EQ(t, BITS(), 0);
    CLMEM_CHECK_EQ(t, BITS(.byte_count = 0), CLMEM_GIVEN_BYTE_COUNT);
    CLMEM_CHECK_EQ(t, BITS(.src_offset = 1,.byte_count=n), CLMEM_GIVEN_BYTE_COUNT);
    CLMEM_CHECK_EQ(t, BITS(.is_blocking = false, .region = {1, 2}),
                   CLMEM_GIVEN_IS_BLOCKING | CLMEM_GIVEN_REGION);
    CLMEM_CHECK_EQ(t, BITS(.region[1] = 4), CLMEM_GIVEN_REGION);
    /* inside expressions the names do not count */
    CLMEM_CHECK_EQ(t, BITS(.src_offset = c.byte_count, .dst_offset = c.size), 0);
    CLMEM_CHECK_EQ(t, BITS(.src_offset = c.is_blocking ? 1 : 0), 0);
    /* a name is not found inside a longer one */
    CLMEM_CHECK_EQ(t, BITS(.host_size = 8, .pattern_size = 4, .num_wait_for = 0), CLMEM_GIVEN_HOST_SIZE);
    CLMEM_CHECK_EQ(t, BITS(.size = 8), CLMEM_GIVEN_SIZE);
    /* options set through a macro count: CLMEM_WAIT_FOR expands before the search */
    CLMEM_CHECK_EQ(t, BITS(.shape = {2, 3}, .ndim = 2, .order = 'F'),
                   CLMEM_GIVEN_SHAPE | CLMEM_GIVEN_NDIM | CLMEM_GIVEN_ORDER);
}

/* ---- .byte_count = 0 copies nothing, on every pair that takes it ---- */

static void test_byte_count_zero(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char host[64], back[64], want[64];
    size_t n = 0;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err), b;
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(want, 64, 3);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, want));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, want));
    /* host <- buffer */
    memset(back, 0x5A, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .byte_count = n));
    CLMEM_CHECK_EQ(t, back[0], 0x5A);
    /* buffer <- host */
    memset(host, 0, sizeof host);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, host, .byte_count = n, .dst_offset = 8));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
    CLMEM_CHECK(t, memcmp(back, want, 64) == 0);
    /* buffer <- buffer */
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, b, .byte_count = n, .src_offset = 4));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
    CLMEM_CHECK(t, memcmp(back, want, 64) == 0);
    /* zero bytes with an event asked for: a marker, complete once the queue is */
    {
        cl_event ev = NULL;
        cl_int status = -1;
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .byte_count = n, .event = &ev));
        CLMEM_CHECK(t, ev != NULL);
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        CLMEM_CHECK_CL(t, clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        CLMEM_CHECK_EQ(t, status, CL_COMPLETE);
        clReleaseEvent(ev);
    }
    /* left out: the default extent (everything) */
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
    CLMEM_CHECK(t, memcmp(back, want, 64) == 0);
    /* written through an expression that mentions another struct's byte_count: still left out */
    {
        struct cfg c = {0, 0, 0};
        memset(back, 0, sizeof back);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .src_offset = c.byte_count));
        CLMEM_CHECK(t, memcmp(back, want, 64) == 0);
    }
    /* a byte count beyond the buffer is still refused */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, a, .byte_count = 65), CL_INVALID_VALUE);
    /* .host_size = 0 written: the host has no room */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, a, .host_size = n), CL_INVALID_VALUE);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

/* A rectangular copy whose region is written as all zero copies nothing. */
static void test_region_zero(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char back[64], want[64];
    size_t w = 0;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err), b;
    CLMEM_CHECK_CL(t, err);
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(want, 64, 4);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, want));
    memset(back, 0x11, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .region = {w, 0, 0}));
    CLMEM_CHECK_EQ(t, back[0], 0x11);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, a, .region = {w}));
    /* a zero before a non-zero component is still an error */
    CLMEM_CHECK_ERR(t, clmem_enqueue_copy(t->queue, back, a, .region = {w, 4}), CL_INVALID_VALUE);
    clmem_buffer_release(&a);
    clmem_buffer_release(&b);
}

/* ---- .is_blocking = false returns before the transfer is done ----
   The read waits for a user event (the gate) that only this thread opens after the
   call returned. Had the call blocked, it could only return once the watchdog opened
   the gate (after 10 s), and the read would then be complete: the test sees that. */

typedef struct watchdog {
    cl_event gate;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} watchdog;

static void *watchdog_main(void *p) {
    watchdog *w = (watchdog *)p;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&w->lock);
    while (!w->done)
        if (pthread_cond_timedwait(&w->cond, &w->lock, &until) != 0) break;
    if (!w->done) clSetUserEventStatus(w->gate, CL_COMPLETE); /* the call blocked: unblock it */
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static void watchdog_stop(watchdog *w, pthread_t th) {
    pthread_mutex_lock(&w->lock);
    w->done = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
    pthread_join(th, NULL);
}

/* how: 0 `.is_blocking = false`, 1 `CL_FALSE`, 2 `0`, 3 `CLMEM_NON_BLOCKING`; 4 a map
   whose options struct is built by hand from CLMEM_MAP_OPTIONS_INIT with .is_blocking =
   CLMEM_NON_BLOCKING and its given bit (older code's way); 5 the same map without the
   bit; 6 a copy built from CLMEM_COPY_OPTIONS_INIT with .is_blocking = CL_FALSE, through
   the inline entry clmem_enqueue_copy calls; 7 the same through the full one */
static void non_blocking_read(clmem_test_context *t, int how) {
    cl_int err = 0, status = -1;
    unsigned char want[256], back[256];
    cl_event ev = NULL;
    clmem_map_options mo = CLMEM_MAP_OPTIONS_INIT;
    clmem_copy_options co = CLMEM_COPY_OPTIONS_INIT;
    clmem_memory_map m;
    watchdog w;
    pthread_t th;
    clmem_buffer a = clmem_buffer_create(t->context, 0, sizeof want, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(want, sizeof want, 7 + (unsigned)how);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, want));
    memset(&w, 0, sizeof w);
    w.gate = clCreateUserEvent(t->context, &err);
    CLMEM_CHECK_CL(t, err);
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.cond, NULL);
    CLMEM_CHECK(t, pthread_create(&th, NULL, watchdog_main, &w) == 0);
    memset(back, 0, sizeof back);
    switch (how) {
    case 0: err = clmem_enqueue_copy(t->queue, back, a, .is_blocking = false, CLMEM_WAIT_FOR(w.gate), .event = &ev); break;
    case 1: err = clmem_enqueue_copy(t->queue, back, a, .is_blocking = CL_FALSE, CLMEM_WAIT_FOR(w.gate), .event = &ev); break;
    case 2: err = clmem_enqueue_copy(t->queue, back, a, .event = &ev, CLMEM_WAIT_FOR(w.gate), .is_blocking = 0); break;
    case 6:
    case 7:
        co.is_blocking = CL_FALSE; /* nothing else: no bit to remember */
        co.wait_for = &w.gate;
        co.num_wait_for = 1;
        co.event = &ev;
        err = how == 6 ? clmem__copy_host_from_buffer_inline(t->queue, back, a, &co)
                       : clmem__copy_host_from_buffer(t->queue, back, a, &co);
        break;
    case 4:
    case 5:
        mo.is_blocking = CLMEM_NON_BLOCKING;
        if (how == 4) mo.given |= CLMEM_GIVEN_IS_BLOCKING;
        mo.wait_for = &w.gate;
        mo.num_wait_for = 1;
        mo.event = &ev;
        err = clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 1, "unsigned char", &m, &mo);
        break;
    default:
        err = clmem_enqueue_copy(t->queue, back, a, .is_blocking = CLMEM_NON_BLOCKING, CLMEM_WAIT_FOR(w.gate), .event = &ev);
    }
    if (err == CL_SUCCESS)
        err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    watchdog_stop(&w, th);
    clSetUserEventStatus(w.gate, CL_COMPLETE); /* open the gate (an error if the watchdog did) */
    if (ev) clWaitForEvents(1, &ev);
    if ((how == 4 || how == 5) && err == CL_SUCCESS) {
        memcpy(back, m.ptr, sizeof back);
        CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
        CLMEM_CHECK_CL(t, clFinish(t->queue));
    }
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, status != CL_COMPLETE); /* returned before the read was done */
    CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
    clReleaseEvent(ev);
    clReleaseEvent(w.gate);
    pthread_cond_destroy(&w.cond);
    pthread_mutex_destroy(&w.lock);
    clmem_buffer_release(&a);
}

static void test_non_blocking_false(clmem_test_context *t) { non_blocking_read(t, 0); }
static void test_non_blocking_cl_false(clmem_test_context *t) { non_blocking_read(t, 1); }
static void test_non_blocking_zero(clmem_test_context *t) { non_blocking_read(t, 2); }
static void test_non_blocking_constant(clmem_test_context *t) { non_blocking_read(t, 3); }
static void test_non_blocking_built_by_hand(clmem_test_context *t) { non_blocking_read(t, 4); }
static void test_non_blocking_map_no_bit(clmem_test_context *t) { non_blocking_read(t, 5); }
static void test_non_blocking_copy_by_hand(clmem_test_context *t) {
    non_blocking_read(t, 6);
    non_blocking_read(t, 7);
}

/* A struct not made by clmem (memset, = {0}: no CLMEM_OPTIONS_MARK) cannot say whether
   its zero .is_blocking means CLMEM_NON_BLOCKING or the default: refused, never a
   silent block. NULL options are every default. */
static void test_built_without_init(clmem_test_context *t) {
    cl_int err = 0;
    clmem_memory_map m;
    clmem_map_options mo;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    memset(&mo, 0, sizeof mo);
    mo.is_blocking = CLMEM_NON_BLOCKING;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 1, "char", &m, &mo), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_map_buffer: the options struct was not made by "
                                                      "clmem") != NULL &&
                       strstr(clmem_last_error_message(), "CLMEM_OPTIONS_INIT") != NULL);
    CLMEM_CHECK(t, m.ptr == NULL);
    mo.given = CLMEM_GIVEN_IS_BLOCKING; /* bits without the mark: still not known to be complete */
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 1, "char", &m, &mo), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 1, "char", &m, NULL));
    CLMEM_CHECK_EQ(t, m.size, 64);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_buffer_release(&a);
}

/* One rule for every options type: a struct not made by clmem is refused also where no
   option has a default other than 0 (fills, enqueue options, unmaps), with the words;
   the same struct from CLMEM_OPTIONS_INIT runs. */
static void test_every_type_made(clmem_test_context *t) {
    cl_int err = 0;
    cl_uint v = 5, back[16];
    clmem_memory_map m;
    clmem_fill_options fo;
    clmem_enqueue_options eo;
    clmem_unmap_options uo;
    clmem_buffer a = clmem_buffer_create(t->context, 0, sizeof back, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    memset(&fo, 0, sizeof fo);
    memset(&eo, 0, sizeof eo);
    memset(&uo, 0, sizeof uo);
    CLMEM_CHECK_ERR(t, clmem__fill_ptr(t->queue, clmem__fill_target_buffer(a), &v, sizeof back, &fo),
                    CL_INVALID_VALUE);
    fo.pattern_size = sizeof v;
    CLMEM_CHECK_ERR(t, clmem__fill_ptr(t->queue, clmem__fill_target_buffer(a), &v, sizeof back, &fo),
                    CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_fill: the options struct was not made by clmem") != NULL);
    CLMEM_CHECK_ERR(t, clmem_enqueue_fill_buffer_opts(t->queue, a, &v, sizeof v, 0, sizeof back, &eo), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_enqueue_fill_buffer: the options struct was not made") != NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, a, CL_MAP_READ, 0, cl_uint, &m));
    CLMEM_CHECK_ERR(t, clmem_memory_map_release_opts(&m, &uo), CL_INVALID_VALUE);
    CLMEM_CHECK(t, m.ptr != NULL); /* still mapped: nothing was done */
    {
        clmem_unmap_options made = CLMEM_OPTIONS_INIT;
        clmem_fill_options fmade = CLMEM_OPTIONS_INIT;
        clmem_enqueue_options emade = CLMEM_OPTIONS_INIT;
        CLMEM_CHECK_CL(t, clmem_memory_map_release_opts(&m, &made));
        fmade.pattern_size = sizeof v;
        CLMEM_CHECK_CL(t, clmem__fill_ptr(t->queue, clmem__fill_target_buffer(a), &v, sizeof back, &fmade));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
        CLMEM_CHECK_EQ(t, back[15], 5);
        v = 6;
        CLMEM_CHECK_CL(t, clmem_enqueue_fill_buffer_opts(t->queue, a, &v, sizeof v, 0, sizeof back, &emade));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
        CLMEM_CHECK_EQ(t, back[0], 6);
    }
    clmem_buffer_release(&a);
}

/* Left out, .is_blocking blocks: the bytes are there when the call returns, with no
   wait of the caller's. Written true, the same. */
static void test_blocking_default(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char want[4096], back[4096];
    clmem_buffer a = clmem_buffer_create(t->context, 0, sizeof want, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(want, sizeof want, 9);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, want));
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a));
    CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
    memset(back, 0, sizeof back);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, a, .is_blocking = true));
    CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
    clmem_buffer_release(&a);
}

/* SVM maps: .size = 0 written is refused (OpenCL cannot map 0 bytes); buffer maps:
   a .shape whose first extent is 0 is refused instead of mapping the whole rest. */
static void test_map_zero(clmem_test_context *t) {
    cl_int err = 0;
    size_t n = 0;
    clmem_memory_map m;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer(t->queue, a, CL_MAP_READ, 0, char, &m, .shape = {n}), CL_INVALID_VALUE);
    CLMEM_CHECK(t, m.ptr == NULL);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, a, CL_MAP_READ, 16, char, &m));
    CLMEM_CHECK_EQ(t, m.size, 48);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_buffer_release(&a);
}

/* Compound literals as positional arguments that do not pick the function. */
static void test_compound_literal_args(clmem_test_context *t) {
    cl_int err = 0;
    static const float a[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    float back[8];
    cl_uint n = 0;
    clmem_image img;
    clmem_buffer b;
    clmem_get_supported_image_formats(t->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL, 0, &n);
    if (n == 0) {
        clmem_test_skip(t, "no 2-D images on this device");
        return;
    }
    img = clmem_image_from_array(t->context, &a[0][0], 2, (const size_t[]){2, 4}, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.width, 4);
    CLMEM_CHECK_EQ(t, img.height, 2);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, img));
    CLMEM_CHECK(t, memcmp(back, a, sizeof back) == 0);
    clmem_image_release(&img);
    img = clmem_create_image(t->context, CL_MEM_READ_WRITE, (clmem_image_format){CL_R, CL_FLOAT}, &err, .shape = {8, 2});
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_EQ(t, img.height, 2);
    clmem_image_release(&img);
    b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_migrate_mem_objects(t->queue, (const cl_mem[]){b.mem}, 1, 0));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, ((cl_float4){{1, 2, 3, 4}}), 64));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b, .byte_count = sizeof back));
    CLMEM_CHECK(t, back[0] == 1 && back[3] == 4 && back[4] == 1 && back[7] == 4);
    clmem_buffer_release(&b);
}

/* ---- structs built by hand from their type's initializer ----
   For every options type with an option whose default is not 0: each such field set to
   0 means 0, left out means its default, and the CLMEM_GIVEN_* bit of older code still
   counts (a field left out whose bit is set means 0). */

/* clmem_copy_options (CLMEM_COPY_OPTIONS_INIT): .byte_count, .host_size, .region
   (.is_blocking: non_blocking_copy_by_hand) */
static void test_copy_by_hand(clmem_test_context *t) {
    cl_int err = 0;
    unsigned char want[64], back[64];
    clmem_copy_options o = CLMEM_COPY_OPTIONS_INIT;
    clmem_buffer a = clmem_buffer_create(t->context, 0, sizeof want, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    fill_pattern(want, sizeof want, 11);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, a, want));
    /* all left out: everything, blocking */
    memset(back, 0x5A, sizeof back);
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer_inline(t->queue, back, a, &o));
    CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
    memset(back, 0x5A, sizeof back);
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer(t->queue, back, a, &o));
    CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
    /* .byte_count = 0: nothing, on both entries */
    memset(back, 0x5A, sizeof back);
    o.byte_count = 0;
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer_inline(t->queue, back, a, &o));
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer(t->queue, back, a, &o));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, back[0], 0x5A);
    CLMEM_CHECK_EQ(t, back[63], 0x5A);
    /* .byte_count = 16: 16 bytes */
    o.byte_count = 16;
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer(t->queue, back, a, &o));
    CLMEM_CHECK(t, memcmp(back, want, 16) == 0 && back[16] == 0x5A);
    /* .host_size = 0 set: the host has no room; left out: unknown */
    o = (clmem_copy_options)CLMEM_COPY_OPTIONS_INIT;
    o.host_size = 0;
    CLMEM_CHECK_ERR(t, clmem__copy_host_from_buffer(t->queue, back, a, &o), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "host_size 0") != NULL);
    o.host_size = sizeof back;
    memset(back, 0x5A, sizeof back);
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer(t->queue, back, a, &o));
    CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
    /* .region set to all 0 (element 0 written as 0): a rectangle of nothing */
    o = (clmem_copy_options)CLMEM_COPY_OPTIONS_INIT;
    o.region[0] = 0;
    memset(back, 0x5A, sizeof back);
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer(t->queue, back, a, &o));
    CLMEM_CHECK_EQ(t, back[0], 0x5A);
    /* .region with only element 1 set: written, so element 0 is 0 before a non-zero one */
    o = (clmem_copy_options)CLMEM_COPY_OPTIONS_INIT;
    o.region[1] = 4;
    CLMEM_CHECK_ERR(t, clmem__copy_host_from_buffer(t->queue, back, a, &o), CL_INVALID_VALUE);
    /* .region = {8, 2}: a rectangle */
    o.region[0] = 8;
    o.region[1] = 2;
    o.host_pitches[0] = 8;
    o.buffer_pitches[0] = 16;
    memset(back, 0x5A, sizeof back);
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer(t->queue, back, a, &o));
    CLMEM_CHECK(t, memcmp(back, want, 8) == 0 && memcmp(back + 8, want + 16, 8) == 0 && back[16] == 0x5A);
    /* older code: the bit of a field left out means 0 */
    o = (clmem_copy_options)CLMEM_COPY_OPTIONS_INIT;
    o.given |= CLMEM_GIVEN_BYTE_COUNT;
    memset(back, 0x5A, sizeof back);
    CLMEM_CHECK_CL(t, clmem__copy_host_from_buffer_inline(t->queue, back, a, &o));
    CLMEM_CHECK_EQ(t, back[0], 0x5A);
    /* buffer <- buffer and the stager read the same struct alike */
    {
        clmem_buffer b = clmem_buffer_create(t->context, 0, sizeof want, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, back));
        o = (clmem_copy_options)CLMEM_COPY_OPTIONS_INIT;
        o.byte_count = 0;
        CLMEM_CHECK_CL(t, clmem__copy_buffer_from_buffer(t->queue, b, a, &o));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
        CLMEM_CHECK_EQ(t, back[0], 0x5A);
        o = (clmem_copy_options)CLMEM_COPY_OPTIONS_INIT;
        CLMEM_CHECK_CL(t, clmem__copy_buffer_from_buffer(t->queue, b, a, &o));
        CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, back, b));
        CLMEM_CHECK(t, memcmp(back, want, sizeof want) == 0);
        clmem_buffer_release(&b);
    }
    clmem_buffer_release(&a);
}

/* clmem_map_options (CLMEM_MAP_OPTIONS_INIT): .shape, .ndim, .order (.region: images,
   image_by_hand; .is_blocking: non_blocking_map_no_bit) */
static void test_map_by_hand(clmem_test_context *t) {
    cl_int err = 0;
    clmem_memory_map m;
    clmem_map_options o = CLMEM_MAP_OPTIONS_INIT;
    clmem_buffer a = clmem_buffer_create(t->context, 0, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    /* all left out: one C-order axis over everything from the offset */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 16, 4, "cl_uint", &m, &o));
    CLMEM_CHECK(t, m.size == 48 && m.ndim == 1 && m.shape[0] == 12 && m.strides[0] == 4);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    /* .shape[0] = 0 set: refused, not the whole buffer */
    o.shape[0] = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 4, "cl_uint", &m, &o), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "first extent is 0") != NULL && m.ptr == NULL);
    /* .ndim = 0 set: refused */
    o = (clmem_map_options)CLMEM_MAP_OPTIONS_INIT;
    o.ndim = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 4, "cl_uint", &m, &o), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), ".ndim is 0") != NULL);
    /* .order = 0 set: refused; left out: 'C' */
    o = (clmem_map_options)CLMEM_MAP_OPTIONS_INIT;
    o.order = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 4, "cl_uint", &m, &o), CL_INVALID_VALUE);
    o = (clmem_map_options)CLMEM_MAP_OPTIONS_INIT;
    o.shape[0] = 2;
    o.shape[1] = 8;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 4, "cl_uint", &m, &o));
    CLMEM_CHECK(t, m.ndim == 2 && m.strides[0] == 32 && m.strides[1] == 4);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    o.order = 'F';
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 4, "cl_uint", &m, &o));
    CLMEM_CHECK(t, m.ndim == 2 && m.strides[0] == 4 && m.strides[1] == 8);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    /* older code: the bit of .ndim left out means 0, refused */
    o = (clmem_map_options)CLMEM_MAP_OPTIONS_INIT;
    o.given |= CLMEM_GIVEN_NDIM;
    CLMEM_CHECK_ERR(t, clmem_enqueue_map_buffer_opts(t->queue, a, CL_MAP_READ, 0, 4, "cl_uint", &m, &o), CL_INVALID_VALUE);
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_EQ(t, clmem_live_map_count(a.mem), 0);
    clmem_buffer_release(&a);
}

/* clmem_svm_map_options (.size, .is_blocking), clmem_svm_memfill_options (.byte_count),
   clmem_svm_empty_options (.shape, .ndim, .order, .alignment) */
static void test_svm_by_hand(clmem_test_context *t) {
#ifdef CL_VERSION_2_0
    cl_int err = 0;
    cl_uint v = 9, zero = 0;
    clmem_svm_allocation a;
    clmem_svm_map m;
    clmem_svm_array arr;
    clmem_svm_map_options mo = CLMEM_SVM_MAP_OPTIONS_INIT;
    clmem_svm_memfill_options fo = CLMEM_SVM_MEMFILL_OPTIONS_INIT;
    clmem_svm_empty_options eo = CLMEM_SVM_EMPTY_OPTIONS_INIT;
    if (!device_svm_caps(t, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        clmem_test_skip(t, "device has no coarse-grain buffer SVM");
        return;
    }
    a = clmem_svm_allocation_create(t->context, 64, 0, 0, t->queue, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill(t->queue, a.svm, &zero, sizeof zero));
    /* memfill: .byte_count = 0 fills nothing; left out fills everything */
    fo.byte_count = 0;
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill_opts(t->queue, a.svm, &v, sizeof v, &fo));
    /* svm map: all left out: all of svm.size, blocking */
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_map_opts(t->queue, a.svm, CL_MAP_READ, &m, &mo));
    CLMEM_CHECK(t, m.size == 64 && ((cl_uint *)m.ptr)[0] == 0 && ((cl_uint *)m.ptr)[15] == 0);
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m));
    fo = (clmem_svm_memfill_options)CLMEM_SVM_MEMFILL_OPTIONS_INIT;
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_memfill_opts(t->queue, a.svm, &v, sizeof v, &fo));
    /* .size = 8: 8 bytes; .size = 0 set: refused */
    mo.size = 8;
    CLMEM_CHECK_CL(t, clmem_enqueue_svm_map_opts(t->queue, a.svm, CL_MAP_READ, &m, &mo));
    CLMEM_CHECK(t, m.size == 8 && ((cl_uint *)m.ptr)[1] == 9);
    CLMEM_CHECK_CL(t, clmem_svm_map_release(&m));
    mo.size = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_svm_map_opts(t->queue, a.svm, CL_MAP_READ, &m, &mo), CL_INVALID_VALUE);
    /* .is_blocking = 0: returns before the map, which waits for a closed gate, is done
       (a watchdog opens it after 10 s, should the call block) */
    {
        cl_event ev = NULL;
        cl_int status = -1;
        watchdog w;
        pthread_t th;
        memset(&w, 0, sizeof w);
        w.gate = clCreateUserEvent(t->context, &err);
        CLMEM_CHECK_CL(t, err);
        pthread_mutex_init(&w.lock, NULL);
        pthread_cond_init(&w.cond, NULL);
        CLMEM_CHECK(t, pthread_create(&th, NULL, watchdog_main, &w) == 0);
        mo = (clmem_svm_map_options)CLMEM_SVM_MAP_OPTIONS_INIT;
        mo.is_blocking = 0;
        mo.event = &ev;
        mo.wait_for = &w.gate;
        mo.num_wait_for = 1;
        err = clmem_enqueue_svm_map_opts(t->queue, a.svm, CL_MAP_READ, &m, &mo);
        if (err == CL_SUCCESS) err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        watchdog_stop(&w, th);
        clSetUserEventStatus(w.gate, CL_COMPLETE);
        CLMEM_CHECK_CL(t, err);
        CLMEM_CHECK(t, status != CL_COMPLETE); /* returned before the map was done */
        CLMEM_CHECK_CL(t, clWaitForEvents(1, &ev));
        CLMEM_CHECK(t, m.size == 64 && ((cl_uint *)m.ptr)[15] == 9);
        CLMEM_CHECK_CL(t, clmem_svm_map_release(&m));
        clReleaseEvent(ev);
        clReleaseEvent(w.gate);
        pthread_cond_destroy(&w.cond);
        pthread_mutex_destroy(&w.lock);
    }
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    CLMEM_CHECK_CL(t, clmem_svm_allocation_release(&a));
    /* svm_empty: .ndim = 0 set with a shape of 0: refused; left out: counted; .order and
       .alignment left out: 'C' and the element size */
    eo.shape[0] = 0;
    eo.ndim = 0;
    arr = clmem_svm_empty_opts(t->context, CL_MEM_READ_WRITE, sizeof(double), "double", &err, &eo);
    CLMEM_CHECK(t, err == CL_INVALID_VALUE && arr.svm.ptr == NULL);
    eo = (clmem_svm_empty_options)CLMEM_SVM_EMPTY_OPTIONS_INIT;
    eo.shape[0] = 2;
    eo.shape[1] = 3;
    arr = clmem_svm_empty_opts(t->context, CL_MEM_READ_WRITE, sizeof(double), "double", &err, &eo);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, arr.ndim == 2 && arr.order == 'C' && arr.strides[0] == 24 && arr.alignment == sizeof(double));
    clmem_svm_array_release(&arr);
    eo.ndim = 1; /* set: only the first extent */
    arr = clmem_svm_empty_opts(t->context, CL_MEM_READ_WRITE, sizeof(double), "double", &err, &eo);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, arr.ndim == 1 && arr.svm.size == 16);
    clmem_svm_array_release(&arr);
#else
    clmem_test_skip(t, "OpenCL headers older than 2.0");
#endif
}

/* clmem_image_options (.shape, .ndim, .host_size), clmem_image_from_array_options
   (.num_channels, .mode), and an image map's .region */
static void test_image_by_hand(clmem_test_context *t) {
    cl_int err = 0;
    cl_uint n = 0;
    static const float data[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    static const size_t shape2[2] = {2, 4};
    clmem_image img;
    clmem_memory_map m;
    clmem_image_options io = CLMEM_IMAGE_OPTIONS_INIT;
    clmem_image_from_array_options fo = CLMEM_IMAGE_FROM_ARRAY_OPTIONS_INIT;
    clmem_map_options mo = CLMEM_MAP_OPTIONS_INIT;
    clmem_get_supported_image_formats(t->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, NULL, 0, &n);
    if (n == 0) {
        clmem_test_skip(t, "no 2-D images on this device");
        return;
    }
    /* create_image: .shape set, .ndim and .host_size left out */
    io.shape[0] = 4;
    io.shape[1] = 2;
    img = clmem_create_image_opts(t->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, clmem_image_format_create(CL_R, CL_FLOAT),
                                  &err, (io.hostbuf = (void *)(uintptr_t)data, &io));
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.width == 4 && img.height == 2);
    /* an image map: .region left out is the whole image; .region = {2} one row of 2 */
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image_opts(t->queue, img, CL_MAP_READ, &m, &mo));
    CLMEM_CHECK(t, m.shape[0] == 2 && m.shape[1] == 4 && ((const float *)m.ptr)[3] == 4.0f);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    mo.region[0] = 2;
    CLMEM_CHECK_CL(t, clmem_enqueue_map_image_opts(t->queue, img, CL_MAP_READ, &m, &mo));
    CLMEM_CHECK(t, m.shape[0] == 1 && m.shape[1] == 2 && ((const float *)m.ptr)[1] == 2.0f);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&m));
    CLMEM_CHECK_CL(t, clFinish(t->queue));
    clmem_image_release(&img);
    /* .host_size = 0 set: too small for what the image reads */
    io.host_size = 0;
    img = clmem_create_image_opts(t->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, clmem_image_format_create(CL_R, CL_FLOAT),
                                  &err, &io);
    CLMEM_CHECK(t, err == CL_INVALID_VALUE && img.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), ".host_size 0 bytes") != NULL);
    {   /* the same with the named option */
        size_t none = 0;
        img = clmem_create_image(t->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, clmem_image_format_create(CL_R, CL_FLOAT),
                                 &err, .shape = {4, 2}, .hostbuf = (void *)(uintptr_t)data, .host_size = none);
        CLMEM_CHECK(t, err == CL_INVALID_VALUE && img.mem == NULL);
    }
    /* .ndim = 0 set: does not match the shape's 2 */
    io = (clmem_image_options)CLMEM_IMAGE_OPTIONS_INIT;
    io.shape[0] = 4;
    io.shape[1] = 2;
    io.ndim = 0;
    img = clmem_create_image_opts(t->context, CL_MEM_READ_WRITE, clmem_image_format_create(CL_R, CL_FLOAT), &err, &io);
    CLMEM_CHECK(t, err == CL_INVALID_VALUE && img.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), ".ndim is 0") != NULL);
    /* image_from_array: all left out: 1 channel, read-only */
    img = clmem_image_from_array_opts(t->context, &data[0][0], CL_FLOAT, 1, 2, shape2, &err, &fo);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, img.width == 4 && img.height == 2 && (img.flags & CL_MEM_READ_ONLY) && img.format.image_channel_order == CL_R);
    clmem_image_release(&img);
    /* .mode = 0 set: refused; .mode = 'w': write-only */
    fo.mode = 0;
    img = clmem_image_from_array_opts(t->context, &data[0][0], CL_FLOAT, 1, 2, shape2, &err, &fo);
    CLMEM_CHECK(t, err == CL_INVALID_VALUE && img.mem == NULL);
    fo.mode = 'w';
    img = clmem_image_from_array_opts(t->context, &data[0][0], CL_FLOAT, 1, 2, shape2, &err, &fo);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, (img.flags & CL_MEM_WRITE_ONLY) != 0);
    clmem_image_release(&img);
    /* .num_channels = 0 set: refused */
    fo = (clmem_image_from_array_options)CLMEM_IMAGE_FROM_ARRAY_OPTIONS_INIT;
    fo.num_channels = 0;
    img = clmem_image_from_array_opts(t->context, &data[0][0], CL_FLOAT, 1, 2, shape2, &err, &fo);
    CLMEM_CHECK(t, err == CL_INVALID_VALUE && img.mem == NULL);
    /* older code: the bit of .num_channels left out means 0, refused */
    fo = (clmem_image_from_array_options)CLMEM_IMAGE_FROM_ARRAY_OPTIONS_INIT;
    fo.given |= CLMEM_GIVEN_NUM_CHANNELS;
    img = clmem_image_from_array_opts(t->context, &data[0][0], CL_FLOAT, 1, 2, shape2, &err, &fo);
    CLMEM_CHECK(t, err == CL_INVALID_VALUE && img.mem == NULL);
}

static const clmem_test_case cases[] = {
    {"given_mask", test_given_mask, false},
    {"byte_count_zero", test_byte_count_zero, false},
    {"region_zero", test_region_zero, false},
    {"non_blocking_false", test_non_blocking_false, false},
    {"non_blocking_cl_false", test_non_blocking_cl_false, false},
    {"non_blocking_zero", test_non_blocking_zero, false},
    {"non_blocking_built_by_hand", test_non_blocking_built_by_hand, false},
    {"non_blocking_map_no_bit", test_non_blocking_map_no_bit, false},
    {"non_blocking_copy_by_hand", test_non_blocking_copy_by_hand, false},
    {"copy_by_hand", test_copy_by_hand, false},
    {"map_by_hand", test_map_by_hand, false},
    {"svm_by_hand", test_svm_by_hand, false},
    {"image_by_hand", test_image_by_hand, false},
    {"built_without_init", test_built_without_init, false},
    {"every_type_made", test_every_type_made, false},
    {"non_blocking_constant", test_non_blocking_constant, false},
    {"blocking_default", test_blocking_default, false},
    {"map_zero", test_map_zero, false},
    {"compound_literal_args", test_compound_literal_args, false},
};

int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
