/* >>usm_pool: pools of USM memory (clmem_usm_pool), the pool core with a USM backend */
#include "base.h"
#include "usm.h"
#include "pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   USM POOLS

   A clmem_usm_pool is to USM what a clmem_memory_pool is to buffers: released blocks
   are kept in bins and handed out again, with the same bins, accounting, limits,
   out-of-memory stages, threads and stale-handle rules (see ALLOCATORS AND MEMORY
   POOLS in >>pool), and the same queue order: a block released with
   clmem_pooled_usm_enqueue_release(&p, q) is reused at once by
   clmem_usm_pool_allocate_on_queue(pool, n, q, &err) on that in-order queue, behind a
   marker by another queue, and by the host (clmem_usm_pool_allocate) once q got
   there. A plain release (clmem_pooled_usm_release) means nothing uses the block any
   more. Blocks are freed with clMemBlockingFreeINTEL.

       clmem_usm_pool *up = clmem_usm_pool_create(ctx, dev, CL_MEM_TYPE_DEVICE_INTEL, 0,
                                                  CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
       clmem_pooled_usm p = clmem_usm_pool_allocate_on_queue(up, 4096, q, &err);
       clmem_set_kernel_arg(k, 0, p.usm);  ... enqueue k on q ...
       clmem_pooled_usm_enqueue_release(&p, q);
       clmem_usm_pool_release(up);
   --------------------------------------------------------------------------------- */

/** A block of a USM pool. `.usm` is its pointer, the size asked for, its type and
    context; its private `pool` and `generation` name the block and this hand-out, so a
    stale copy is caught: released twice it is CLMEM_ERROR_DOUBLE_RELEASE, its `.usm`
    given to a copy, fill, migration or kernel argument is CL_INVALID_VALUE ("a stale
    pooled USM handle"). Release with clmem_pooled_usm_release or clmem_release(&p). */
typedef struct clmem_pooled_usm {
    clmem_usm usm;
} clmem_pooled_usm;

/** A pool of USM blocks (opaque). */
typedef struct clmem_usm_pool clmem_usm_pool;

/** clmem_usm_pool_create(context, device, type, alignment, leading_bits_in_bin_id, &err):
    an empty pool whose blocks come from clmem_usm_allocation_create's call for `type`
    with `device`, `alignment` and no properties (same rules: host memory takes no
    device, device memory needs one). leading_bits_in_bin_id: as for
    clmem_memory_pool_create (CLMEM_POOL_DEFAULT_LEADING_BITS). The pool retains the
    context. Returns NULL on failure with *errcode_ret: those of
    clmem_usm_allocation_create but for the size, CL_INVALID_VALUE (leading bits above
    CLMEM_POOL_MAX_LEADING_BITS), CL_OUT_OF_HOST_MEMORY. Thread safety: any thread.
    Example: clmem_usm_pool *up = clmem_usm_pool_create(ctx, NULL, CL_MEM_TYPE_HOST_INTEL, 0, 4, &err); */
CLMEM_API clmem_usm_pool *clmem_usm_pool_create(cl_context context, cl_device_id device,
                                                cl_unified_shared_memory_type_intel type, cl_uint alignment,
                                                unsigned leading_bits_in_bin_id, cl_int *errcode_ret);

/** clmem_usm_pool_allocate(pool, size, &err): a block of at least `size` bytes (its
    handle says `size`); 0 takes a 1-byte block as the buffer pools do. Returns an
    empty handle on failure with *errcode_ret: CL_INVALID_VALUE (pool NULL),
    CL_MEM_OBJECT_ALLOCATION_FAILURE (the driver's out-of-memory after the pool's
    stages), CLMEM_ERROR_LIMIT_EXCEEDED, or the driver's code.
    clmem_usm_pool_allocate_at(pool, size, &err, file, line) records where (see
    CLMEM_TRACK_ALLOCATIONS). */
/** clmem_usm_pool_allocate_on_queue(pool, size, queue, &err): a block for work on
    `queue` (a block released on that in-order queue is reused at once). Errors: those
    of clmem_usm_pool_allocate, CL_INVALID_COMMAND_QUEUE (NULL or invalid queue),
    CL_INVALID_CONTEXT (queue of another context). _at: records file and line. */
CLMEM__POOL_ALLOCATE_DECLS(usm_pool, clmem_pooled_usm)

/** clmem_pooled_usm_release(&p): give the block back to its pool (nothing on any
    queue uses it any more) and empty the handle. CL_SUCCESS also for an empty
    handle; CLMEM_ERROR_DOUBLE_RELEASE for a copy of a handle already released. */
CLMEM_API cl_int clmem_pooled_usm_release(clmem_pooled_usm *p);

/** clmem_pooled_usm_enqueue_release(&p, queue): give the block back once `queue` gets
    past the work enqueued so far (like cudaFreeAsync), and empty the handle.
    Errors: CL_INVALID_COMMAND_QUEUE (queue NULL or invalid), CL_INVALID_CONTEXT (queue
    of another context), CLMEM_ERROR_DOUBLE_RELEASE, a failed CL_QUEUE_PROPERTIES
    query's code. Example: clmem_pooled_usm_enqueue_release(&p, q); */
CLMEM_API cl_int clmem_pooled_usm_enqueue_release(clmem_pooled_usm *p, cl_command_queue queue);

/** The USM pool's accounting, statistics, limits, leak list and release: as the
    buffer pool's (clmem_memory_pool_held_blocks ... _release: held blocks are freed,
    CLMEM_ERROR_IN_USE while blocks are active). */
CLMEM__POOL_DECLS(usm_pool)

#ifdef __cplusplus
}
#endif
