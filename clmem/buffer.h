/* >>buffer: buffers, sub-buffers, slices, fills (PyOpenCL's Buffer) */
#include "base.h"
#include "memobj.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A buffer handle, passed by value (PyOpenCL's Buffer and PooledBuffer).

    It carries the OpenCL object and the facts validation needs, so checks need no
    driver round trip. A sub-buffer knows its root buffer and its origin in it (a
    slice of a slice is flattened onto the root). A pooled buffer (from a
    clmem_memory_pool) is a clmem_buffer too: it works everywhere a buffer does, its
    `size` is the size asked for, and releasing it returns the block to its pool.
    Treat the fields as read-only. */
typedef struct clmem_buffer {
    cl_mem mem;             /* the OpenCL buffer; NULL for an empty handle */
    cl_context context;     /* its context (not retained separately) */
    size_t size;            /* usable bytes (pooled: the size asked for) */
    cl_mem_flags flags;     /* CL_MEM_FLAGS as created (sub-buffers: as inherited) */
    cl_mem root;            /* the root buffer of a sub-buffer; equal to mem otherwise */
    size_t origin;          /* byte offset of mem within root (0 unless a sub-buffer) */
    void *pool;             /* pooled buffers: their pool's block record; else NULL */
    uint64_t generation;    /* pooled buffers: which hand-out of the block this is; else 0 */
} clmem_buffer;

/* What a pooled buffer's `pool` points to: a record whose first members return the
   block to its owner and count its hand-outs (private; see clmem/pool.c). Records are
   never given back to the system, so a stale handle always points at a record. */
typedef struct clmem__buffer_owner {
    cl_int (*release)(clmem_buffer *buf);
    CLMEM__ALIGN8 uint64_t gen; /* odd while handed out: the current hand-out's generation (atomic) */
} clmem__buffer_owner;

/* A buffer handle bound to one device (external memory imported for one device,
   >>external; the views of peer memory, >>peer): its `pool` points at this record,
   whose release (clmem__bound_release) empties the handle only. Records live as long
   as the process (recycled by their module), as pool records do; their generation
   has CLMEM__GEN_BOUND set. Private. */
typedef struct clmem__bound_owner {
    clmem__buffer_owner owner; /* first */
    cl_device_id device;       /* the one device whose queues may use the buffer; NULL: any */
    void *object;              /* what the handle is a view of (>>peer: its peer buffer), or NULL */
    struct clmem__bound_owner *next;
} clmem__bound_owner;
/* The generations of a bound record (and so of its handles) carry this bit: an inline
   path tells a bound handle from the handle alone (no load). Private. */
#define CLMEM__GEN_BOUND ((uint64_t)1 << 63)

/* clmem__handout_stale(record, generation): true when a handle's (pool, generation)
   pair names a pooled block that was released since (any kind: buffer, SVM, pinned);
   false for NULL record (not pooled). One load. Private. */
static inline bool clmem__handout_stale(const void *record, uint64_t generation) {
    const clmem__buffer_owner *o = (const clmem__buffer_owner *)record;
    if (!o) return false;
    return clmem__atomic_load_u64(&o->gen) != generation;
}

/* clmem__buffer_stale(b): true when b is a copy of a pooled buffer handle whose block
   was released (back in its pool, freed, or handed out again since, also after the
   pool itself was released). Every clmem call that takes a buffer should refuse such a
   handle with CL_INVALID_MEM_OBJECT ("a stale pooled buffer handle: its block was
   released"). Costs one load for a pooled handle, nothing for another. Private. */
static inline bool clmem__buffer_stale(clmem_buffer b) { return clmem__handout_stale(b.pool, b.generation); }

/** clmem_buffer_create(context, flags, size, hostbuf, &err): a new buffer
    (PyOpenCL's Buffer(context, flags, size, hostbuf)).
    - flags: cl_mem_flags (0 means CL_MEM_READ_WRITE).
    - size: bytes, > 0 and <= CL_DEVICE_MAX_MEM_ALLOC_SIZE of every device.
    - hostbuf: host memory of at least `size` bytes, required with CL_MEM_USE_HOST_PTR
      or CL_MEM_COPY_HOST_PTR and refused otherwise. With USE_HOST_PTR it must stay
      valid until the buffer is released and its commands are done.
    Returns the handle; on failure an empty handle (mem == NULL) and *errcode_ret is:
    CL_INVALID_CONTEXT (NULL context), CL_INVALID_VALUE (unknown flag bits, READ_ONLY
    with WRITE_ONLY or READ_WRITE, two HOST_* access flags, USE_HOST_PTR with
    COPY_HOST_PTR or ALLOC_HOST_PTR), CL_INVALID_HOST_PTR (hostbuf missing or
    unexpected), CL_INVALID_BUFFER_SIZE (0 or above the device limit), or the driver's
    code. errcode_ret may be NULL. Thread safety: any thread.
    Example: clmem_buffer b = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err); */
CLMEM_API clmem_buffer clmem_buffer_create(cl_context context, cl_mem_flags flags, size_t size, void *hostbuf,
                                           cl_int *errcode_ret);

/** clmem_buffer_from_int_ptr(mem, retain, &err): wrap a raw buffer cl_mem (or
    sub-buffer) in a handle, reading its size, flags, context and parent from the
    driver. retain: call clRetainMemObject (true), or take over your reference
    (false). Errors: CL_INVALID_MEM_OBJECT (NULL, or not a CL_MEM_OBJECT_BUFFER). */
CLMEM_API clmem_buffer clmem_buffer_from_int_ptr(cl_mem mem, bool retain, cl_int *errcode_ret);

/** clmem_buffer_int_ptr(buf): the raw cl_mem (PyOpenCL's int_ptr). */
static inline cl_mem clmem_buffer_int_ptr(clmem_buffer buf) { return buf.mem; }

/** clmem_buffer_release(&buf): release the buffer and empty the handle (mem = NULL),
    so a second release of the same handle is a harmless no-op, like free(NULL). A
    pooled buffer goes back to its pool instead (a pooled block released twice is
    reported as CLMEM_ERROR_DOUBLE_RELEASE). Returns CL_SUCCESS or the driver's code. */
CLMEM_API cl_int clmem_buffer_release(clmem_buffer *buf);

/** clmem_buffer_get_sub_region(buf, origin, size, flags, &err): a sub-buffer of
    `size` bytes at byte `origin` of buf (clCreateSubBuffer). A sub-buffer of a
    sub-buffer is made on the root with the origins added. flags: 0 inherits access
    from the parent; host-pointer flags are never forwarded (they are inherited).
    Errors: CL_INVALID_MEM_OBJECT (empty handle), CL_INVALID_BUFFER_SIZE (size 0),
    CL_INVALID_VALUE (origin+size beyond the buffer or wrapping, host-pointer flags,
    access flags the parent forbids, unknown bits), CL_MISALIGNED_SUB_BUFFER_OFFSET
    (origin of the root not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN/8 bytes for
    every device of the context). Release the result with clmem_buffer_release. */
CLMEM_API clmem_buffer clmem_buffer_get_sub_region(clmem_buffer buf, size_t origin, size_t size, cl_mem_flags flags,
                                                   cl_int *errcode_ret);

/** clmem_buffer_slice(buf, start, stop, &err): buf[start:stop] with Python's slice
    rules: negative indices count from the end, out-of-range indices are clamped;
    an empty result is an error (CL_INVALID_VALUE). Flags are inherited. Same
    alignment rule and errors as clmem_buffer_get_sub_region.
    Example: clmem_buffer tail = clmem_buffer_slice(b, -128, CLMEM_END, &err); */
CLMEM_API clmem_buffer clmem_buffer_slice(clmem_buffer buf, ptrdiff_t start, ptrdiff_t stop, cl_int *errcode_ret);
/** CLMEM_END: a stop index meaning "to the end" for clmem_buffer_slice. */
#define CLMEM_END PTRDIFF_MAX

/** clmem_buffer_hostbuf(buf): the host pointer of a USE_HOST_PTR buffer (for a
    sub-buffer: the parent's plus the origin), else NULL (PyOpenCL's hostbuf). */
CLMEM_API void *clmem_buffer_hostbuf(clmem_buffer buf);

/** clmem_enqueue_fill_buffer(queue, buf, pattern, pattern_size, offset, size, ...):
    fill `size` bytes at byte `offset` of buf with copies of the pattern
    (clEnqueueFillBuffer). pattern_size: 1, 2, 4, 8, 16, 32, 64 or 128; offset and size
    multiples of it and within the buffer. size 0 is a successful no-op (an event
    asked for is a completed marker). The pattern may be freed when the call returns.
    Options: .wait_for, .num_wait_for, .event. Errors: CL_INVALID_MEM_OBJECT,
    CL_INVALID_COMMAND_QUEUE, CL_INVALID_CONTEXT, CL_INVALID_VALUE (NULL pattern, bad
    pattern size, misaligned or out-of-range offset/size), CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: nothing is enqueued, no .event made; also for size 0).
    Example: float one = 1.0f; clmem_enqueue_fill_buffer(q, b, &one, 4, 0, 4096); */
#ifndef __cplusplus /* C++: clmem/cxx.h */
#define clmem_enqueue_fill_buffer(...) clmem__fill_buffer_(__VA_ARGS__, )
#define clmem__fill_buffer_(queue, buf, pattern, pattern_size, offset, size, ...)                   \
    clmem_enqueue_fill_buffer_opts(queue, buf, pattern, pattern_size, offset, size,             \
                                   CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__))
#endif
CLMEM_API cl_int clmem_enqueue_fill_buffer_opts(cl_command_queue queue, clmem_buffer buf, const void *pattern,
                                                size_t pattern_size, size_t offset, size_t size,
                                                const clmem_enqueue_options *opts);

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of buffer; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* functions (each described where it is defined) */
static cl_int clmem__check_mem_flags(const char *fn, cl_mem_flags flags, cl_mem_flags known);
static cl_int clmem__check_host_ptr(const char *fn, cl_mem_flags flags, const void *host);
static cl_int clmem__check_pooled_ptr(const char *fn, const char *what, const char *kind, const void *record,
                                      uint64_t generation, const void *ptr);
static clmem_buffer clmem__buffer_empty(void);
static cl_int clmem__buffer_invalid(const char *fn, const char *what, clmem_buffer b);
static cl_int clmem__bound_release(clmem_buffer *buf);
static cl_int clmem__buffer_queue_ok(const char *fn, const char *what, clmem_buffer b, cl_command_queue queue);
/* ---- end private ---- */
