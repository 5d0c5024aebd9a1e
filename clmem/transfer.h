/* >>transfer: one enqueue_copy and one enqueue_fill for every kind of memory */
#include "base.h"
#include "memobj.h"
#include "buffer.h"
#include "image.h"
#include "svm.h"
#include "usm.h"
#include "kernel_arg.h"
#include "registered.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   DISPATCH TABLE of clmem_enqueue_copy(queue, dst, src, ...)

   The operation is chosen at compile time from the static types of dst and src.
   "host" is any other pointer (void *, float *, ...; const for a source).

   dst \ src     | clmem_buffer      | clmem_image       | clmem_svm | clmem_usm   | cl_mem         | host
   --------------+-------------------+-------------------+-----------+-------------+----------------+------------------
   clmem_buffer  | CopyBuffer(Rect)  | CopyImageToBuffer | -         | -           | by CL_MEM_TYPE | WriteBuffer(Rect)
   clmem_image   | CopyBufferToImage | CopyImage         | -         | -           | by CL_MEM_TYPE | WriteImage
   clmem_svm     | -                 | -                 | SVMMemcpy | -           | -              | SVMMemcpy
   clmem_usm     | -                 | -                 | -         | MemcpyINTEL | -              | MemcpyINTEL
   cl_mem        | by CL_MEM_TYPE    | by CL_MEM_TYPE    | -         | -           | by CL_MEM_TYPE | by CL_MEM_TYPE
   host          | ReadBuffer(Rect)  | ReadImage         | SVMMemcpy | MemcpyINTEL | by CL_MEM_TYPE | - (host to host)

   "by CL_MEM_TYPE": a raw cl_mem is a buffer or an image, told apart at run time.
   "-" is a compile error: "clmem_enqueue_copy: OpenCL has no copy between these
   types (see the DISPATCH TABLE in clmem.h)". Buffer<->SVM: wrap the SVM memory in a
   buffer (clmem_svm_as_buffer) or copy through the host. USM (clmem_usm, Intel's
   cl_intel_unified_shared_memory) copies to and from USM and host memory only: the
   extension defines no copy with buffers, and SVM is not USM.

   Options (all optional; a written option means its value, one left out its default;
   PyOpenCL's keyword names):
     buffer <- buffer   .byte_count, .src_offset, .dst_offset; rectangular when
                        .region is given: .src_origin, .dst_origin, .src_pitches,
                        .dst_pitches (region[0] and origin[0] in bytes)
     buffer <-> host    .byte_count, .dst_offset (write) / .src_offset (read);
                        rectangular when .region is given: .buffer_origin,
                        .host_origin, .buffer_pitches, .host_pitches
     image <-> host     .origin, .region (pixels), .pitches (host row, slice pitch);
                        image copies: .region left out means everything from
                        .origin on; options that do not apply to a pair are refused
     image <- image     .src_origin, .dest_origin (or .dst_origin), .region
     buffer <-> image   .offset (bytes in the buffer), .origin, .region
     svm <-> svm/host   .byte_count, .src_offset, .dst_offset
     usm <-> usm/host   .byte_count, .src_offset, .dst_offset (as svm)
     any                .wait_for, .num_wait_for (CLMEM_WAIT_FOR), .event,
                        .host_size (bytes of the host memory, checked when given)
     host transfers     .is_blocking (default blocking; CLMEM_NON_BLOCKING)

   Sizes: a host pointer has no size, so a linear host transfer copies .byte_count
   bytes, or else everything the device side holds after its offset. buffer <- buffer
   copies .byte_count bytes, or else the smaller of what both sides hold after their
   offsets. A region is given as {x, y, z}; trailing components left 0 count as 1
   ({64, 4} is {64, 4, 1}); a 0 before a non-zero component is an error. A transfer
   of zero bytes succeeds without calling OpenCL.
   --------------------------------------------------------------------------------- */

/** Options of clmem_enqueue_copy; see the DISPATCH TABLE for which apply where. */
typedef struct CLMEM__OPTIONS_TYPE clmem_copy_options {
    CLMEM__GIVEN_FIELD /* given: CLMEM_GIVEN_* bits, filled by the macros */
    size_t byte_count CLMEM__DEFAULT;            /* linear copies: bytes (left out: the default extent; 0: nothing) */
    size_t src_offset CLMEM__DEFAULT;            /* linear: byte offset in the source */
    size_t dst_offset CLMEM__DEFAULT;            /* linear: byte offset in the destination */
    size_t offset CLMEM__DEFAULT;                /* buffer <-> image: byte offset in the buffer */
    size_t host_size CLMEM__DEFAULT;             /* bytes of host memory behind the host pointer (left out: unknown) */
    size_t region[3] CLMEM__DEFAULT;             /* rectangular and image copies: extent */
    size_t origin[3] CLMEM__DEFAULT;             /* image <-> host, buffer <-> image: image origin */
    size_t pitches[2] CLMEM__DEFAULT;            /* image <-> host: host row and slice pitch (0: packed) */
    size_t buffer_origin[3] CLMEM__DEFAULT;      /* buffer <-> host rect: origin in the buffer (x in bytes) */
    size_t host_origin[3] CLMEM__DEFAULT;        /* buffer <-> host rect: origin in host memory */
    size_t buffer_pitches[2] CLMEM__DEFAULT;     /* buffer <-> host rect: buffer row and slice pitch */
    size_t host_pitches[2] CLMEM__DEFAULT;       /* buffer <-> host rect: host row and slice pitch */
    size_t src_origin[3] CLMEM__DEFAULT;         /* buffer <- buffer rect, image <- image */
    size_t dst_origin[3] CLMEM__DEFAULT;         /* buffer <- buffer rect, image <- image */
    size_t dest_origin[3] CLMEM__DEFAULT;        /* image <- image (PyOpenCL's name; same as dst_origin) */
    size_t src_pitches[2] CLMEM__DEFAULT;        /* buffer <- buffer rect */
    size_t dst_pitches[2] CLMEM__DEFAULT;        /* buffer <- buffer rect */
    int is_blocking CLMEM__DEFAULT;              /* host transfers: left out or true: block; false/CL_FALSE/0: do not */
    CLMEM__WAIT_FIELDS                           /* .wait_for, .num_wait_for: events to wait for; .event:
                                                    where to put the new event (NULL: none) */
} clmem_copy_options;
/* The options of clmem_copy_options with a CLMEM_GIVEN_* bit (CLMEM__UNSET_INIT in base.h). */
#define CLMEM__COPY_UNSET(X, T)                                        \
    X(T, byte_count, , CLMEM__UNSET_SIZE, CLMEM_GIVEN_BYTE_COUNT)       \
    X(T, host_size, , CLMEM__UNSET_SIZE, CLMEM_GIVEN_HOST_SIZE)         \
    X(T, region, [0], CLMEM__UNSET_SIZE, CLMEM_GIVEN_REGION)            \
    X(T, is_blocking, , CLMEM__UNSET_INT, CLMEM_GIVEN_IS_BLOCKING)
/** CLMEM_COPY_OPTIONS_INIT: the initializer of a clmem_copy_options built by hand
    (also clmem_stager_copy_options): every option left out; a field then set means its
    value, 0 and false included (NAMED OPTIONS in base.h).
    Example: clmem_copy_options o = CLMEM_COPY_OPTIONS_INIT; o.is_blocking = CL_FALSE; */
#define CLMEM_COPY_OPTIONS_INIT CLMEM__UNSET_INIT(clmem_copy_options, CLMEM__COPY_UNSET)

/** Options of clmem_enqueue_fill. */
typedef struct CLMEM__OPTIONS_TYPE clmem_fill_options {
    CLMEM__GIVEN_FIELD_NO_DEFAULTS /* given: CLMEM_OPTIONS_MARK, filled by the macros */
    size_t offset CLMEM__DEFAULT; /* byte offset of the filled range (buffers) */
    size_t pattern_size CLMEM__DEFAULT; /* required when the pattern is a pointer */
    CLMEM__WAIT_FIELDS                  /* .wait_for, .num_wait_for, .event */
} clmem_fill_options;

/* THE LIST OF COPY PAIRS. One row per pair the DISPATCH TABLE supports:
       X(dst kind, src kind, function, inline, what it does)
   It generates the pair functions' declarations (below), the _Generic dispatch and its
   compile-time refusal of every other pair (CLMEM__COPY_FN, CLMEM__COPY_OK), and the
   C++ overloads (clmem/cxx.h); tools/check-pairs (CTest: copy_pairs) checks the
   DISPATCH TABLE above and the README's table against it ("what it does" is the
   table's cell). A kind is a type of CLMEM__COPY_KINDS or host (a pointer: void * as
   dst, const void * as src). inline 1: the dispatch calls function##_inline, the
   inline hot path, which falls back to function. The functions have public linkage
   because the macro expands in user code; they are not meant to be called by name.
   Adding a pair is adding its row here and defining its function. */
#define CLMEM__COPY_PAIRS(X)                                                                       \
    X(clmem_buffer, clmem_buffer, clmem__copy_buffer_from_buffer, 0, "CopyBuffer(Rect)")           \
    X(clmem_buffer, clmem_image, clmem__copy_buffer_from_image, 0, "CopyImageToBuffer")            \
    X(clmem_buffer, cl_mem, clmem__copy_buffer_from_mem, 0, "by CL_MEM_TYPE")                      \
    X(clmem_buffer, host, clmem__copy_buffer_from_host, 1, "WriteBuffer(Rect)")                    \
    X(clmem_image, clmem_buffer, clmem__copy_image_from_buffer, 0, "CopyBufferToImage")            \
    X(clmem_image, clmem_image, clmem__copy_image_from_image, 0, "CopyImage")                      \
    X(clmem_image, cl_mem, clmem__copy_image_from_mem, 0, "by CL_MEM_TYPE")                        \
    X(clmem_image, host, clmem__copy_image_from_host, 0, "WriteImage")                             \
    X(clmem_svm, clmem_svm, clmem__copy_svm_from_svm, 0, "SVMMemcpy")                              \
    X(clmem_svm, host, clmem__copy_svm_from_host, 0, "SVMMemcpy")                                  \
    X(clmem_usm, clmem_usm, clmem__copy_usm_from_usm, 0, "MemcpyINTEL")                            \
    X(clmem_usm, host, clmem__copy_usm_from_host, 0, "MemcpyINTEL")                                \
    X(cl_mem, clmem_buffer, clmem__copy_mem_from_buffer, 0, "by CL_MEM_TYPE")                      \
    X(cl_mem, clmem_image, clmem__copy_mem_from_image, 0, "by CL_MEM_TYPE")                        \
    X(cl_mem, cl_mem, clmem__copy_mem_from_mem, 0, "by CL_MEM_TYPE")                               \
    X(cl_mem, host, clmem__copy_mem_from_host, 0, "by CL_MEM_TYPE")                                \
    X(host, clmem_buffer, clmem__copy_host_from_buffer, 1, "ReadBuffer(Rect)")                     \
    X(host, clmem_image, clmem__copy_host_from_image, 0, "ReadImage")                              \
    X(host, clmem_svm, clmem__copy_host_from_svm, 0, "SVMMemcpy")                                  \
    X(host, clmem_usm, clmem__copy_host_from_usm, 0, "MemcpyINTEL")                                \
    X(host, cl_mem, clmem__copy_host_from_mem, 0, "by CL_MEM_TYPE")

/* The kinds of memory the dispatch tells apart by type (the rows of CLMEM__KINDS, memobj.h,
   with copy 1); every other type is host. */
#define CLMEM__COPY_KINDS(X) CLMEM__KINDS(CLMEM__KIND_IF_COPY, X)

/* Each kind's number (host is 0), for the dispatch and the C++ traits. */
#define CLMEM__COPY_KIND_ENUM(T) CLMEM__COPY_KIND_##T,
enum { CLMEM__COPY_KIND_host, CLMEM__COPY_KINDS(CLMEM__COPY_KIND_ENUM) CLMEM__COPY_KIND_COUNT };
#undef CLMEM__COPY_KIND_ENUM

/* CLMEM__COPY_DST_T(kind), CLMEM__COPY_SRC_T(kind): a kind's parameter type, which is
   the kind itself except for host (void *, const void *). CLMEM__COPY_IS_HOST_host
   puts a comma in front, so the second element is the host type. */
#define CLMEM__COPY_IS_HOST_host ~,
#define CLMEM__COPY_SECOND(...) CLMEM__COPY_SECOND_(__VA_ARGS__)
#define CLMEM__COPY_SECOND_(a, b, ...) b
#define CLMEM__COPY_DST_T(k) CLMEM__COPY_SECOND(CLMEM__COPY_IS_HOST_##k void *, k, ~)
#define CLMEM__COPY_SRC_T(k) CLMEM__COPY_SECOND(CLMEM__COPY_IS_HOST_##k const void *, k, ~)
/* The function the dispatch calls for a row: fn, or fn##_inline for the hot path. */
#define CLMEM__COPY_ENTRY(inline_, fn) CLMEM__COPY_ENTRY_##inline_(fn)
#define CLMEM__COPY_ENTRY_0(fn) fn
#define CLMEM__COPY_ENTRY_1(fn) fn##_inline

#define CLMEM__COPY_DECL(d, s, fn, inline_, what)                                                 \
    CLMEM_API cl_int fn(cl_command_queue queue, CLMEM__COPY_DST_T(d) dst, CLMEM__COPY_SRC_T(s) src, \
                        const clmem_copy_options *opts);
CLMEM__COPY_PAIRS(CLMEM__COPY_DECL)
#undef CLMEM__COPY_DECL

/* The hot path, inline: a linear buffer <-> host copy with no region, host size or
   wait list (facts the compiler reads off the options literal at the call site and
   folds away), of a live (not stale) buffer the host may access, while no map is
   live, and not bound to one device (>>external), goes straight to
   clEnqueueWrite/ReadBuffer. It decides with the predicates of
   the host-transfer plan (clmem__host_forbidden, clmem__host_blocking,
   clmem__host_count in memobj.h); anything else, and every refusal, takes the plan
   (transfer.c), which checks everything and words the error. */
CLMEM_API cl_int clmem__copy_host_failed(cl_int err, cl_command_queue queue, clmem_buffer buf, int write);
CLMEM_API cl_int clmem__copy_host_linear(cl_command_queue queue, clmem_buffer buf, void *host, int write, unsigned given,
                                         size_t byte_count, size_t offset, size_t host_offset, int is_blocking,
                                         cl_event *event);
/* Known at compile time for a literal: options made by the macros (CLMEM_OPTIONS_MARK
   without CLMEM__OPTIONS_UNSET: a struct without the mark goes the full way, which
   refuses it, one from CLMEM_COPY_OPTIONS_INIT too, which reads it), a linear copy with no
   region, host size or wait list. Then only the scalars below are read, and the options literal is never
   built in memory. */
#define CLMEM__COPY_SIMPLE(o)                                                                                 \
    (((o)->given & (CLMEM_OPTIONS_MARK | CLMEM__OPTIONS_UNSET | CLMEM_GIVEN_REGION | CLMEM_GIVEN_HOST_SIZE)) ==      \
         CLMEM_OPTIONS_MARK &&                                                                                \
     !((o)->region[0] | (o)->region[1] | (o)->region[2]) &&                                                   \
     !(o)->host_size && !(o)->num_wait_for && !(o)->wait_for)
CLMEM__INLINE cl_int clmem__copy_host_fast(cl_command_queue queue, const clmem_buffer *buf, void *host, int write,
                                           size_t offset, size_t host_offset, const clmem_copy_options *o) {
    cl_int err;
    size_t count = clmem__host_count(o->given, o->byte_count, buf->size, offset);
    cl_bool blocking = clmem__host_blocking(o->given, o->is_blocking);
    if (!(queue && buf->mem && !clmem__buffer_stale(*buf) && !(buf->generation & CLMEM__GEN_BOUND) && host &&
          !host_offset && offset < buf->size && count && count <= buf->size - offset &&
          !clmem__host_forbidden(buf->flags, write) && !clmem__maps_live() && !clmem__host_registrations_live()))
        return clmem__copy_host_linear(queue, *buf, host, write, o->given, o->byte_count, offset, host_offset,
                                       o->is_blocking, o->event);
    err = write ? clEnqueueWriteBuffer(queue, buf->mem, blocking, offset, count, host, 0, NULL, o->event)
                : clEnqueueReadBuffer(queue, buf->mem, blocking, offset, count, host, 0, NULL, o->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__copy_host_failed(err, queue, *buf, write);
}
CLMEM__INLINE cl_int clmem__copy_buffer_from_host_inline(cl_command_queue queue, clmem_buffer dst, const void *src,
                                                         const clmem_copy_options *o) {
    if (CLMEM__COPY_SIMPLE(o))
        return clmem__copy_host_fast(queue, &dst, (void *)(uintptr_t)src, 1, o->dst_offset, o->src_offset, o);
    return clmem__copy_buffer_from_host(queue, dst, src, o);
}
CLMEM__INLINE cl_int clmem__copy_host_from_buffer_inline(cl_command_queue queue, void *dst, clmem_buffer src,
                                                         const clmem_copy_options *o) {
    if (CLMEM__COPY_SIMPLE(o)) return clmem__copy_host_fast(queue, &src, dst, 0, o->src_offset, o->dst_offset, o);
    return clmem__copy_host_from_buffer(queue, dst, src, o);
}

/* SVM and USM fills, defined with the SVM and USM transfers. */
CLMEM_API cl_int clmem__fill_svm(cl_command_queue queue, clmem_svm dst, const void *pattern, size_t pattern_size,
                                 size_t size, const clmem_fill_options *opts);
CLMEM_API cl_int clmem__fill_usm(cl_command_queue queue, clmem_usm dst, const void *pattern, size_t pattern_size,
                                 size_t size, const clmem_fill_options *opts);

/* ---- enqueue_copy: the dispatch (C11 _Generic; C++: clmem/cxx.h) ---- */

/** clmem_enqueue_copy(queue, dst, src, ...): copy between any two kinds of memory the
    DISPATCH TABLE lists; the operation is chosen from the static types of dst and src.
    Returns CL_SUCCESS or the error code with a message: CL_INVALID_COMMAND_QUEUE,
    CL_INVALID_MEM_OBJECT (empty or released handle, or a stale copy of a pooled one),
    CL_INVALID_VALUE (NULL host pointer, offsets or regions out of range or wrapping,
    the host side's offset of a linear buffer <-> host copy (.src_offset of a write,
    .dst_offset of a read: offset the pointer), zero region components
    before non-zero ones, pitches too small or not multiples, a host extent above
    .host_size), CL_INVALID_OPERATION (host access the object's HOST_* flags forbid),
    CL_MEM_COPY_OVERLAP (overlapping ranges of one buffer, also through sibling
    sub-buffers, with the spec's rectangular rule), CL_INVALID_CONTEXT (objects or
    queue from different contexts; for a plain linear buffer <-> host copy, the hot
    path, this one is the driver's: asking the queue's context would cost 2% of the
    call; NVIDIA and PoCL report it, Oclgrind 21.10 does not), CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed, blocking or not: nothing is enqueued and no .event made, where the spec has
    the command terminated, never run; an event that fails later is reported by the
    driver through the copy's event), or the driver's code.
    Thread safety: as the OpenCL calls it makes (any thread; one queue is safe).
    Examples:
        clmem_enqueue_copy(q, buf, host);                          // host -> buffer, all of buf
        clmem_enqueue_copy(q, host, buf, .byte_count = 64, .src_offset = 128);
        clmem_enqueue_copy(q, host, buf, .is_blocking = false, .event = &ev);
        clmem_enqueue_copy(q, dst, src, .region = {16, 4}, .src_origin = {0, 2},
                           .src_pitches = {64}, .dst_pitches = {16});  // rectangular */
#ifndef __cplusplus
#define clmem_enqueue_copy(...) clmem__copy_(__VA_ARGS__, )
#define clmem__copy_(queue, dst, src, ...)                                              \
    (CLMEM__COPY_ASSERT(dst, src),                                                      \
     CLMEM__COPY_FN(dst, src)(queue, dst, src, CLMEM__NAMED(clmem_copy_options, __VA_ARGS__)))

/* The dispatch: a pair's number d * CLMEM__COPY_KIND_COUNT + s, as the length of an
   array type (char (*)[1 + n]), selects its row of CLMEM__COPY_PAIRS in one _Generic;
   every other pair selects clmem__copy_unsupported, and CLMEM__COPY_ASSERT refuses it. */
#define CLMEM__COPY_KIND_ASSOC(T) T: CLMEM__COPY_KIND_##T,
#define CLMEM__COPY_KIND_OF(x) _Generic((x), CLMEM__COPY_KINDS(CLMEM__COPY_KIND_ASSOC) default: CLMEM__COPY_KIND_host)
#define CLMEM__COPY_PAIR_T(n) char(*)[1 + (n)]
#define CLMEM__COPY_PAIR_OF(dst, src) \
    ((CLMEM__COPY_PAIR_T(CLMEM__COPY_KIND_OF(dst) * CLMEM__COPY_KIND_COUNT + CLMEM__COPY_KIND_OF(src)))0)
/* (a row's kinds are only pasted, never expanded: a macro named host that user code
   defines after the include does not reach the dispatch) */
#define CLMEM__COPY_FN_ASSOC(d, s, fn, inline_, what) \
    CLMEM__COPY_PAIR_T(CLMEM__COPY_KIND_##d * CLMEM__COPY_KIND_COUNT + CLMEM__COPY_KIND_##s): CLMEM__COPY_ENTRY(inline_, fn),
#define CLMEM__COPY_OK_ASSOC(d, s, fn, inline_, what) \
    CLMEM__COPY_PAIR_T(CLMEM__COPY_KIND_##d * CLMEM__COPY_KIND_COUNT + CLMEM__COPY_KIND_##s): 1,
#define CLMEM__COPY_FN(dst, src) \
    _Generic(CLMEM__COPY_PAIR_OF(dst, src), CLMEM__COPY_PAIRS(CLMEM__COPY_FN_ASSOC) default: clmem__copy_unsupported)
/* 1 for the pairs the table supports, 0 for the others (a compile error). */
#define CLMEM__COPY_OK(dst, src) _Generic(CLMEM__COPY_PAIR_OF(dst, src), CLMEM__COPY_PAIRS(CLMEM__COPY_OK_ASSOC) default: 0)
#define CLMEM__COPY_ASSERT(dst, src)                                                                      \
    ((void)sizeof(struct {                                                                                \
        _Static_assert(CLMEM__COPY_OK(dst, src), CLMEM__COPY_REFUSAL);                                    \
        char clmem__c;                                                                                    \
    }))
#endif
/* The compile error of a pair the list lacks (C and C++). */
#define CLMEM__COPY_REFUSAL                                                                                  \
    "clmem_enqueue_copy: OpenCL has no copy between these types (host to host, buffer or image to SVM or USM): see " \
    "the DISPATCH TABLE in clmem.h"
/* Selected only for the pairs CLMEM__COPY_ASSERT refuses. */
CLMEM_API cl_int clmem__copy_unsupported(cl_command_queue queue, ...);

/* ---- enqueue_fill ---- */

/* What clmem_enqueue_fill fills: a buffer, SVM or USM memory. */
typedef struct clmem__fill_target {
    clmem_buffer buffer;   /* mem == NULL: SVM, or USM when usm.ptr is set */
    clmem_svm svm;
    clmem_usm usm;
} clmem__fill_target;
static inline clmem__fill_target clmem__fill_target_buffer(clmem_buffer b) {
    clmem__fill_target t;
    memset(&t, 0, sizeof t);
    t.buffer = b;
    return t;
}
static inline clmem__fill_target clmem__fill_target_svm(clmem_svm s) {
    clmem__fill_target t;
    memset(&t, 0, sizeof t);
    t.svm = s; /* keeps the owner, so a released allocation is refused */
    return t;
}
static inline clmem__fill_target clmem__fill_target_usm(clmem_usm u) {
    clmem__fill_target t;
    memset(&t, 0, sizeof t);
    t.usm = u; /* keeps the owner, so a released allocation is refused */
    return t;
}
/* The kinds clmem_enqueue_fill fills: X(type, name), clmem__fill_target_<name> makes its
   target (the rows of CLMEM__KINDS, memobj.h, with fill 1). It generates the C dispatch
   below and the C++ overloads (clmem/cxx.h). */
#define CLMEM__FILL_TARGETS(X) CLMEM__KINDS(CLMEM__KIND_IF_FILL, X)

#define CLMEM__FILL_DECL(T, name)                                                                   \
    CLMEM_API cl_int clmem__fill_##name(cl_command_queue queue, clmem__fill_target dst, T pattern, size_t size, \
                                        const clmem_fill_options *opts);
CLMEM__PATTERN_TYPES(CLMEM__FILL_DECL)
CLMEM__FILL_DECL(const void *, ptr)
#undef CLMEM__FILL_DECL

/** clmem_enqueue_fill(queue, dst, pattern, size, ...): fill `size` bytes of a buffer,
    of SVM or of USM memory (at .offset) with copies of a pattern. The pattern is a value
    whose type gives its size (a scalar such as 1.5f or (unsigned char)7, or an
    OpenCL vector such as (cl_float4){{1, 2, 3, 4}}), or a pointer with .pattern_size.
    Same rules and errors as clmem_enqueue_fill_buffer (and clmem_enqueue_svm_memfill
    for SVM and USM: clEnqueueMemFillINTEL, CL_INVALID_OPERATION without
    cl_intel_unified_shared_memory); a pointer without .pattern_size is CL_INVALID_VALUE;
    a wait list holding an event that has already failed is
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (nothing enqueued, no .event made).
    Options: .offset, .pattern_size, .wait_for, .num_wait_for, .event.
    A compound-literal pattern goes in parentheses (see NAMED OPTIONAL ARGUMENTS).
    Examples: clmem_enqueue_fill(q, buf, 1.5f, 4096);
              clmem_enqueue_fill(q, buf, ((cl_float4){{1, 2, 3, 4}}), 64);
              clmem_enqueue_fill(q, buf, rgba, 64, .pattern_size = 16, .offset = 16); */
#ifndef __cplusplus
#define clmem_enqueue_fill(...) clmem__fill_(__VA_ARGS__, )
#define clmem__fill_(queue, dst, pattern, size, ...)                                                  \
    CLMEM__FILL_FN(pattern)(queue,                                                                    \
                            _Generic((dst)CLMEM__FILL_TARGETS(CLMEM__FILL_TARGET_ASSOC))(dst),           \
                            pattern, size, CLMEM__NAMED(clmem_fill_options, __VA_ARGS__))
#define CLMEM__FILL_TARGET_ASSOC(T, name) , T: clmem__fill_target_##name /* a leading comma: the list needs no default */
#define CLMEM__FILL_ASSOC(T, name) T: clmem__fill_##name,
#define CLMEM__FILL_FN(pattern) _Generic((pattern), CLMEM__PATTERN_TYPES(CLMEM__FILL_ASSOC) default: clmem__fill_ptr)
#endif

/** clmem_enqueue_copy_buffer_p2p_amd(platform, queue, src, dst, ...): copy between
    buffers of two contexts through cl_amd_copy_buffer_p2p (clEnqueueCopyBufferP2PAMD;
    PyOpenCL's enqueue_copy_buffer_p2p_amd). Options: .byte_count (left out: the
    smaller of both sizes after the offsets; 0: nothing), .src_offset, .dst_offset,
    .wait_for, .num_wait_for, .event. Where the platform lacks the extension:
    CL_INVALID_OPERATION with a message; ranges beyond a buffer: CL_INVALID_VALUE; a
    wait list holding an event that has already failed:
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (nothing enqueued, no .event made),
    CL_INVALID_EVENT_WAIT_LIST for a malformed one. */
#ifndef __cplusplus
#define clmem_enqueue_copy_buffer_p2p_amd(...) clmem__p2p_(__VA_ARGS__, )
#define clmem__p2p_(platform, queue, src, dst, ...) \
    clmem_enqueue_copy_buffer_p2p_amd_opts(platform, queue, src, dst, CLMEM__NAMED(clmem_copy_options, __VA_ARGS__))
#endif
CLMEM_API cl_int clmem_enqueue_copy_buffer_p2p_amd_opts(cl_platform_id platform, cl_command_queue queue, clmem_buffer src,
                                                        clmem_buffer dst, const clmem_copy_options *opts);


#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of transfer (and its parts); not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* A rectangle in linear memory: origin, pitches (resolved), and the byte range it spans. */
typedef struct clmem__rect {
    size_t origin[3];
    size_t row, slice;   /* resolved pitches */
    size_t start, end;   /* first byte and one past the last byte touched */
} clmem__rect;

/* a host transfer's plan (the rules: transfer.c, THE HOST-TRANSFER RULES) */
typedef struct clmem__host_plan {
    const char *fn;        /* the public name every message carries */
    const char *what;      /* the buffer's argument name: "dst" (write) or "src" (read) */
    bool write;            /* host -> device */
    cl_bool blocking;
    bool rect;             /* rectangular: region, br, hr */
    size_t offset, count;  /* linear: the range in the buffer; count 0: nothing to copy */
    size_t region[3];
    clmem__rect br, hr;    /* rectangular: the buffer's and the host's rectangles */
} clmem__host_plan;

/* functions (each described where it is defined) */
static const clmem_copy_options *clmem__copy_opts_or_none(const clmem_copy_options *opts, clmem_copy_options *local);
static bool clmem__device_wait(const clmem_copy_options *o);
static cl_int clmem__host_plan_make(const char *fn, cl_command_queue queue, cl_context queue_ctx, clmem_buffer buf,
                                    const void *host, bool write, const clmem_copy_options *o, clmem__host_plan *p);
static cl_int clmem__host_plan_run(cl_command_queue queue, clmem_buffer buf, void *host, const clmem__host_plan *p,
                                   const cl_event *wait_for, cl_uint n, cl_event *event);
static cl_int clmem__buffer_pair_count(const char *fn, clmem_buffer dst, clmem_buffer src, const clmem_copy_options *o,
                                       size_t *out);
/* ---- end private ---- */
