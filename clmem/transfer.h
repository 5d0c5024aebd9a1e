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

   Options (all optional, zero means default; PyOpenCL's keyword names):
     buffer <- buffer   .byte_count, .src_offset, .dst_offset; rectangular when
                        .region is given: .src_origin, .dst_origin, .src_pitches,
                        .dst_pitches (region[0] and origin[0] in bytes)
     buffer <-> host    .byte_count, .dst_offset (write) / .src_offset (read);
                        rectangular when .region is given: .buffer_origin,
                        .host_origin, .buffer_pitches, .host_pitches
     image <-> host     .origin, .region (pixels), .pitches (host row, slice pitch)
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
    int clmem__start;             /* private: keeps the braces non-empty */
    size_t byte_count;            /* linear copies: bytes (0: default extent) */
    size_t src_offset;            /* linear: byte offset in the source */
    size_t dst_offset;            /* linear: byte offset in the destination */
    size_t offset;                /* buffer <-> image: byte offset in the buffer */
    size_t host_size;             /* bytes of host memory behind the host pointer (0: unknown) */
    size_t region[3];             /* rectangular and image copies: extent */
    size_t origin[3];             /* image <-> host, buffer <-> image: image origin */
    size_t pitches[2];            /* image <-> host: host row and slice pitch (0: packed) */
    size_t buffer_origin[3];      /* buffer <-> host rect: origin in the buffer (x in bytes) */
    size_t host_origin[3];        /* buffer <-> host rect: origin in host memory */
    size_t buffer_pitches[2];     /* buffer <-> host rect: buffer row and slice pitch */
    size_t host_pitches[2];       /* buffer <-> host rect: host row and slice pitch */
    size_t src_origin[3];         /* buffer <- buffer rect, image <- image */
    size_t dst_origin[3];         /* buffer <- buffer rect, image <- image */
    size_t dest_origin[3];        /* image <- image (PyOpenCL's name; same as dst_origin) */
    size_t src_pitches[2];        /* buffer <- buffer rect */
    size_t dst_pitches[2];        /* buffer <- buffer rect */
    int is_blocking;              /* host transfers: 0 or CLMEM_BLOCKING: block; CLMEM_NON_BLOCKING */
    const cl_event *wait_for;     /* events to wait for */
    cl_uint num_wait_for;
    cl_event *event;              /* where to put the new event (NULL: none) */
} clmem_copy_options;

/** Options of clmem_enqueue_fill. */
typedef struct clmem_fill_options {
    int clmem__start;
    size_t offset;                /* byte offset of the filled range (buffers) */
    size_t pattern_size;          /* required when the pattern is a pointer */
    const cl_event *wait_for;
    cl_uint num_wait_for;
    cl_event *event;
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

/* SVM fill, defined with the SVM transfers. */
CLMEM_API cl_int clmem__fill_svm(cl_command_queue queue, clmem_svm dst, const void *pattern, size_t pattern_size,
                                 size_t size, const clmem_fill_options *opts);

#ifdef __cplusplus
}
#endif
