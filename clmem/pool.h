/* >>pool: allocators and memory pools for buffers and SVM (PyOpenCL's AllocatorBase,
   DeferredAllocator, ImmediateAllocator, MemoryPool, PooledBuffer, SVMAllocator,
   SVMPool, PooledSVM), and the pool core every pool kind shares (buffer, SVM and the
   pinned host pool of >>pinned are backends of it) */
#include "base.h"
#include "device_memory.h"
#include "svm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   ALLOCATORS AND MEMORY POOLS

   An allocator makes device memory; a pool keeps memory the program has released and
   hands it out again, so that allocating per kernel launch costs tens of nanoseconds
   instead of a driver round trip.

       cl_int err;
       clmem_allocator *alloc = clmem_immediate_allocator_create(queue, 0, &err);
       clmem_memory_pool *pool = clmem_memory_pool_create(alloc, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
       clmem_allocator_release(alloc);              (the pool keeps its own reference)
       clmem_buffer b = clmem_memory_pool_allocate(pool, 4096, &err);
       ... use b wherever a clmem_buffer goes ...
       clmem_buffer_release(&b);                    (back into the pool, not to OpenCL)
       clmem_memory_pool_release(pool);

   BINS. A request of `size` bytes is rounded up to the top of its bin: the largest
   size that shares the leading (L+1) significant bits of `size`, L being the pool's
   leading_bits_in_bin_id (PyOpenCL's formula, exactly: 1024 -> 1087, 1000 -> 1023,
   32 -> 33; sizes below 2^L are exact; the waste is below 2^-L of the size, 6.25% at
   L = 4). All blocks of a bin are interchangeable; a released block is reused, last
   in first out, by the next request of the same bin (from the same thread first: see
   THREADS). A request of 0 bytes takes a
   real 1-byte block (bin 0), as in PyOpenCL; its handle has size 0.

   ACCOUNTING (PyOpenCL's names): active blocks are handed out, held blocks wait in
   bins; managed bytes = the rounded sizes of active + held blocks (the device
   memory the pool owns); active bytes = the sizes asked for by the active blocks.

   LIMITS. A pool may refuse to grow (to get a new block from its allocator) on two
   grounds, each handled as out of memory (below): managed bytes past a limit
   (clmem_memory_pool_set_limit), and a device's free memory below a figure to keep
   free (clmem_memory_pool_set_keep_free: clmem_device_memory_info is asked when the
   pool must grow, never when a held block is handed out). Each kind of pool has both
   (clmem_<kind>_set_limit, clmem_<kind>_set_keep_free).

   OUT OF MEMORY. When the allocator reports CL_MEM_OBJECT_ALLOCATION_FAILURE,
   CL_OUT_OF_RESOURCES or CL_OUT_OF_HOST_MEMORY, or one of the pool's limits
   (LIMITS) would be passed, the pool (1) calls the allocator's
   try_release_blocks hook and looks in the bin again, (2) frees held blocks one at a
   time, from the highest bin down, retrying after each, (3) calls the out-of-memory
   callback (clmem_memory_pool_set_oom_callback) for as long as it asks for a retry,
   and then fails with CL_MEM_OBJECT_ALLOCATION_FAILURE (allocator) or
   CLMEM_ERROR_LIMIT_EXCEEDED (a limit or the keep-free; the message says which).
   Any other error of the allocator is returned at once, without retries.

   QUEUE ORDER (cudaMallocAsync / cudaFreeAsync, RMM's stream-ordered pools). A plain
   release (clmem_buffer_release) means "nothing uses this block any more": the next
   allocation of its bin may get it at once, on any queue or the host. A release on a
   queue (clmem_pooled_buffer_enqueue_release(&b, q), like cudaFreeAsync(p, stream))
   means "the block is free once q gets past this point": work already enqueued on q
   may still use it. Such a block is reused
     - at once by an allocation on the same in-order queue
       (clmem_memory_pool_allocate_on_queue(pool, n, q, &err), like cudaMallocAsync):
       q runs its commands in order;
     - by an allocation on another queue (or on q when q is out of order) behind a
       marker: clmem enqueues a marker on q and makes the new queue wait for it
       (clEnqueueBarrierWithWaitList, like cudaStreamWaitEvent); the host does not wait;
     - by an allocation for the host (clmem_memory_pool_allocate) only after that
       marker completed: when the bin has no free block, the host waits for the
       oldest pending one (RMM would allocate fresh; clmem keeps memory bounded).
   Free blocks are preferred to blocks pending on another queue. The marker is
   enqueued when a block changes queue, not at its release, so a release on a queue
   costs no driver call. A pool keeps the queue a block was released on retained
   until the block is reused elsewhere or freed. SVM pools work the same way: an SVM
   block is bound to a queue (its allocator's, clmem_svm_pool_allocate_on_queue's, or
   clmem_pooled_svm_bind_to_queue's) and its plain release is ordered on that queue.
   Pinned host pools work as buffer pools (clmem_pinned_pool_allocate_on_queue,
   clmem_pinned_allocation_enqueue_release). A queue that orders SVM (an SVM
   allocator's, a pooled SVM block's) must be in order: an out-of-order one is
   CL_INVALID_COMMAND_QUEUE. A failed CL_QUEUE_PROPERTIES query returns its code.

   THREADS. Allocators and pools may be used from any number of threads at once; a
   block may be released on another thread than the one that allocated it. A pool is
   split into shards with their own locks and books: a power of two, at least
   CLMEM_POOL_SHARDS (16; define it before including clmem.h in the implementation
   file to change it) and at least the processors online when the pool is made
   (sysconf(_SC_NPROCESSORS_ONLN), GetSystemInfo; clmem_pool_stats.shards says how
   many). Each thread works in one: threads are numbered as they first use any pool,
   and thread k works in shard k mod shards, so up to one thread per processor, started
   together, share no shard. A block
   goes back to the shard that handed it out, so threads that allocate and release
   their own blocks share no lock and no written cache line. A thread whose shard has
   no block of a bin takes one from another shard before calling the allocator. The
   counts (held, active, managed and active bytes, hits, misses) are exact whenever
   no other thread is inside the pool, e.g. once the threads are joined. The peaks
   are exact while a single thread uses the pool; with several threads, each thread
   adds to its own active blocks the others' as they were at its last trip to the
   shared pool (a miss, a block taken from another thread's shard, a peak reset), so
   a peak may miss blocks other threads took since (the counts stay exact).
   The allocator's functions and the callbacks are called without any pool lock
   held, so they may release blocks into the same pool.

   RELEASE TWICE, STALE HANDLES. Releasing a pooled handle empties it. Each hand-out
   of a block has its own generation, carried in the handle with the block's record
   (clmem_buffer's, clmem_svm's and clmem_pinned_allocation's private `pool` and
   `generation`), so releasing a copy of a handle whose block was
   released returns CLMEM_ERROR_DOUBLE_RELEASE and changes nothing, whether the block
   is held, freed, handed out again (to any size), or its pool is gone. Block records
   are never given back to the system (a released pool passes them on to later
   pools), so a stale handle never points at freed memory. Two threads releasing
   copies of one handle at once: exactly one succeeds (unless the pool is being
   released at that very moment and this is its last block: that double bug is not
   caught).

   RELEASING A POOL. clmem_memory_pool_release takes effect at once: held blocks are
   freed, and blocks released later are freed, not held. Blocks still active make it
   return CLMEM_ERROR_IN_USE (with their count); they stay valid, may be used and
   released later from any thread, and the pool's memory goes with the last of them
   (after every release running at that moment has finished). Do not use the pool
   pointer after its release.

   LEAKS. Compile with CLMEM_TRACK_ALLOCATIONS defined (in every file that includes
   clmem.h) and each active block remembers the file and line that allocated it;
   clmem_memory_pool_active_blocks_info lists them and releasing a pool with blocks
   still active logs one warning per block ("4096 bytes allocated at app.c:42").
   --------------------------------------------------------------------------------- */

/** PyOpenCL's default leading_bits_in_bin_id. */
#define CLMEM_POOL_DEFAULT_LEADING_BITS 4
/** The largest leading_bits_in_bin_id a pool accepts. */
#define CLMEM_POOL_MAX_LEADING_BITS 10

/** clmem_bin_number(leading_bits, size): the bin of a request of `size` bytes
    (PyOpenCL's MemoryPool.bin_number): (floor(log2 size) << L) | the L bits after the
    leading 1 of size; 0 for size 0. leading_bits: 0..CLMEM_POOL_MAX_LEADING_BITS
    (larger values are clamped). Pure; any thread.
    Example: clmem_bin_number(4, 1024) == 160. */
CLMEM_API uint32_t clmem_bin_number(unsigned leading_bits, size_t size);

/** clmem_alloc_size(leading_bits, bin): the bytes a block of `bin` really has
    (PyOpenCL's MemoryPool.alloc_size): the largest size whose bin is `bin`; 1 for
    bin 0. For every size s: clmem_alloc_size(L, clmem_bin_number(L, s)) >= s.
    Pure; any thread. Example: clmem_alloc_size(4, 160) == 1087. */
CLMEM_API size_t clmem_alloc_size(unsigned leading_bits, uint32_t bin);

/* ---- buffer allocators (PyOpenCL's AllocatorBase and its kinds) ---- */

/** What an allocator does, as functions of its `user` pointer; fill one in to make
    your own allocator (clmem_allocator_create), e.g. a fake one that fails on demand
    in tests.
    - allocate(user, size, &mem): make a buffer of `size` (> 0) bytes; store it in
      *mem and return CL_SUCCESS, or return an error code (the out-of-memory codes
      CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY make
      a pool free memory and retry). Required.
    - free(user, mem): give a buffer back (e.g. clReleaseMemObject). Required.
    - try_release_blocks(user): free whatever caches you keep (PyOpenCL calls Python's
      garbage collector here); called once on out-of-memory before retrying. Optional.
    - destroy(user): called when the allocator's last reference goes. Optional.
    - is_deferred: true when allocate may succeed for memory that does not exist yet
      (OpenCL's usual lazy allocation); a pool warns about such an allocator. */
typedef struct clmem_allocator_ops {
    cl_int (*allocate)(void *user, size_t size, cl_mem *mem);
    void (*free)(void *user, cl_mem mem);
    void (*try_release_blocks)(void *user);
    void (*destroy)(void *user);
    bool is_deferred;
} clmem_allocator_ops;

/** An allocator of buffers (opaque; PyOpenCL's AllocatorBase). Reference counted:
    clmem_allocator_retain adds a reference, clmem_allocator_release drops one. */
typedef struct clmem_allocator clmem_allocator;

/** clmem_allocator_create(ops, user, context, flags, &err): an allocator that calls
    your functions (see clmem_allocator_ops; ops is copied). context and flags are
    what the buffers it hands out report in their handles (context may be NULL for a
    fake allocator whose buffers are never used). Returns NULL on failure with
    *errcode_ret: CL_INVALID_VALUE (ops NULL, or allocate or free missing),
    CL_OUT_OF_HOST_MEMORY. Thread safety: any thread. */
CLMEM_API clmem_allocator *clmem_allocator_create(const clmem_allocator_ops *ops, void *user, cl_context context,
                                                  cl_mem_flags flags, cl_int *errcode_ret);

/** clmem_deferred_allocator_create(context, flags, &err): buffers made with
    clCreateBuffer(context, flags, size) and nothing else, so running out of memory
    may only show at first use (PyOpenCL's DeferredAllocator). flags: 0 means
    CL_MEM_READ_WRITE. Errors: CL_INVALID_CONTEXT (NULL context), CL_INVALID_VALUE
    (CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR in flags: an allocator has no host
    memory to give), CL_OUT_OF_HOST_MEMORY. The allocator retains the context.
    Example: clmem_allocator *a = clmem_deferred_allocator_create(ctx, 0, &err); */
CLMEM_API clmem_allocator *clmem_deferred_allocator_create(cl_context context, cl_mem_flags flags,
                                                           cl_int *errcode_ret);

/** clmem_immediate_allocator_create(queue, flags, &err): buffers made resident on
    the queue's device at allocation time (PyOpenCL's ImmediateAllocator), so that a
    lack of memory is reported by the allocation itself: after clCreateBuffer it
    writes up to 4 zero bytes on the queue, blocking, so the buffer is ready for any
    queue of the context when handed out; if that fails the buffer is released and the
    error returned. PyOpenCL migrates instead (clEnqueueMigrateMemObjects, OpenCL 1.2+,
    not waited for); NVIDIA's driver 580 crashes when a migration is enqueued onto a
    queue while another thread enqueues onto it, and a pool's threads miss at any
    moment. flags: 0 means
    CL_MEM_READ_WRITE. Errors: CL_INVALID_COMMAND_QUEUE (NULL or invalid queue),
    CL_INVALID_VALUE (USE_HOST_PTR or COPY_HOST_PTR in flags), CL_OUT_OF_HOST_MEMORY.
    The allocator retains the queue. Thread safety: any thread.
    Example: clmem_allocator *a = clmem_immediate_allocator_create(q, CL_MEM_READ_WRITE, &err); */
CLMEM_API clmem_allocator *clmem_immediate_allocator_create(cl_command_queue queue, cl_mem_flags flags,
                                                            cl_int *errcode_ret);

/** clmem_allocator_allocate(alloc, size, &err): a plain (not pooled) buffer of
    `size` bytes from the allocator (PyOpenCL's AllocatorBase.__call__). Size 0 gives
    an empty handle (mem == NULL) and CL_SUCCESS. On an out-of-memory code the
    allocator's try_release_blocks hook runs and the allocation is tried once more.
    Errors: CL_INVALID_VALUE (alloc NULL; an allocator that reported success but gave
    no buffer), or the allocator's code. Release the buffer with clmem_buffer_release.
    Thread safety: any thread. */
CLMEM_API clmem_buffer clmem_allocator_allocate(clmem_allocator *alloc, size_t size, cl_int *errcode_ret);

/** clmem_allocator_is_deferred(alloc): whether the allocator's allocations may fail
    only at first use (false for NULL). */
CLMEM_API bool clmem_allocator_is_deferred(const clmem_allocator *alloc);

/** clmem_allocator_retain(alloc): add a reference (NULL: no-op). Any thread. */
CLMEM_API void clmem_allocator_retain(clmem_allocator *alloc);

/** clmem_allocator_release(alloc): drop a reference; the last one releases the
    context or queue the allocator holds (or calls the custom destroy). Pools hold
    their own reference, so an allocator may be released right after making a pool.
    NULL is a no-op. Returns CL_SUCCESS. Any thread. */
CLMEM_API cl_int clmem_allocator_release(clmem_allocator *alloc);

/* ---- statistics (beyond PyOpenCL) ---- */

/** A pool's counters in one struct (clmem_memory_pool_get_stats,
    clmem_svm_pool_get_stats). "Peak" values are high-water marks since the pool was
    made or clmem_*_pool_reset_peaks was last called. */
typedef struct clmem_pool_stats {
    size_t held_blocks;                /* blocks waiting in bins */
    size_t active_blocks;              /* blocks handed out */
    size_t managed_bytes;              /* rounded bytes of held + active blocks */
    size_t active_bytes;               /* requested bytes of active blocks */
    size_t peak_managed_bytes;
    size_t peak_active_bytes;
    size_t peak_active_blocks;
    unsigned long long allocations;    /* successful hand-outs, hits + misses */
    unsigned long long hits;           /* hand-outs served from a bin */
    unsigned long long misses;         /* hand-outs that needed the allocator */
    unsigned long long allocator_frees;/* blocks given back to the allocator */
    unsigned long long oom_events;     /* requests that met out-of-memory (or the limit) */
    size_t limit;                      /* managed-byte limit, 0 when none */
    size_t keep_free;                  /* bytes of keep_free_device's memory to keep free, 0 when none */
    cl_device_id keep_free_device;     /* the device of keep_free, NULL when none */
    unsigned long long free_queries;   /* clmem_device_memory_info calls for keep_free (one per
                                          attempt to grow while it is set; none for hits) */
    size_t nonempty_bins;              /* bins with held or active blocks */
    size_t shards;                     /* per-thread parts (THREADS): a power of two, at least
                                          CLMEM_POOL_SHARDS and the processors online when the
                                          pool was made */
} clmem_pool_stats;

/** One bin of a pool (clmem_memory_pool_bins). */
typedef struct clmem_pool_bin_info {
    uint32_t bin;              /* bin number */
    size_t alloc_size;         /* bytes of each of its blocks */
    size_t held;               /* blocks of this bin waiting */
    size_t active;             /* blocks of this bin handed out */
} clmem_pool_bin_info;

/** One active block (clmem_memory_pool_active_blocks_info). */
typedef struct clmem_pool_block_info {
    void *ptr;                 /* the block's cl_mem (buffer pools) or SVM pointer */
    size_t size;               /* bytes asked for */
    size_t alloc_size;         /* bytes the block has */
    const char *file;          /* where it was allocated (CLMEM_TRACK_ALLOCATIONS), else NULL */
    int line;                  /* and the line, else 0 */
} clmem_pool_block_info;

/** An out-of-memory callback (clmem_memory_pool_set_oom_callback): `bytes` the
    rounded size that could not be had, `attempt` 1, 2, ... for this request. Return
    true to make the pool try once more (after freeing memory elsewhere), false to
    give up. Called without the pool's lock held; it may release blocks. */
typedef bool (*clmem_pool_oom_fn)(size_t bytes, unsigned attempt, void *user);

/* ---- buffer pools (PyOpenCL's MemoryPool and PooledBuffer) ---- */

/** A pool of buffers (opaque; PyOpenCL's MemoryPool). */
typedef struct clmem_memory_pool clmem_memory_pool;

/** clmem_memory_pool_create(allocator, leading_bits_in_bin_id, &err): an empty pool
    that gets its blocks from `allocator` (it takes a reference). leading_bits_in_bin_id:
    0..CLMEM_POOL_MAX_LEADING_BITS; PyOpenCL's default is
    CLMEM_POOL_DEFAULT_LEADING_BITS (4). A deferred allocator gets a log warning, as
    PyOpenCL warns: out-of-memory would not be seen at allocation, so the pool cannot
    react to it. Errors: CL_INVALID_VALUE (allocator NULL, leading bits above the
    maximum), CL_OUT_OF_HOST_MEMORY. Any thread.
    Example: clmem_memory_pool *p = clmem_memory_pool_create(a, 4, &err); */
CLMEM_API clmem_memory_pool *clmem_memory_pool_create(clmem_allocator *allocator, unsigned leading_bits_in_bin_id,
                                                      cl_int *errcode_ret);

/** clmem_memory_pool_allocate(pool, size, &err): a pooled buffer of `size` bytes
    (PyOpenCL's MemoryPool.allocate and __call__). The handle's size is `size`; its
    cl_mem has clmem_alloc_size(L, clmem_bin_number(L, size)) bytes (what
    CL_MEM_SIZE reports). Release it with clmem_buffer_release (or clmem_release):
    the block goes back to the pool. Contents are whatever the block last held.
    On failure an empty handle and *errcode_ret: CL_INVALID_VALUE (pool NULL),
    CL_MEM_OBJECT_ALLOCATION_FAILURE (out of memory after the policy above),
    CLMEM_ERROR_LIMIT_EXCEEDED (the pool's limit could not be kept), or the allocator's
    other code. Thread safety: any thread.
    With CLMEM_TRACK_ALLOCATIONS this is a macro recording __FILE__ and __LINE__;
    (clmem_memory_pool_allocate)(...) or clmem_memory_pool_allocate_at calls the
    function. */
CLMEM_API clmem_buffer clmem_memory_pool_allocate(clmem_memory_pool *pool, size_t size, cl_int *errcode_ret);
/** clmem_memory_pool_allocate_at(pool, size, &err, file, line): the same, recording
    where the allocation was made (file must be a string that outlives the block). */
CLMEM_API clmem_buffer clmem_memory_pool_allocate_at(clmem_memory_pool *pool, size_t size, cl_int *errcode_ret,
                                                     const char *file, int line);

/** clmem_memory_pool_allocate_on_queue(pool, size, queue, &err): a pooled buffer for
    use on `queue` (cudaMallocAsync): a block released on the same in-order queue is
    reused at once, a block still pending on another queue is handed out behind a
    marker that `queue` waits for (see QUEUE ORDER). Otherwise as
    clmem_memory_pool_allocate. Errors: those of clmem_memory_pool_allocate,
    CL_INVALID_COMMAND_QUEUE (queue NULL or invalid), CL_INVALID_CONTEXT (queue of
    another context than the allocator's), or the driver's code from the marker.
    Thread safety: any thread. With CLMEM_TRACK_ALLOCATIONS a macro, as allocate.
    Example: clmem_buffer t = clmem_memory_pool_allocate_on_queue(pool, n, q, &err); */
CLMEM_API clmem_buffer clmem_memory_pool_allocate_on_queue(clmem_memory_pool *pool, size_t size,
                                                           cl_command_queue queue, cl_int *errcode_ret);
/** clmem_memory_pool_allocate_on_queue_at(...): the same, recording file and line. */
CLMEM_API clmem_buffer clmem_memory_pool_allocate_on_queue_at(clmem_memory_pool *pool, size_t size,
                                                              cl_command_queue queue, cl_int *errcode_ret,
                                                              const char *file, int line);

/** clmem_pooled_buffer_enqueue_release(&buf, queue): return a pooled buffer to its
    pool once `queue` gets past this point (cudaFreeAsync): commands already enqueued
    on queue may still use it; the handle is emptied at once. See QUEUE ORDER for who
    may reuse the block when. An empty handle: CL_SUCCESS. No driver call unless the
    block last belonged to another queue (then the queue is checked: its context and
    whether it runs out of order).
    Errors: CL_INVALID_MEM_OBJECT (a buffer that is not pooled), CL_INVALID_COMMAND_QUEUE
    (queue NULL or invalid), CL_INVALID_CONTEXT (queue of another context),
    CLMEM_ERROR_DOUBLE_RELEASE (a stale copy), the code of a failed queue query (named;
    the handle is then kept). Thread safety: any thread.
    Example: clmem_pooled_buffer_enqueue_release(&tmp, q); */
CLMEM_API cl_int clmem_pooled_buffer_enqueue_release(clmem_buffer *buf, cl_command_queue queue);

/** clmem_pooled_buffer_pool(buf): the pool a pooled buffer came from (PyOpenCL: the
    pool behind an array's `allocator`), e.g. to allocate siblings from the same pool.
    NULL for a buffer that is not pooled, a stale handle, or a block whose pool was
    released. Not retained for you. Any thread. */
CLMEM_API clmem_memory_pool *clmem_pooled_buffer_pool(clmem_buffer buf);

/** Accounting (PyOpenCL's properties); 0 for a NULL pool. Any thread. */
CLMEM_API size_t clmem_memory_pool_held_blocks(clmem_memory_pool *pool);
CLMEM_API size_t clmem_memory_pool_active_blocks(clmem_memory_pool *pool);
CLMEM_API size_t clmem_memory_pool_managed_bytes(clmem_memory_pool *pool);
CLMEM_API size_t clmem_memory_pool_active_bytes(clmem_memory_pool *pool);

/** clmem_memory_pool_bin_number(pool, size) / clmem_memory_pool_alloc_size(pool, bin):
    clmem_bin_number / clmem_alloc_size with the pool's leading bits. */
CLMEM_API uint32_t clmem_memory_pool_bin_number(clmem_memory_pool *pool, size_t size);
CLMEM_API size_t clmem_memory_pool_alloc_size(clmem_memory_pool *pool, uint32_t bin);

/** clmem_memory_pool_free_held(pool): give every held block back to the allocator,
    lowest bin first (PyOpenCL's free_held). Returns CL_SUCCESS, CL_INVALID_VALUE for
    NULL. Any thread. */
CLMEM_API cl_int clmem_memory_pool_free_held(clmem_memory_pool *pool);

/** clmem_memory_pool_stop_holding(pool): free the held blocks and, from now on, give
    released blocks straight back to the allocator (PyOpenCL's stop_holding; there
    is no way back). Returns CL_SUCCESS, CL_INVALID_VALUE for NULL. Any thread. */
CLMEM_API cl_int clmem_memory_pool_stop_holding(clmem_memory_pool *pool);

/** clmem_memory_pool_get_stats(pool, &stats): all counters at once, consistent with
    each other. Errors: CL_INVALID_VALUE (NULL pool or stats). */
CLMEM_API cl_int clmem_memory_pool_get_stats(clmem_memory_pool *pool, clmem_pool_stats *stats);

/** clmem_memory_pool_reset_peaks(pool): set the peak values to the current ones. */
CLMEM_API cl_int clmem_memory_pool_reset_peaks(clmem_memory_pool *pool);

/** clmem_memory_pool_bins(pool, out, capacity, &count): the bins that have held or
    active blocks, lowest bin first; *count is how many there are (only `capacity`
    are stored; out may be NULL with capacity 0 to count). Errors: CL_INVALID_VALUE
    (pool or count NULL). */
CLMEM_API cl_int clmem_memory_pool_bins(clmem_memory_pool *pool, clmem_pool_bin_info *out, size_t capacity,
                                        size_t *count);

/** clmem_memory_pool_set_limit(pool, max_managed_bytes): refuse to let managed bytes
    pass the limit; a request that would is handled as out-of-memory (held blocks are
    freed first) and fails with CLMEM_ERROR_LIMIT_EXCEEDED when that is not enough.
    0 removes the limit. Blocks already managed are kept. Errors: CL_INVALID_VALUE. */
CLMEM_API cl_int clmem_memory_pool_set_limit(clmem_memory_pool *pool, size_t max_managed_bytes);

/** clmem_memory_pool_set_keep_free(pool, device, bytes): keep `bytes` of device's
    memory free: a request that must grow the pool (a new block from the allocator)
    while clmem_device_memory_info(device) says that the device's free memory less the
    block (and less the blocks other threads are making at that moment) would be
    below `bytes` is handled as out of memory, as the limit is: held blocks are freed
    first (which may free device memory), and when that is not enough it fails with
    CLMEM_ERROR_LIMIT_EXCEEDED, the message naming the device, the free figure and its
    source. The query runs only when the pool must grow (one per attempt; stats
    free_queries counts them); handing out held blocks never asks. The figures are
    clmem_device_memory_info's (see FREE DEVICE MEMORY in >>device_memory): a CPU
    device's free memory is the host's available memory, and where no source measures
    free memory (info.exact false) the device's total stands in for it. bytes 0
    removes the setting (device may then be NULL). The pool retains device until the
    setting is replaced or the pool goes. Errors: CL_INVALID_VALUE (pool NULL),
    CL_INVALID_DEVICE (bytes > 0 and device NULL, not a device, or not a device of the
    pool's context). Any thread.
    Example: clmem_memory_pool_set_keep_free(pool, dev, (size_t)1 << 30); */
CLMEM_API cl_int clmem_memory_pool_set_keep_free(clmem_memory_pool *pool, cl_device_id device, size_t bytes);

/** clmem_memory_pool_set_oom_callback(pool, fn, user): call fn when a request still
    fails after the held blocks are gone (see clmem_pool_oom_fn); NULL removes it. */
CLMEM_API cl_int clmem_memory_pool_set_oom_callback(clmem_memory_pool *pool, clmem_pool_oom_fn fn, void *user);

/** clmem_memory_pool_active_blocks_info(pool, out, capacity, &count): the blocks now
    handed out: *count is how many, and the first `capacity` of them go to out (NULL
    to count only), each with its memory, sizes and, with CLMEM_TRACK_ALLOCATIONS,
    where it was allocated (otherwise file NULL, line 0). Most recent first within each
    thread's shard (so exactly most recent first while one thread uses the pool).
    Errors: CL_INVALID_VALUE. */
CLMEM_API cl_int clmem_memory_pool_active_blocks_info(clmem_memory_pool *pool, clmem_pool_block_info *out,
                                                      size_t capacity, size_t *count);

/** clmem_memory_pool_release(pool): release the pool (see RELEASING A POOL): held
    blocks are freed now, active ones when they are released, and the pool with its
    allocator reference goes with the last of them. Returns CL_SUCCESS (nothing was
    active: the pool is gone) or CLMEM_ERROR_IN_USE (blocks are still active: the pool
    is released all the same and goes when they come back; under
    CLMEM_TRACK_ALLOCATIONS a log warning names each with file and line). NULL:
    CL_SUCCESS. Do not use the pool pointer afterwards. Any thread; blocks may be
    released on other threads at the same time. */
CLMEM_API cl_int clmem_memory_pool_release(clmem_memory_pool *pool);

/* CLMEM__TRACKED(fn, args...): fn_at(args..., __FILE__, __LINE__), what a pool kind's
   allocate and allocate_on_queue are with CLMEM_TRACK_ALLOCATIONS (the macros at the
   end of this header's API, one for each call of every pool kind) */
#define CLMEM__TRACKED(fn, ...) fn##_at(__VA_ARGS__, __FILE__, __LINE__)

/* CLMEM__POOL_ALLOCATE_DECLS(kind, handle): the declarations of another pool kind's
   allocate entry points, each as the buffer pool's above (the definitions are
   CLMEM__POOL_ALLOCATE's): clmem_<kind>_allocate, clmem_<kind>_allocate_at,
   clmem_<kind>_allocate_on_queue, clmem_<kind>_allocate_on_queue_at, returning
   `handle`. The names of allocate and allocate_on_queue stand in parentheses, so that
   their CLMEM_TRACK_ALLOCATIONS macros (defined before the later kinds' headers) do
   not expand here. The kind's header documents them right above; tools/api-list
   expands it for the API list. The names it declares (CLMEM__POOL_ALLOCATE defines
   them in pool_svm.c, usm_pool.c, pinned.c and peer_pool.c):
     clmem_svm_pool_allocate                 clmem_svm_pool_allocate_at
     clmem_svm_pool_allocate_on_queue        clmem_svm_pool_allocate_on_queue_at
     clmem_usm_pool_allocate                 clmem_usm_pool_allocate_at
     clmem_usm_pool_allocate_on_queue        clmem_usm_pool_allocate_on_queue_at
     clmem_pinned_pool_allocate              clmem_pinned_pool_allocate_at
     clmem_pinned_pool_allocate_on_queue     clmem_pinned_pool_allocate_on_queue_at
     clmem_peer_pool_allocate                clmem_peer_pool_allocate_at
     clmem_peer_pool_allocate_on_queue       clmem_peer_pool_allocate_on_queue_at */
#define CLMEM__POOL_ALLOCATE_DECLS(kind, handle)                                                                   \
    CLMEM_API handle(clmem_##kind##_allocate)(clmem_##kind *pool, size_t size, cl_int *errcode_ret);               \
    CLMEM_API handle clmem_##kind##_allocate_at(clmem_##kind *pool, size_t size, cl_int *errcode_ret,              \
                                                const char *file, int line);                                       \
    CLMEM_API handle(clmem_##kind##_allocate_on_queue)(clmem_##kind *pool, size_t size, cl_command_queue queue,    \
                                                       cl_int *errcode_ret);                                       \
    CLMEM_API handle clmem_##kind##_allocate_on_queue_at(clmem_##kind *pool, size_t size, cl_command_queue queue,  \
                                                         cl_int *errcode_ret, const char *file, int line);

/* CLMEM__POOL_DECLS(kind): the declarations of another pool kind's accounting,
   statistics, limits, leak list and release: clmem_<kind>_held_blocks ... _release,
   each as the buffer pool's clmem_memory_pool_<name> above (the definitions are
   CLMEM__POOL_COMMON's, pool.h). tools/api-list expands it for the API list. The names
   it declares (CLMEM__POOL_COMMON defines them in pool_svm.c, pinned.c, usm_pool.c and
   peer_pool.c):
     clmem_svm_pool_held_blocks           clmem_pinned_pool_held_blocks           clmem_usm_pool_held_blocks
     clmem_svm_pool_active_blocks         clmem_pinned_pool_active_blocks         clmem_usm_pool_active_blocks
     clmem_svm_pool_managed_bytes         clmem_pinned_pool_managed_bytes         clmem_usm_pool_managed_bytes
     clmem_svm_pool_active_bytes          clmem_pinned_pool_active_bytes          clmem_usm_pool_active_bytes
     clmem_svm_pool_bin_number            clmem_pinned_pool_bin_number            clmem_usm_pool_bin_number
     clmem_svm_pool_alloc_size            clmem_pinned_pool_alloc_size            clmem_usm_pool_alloc_size
     clmem_svm_pool_free_held             clmem_pinned_pool_free_held             clmem_usm_pool_free_held
     clmem_svm_pool_stop_holding          clmem_pinned_pool_stop_holding          clmem_usm_pool_stop_holding
     clmem_svm_pool_get_stats             clmem_pinned_pool_get_stats             clmem_usm_pool_get_stats
     clmem_svm_pool_reset_peaks           clmem_pinned_pool_reset_peaks           clmem_usm_pool_reset_peaks
     clmem_svm_pool_bins                  clmem_pinned_pool_bins                  clmem_usm_pool_bins
     clmem_svm_pool_set_limit             clmem_pinned_pool_set_limit             clmem_usm_pool_set_limit
     clmem_svm_pool_set_keep_free         clmem_pinned_pool_set_keep_free         clmem_usm_pool_set_keep_free
     clmem_svm_pool_set_oom_callback      clmem_pinned_pool_set_oom_callback      clmem_usm_pool_set_oom_callback
     clmem_svm_pool_active_blocks_info    clmem_pinned_pool_active_blocks_info    clmem_usm_pool_active_blocks_info
     clmem_svm_pool_release               clmem_pinned_pool_release               clmem_usm_pool_release
     clmem_peer_pool_held_blocks          clmem_peer_pool_active_blocks           clmem_peer_pool_managed_bytes
     clmem_peer_pool_active_bytes         clmem_peer_pool_bin_number              clmem_peer_pool_alloc_size
     clmem_peer_pool_free_held            clmem_peer_pool_stop_holding            clmem_peer_pool_get_stats
     clmem_peer_pool_reset_peaks          clmem_peer_pool_bins                    clmem_peer_pool_set_limit
     clmem_peer_pool_set_keep_free        clmem_peer_pool_set_oom_callback        clmem_peer_pool_active_blocks_info
     clmem_peer_pool_release */
#define CLMEM__POOL_DECLS(kind)                                                                            \
    CLMEM_API size_t clmem_##kind##_held_blocks(clmem_##kind *pool);                                            \
    CLMEM_API size_t clmem_##kind##_active_blocks(clmem_##kind *pool);                                          \
    CLMEM_API size_t clmem_##kind##_managed_bytes(clmem_##kind *pool);                                          \
    CLMEM_API size_t clmem_##kind##_active_bytes(clmem_##kind *pool);                                           \
    CLMEM_API uint32_t clmem_##kind##_bin_number(clmem_##kind *pool, size_t size);                              \
    CLMEM_API size_t clmem_##kind##_alloc_size(clmem_##kind *pool, uint32_t bin);                               \
    CLMEM_API cl_int clmem_##kind##_free_held(clmem_##kind *pool);                                              \
    CLMEM_API cl_int clmem_##kind##_stop_holding(clmem_##kind *pool);                                           \
    CLMEM_API cl_int clmem_##kind##_get_stats(clmem_##kind *pool, clmem_pool_stats *stats);                     \
    CLMEM_API cl_int clmem_##kind##_reset_peaks(clmem_##kind *pool);                                            \
    CLMEM_API cl_int clmem_##kind##_bins(clmem_##kind *pool, clmem_pool_bin_info *out, size_t capacity,         \
                                         size_t *count);                                                        \
    CLMEM_API cl_int clmem_##kind##_set_limit(clmem_##kind *pool, size_t max_managed_bytes);                    \
    CLMEM_API cl_int clmem_##kind##_set_keep_free(clmem_##kind *pool, cl_device_id device, size_t bytes);       \
    CLMEM_API cl_int clmem_##kind##_set_oom_callback(clmem_##kind *pool, clmem_pool_oom_fn fn, void *user);     \
    CLMEM_API cl_int clmem_##kind##_active_blocks_info(clmem_##kind *pool, clmem_pool_block_info *out,          \
                                                       size_t capacity, size_t *count);                         \
    CLMEM_API cl_int clmem_##kind##_release(clmem_##kind *pool);

/* ---- SVM allocators and pools (PyOpenCL's SVMAllocator, SVMPool, PooledSVM) ---- */

/** An allocator of SVM memory (opaque; PyOpenCL's SVMAllocator). */
typedef struct clmem_svm_allocator clmem_svm_allocator;

/** clmem_svm_allocator_create(context, alignment, flags, queue, &err): SVM from
    clSVMAlloc(context, flags, size, alignment) (PyOpenCL's SVMAllocator).
    alignment: 0 (OpenCL's default) or a power of two no larger than
    CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE of the context's devices. flags:
    cl_svm_mem_flags, 0 means CL_MEM_READ_WRITE. queue: NULL, or an in-order queue of the context: memory
    is then freed with clEnqueueSVMFree on it, after the work enqueued before, and a
    pooled block reused on this queue waits for the queue it was last used on.
    Unlike PyOpenCL, a clSVMAlloc that returns NULL is reported (out-of-memory).
    The flags, alignment and queue are checked as clmem_svm_allocation_create checks
    them (the same function), so every allocation from an allocator that was made is
    possible. Errors: CL_INVALID_CONTEXT (NULL), CL_INVALID_VALUE (alignment not a
    power of two or too large; unknown flag bits, two of READ_WRITE/READ_ONLY/
    WRITE_ONLY, SVM_ATOMICS without SVM_FINE_GRAIN_BUFFER), CL_INVALID_COMMAND_QUEUE
    (an invalid or out-of-order queue), CL_INVALID_CONTEXT (queue of another context),
    CL_INVALID_OPERATION (no device of the context supports SVM, or the fine grain
    or atomics asked for; OpenCL headers before 2.0), the code of a failed device or
    queue query (named in the message), CL_OUT_OF_HOST_MEMORY. Any thread. */
CLMEM_API clmem_svm_allocator *clmem_svm_allocator_create(cl_context context, cl_uint alignment,
                                                          cl_svm_mem_flags flags, cl_command_queue queue,
                                                          cl_int *errcode_ret);
/** clmem_svm_allocator_allocate(alloc, size, &err): one SVM allocation of size bytes
    from the allocator (PyOpenCL's SVMAllocator.__call__), released with
    clmem_svm_allocation_release. size 0 gives an empty allocation and CL_SUCCESS.
    Errors: CL_INVALID_VALUE (alloc is NULL), and those of clmem_svm_allocation_create
    (CL_MEM_OBJECT_ALLOCATION_FAILURE when clSVMAlloc returns NULL). Any thread. */
CLMEM_API clmem_svm_allocation clmem_svm_allocator_allocate(clmem_svm_allocator *alloc, size_t size,
                                                            cl_int *errcode_ret);
/** clmem_svm_allocator_retain / _release: reference counting as clmem_allocator's. */
CLMEM_API void clmem_svm_allocator_retain(clmem_svm_allocator *alloc);
CLMEM_API cl_int clmem_svm_allocator_release(clmem_svm_allocator *alloc);

/** A pooled SVM block (PyOpenCL's PooledSVM): `svm` is the pointer with the size
    asked for (pass it wherever a clmem_svm goes); its private `pool` and
    `generation` name the block and this hand-out of it, so a stale copy is always
    caught: released twice it is CLMEM_ERROR_DOUBLE_RELEASE, and its `.svm` given to
    a copy, fill, map or kernel argument is CL_INVALID_VALUE ("a stale pooled SVM
    handle"). Treat as read-only; release with clmem_pooled_svm_release. */
typedef struct clmem_pooled_svm {
    clmem_svm svm;
} clmem_pooled_svm;

/** A pool of SVM blocks (opaque; PyOpenCL's SVMPool). */
typedef struct clmem_svm_pool clmem_svm_pool;

/** clmem_svm_pool_create(allocator, leading_bits_in_bin_id, &err): as
    clmem_memory_pool_create, for SVM. */
CLMEM_API clmem_svm_pool *clmem_svm_pool_create(clmem_svm_allocator *allocator, unsigned leading_bits_in_bin_id,
                                                cl_int *errcode_ret);

/** clmem_svm_pool_allocate(pool, size, &err): a pooled SVM block (PyOpenCL's
    SVMPool.__call__). When the allocator has a queue, the block is bound to it; a
    block last used on another queue is handed out only after a marker makes the
    allocator's queue wait for that queue. Without a queue, a block bound to a queue
    is waited for (clFinish) and unbound. Size 0 gives a real block with svm.size 0.
    Errors as clmem_memory_pool_allocate. clmem_svm_pool_allocate_at(pool, size, &err,
    file, line): the same, recording where (see CLMEM_TRACK_ALLOCATIONS). */
/** clmem_svm_pool_allocate_on_queue(pool, size, queue, &err): a pooled SVM block
    bound to `queue` (an in-order queue of the pool's context) instead of the
    allocator's queue: a block held on `queue` is reused at once, one bound to another
    queue behind a marker `queue` waits for (see QUEUE ORDER). Errors: as
    clmem_svm_pool_allocate, CL_INVALID_COMMAND_QUEUE (NULL, invalid or out-of-order),
    CL_INVALID_CONTEXT (queue of another context). Any thread. _at: records file and
    line. */
CLMEM__POOL_ALLOCATE_DECLS(svm_pool, clmem_pooled_svm)

/** clmem_pooled_svm_release(&p): return the block to its pool and empty the handle
    (p->svm.ptr = NULL). An empty handle: CL_SUCCESS. A block already returned:
    CLMEM_ERROR_DOUBLE_RELEASE. Any thread. */
CLMEM_API cl_int clmem_pooled_svm_release(clmem_pooled_svm *p);

/** clmem_pooled_svm_enqueue_release(&p, queue): bind the block to `queue` (NULL:
    keep its queue) and return it to the pool: its later reuse on another queue, or
    its freeing, waits for what was enqueued on `queue` before. PyOpenCL's version
    takes no queue. Errors as clmem_pooled_svm_bind_to_queue and _release (the
    message names clmem_pooled_svm_enqueue_release). */
CLMEM_API cl_int clmem_pooled_svm_enqueue_release(clmem_pooled_svm *p, cl_command_queue queue);

/** clmem_pooled_svm_bind_to_queue(p, queue): from now on the block belongs to
    `queue` (an in-order queue of the pool's context); if it was bound to another
    queue, `queue` first waits (a marker) for the work on that one. Errors:
    CL_INVALID_VALUE (empty handle), CL_INVALID_COMMAND_QUEUE (NULL or out-of-order),
    CLMEM_ERROR_DOUBLE_RELEASE (the block was returned), or the driver's code. */
CLMEM_API cl_int clmem_pooled_svm_bind_to_queue(clmem_pooled_svm p, cl_command_queue queue);

/** clmem_pooled_svm_unbind_from_queue(p): wait for the bound queue (clFinish) and
    unbind. No queue: CL_SUCCESS. Errors: CL_INVALID_VALUE, CLMEM_ERROR_DOUBLE_RELEASE. */
CLMEM_API cl_int clmem_pooled_svm_unbind_from_queue(clmem_pooled_svm p);

/** clmem_pooled_svm_queue(p): the queue the block is bound to, or NULL (PyOpenCL's
    _queue, for debugging; not retained for you). */
CLMEM_API cl_command_queue clmem_pooled_svm_queue(clmem_pooled_svm p);

/** clmem_pooled_svm_pool(p): the pool a pooled SVM block came from; NULL for an empty
    or stale handle or a released pool. Not retained for you. Any thread. */
CLMEM_API clmem_svm_pool *clmem_pooled_svm_pool(clmem_pooled_svm p);

/** clmem_pooled_svm_equal(a, b): same SVM pointer (PyOpenCL's __eq__);
    clmem_pooled_svm_hash(p): a hash consistent with it. */
static inline bool clmem_pooled_svm_equal(clmem_pooled_svm a, clmem_pooled_svm b) { return a.svm.ptr == b.svm.ptr; }
static inline size_t clmem_pooled_svm_hash(clmem_pooled_svm p) {
    return (size_t)((uintptr_t)p.svm.ptr >> 4) * (size_t)0x9E3779B97F4A7C15ull;
}

/** The SVM pool's accounting, statistics, limits, leak list and release: as the
    buffer pool's (clmem_memory_pool_held_blocks ... _release). Held blocks bound to a
    queue are freed with clEnqueueSVMFree on it. */
CLMEM__POOL_DECLS(svm_pool)

/* With CLMEM_TRACK_ALLOCATIONS the allocate calls of every pool kind record where they
   were made (LEAKS): clmem_<kind>_allocate and clmem_<kind>_allocate_on_queue become
   macros calling their _at forms with __FILE__ and __LINE__. One list for all kinds:
   the later kinds' headers declare these names in parentheses
   (CLMEM__POOL_ALLOCATE_DECLS). tools/api-list lists each name where its function is
   declared. */
#if defined(CLMEM_TRACK_ALLOCATIONS)
#define clmem_memory_pool_allocate(pool, size, errcode_ret) \
    CLMEM__TRACKED(clmem_memory_pool_allocate, pool, size, errcode_ret)
#define clmem_svm_pool_allocate(pool, size, errcode_ret) \
    CLMEM__TRACKED(clmem_svm_pool_allocate, pool, size, errcode_ret)
#define clmem_usm_pool_allocate(pool, size, errcode_ret) \
    CLMEM__TRACKED(clmem_usm_pool_allocate, pool, size, errcode_ret)
#define clmem_pinned_pool_allocate(pool, size, errcode_ret) \
    CLMEM__TRACKED(clmem_pinned_pool_allocate, pool, size, errcode_ret)
#define clmem_peer_pool_allocate(pool, size, errcode_ret) \
    CLMEM__TRACKED(clmem_peer_pool_allocate, pool, size, errcode_ret)
#define clmem_memory_pool_allocate_on_queue(pool, size, queue, errcode_ret) \
    CLMEM__TRACKED(clmem_memory_pool_allocate_on_queue, pool, size, queue, errcode_ret)
#define clmem_svm_pool_allocate_on_queue(pool, size, queue, errcode_ret) \
    CLMEM__TRACKED(clmem_svm_pool_allocate_on_queue, pool, size, queue, errcode_ret)
#define clmem_usm_pool_allocate_on_queue(pool, size, queue, errcode_ret) \
    CLMEM__TRACKED(clmem_usm_pool_allocate_on_queue, pool, size, queue, errcode_ret)
#define clmem_pinned_pool_allocate_on_queue(pool, size, queue, errcode_ret) \
    CLMEM__TRACKED(clmem_pinned_pool_allocate_on_queue, pool, size, queue, errcode_ret)
#define clmem_peer_pool_allocate_on_queue(pool, size, queue, errcode_ret) \
    CLMEM__TRACKED(clmem_peer_pool_allocate_on_queue, pool, size, queue, errcode_ret)
#endif

#ifdef __cplusplus
}
#endif

/* ---- private: the pool core's interface to its backends and pool kinds (pool.c, the
   buffer and SVM backends, pinned.c, usm_pool.c); not API. tools/amalgamate puts this
   section in the implementation. ---- */

typedef struct clmem__pool clmem__pool;
typedef struct clmem__pool_block clmem__pool_block;

/* A backend: how a kind of memory makes and frees a pool's blocks. Everything else
   (bins, shards, generations, statistics, the limit, out-of-memory stages, queue
   order, release) is the core's. A new kind of memory is one more of these.
   - make(user, size, &ptr, &mem): a block of `size` (> 0) bytes; ptr is what its
     handle points at (non-NULL on success), mem a second word the kind may need. The
     out-of-memory codes (clmem__is_oom) make the pool free memory and retry.
   - free(user, blk): give blk->ptr (and blk->mem) back. blk->queue (retained by the
     core, released after this) is where the block was last used; blk->pending says
     work enqueued there may still use it (clmem__pool_wait_queue waits for that).
   - try_release(user): the allocator's hook on out-of-memory (optional).
   - destroy(user): the pool goes (drop the allocator reference, ...).
   - binds_queue: a block belongs to the queue it is used on, and a plain release
     stays ordered behind that queue (SVM: its free is enqueued there). */
typedef struct clmem__pool_backend {
    cl_int (*make)(void *user, size_t size, void **ptr, void **mem);
    void (*free)(void *user, clmem__pool_block *blk);
    void (*try_release)(void *user);
    void (*destroy)(void *user);
    bool binds_queue;
} clmem__pool_backend;

struct clmem__pool_block {
    clmem__buffer_owner owner;            /* first: what clmem_buffer_release calls; the generation */
    clmem__pool *pool;
    struct clmem__pool_block *next;       /* in a held or pending list, or a spare list */
    struct clmem__pool_block *prev_active, *next_active;
    void *ptr;                            /* what the handle points at: cl_mem, SVM or host pointer */
    void *mem;                            /* the backend's second word (pinned: the mapped cl_mem) */
    cl_command_queue queue;               /* retained or NULL: SVM: its bound queue; held: the queue
                                             it was released on; buffers keep it as a cache */
    size_t size;                          /* requested by the current holder */
    const char *file;
    int line;
    uint32_t bin;
    int state;                            /* read without a lock (messages): atomic */
    struct clmem__pool_shard *sh;         /* the shard whose books count it */
    bool pending;                         /* held: released on `queue`; another queue or the host
                                             must wait for that point */
    bool ooo;                             /* `queue` is out of order */
};

/* a shard's or a pool's lock: a spinlock on base.h's atomics (pool.c says why), a
   clmem__mutex with CLMEM_POOL_USE_MUTEX */
#if !defined(CLMEM_POOL_USE_MUTEX)
#define CLMEM__POOL_SPINLOCK 1
typedef int clmem__pool_lock_t;
#else
typedef clmem__mutex clmem__pool_lock_t;
#endif

typedef struct clmem__pool_bin {
    clmem__pool_block *held;              /* free blocks, most recent first */
    clmem__pool_block *pending;           /* blocks released on a queue, most recent first */
    size_t nheld;                         /* both lists */
    size_t nblocks;                       /* the bin's blocks in the shard's books, held or
                                             active (changes only off the fast path: a miss,
                                             a block taken by or from another shard, a free) */
} clmem__pool_bin;

typedef struct clmem__pool_shard {
    clmem__pool_lock_t lock;
    unsigned busy;                        /* releases running in this shard that need the pool */
    clmem__pool_bin *bins;                /* nbins of them, made at the shard's first use */
    void *bins_raw;                       /* what CLMEM_MALLOC returned for them */
    clmem__pool_block *active;            /* most recent first */
    size_t held_blocks, active_blocks, active_bytes;
    size_t peak_active_blocks, peak_active_bytes;
    size_t base_blocks, base_bytes;       /* the other shards' active blocks and bytes, last seen */
    unsigned long long hits, misses;     /* allocations = hits + misses */
} clmem__pool_shard;

/* a shard padded to whole cache lines, so that shards never share one */
typedef union clmem__pool_shard_slot {
    clmem__pool_shard s;
    char pad[128 * ((sizeof(clmem__pool_shard) + 127) / 128)];
} clmem__pool_shard_slot;

struct clmem__pool {
    clmem__pool_shard_slot *shards;       /* nshards, on the cache lines after the pool's */
    unsigned shard_mask;                  /* nshards - 1: nshards is a power of two */
    unsigned nshards;
    void *raw;                            /* what CLMEM_MALLOC returned */
    clmem__pool_lock_t lock;              /* what follows, and the record lists */
    unsigned L;
    uint32_t nbins;
    bool binds_queue;                     /* be->binds_queue, where the fast path reads it */
    bool stop_holding;                    /* changed with every lock held */
    bool released;                        /* likewise */
    bool destroyed;
    unsigned busy;                        /* a pool release in progress */
    size_t managed_bytes, peak_managed_bytes, limit;
    size_t keep_free;                     /* clmem_*_set_keep_free: bytes of keep_free_device */
    cl_device_id keep_free_device;        /* retained while keep_free is set */
    size_t growing;                       /* bytes of new blocks being made now (keep-free counts them) */
    unsigned querying;                    /* clmem_device_memory_info calls running for keep_free */
    unsigned long long allocator_frees, oom_events, free_queries;
    clmem__pool_block *spare;             /* records whose block was freed */
    clmem_pool_oom_fn oom_fn;
    void *oom_user;
    const clmem__pool_backend *be;        /* how blocks are made and freed */
    void *user;                           /* the backend's state: its allocator, ... */
    cl_mem_flags flags;                   /* what handed-out buffer handles report */
    cl_context context;                   /* the pool's context, when known (queue checks) */
    bool owns_facts;                      /* user is clmem__pool_with_facts' copy, freed with the pool,
                                             which holds a reference to facts_queue, else to context */
    cl_command_queue facts_queue;
    cl_command_queue checked_queue;       /* the last queue found to be of the pool's context (atomic) */
};

/* What a backend and a pool kind call of the core (pool.c; each is described where
   it is defined). */
static clmem__pool *clmem__pool_over(const char *fn, const void *allocator, void *user, cl_context context, unsigned L,
                                     const clmem__pool_backend *be, cl_int *errcode_ret);
static clmem__pool *clmem__pool_with_facts(const char *fn, unsigned L, const clmem__pool_backend *be, const void *facts,
                                           size_t size, cl_context context, cl_command_queue queue,
                                           cl_int *errcode_ret);
static cl_int clmem__pool_null(const char *fn);
CLMEM__INLINE clmem__pool_block *clmem__pool_kind_get(void *pool, size_t size, bool on_queue, cl_command_queue queue,
                                                      const char *fn, const char *file, int line,
                                                      cl_int *errcode_ret);
static inline cl_int clmem__pool_any_size(const void *pool, size_t size, const char *fn);
static cl_int clmem__pool_check_bits(const char *fn, unsigned L);
static inline uint32_t clmem__bin_of(unsigned L, size_t size);
CLMEM__INLINE cl_int clmem__pool_get_checked(clmem__pool *p, size_t size, bool on_queue, cl_command_queue queue,
                                             const char *fn, const char *file, int line, cl_int *errcode_ret,
                                             clmem__pool_block **blk);
CLMEM__INLINE cl_int clmem__pool_put(clmem__pool_block *blk, uint64_t gen, cl_command_queue queue, bool ooo,
                                     const void *ptr, size_t size, const char *fn);
CLMEM__INLINE cl_int clmem__pool_give_back(void *handle, size_t handle_size, void *block, uint64_t gen,
                                          const void *ptr, size_t size, cl_command_queue queue, bool ooo,
                                          const char *fn);
static inline uint64_t clmem__pool_generation(const clmem__pool_block *blk);
static clmem__pool_block *clmem__pool_live(void *block, uint64_t gen);
static clmem__pool *clmem__pool_of_live(void *block, uint64_t gen, const clmem__pool_backend *be);
static cl_int clmem__pool_check_release_queue(clmem__pool_block *blk, uint64_t gen, cl_command_queue queue,
                                              const char *fn, bool *ooo);
static void clmem__pool_wait_queue(cl_command_queue queue);
/* records of no pool (a plain pinned allocation's): taken, handed out, given back, unused */
static clmem__pool_block *clmem__pool_record_global(void);
static uint64_t clmem__pool_record_hand_out(clmem__pool_block *blk);
static bool clmem__pool_record_give_back(clmem__pool_block *blk, uint64_t gen);
static void clmem__pool_record_unused(clmem__pool_block *blk);
/* a pool's accounting and settings (pool_stats.c), behind CLMEM__POOL_COMMON */
static size_t clmem__pool_count(clmem__pool *p, int what);
static cl_int clmem__pool_free_held(clmem__pool *p);
static void clmem__pool_stop_holding(clmem__pool *p);
static void clmem__pool_stats(clmem__pool *p, clmem_pool_stats *s);
static void clmem__pool_reset_peaks(clmem__pool *p);
static cl_int clmem__pool_bins(clmem__pool *p, clmem_pool_bin_info *out, size_t capacity, size_t *count);
static cl_int clmem__pool_active_info(clmem__pool *p, clmem_pool_block_info *out, size_t capacity, size_t *count);
static void clmem__pool_set_limit(clmem__pool *p, size_t max_managed_bytes);
static cl_int clmem__pool_set_keep_free(clmem__pool *p, cl_device_id device, size_t bytes, const char *fn);
static void clmem__pool_set_oom_callback(clmem__pool *p, clmem_pool_oom_fn fn, void *user);
static cl_int clmem__pool_release(clmem__pool *p, const char *fn);

/* A pool kind's four allocate entry points (clmem_<kind>_allocate, _allocate_at,
   _allocate_on_queue, _allocate_on_queue_at) over its own allocate, impl(pool, size,
   on_queue, queue, errcode_ret, fn, file, line), which checks, calls the core and
   makes the kind's handle. */
#define CLMEM__POOL_ALLOCATE(kind, handle, impl)                                                                   \
    CLMEM_API handle clmem_##kind##_allocate_at(clmem_##kind *pool, size_t size, cl_int *errcode_ret,              \
                                                const char *file, int line) {                                      \
        return impl(pool, size, false, NULL, errcode_ret, "clmem_" #kind "_allocate", file, line);               \
    }                                                                                                              \
    CLMEM_API handle(clmem_##kind##_allocate)(clmem_##kind *pool, size_t size, cl_int *errcode_ret) {              \
        return impl(pool, size, false, NULL, errcode_ret, "clmem_" #kind "_allocate", NULL, 0);                  \
    }                                                                                                              \
    CLMEM_API handle clmem_##kind##_allocate_on_queue_at(clmem_##kind *pool, size_t size, cl_command_queue queue,  \
                                                         cl_int *errcode_ret, const char *file, int line) {        \
        return impl(pool, size, true, queue, errcode_ret, "clmem_" #kind "_allocate_on_queue", file, line);      \
    }                                                                                                              \
    CLMEM_API handle(clmem_##kind##_allocate_on_queue)(clmem_##kind *pool, size_t size, cl_command_queue queue,    \
                                                       cl_int *errcode_ret) {                                      \
        return clmem_##kind##_allocate_on_queue_at(pool, size, queue, errcode_ret, NULL, 0);                     \
    }

/* CLMEM__POOL_KIND_ALLOCATE(kind, handle, check, wrap): CLMEM__POOL_ALLOCATE over the
   allocate of a kind whose pool is its core (clmem__pool_kind_get: the pinned, USM and
   peer pools), clmem__<kind>_allocate: a NULL pool refused first, then
   check(pool, size, fn) refuses what the kind cannot hold (a cl_int, CL_SUCCESS to go
   on; clmem__pool_any_size where there is nothing to refuse; compiled out with
   CLMEM_NO_VALIDATION), then the block, whose handle wrap(pool, blk, size) makes. On
   failure an empty handle and the code in *errcode_ret. Always inlined: the plain
   allocate is then the fast path alone, as the buffer pool's. */
#define CLMEM__POOL_KIND_ALLOCATE(kind, handle, check, wrap)                                                       \
    CLMEM__INLINE handle clmem__##kind##_allocate(clmem_##kind *pool, size_t size, bool on_queue,                  \
                                                  cl_command_queue queue, cl_int *errcode_ret, const char *fn,     \
                                                  const char *file, int line) {                                    \
        handle r = CLMEM__ZERO;                                                                                    \
        clmem__pool_block *blk;                                                                                    \
        cl_int err;                                                                                                \
        if (CLMEM__CHECKS && pool && (err = check(pool, size, fn)) != CL_SUCCESS) {                                \
            clmem__set_err(errcode_ret, err);                                                                      \
            return r;                                                                                              \
        }                                                                                                          \
        blk = clmem__pool_kind_get(pool, size, on_queue, queue, fn, file, line, errcode_ret);                      \
        return blk ? wrap(pool, blk, size) : r;                                                                    \
    }                                                                                                              \
    CLMEM__POOL_ALLOCATE(kind, handle, clmem__##kind##_allocate)

#define CLMEM__POOL_GETTER(kind, name, what)                     \
    CLMEM_API size_t clmem_##kind##_##name(clmem_##kind *pool) { \
        if (!pool) return 0;                                     \
        return clmem__pool_count(&pool->core, what);             \
    }

/* CLMEM__POOL_COMMON(kind): the rest of each pool kind's API, the same core under each
   kind's names: clmem_<kind>_held_blocks ... clmem_<kind>_release, the names
   CLMEM__POOL_DECLS(kind) declares (listed there; the buffer pool's are declared one by
   one). Used in pool_buffer.c, pool_svm.c, pinned.c and usm_pool.c. */
#define CLMEM__POOL_COMMON(kind)                                                                                   \
    CLMEM__POOL_GETTER(kind, held_blocks, 0)                                                                       \
    CLMEM__POOL_GETTER(kind, active_blocks, 1)                                                                     \
    CLMEM__POOL_GETTER(kind, managed_bytes, 2)                                                                     \
    CLMEM__POOL_GETTER(kind, active_bytes, 3)                                                                      \
    CLMEM_API uint32_t clmem_##kind##_bin_number(clmem_##kind *pool, size_t size) {                                \
        return clmem_bin_number(pool ? pool->core.L : CLMEM_POOL_DEFAULT_LEADING_BITS, size);                    \
    }                                                                                                              \
    CLMEM_API size_t clmem_##kind##_alloc_size(clmem_##kind *pool, uint32_t bin) {                                 \
        return clmem_alloc_size(pool ? pool->core.L : CLMEM_POOL_DEFAULT_LEADING_BITS, bin);                     \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_free_held(clmem_##kind *pool) {                                                \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_free_held");                         \
        return clmem__pool_free_held(&pool->core);                                                                 \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_stop_holding(clmem_##kind *pool) {                                             \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_stop_holding");                      \
        clmem__pool_stop_holding(&pool->core);                                                                     \
        return clmem__pool_free_held(&pool->core);                                                                 \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_get_stats(clmem_##kind *pool, clmem_pool_stats *stats) {                       \
        if (CLMEM__CHECKS && (!pool || !stats))                                                                    \
            return clmem__fail(CL_INVALID_VALUE, "clmem_" #kind "_get_stats", "%s is NULL", pool ? "stats" : "pool"); \
        clmem__pool_stats(&pool->core, stats);                                                                     \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_reset_peaks(clmem_##kind *pool) {                                              \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_reset_peaks");                       \
        clmem__pool_reset_peaks(&pool->core);                                                                      \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_bins(clmem_##kind *pool, clmem_pool_bin_info *out, size_t capacity,            \
                                         size_t *count) {                                                          \
        if (CLMEM__CHECKS && (!pool || !count))                                                                    \
            return clmem__fail(CL_INVALID_VALUE, "clmem_" #kind "_bins", "%s is NULL", pool ? "count" : "pool");  \
        return clmem__pool_bins(&pool->core, out, capacity, count);                                                \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_set_limit(clmem_##kind *pool, size_t max_managed_bytes) {                      \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_set_limit");                         \
        clmem__pool_set_limit(&pool->core, max_managed_bytes);                                                     \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_set_keep_free(clmem_##kind *pool, cl_device_id device, size_t bytes) {         \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_set_keep_free");                      \
        return clmem__pool_set_keep_free(&pool->core, device, bytes, "clmem_" #kind "_set_keep_free");             \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_set_oom_callback(clmem_##kind *pool, clmem_pool_oom_fn fn, void *user) {       \
        if (CLMEM__CHECKS && !pool) return clmem__pool_null("clmem_" #kind "_set_oom_callback");                  \
        clmem__pool_set_oom_callback(&pool->core, fn, user);                                                       \
        return CL_SUCCESS;                                                                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_active_blocks_info(clmem_##kind *pool, clmem_pool_block_info *out,             \
                                                       size_t capacity, size_t *count) {                           \
        if (CLMEM__CHECKS && (!pool || !count))                                                                    \
            return clmem__fail(CL_INVALID_VALUE, "clmem_" #kind "_active_blocks_info", "%s is NULL",              \
                               pool ? "count" : "pool");                                                           \
        return clmem__pool_active_info(&pool->core, out, capacity, count);                                         \
    }                                                                                                              \
    CLMEM_API cl_int clmem_##kind##_release(clmem_##kind *pool) {                                                  \
        if (!pool) return CL_SUCCESS;                                                                              \
        return clmem__pool_release(&pool->core, "clmem_" #kind "_release");                                       \
    }
/* ---- end private ---- */
