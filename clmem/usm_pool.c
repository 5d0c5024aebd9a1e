/* >>usm_pool (implementation): the USM backend of the pool core */
#include "usm_pool.h"

struct clmem_usm_pool { clmem__pool core; };

/* the USM backend's state: how blocks are made */
typedef struct clmem__usm_facts {
    cl_context context; /* retained */
    cl_device_id device;
    cl_unified_shared_memory_type_intel type;
    cl_uint alignment;
    const clmem__usm_fns *fns;
} clmem__usm_facts;

static cl_int clmem__pool_usm_make(void *user, size_t size, void **ptr, void **mem) {
    const clmem__usm_facts *f = CLMEM__CAST(const clmem__usm_facts *, user);
    cl_int err = CL_SUCCESS;
    (void)mem;
    *ptr = clmem__usm_make(f->fns, f->context, f->device, f->type, NULL, size, f->alignment, &err);
    return err;
}

/* clMemBlockingFreeINTEL waits for the commands that use the block */
static void clmem__pool_usm_free(void *user, clmem__pool_block *blk) {
    const clmem__usm_facts *f = CLMEM__CAST(const clmem__usm_facts *, user);
    cl_int err = f->fns->blocking_free(f->context, blk->ptr);
    if (err != CL_SUCCESS)
        clmem__warn("clmem_usm_pool", "clMemBlockingFreeINTEL failed with %s (%d)", clmem_error_string(err), (int)err);
}

/* the pool holds the context and its copy of the facts (clmem__pool_with_facts) */
static const clmem__pool_backend clmem__pool_usm_backend = {clmem__pool_usm_make, clmem__pool_usm_free, NULL, NULL,
                                                            false};

CLMEM_API clmem_usm_pool *clmem_usm_pool_create(cl_context context, cl_device_id device,
                                                cl_unified_shared_memory_type_intel type, cl_uint alignment,
                                                unsigned leading_bits_in_bin_id, cl_int *errcode_ret) {
    static const char fn[] = "clmem_usm_pool_create";
    const clmem__usm_fns *fns = NULL;
    clmem__usm_facts f;
    cl_int err;
    if ((err = clmem__usm_check_alloc(fn, context, device, type, alignment, &fns)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_usm_pool *, clmem__null_with(errcode_ret, err));
    f.context = context;
    f.device = device;
    f.type = type;
    f.alignment = alignment;
    f.fns = fns;
    return CLMEM__CAST(clmem_usm_pool *, (void *)clmem__pool_with_facts(fn, leading_bits_in_bin_id,
                                                                        &clmem__pool_usm_backend, &f, sizeof f,
                                                                        context, NULL, errcode_ret));
}

/* the handle of a block just handed out */
static inline clmem_pooled_usm clmem__pooled_usm_handle(const clmem_usm_pool *pool, clmem__pool_block *blk,
                                                        size_t size) {
    clmem_pooled_usm r;
    r.usm.ptr = blk->ptr;
    r.usm.size = size;
    r.usm.type = CLMEM__CAST(const clmem__usm_facts *, pool->core.user)->type;
    r.usm.context = pool->core.context;
    r.usm.pool = CLMEM__CAST(void *, blk);
    r.usm.generation = clmem__pool_generation(blk);
    return r;
}

CLMEM__POOL_KIND_ALLOCATE(usm_pool, clmem_pooled_usm, clmem__pool_any_size, clmem__pooled_usm_handle)

CLMEM__POOL_COMMON(usm_pool)

/* the release of a block, plain or on a queue (on_queue) */
static cl_int clmem__pooled_usm_put(clmem_pooled_usm *p, bool on_queue, cl_command_queue queue, const char *fn) {
    cl_int err;
    bool ooo = false;
    if (!p || !p->usm.pool) return CL_SUCCESS;
    if (on_queue && (err = clmem__pool_check_release_queue(CLMEM__CAST(clmem__pool_block *, p->usm.pool),
                                                           p->usm.generation, queue, fn, &ooo)) != CL_SUCCESS)
        return err;
    return clmem__pool_give_back(p, sizeof *p, p->usm.pool, p->usm.generation, p->usm.ptr, p->usm.size, queue, ooo, fn);
}

CLMEM_API cl_int clmem_pooled_usm_release(clmem_pooled_usm *p) {
    return clmem__pooled_usm_put(p, false, NULL, "clmem_pooled_usm_release");
}

CLMEM_API cl_int clmem_pooled_usm_enqueue_release(clmem_pooled_usm *p, cl_command_queue queue) {
    return clmem__pooled_usm_put(p, true, queue, "clmem_pooled_usm_enqueue_release");
}
