/* >>device_link: copies between two devices of one context, pipelined through pinned
   host memory (beyond PyOpenCL and every OpenCL library; what CUDA's cudaMemcpyPeer
   does where the GPUs have no peer path) */
#include "base.h"
#include "buffer.h"
#include "transfer.h"
#include "peer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   DEVICE LINKS

   Some drivers move a buffer between two GPUs of one context far slower than either
   GPU moves it to or from pinned host memory: NVIDIA's OpenCL copies GPU 0 -> GPU 1
   (clEnqueueCopyBuffer, clEnqueueMigrateMemObjects) at 1-5 GB/s, while each GPU
   reads and writes pinned host memory at 50 GB/s. A clmem_device_link holds a few
   pinned slots and two queues, made once:
       clmem_device_link *l = clmem_device_link_create(q0, q1, 0, 0, &err);
       clmem_device_link_copy(l, b1, b0);                      all of b0 -> b1, enqueued
       clmem_device_link_copy(l, b1, b0, .byte_count = n, .src_offset = off, .event = &done);
       clmem_device_link_release(l);
   A copy of at least the link's threshold goes in pieces of one size, up to
   slot_size bytes: piece j is read on the source queue into slot j mod slots (after
   the write that last used that slot), then written on the destination queue from
   the slot after that read, both queues flushed at every step, so the two DMA
   directions overlap and the copy runs at the speed of the slower one, plus one piece
   (the first read and the last write overlap nothing) and a small cost per piece. The
   piece size balances the two: about sqrt(n * 256 KiB) for n bytes, a power of two
   from 64 KiB to slot_size (2 MiB for 16 MiB, 4 MiB for 64 MiB, 8 MiB from 256 MiB
   with the default slots). A copy that starts while the link's previous copy is still
   writing goes in slot-sized pieces: its first read overlaps those writes, so copies
   enqueued back to back run at the slower DMA direction's speed. Smaller copies take
   the driver's path: clEnqueueCopyBuffer on the destination queue, exactly as
   clmem_enqueue_copy(dst_queue, dst, src, ...) does.

   Buffers the host may not access are staged too. A piece is read into a slot with
   clEnqueueReadBuffer and written out of it with clEnqueueWriteBuffer, host transfers
   that a source made with CL_MEM_HOST_NO_ACCESS or CL_MEM_HOST_WRITE_ONLY, or a
   destination made with CL_MEM_HOST_NO_ACCESS or CL_MEM_HOST_READ_ONLY, forbid. Such a
   side goes through a plain buffer of the link's on its device (slot_size bytes, made
   at the first such copy): clEnqueueCopyBuffer between the caller's buffer and it, at
   the device's own memory speed, then the transfer. clmem_device_link_set_staging(l,
   CLMEM_DEVICE_LINK_BY_COPIES) moves every piece with clEnqueueCopyBuffer into and out
   of the slot's buffer instead (the slots are then left unmapped).

   When staging pays: between discrete GPUs (the default threshold,
   CLMEM_DEVICE_LINK_DEFAULT_THRESHOLD, is the size from which staging beat the driver
   on two H100/H200 GPUs, docs/benchmarks.md). Between CPU devices, devices whose
   memory is the host's (CL_DEVICE_HOST_UNIFIED_MEMORY) and two queues of one device,
   staging only adds a copy: the threshold is then "never" unless set
   (clmem_device_link_set_threshold; with 0 such copies are staged too, e.g. to test
   staging on a CPU device).
   clmem_enqueue_copy and clmem_enqueue_migrate_mem_objects keep the driver's path:
   they are given one queue and cannot know where the source's contents live.

   Ordering: the copy runs after .wait_for and after the destination queue's earlier
   work. Without a wait list it also runs after the source queue's earlier work (the
   staged reads are on that queue; the driver's path waits for a marker there); with
   one, the wait list stands for the source side, as for any enqueue on another
   queue. Its .event completes when every byte has arrived. Every piece is enqueued
   on the link's queues in the call (no thread of the link's own), so the copy is, at
   return, part of both queues' order: later work on the source queue comes after its
   reads, later work on the destination queue after its writes, and the drivers keep
   the buffers alive until they are done. A link serves one copy at a time (a lock):
   copies from several threads are safe and run one after the other.

   Copies at once: two links' copies overlap only where neither order above ties them.
   A queue that is one link's destination and another's source orders the second copy
   after the first (in a ring 0 -> 1 -> 2 -> 3 -> 0 over q0..q3 each copy waits for the
   one before it). For independent copies, as CUDA programs use streams, give each link
   a destination queue of its own (a second queue of that device), as bench/peer_bench's
   ring does.
   --------------------------------------------------------------------------------- */

/** Default slot size of a device link (bytes): the largest piece of a staged copy. */
#define CLMEM_DEVICE_LINK_DEFAULT_SLOT_SIZE ((size_t)8 << 20)
/** Default number of slots: pieces in flight. */
#define CLMEM_DEVICE_LINK_DEFAULT_SLOTS 4u
/** Most slots a link takes. */
#define CLMEM_DEVICE_LINK_MAX_SLOTS 16u
/** The smallest copy a link stages between two discrete devices by default (bytes). */
#define CLMEM_DEVICE_LINK_DEFAULT_THRESHOLD ((size_t)64 << 10)
/** clmem_device_link_set_threshold(l, CLMEM_DEVICE_LINK_NEVER): never stage. */
#define CLMEM_DEVICE_LINK_NEVER SIZE_MAX

/** A device link: two queues of one context and pinned slots (opaque). */
typedef struct clmem_device_link clmem_device_link;

/** clmem_device_link_create(src_queue, dst_queue, slot_size, slots, &err): a link that
    copies from buffers used on src_queue's device to buffers used on dst_queue's.
    - src_queue, dst_queue: in-order queues of one context (retained until release);
      they may be one queue, or two queues of one device (then nothing is staged
      unless the threshold is set).
    - slot_size: bytes of one slot, 0 for CLMEM_DEVICE_LINK_DEFAULT_SLOT_SIZE; at most
      CL_DEVICE_MAX_MEM_ALLOC_SIZE of src_queue's device.
    - slots: 0 for CLMEM_DEVICE_LINK_DEFAULT_SLOTS, else 2..CLMEM_DEVICE_LINK_MAX_SLOTS.
    The slots are pinned host memory made here on src_queue as
    clmem_pinned_allocation_create makes it, so a link costs slots * slot_size bytes
    of pinned host memory (and slot_size bytes of device memory on each device whose
    buffers the host may not access, at the first copy that needs it).
    Returns the link; NULL on failure with *errcode_ret (may be NULL):
      CL_INVALID_COMMAND_QUEUE  a queue NULL or invalid, or out of order
      CL_INVALID_CONTEXT        the two queues belong to different contexts
      CL_INVALID_VALUE          slots 1 or above CLMEM_DEVICE_LINK_MAX_SLOTS
      CL_INVALID_BUFFER_SIZE    slot_size above the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE
      CL_OUT_OF_HOST_MEMORY, or the driver's code (with the call named).
    Every message names clmem_device_link_create. Thread safety: any thread.
    Example: clmem_device_link *l = clmem_device_link_create(q0, q1, 0, 0, &err); */
CLMEM_API clmem_device_link *clmem_device_link_create(cl_command_queue src_queue, cl_command_queue dst_queue,
                                                      size_t slot_size, unsigned slots, cl_int *errcode_ret);

/** clmem_device_link_set_threshold(l, min_bytes): stage copies of at least min_bytes
    (0: every copy; CLMEM_DEVICE_LINK_NEVER: none). The default is
    CLMEM_DEVICE_LINK_DEFAULT_THRESHOLD between two different non-CPU devices without
    host-unified memory, CLMEM_DEVICE_LINK_NEVER otherwise. Returns CL_SUCCESS, or
    CL_INVALID_VALUE for a NULL link. clmem_device_link_threshold(l) returns it
    (CLMEM_DEVICE_LINK_NEVER for NULL). Thread safety: any thread. */
CLMEM_API cl_int clmem_device_link_set_threshold(clmem_device_link *l, size_t min_bytes);
CLMEM_API size_t clmem_device_link_threshold(clmem_device_link *l);

/** How a link moves a staged copy's pieces (clmem_device_link_set_staging). */
typedef enum clmem_device_link_staging {
    /** The default: clEnqueueReadBuffer into a slot's mapped host memory on the source
        queue, clEnqueueWriteBuffer out of it on the destination queue; a buffer the host
        may not read (src) or write (dst) first goes through a buffer of the link's on
        its device (clEnqueueCopyBuffer). Host transfers from and to pinned memory are the
        path every driver makes fast. */
    CLMEM_DEVICE_LINK_BY_TRANSFERS = 0,
    /** clEnqueueCopyBuffer from src into a slot's buffer (left unmapped) on the source
        queue, and from the slot into dst on the destination queue, whatever the buffers'
        host-access flags. Whether a driver moves such a copy at pinned-memory speed
        rather than through its own device-to-device path is its own (measure with
        bench/multidev_bench.sh). */
    CLMEM_DEVICE_LINK_BY_COPIES = 1
} clmem_device_link_staging;

/** clmem_device_link_set_staging(l, how): move later staged copies' pieces `how`
    (CLMEM_DEVICE_LINK_BY_TRANSFERS, the default, or CLMEM_DEVICE_LINK_BY_COPIES). Waits
    for the link's copies so far, then maps or unmaps the slots on the source queue.
    Returns CL_SUCCESS, CL_INVALID_VALUE for a NULL link or another `how`, or the
    driver's code of the wait, map or unmap (named); the link then stages as it did,
    or by copies where a slot could not be mapped again. Thread safety: any thread (it
    waits for a copy running on another thread). */
CLMEM_API cl_int clmem_device_link_set_staging(clmem_device_link *l, clmem_device_link_staging how);

/** What a link has done (clmem_device_link_get_stats). */
typedef struct clmem_device_link_stats {
    size_t staged_copies;  /* copies that went through the slots */
    size_t direct_copies;  /* copies that took the driver's path */
    size_t staged_bytes;   /* bytes moved through the slots */
    size_t pieces;         /* pieces moved (each at most a slot; see DEVICE LINKS) */
    size_t peer_copies;    /* copies between peer memory, GPU to GPU (>>peer) */
    size_t peer_bytes;     /* bytes they moved */
    size_t copied_pieces;  /* of those, pieces moved with clEnqueueCopyBuffer on a side or
                              both (a buffer the host may not access, or
                              CLMEM_DEVICE_LINK_BY_COPIES) */
} clmem_device_link_stats;

/** clmem_device_link_get_stats(l, &stats): the counts so far. CL_INVALID_VALUE for a
    NULL link or stats. Thread safety: any thread. */
CLMEM_API cl_int clmem_device_link_get_stats(clmem_device_link *l, clmem_device_link_stats *stats);

/** clmem_device_link_copy(l, dst, src, options...): copy bytes of buffer src (whose
    contents live on the link's source device) into buffer dst (used next on its
    destination device), with clmem_enqueue_copy's options for buffer <- buffer:
    .byte_count (left out: the smaller of what both sides hold after their offsets;
    0 copies nothing), .src_offset, .dst_offset, .wait_for/.num_wait_for, .event (an
    event that completes when every byte has arrived), .is_blocking (as for every
    device-side copy of clmem_enqueue_copy: left out or false, return once the pieces
    are enqueued; true, return when the copy is done).
    Returns CL_SUCCESS or:
      CL_INVALID_VALUE           l NULL; offsets or byte_count beyond a buffer; a region
                                 (device links copy linear ranges only)
      CL_INVALID_MEM_OBJECT      an empty, released or stale (pooled) buffer
      CL_INVALID_CONTEXT         a buffer of another context than the link's queues
      CL_MEM_COPY_OVERLAP        src and dst ranges overlap within one buffer
      CL_INVALID_EVENT_WAIT_LIST a bad wait list
      CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST  an event of the wait list has already
                                 failed (blocking or not; nothing is enqueued). An event
                                 that fails later is the driver's to report.
      or the driver's code (with the call named). On an error after pieces were
      enqueued, the call waits for them before it returns.
    Thread safety: any thread; one copy at a time per link.
    C++: the same named options as keywords (clmem::byte_count = n), designators (C++20)
    or one clmem_copy_options. */
CLMEM_API cl_int clmem_device_link_copy_opts(clmem_device_link *l, clmem_buffer dst, clmem_buffer src,
                                             const clmem_copy_options *opts);
#ifndef __cplusplus
#define clmem_device_link_copy(...) clmem__device_link_copy_(__VA_ARGS__, )
#define clmem__device_link_copy_(l, dst, src, ...) \
    clmem_device_link_copy_opts(l, dst, src, CLMEM__NAMED(clmem_copy_options, __VA_ARGS__))
#endif

/** clmem_device_link_release(l): wait for the link's copies, free the slots, release the
    queues. NULL: CL_SUCCESS. Returns CL_SUCCESS or the first driver error met while
    waiting or unmapping (everything is freed all the same). A copy must not be running
    on the link from another thread. */
CLMEM_API cl_int clmem_device_link_release(clmem_device_link *l);

#ifdef __cplusplus
}
#endif
