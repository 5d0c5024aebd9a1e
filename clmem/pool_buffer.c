/* >>pool_buffer (implementation): buffer pools (PyOpenCL's MemoryPool and PooledBuffer), the pool
   core with the buffer backend: blocks from a clmem_allocator */
#include "pool.h"
#include "buffer.h"

struct clmem_memory_pool { clmem__pool core; };

/* the buffer backend: blocks from a clmem_allocator */
static cl_int clmem__pool_buffer_make(void *user, size_t size, void **ptr, void **mem) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    cl_mem m = NULL;
    cl_int err = a->ops.allocate(a->user, size, &m);
    (void)mem;
    *ptr = m;
    return err;
}

static void clmem__pool_buffer_free(void *user, clmem__pool_block *blk) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    /* clReleaseMemObject waits for the commands using the buffer by itself; a custom
       free may not: wait for the point where the block was released */
    if (blk->pending && blk->queue && a->ops.free != clmem__cl_free) clmem__pool_wait_queue(blk->queue);
    a->ops.free(a->user, CLMEM__CAST(cl_mem, blk->ptr));
}

static void clmem__pool_buffer_try_release(void *user) {
    clmem_allocator *a = CLMEM__CAST(clmem_allocator *, user);
    if (a->ops.try_release_blocks) a->ops.try_release_blocks(a->user);
}

static void clmem__pool_buffer_destroy(void *user) { clmem_allocator_release(CLMEM__CAST(clmem_allocator *, user)); }

static const clmem__pool_backend clmem__pool_buffer_backend = {clmem__pool_buffer_make, clmem__pool_buffer_free,
                                                               clmem__pool_buffer_try_release,
                                                               clmem__pool_buffer_destroy, false};

CLMEM_API clmem_memory_pool *clmem_memory_pool_create(clmem_allocator *allocator, unsigned leading_bits_in_bin_id,
                                                      cl_int *errcode_ret) {
    static const char fn[] = "clmem_memory_pool_create";
    clmem__pool *p = clmem__pool_over(fn, allocator, allocator, allocator ? allocator->context : NULL,
                                      leading_bits_in_bin_id, &clmem__pool_buffer_backend, errcode_ret);
    if (!p) return NULL;
    clmem_allocator_retain(allocator);
    p->flags = allocator->flags;
    if (allocator->ops.is_deferred)
        clmem__warn(fn, "memory pools expect non-deferred allocators: a deferred allocator may report out-of-memory "
                        "only at first use, where the pool cannot free held blocks and retry "
                        "(use clmem_immediate_allocator_create)");
    return CLMEM__CAST(clmem_memory_pool *, (void *)p);
}

#if CLMEM__GNU && defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
CLMEM__STATIC_ASSERT(sizeof(clmem_buffer) == 64 && offsetof(clmem_buffer, context) == 8 &&
                         offsetof(clmem_buffer, flags) == 24 && offsetof(clmem_buffer, root) == 32 &&
                         offsetof(clmem_buffer, origin) == 40 && offsetof(clmem_buffer, pool) == 48,
                     "clmem_buffer: eight 64-bit words in this order (clmem__pool_handle writes them so)");
#endif

/* the handle of a block just handed out */
static inline clmem_buffer clmem__pool_handle(const clmem__pool *p, const clmem__pool_block *blk, size_t size) {
    clmem_buffer b;
#if CLMEM__GNU && defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
    /* Written as four 16-byte pairs: the caller copies the returned handle with 16-byte
       loads (gcc and clang do, where the result goes to a variable whose address is
       taken), and each load is then served from one store. Field by field, three of
       the four loads spanned two stores and stalled (store forwarding): 31 instead of
       21 ns a pair in bench/pool_bench's main loop. */
    typedef uint64_t clmem__u64x2 __attribute__((vector_size(16)));
    const clmem__u64x2 v[4] = {{(uint64_t)(uintptr_t)blk->ptr, (uint64_t)(uintptr_t)p->context},
                               {(uint64_t)size, (uint64_t)p->flags},
                               {(uint64_t)(uintptr_t)blk->ptr, 0},
                               {(uint64_t)(uintptr_t)blk, blk->owner.gen}};
    memcpy(&b, v, sizeof b);
#else
    b.mem = CLMEM__CAST(cl_mem, blk->ptr);
    b.context = p->context;
    b.size = size;
    b.flags = p->flags;
    b.root = b.mem;
    b.origin = 0;
    b.pool = clmem__unconst(blk);
    b.generation = blk->owner.gen;
#endif
    return b;
}

/* queue: the queue the block is for (on_queue), or NULL for the host. Always inlined:
   the plain allocate is then the fast path alone (bench/pool_bench.c) */
CLMEM__INLINE clmem_buffer clmem__memory_pool_allocate(clmem_memory_pool *pool, size_t size, bool on_queue,
                                                       cl_command_queue queue, cl_int *errcode_ret, const char *fn,
                                                       const char *file, int line) {
    clmem__pool_block *blk = NULL;
    if (CLMEM__CHECKS && pool == NULL) {
        clmem__set_err(errcode_ret, clmem__pool_null(fn));
        return clmem__buffer_empty();
    }
    if (clmem__pool_get_checked(&pool->core, size, on_queue, queue, fn, file, line, errcode_ret, &blk) != CL_SUCCESS)
        return clmem__buffer_empty();
    return clmem__pool_handle(&pool->core, blk, size);
}

CLMEM__POOL_ALLOCATE(memory_pool, clmem_buffer, clmem__memory_pool_allocate)

CLMEM_API cl_int clmem_pooled_buffer_enqueue_release(clmem_buffer *buf, cl_command_queue queue) {
    static const char fn[] = "clmem_pooled_buffer_enqueue_release";
    cl_int err;
    bool ooo = false;
    if (!buf || !buf->mem) return CL_SUCCESS;
    if (CLMEM__CHECKS && !buf->pool)
        return clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                           "buffer %p is not a pooled buffer (release it with clmem_buffer_release)",
                           (void *)buf->mem);
    err = clmem__pool_check_release_queue(CLMEM__CAST(clmem__pool_block *, buf->pool), buf->generation, queue, fn, &ooo);
    if (err != CL_SUCCESS) return err;
    return clmem__pool_give_back(buf, sizeof *buf, buf->pool, buf->generation, buf->mem, buf->size, queue, ooo, fn);
}

CLMEM_API clmem_memory_pool *clmem_pooled_buffer_pool(clmem_buffer buf) {
    if (!buf.mem) return NULL;
    return CLMEM__CAST(clmem_memory_pool *,
                       (void *)clmem__pool_of_live(buf.pool, buf.generation, &clmem__pool_buffer_backend));
}

CLMEM__POOL_COMMON(memory_pool)
