/* >>peer_pool (implementation): the peer backend of the pool core */
#include "peer_pool.h"

struct clmem_peer_pool { clmem__pool core; };

/* a block of `size` bytes (a bin's size; the top bin of CLMEM_PEER_BUFFER_MAX is
   larger, and every request it serves is at most the maximum) */
static cl_int clmem__peer_pool_make(void *user, size_t size, void **ptr, void **mem) {
    cl_int err = CL_SUCCESS;
    (void)mem;
    if (size > CLMEM_PEER_BUFFER_MAX) size = CLMEM_PEER_BUFFER_MAX;
    *ptr = clmem__peer_buffer_new("clmem_peer_pool_allocate", CLMEM__CAST(const clmem__peer_home *, user), size, true,
                                  &err);
    return err;
}

/* a block released on a queue is waited for; then its views and its CUDA memory go */
static void clmem__peer_pool_free(void *user, clmem__pool_block *blk) {
    cl_int err;
    (void)user;
    if (blk->pending && blk->queue) clmem__pool_wait_queue(blk->queue);
    err = clmem__peer_buffer_free("clmem_peer_pool", CLMEM__CAST(clmem_peer_buffer *, blk->ptr));
    if (err != CL_SUCCESS)
        clmem__warn("clmem_peer_pool", "freeing a block failed with %s (%d): %s", clmem_error_string(err), (int)err,
                    clmem_last_error_message());
}

/* the backend's state is where blocks are made, the pool's copy of what
   clmem__peer_check_home found (clmem__pool_with_facts); the pool holds the context */
static const clmem__pool_backend clmem__peer_pool_backend = {clmem__peer_pool_make, clmem__peer_pool_free, NULL, NULL,
                                                             false};

CLMEM_API clmem_peer_pool *clmem_peer_pool_create(cl_context context, cl_device_id home,
                                                  unsigned leading_bits_in_bin_id, cl_int *errcode_ret) {
    static const char fn[] = "clmem_peer_pool_create";
    clmem__peer_home at = CLMEM__ZERO;
    cl_int err;
    if (!context) err = clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
    else if (!home) err = clmem__fail(CL_INVALID_DEVICE, fn, "home is NULL");
    else if ((err = clmem__pool_check_bits(fn, leading_bits_in_bin_id)) == CL_SUCCESS)
        err = clmem__peer_check_home(fn, context, home, &at);
    if (err != CL_SUCCESS) return CLMEM__CAST(clmem_peer_pool *, clmem__null_with(errcode_ret, err));
    return CLMEM__CAST(clmem_peer_pool *, (void *)clmem__pool_with_facts(fn, leading_bits_in_bin_id,
                                                                         &clmem__peer_pool_backend, &at, sizeof at,
                                                                         context, NULL, errcode_ret));
}

/* a request above CLMEM_PEER_BUFFER_MAX */
static inline cl_int clmem__peer_pool_check(const clmem_peer_pool *pool, size_t size, const char *fn) {
    (void)pool;
    return clmem__peer_check_size(fn, size, "blocks");
}

/* the handle of a block just handed out */
static inline clmem_pooled_peer clmem__pooled_peer_handle(const clmem_peer_pool *pool, clmem__pool_block *blk,
                                                          size_t size) {
    clmem_pooled_peer r;
    (void)pool;
    r.peer = CLMEM__CAST(clmem_peer_buffer *, blk->ptr);
    r.size = size;
    r.pool = CLMEM__CAST(void *, blk);
    r.generation = clmem__pool_generation(blk);
    return r;
}

CLMEM__POOL_KIND_ALLOCATE(peer_pool, clmem_pooled_peer, clmem__peer_pool_check, clmem__pooled_peer_handle)

CLMEM__POOL_COMMON(peer_pool)

CLMEM_API clmem_buffer clmem_pooled_peer_view(clmem_pooled_peer p, cl_command_queue queue, cl_int *errcode_ret) {
    static const char fn[] = "clmem_pooled_peer_view";
    clmem_buffer buf = clmem__buffer_empty();
    clmem__pool_block *blk = p.pool ? clmem__pool_live(p.pool, p.generation) : NULL;
    cl_int err;
    if (!p.pool)
        err = clmem__fail(CL_INVALID_MEM_OBJECT, fn, "p is an empty or released pooled peer handle");
    else if (!blk)
        err = clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                          "p is a stale pooled peer handle: its block was released (it may belong to another owner "
                          "now)");
    else if ((err = clmem__peer_view_for(fn, CLMEM__CAST(clmem_peer_buffer *, blk->ptr), queue, &buf)) == CL_SUCCESS)
        buf.size = p.size;
    clmem__set_err(errcode_ret, err);
    return buf;
}

/* the release of a block, plain or on a queue (on_queue): the hand-out's views go
   stale (clmem__peer_restamp) while the block is still the handle's, then it goes
   back */
static cl_int clmem__pooled_peer_put(clmem_pooled_peer *p, bool on_queue, cl_command_queue queue, const char *fn) {
    clmem__pool_block *blk;
    cl_int err;
    bool ooo = false;
    if (!p || !p->pool) return CL_SUCCESS;
    blk = CLMEM__CAST(clmem__pool_block *, p->pool);
    if (on_queue && (err = clmem__pool_check_release_queue(blk, p->generation, queue, fn, &ooo)) != CL_SUCCESS)
        return err;
    if (clmem__pool_live(blk, p->generation)) clmem__peer_restamp(CLMEM__CAST(clmem_peer_buffer *, blk->ptr));
    return clmem__pool_give_back(p, sizeof *p, p->pool, p->generation, p->peer, p->size, queue, ooo, fn);
}

CLMEM_API cl_int clmem_pooled_peer_release(clmem_pooled_peer *p) {
    return clmem__pooled_peer_put(p, false, NULL, "clmem_pooled_peer_release");
}

CLMEM_API cl_int clmem_pooled_peer_enqueue_release(clmem_pooled_peer *p, cl_command_queue queue) {
    return clmem__pooled_peer_put(p, true, queue, "clmem_pooled_peer_enqueue_release");
}
