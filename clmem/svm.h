/* >>svm: shared virtual memory (PyOpenCL's SVMPointer, SVM, SVMAllocation, SVMMap,
   svm_empty and friends, enqueue_svm_memfill, enqueue_svm_migratemem) */
#include "base.h"
#include "memobj.h"
#include "buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   SHARED VIRTUAL MEMORY

   SVM is memory that host and device address with the same pointer (OpenCL 2.0).
   Coarse-grain SVM must be mapped (clmem_svm_map_rw, ...) before the host touches
   it; fine-grain SVM (CL_MEM_SVM_FINE_GRAIN_BUFFER) may be read and written by the
   host directly, with clFinish or an event as the only synchronisation.

   Three kinds of handle, all passed by value:
     clmem_svm             a pointer with its size and, where known, the allocation
                           that owns it (PyOpenCL's SVMPointer and its SVM tag). This is
                           what clmem_enqueue_copy, clmem_enqueue_fill,
                           clmem_set_kernel_arg and the functions below take.
     clmem_svm_allocation  owns memory from clSVMAlloc (PyOpenCL's SVMAllocation);
                           `.svm` is its clmem_svm.
     clmem_svm_map         an outstanding clEnqueueSVMMap (PyOpenCL's SVMMap).
   and clmem_svm_array, the C shape of PyOpenCL's svm_empty(...) numpy array.

   Freeing SVM is not reference counted by OpenCL: clSVMFree frees at once, even
   while a kernel still uses the memory. Give an allocation a queue (at creation or
   with clmem_svm_allocation_bind_to_queue) and its release is enqueued
   (clEnqueueSVMFree) behind everything already in that queue, as in PyOpenCL 2022.2.

   Double release of an allocation or a map is reported as CLMEM_ERROR_DOUBLE_RELEASE:
   clmem keeps a registry of live allocations and maps, and a release clears `ptr`
   and `size` but leaves the handle's identity, so the same handle, or any copy of
   it, released again is recognised. Using a released allocation's clmem_svm in a
   copy, fill or map is CL_INVALID_VALUE ("... was released").

   Every allocation keeps its own reference to its context until clSVMFree has run
   (PoCL 3.1 reads the freed context inside clSVMFree otherwise), so releasing the
   context before the allocation is fine.

   Without OpenCL 2.0 headers (CL_TARGET_OPENCL_VERSION < 200), or on a device
   without SVM, the functions return CL_INVALID_OPERATION with a message.
   --------------------------------------------------------------------------------- */

#ifndef CL_VERSION_2_0
typedef cl_bitfield cl_svm_mem_flags;
#endif

/** An SVM pointer with its size (PyOpenCL's SVMPointer and SVM tag).
    Fields (read them directly; PyOpenCL's svm_ptr is .ptr, size is .size):
      ptr    the SVM (or, with fine-grain system SVM, host) pointer
      size   bytes reachable from ptr; 0 when unknown (transfers then take their size
             from the other side or .byte_count)
      pool, generation
             private: the identity of the owner (0 and NULL for a tag): an
             allocation's registry id in `generation`, or a pooled block's record in
             `pool` and its hand-out in `generation`, so that memory released since,
             through this handle or a copy, is refused.
    Make one with clmem_svm_tag(ptr, size) or take `.svm` of an allocation. */
typedef struct clmem_svm {
    void *ptr;
    size_t size;
    void *pool;
    uint64_t generation;
} clmem_svm;

/** clmem_svm_tag(ptr, size): tag memory as SVM (PyOpenCL's SVM(ary)), e.g. memory
    from clSVMAlloc made elsewhere, or, where the device has fine-grain system SVM,
    any host memory. The tag owns nothing; size 0 means unknown.
    CLMEM_SVM_TAG_ARRAY(a) tags a C array with its sizeof. */
static inline clmem_svm clmem_svm_tag(void *ptr, size_t size) {
    clmem_svm s;
    s.ptr = ptr;
    s.size = size;
    s.pool = NULL;
    s.generation = 0;
    return s;
}
#define CLMEM_SVM_TAG_ARRAY(a) clmem_svm_tag((void *)(a), sizeof(a))

/** clmem_svm_buf(svm): the memory as bytes (PyOpenCL's SVMPointer.buf); svm.size
    of them are valid (coarse grain: only while mapped). */
static inline unsigned char *clmem_svm_buf(clmem_svm svm) { return (unsigned char *)svm.ptr; }

/** An owning SVM allocation (PyOpenCL's SVMAllocation). `.svm` is its pointer, size
    and identity: pass a.svm wherever an SVM pointer goes. A zero-size allocation
    has a NULL pointer and owns nothing. Compare two allocations with a.svm.ptr ==
    b.svm.ptr (PyOpenCL's ==; the pointer is also its hash). */
typedef struct clmem_svm_allocation {
    clmem_svm svm;
} clmem_svm_allocation;

/** clmem_svm_allocation_create(context, size, alignment, flags, queue, &err): SVM
    memory from clSVMAlloc (PyOpenCL's SVMAllocation(ctx, size, alignment, flags,
    queue)).
    - size: bytes. 0 gives an empty allocation (NULL pointer, nothing allocated,
      nothing retained) whose release is a no-op, however often it is repeated.
    - alignment: bytes, 0 for OpenCL's default; else a power of two no larger than
      CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE of the context's devices (128 on PoCL).
    - flags: 0 (read-write) or CL_MEM_READ_WRITE / CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY,
      optionally | CL_MEM_SVM_FINE_GRAIN_BUFFER (| CL_MEM_SVM_ATOMICS).
    - queue: NULL, or an in-order queue of the context: the release is then enqueued
      there (clEnqueueSVMFree) after everything already enqueued. Strongly
      recommended; without it release frees at once (clSVMFree).
    Returns the allocation; on failure an empty one and *errcode_ret (may be NULL):
      CL_INVALID_CONTEXT        context NULL, or queue of another context
      CL_INVALID_COMMAND_QUEUE  queue not a valid queue, or out of order
      CL_INVALID_VALUE          unknown flag bits (checked here: PoCL ignores them),
                                two of READ_WRITE/READ_ONLY/WRITE_ONLY, ATOMICS without
                                FINE_GRAIN_BUFFER, alignment not a power of two or above
                                the device's
      CL_INVALID_OPERATION      no device of the context has SVM, or none has the
                                fine grain / atomics asked for (or headers < 2.0)
      CL_INVALID_BUFFER_SIZE    size above CL_DEVICE_MAX_MEM_ALLOC_SIZE of a device
      CL_MEM_OBJECT_ALLOCATION_FAILURE  clSVMAlloc returned NULL
      CL_OUT_OF_HOST_MEMORY
    Thread safety: any thread.
    Example: clmem_svm_allocation a = clmem_svm_allocation_create(ctx, 4096, 0, 0, q, &err); */
CLMEM_API clmem_svm_allocation clmem_svm_allocation_create(cl_context context, size_t size, cl_uint alignment,
                                                           cl_svm_mem_flags flags, cl_command_queue queue,
                                                           cl_int *errcode_ret);

/** clmem_svm_allocation_release(&a): free the memory and empty the handle (ptr NULL,
    size 0). Bound to a queue: clEnqueueSVMFree on that queue (the memory stays
    valid for everything enqueued before; the call does not wait); otherwise
    clSVMFree at once. Returns CL_SUCCESS (also for a zero-size or all-zero handle),
    CLMEM_ERROR_DOUBLE_RELEASE (this allocation, through this handle or a copy, was
    already released), or the driver's code from clEnqueueSVMFree (the memory is
    then freed after clFinish of the queue). Thread safety: any thread; releasing
    one allocation from two threads at once reports the second as a double release. */
CLMEM_API cl_int clmem_svm_allocation_release(clmem_svm_allocation *a);

/** clmem_svm_allocation_enqueue_release(&a, queue, ...): enqueue the free
    (clEnqueueSVMFree) on `queue`, or, when queue is NULL, on the bound queue
    (PyOpenCL's enqueue_release(queue, wait_for)), and empty the handle.
    Options: .wait_for/.num_wait_for, .event (the free's event, yours to release).
    A zero-size allocation enqueues a marker instead (and needs an explicit queue).
    Errors: CLMEM_ERROR_DOUBLE_RELEASE, CL_INVALID_COMMAND_QUEUE (no queue given and
    none bound: "no implicit queue"), CL_INVALID_CONTEXT (queue of another context),
    CL_INVALID_EVENT_WAIT_LIST, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event
    of the wait list has already failed: no free is enqueued, no .event made), or the
    driver's code (after either the allocation stays alive).
    Example: clmem_svm_allocation_enqueue_release(&a, q, .event = &freed); */
#define clmem_svm_allocation_enqueue_release(...) clmem__svm_enqueue_release_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__svm_enqueue_release_(a, queue, ...) \
    CLMEM__NAMED_RET(clmem_svm_allocation_enqueue_release_opts(a, queue, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_svm_allocation_enqueue_release_opts(clmem_svm_allocation *a, cl_command_queue queue,
                                                           const clmem_enqueue_options *opts);

/** clmem_svm_allocation_bind_to_queue(a, queue): make `queue` (in-order, same
    context) the one the release is enqueued on. When already bound to another
    queue, a marker in the old queue is made a dependency of the new one (the
    marker's event is released), so the free waits for both. Zero-size: no-op.
    Errors: CL_INVALID_VALUE (`a` released: CLMEM_ERROR_DOUBLE_RELEASE is not used
    here), CL_INVALID_COMMAND_QUEUE (NULL or out-of-order queue), CL_INVALID_CONTEXT,
    a failed queue query's code, or the driver's code. Not thread-safe for one
    allocation. */
CLMEM_API cl_int clmem_svm_allocation_bind_to_queue(clmem_svm_allocation a, cl_command_queue queue);

/** clmem_svm_allocation_unbind_from_queue(a): finish the bound queue (clFinish) and
    forget it: the release then frees at once. No-op when unbound or zero-size.
    Errors: CL_INVALID_VALUE (released), or clFinish's code. */
CLMEM_API cl_int clmem_svm_allocation_unbind_from_queue(clmem_svm_allocation a);

/** clmem_svm_allocation_queue(a): the bound queue (not retained for you), or NULL
    when unbound, zero-size or released (PyOpenCL's _queue). */
CLMEM_API cl_command_queue clmem_svm_allocation_queue(clmem_svm_allocation a);

/** clmem_svm_allocation_context(a): the allocation's context (not retained for
    you), or NULL when zero-size or released. */
CLMEM_API cl_context clmem_svm_allocation_context(clmem_svm_allocation a);

/** clmem_svm_allocation_flags(a): the cl_svm_mem_flags it was made with (0 for
    read-write), 0 when zero-size or released. */
CLMEM_API cl_svm_mem_flags clmem_svm_allocation_flags(clmem_svm_allocation a);

/* ---------------------------------------------------------------------------------
   MAPS (coarse-grain SVM must be mapped before the host touches it)
   --------------------------------------------------------------------------------- */

/** An outstanding SVM map (PyOpenCL's SVMMap). Fields: ptr (the host-usable pointer,
    == svm.ptr; PyOpenCL's SVMMap.array, named ptr as on buffer maps), size (bytes
    mapped), svm (what was mapped), queue (where it was mapped), event (the map's
    event: wait on it before touching ptr when the map
    was non-blocking; owned by the map, released with it). id is private. Release
    with clmem_svm_map_release or clmem_release(&map); until then the memory must
    not be used by the device. The member array (0.1.0's name of ptr) is there only
    so that code using it is refused with the new name in the message. */
typedef struct clmem_svm_map_array_is_now_ptr {
    void *clmem__ptr;
} clmem_svm_map_array_is_now_ptr;
typedef struct clmem_svm_map {
    union {
        void *ptr;
        clmem_svm_map_array_is_now_ptr array; /* 0.1.0's name: use ptr */
    };
    size_t size;
    clmem_svm svm;
    cl_command_queue queue;
    cl_event event;
    uint64_t id;
} clmem_svm_map;

/** Options of the SVM map functions: .size (bytes from svm.ptr; left out: svm.size;
    0 is refused), .is_blocking (left out: blocking; false: not), .wait_for/.num_wait_for,
    .event (a second reference to the map's event, yours to release). */
typedef struct CLMEM__OPTIONS_TYPE clmem_svm_map_options {
    CLMEM__GIVEN_FIELD /* given: CLMEM_GIVEN_* bits, filled by the macros */
    size_t size CLMEM__DEFAULT;
    int is_blocking CLMEM__DEFAULT;
    CLMEM__WAIT_FIELDS /* .wait_for, .num_wait_for, .event */
} clmem_svm_map_options;
/* The options of clmem_svm_map_options with a CLMEM_GIVEN_* bit (CLMEM__UNSET_INIT in base.h). */
#define CLMEM__SVM_MAP_UNSET(X, T)                     \
    X(T, size, , CLMEM__UNSET_SIZE, CLMEM_GIVEN_SIZE)   \
    X(T, is_blocking, , CLMEM__UNSET_INT, CLMEM_GIVEN_IS_BLOCKING)
/** CLMEM_SVM_MAP_OPTIONS_INIT: the initializer of a clmem_svm_map_options built by
    hand: every option left out; a field then set means its value (NAMED OPTIONS in base.h). */
#define CLMEM_SVM_MAP_OPTIONS_INIT CLMEM__UNSET_INIT(clmem_svm_map_options, CLMEM__SVM_MAP_UNSET)

/** clmem_enqueue_svm_map(queue, svm, flags, &map, ...): map svm for the host
    (clEnqueueSVMMap; PyOpenCL's SVMPointer.map(queue, flags=...)). Unlike PyOpenCL,
    .size is honoured: exactly that many bytes are mapped.
    flags: CL_MAP_READ, CL_MAP_WRITE (or both) or CL_MAP_WRITE_INVALIDATE_REGION.
    clmem_svm_map_ro(queue, svm, &map, ...) and clmem_svm_map_rw(...) map for reading
    or for reading and writing. On failure *map is emptied.
    Errors: CL_INVALID_COMMAND_QUEUE, CL_INVALID_VALUE (NULL map or svm.ptr, unknown
    flag bits, WRITE_INVALIDATE_REGION with READ or WRITE, .size above svm.size, a
    released allocation), CLMEM_ERROR_SIZE_UNKNOWN (neither .size nor svm.size),
    CL_INVALID_CONTEXT, CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed, blocking or not: no map is made, no .event), CL_INVALID_OPERATION (no SVM),
    or the driver's code. Thread safety: any thread.
    Example: clmem_svm_map m; clmem_svm_map_rw(q, a.svm, &m); ((float *)m.ptr)[0] = 1;
             clmem_svm_map_release(&m); */
#define clmem_enqueue_svm_map(...) clmem__svm_map_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__svm_map_(queue, svm, flags, map, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_svm_map_opts(queue, svm, flags, map, CLMEM__NAMED(clmem_svm_map_options, __VA_ARGS__)))
#define clmem_svm_map_ro(...) clmem__svm_map_ro_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__svm_map_ro_(queue, svm, map, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_svm_map_opts(queue, svm, CL_MAP_READ, map, CLMEM__NAMED(clmem_svm_map_options, __VA_ARGS__)))
#define clmem_svm_map_rw(...) clmem__svm_map_rw_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__svm_map_rw_(queue, svm, map, ...)                                             \
    CLMEM__NAMED_RET(clmem_enqueue_svm_map_opts(queue, svm, CL_MAP_READ | CL_MAP_WRITE, map, \
        CLMEM__NAMED(clmem_svm_map_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_enqueue_svm_map_opts(cl_command_queue queue, clmem_svm svm, cl_map_flags flags,
                                            clmem_svm_map *map, const clmem_svm_map_options *opts);

/** Options of clmem_svm_map_release: .queue (NULL: the map's queue), .wait_for,
    .num_wait_for, .event (the unmap's event, yours to release). */
typedef struct CLMEM__OPTIONS_TYPE clmem_svm_unmap_options {
    CLMEM__GIVEN_FIELD_NO_DEFAULTS /* given: CLMEM_OPTIONS_MARK, filled by the macros */
    cl_command_queue queue CLMEM__DEFAULT;
    CLMEM__WAIT_FIELDS /* .wait_for, .num_wait_for, .event */
} clmem_svm_unmap_options;

/** clmem_svm_map_release(&map, ...): unmap (clEnqueueSVMUnmap) on .queue or the map's
    queue, after .wait_for (PyOpenCL's SVMMap.release(queue, wait_for); both honoured),
    release the map's event and empty the handle. Does not wait.
    Errors: CLMEM_ERROR_DOUBLE_RELEASE (this map, through this handle or a copy, was
    already released), CL_INVALID_VALUE (map NULL), CL_INVALID_CONTEXT (.queue of
    another context), CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: no unmap is enqueued, no .event made), or the driver's code (after either
    the map stays outstanding, to be released again). Thread safety: as for allocations. */
#define clmem_svm_map_release(...) clmem__svm_map_release_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__svm_map_release_(map, ...) \
    CLMEM__NAMED_RET(clmem_svm_map_release_opts(map, CLMEM__NAMED(clmem_svm_unmap_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_svm_map_release_opts(clmem_svm_map *map, const clmem_svm_unmap_options *opts);
/** clmem_svm_map_release_default(&map): clmem_svm_map_release with no options (on the
    map's own queue, no wait list, no event): what clmem_release(&map) and
    CLMEM_WITH_SVM_MAP call. Same results as clmem_svm_map_release. */
CLMEM_API cl_int clmem_svm_map_release_default(clmem_svm_map *map);

/** CLMEM_WITH_SVM_MAP(m, err, map_call) { ... }: the scoped SVM map, as
    CLMEM_WITH_MAP: declares the clmem_svm_map m, stores map_call's result in the
    cl_int lvalue err, runs the block only when it is CL_SUCCESS and releases the map
    (clmem_svm_map_release_default) when the block ends, also through break or
    continue. A failed map skips the block, and err says why.
    Example: CLMEM_WITH_SVM_MAP(m, err, clmem_svm_map_rw(q, a.svm, &m)) { ((float *)m.ptr)[0] = 1; } */
#define CLMEM_WITH_SVM_MAP(m, err, map_call)                                                                  \
    for (clmem_svm_map m = CLMEM__ZERO, *clmem__with_##m = ((err) = (map_call), &m); clmem__with_##m != NULL; \
         (void)clmem_svm_map_release_default(&m), clmem__with_##m = NULL)                                     \
        for (int clmem__body_##m = ((err) == CL_SUCCESS); clmem__body_##m; clmem__body_##m = 0)

/** clmem_svm_as_buffer(context, svm, flags, size, &err): a buffer over the SVM memory
    (PyOpenCL's SVMPointer.as_buffer). flags: cl_mem_flags, 0 for read-write;
    CL_MEM_USE_HOST_PTR is added unless USE_ or COPY_HOST_PTR is given. size: bytes,
    0 for svm.size. The SVM memory must outlive the buffer. Errors:
    CL_INVALID_VALUE (svm.ptr NULL, released allocation), CLMEM_ERROR_SIZE_UNKNOWN
    (size 0 and svm.size unknown), CL_INVALID_BUFFER_SIZE (size above svm.size), and
    those of clmem_buffer_create. Release with clmem_buffer_release. */
CLMEM_API clmem_buffer clmem_svm_as_buffer(cl_context context, clmem_svm svm, cl_mem_flags flags, size_t size,
                                           cl_int *errcode_ret);

/* ---------------------------------------------------------------------------------
   SVM ENQUEUES
   --------------------------------------------------------------------------------- */

/** Options of clmem_enqueue_svm_memfill: .byte_count (bytes to fill from dst.ptr;
    left out: all of dst.size; 0: nothing), .wait_for/.num_wait_for, .event. */
typedef struct CLMEM__OPTIONS_TYPE clmem_svm_memfill_options {
    CLMEM__GIVEN_FIELD /* given: CLMEM_GIVEN_* bits, filled by the macros */
    size_t byte_count CLMEM__DEFAULT;
    CLMEM__WAIT_FIELDS /* .wait_for, .num_wait_for, .event */
} clmem_svm_memfill_options;
/* The options of clmem_svm_memfill_options with a CLMEM_GIVEN_* bit (CLMEM__UNSET_INIT in base.h). */
#define CLMEM__SVM_MEMFILL_UNSET(X, T) X(T, byte_count, , CLMEM__UNSET_SIZE, CLMEM_GIVEN_BYTE_COUNT)
/** CLMEM_SVM_MEMFILL_OPTIONS_INIT: the initializer of a clmem_svm_memfill_options built
    by hand: every option left out; a field then set means its value (NAMED OPTIONS in base.h). */
#define CLMEM_SVM_MEMFILL_OPTIONS_INIT CLMEM__UNSET_INIT(clmem_svm_memfill_options, CLMEM__SVM_MEMFILL_UNSET)

/** clmem_enqueue_svm_memfill(queue, dst, pattern, pattern_size, ...): fill SVM memory
    with copies of a pattern (clEnqueueSVMMemFill; PyOpenCL's enqueue_svm_memfill).
    Unlike PyOpenCL, .byte_count is honoured: exactly that many bytes are filled, the
    rest is untouched. pattern_size: 1, 2, 4, ..., 128; byte_count and dst.ptr
    multiples of it. The pattern may be freed when the call returns.
    Errors: CL_INVALID_COMMAND_QUEUE, CL_INVALID_VALUE (NULL pattern or dst.ptr,
    pattern size, byte count above dst.size or not a multiple, dst.ptr misaligned,
    released allocation), CLMEM_ERROR_SIZE_UNKNOWN (no .byte_count, dst.size 0),
    CL_INVALID_CONTEXT, CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: nothing is enqueued, no .event made), CL_INVALID_OPERATION (no SVM).
    Example: float zero = 0; clmem_enqueue_svm_memfill(q, a.svm, &zero, sizeof zero); */
#define clmem_enqueue_svm_memfill(...) clmem__svm_memfill_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__svm_memfill_(queue, dst, pattern, pattern_size, ...)                    \
    CLMEM__NAMED_RET(clmem_enqueue_svm_memfill_opts(queue, dst, pattern, pattern_size, \
        CLMEM__NAMED(clmem_svm_memfill_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_enqueue_svm_memfill_opts(cl_command_queue queue, clmem_svm dst, const void *pattern,
                                                size_t pattern_size, const clmem_svm_memfill_options *opts);

/** clmem_enqueue_svm_migratemem(queue, svms, n, flags, ...): migrate n SVM ranges to
    the queue's device, or with CL_MIGRATE_MEM_OBJECT_HOST to the host
    (clEnqueueSVMMigrateMem, OpenCL 2.1; PyOpenCL's enqueue_svm_migratemem, which
    never worked in 2025.1). Each range is svms[i].ptr and svms[i].size bytes (size
    0: the whole allocation holding ptr). flags: 0 or CL_MIGRATE_MEM_OBJECT_HOST |
    CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED. Options: .wait_for, .num_wait_for, .event.
    Errors: CL_INVALID_VALUE (n 0, svms NULL, an entry with NULL ptr or released,
    unknown flag bits), CL_INVALID_OPERATION (device or headers older than 2.1),
    CL_INVALID_COMMAND_QUEUE, CL_INVALID_CONTEXT, CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: nothing is enqueued, no .event made). */
CLMEM_API cl_int clmem_enqueue_svm_migratemem_opts(cl_command_queue queue, const clmem_svm *svms, cl_uint n,
                                                   cl_mem_migration_flags flags, const clmem_enqueue_options *opts);
#ifndef __cplusplus
CLMEM__MIGRATE_ARGS(svm_migratemem, clmem_svm, clmem_enqueue_svm_migratemem_opts)
#define clmem_enqueue_svm_migratemem(queue, ...) \
    clmem__svm_migratemem_call(queue, &(clmem__svm_migratemem_args){__VA_ARGS__, .given = CLMEM__GIVEN(__VA_ARGS__)})
#endif

/* ---------------------------------------------------------------------------------
   C-SHAPED ARRAYS IN SVM (PyOpenCL's svm_empty, svm_empty_like, csvm_*, fsvm_*)
   --------------------------------------------------------------------------------- */

#define CLMEM_SVM_MAX_DIMS 8

/** An n-dimensional array in SVM (what PyOpenCL's svm_empty returns, without numpy).
    svm: data pointer, nbytes and owning allocation: pass arr.svm to copies, fills,
    maps and kernels; release with clmem_svm_array_release(&arr) (or release
    clmem_svm_array_allocation(arr)). dtype: the element type's name as written
    ("float"); itemsize: sizeof it; shape/strides (bytes) of ndim dimensions; order
    'C' (last index fastest) or 'F'; alignment: as allocated. Element (i, j) of a
    2-D float array: *(float *)((char *)arr.svm.ptr + i*arr.strides[0] + j*arr.strides[1]). */
typedef struct clmem_svm_array {
    clmem_svm svm;
    const char *dtype;
    size_t itemsize;
    unsigned ndim;
    size_t shape[CLMEM_SVM_MAX_DIMS];
    size_t strides[CLMEM_SVM_MAX_DIMS];
    char order;
    size_t alignment;
} clmem_svm_array;

/** Options of the svm_empty family:
    .shape = {d0, d1, ...}  required for svm_empty/csvm_empty/fsvm_empty; ignored by
                            the _like forms (they copy it)
    .ndim                   number of dimensions (0: the leading non-zero entries of
                            .shape; give it for zero-length dimensions: .shape = {0},
                            .ndim = 1)
    .order                  'C' (default) or 'F'
    .alignment              bytes (0: the element size, as PyOpenCL; forwarded by the
                            _like forms, unlike PyOpenCL 2025.1's c/fsvm_empty_like)
    .queue                  bind the allocation to this queue (see
                            clmem_svm_allocation_create) */
typedef struct CLMEM__OPTIONS_TYPE clmem_svm_empty_options {
    CLMEM__GIVEN_FIELD /* given: CLMEM_GIVEN_* bits, filled by the macros */
    size_t shape[CLMEM_SVM_MAX_DIMS] CLMEM__DEFAULT;
    unsigned ndim CLMEM__DEFAULT;
    char order CLMEM__DEFAULT;
    size_t alignment CLMEM__DEFAULT;
    cl_command_queue queue CLMEM__DEFAULT;
} clmem_svm_empty_options;
/* The options of clmem_svm_empty_options with a CLMEM_GIVEN_* bit (CLMEM__UNSET_INIT in base.h). */
#define CLMEM__SVM_EMPTY_UNSET(X, T)                            \
    CLMEM__LAYOUT_UNSET(X, T)                                   \
    X(T, alignment, , CLMEM__UNSET_SIZE, CLMEM_GIVEN_ALIGNMENT)
/** CLMEM_SVM_EMPTY_OPTIONS_INIT: the initializer of a clmem_svm_empty_options built by
    hand: every option left out; a field then set means its value (NAMED OPTIONS in base.h). */
#define CLMEM_SVM_EMPTY_OPTIONS_INIT CLMEM__UNSET_INIT(clmem_svm_empty_options, CLMEM__SVM_EMPTY_UNSET)

/** clmem_svm_empty(ctx, flags, T, &err, .shape = {...}, ...): a new uninitialised
    array of element type T in SVM made with cl_svm_mem_flags `flags` (PyOpenCL's
    svm_empty). clmem_csvm_empty(ctx, T, &err, ...) uses CL_MEM_READ_WRITE (coarse
    grain), clmem_fsvm_empty(...) CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER. The
    _like forms take the dtype, itemsize, shape and order of an existing array:
    clmem_svm_empty_like(ctx, flags, &like, &err, ...), clmem_csvm_empty_like(ctx,
    &like, &err, ...), clmem_fsvm_empty_like(ctx, &like, &err, ...).
    Like every constructor, it returns the new handle and takes errcode_ret (may be
    NULL) as its last positional argument, before the named options.
    Returns the array; on failure an empty one (svm.ptr NULL) and *errcode_ret:
    CL_INVALID_VALUE (like NULL, no .shape, .ndim above CLMEM_SVM_MAX_DIMS, order not
    'C'/'F'), CL_INVALID_BUFFER_SIZE (the byte size overflows), and those of
    clmem_svm_allocation_create.
    Example: clmem_svm_array a = clmem_fsvm_empty(ctx, float, &err, .shape = {3000}, .alignment = 64);
             float *x = (float *)a.svm.ptr; */
#ifndef __cplusplus /* C++: clmem/cxx.h */
#define clmem_svm_empty(...) clmem__svm_empty_(__VA_ARGS__, )
#define clmem__svm_empty_(ctx, flags, T, errcode_ret, ...)       \
    clmem_svm_empty_opts(ctx, flags, sizeof(T), #T, errcode_ret, \
                         CLMEM__NAMED(clmem_svm_empty_options, __VA_ARGS__))
#define clmem_csvm_empty(...) clmem__csvm_empty_(__VA_ARGS__, )
#define clmem__csvm_empty_(ctx, T, errcode_ret, ...) clmem__svm_empty_(ctx, CL_MEM_READ_WRITE, T, errcode_ret, __VA_ARGS__)
#define clmem_fsvm_empty(...) clmem__fsvm_empty_(__VA_ARGS__, )
#define clmem__fsvm_empty_(ctx, T, errcode_ret, ...) \
    clmem__svm_empty_(ctx, CL_MEM_READ_WRITE | CLMEM__SVM_FINE_GRAIN_BUFFER, T, errcode_ret, __VA_ARGS__)
#define clmem_svm_empty_like(...) clmem__svm_empty_like_(__VA_ARGS__, )
#define clmem__svm_empty_like_(ctx, flags, like, errcode_ret, ...) \
    clmem_svm_empty_like_opts(ctx, flags, like, errcode_ret,       \
                              CLMEM__NAMED(clmem_svm_empty_options, __VA_ARGS__))
#define clmem_csvm_empty_like(...) clmem__csvm_empty_like_(__VA_ARGS__, )
#define clmem__csvm_empty_like_(ctx, like, errcode_ret, ...) \
    clmem__svm_empty_like_(ctx, CL_MEM_READ_WRITE, like, errcode_ret, __VA_ARGS__)
#define clmem_fsvm_empty_like(...) clmem__fsvm_empty_like_(__VA_ARGS__, )
#define clmem__fsvm_empty_like_(ctx, like, errcode_ret, ...) \
    clmem__svm_empty_like_(ctx, CL_MEM_READ_WRITE | CLMEM__SVM_FINE_GRAIN_BUFFER, like, errcode_ret, __VA_ARGS__)
#endif
/* CL_MEM_SVM_FINE_GRAIN_BUFFER, also without 2.0 headers */
#define CLMEM__SVM_FINE_GRAIN_BUFFER ((cl_svm_mem_flags)1 << 10)

/** The functions behind the svm_empty macros (for C++ and function pointers); opts may be NULL for _like. */
CLMEM_API clmem_svm_array clmem_svm_empty_opts(cl_context ctx, cl_svm_mem_flags flags, size_t itemsize, const char *dtype,
                                               cl_int *errcode_ret, const clmem_svm_empty_options *opts);
CLMEM_API clmem_svm_array clmem_svm_empty_like_opts(cl_context ctx, cl_svm_mem_flags flags, const clmem_svm_array *like,
                                                    cl_int *errcode_ret, const clmem_svm_empty_options *opts);

/** clmem_svm_array_allocation(arr): the allocation owning arr's memory. */
static inline clmem_svm_allocation clmem_svm_array_allocation(clmem_svm_array arr) {
    clmem_svm_allocation a;
    a.svm = arr.svm;
    return a;
}

/** clmem_svm_array_release(&arr): release the array's allocation (see
    clmem_svm_allocation_release, same results) and empty arr.svm. */
CLMEM_API cl_int clmem_svm_array_release(clmem_svm_array *arr);

/* ---------------------------------------------------------------------------------
   SVM POINTERS A KERNEL REACHES THROUGH MEMORY, AND FINDING AN ALLOCATION
   --------------------------------------------------------------------------------- */

/** clmem_kernel_set_exec_info(kernel, svms, n, fine_grain_system): tell a kernel which
    SVM memory it reaches through pointers stored in memory rather than through its
    arguments (clSetKernelExecInfo; PyOpenCL's Kernel.set_exec_info). A linked list
    in SVM whose nodes point to each other, walked from a head passed as an argument:
    every node not passed as an argument must be named here (coarse- and fine-grain
    buffer SVM), or the device may not make it available to the kernel.
    - svms, n: the n SVM pointers (CL_KERNEL_EXEC_INFO_SVM_PTRS gets each
      svms[i].ptr; the list replaces the one set before). n 0 with svms NULL leaves
      the kernel's list as it was (OpenCL has no empty list).
    - fine_grain_system: CL_TRUE when the kernel follows pointers to fine-grain
      system SVM (any host memory, e.g. from malloc; CL_KERNEL_EXEC_INFO_SVM_FINE_
      GRAIN_SYSTEM). CL_FALSE sets it back to CL_FALSE where a device of the context
      has fine-grain system SVM, and is a no-op where none has (it cannot be on).
    The setting stays with the kernel for every later enqueue, as OpenCL's does.
    Returns CL_SUCCESS, or:
      CL_INVALID_KERNEL     kernel NULL (or not a valid kernel)
      CL_INVALID_VALUE      svms NULL with n > 0, svms not NULL with n 0, an entry
                            with a NULL ptr, an entry whose allocation was released
      CL_INVALID_CONTEXT    an entry's allocation belongs to another context
      CL_INVALID_OPERATION  no device of the kernel's context has SVM (or the OpenCL
                            headers are older than 2.0); fine_grain_system CL_TRUE
                            while no device has fine-grain system SVM
      CL_OUT_OF_HOST_MEMORY, or the driver's code from clSetKernelExecInfo.
    Unlike clSetKernelExecInfo, the pointers and the fine-grain system flag are
    checked before the driver sees them (PoCL 3.1 accepts NULL entries and turns the
    flag on for devices without system SVM).
    Thread safety: as clSetKernelArg: not for one kernel from two threads at once.
    Example: clmem_svm nodes[2] = {a.svm, b.svm};
             clmem_kernel_set_exec_info(k, nodes, 2, CL_FALSE); */
CLMEM_API cl_int clmem_kernel_set_exec_info(cl_kernel kernel, const clmem_svm *svms, cl_uint n,
                                            cl_bool fine_grain_system);

/** clmem_svm_allocation_lookup(ptr, &alloc): the live clmem SVM allocation whose
    memory holds ptr: its first byte, any byte inside (an interior pointer such as
    &array[17] or a list node's field) or its last byte; one past the end is not
    inside. *alloc becomes a handle of that allocation (alloc->svm.ptr its start,
    alloc->svm.size its size; ptr - alloc->svm.ptr is the offset), usable wherever an
    allocation goes, also to release it: clmem_svm_allocation_release(alloc). Only
    allocations made by clmem count (clmem_svm_allocation_create, the svm_empty family,
    clmem_svm_allocator_allocate); pooled SVM blocks (clmem_svm_pool) and memory from a
    raw clSVMAlloc are not allocations of their own and are not found.
    Returns CL_SUCCESS, or with *alloc emptied (ptr NULL, size 0):
      CL_INVALID_VALUE       ptr NULL, alloc NULL
      CLMEM_ERROR_NOT_FOUND  ptr is not inside a live clmem SVM allocation (never from
                             clmem, already released, or one past the end)
    Cost: a scan of the live allocations and maps under one lock (no driver call).
    Thread safety: any thread. An allocation released by another thread after the
    lookup returned makes the handle stale, not dangerous: releasing it again reports
    CLMEM_ERROR_DOUBLE_RELEASE, using it reports "was released".
    Example: clmem_svm_allocation a;
             if (clmem_svm_allocation_lookup(&node->value, &a) == CL_SUCCESS)
                 clmem_svm_allocation_release(&a); */
CLMEM_API cl_int clmem_svm_allocation_lookup(const void *ptr, clmem_svm_allocation *alloc);

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of svm; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* functions (each described where it is defined) */
static cl_int clmem__svm_check_live(const char *fn, const char *what, clmem_svm svm, cl_context *ctx);
#ifndef CL_VERSION_2_0
static cl_int clmem__svm_unsupported(const char *fn);
#endif
static inline cl_int clmem__svm_free_after(cl_command_queue queue, cl_context context, void *ptr);
static cl_int clmem__queue_out_of_order(const char *fn, cl_command_queue queue, bool *ooo);
static cl_int clmem__check_in_order(const char *fn, cl_command_queue queue, const char *why);
static cl_int clmem__svm_check_args(const char *fn, cl_context ctx, cl_uint alignment, cl_svm_mem_flags flags,
                                    cl_command_queue queue);
#ifdef CL_VERSION_2_0
static cl_int clmem__svm_check_devices(const char *fn, cl_context ctx, size_t size, cl_uint alignment,
                                       cl_svm_mem_flags flags);
#endif
static cl_int clmem__svm_check_enqueue(const char *fn, cl_command_queue queue, const cl_event *wl, cl_uint nw,
                                       clmem_svm svm, const char *what);
static cl_int clmem__ptr_fill_extent(const char *fn, void *ptr, size_t size, size_t offset, const void *pattern,
                                     size_t pattern_size, size_t n, bool n_given, size_t *count);
static cl_int clmem__svm_fill(const char *fn, cl_command_queue queue, clmem_svm dst, size_t offset, const void *pattern,
                              size_t pattern_size, size_t n, bool n_given, const cl_event *wl, cl_uint nw, cl_event *event);
/* ---- end private ---- */
