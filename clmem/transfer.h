/* >>transfer: one enqueue_copy and one enqueue_fill for every kind of memory,
   clmem_set_kernel_arg, clmem_local_memory */

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   DISPATCH TABLE of clmem_enqueue_copy(queue, dst, src, ...)

   The operation is chosen at compile time from the static types of dst and src.
   "host" is any other pointer (void *, float *, ...; const for a source).

   dst \ src     | clmem_buffer          | clmem_image            | clmem_svm     | host
   --------------+-----------------------+------------------------+---------------+------------------------
   clmem_buffer  | CopyBuffer(Rect)      | CopyImageToBuffer      | -             | WriteBuffer(Rect)
   clmem_image   | CopyBufferToImage     | CopyImage              | -             | WriteImage
   clmem_svm     | -                     | -                      | SVMMemcpy     | SVMMemcpy
   host          | ReadBuffer(Rect)      | ReadImage              | SVMMemcpy     | - (host to host)
   cl_mem        | a raw cl_mem on either side (with cl_mem, buffer, image or host on the
                 | other) is dispatched at run time by its CL_MEM_TYPE.

   "-" is a compile error: "clmem_enqueue_copy: OpenCL has no copy between these
   types (see the DISPATCH TABLE in clmem.h)". Buffer<->SVM: wrap the SVM memory in a
   buffer (clmem_svm_as_buffer) or copy through the host.

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
     svm <-> svm/host   .byte_count
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
typedef struct clmem_copy_options {
    unsigned given CLMEM__DEFAULT;             /* CLMEM_GIVEN_* bits: filled by the macros */
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
    const cl_event *wait_for CLMEM__DEFAULT;     /* events to wait for */
    cl_uint num_wait_for CLMEM__DEFAULT;
    cl_event *event CLMEM__DEFAULT;              /* where to put the new event (NULL: none) */
} clmem_copy_options;

/** Options of clmem_enqueue_fill. */
typedef struct clmem_fill_options {
    unsigned given CLMEM__DEFAULT; /* CLMEM_GIVEN_* bits: filled by the macros */
    size_t offset CLMEM__DEFAULT; /* byte offset of the filled range (buffers) */
    size_t pattern_size CLMEM__DEFAULT; /* required when the pattern is a pointer */
    const cl_event *wait_for CLMEM__DEFAULT;
    cl_uint num_wait_for CLMEM__DEFAULT;
    cl_event *event CLMEM__DEFAULT;
} clmem_fill_options;

/* The pair functions of the dispatch table. Public linkage because the macro expands
   in user code; not meant to be called by name. Adding a pair is adding one of these
   and one entry in CLMEM__COPY_FN below. */
#define CLMEM__COPY_DECL(name, D, S) \
    CLMEM_API cl_int name(cl_command_queue queue, D dst, S src, const clmem_copy_options *opts);
CLMEM__COPY_DECL(clmem__copy_buffer_from_buffer, clmem_buffer, clmem_buffer)
CLMEM__COPY_DECL(clmem__copy_buffer_from_host, clmem_buffer, const void *)
CLMEM__COPY_DECL(clmem__copy_host_from_buffer, void *, clmem_buffer)
CLMEM__COPY_DECL(clmem__copy_buffer_from_image, clmem_buffer, clmem_image)
CLMEM__COPY_DECL(clmem__copy_image_from_buffer, clmem_image, clmem_buffer)
CLMEM__COPY_DECL(clmem__copy_image_from_image, clmem_image, clmem_image)
CLMEM__COPY_DECL(clmem__copy_image_from_host, clmem_image, const void *)
CLMEM__COPY_DECL(clmem__copy_host_from_image, void *, clmem_image)
CLMEM__COPY_DECL(clmem__copy_svm_from_svm, clmem_svm, clmem_svm)
CLMEM__COPY_DECL(clmem__copy_svm_from_host, clmem_svm, const void *)
CLMEM__COPY_DECL(clmem__copy_host_from_svm, void *, clmem_svm)
CLMEM__COPY_DECL(clmem__copy_mem_from_mem, cl_mem, cl_mem)
CLMEM__COPY_DECL(clmem__copy_mem_from_host, cl_mem, const void *)
CLMEM__COPY_DECL(clmem__copy_host_from_mem, void *, cl_mem)
CLMEM__COPY_DECL(clmem__copy_mem_from_buffer, cl_mem, clmem_buffer)
CLMEM__COPY_DECL(clmem__copy_buffer_from_mem, clmem_buffer, cl_mem)
CLMEM__COPY_DECL(clmem__copy_mem_from_image, cl_mem, clmem_image)
CLMEM__COPY_DECL(clmem__copy_image_from_mem, clmem_image, cl_mem)

/* The hot path, inline: a linear buffer <-> host copy with no region, host size or
   wait list (facts the compiler reads off the options literal at the call site and
   folds away), of a live (not stale) buffer the host may access, while no map is
   live, goes straight to clEnqueueWrite/ReadBuffer. Anything else, and every
   refusal, takes the full path, which checks everything and words the error. */
CLMEM_API int clmem__maps_live(void);
CLMEM_API cl_int clmem__copy_host_failed(cl_int err, cl_command_queue queue, clmem_buffer buf, int write);
CLMEM_API cl_int clmem__copy_host_linear(cl_command_queue queue, clmem_buffer buf, void *host, int write, unsigned given,
                                         size_t byte_count, size_t offset, int is_blocking, cl_event *event);
/* Known at compile time for a literal: options made by clmem (CLMEM_OPTIONS_MARK; a
   struct without it goes the full way, which refuses it), a linear copy with no
   region, host size or wait list. Then only the scalars below are read, and the options literal is never
   built in memory. */
#define CLMEM__COPY_SIMPLE(o)                                                                                 \
    (((o)->given & (CLMEM_OPTIONS_MARK | CLMEM_GIVEN_REGION | CLMEM_GIVEN_HOST_SIZE)) == CLMEM_OPTIONS_MARK &&   \
     !((o)->region[0] | (o)->region[1] | (o)->region[2]) &&                                                   \
     !(o)->host_size && !(o)->num_wait_for && !(o)->wait_for)
CLMEM__INLINE cl_int clmem__copy_host_fast(cl_command_queue queue, const clmem_buffer *buf, void *host, int write,
                                           size_t offset, const clmem_copy_options *o) {
    cl_int err;
    size_t count = (o->given & CLMEM_GIVEN_BYTE_COUNT) || o->byte_count ? o->byte_count : buf->size - offset;
    cl_bool blocking = (o->given & CLMEM_GIVEN_IS_BLOCKING) && !o->is_blocking ? CL_FALSE : CL_TRUE;
    if (!(queue && buf->mem && !clmem__buffer_stale(*buf) && host && offset < buf->size && count && count <= buf->size - offset &&
          !(buf->flags & (CL_MEM_HOST_NO_ACCESS | (write ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY))) &&
          !clmem__maps_live()))
        return clmem__copy_host_linear(queue, *buf, host, write, o->given, o->byte_count, offset, o->is_blocking, o->event);
    err = write ? clEnqueueWriteBuffer(queue, buf->mem, blocking, offset, count, host, 0, NULL, o->event)
                : clEnqueueReadBuffer(queue, buf->mem, blocking, offset, count, host, 0, NULL, o->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__copy_host_failed(err, queue, *buf, write);
}
CLMEM__INLINE cl_int clmem__copy_buffer_from_host_inline(cl_command_queue queue, clmem_buffer dst, const void *src,
                                                         const clmem_copy_options *o) {
    if (CLMEM__COPY_SIMPLE(o)) return clmem__copy_host_fast(queue, &dst, (void *)(uintptr_t)src, 1, o->dst_offset, o);
    return clmem__copy_buffer_from_host(queue, dst, src, o);
}
CLMEM__INLINE cl_int clmem__copy_host_from_buffer_inline(cl_command_queue queue, void *dst, clmem_buffer src,
                                                         const clmem_copy_options *o) {
    if (CLMEM__COPY_SIMPLE(o)) return clmem__copy_host_fast(queue, &src, dst, 0, o->src_offset, o);
    return clmem__copy_host_from_buffer(queue, dst, src, o);
}

/* SVM fill, defined with the SVM transfers. */
CLMEM_API cl_int clmem__fill_svm(cl_command_queue queue, clmem_svm dst, const void *pattern, size_t pattern_size,
                                 size_t size, const clmem_fill_options *opts);

/* ---- enqueue_copy: the dispatch (C11 _Generic; C++: clmem/cxx.h) ---- */

/** clmem_enqueue_copy(queue, dst, src, ...): copy between any two kinds of memory the
    DISPATCH TABLE lists; the operation is chosen from the static types of dst and src.
    Returns CL_SUCCESS or the error code with a message: CL_INVALID_COMMAND_QUEUE,
    CL_INVALID_MEM_OBJECT (empty or released handle), CL_INVALID_VALUE (NULL host
    pointer, offsets or regions out of range or wrapping, zero region components
    before non-zero ones, pitches too small or not multiples, a host extent above
    .host_size), CL_INVALID_OPERATION (host access the object's HOST_* flags forbid),
    CL_MEM_COPY_OVERLAP (overlapping ranges of one buffer, also through sibling
    sub-buffers, with the spec's rectangular rule), CL_INVALID_CONTEXT (objects or
    queue from different contexts; for a plain linear buffer <-> host copy, the hot
    path, this one is the driver's: asking the queue's context would cost 2% of the
    call; NVIDIA and PoCL report it, Oclgrind 21.10 does not), CL_INVALID_EVENT_WAIT_LIST,
    or the driver's code.
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
     CLMEM__COPY_FN(dst, src)(queue, dst, src, &(clmem_copy_options){.given = CLMEM__GIVEN(__VA_ARGS__), __VA_ARGS__}))

#define CLMEM__COPY_FN(dst, src)                                                                         \
    _Generic((dst),                                                                                      \
        clmem_buffer: _Generic((src), clmem_buffer: clmem__copy_buffer_from_buffer,                      \
                               clmem_image: clmem__copy_buffer_from_image, cl_mem: clmem__copy_buffer_from_mem, \
                               clmem_svm: clmem__copy_unsupported, default: clmem__copy_buffer_from_host_inline), \
        clmem_image: _Generic((src), clmem_buffer: clmem__copy_image_from_buffer,                        \
                              clmem_image: clmem__copy_image_from_image, cl_mem: clmem__copy_image_from_mem, \
                              clmem_svm: clmem__copy_unsupported, default: clmem__copy_image_from_host), \
        clmem_svm: _Generic((src), clmem_svm: clmem__copy_svm_from_svm, clmem_buffer: clmem__copy_unsupported, \
                            clmem_image: clmem__copy_unsupported, cl_mem: clmem__copy_unsupported,          \
                            default: clmem__copy_svm_from_host),                                          \
        cl_mem: _Generic((src), cl_mem: clmem__copy_mem_from_mem, clmem_buffer: clmem__copy_mem_from_buffer, \
                         clmem_image: clmem__copy_mem_from_image, clmem_svm: clmem__copy_unsupported,       \
                         default: clmem__copy_mem_from_host),                                             \
        default: _Generic((src), clmem_buffer: clmem__copy_host_from_buffer_inline,                       \
                          clmem_image: clmem__copy_host_from_image, clmem_svm: clmem__copy_host_from_svm,  \
                          cl_mem: clmem__copy_host_from_mem, default: clmem__copy_unsupported))

/* 1 for the pairs the table supports, 0 for the others (a compile error). */
#define CLMEM__COPY_OK(dst, src)                                                                   \
    _Generic((dst), clmem_buffer: _Generic((src), clmem_svm: 0, default: 1),                       \
             clmem_image: _Generic((src), clmem_svm: 0, default: 1),                               \
             clmem_svm: _Generic((src), clmem_buffer: 0, clmem_image: 0, cl_mem: 0, default: 1),    \
             cl_mem: _Generic((src), clmem_svm: 0, default: 1),                                    \
             default: _Generic((src), clmem_buffer: 1, clmem_image: 1, clmem_svm: 1, cl_mem: 1, default: 0))
#define CLMEM__COPY_ASSERT(dst, src)                                                                      \
    ((void)sizeof(struct {                                                                                \
        _Static_assert(CLMEM__COPY_OK(dst, src),                                                          \
                       "clmem_enqueue_copy: OpenCL has no copy between these types (host to host, buffer " \
                       "or image to SVM): see the DISPATCH TABLE in clmem.h");                             \
        char clmem__c;                                                                                    \
    }))
#endif
/* Selected only for the pairs CLMEM__COPY_ASSERT refuses. */
CLMEM_API cl_int clmem__copy_unsupported(cl_command_queue queue, ...);

/* ---- enqueue_fill ---- */

/* What clmem_enqueue_fill fills: a buffer or SVM memory. */
typedef struct clmem__fill_target {
    clmem_buffer buffer;   /* mem == NULL: SVM */
    clmem_svm svm;
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

/* The pattern types: a value of one of these gives its own size. One spelling per
   underlying type (cl_int is int, so only int is listed). 3-vectors are 4-vectors in
   cl_platform.h and are left out, and so are vectors of 32 bytes or more: OpenCL's
   headers align them to their size, and passing such values by value draws ABI notes
   from gcc. Larger patterns go through a pointer with .pattern_size. */
#define CLMEM__PATTERN_TYPES(X)                                                                        \
    X(char, char) X(signed char, schar) X(unsigned char, uchar) X(short, short)                        \
    X(unsigned short, ushort) X(int, int) X(unsigned int, uint) X(long, long) X(unsigned long, ulong)   \
    X(long long, llong) X(unsigned long long, ullong) X(float, float) X(double, double)                 \
    X(cl_char2, char2) X(cl_char4, char4) X(cl_char8, char8) X(cl_char16, char16)                      \
    X(cl_uchar2, uchar2) X(cl_uchar4, uchar4) X(cl_uchar8, uchar8) X(cl_uchar16, uchar16)              \
    X(cl_short2, short2) X(cl_short4, short4) X(cl_short8, short8)                                     \
    X(cl_ushort2, ushort2) X(cl_ushort4, ushort4) X(cl_ushort8, ushort8)                               \
    X(cl_int2, int2) X(cl_int4, int4) X(cl_uint2, uint2) X(cl_uint4, uint4)                            \
    X(cl_long2, long2) X(cl_ulong2, ulong2) X(cl_float2, float2) X(cl_float4, float4) X(cl_double2, double2)

#define CLMEM__FILL_DECL(T, name)                                                                   \
    CLMEM_API cl_int clmem__fill_##name(cl_command_queue queue, clmem__fill_target dst, T pattern, size_t size, \
                                        const clmem_fill_options *opts);
CLMEM__PATTERN_TYPES(CLMEM__FILL_DECL)
CLMEM__FILL_DECL(const void *, ptr)
#undef CLMEM__FILL_DECL

/** clmem_enqueue_fill(queue, dst, pattern, size, ...): fill `size` bytes of a buffer
    (at .offset) or of SVM memory with copies of a pattern. The pattern is a value
    whose type gives its size (a scalar such as 1.5f or (unsigned char)7, or an
    OpenCL vector such as (cl_float4){{1, 2, 3, 4}}), or a pointer with .pattern_size.
    Same rules and errors as clmem_enqueue_fill_buffer (and clmem_enqueue_svm_memfill
    for SVM); a pointer without .pattern_size is CL_INVALID_VALUE. Options: .offset,
    .pattern_size, .wait_for, .num_wait_for, .event.
    A compound-literal pattern goes in parentheses (see NAMED OPTIONAL ARGUMENTS).
    Examples: clmem_enqueue_fill(q, buf, 1.5f, 4096);
              clmem_enqueue_fill(q, buf, ((cl_float4){{1, 2, 3, 4}}), 64);
              clmem_enqueue_fill(q, buf, rgba, 64, .pattern_size = 16, .offset = 16); */
#ifndef __cplusplus
#define clmem_enqueue_fill(...) clmem__fill_(__VA_ARGS__, )
#define clmem__fill_(queue, dst, pattern, size, ...)                                                  \
    CLMEM__FILL_FN(pattern)(queue,                                                                    \
                            _Generic((dst), clmem_buffer: clmem__fill_target_buffer,                  \
                                     clmem_svm: clmem__fill_target_svm)(dst),                         \
                            pattern, size, &(clmem_fill_options){.given = CLMEM__GIVEN(__VA_ARGS__), __VA_ARGS__})
#define CLMEM__FILL_ASSOC(T, name) T: clmem__fill_##name,
#define CLMEM__FILL_FN(pattern) _Generic((pattern), CLMEM__PATTERN_TYPES(CLMEM__FILL_ASSOC) default: clmem__fill_ptr)
#endif

/* ---- kernel arguments ---- */

/** Local memory of a given size for a kernel argument (PyOpenCL's LocalMemory). */
typedef struct clmem_local_memory {
    size_t size;
} clmem_local_memory;
/** clmem_local_memory_create(size) / clmem_local_memory(size): a __local argument of size bytes. */
static inline clmem_local_memory clmem_local_memory_create(size_t size) {
    clmem_local_memory l;
    l.size = size;
    return l;
}
#define clmem_local_memory(size) clmem_local_memory_create(size)

CLMEM_API cl_int clmem__set_arg_buffer(cl_kernel kernel, cl_uint index, clmem_buffer value);
CLMEM_API cl_int clmem__set_arg_mem(cl_kernel kernel, cl_uint index, cl_mem value);
CLMEM_API cl_int clmem__set_arg_local(cl_kernel kernel, cl_uint index, clmem_local_memory value);
#define CLMEM__ARG_DECL(T, name) CLMEM_API cl_int clmem__set_arg_##name(cl_kernel kernel, cl_uint index, T value);
CLMEM__PATTERN_TYPES(CLMEM__ARG_DECL)
#undef CLMEM__ARG_DECL

/** clmem_set_kernel_arg(kernel, index, value): set one kernel argument from a clmem
    handle or a value: clmem_buffer (also pooled and sub-buffers), clmem_image,
    clmem_sampler, clmem_pipe, clmem_svm (clSetKernelArgSVMPointer), a raw cl_mem,
    clmem_local_memory(size), or a scalar/vector value whose type gives its size
    (clmem_set_kernel_arg(k, 2, 1.5f), clmem_set_kernel_arg(k, 3, (cl_uint)n)).
    Returns CL_SUCCESS, CL_INVALID_KERNEL (NULL kernel), CL_INVALID_MEM_OBJECT (an
    empty handle), CL_INVALID_ARG_SIZE (local memory of size 0), or the driver's
    code with a message naming the argument index. */
#ifndef __cplusplus
#define CLMEM__ARG_ASSOC(T, name) T: clmem__set_arg_##name,
#define clmem_set_kernel_arg(kernel, index, value)                                                        \
    _Generic((value), clmem_buffer: clmem__set_arg_buffer, clmem_image: clmem__set_arg_image,            \
             clmem_sampler: clmem__set_arg_sampler, clmem_pipe: clmem__set_arg_pipe,                     \
             clmem_svm: clmem__set_arg_svm, cl_mem: clmem__set_arg_mem,                                  \
             clmem_local_memory: clmem__set_arg_local, CLMEM__PATTERN_TYPES(CLMEM__ARG_ASSOC)            \
             default: clmem__set_arg_unsupported)(kernel, index, value)
#endif
CLMEM_API cl_int clmem__set_arg_unsupported(cl_kernel kernel, cl_uint index, ...);

/** clmem_enqueue_copy_buffer_p2p_amd(platform, queue, src, dst, ...): copy between
    buffers of two contexts through cl_amd_copy_buffer_p2p (clEnqueueCopyBufferP2PAMD;
    PyOpenCL's enqueue_copy_buffer_p2p_amd). Options: .byte_count (left out: the
    smaller of both sizes after the offsets; 0: nothing), .src_offset, .dst_offset,
    .wait_for, .num_wait_for, .event. Where the platform lacks the extension:
    CL_INVALID_OPERATION with a message; ranges beyond a buffer: CL_INVALID_VALUE. */
#ifndef __cplusplus
#define clmem_enqueue_copy_buffer_p2p_amd(...) clmem__p2p_(__VA_ARGS__, )
#define clmem__p2p_(platform, queue, src, dst, ...) \
    clmem_enqueue_copy_buffer_p2p_amd_opts(platform, queue, src, dst, &(clmem_copy_options){.given = CLMEM__GIVEN(__VA_ARGS__), __VA_ARGS__})
#endif
CLMEM_API cl_int clmem_enqueue_copy_buffer_p2p_amd_opts(cl_platform_id platform, cl_command_queue queue, clmem_buffer src,
                                                        clmem_buffer dst, const clmem_copy_options *opts);


#ifdef __cplusplus
}
#endif
