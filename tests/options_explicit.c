/* Named options: an option written means its value, one left out means its default.
   .is_blocking = false / CL_FALSE / 0 / CLMEM_NON_BLOCKING returns before the transfer
   is done; .byte_count = 0 copies nothing; a region written as zero copies nothing;
   a designator is recognised only as a designator, not inside an expression. An
   options struct built by hand from CLMEM_OPTIONS_INIT means its fields; one built
   otherwise is refused where a zero could mean 0 or the default; NULL means defaults. */
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
   whose options struct is built by hand from CLMEM_OPTIONS_INIT with .is_blocking =
   CLMEM_NON_BLOCKING and its given bit (a ported program's way) */
static void non_blocking_read(clmem_test_context *t, int how) {
    cl_int err = 0, status = -1;
    unsigned char want[256], back[256];
    cl_event ev = NULL;
    clmem_map_options mo = CLMEM_OPTIONS_INIT;
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
    case 4:
        mo.is_blocking = CLMEM_NON_BLOCKING;
        mo.given |= CLMEM_GIVEN_IS_BLOCKING;
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
    if (how == 4 && err == CL_SUCCESS) {
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

static const clmem_test_case cases[] = {
    {"given_mask", test_given_mask, false},
    {"byte_count_zero", test_byte_count_zero, false},
    {"region_zero", test_region_zero, false},
    {"non_blocking_false", test_non_blocking_false, false},
    {"non_blocking_cl_false", test_non_blocking_cl_false, false},
    {"non_blocking_zero", test_non_blocking_zero, false},
    {"non_blocking_built_by_hand", test_non_blocking_built_by_hand, false},
    {"built_without_init", test_built_without_init, false},
    {"every_type_made", test_every_type_made, false},
    {"non_blocking_constant", test_non_blocking_constant, false},
    {"blocking_default", test_blocking_default, false},
    {"map_zero", test_map_zero, false},
    {"compound_literal_args", test_compound_literal_args, false},
};

int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
