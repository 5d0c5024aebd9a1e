/* >>stager: staged transfers of pageable host memory through pinned slots (beyond
   PyOpenCL; the work a driver does for a pageable transfer, done by several threads and
   overlapped with the DMA) */
#include "base.h"
#include "buffer.h"
#include "image.h"
#include "svm.h"
#include "pool.h"

#ifdef __cplusplus
extern "C" {
#endif
/* ---------------------------------------------------------------------------------
   STAGED TRANSFERS OF PAGEABLE HOST MEMORY

   Data that lives in ordinary (pageable) host memory reaches a discrete GPU faster
   when it is copied into pinned memory first, by several host threads at once, while
   the DMA engine moves the previous piece: the same work the driver does for a
   pageable transfer, done with more memory bandwidth and overlapped. A
   clmem_stager holds the pinned slots and the threads, made once:
       clmem_stager *st = clmem_stager_create(q, 0, 0, 0, &err);   (defaults)
       clmem_stager_copy(st, buf, host);                  host -> buffer, all of buf
       clmem_stager_copy(st, host, buf, .byte_count = n, .src_offset = off);
       clmem_stager_release(st);
   A copy of at least the stager's threshold goes in pieces of slot_size bytes
   through the slots: for a write, threads copy piece i into a slot while the DMA of
   piece i-1 runs; for a read, the DMA of the next pieces runs while threads copy
   piece i out. The pieces that overlap nothing, a write's first and a read's last,
   ramp: slot_size / 8, / 4, / 2 (those of at least 1 MiB), so a write's DMA starts
   after an eighth of a slot is copied and a read ends an eighth of a slot's copy
   after its last DMA (with 16 MiB slots a write begins 2, 4, 8, 16, 16 MiB). Smaller
   copies, and every copy on a device where staging does not pay (a CPU device such as
   PoCL's, or a device whose memory is the host's, CL_DEVICE_HOST_UNIFIED_MEMORY), are
   enqueued directly on the queue: the threshold is then "never" unless set
   (clmem_stager_set_threshold).

   How the default threshold was chosen: bench/pinned_bench measures raw pageable,
   raw pinned, clmem pinned and clmem staged side by side for 4 KiB..256 MiB in both
   directions; CLMEM_STAGER_DEFAULT_THRESHOLD is the smallest size from which staged
   beats raw pageable in both directions (README: "Pinned memory and staged
   transfers"). On an H100 (NVIDIA OpenCL 3.0, PCIe, 16-core host) staged writes
   overtook pageable ones from 8 MiB (reads from 4 KiB).

   How the default shape was chosen (clmem_stager_create(q, 0, 0, 0, &err)): 4 slots
   of 16 MiB and min(16, processors online / 2) threads, at least 1. The figures
   (bench/pageable_gpu.sh, GB/s write / read; docs/benchmarks.md, "Pageable memory"):
   on a 64-CPU host with an H200, where the DMA from pinned memory alone runs at
   54-55 GB/s, 4 slots x 16 MiB x 16 threads was the best shape of the sweep:
   39.8 / 45.3 at 64 MiB, 49.8 / 48.2 at 256 MiB, 52.6 / 53.4 at 1 GiB, against
   23.1 / 30.7, 32.9 / 37.9 and 31.8 / 34.8 for 2 x 16 MiB x 8. Two slots were
   slower and less steady: 2 x 16 MiB x 8 read 256 MiB at 37.9 in one run and 29.4
   in the sweep, 2 x 16 MiB x 16 at 41.1, where 4 slots read 48.2 (with two, the DMA
   is at most one piece ahead of the threads: the figures fit slots running short,
   they do not isolate it). 32 threads were slower than 16 (4 x 16 MiB: 26.3 read at
   256 MiB), 4 MiB slots slower still (15-20 write from 128 MiB), huge
   pages no faster. On a 16-core host with an H100, 8 threads (half the cores) were
   the best of that sweep. Where staging does not pay (the threshold is "never") the
   shape is the same and unused until a threshold is set.

   Memory that is already pinned (a clmem_pinned_allocation) needs no stager: give it
   to clmem_enqueue_copy. A copy whose host range lies within a registration
   (clmem_host_registered, registered.h) goes the direct path whatever its size: the
   DMA reads or writes the caller's pages, no slot is used.

   Queue order: every copy is a command of the stager's queue. A staged copy puts a
   marker on that queue (the pieces, on a queue of the stager's own on the same
   device, wait for it: they come after the queue's earlier work); a non-blocking one
   also a barrier that holds the queue's later work (a read, a pooled release,
   another copy) back until every piece is done. So a non-blocking staged copy
   behaves as the driver's non-blocking transfer does: it keeps the buffer alive
   (retained) until it ends, work enqueued after it waits for it, and nothing the
   caller enqueues can hold its pieces back. Copies below the threshold are the
   driver's own commands of the queue.

   Threads: the stager starts threads - 1 worker threads at creation, and at its first
   non-blocking staged copy one thread more that runs the non-blocking staged copies
   one after the other (no thread is started per copy); a blocking copy's calling
   thread is the last copier. They are the platform's threads (Win32, pthreads, or C11
   <threads.h> with CLMEM_USE_C11_THREADS), alike on every platform. While a staged
   copy runs, idle workers spin (with the processor's pause instruction, gcc and
   clang; a few milliseconds at most, so that a copy queued behind long work lets
   them sleep) from one piece to the next instead of sleeping, so that each piece starts
   with every thread awake, when the stager has at most half the processors online
   (the default does); a stager with more threads lets them sleep between pieces, as
   every stager does between copies. On a 16-core host with an H100 (8 threads, the
   DMA alone at 55 GB/s) the default stager writes 64 MiB at 34-37 GB/s and 128 MiB
   at 47-48, against 30-33 and 34-40 without the spinning and the ramp above
   (docs/benchmarks.md, "Pageable memory").
   --------------------------------------------------------------------------------- */

/** Default slot size of a stager (bytes): one piece of a staged copy. */
#define CLMEM_STAGER_DEFAULT_SLOT_SIZE ((size_t)16 << 20)
/** Default number of slots: pieces in flight (the threads fill or drain some while
    the DMA works on others; see "How the default shape was chosen"). */
#define CLMEM_STAGER_DEFAULT_SLOTS 4u
/** The most copying threads (the calling thread included) a stager takes by default:
    threads 0 means min(CLMEM_STAGER_DEFAULT_THREADS, processors online / 2), at least
    1 (see "How the default shape was chosen"). */
#define CLMEM_STAGER_DEFAULT_THREADS 16u
/** Most slots and threads a stager takes. */
#define CLMEM_STAGER_MAX_SLOTS 16u
#define CLMEM_STAGER_MAX_THREADS 64u
/** The smallest copy a stager stages on a discrete device by default (bytes); see
    "How the default threshold was chosen" above. */
#define CLMEM_STAGER_DEFAULT_THRESHOLD ((size_t)8 << 20)
/** clmem_stager_set_threshold(st, CLMEM_STAGER_NEVER): never stage. */
#define CLMEM_STAGER_NEVER SIZE_MAX

/** A stager: pinned slots, copying threads and a queue (opaque). */
typedef struct clmem_stager clmem_stager;

/** clmem_stager_create(queue, slot_size, slots, threads, &err): a stager for copies
    between pageable host memory and buffers on `queue`, an in-order queue (retained;
    every copy of the stager is a command of it, see "Queue order" above). The stager
    makes a queue of its own on the queue's device for the pieces of staged copies.
    - slot_size: bytes of each pinned slot and of each piece of a staged copy; 0 means
      CLMEM_STAGER_DEFAULT_SLOT_SIZE. At most CL_DEVICE_MAX_MEM_ALLOC_SIZE.
    - slots: how many slots, 0 means CLMEM_STAGER_DEFAULT_SLOTS; 2..CLMEM_STAGER_MAX_SLOTS.
    - threads: host threads copying into and out of the slots, the calling thread
      included; 0 means half the processors online, at least 1 and at most
      CLMEM_STAGER_DEFAULT_THREADS (clmem_stager_get_stats says how many);
      1..CLMEM_STAGER_MAX_THREADS.
    The threshold starts at CLMEM_STAGER_DEFAULT_THRESHOLD, or CLMEM_STAGER_NEVER on a
    CPU device or one with CL_DEVICE_HOST_UNIFIED_MEMORY.
    Errors: CL_INVALID_COMMAND_QUEUE (NULL, invalid, or out of order: copies keep
    their call order, which an out-of-order queue would not), CL_INVALID_VALUE (slots
    or threads out of range), CL_INVALID_BUFFER_SIZE (slot_size above the device's
    limit), CL_OUT_OF_HOST_MEMORY (also: a thread could not be started), or the
    driver's code from making the stager's queue or the slots. Thread safety: any
    thread.
    Example: clmem_stager *st = clmem_stager_create(q, 0, 0, 0, &err); */
CLMEM_API clmem_stager *clmem_stager_create(cl_command_queue queue, size_t slot_size, unsigned slots,
                                            unsigned threads, cl_int *errcode_ret);

/** clmem_stager_set_threshold(st, min_bytes): stage copies of at least min_bytes
    bytes (0: every copy, also on a CPU device, e.g. to test staging there;
    CLMEM_STAGER_NEVER: none). clmem_stager_threshold(st): the current threshold
    (0 for NULL). Errors: CL_INVALID_VALUE (NULL stager). Any thread. */
CLMEM_API cl_int clmem_stager_set_threshold(clmem_stager *st, size_t min_bytes);
CLMEM_API size_t clmem_stager_threshold(clmem_stager *st);

/** What a stager has done (clmem_stager_get_stats). */
typedef struct clmem_stager_stats {
    unsigned long long staged_copies;  /* copies that went through the slots */
    unsigned long long direct_copies;  /* copies enqueued directly (below the threshold, or of a registered
                                          host range) */
    unsigned long long staged_bytes;
    unsigned long long direct_bytes;
    unsigned long long pieces;         /* pieces of the staged copies (slot-sized, and the ramp's) */
    unsigned long long running;        /* copies in progress now (a non-blocking staged one until its event
                                          completes; a direct one while its call runs) */
    size_t slot_size, slots, threads;  /* as made */
} clmem_stager_stats;

/** clmem_stager_get_stats(st, &stats): the counters. Errors: CL_INVALID_VALUE (NULL
    stager or stats). Any thread. */
CLMEM_API cl_int clmem_stager_get_stats(clmem_stager *st, clmem_stager_stats *stats);

/** clmem_stager_copy_options: the options of clmem_stager_copy are clmem_enqueue_copy's
    (clmem_copy_options; built by hand from CLMEM_COPY_OPTIONS_INIT); this older name
    stays as an alias of that type. */
typedef clmem_copy_options clmem_stager_copy_options;

/** clmem_stager_copy(st, dst, src, ...): a linear copy between a clmem_buffer and
    pageable host memory, host -> buffer (dst a clmem_buffer) or buffer -> host (src a
    clmem_buffer), staged through the pinned slots when byte_count is at least the
    threshold, otherwise enqueued directly on the stager's queue. Other pairs are a
    compile error. It is checked and resolved as clmem_enqueue_copy's buffer <-> host
    pairs are (the one host-transfer plan), and takes their options (clmem_copy_options):
      .byte_count   left out: everything the buffer holds after the offset; 0: nothing
      .dst_offset   (write) / .src_offset (read): byte offset in the buffer; the other
                    one does not apply (offset the host pointer) and is refused
      .host_size    bytes of the host memory, checked when given
      .wait_for, .num_wait_for, .event
      .is_blocking  left out or true: the call returns when every byte has arrived (the
                    host memory may be used again) and .event, when asked for, is
                    complete (CL_COMPLETE). false: the call returns at once; the host
                    memory must stay untouched (and alive) until .event completes, which
                    it does when every byte has arrived: a staged copy runs on the
                    stager's thread for non-blocking copies and its event is a user event
                    the stager completes (set to a negative code if the copy fails: an
                    event of the wait list that fails after the call gives
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST); the buffer may be
                    released at once, and the queue's later work waits for the copy; a
                    direct copy is the driver's non-blocking call.
    .region and the rectangle options do not apply (CL_INVALID_VALUE).
    Returns CL_SUCCESS or: CL_INVALID_VALUE (st NULL, host pointer NULL, offset or
    offset + byte_count beyond the buffer, byte_count above .host_size, the host side's
    offset, .region), CL_INVALID_MEM_OBJECT (empty or released
    buffer handle, or a stale copy of a pooled one: its block may be another owner's
    now; nothing is read or written), CL_INVALID_CONTEXT (the buffer belongs to another
    context than the stager's queue), CL_INVALID_OPERATION (the buffer's HOST_* flags
    forbid the host access), CL_INVALID_EVENT_WAIT_LIST, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    (an event of the wait list has already failed, blocking or not: nothing is copied
    or enqueued, no .event made; an event that fails after the call makes a blocking
    copy return this code and a non-blocking one report it through its event's
    status), or the driver's code (the pieces already enqueued are waited for first;
    the destination then holds a part of the data; a non-blocking staged copy reports
    a failure after the call through its event's status). Every message names
    clmem_stager_copy. A copy of zero bytes calls no copy (.event: a marker after the
    wait list).
    Thread safety: any thread; the copies of a stager are commands of its queue in the
    order they were called (see "Queue order"): a copy called after a non-blocking one
    comes after it, as commands of one in-order queue do; a blocking staged copy
    returns when its own pieces are done, after the queue's earlier work.
    Examples:
        clmem_stager_copy(st, buf, src);                            // all of buf
        clmem_stager_copy(st, dst, buf, .byte_count = n, .src_offset = 4096);
        clmem_stager_copy(st, buf, src, .is_blocking = false, .event = &e); // returns at once */
#ifndef __cplusplus
#define clmem_stager_copy(...) clmem__stager_copy_(__VA_ARGS__, )
#define clmem__stager_copy_(st, dst, src, ...)                                                          \
    (CLMEM__STAGER_ASSERT(dst, src),                                                                    \
     _Generic((dst), clmem_buffer: clmem__stager_write_fn, default: clmem__stager_read_fn)(             \
         st, dst, src, CLMEM__NAMED(clmem_copy_options, __VA_ARGS__)))
/* 1 for buffer <- host and host <- buffer, 0 for the rest (a compile error). */
#define CLMEM__STAGER_OK(dst, src)                                                                      \
    _Generic((dst), clmem_buffer: _Generic((src), clmem_buffer: 0, clmem_image: 0, clmem_svm: 0,         \
                                           cl_mem: 0, default: 1),                                     \
             clmem_image: 0, clmem_svm: 0, cl_mem: 0, default: _Generic((src), clmem_buffer: 1, default: 0))
#define CLMEM__STAGER_ASSERT(dst, src)                                                                  \
    ((void)sizeof(struct {                                                                              \
        _Static_assert(CLMEM__STAGER_OK(dst, src),                                                      \
                       "clmem_stager_copy: a stager copies between a clmem_buffer and host memory only " \
                       "(host -> buffer or buffer -> host)");                                           \
        char clmem__c;                                                                                  \
    }))
#endif
/** clmem_stager_write_opts(st, dst, src, &opts) / clmem_stager_read_opts(st, dst, src,
    &opts): the two directions of clmem_stager_copy as functions (for C++, function
    pointers, and callers with an options struct; opts may be NULL). */
CLMEM_API cl_int clmem_stager_write_opts(clmem_stager *st, clmem_buffer dst, const void *src,
                                         const clmem_copy_options *opts);
CLMEM_API cl_int clmem_stager_read_opts(clmem_stager *st, void *dst, clmem_buffer src, const clmem_copy_options *opts);
/* What the generic macro selects (public linkage because it expands in user code). */
CLMEM_API cl_int clmem__stager_write_fn(clmem_stager *st, clmem_buffer dst, const void *src,
                                        const clmem_copy_options *opts);
CLMEM_API cl_int clmem__stager_read_fn(clmem_stager *st, void *dst, clmem_buffer src, const clmem_copy_options *opts);

/** clmem_stager_release(st): stop the threads, unmap and free the slots, release the
    queue. NULL: CL_SUCCESS. While a copy runs through the stager (a blocking one in
    another thread, or a non-blocking one whose event has not completed) the release is
    refused with CL_INVALID_OPERATION and words, and nothing is released: release it
    after the copies return (wait for a non-blocking copy's event). A copy that starts
    while the release runs, or after it, uses freed memory: the caller orders them.
    Returns CL_SUCCESS, CL_INVALID_OPERATION, or the driver's code from unmapping
    (everything is freed all the same). Example: clmem_stager_release(st); */
CLMEM_API cl_int clmem_stager_release(clmem_stager *st);

#ifdef __cplusplus
}
#endif
