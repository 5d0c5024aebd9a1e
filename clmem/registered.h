/* >>registered: registered host memory: the caller's own pages copied at DMA speed
   (beyond PyOpenCL, which has none; CUDA's cudaHostRegister) */
#include "base.h"
#include "memobj.h"
#include "buffer.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   REGISTERED HOST MEMORY

   A GPU's DMA engine reads and writes page-locked host memory at full bus speed; from
   ordinary (pageable) memory the driver first copies through bounce buffers of its
   own, at a fraction of that speed. Memory the program already has - a big array it
   allocated with malloc and fills again and again - can be made DMA-able in place:
   clmem_host_registration_create(context, ptr, size, &err) wraps the caller's bytes in
   a CL_MEM_USE_HOST_PTR buffer once (the driver pins the pages), and from then on every
   clmem_enqueue_copy between a buffer and host memory lying within the region goes
   through that buffer: clEnqueueCopyBuffer from (or to) it, a DMA from the caller's own
   pages, no host memcpy. Rectangular buffer copies (.region) and image copies with
   packed host rows go the same way (clEnqueueCopyBufferRect, clEnqueueCopyBufferToImage,
   clEnqueueCopyImageToBuffer).
       clmem_host_registration r = clmem_host_registration_create(ctx, data, n, &err);
       for (;;) {
           produce(data);                              (the host writes the region)
           clmem_enqueue_copy(q, buf, data, .byte_count = n);    (DMA from data)
           ...
           clmem_enqueue_copy(q, data, buf, .byte_count = n);    (DMA into data)
       }
       clmem_host_registration_release(&r);
   Nothing else changes: the copies are written as before; a copy whose host range is
   not entirely within one registration of the buffer's context goes the ordinary way.

   Coherence (what the spec asks of a CL_MEM_USE_HOST_PTR buffer, done by clmem): an
   implementation may keep a device copy of such a buffer's memory (NVIDIA's does), so
   the host's writes are not seen by the device until the buffer is mapped and
   unmapped, and the device's writes are in the host memory only after a map for
   reading completes. Every registered host -> buffer copy therefore enqueues a map of
   the host range with CL_MAP_WRITE_INVALIDATE_REGION (the host memory holds the new
   bytes) and its unmap before the clEnqueueCopyBuffer; every buffer -> host copy
   enqueues clEnqueueCopyBuffer into the wrapping buffer, then a map of the range with
   CL_MAP_READ and its unmap. The commands are chained by events (out-of-order queues
   too); the copy's event (.event) is the last one, and a blocking copy waits for it.
   So the host may write the region between transfers, as with any host memory; what
   it must not do is what it must not do with any non-blocking transfer (touch the
   range before the transfer's event completes). bench/registered_bench measures what
   the map and unmap cost.

   The rules:
   - a region registers once: a region overlapping a live registration (in any
     context: the spec leaves commands on two buffers over the same host memory
     undefined) is refused, as is a NULL pointer, size 0, or a size above
     CL_DEVICE_MAX_MEM_ALLOC_SIZE (the driver's CL_INVALID_BUFFER_SIZE);
   - the memory must stay valid (not freed) until the registration is released and the
     copies using it are complete;
   - releasing a registration twice, or a copy of a released one, is refused
     (CL_INVALID_MEM_OBJECT, in words); the region's later copies go the ordinary way.
   - the registration's `buffer` is a clmem_buffer over the region: pass it as a kernel
     argument. Kernels are the caller's to keep coherent, as the spec says: after the
     host writes the region, map the range with CL_MAP_WRITE_INVALIDATE_REGION and
     release the map before the kernel runs; after the kernel, map it with CL_MAP_READ
     to see its results in the region (clmem_enqueue_map_buffer: the pointer returned
     is the caller's own memory). Do not release the buffer: the registration owns it.
   Cost: registering pins the pages (milliseconds per hundred MiB on NVIDIA's driver:
   about three copies' worth), so register memory that is copied many times. On a CPU
   device (PoCL) the buffer uses the memory as it is: registering costs a
   clCreateBuffer and nothing per byte.
   --------------------------------------------------------------------------------- */

/** A registration of host memory for a context (clmem_host_registration_create).
    Fields (read them, treat them as read-only):
      ptr, size   the registered host memory; ptr NULL for an empty handle
      context     the context it is registered for (not retained separately)
      buffer      the CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE buffer over it, owned by
                  the registration (kernel arguments, maps; do not release it)
      id          private: which registration this is, so that a released handle, or a
                  copy of one, is recognised
    An all-zero handle is empty; releasing it is a no-op. */
typedef struct clmem_host_registration {
    void *ptr;
    size_t size;
    cl_context context;
    clmem_buffer buffer;
    uint64_t id;
} clmem_host_registration;

/** clmem_host_registration_create(context, ptr, size, &err): register `size` bytes of
    the caller's memory at `ptr` for the context: after it, clmem_enqueue_copy between
    any buffer of the context and host memory within [ptr, ptr + size) is a DMA from or
    into these pages (see "REGISTERED HOST MEMORY" above).
    - context: the context whose buffers the memory is copied to and from.
    - ptr, size: the memory, any alignment (page-aligned memory pins exactly its pages).
    Returns the registration; on failure an empty handle and *errcode_ret (may be
    NULL): CL_INVALID_CONTEXT (NULL context), CL_INVALID_HOST_PTR (ptr NULL),
    CL_INVALID_BUFFER_SIZE (size 0), CL_INVALID_VALUE ([ptr, ptr + size) wraps, or
    overlaps a live registration: the message names both ranges), CL_OUT_OF_HOST_MEMORY,
    or the driver's code from clCreateBuffer (with the call named).
    Thread safety: any thread. */
CLMEM_API clmem_host_registration clmem_host_registration_create(cl_context context, void *ptr, size_t size,
                                                                 cl_int *errcode_ret);

/** clmem_host_registration_release(&reg): end the registration and empty the handle;
    the wrapping buffer is released (the driver unpins the pages once the copies using
    them are complete). The memory itself stays the caller's. NULL or an empty handle
    is a no-op. Returns CL_SUCCESS, CL_INVALID_MEM_OBJECT (a copy of a registration
    released already, in words), or the driver's code.
    Thread safety: any thread (not with a copy of the same handle released at once). */
CLMEM_API cl_int clmem_host_registration_release(clmem_host_registration *reg);

/** clmem_host_registered(context, ptr, size): true when [ptr, ptr + size) lies within
    one live registration for `context` (what decides that a copy takes the registered
    way). Thread safety: any thread. */
CLMEM_API bool clmem_host_registered(cl_context context, const void *ptr, size_t size);

/* clmem__host_registrations_live(): 1 while any registration is live (the inline copy
   path then takes the full path, which asks clmem__registered_copy). One load. */
CLMEM_API int clmem__host_registrations_live(void);

/* The registered way of a host transfer (private; the host-transfer plan of transfer.c
   and the image pairs of transfer_image.c ask it first, after their checks): when the
   host bytes the transfer touches lie within one registration of the object's context,
   it is enqueued as a device-side copy from or to the registration's buffer between the
   coherence maps, *result is its code and the return is true; otherwise false, nothing
   enqueued, *result untouched. */
typedef struct clmem__registered_xfer {
    const char *fn;         /* the public name messages carry */
    cl_command_queue queue;
    bool write;             /* host -> device */
    cl_bool blocking;
    const cl_event *wait_for;
    cl_uint num_wait_for;
    cl_event *event;
} clmem__registered_xfer;
/* buffer <-> host: linear (region NULL: count bytes at byte offset of buf, the host
   bytes [host, host + count)) or rectangular (region; the buffer's origin and pitches;
   the host's pitches and the bytes [host + host_start, host + host_end) it touches,
   host_start being the host origin's byte offset) */
CLMEM_API bool clmem__registered_buffer(const clmem__registered_xfer *x, clmem_buffer buf, void *host, size_t offset,
                                        size_t count, const size_t *region, const size_t buf_origin[3], size_t buf_row,
                                        size_t buf_slice, size_t host_start, size_t host_end, size_t host_row,
                                        size_t host_slice, cl_int *result);
/* image <-> host of region at origin, host rows and slices packed or as pitched (row,
   slice as resolved; only a packed layout goes the registered way:
   clEnqueueCopyBufferToImage has no pitches) */
CLMEM_API bool clmem__registered_image(const clmem__registered_xfer *x, clmem_image img, void *host,
                                       const size_t origin[3], const size_t region[3], size_t row, size_t slice,
                                       cl_int *result);

#ifdef __cplusplus
}
#endif
