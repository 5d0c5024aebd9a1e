/* >>peer: peer memory, an allocation on one GPU that every device of the context uses,
   copied GPU to GPU at NVLink speed by device links (beyond PyOpenCL and every
   OpenCL library) */
#include "base.h"
#include "loader.h"
#include "cuda.h"
#include "memobj.h"
#include "buffer.h"
#include "external.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   PEER MEMORY

   NVIDIA's OpenCL copies between plain buffers of two GPUs at 1-5 GB/s. Memory that
   CUDA allocated (its VMM API: cuMemCreate, exported as an fd) and that OpenCL imported
   once for each device (cl_khr_external_memory_opaque_fd) is copied by the same driver
   at NVLink speed: 340-370 GB/s between two H200s, 0.9x CUDA's own peer copy.
       clmem_peer_buffer *a = clmem_peer_buffer_create(ctx, dev0, n, &err);   on GPU 0
       clmem_peer_buffer *b = clmem_peer_buffer_create(ctx, dev1, n, &err);   on GPU 1
       clmem_buffer a0 = clmem_peer_buffer_view(a, q0, &err);   a, for work on q0's device
       clmem_enqueue_copy(q0, a0, host, .byte_count = n);      a buffer like any other
       clmem_device_link *l = clmem_device_link_create(q0, q1, 0, 0, &err);
       clmem_device_link_copy(l, clmem_peer_buffer_view(b, q1, &err), a0); GPU 0 -> GPU 1 directly
       clmem_peer_buffer_release(a);
   A view is a clmem_buffer for the queues of one device: copies, fills, maps, host
   transfers and kernel arguments take it. It is imported for that device at its first
   use, acquired on the queue first asked (clEnqueueAcquireExternalMemObjectsKHR) and
   kept until the peer buffer is released; asking again gives the same view. A view
   used on a queue of another device is refused in words (CL_INVALID_COMMAND_QUEUE):
   NVIDIA's driver crashes there. Kernels that take a view must run on its device.

   Device links: clmem_device_link_copy with a peer buffer's view on either side uses
   the view of that peer buffer for the queue's device that touches it (whichever view
   was given), and with peer memory on both sides copies GPU to GPU in one
   clEnqueueCopyBuffer on the source queue (the source device pulls nothing through
   the host), ordered as every link copy is (after the destination queue's earlier
   work; .event and the destination queue's later work wait for it). The link's
   statistics count such copies in peer_copies and peer_bytes.

   What it takes: libcuda (NVIDIA's driver; opened at run time, >>cuda), every device
   that uses the buffer with cl_khr_external_memory_opaque_fd and cl_khr_device_uuid,
   the home device a CUDA GPU (matched by UUID). Elsewhere (PoCL, Oclgrind, AMD, Intel,
   CLMEM_NO_VENDOR_LIBRARIES) clmem_peer_buffer_create refuses with
   CL_INVALID_OPERATION saying what is missing; device links between plain buffers
   stage through pinned memory as before.

   NVIDIA's driver crashes (segmentation fault inside it, driver 580) on a single import
   of 512 MiB or more, whatever the number of imports or their total, and runs with 16
   imports of 256 MiB (4 GiB in all, 4 x H200): measured by bench/peer_bench's probe,
   each configuration in a child process. clmem therefore refuses a peer buffer larger
   than CLMEM_PEER_BUFFER_MAX (default 256 MiB) with CL_INVALID_BUFFER_SIZE in words
   (allocate several and copy them one by one), and a view that would take the bytes
   imported into one context past CLMEM_PEER_IMPORT_LIMIT (default 4 GiB, the most seen
   to work) with CL_MEM_OBJECT_ALLOCATION_FAILURE in words. Define either larger where a
   driver is known to cope.

   Sizes are rounded up to CUDA's allocation granularity (2 MiB on H100/H200); the
   buffer's size is the size asked for.
   --------------------------------------------------------------------------------- */

/** The most bytes of peer views imported into one context at once (see above). */
/** The largest peer buffer, in bytes (see above: NVIDIA's driver crashes on one import
    of 512 MiB). */
#ifndef CLMEM_PEER_BUFFER_MAX
#define CLMEM_PEER_BUFFER_MAX ((size_t)256 << 20)
#endif

#ifndef CLMEM_PEER_IMPORT_LIMIT
#define CLMEM_PEER_IMPORT_LIMIT ((cl_ulong)4 << 30)
#endif

/** A peer buffer (opaque): CUDA memory on one GPU and its views. */
typedef struct clmem_peer_buffer clmem_peer_buffer;

/** clmem_peer_buffer_create(context, home, size, &err): size bytes of the home
    device's memory, usable by every device of the context through its views.
    - home: the device whose memory holds the buffer (a device of context).
    Returns the buffer (no view made yet); NULL on failure with *errcode_ret:
      CL_INVALID_CONTEXT     context NULL
      CL_INVALID_DEVICE      home NULL or not of the context
      CL_INVALID_BUFFER_SIZE size 0, or above CLMEM_PEER_BUFFER_MAX (named)
      CL_INVALID_OPERATION   no libcuda, no CUDA device with home's UUID, home lacks
                             cl_khr_external_memory_opaque_fd or cl_khr_device_uuid (said
                             in words)
      CL_MEM_OBJECT_ALLOCATION_FAILURE  cuMemCreate out of memory (CUDA's result named)
      CL_OUT_OF_RESOURCES    another CUDA failure (named); CL_OUT_OF_HOST_MEMORY.
    Thread safety: any thread.
    Example: clmem_peer_buffer *pb = clmem_peer_buffer_create(ctx, dev, size, &err); */
CLMEM_API clmem_peer_buffer *clmem_peer_buffer_create(cl_context context, cl_device_id home, size_t size,
                                                      cl_int *errcode_ret);

/** clmem_peer_buffer_view(pb, queue, &err): the buffer's view for the queue's device,
    imported and acquired (on this queue) at first use; valid on every queue of that
    device until clmem_peer_buffer_release. An empty handle on failure with *errcode_ret:
      CL_INVALID_VALUE          pb NULL
      CL_INVALID_COMMAND_QUEUE  queue NULL or invalid;  CL_INVALID_CONTEXT  another context
      CL_INVALID_OPERATION      the device lacks cl_khr_external_memory_opaque_fd (named)
      CL_MEM_OBJECT_ALLOCATION_FAILURE  the import would pass CLMEM_PEER_IMPORT_LIMIT
      or the driver's code (named).
    Releasing the view handle (clmem_buffer_release) drops that copy of the handle only.
    Thread safety: any thread. */
CLMEM_API clmem_buffer clmem_peer_buffer_view(clmem_peer_buffer *pb, cl_command_queue queue, cl_int *errcode_ret);

/** clmem_peer_buffer_size(pb) / clmem_peer_buffer_home(pb): the size asked for and the
    home device (0 / NULL for NULL). clmem_peer_buffer_fd(pb): the fd CUDA exported
    (cuMemExportToShareableHandle, POSIX fd), for importing the memory into CUDA or
    another API (cuMemImportFromShareableHandle); clmem's, valid until the release;
    -1 for NULL. */
CLMEM_API size_t clmem_peer_buffer_size(const clmem_peer_buffer *pb);
CLMEM_API cl_device_id clmem_peer_buffer_home(const clmem_peer_buffer *pb);
CLMEM_API int clmem_peer_buffer_fd(const clmem_peer_buffer *pb);

/** clmem_peer_buffer_of(view): the peer buffer a view belongs to; NULL for any other
    buffer (or a stale view). */
CLMEM_API clmem_peer_buffer *clmem_peer_buffer_of(clmem_buffer view);

/** clmem_peer_buffer_release(pb): release every view (each released on the queue that
    acquired it, which is then finished), then the CUDA memory. Every view handle is
    stale from here. NULL: CL_SUCCESS. Returns the first error met (everything is freed
    all the same), or CL_INVALID_OPERATION (nothing done) for the peer buffer of a
    pooled handle (clmem_pooled_peer's `peer`: its pool frees it). Thread safety: not
    while other calls use pb. */
CLMEM_API cl_int clmem_peer_buffer_release(clmem_peer_buffer *pb);

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of peer (peer_pool.c, device_link.c); not API.
   tools/amalgamate puts this section at the head of the implementation. ---- */

/* where peer memory lives: what clmem__peer_check_home found, a peer buffer's and a
   peer pool's */
typedef struct clmem__peer_home {
    cl_context context;
    cl_device_id home;             /* a device of context */
    const clmem__cuda_fns *cu;     /* libcuda */
    clmem__CUdevice cudev;         /* the CUDA device with home's UUID */
} clmem__peer_home;

/* functions (each described where it is defined); peer_pool.c uses those after the first */
static cl_int clmem__peer_check_home(const char *fn, cl_context context, cl_device_id home, clmem__peer_home *at);
static cl_int clmem__peer_check_size(const char *fn, size_t size, const char *several);
static clmem_peer_buffer *clmem__peer_buffer_new(const char *fn, const clmem__peer_home *at, size_t size, bool pooled,
                                                 cl_int *errcode_ret);
static cl_int clmem__peer_buffer_free(const char *fn, clmem_peer_buffer *pb);
static cl_int clmem__peer_view_for(const char *fn, clmem_peer_buffer *pb, cl_command_queue queue, clmem_buffer *buf);
static void clmem__peer_restamp(clmem_peer_buffer *pb);
static cl_int clmem__peer_link_copy(cl_command_queue src_queue, cl_command_queue dst_queue, clmem_buffer *dst,
                                    clmem_buffer *src, size_t count, const clmem_copy_options *o, bool staged, bool *done);
/* ---- end private ---- */
