/* >>external: memory and semaphores of another API (CUDA, Vulkan, a dma-buf) imported
   into OpenCL (cl_khr_external_memory, cl_khr_semaphore, cl_khr_external_semaphore);
   not in PyOpenCL */
#include "base.h"
#include "loader.h"
#include "memobj.h"
#include "buffer.h"

/* ---------------------------------------------------------------------------------
   EXTERNAL MEMORY

   Memory another API allocated (CUDA's cuMemCreate exported as an fd, Vulkan's
   vkGetMemoryFdKHR, a Linux dma-buf) becomes a clmem_buffer:
       clmem_external_memory *m = clmem_external_memory_import(ctx, dev, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, fd, size, 0, &err);
       clmem_buffer b;
       clmem_enqueue_acquire_external_memory(q, m, &b);      OpenCL may use it from here
       clmem_enqueue_copy(q, b, host, .byte_count = n);      b is a buffer like any other
       clmem_enqueue_release_external_memory(q, m);          the other API's again; b is stale
       clmem_external_memory_release(m);
   The OpenCL specification asks for an acquire before OpenCL uses the memory and a
   release before the other API does; clmem keeps count: the buffer handle exists only
   between the two. Before the acquire clmem_external_memory_get_buffer refuses in
   words; after the release every copy of the handle is refused as stale
   (CL_INVALID_MEM_OBJECT), as a released pooled buffer is.

   One device: an import names the device it is for (CL_DEVICE_HANDLE_LIST_KHR), or
   NULL for every device of the context. NVIDIA's OpenCL 3.0 accepts an import for one
   device only (CL_INVALID_VALUE with several), and crashes inside the driver when a
   queue of another device copies from or to it: clmem refuses such a copy, fill, map
   or host transfer with CL_INVALID_COMMAND_QUEUE in words. (A kernel argument is
   checked when the kernel is set, not where it runs: enqueue kernels that use an
   import on a queue of its device.) Peer memory (>>peer) makes one import per device.

   The fd stays the caller's: clmem does not close it (NVIDIA's driver dups what it
   needs; close it after the import, or keep it for other APIs).

   Where the device lacks the extensions (PoCL, Oclgrind) every call refuses with
   CL_INVALID_OPERATION naming the missing extension. Needs OpenCL 3.0 headers
   (clCreateBufferWithProperties).
   --------------------------------------------------------------------------------- */

/* The extensions' types and constants where the OpenCL headers lack them. */
#ifndef cl_khr_external_memory
typedef cl_uint cl_external_memory_handle_type_khr;
#endif
#ifndef CL_DEVICE_HANDLE_LIST_KHR
#define CL_DEVICE_HANDLE_LIST_KHR 0x2051
#define CL_DEVICE_HANDLE_LIST_END_KHR 0
#endif
#ifndef CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR
#define CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR 0x204F
#endif
#ifndef CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR
#define CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR 0x2060
#endif
#ifndef CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR
#define CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR 0x2067
#endif
#ifndef cl_khr_semaphore
typedef struct _cl_semaphore_khr *cl_semaphore_khr;
typedef cl_ulong cl_semaphore_properties_khr;
typedef cl_ulong cl_semaphore_payload_khr;
#define CL_SEMAPHORE_TYPE_KHR 0x203D
#define CL_SEMAPHORE_TYPE_BINARY_KHR 1
#endif
#ifndef cl_khr_external_semaphore
typedef cl_uint cl_external_semaphore_handle_type_khr;
#define CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR 0x203F
#define CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR 0
#define CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR 0x204D
#define CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR 0x204E
#endif
#ifndef CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR 0x2053
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR 0
#endif
#ifndef CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR
#define CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR 0x2055
#endif
#ifndef CL_SEMAPHORE_HANDLE_SYNC_FD_KHR
#define CL_SEMAPHORE_HANDLE_SYNC_FD_KHR 0x2058
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** An imported external memory object (opaque): one cl_mem over the other API's memory. */
typedef struct clmem_external_memory clmem_external_memory;

/** clmem_external_memory_import(context, device, handle_type, fd, size, flags, &err):
    import memory another API exported as an fd.
    - device: the device the import is for (CL_DEVICE_HANDLE_LIST_KHR), or NULL: every
      device of the context (NVIDIA accepts NULL only in a context of one device).
    - handle_type: CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR (CUDA, Vulkan) or
      CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR; the device must list it in
      CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR.
    - fd: the handle (>= 0); it stays the caller's.
    - size: bytes, > 0 and at most the exported allocation's size.
    - flags: access flags (0: CL_MEM_READ_WRITE); no host-pointer flags.
    Returns the import, not yet acquired; NULL on failure with *errcode_ret (may be NULL):
      CL_INVALID_CONTEXT      context NULL;  CL_INVALID_DEVICE  device not of the context
      CL_INVALID_VALUE        fd < 0, an unknown handle_type, host-pointer flags
      CL_INVALID_BUFFER_SIZE  size 0
      CL_INVALID_OPERATION    the device lacks cl_khr_external_memory, the handle type's
                              extension or the type (named), or clmem was built against
                              OpenCL headers before 3.0
      or the driver's code from clCreateBufferWithProperties (named).
    Thread safety: any thread.
    Example: clmem_external_memory *m = clmem_external_memory_import(ctx, dev, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, fd, size, 0, &err); */
CLMEM_API clmem_external_memory *clmem_external_memory_import(cl_context context, cl_device_id device,
                                                              cl_external_memory_handle_type_khr handle_type, int fd,
                                                              size_t size, cl_mem_flags flags, cl_int *errcode_ret);

/** clmem_enqueue_acquire_external_memory(queue, m, &buf, options...): enqueue the
    acquire (clEnqueueAcquireExternalMemObjectsKHR) and give the buffer handle, valid
    until the release. Options: .wait_for/.num_wait_for, .event.
    Returns CL_SUCCESS or:
      CL_INVALID_VALUE           m or buf NULL
      CL_INVALID_COMMAND_QUEUE   queue NULL or invalid, or of another device than the
                                 one m was imported for (NVIDIA's driver crashes there)
      CL_INVALID_CONTEXT         queue of another context
      CL_INVALID_OPERATION       m is acquired already (release it first)
      CL_INVALID_EVENT_WAIT_LIST a malformed wait list
      CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST  an event of the wait list has
                                 already failed: nothing is enqueued, no .event made
      or the driver's code (named).
    Thread safety: any thread; one import is acquired by one queue at a time. */
CLMEM_API cl_int clmem_enqueue_acquire_external_memory_opts(cl_command_queue queue, clmem_external_memory *m,
                                                            clmem_buffer *buf, const clmem_enqueue_options *opts);
/** clmem_enqueue_release_external_memory(queue, m, options...): enqueue the release
    (clEnqueueReleaseExternalMemObjectsKHR) on a queue of the device that acquired it;
    from here every copy of the buffer handle is refused as stale. Options as for the
    acquire. CL_INVALID_OPERATION when m is not acquired; the acquire's other codes
    (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST for a wait list holding a failed
    event: m stays acquired). */
CLMEM_API cl_int clmem_enqueue_release_external_memory_opts(cl_command_queue queue, clmem_external_memory *m,
                                                            const clmem_enqueue_options *opts);
#define clmem_enqueue_acquire_external_memory(...) clmem__acquire_external_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__acquire_external_(queue, m, buf, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_acquire_external_memory_opts(queue, m, buf, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))
#define clmem_enqueue_release_external_memory(...) clmem__release_external_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__release_external_(queue, m, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_release_external_memory_opts(queue, m, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))

/** clmem_external_memory_get_buffer(m, &buf): the buffer handle while m is acquired.
    CL_INVALID_OPERATION ("not acquired") before the acquire or after the release;
    CL_INVALID_VALUE for NULL arguments. Thread safety: any thread. */
CLMEM_API cl_int clmem_external_memory_get_buffer(clmem_external_memory *m, clmem_buffer *buf);

/** clmem_external_memory_device(m): the device m was imported for (NULL: every device
    of its context, or m NULL). */
CLMEM_API cl_device_id clmem_external_memory_device(const clmem_external_memory *m);

/** clmem_external_memory_release(m): release the import (the other API's memory is
    the other API's to free). NULL: CL_SUCCESS. CLMEM_ERROR_IN_USE while acquired
    (enqueue its release first; m is kept). Thread safety: not with other calls on m. */
CLMEM_API cl_int clmem_external_memory_release(clmem_external_memory *m);

/* ---------------------------------------------------------------------------------
   SEMAPHORES (cl_khr_semaphore, cl_khr_external_semaphore): binary semaphores that
   order OpenCL work against another API's. A semaphore exported as an fd (or imported
   from one: CUDA's cuImportExternalSemaphore, Vulkan's vkGetSemaphoreFdKHR) is waited
   for and signalled on queues:
       clmem_semaphore s = clmem_semaphore_import(ctx, dev, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, fd, &err);
       clmem_enqueue_wait_semaphore(q, s);    later work on q waits for the other API's signal
       clmem_enqueue_signal_semaphore(q, s);  the other API may wait for q's work so far
       clmem_semaphore_release(&s);
   Where a device lacks an extension every call refuses with CL_INVALID_OPERATION
   naming it.
   --------------------------------------------------------------------------------- */

/** A semaphore: the raw cl_semaphore_khr (`sem`, NULL for an empty handle) and the
    platform whose entry points serve it. Passed by value; released once. */
typedef struct clmem_semaphore {
    cl_semaphore_khr sem;
    cl_platform_id platform;
} clmem_semaphore;

/** clmem_semaphore_create(context, device, export_type, &err): a binary semaphore of
    the device (NULL: every device of the context); export_type 0, or a handle type
    (CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, CL_SEMAPHORE_HANDLE_SYNC_FD_KHR) it may be
    exported as (clmem_semaphore_export_fd). An empty handle on failure with *errcode_ret:
    CL_INVALID_CONTEXT, CL_INVALID_DEVICE, CL_INVALID_OPERATION (an extension or the
    export type missing, named), or the driver's code. Thread safety: any thread. */
CLMEM_API clmem_semaphore clmem_semaphore_create(cl_context context, cl_device_id device,
                                                  cl_external_semaphore_handle_type_khr export_type, cl_int *errcode_ret);
/** clmem_semaphore_import(context, device, handle_type, fd, &err): a binary semaphore
    imported from another API's fd (handle_type CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR or
    CL_SEMAPHORE_HANDLE_SYNC_FD_KHR, listed in the device's
    CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR). fd < 0: CL_INVALID_VALUE; the rest as
    clmem_semaphore_create. */
CLMEM_API clmem_semaphore clmem_semaphore_import(cl_context context, cl_device_id device,
                                                  cl_external_semaphore_handle_type_khr handle_type, int fd,
                                                  cl_int *errcode_ret);
/** clmem_semaphore_export_fd(s, device, handle_type, &fd): the fd of a semaphore made
    with that export type (clGetSemaphoreHandleForTypeKHR); the fd is the caller's to
    close. CL_INVALID_VALUE for an empty s or NULL fd; CL_INVALID_OPERATION without
    cl_khr_external_semaphore; the driver's code. */
CLMEM_API cl_int clmem_semaphore_export_fd(clmem_semaphore s, cl_device_id device,
                                           cl_external_semaphore_handle_type_khr handle_type, int *fd);
/** clmem_enqueue_wait_semaphore(queue, s, options...) / clmem_enqueue_signal_semaphore:
    enqueue a wait for / a signal of a binary semaphore (clEnqueueWait/SignalSemaphoresKHR).
    Options: .wait_for/.num_wait_for, .event. CL_INVALID_VALUE for an empty s,
    CL_INVALID_COMMAND_QUEUE, CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: nothing is enqueued, no .event made), CL_INVALID_OPERATION without
    cl_khr_semaphore, the driver's code. Thread safety: any thread. */
CLMEM_API cl_int clmem_enqueue_wait_semaphore_opts(cl_command_queue queue, clmem_semaphore s,
                                                   const clmem_enqueue_options *opts);
CLMEM_API cl_int clmem_enqueue_signal_semaphore_opts(cl_command_queue queue, clmem_semaphore s,
                                                     const clmem_enqueue_options *opts);
#define clmem_enqueue_wait_semaphore(...) clmem__wait_semaphore_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__wait_semaphore_(queue, s, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_wait_semaphore_opts(queue, s, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))
#define clmem_enqueue_signal_semaphore(...) clmem__signal_semaphore_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__signal_semaphore_(queue, s, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_signal_semaphore_opts(queue, s, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))
/** clmem_semaphore_release(&s): clReleaseSemaphoreKHR, and s is emptied. NULL or an
    empty handle: CL_SUCCESS. */
CLMEM_API cl_int clmem_semaphore_release(clmem_semaphore *s);

#ifdef __cplusplus
}
#endif
