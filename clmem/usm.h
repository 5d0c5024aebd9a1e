/* >>usm: Intel's unified shared memory (cl_intel_unified_shared_memory): host, device
   and shared allocations, pointer lookup, migration and advice */
#include "base.h"
#include "loader.h"
#include "memobj.h"
#include "buffer.h"
#include "svm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   UNIFIED SHARED MEMORY (cl_intel_unified_shared_memory; PyOpenCL has no USM, so
   every name here is clmem's own)

   USM is memory that host and device address with plain pointers, allocated with
   the extension's calls instead of clSVMAlloc (SYCL's and Intel GPUs' memory model;
   PoCL 4 and later on the CPU). Three types:
     CL_MEM_TYPE_HOST_INTEL    host memory the devices may access
     CL_MEM_TYPE_DEVICE_INTEL  memory of one device; the host must not touch it (copy
                               it with clmem_enqueue_copy)
     CL_MEM_TYPE_SHARED_INTEL  memory that migrates between the host and one device
                               (or all devices of the context: device NULL)

   Handles, passed by value:
     clmem_usm             a USM pointer with its size, type and context, and where
                           known its owner (an allocation or a pooled block). This is
                           what clmem_enqueue_copy, clmem_enqueue_fill,
                           clmem_set_kernel_arg and the functions below take.
     clmem_usm_allocation  owns memory from clHost/Device/SharedMemAllocINTEL;
                           `.usm` is its clmem_usm.
     clmem_pooled_usm      a block of a USM pool (>>usm_pool).

   The entry points are looked up per platform (clGetExtensionFunctionAddressForPlatform,
   by the loader, >>loader) once and kept. On a platform or device without the extension (Debian 12's PoCL 3.1,
   NVIDIA) every function returns CL_INVALID_OPERATION with a message naming
   cl_intel_unified_shared_memory.

   Releasing an allocation frees with clMemBlockingFreeINTEL, which waits for the
   commands already enqueued that use the memory. A released allocation's handle, or
   any copy of it, is refused (CL_INVALID_VALUE, "was released"); releasing it again
   is CLMEM_ERROR_DOUBLE_RELEASE. Every allocation keeps its own reference to its
   context until the memory is freed.
   --------------------------------------------------------------------------------- */

/* The extension's types and constants where the OpenCL headers lack them. */
#ifndef cl_intel_unified_shared_memory
typedef cl_bitfield cl_device_unified_shared_memory_capabilities_intel;
typedef cl_ulong cl_mem_properties_intel;
typedef cl_bitfield cl_mem_alloc_flags_intel;
typedef cl_uint cl_mem_info_intel;
typedef cl_uint cl_unified_shared_memory_type_intel;
typedef cl_uint cl_mem_advice_intel;
#endif
#ifndef CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL
#define CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL 0x4190
#define CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL 0x4191
#define CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL 0x4192
#define CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL 0x4193
#define CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL 0x4194
#define CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL (1 << 0)
#define CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL (1 << 1)
#define CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL (1 << 2)
#define CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL (1 << 3)
#define CL_MEM_ALLOC_FLAGS_INTEL 0x4195
#define CL_MEM_ALLOC_WRITE_COMBINED_INTEL (1 << 0)
#define CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL (1 << 1)
#define CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL (1 << 2)
#define CL_MEM_ALLOC_TYPE_INTEL 0x419A
#define CL_MEM_ALLOC_BASE_PTR_INTEL 0x419B
#define CL_MEM_ALLOC_SIZE_INTEL 0x419C
#define CL_MEM_ALLOC_DEVICE_INTEL 0x419D
#define CL_MEM_TYPE_UNKNOWN_INTEL 0x4196
#define CL_MEM_TYPE_HOST_INTEL 0x4197
#define CL_MEM_TYPE_DEVICE_INTEL 0x4198
#define CL_MEM_TYPE_SHARED_INTEL 0x4199
#define CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL 0x4200
#define CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL 0x4201
#define CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL 0x4202
#define CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL 0x4203
#define CL_COMMAND_MEMFILL_INTEL 0x4204
#define CL_COMMAND_MEMCPY_INTEL 0x4205
#define CL_COMMAND_MIGRATEMEM_INTEL 0x4206
#define CL_COMMAND_MEMADVISE_INTEL 0x4207
#endif

/** A USM pointer with what validation needs (read the fields directly):
      ptr      the USM pointer (host, device or shared memory)
      size     bytes reachable from ptr; 0 when unknown (transfers then take their size
               from the other side or .byte_count)
      type     CL_MEM_TYPE_HOST_INTEL, _DEVICE_INTEL or _SHARED_INTEL (0 when unknown)
      context  the context the memory belongs to (NULL when unknown: then the
               queue's context is not compared)
      pool, generation
               private: the identity of the owner (0 and NULL for a tag): an
               allocation's registry id in `generation`, or a pooled block's record in
               `pool` and its hand-out in `generation`, so that memory released since,
               through this handle or a copy, is refused.
    Take `.usm` of an allocation or a pooled block, or make one with clmem_usm_tag. */
typedef struct clmem_usm {
    void *ptr;
    size_t size;
    cl_unified_shared_memory_type_intel type;
    cl_context context;
    void *pool;
    uint64_t generation;
} clmem_usm;

/** clmem_usm_tag(context, ptr, size, type): a handle of USM memory made elsewhere
    (e.g. a raw clDeviceMemAllocINTEL; clmem_usm_get_alloc_info tells size and type).
    It owns nothing; size 0 means unknown, context NULL means not compared. */
static inline clmem_usm clmem_usm_tag(cl_context context, void *ptr, size_t size, cl_unified_shared_memory_type_intel type) {
    clmem_usm u;
    u.ptr = ptr;
    u.size = size;
    u.type = type;
    u.context = context;
    u.pool = NULL;
    u.generation = 0;
    return u;
}

/** An owning USM allocation. `.usm` is its pointer, size, type, context and identity:
    pass a.usm wherever a USM pointer goes. */
typedef struct clmem_usm_allocation {
    clmem_usm usm;
} clmem_usm_allocation;

/** clmem_usm_capabilities(device, type, &caps): what `device` offers for USM of
    `type` (CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL and its siblings: a mask of
    CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL, _ATOMIC_ACCESS_, _CONCURRENT_ACCESS_,
    _CONCURRENT_ATOMIC_ACCESS_INTEL; 0: the device cannot use that type).
    type: CL_MEM_TYPE_HOST_INTEL, CL_MEM_TYPE_DEVICE_INTEL, CL_MEM_TYPE_SHARED_INTEL
    (single-device shared), or 0 for cross-device shared memory.
    Returns CL_SUCCESS with *caps, or (with *caps 0 where caps is not NULL):
      CL_INVALID_DEVICE     device NULL
      CL_INVALID_VALUE      caps NULL, an unknown type
      CL_INVALID_OPERATION  the device or its platform lacks
                            cl_intel_unified_shared_memory (the message names which
                            and why: no entry points, or not in the extension strings)
      a failed query's code.
    Thread safety: any thread.
    Example: cl_device_unified_shared_memory_capabilities_intel caps;
             if (clmem_usm_capabilities(dev, CL_MEM_TYPE_DEVICE_INTEL, &caps) == CL_SUCCESS && caps) ... */
CLMEM_API cl_int clmem_usm_capabilities(cl_device_id device, cl_unified_shared_memory_type_intel type,
                                        cl_device_unified_shared_memory_capabilities_intel *caps);

/** clmem_usm_allocation_create(context, device, type, size, alignment, properties, &err):
    USM memory of `type` (one constructor for the extension's three allocation calls):
      CL_MEM_TYPE_HOST_INTEL    clHostMemAllocINTEL; device must be NULL
      CL_MEM_TYPE_DEVICE_INTEL  clDeviceMemAllocINTEL; device required, of the context
      CL_MEM_TYPE_SHARED_INTEL  clSharedMemAllocINTEL; device of the context, or NULL
                                for memory shared by all devices of the context
    - size: bytes, > 0 (0 is CL_INVALID_BUFFER_SIZE, as the extension says).
    - alignment: bytes, 0 for the implementation's default, else a power of two (the
      driver refuses one above its largest data type).
    - properties: NULL, or a 0-terminated list of (name, value) pairs, e.g.
      {CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL, 0}; passed on.
    Returns the allocation; on failure an empty one (usm.ptr NULL) and *errcode_ret
    (may be NULL):
      CL_INVALID_CONTEXT        context NULL
      CL_INVALID_DEVICE         device given for host memory, missing for device
                                memory, or not a device of the context
      CL_INVALID_VALUE          an unknown type, alignment not a power of two
      CL_INVALID_BUFFER_SIZE    size 0
      CL_INVALID_OPERATION      no cl_intel_unified_shared_memory, or the device(s)
                                report no capability for this type (message names
                                the device and the query)
      or the driver's code (CL_OUT_OF_RESOURCES, ...).
    Release with clmem_usm_allocation_release or clmem_release(&a).
    Thread safety: any thread.
    Example: clmem_usm_allocation d = clmem_usm_allocation_create(ctx, dev, CL_MEM_TYPE_DEVICE_INTEL, 4096, 0,
                                                                  NULL, &err); */
CLMEM_API clmem_usm_allocation clmem_usm_allocation_create(cl_context context, cl_device_id device,
                                                           cl_unified_shared_memory_type_intel type, size_t size,
                                                           cl_uint alignment, const cl_mem_properties_intel *properties,
                                                           cl_int *errcode_ret);

/** clmem_usm_allocation_release(&a): free the memory (clMemBlockingFreeINTEL: waits
    for the commands enqueued before that use it) and empty the handle. Returns
    CL_SUCCESS (also for an all-zero handle), CL_INVALID_VALUE (a NULL pointer, a tag
    or hand-made handle that owns nothing), CLMEM_ERROR_DOUBLE_RELEASE (already
    released, through this handle or a copy), or the driver's code (the handle is
    emptied and the record dropped all the same). Thread safety: any thread; releasing
    one allocation from two threads at once reports the second as a double release. */
CLMEM_API cl_int clmem_usm_allocation_release(clmem_usm_allocation *a);

/** What clGetMemAllocInfoINTEL tells of a pointer (clmem_usm_get_alloc_info). */
typedef struct clmem_usm_alloc_info {
    cl_unified_shared_memory_type_intel type; /* CL_MEM_TYPE_*_INTEL; CL_MEM_TYPE_UNKNOWN_INTEL: not USM */
    void *base;                               /* the allocation's first byte (NULL when not USM) */
    size_t size;                              /* the allocation's bytes (0 when not USM) */
    cl_device_id device;                      /* its device (NULL for host memory) */
} clmem_usm_alloc_info;

/** clmem_usm_get_alloc_info(context, ptr, &info): the allocation holding ptr (its first
    byte or any byte inside): type, base, size and device (clGetMemAllocInfoINTEL). A
    pointer USM does not know (NULL included) gives CL_SUCCESS with type
    CL_MEM_TYPE_UNKNOWN_INTEL, base NULL, size 0, device NULL, also where a driver
    answers 0 for the type or CL_INVALID_MEM_OBJECT. Host memory reports device NULL
    (PoCL 5 names a device). Combine with clmem_usm_tag:
    clmem_usm_tag(ctx, info.base, info.size, info.type).
    Errors: CL_INVALID_CONTEXT (context NULL), CL_INVALID_VALUE (info NULL),
    CL_INVALID_OPERATION (no cl_intel_unified_shared_memory), or the driver's code.
    Thread safety: any thread.
    Example: clmem_usm_alloc_info info; clmem_usm_get_alloc_info(ctx, p + 17, &info); */
CLMEM_API cl_int clmem_usm_get_alloc_info(cl_context context, const void *ptr, clmem_usm_alloc_info *info);

/** clmem_enqueue_usm_migrate(queue, usm, flags, ...): migrate usm.size bytes from
    usm.ptr to the queue's device, or with CL_MIGRATE_MEM_OBJECT_HOST to the host
    (clEnqueueMigrateMemINTEL; a hint for shared memory). flags: 0 or
    CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED (extension
    1.1 drivers may refuse 0). Options: .wait_for, .num_wait_for, .event.
    Errors: CL_INVALID_COMMAND_QUEUE, CL_INVALID_VALUE (usm.ptr NULL, usm.size 0,
    released allocation or stale pooled block, unknown flag bits), CL_INVALID_CONTEXT
    (usm of another context than the queue), CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: nothing is enqueued, no .event made), CL_INVALID_OPERATION (no
    cl_intel_unified_shared_memory), or the driver's code.
    Example: clmem_enqueue_usm_migrate(q, s.usm, CL_MIGRATE_MEM_OBJECT_HOST, .event = &ev); */
#define clmem_enqueue_usm_migrate(...) clmem__usm_migrate_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__usm_migrate_(queue, usm, flags, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_usm_migrate_opts(queue, usm, flags, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_enqueue_usm_migrate_opts(cl_command_queue queue, clmem_usm usm, cl_mem_migration_flags flags,
                                                const clmem_enqueue_options *opts);

/** clmem_enqueue_usm_advise(queue, usm, advice, ...): give the driver advice on
    usm.size bytes from usm.ptr (clEnqueueMemAdviseINTEL). The advice values are the
    implementation's (the extension reserves cl_mem_advice_intel and defines none);
    0 is passed on too. Options: .wait_for, .num_wait_for, .event.
    Errors: those of clmem_enqueue_usm_migrate but for the flags
    (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST for a wait list holding a failed
    event included), and the driver's code for advice it does not know. */
#define clmem_enqueue_usm_advise(...) clmem__usm_advise_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__usm_advise_(queue, usm, advice, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_usm_advise_opts(queue, usm, advice, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_enqueue_usm_advise_opts(cl_command_queue queue, clmem_usm usm, cl_mem_advice_intel advice,
                                               const clmem_enqueue_options *opts);

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of usm; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* the extension's entry points of one platform (usm.c) */
typedef void *(CL_API_CALL *clmem__usm_host_alloc_fn)(cl_context, const cl_mem_properties_intel *, size_t, cl_uint,
                                                      cl_int *);
typedef void *(CL_API_CALL *clmem__usm_dev_alloc_fn)(cl_context, cl_device_id, const cl_mem_properties_intel *, size_t,
                                                     cl_uint, cl_int *);
typedef cl_int(CL_API_CALL *clmem__usm_free_fn)(cl_context, void *);
typedef cl_int(CL_API_CALL *clmem__usm_info_fn)(cl_context, const void *, cl_mem_info_intel, size_t, void *, size_t *);
typedef cl_int(CL_API_CALL *clmem__usm_arg_fn)(cl_kernel, cl_uint, const void *);
typedef cl_int(CL_API_CALL *clmem__usm_fill_fn)(cl_command_queue, void *, const void *, size_t, size_t, cl_uint,
                                                const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *clmem__usm_memcpy_fn)(cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint,
                                                  const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *clmem__usm_migrate_fn)(cl_command_queue, const void *, size_t, cl_mem_migration_flags,
                                                   cl_uint, const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *clmem__usm_advise_fn)(cl_command_queue, const void *, size_t, cl_mem_advice_intel, cl_uint,
                                                  const cl_event *, cl_event *);

typedef struct clmem__usm_fns {
    clmem__usm_host_alloc_fn host_alloc;
    clmem__usm_dev_alloc_fn device_alloc, shared_alloc;
    clmem__usm_free_fn mem_free, blocking_free;
    clmem__usm_info_fn get_info;
    clmem__usm_arg_fn set_arg;
    clmem__usm_fill_fn fill;
    clmem__usm_memcpy_fn memcpy;
    clmem__usm_migrate_fn migrate; /* may be NULL (checked where used) */
    clmem__usm_advise_fn advise;   /* may be NULL (checked where used) */
    const char *missing;           /* the first required entry point the platform lacks, or NULL */
} clmem__usm_fns;

/* functions (each described where it is defined) */
static cl_int clmem__usm_fns_of_queue(const char *fn, cl_command_queue queue, const clmem__usm_fns **fns);
static cl_int clmem__usm_fns_of_context(const char *fn, cl_context ctx, const clmem__usm_fns **fns);
static cl_int clmem__usm_check_live(const char *fn, const char *what, clmem_usm usm);
static cl_int clmem__usm_check_enqueue(const char *fn, cl_command_queue queue, const cl_event *wl, cl_uint nw,
                                       clmem_usm usm, const char *what);
static cl_int clmem__usm_check_alloc(const char *fn, cl_context ctx, cl_device_id device,
                                     cl_unified_shared_memory_type_intel type, cl_uint alignment,
                                     const clmem__usm_fns **fns);
static void *clmem__usm_make(const clmem__usm_fns *fns, cl_context ctx, cl_device_id device,
                             cl_unified_shared_memory_type_intel type, const cl_mem_properties_intel *props, size_t size,
                             cl_uint alignment, cl_int *err);
/* ---- end private ---- */
