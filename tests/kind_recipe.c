/* The new-kind recipe of docs/hacking.md, followed from outside clmem: a kind of memory
   that is a cl_mem underneath ("host-visible memory": buffers made with
   CL_MEM_ALLOC_HOST_PTR) is an allocator, accessors and a clmem_buffer. Nothing in clmem
   changes for it, and every generic call takes it: copies, fills, kernel arguments,
   clmem_release, and the buffer pool over its allocator. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* ---- the kind: an allocator ---- */
typedef struct hostvis_state {
    cl_context context;
    int live;      /* buffers made and not yet freed */
    int destroyed; /* the allocator's last reference went */
} hostvis_state;

static cl_int hostvis_allocate(void *user, size_t size, cl_mem *mem) {
    hostvis_state *s = (hostvis_state *)user;
    cl_int err;
    *mem = clCreateBuffer(s->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &err);
    if (err == CL_SUCCESS) ++s->live;
    return err;
}
static void hostvis_free(void *user, cl_mem mem) {
    --((hostvis_state *)user)->live;
    clReleaseMemObject(mem);
}
static void hostvis_destroy(void *user) { ((hostvis_state *)user)->destroyed = 1; }

/* hostvis_allocator_create(queue, state, &err): the kind's creation function; it checks
   its argument and makes the allocator (clmem_allocator_create copies the ops). */
static clmem_allocator *hostvis_allocator_create(cl_command_queue queue, hostvis_state *state, cl_int *err) {
    static const clmem_allocator_ops ops = {hostvis_allocate, hostvis_free, NULL, hostvis_destroy, false};
    memset(state, 0, sizeof *state);
    if (!queue) {
        *err = CL_INVALID_COMMAND_QUEUE;
        return NULL;
    }
    *err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof state->context, &state->context, NULL);
    if (*err != CL_SUCCESS) return NULL;
    return clmem_allocator_create(&ops, state, state->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, err);
}

/* ---- the kind: accessors ---- */
/* whether a clmem_buffer is host-visible memory (asks the driver, as a kind's accessor
   for a device address or a peer would) */
static int hostvis_is_host_visible(clmem_buffer b) {
    cl_mem_flags flags = 0;
    if (!b.mem || clGetMemObjectInfo(b.mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS) return 0;
    return (flags & CL_MEM_ALLOC_HOST_PTR) != 0;
}

/* ---- the kind at work: a clmem_buffer everywhere ---- */
static const char *twice_src = "__kernel void twice(__global uchar *p) { size_t i = get_global_id(0); p[i] = (uchar)(p[i] * 2); }";

/* copy in, fill, kernel argument, copy out: exact bytes */
static void use(clmem_test_context *t, clmem_buffer b, cl_kernel k) {
    unsigned char in[64], out[64];
    size_t i, n = 64;
    fill_pattern(in, sizeof in, 5);
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, b, in));
    CLMEM_CHECK_CL(t, clmem_enqueue_fill(t->queue, b, (unsigned char)9, 16, .offset = 48));
    CLMEM_CHECK_CL(t, clmem_set_kernel_arg(k, 0, b));
    CLMEM_CHECK_CL(t, clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CLMEM_CHECK_CL(t, clmem_enqueue_copy(t->queue, out, b, .byte_count = 64));
    for (i = 0; i < 64; ++i) CLMEM_CHECK_EQ(t, out[i], (unsigned char)((i < 48 ? in[i] : 9) * 2));
}

static void test_plain(clmem_test_context *t) {
    hostvis_state st;
    cl_int err;
    clmem_allocator *a = hostvis_allocator_create(t->queue, &st, &err);
    cl_kernel k = build_kernel(t, twice_src, "twice");
    clmem_buffer b;
    CLMEM_CHECK_CL(t, err);
    if (!k) return;
    b = clmem_allocator_allocate(a, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, hostvis_is_host_visible(b));
    CLMEM_CHECK_EQ(t, b.size, 64);
    CLMEM_CHECK_EQ(t, st.live, 1);
    use(t, b, k);
    CLMEM_CHECK_CL(t, clmem_release(&b)); /* a plain buffer: clReleaseMemObject */
    CLMEM_CHECK(t, b.mem == NULL);
    CLMEM_CHECK_CL(t, clmem_allocator_release(a));
    CLMEM_CHECK_EQ(t, st.destroyed, 1);
    clReleaseKernel(k);
    /* the creation function's refusal */
    CLMEM_CHECK(t, hostvis_allocator_create(NULL, &st, &err) == NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_COMMAND_QUEUE);
}

static void test_pooled(clmem_test_context *t) {
    hostvis_state st;
    cl_int err;
    clmem_allocator *a = hostvis_allocator_create(t->queue, &st, &err);
    clmem_memory_pool *pool;
    cl_kernel k = build_kernel(t, twice_src, "twice");
    clmem_buffer b, c;
    cl_mem first;
    CLMEM_CHECK_CL(t, err);
    if (!k) return;
    pool = clmem_memory_pool_create(a, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_allocator_release(a)); /* the pool holds its own reference */
    CLMEM_CHECK_EQ(t, st.destroyed, 0);
    b = clmem_memory_pool_allocate(pool, 64, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, hostvis_is_host_visible(b));
    CLMEM_CHECK_EQ(t, b.flags, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR); /* the allocator's flags */
    CLMEM_CHECK(t, clmem_pooled_buffer_pool(b) == pool);
    use(t, b, k);
    first = b.mem;
    CLMEM_CHECK_CL(t, clmem_release(&b)); /* back to the pool, held */
    CLMEM_CHECK_EQ(t, clmem_memory_pool_held_blocks(pool), 1);
    CLMEM_CHECK_EQ(t, st.live, 1);
    c = clmem_memory_pool_allocate(pool, 64, &err); /* the same bin: the held block again */
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, c.mem == first);
    CLMEM_CHECK_EQ(t, st.live, 1);
    CLMEM_CHECK_CL(t, clmem_release(&c));
    CLMEM_CHECK_CL(t, clmem_memory_pool_release(pool)); /* frees the held block, then the allocator */
    CLMEM_CHECK_EQ(t, st.live, 0);
    CLMEM_CHECK_EQ(t, st.destroyed, 1);
    clReleaseKernel(k);
}

static const clmem_test_case cases[] = {{"plain", test_plain, false}, {"pooled", test_pooled, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
