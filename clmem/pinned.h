/* >>pinned: pinned (page-locked) host memory and a pinned host pool (beyond PyOpenCL,
   which has none; CUDA's cudaMallocHost, Boost.Compute's pinned_allocator) */
#include "base.h"
#include "pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   PINNED HOST MEMORY

   A GPU copies to and from page-locked ("pinned") host memory by DMA at full bus
   speed; from ordinary (pageable) malloc memory the driver first copies through a
   pinned bounce buffer of its own, at a fraction of that speed (measured on an H100
   over PCIe: 10-12 GB/s pageable, 37-55 GB/s pinned). OpenCL has no call for pinned
   memory; the portable way, the one NVIDIA's and AMD's guides give, is a buffer made
   with CL_MEM_ALLOC_HOST_PTR and mapped: the mapped pointer is pinned host memory.

   A clmem_pinned_allocation is such a buffer, mapped once when it is made and kept
   mapped until it is released. Its `ptr` is a plain host pointer: read and write it
   from the host, and pass it to clmem_enqueue_copy as the host side of a transfer:
       clmem_pinned_allocation h = clmem_pinned_allocation_create(q, n, 0, &err);
       memcpy(h.ptr, data, n);                     (or produce the data there)
       clmem_enqueue_copy(q, buf, h.ptr, .byte_count = n);   (DMA at pinned speed)
       clmem_pinned_allocation_release(&h);
   That copy is exactly clEnqueueWriteBuffer with the pinned pointer, the raw pinned
   path: clmem adds no cost for pinned memory and none for pageable memory.

   Pinned memory is a scarce resource (it cannot be paged out): allocating it is slow
   (clCreateBuffer plus a blocking map; milliseconds for large sizes) and too much of
   it slows the whole system. Allocate it once and reuse it, or take it from a
   clmem_pinned_pool, which keeps released blocks for reuse as the buffer pools do.

   The queue an allocation is made with maps it (blocking: it waits for the work
   already in an in-order queue) and unmaps it at release; the allocation keeps a
   reference to it. Release an allocation only after the transfers that use its
   memory are complete (as with any host memory given to a non-blocking transfer).
   --------------------------------------------------------------------------------- */

/** Pinned host memory (clmem_pinned_allocation_create, clmem_pinned_pool_allocate).
    Fields (read them directly, treat them as read-only):
      ptr         the host memory, mapped for the allocation's lifetime; NULL for an
                  empty handle (size 0, or released). Aligned as the driver maps
                  (at least 64 bytes on every implementation clmem knows; not promised).
      size        the bytes asked for (a pooled block may have more behind it)
      mem         the CL_MEM_ALLOC_HOST_PTR buffer whose mapping ptr is. It stays
                  mapped: do not use it in kernels or copies (OpenCL leaves a mapped
                  object's device use undefined); it is here for queries and for
                  keeping it alive (clRetainMemObject) beyond the allocation.
      pool, generation
                  private: the memory's record and which hand-out of it this is (as
                  in pooled buffers), so that a released handle, or a copy of it, is
                  recognised, also after the memory was handed out again.
    An all-zero handle is empty; releasing it is a no-op. */
typedef struct clmem_pinned_allocation {
    void *ptr;
    size_t size;
    cl_mem mem;
    void *pool;
    uint64_t generation;
} clmem_pinned_allocation;

/** clmem_pinned_allocation_create(queue, size, flags, &err): `size` bytes of pinned
    host memory: a buffer of flags | CL_MEM_ALLOC_HOST_PTR mapped for reading and
    writing on `queue` (blocking) and kept mapped until released.
    - queue: a command queue; it maps and (at release) unmaps the memory and is
      retained until then. Its device decides the size limit.
    - size: bytes; 0 gives an empty allocation (ptr NULL, nothing allocated, nothing
      retained) whose release is a no-op. At most CL_DEVICE_MAX_MEM_ALLOC_SIZE.
    - flags: the device's access, 0 (CL_MEM_READ_WRITE), CL_MEM_READ_WRITE,
      CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY; CL_MEM_ALLOC_HOST_PTR may be given and is
      always added. The host always reads and writes the memory, so the HOST_* flags
      and USE_HOST_PTR/COPY_HOST_PTR are refused.
    Returns the allocation; on failure an empty handle and *errcode_ret (may be NULL):
    CL_INVALID_COMMAND_QUEUE (NULL or invalid queue), CL_INVALID_VALUE (flags above:
    the message names them), CL_INVALID_BUFFER_SIZE (size above the device's
    CL_DEVICE_MAX_MEM_ALLOC_SIZE), CL_OUT_OF_HOST_MEMORY, or the driver's code from
    clCreateBuffer or clEnqueueMapBuffer (with the call named).
    Thread safety: any thread.
    Example: clmem_pinned_allocation h = clmem_pinned_allocation_create(q, 1 << 20, 0, &err); */
CLMEM_API clmem_pinned_allocation clmem_pinned_allocation_create(cl_command_queue queue, size_t size,
                                                                 cl_mem_flags flags, cl_int *errcode_ret);

/** clmem_pinned_allocation_release(&a): give the memory back and empty the handle
    (ptr, size, mem become 0; the identity is kept, so that a second release of the
    same handle, or of any copy of it, is recognised). A pooled block goes back to its
    pool (or, when the pool no longer holds blocks, is freed; the last block of a
    released pool takes the pool with it); any other allocation is
    unmapped on its queue (clEnqueueUnmapMemObject, flushed, not waited for) and its
    buffer released. Returns CL_SUCCESS (also for a NULL pointer, an all-zero or a
    zero-size handle), CLMEM_ERROR_DOUBLE_RELEASE (already released, through this handle
    or a copy: nothing is done), or the driver's code from the unmap (the buffer is
    released all the same). Thread safety: any thread; releasing one allocation from
    two threads at once reports the second as a double release. */
CLMEM_API cl_int clmem_pinned_allocation_release(clmem_pinned_allocation *a);

/** clmem_pinned_allocation_enqueue_release(&a, queue): release the memory once
    `queue` gets past this point (cudaFreeAsync; as clmem_pooled_buffer_enqueue_release):
    transfers already enqueued on queue may still read or write it; the handle is
    emptied at once (its identity kept, as by clmem_pinned_allocation_release). A
    pooled block goes back to its pool, reused at once by an allocation on the same
    in-order queue (clmem_pinned_pool_allocate_on_queue), behind a marker on another
    queue, and by the host (clmem_pinned_pool_allocate) only after the queue's work
    up to here is done (see QUEUE ORDER in >>pool). Any other allocation is unmapped
    after that work (a marker on queue, the unmap waiting for it; not waited for).
    An empty handle: CL_SUCCESS. Errors: CL_INVALID_COMMAND_QUEUE (queue NULL or
    invalid), CL_INVALID_CONTEXT (queue of another context than the pool's),
    CLMEM_ERROR_DOUBLE_RELEASE (already released, through this handle or a copy), a
    failed queue query's code, or the driver's code from the unmap. Any thread.
    Example: clmem_pinned_allocation_enqueue_release(&h, q); */
CLMEM_API cl_int clmem_pinned_allocation_enqueue_release(clmem_pinned_allocation *a, cl_command_queue queue);

/* ---------------------------------------------------------------------------------
   PINNED HOST POOLS

   A clmem_pinned_pool is to pinned host memory what a clmem_memory_pool is to
   buffers: the same pool (the pool core of >>pool with a backend that makes a mapped
   CL_MEM_ALLOC_HOST_PTR buffer per block), so the same bins, shards, accounting,
   statistics, limit, out-of-memory policy, stale-handle generations, queue order,
   thread safety and release rules (see ALLOCATORS AND MEMORY POOLS in >>pool), the
   same leading_bits_in_bin_id and the same clmem_pool_stats, clmem_pool_bin_info and
   clmem_pool_block_info:
       clmem_pinned_pool *pp = clmem_pinned_pool_create(q, 0, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
       clmem_pinned_allocation h = clmem_pinned_pool_allocate(pp, n, &err);
       ... h.ptr is pinned host memory of n bytes ...
       clmem_pinned_allocation_release(&h);        (back into the pool)
       clmem_pinned_pool_release(pp);
   Differences: the pool has no allocator object (it makes its blocks itself, as
   clmem_pinned_allocation_create does, with the pool's queue and flags), so there is
   no try_release_blocks hook; the out-of-memory policy is otherwise the same (free
   held blocks from the highest bin down, then the callback, then
   CL_MEM_OBJECT_ALLOCATION_FAILURE, or CLMEM_ERROR_LIMIT_EXCEEDED for the limit).
   A request of 0 bytes takes a real 1-byte block (bin 0) whose handle has size 0,
   as the buffer pools do. A hit costs a lock and no driver call; a miss costs a
   clCreateBuffer and a blocking map on the pool's queue. QUEUE ORDER: memory a
   transfer on queue q still uses is released with
   clmem_pinned_allocation_enqueue_release(&h, q); the host gets that block again only
   after q's work up to the release is done, q itself at once
   (clmem_pinned_pool_allocate_on_queue(pool, n, q, &err)):
       clmem_pinned_allocation h = clmem_pinned_pool_allocate_on_queue(pp, n, q, &err);
       clmem_enqueue_copy(q, buf, h.ptr, .byte_count = n, .is_blocking = false);
       clmem_pinned_allocation_enqueue_release(&h, q);   (no wait)
   --------------------------------------------------------------------------------- */

/** A pool of pinned host memory (opaque). */
typedef struct clmem_pinned_pool clmem_pinned_pool;

/** clmem_pinned_pool_create(queue, flags, leading_bits_in_bin_id, &err): an empty
    pool whose blocks are made on `queue` (retained) with `flags` (as
    clmem_pinned_allocation_create takes them). leading_bits_in_bin_id:
    0..CLMEM_POOL_MAX_LEADING_BITS (CLMEM_POOL_DEFAULT_LEADING_BITS is PyOpenCL's 4).
    Errors: CL_INVALID_COMMAND_QUEUE (NULL or invalid queue), CL_INVALID_VALUE (flags,
    leading bits above the maximum), CL_OUT_OF_HOST_MEMORY. Any thread.
    Example: clmem_pinned_pool *pp = clmem_pinned_pool_create(q, 0, 4, &err); */
CLMEM_API clmem_pinned_pool *clmem_pinned_pool_create(cl_command_queue queue, cl_mem_flags flags,
                                                      unsigned leading_bits_in_bin_id, cl_int *errcode_ret);

/** clmem_pinned_pool_allocate(pool, size, &err): pinned host memory of `size` bytes
    from the pool. The handle's size is `size`; its block has
    clmem_alloc_size(L, clmem_bin_number(L, size)) bytes. Contents are whatever the
    block last held. Release it with clmem_pinned_allocation_release. On failure an
    empty handle and *errcode_ret: CL_INVALID_VALUE (pool NULL),
    CL_INVALID_BUFFER_SIZE (the block would be above the device's
    CL_DEVICE_MAX_MEM_ALLOC_SIZE), CL_MEM_OBJECT_ALLOCATION_FAILURE (out of memory after
    the policy above), CLMEM_ERROR_LIMIT_EXCEEDED, or the driver's other code.
    Any thread. With CLMEM_TRACK_ALLOCATIONS this is a macro recording __FILE__ and
    __LINE__ ((clmem_pinned_pool_allocate)(...) or _allocate_at call the function). */
/** clmem_pinned_pool_allocate_at(pool, size, &err, file, line): the same, recording
    where the allocation was made (file must outlive the block). */
/** clmem_pinned_pool_allocate_on_queue(pool, size, queue, &err): pinned memory for
    transfers on `queue` (cudaMallocAsync; as clmem_memory_pool_allocate_on_queue): a
    block released on the same in-order queue is reused at once, one still pending on
    another queue is handed out behind a marker `queue` waits for. The host must not
    touch such memory before `queue` got there (use it as the host side of transfers
    enqueued on `queue`). Errors: those of clmem_pinned_pool_allocate,
    CL_INVALID_COMMAND_QUEUE (queue NULL or invalid), CL_INVALID_CONTEXT (queue of
    another context than the pool's), or the driver's code from the marker. Any
    thread. With CLMEM_TRACK_ALLOCATIONS a macro, as allocate.
    Example: clmem_pinned_allocation h = clmem_pinned_pool_allocate_on_queue(pp, n, q, &err); */
/** clmem_pinned_pool_allocate_on_queue_at(...): the same, recording file and line. */
CLMEM__POOL_ALLOCATE_DECLS(pinned_pool, clmem_pinned_allocation)

/** The pinned pool's accounting, statistics, limits, leak list and release: as the
    buffer pool's (clmem_memory_pool_held_blocks ... _release; 0 or CL_INVALID_VALUE
    for a NULL pool). Freeing a held block unmaps and releases it; `ptr` of each
    clmem_pool_block_info entry is the host pointer. clmem_pinned_pool_release drops
    the program's hold on the pool: held blocks are freed, and the pool (with its
    queue reference) goes as soon as no block is active; CLMEM_ERROR_IN_USE while
    blocks are active (they may still be released later, safely, and the pool goes
    with the last), CLMEM_ERROR_DOUBLE_RELEASE for a second release. Any thread. */
CLMEM__POOL_DECLS(pinned_pool)

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of pinned; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* functions (each described where it is defined) */
static cl_int clmem__pinned_queue_facts(const char *fn, cl_command_queue queue, cl_context *ctx, cl_device_id *dev,
                                        cl_ulong *max_alloc);
static cl_int clmem__staging_pays(const char *fn, cl_device_id dev, bool *pays);
static cl_int clmem__pinned_make(cl_command_queue queue, cl_context ctx, cl_mem_flags flags, size_t size, cl_mem *mem,
                                 void **ptr, const char **call);
static cl_int clmem__pinned_unmake(cl_command_queue queue, cl_mem mem, void *ptr);
/* ---- end private ---- */
