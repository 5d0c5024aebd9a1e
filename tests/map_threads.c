/* tests/map_threads.c - maps from 8 threads at once (issue 17, items 7 and 10):
   - every thread maps the SAME region of one buffer for reading, over and over, and
     checks the bytes it sees (skipped on PoCL 3.1, which crashes inside its device
     threads, pocl_driver_map_mem, when maps of one region run at once: a driver bug
     reproduced with bare OpenCL calls; the limit is documented in clmem/map.h);
   - one thread holds a write map while the others map the overlapping region (refused
     with CL_INVALID_OPERATION and a message naming the live map) and disjoint regions
     (granted) while the table grows and shrinks: the refusal's message is built while
     the table lock is held (it once read a record after unlocking: a TSan report).
   tools/tsan runs this file under ThreadSanitizer. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <pthread.h>

enum { T = 8, ROUNDS = 40, BYTES = 8 * 4096 };

typedef struct {
    clmem_test_context *t;
    clmem_buffer b;
    size_t index;
    int failures;
    int refused;
    char why[1024]; /* room for any message (clmem's are below 768 bytes) */
} worker;

static void note(worker *w, const char *what) {
    if (!w->failures++) snprintf(w->why, sizeof w->why, "%.200s: %.760s", what, clmem_last_error_message());
}

static void *same_region(void *arg) {
    worker *w = (worker *)arg;
    cl_int err;
    int round;
    cl_command_queue q = extra_queue(w->t, w->t->context, &err);
    if (err != CL_SUCCESS) {
        note(w, "clCreateCommandQueueWithProperties");
        return NULL;
    }
    for (round = 0; round < ROUNDS; ++round) {
        clmem_memory_map m;
        size_t i;
        if (clmem_enqueue_map_buffer(q, w->b, CL_MAP_READ, 0, unsigned char, &m) != CL_SUCCESS) {
            note(w, "map");
            break;
        }
        for (i = 0; i < BYTES; i += 512)
            if (((unsigned char *)m.ptr)[i] != (unsigned char)(i / 4096 + 1)) {
                note(w, "bytes");
                break;
            }
        if (clmem_memory_map_release(&m) != CL_SUCCESS) note(w, "release");
    }
    clFinish(q);
    clReleaseCommandQueue(q);
    return NULL;
}

static void test_same_region(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
    cl_int err;
    pthread_t th[T];
    worker w[T];
    unsigned char init[BYTES];
    size_t i;
    clmem_buffer b;
    if (strstr(t->device_name, "Portable Computing Language")) {
        clmem_test_skip(t, "PoCL 3.1 crashes (pocl_driver_map_mem) when threads map one region of a buffer at once");
        return;
    }
    for (i = 0; i < BYTES; ++i) init[i] = (unsigned char)(i / 4096 + 1);
    b = clmem_buffer_create(t->context, CL_MEM_COPY_HOST_PTR, BYTES, init, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < T; ++i) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].t = t, w[i].b = b, w[i].index = i;
        pthread_create(&th[i], NULL, same_region, &w[i]);
    }
    for (i = 0; i < T; ++i) pthread_join(th[i], NULL);
    for (i = 0; i < T; ++i) {
        if (w[i].failures) clmem_test_fail(t, __FILE__, __LINE__, "thread %zu: %s", i, w[i].why);
        CLMEM_CHECK_EQ(t, w[i].failures, 0);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(NULL), 0);
    clmem_buffer_release(&b);
}

/* threads 1..T-1: try the region thread 0 holds for writing (refused), then their own
   page (granted) */
static void *contend(void *arg) {
    worker *w = (worker *)arg;
    cl_int err;
    int round;
    cl_command_queue q = extra_queue(w->t, w->t->context, &err);
    if (err != CL_SUCCESS) {
        note(w, "clCreateCommandQueueWithProperties");
        return NULL;
    }
    for (round = 0; round < ROUNDS; ++round) {
        clmem_memory_map m;
        err = clmem_enqueue_map_buffer(q, w->b, CL_MAP_WRITE, 0, unsigned char, &m, .shape = {4096});
        if (err == CL_INVALID_OPERATION) {
            if (!strstr(clmem_last_error_message(), "clmem_enqueue_map_buffer: the region overlaps a live map for writing"))
                note(w, "refusal words");
            ++w->refused;
        } else {
            note(w, "overlapping map not refused");
            if (err == CL_SUCCESS) clmem_memory_map_release(&m);
        }
        if (clmem_enqueue_map_buffer(q, w->b, CL_MAP_WRITE, w->index * 4096, unsigned char, &m, .shape = {4096}) !=
            CL_SUCCESS) {
            note(w, "own page");
            continue;
        }
        memset(m.ptr, (int)w->index, 4096);
        if (clmem_memory_map_release(&m) != CL_SUCCESS) note(w, "release");
    }
    clFinish(q);
    clReleaseCommandQueue(q);
    return NULL;
}

static void test_contended(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
    cl_int err;
    pthread_t th[T];
    worker w[T];
    clmem_memory_map held;
    unsigned char back[BYTES];
    size_t i;
    clmem_buffer b = clmem_buffer_create(t->context, 0, BYTES, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_enqueue_map_buffer(t->queue, b, CL_MAP_WRITE, 0, unsigned char, &held, .shape = {4096}));
    memset(held.ptr, 0xEE, 4096);
    for (i = 1; i < T; ++i) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].t = t, w[i].b = b, w[i].index = i;
        pthread_create(&th[i], NULL, contend, &w[i]);
    }
    for (i = 1; i < T; ++i) pthread_join(th[i], NULL);
    CLMEM_CHECK_CL(t, clmem_memory_map_release(&held));
    for (i = 1; i < T; ++i) {
        if (w[i].failures) clmem_test_fail(t, __FILE__, __LINE__, "thread %zu: %s", i, w[i].why);
        CLMEM_CHECK_EQ(t, w[i].failures, 0);
        CLMEM_CHECK_EQ(t, w[i].refused, ROUNDS);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(NULL), 0);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, (void *)back, b));
    CLMEM_CHECK_EQ(t, back[0], 0xEE);
    for (i = 1; i < T; ++i) CLMEM_CHECK_EQ(t, back[i * 4096 + 17], i);
    clmem_buffer_release(&b);
}

/* every thread holds a write map of its own page while mapping its neighbour's:
   either is refused while the other thread holds it (CL_INVALID_OPERATION, with the
   words), granted otherwise; records before the one
   that refuses come and go (the table shifts and shrinks to nothing) */
static void *neighbours(void *arg) {
    worker *w = (worker *)arg;
    cl_int err;
    int round;
    cl_command_queue q = extra_queue(w->t, w->t->context, &err);
    if (err != CL_SUCCESS) {
        note(w, "clCreateCommandQueueWithProperties");
        return NULL;
    }
    for (round = 0; round < ROUNDS * 4; ++round) {
        clmem_memory_map own, next;
        err = clmem_enqueue_map_buffer(q, w->b, CL_MAP_WRITE, w->index * 4096, unsigned char, &own, .shape = {4096});
        if (err == CL_INVALID_OPERATION) { /* the previous thread holds it as its neighbour */
            if (!strstr(clmem_last_error_message(), "overlaps a live map for writing")) note(w, "refusal words");
            ++w->refused;
            continue;
        }
        if (err != CL_SUCCESS) {
            note(w, "own page");
            continue;
        }
        err = clmem_enqueue_map_buffer(q, w->b, CL_MAP_WRITE, ((w->index + 1) % T) * 4096, unsigned char, &next,
                                       .shape = {4096});
        if (err == CL_SUCCESS) {
            if (clmem_memory_map_release(&next) != CL_SUCCESS) note(w, "release next");
        } else if (err == CL_INVALID_OPERATION) {
            if (!strstr(clmem_last_error_message(), "overlaps a live map for writing")) note(w, "refusal words");
            ++w->refused;
        } else {
            note(w, "neighbour map");
        }
        if (clmem_memory_map_release(&own) != CL_SUCCESS) note(w, "release own");
    }
    clFinish(q);
    clReleaseCommandQueue(q);
    return NULL;
}

static void test_neighbours(clmem_test_context *t) {
    if (skip_threads_on_oclgrind(t)) return;
    cl_int err;
    pthread_t th[T];
    worker w[T];
    size_t i;
    clmem_buffer b = clmem_buffer_create(t->context, 0, BYTES, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    for (i = 0; i < T; ++i) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].t = t, w[i].b = b, w[i].index = i;
        pthread_create(&th[i], NULL, neighbours, &w[i]);
    }
    for (i = 0; i < T; ++i) pthread_join(th[i], NULL);
    for (i = 0; i < T; ++i) {
        if (w[i].failures) clmem_test_fail(t, __FILE__, __LINE__, "thread %zu: %s", i, w[i].why);
        CLMEM_CHECK_EQ(t, w[i].failures, 0);
    }
    CLMEM_CHECK_EQ(t, clmem_live_map_count(NULL), 0);
    clmem_buffer_release(&b);
}

static const clmem_test_case cases[] = {{"same_region", test_same_region, false}, {"contended", test_contended, false},
                                        {"neighbours", test_neighbours, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
