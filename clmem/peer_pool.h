/* >>peer_pool: pools of peer memory (clmem_peer_pool), the pool core with a peer backend:
   peer buffers allocated in a loop at pool speed */
#include "base.h"
#include "buffer.h"
#include "pool.h"
#include "peer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   PEER POOLS

   A clmem_peer_pool is to peer memory (>>peer) what a clmem_memory_pool is to buffers:
   peer buffers on one home device, kept in bins when released and handed out again,
   with the same bins, accounting, limits (clmem_peer_pool_set_limit, _set_keep_free),
   out-of-memory stages, threads and stale-handle rules (see ALLOCATORS AND MEMORY
   POOLS in >>pool), and the same queue order: a block released with
   clmem_pooled_peer_enqueue_release(&p, q) is reused at once by
   clmem_peer_pool_allocate_on_queue(pool, n, q, &err) on that in-order queue, behind a
   marker by another queue, and by the host (clmem_peer_pool_allocate) once q got
   there. A block keeps its views, so a block handed out again costs no CUDA
   allocation, no import and no acquire.

       clmem_peer_pool *pp = clmem_peer_pool_create(ctx, dev0, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
       for (...) {
           clmem_pooled_peer p = clmem_peer_pool_allocate_on_queue(pp, n, q0, &err);
           clmem_buffer v = clmem_pooled_peer_view(p, q0, &err);   GPU 0's memory, for q0
           ... kernels on q0 with v, clmem_device_link_copy(l, v1, v) to GPU 1 ...
           clmem_pooled_peer_enqueue_release(&p, q0);             free once q0 gets there
       }
       clmem_peer_pool_release(pp);

   Views: clmem_pooled_peer_view(p, queue, &err) is the block's view for the queue's
   device (made and acquired at the block's first use on that device, then kept with
   the block), a clmem_buffer of the size asked for (its cl_mem has the block's size,
   see BINS in >>pool) for the calls of that device and for device links (GPU to GPU
   as any peer buffer's). The views of a hand-out go stale with its release: a copy,
   fill, map or kernel argument given one is refused (CL_INVALID_MEM_OBJECT, "a stale
   pooled buffer handle"), as is the pooled handle (clmem_pooled_peer_view:
   CL_INVALID_MEM_OBJECT; released again: CLMEM_ERROR_DOUBLE_RELEASE). Two threads
   releasing copies of one handle at once while the pool does not hold (released,
   stop_holding) are not caught: that double bug may touch the freed block.

   Blocks: a block has its bin's size (at most CLMEM_PEER_BUFFER_MAX), which CUDA
   rounds up to its granularity (2 MiB on H100/H200); managed bytes count the bins'
   sizes. Held blocks keep their views imported, so they count toward
   CLMEM_PEER_IMPORT_LIMIT (clmem_peer_pool_free_held gives them back). Freeing a block
   (free_held, out of memory, the pool's release) waits for the queue it was released
   on, releases its views (each on the queue that acquired it, which is finished) and
   its CUDA memory.

   What it takes: what clmem_peer_buffer_create takes (libcuda, the home device a CUDA
   GPU with cl_khr_external_memory_opaque_fd); elsewhere (PoCL, Oclgrind, AMD, Intel)
   clmem_peer_pool_create refuses with CL_INVALID_OPERATION saying what is missing.
   --------------------------------------------------------------------------------- */

/** A block of a peer pool. `peer` is the block's peer buffer (for
    clmem_peer_buffer_home and clmem_peer_buffer_fd; its pool frees it:
    clmem_peer_buffer_release refuses it), `size` the bytes asked for; its private
    `pool` and `generation` name the block and this hand-out, so a stale copy is
    caught. Views: clmem_pooled_peer_view. Release with clmem_pooled_peer_release,
    clmem_pooled_peer_enqueue_release or clmem_release(&p). Treat as read-only. */
typedef struct clmem_pooled_peer {
    clmem_peer_buffer *peer; /* the block's peer buffer; NULL for an empty handle */
    size_t size;             /* bytes asked for */
    void *pool;              /* private: the block's record */
    uint64_t generation;     /* private: which hand-out of the block this is */
} clmem_pooled_peer;

/** A pool of peer buffers on one home device (opaque). */
typedef struct clmem_peer_pool clmem_peer_pool;

/** clmem_peer_pool_create(context, home, leading_bits_in_bin_id, &err): an empty pool
    whose blocks are peer buffers of home's memory (as clmem_peer_buffer_create's),
    usable by every device of the context through their views.
    leading_bits_in_bin_id: as for clmem_memory_pool_create
    (CLMEM_POOL_DEFAULT_LEADING_BITS). The pool retains the context. Returns NULL on
    failure with *errcode_ret:
      CL_INVALID_CONTEXT     context NULL
      CL_INVALID_DEVICE      home NULL or not a device of the context
      CL_INVALID_VALUE       leading bits above CLMEM_POOL_MAX_LEADING_BITS
      CL_INVALID_OPERATION   no libcuda, no CUDA device with home's UUID, home lacks
                             cl_khr_external_memory_opaque_fd or cl_khr_device_uuid (said
                             in words, as clmem_peer_buffer_create says it)
      CL_OUT_OF_HOST_MEMORY
    Thread safety: any thread.
    Example: clmem_peer_pool *pp = clmem_peer_pool_create(ctx, dev, 4, &err); */
CLMEM_API clmem_peer_pool *clmem_peer_pool_create(cl_context context, cl_device_id home,
                                                  unsigned leading_bits_in_bin_id, cl_int *errcode_ret);

/** clmem_peer_pool_allocate(pool, size, &err): a block of at least `size` bytes (its
    handle says `size`); 0 takes a 1-byte block as the buffer pools do. Returns an
    empty handle on failure with *errcode_ret:
      CL_INVALID_VALUE        pool NULL
      CL_INVALID_BUFFER_SIZE  size above CLMEM_PEER_BUFFER_MAX (named)
      CL_MEM_OBJECT_ALLOCATION_FAILURE  CUDA failed to make a block (out of memory, or
                              another failure) after the pool's out-of-memory stages;
                              the message names what it reported
      CLMEM_ERROR_LIMIT_EXCEEDED  the pool's limit or keep-free could not be kept
      or the code of another failure (named). Thread safety: any thread.
    clmem_peer_pool_allocate_at(pool, size, &err, file, line) records where (see
    CLMEM_TRACK_ALLOCATIONS). */
/** clmem_peer_pool_allocate_on_queue(pool, size, queue, &err): a block for work on
    `queue` (a block released on that in-order queue is reused at once, one pending on
    another queue behind a marker `queue` waits for). Errors: those of
    clmem_peer_pool_allocate, CL_INVALID_COMMAND_QUEUE (NULL or invalid queue),
    CL_INVALID_CONTEXT (queue of another context), the driver's code from the marker.
    _at: records file and line. Thread safety: any thread.
    Example: clmem_pooled_peer p = clmem_peer_pool_allocate_on_queue(pp, n, q, &err); */
CLMEM__POOL_ALLOCATE_DECLS(peer_pool, clmem_pooled_peer)

/** clmem_pooled_peer_view(p, queue, &err): the block's view for the queue's device,
    made and acquired at the block's first use on that device (see PEER POOLS), its
    size p.size; valid until p is released. Releasing the view handle
    (clmem_buffer_release) drops that copy only. An empty handle on failure with
    *errcode_ret:
      CL_INVALID_MEM_OBJECT     p empty, released, or a stale copy (its block was released)
      CL_INVALID_COMMAND_QUEUE  queue NULL or invalid;  CL_INVALID_CONTEXT  another context
      CL_INVALID_OPERATION      the device lacks cl_khr_external_memory_opaque_fd (named)
      CL_MEM_OBJECT_ALLOCATION_FAILURE  the import would pass CLMEM_PEER_IMPORT_LIMIT
      or the driver's code (named). Thread safety: any thread.
    Example: clmem_buffer v = clmem_pooled_peer_view(p, q, &err); */
CLMEM_API clmem_buffer clmem_pooled_peer_view(clmem_pooled_peer p, cl_command_queue queue, cl_int *errcode_ret);

/** clmem_pooled_peer_release(&p): give the block back to its pool (nothing on any
    queue uses it any more) and empty the handle; its views go stale. CL_SUCCESS also
    for an empty handle or NULL; CLMEM_ERROR_DOUBLE_RELEASE for a copy of a handle
    already released. Thread safety: any thread. */
CLMEM_API cl_int clmem_pooled_peer_release(clmem_pooled_peer *p);

/** clmem_pooled_peer_enqueue_release(&p, queue): give the block back once `queue` gets
    past the work enqueued so far (like cudaFreeAsync), and empty the handle; its
    views go stale for later calls (work already enqueued may use them). An empty
    handle or NULL: CL_SUCCESS (the queue is not looked at). Errors:
    CL_INVALID_COMMAND_QUEUE (queue NULL or invalid), CL_INVALID_CONTEXT (queue of
    another context), CLMEM_ERROR_DOUBLE_RELEASE, a failed CL_QUEUE_PROPERTIES query's
    code. Thread safety: any thread. Example: clmem_pooled_peer_enqueue_release(&p, q); */
CLMEM_API cl_int clmem_pooled_peer_enqueue_release(clmem_pooled_peer *p, cl_command_queue queue);

/** The peer pool's accounting, statistics, limits, leak list and release: as the
    buffer pool's (clmem_memory_pool_held_blocks ... _release: held blocks are freed,
    CLMEM_ERROR_IN_USE while blocks are active). */
CLMEM__POOL_DECLS(peer_pool)

#ifdef __cplusplus
}
#endif
