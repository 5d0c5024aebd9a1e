/* >>map: mapping memory into host address space (PyOpenCL's enqueue_map_buffer,
   enqueue_map_image, MemoryMap) */

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   MAPS

   A map makes a region of a buffer or image visible to the host. PyOpenCL returned a
   numpy array whose .base was a MemoryMap; clmem returns one clmem_memory_map that
   holds the host pointer, what describes it (element type, shape, strides in bytes,
   and for images the row and slice pitches the driver returned), the map's event and
   what is needed to unmap.

       cl_int err;
       clmem_memory_map m = clmem_enqueue_map_buffer(q, buf, CL_MAP_READ, 0, &err,
                                                     .shape = {5, 6, 7}, .dtype = CLMEM_DTYPE_FLOAT);
       if (err == CL_SUCCESS) {
           float *p = (float *)m.ptr;       ... read p[0 .. 209] ...
           clmem_memory_map_release(&m);    // clEnqueueUnmapMemObject on the map's queue
       }

   PyOpenCL's `with` block is CLMEM_WITH_MAP (it unmaps when the block is left by its
   end, `break` or `continue`):

       CLMEM_WITH_MAP(m, clmem_enqueue_map_buffer(q, buf, CL_MAP_WRITE_INVALIDATE_REGION, 0, &err)) {
           memset(m.ptr, 0, m.size);
       }

   LIVE-MAP TABLE. clmem remembers every map it made until it is released (a multiset:
   PoCL returns the same pointer for two maps of one region, so each map is its own
   entry and unmapping one leaves the other valid). With it clmem
     - refuses to unmap a pointer it did not hand out (CL_INVALID_VALUE),
     - reports a second release of the same map (CLMEM_ERROR_DOUBLE_RELEASE) and never
       enqueues a second unmap,
     - refuses a map that overlaps a live map of the same memory when either of the two
       is for writing (CL_INVALID_OPERATION; the spec leaves such maps undefined or an
       error, PoCL allows them),
     - logs a warning, with the file and line of the map, when a buffer mapped for
       writing is released or passed to a copy (the device may not see host writes
       before the unmap).
   A map keeps its memory object and its queue retained until it is released, so
   releasing the buffer while it is mapped is safe: the unmap still works.

   CHECKS made before the driver is called (PoCL maps anyway where the spec says no):
     - flags: 0, unknown bits, CL_MAP_WRITE_INVALIDATE_REGION together with CL_MAP_READ
       or CL_MAP_WRITE                                       -> CL_INVALID_VALUE
     - zero size, offset/region beyond the object, overflow    -> CL_INVALID_VALUE
     - MAP_READ on a HOST_WRITE_ONLY or HOST_NO_ACCESS object, MAP_WRITE or
       WRITE_INVALIDATE_REGION on a HOST_READ_ONLY or HOST_NO_ACCESS object (also as
       inherited by a sub-buffer)                              -> CL_INVALID_OPERATION
     - the pitches of an image map are always requested by clmem, so the spec's
       "NULL image_row_pitch / image_slice_pitch" error cannot arise.
   --------------------------------------------------------------------------------- */

/** Most axes a map's shape can have. */
#define CLMEM_MAP_MAX_DIMS 4

/** Element types (numpy's dtypes, as OpenCL's scalar and vector types). A vector type
    is CLMEM_DTYPE_VECTOR(scalar, n) with n in 2, 3, 4, 8, 16; its size is OpenCL's
    (a 3-vector takes the room of a 4-vector). CLMEM_DTYPE_NONE: untyped bytes. */
typedef enum clmem_dtype {
    CLMEM_DTYPE_NONE = 0,
    CLMEM_DTYPE_CHAR = 1,   /* cl_char */
    CLMEM_DTYPE_UCHAR = 2,  /* cl_uchar */
    CLMEM_DTYPE_SHORT = 3,  /* cl_short */
    CLMEM_DTYPE_USHORT = 4, /* cl_ushort */
    CLMEM_DTYPE_INT = 5,    /* cl_int */
    CLMEM_DTYPE_UINT = 6,   /* cl_uint */
    CLMEM_DTYPE_LONG = 7,   /* cl_long */
    CLMEM_DTYPE_ULONG = 8,  /* cl_ulong */
    CLMEM_DTYPE_HALF = 9,   /* cl_half */
    CLMEM_DTYPE_FLOAT = 10, /* cl_float */
    CLMEM_DTYPE_DOUBLE = 11, /* cl_double */
    CLMEM_DTYPE__FORCE_INT = 0x7fffffff /* private: keeps every vector code in range */
} clmem_dtype;

/** CLMEM_DTYPE_VECTOR(scalar, n): the n-vector of a scalar dtype, e.g.
    CLMEM_DTYPE_VECTOR(CLMEM_DTYPE_UINT, 2) for cl_uint2 (PyOpenCL's cltypes.uint2). */
#define CLMEM_DTYPE_VECTOR(scalar, n) ((clmem_dtype)((int)(scalar) | ((int)(n) << 8)))

/** clmem_dtype_itemsize(dtype): bytes of one element (cl_uint2: 8, cl_float3: 16);
    0 for CLMEM_DTYPE_NONE and for codes that name no type. Thread safety: any thread. */
CLMEM_API size_t clmem_dtype_itemsize(clmem_dtype dtype);

/** Layout of a mapped array when no .strides are given (numpy's order="C"/"F"). */
typedef enum clmem_order {
    CLMEM_ORDER_C = 0, /* row-major: the last axis varies fastest (default) */
    CLMEM_ORDER_F = 1  /* column-major: the first axis varies fastest */
} clmem_order;

/** A live map (PyOpenCL's MemoryMap together with the array it carried). Passed by
    value, released once with clmem_memory_map_release (or clmem_release). Treat the
    fields as read-only. */
typedef struct clmem_memory_map {
    void *ptr;                            /* the host pointer (element 0); NULL when empty or released */
    size_t size;                          /* bytes mapped (buffers: itemsize * prod(shape)) */
    clmem_dtype dtype;                    /* element type (CLMEM_DTYPE_NONE: see itemsize) */
    size_t itemsize;                      /* bytes per element (images: bytes per pixel) */
    unsigned ndim;                        /* axes in shape/strides */
    size_t shape[CLMEM_MAP_MAX_DIMS];     /* elements per axis */
    size_t strides[CLMEM_MAP_MAX_DIMS];   /* bytes between neighbours along each axis */
    size_t row_pitch, slice_pitch;        /* images: the pitches the driver returned; buffers: 0 */
    cl_map_flags flags;                   /* CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION */
    cl_event event;                       /* the map command's event, owned by the map (NULL for a
                                             blocking map made without .event) */
    cl_mem mem;                           /* the mapped object (retained by the map) */
    cl_command_queue queue;               /* the queue the map was made on (retained by the map) */
    unsigned long long serial;            /* clmem's number of this map; kept after release */
    const char *file;                     /* where the map was made (NULL when unknown) */
    int line;
} clmem_memory_map;

/** Options of clmem_enqueue_map_buffer and clmem_enqueue_map_image (PyOpenCL's
    keyword arguments). Zero means the default. */
typedef struct clmem_map_options {
    int clmem__start;                     /* private: keeps the braces non-empty */
    size_t shape[CLMEM_MAP_MAX_DIMS];     /* buffers: elements per axis; the shape ends at the first 0.
                                             Default: everything from offset to the end of the buffer */
    clmem_dtype dtype;                    /* element type (default: bytes, or .itemsize) */
    size_t itemsize;                      /* bytes per element when dtype is NONE (e.g. sizeof(struct)) */
    clmem_order order;                    /* buffers: CLMEM_ORDER_C (default) or CLMEM_ORDER_F */
    size_t strides[CLMEM_MAP_MAX_DIMS];   /* buffers: byte strides per axis; override .order. They do
                                             not change the mapped size (as in PyOpenCL); every
                                             element they reach must lie inside it */
    int is_blocking;                      /* 0 or CLMEM_BLOCKING: wait for the map; CLMEM_NON_BLOCKING:
                                             wait on map.event before touching map.ptr */
    const cl_event *wait_for;             /* events to wait for (CLMEM_WAIT_FOR(...)) */
    cl_uint num_wait_for;
    cl_event *event;                      /* also give the map's event to the caller (retained for
                                             the caller, who releases it) */
    const char *clmem__file;              /* private: set by the macros */
    int clmem__line;
} clmem_map_options;

/** Options of clmem_memory_map_release. */
typedef struct clmem_unmap_options {
    int clmem__start;                     /* private */
    cl_command_queue queue;               /* queue for the unmap (default: the map's queue); same context */
    const cl_event *wait_for;
    cl_uint num_wait_for;
    cl_event *event;                      /* where to put the unmap's event (NULL: none is made) */
} clmem_unmap_options;

/** clmem_enqueue_map_buffer(queue, buf, flags, offset, errcode_ret, ...options): map
    bytes of a buffer, sub-buffer or pooled buffer into host memory
    (clEnqueueMapBuffer; PyOpenCL's enqueue_map_buffer).
    - flags: CL_MAP_READ and/or CL_MAP_WRITE, or CL_MAP_WRITE_INVALIDATE_REGION alone.
    - offset: bytes from the start of buf.
    - errcode_ret: where to store the result code (may be NULL).
    - options: .shape, .dtype (or .itemsize), .order, .strides describe the host array;
      the mapped size is itemsize * prod(shape), or without .shape everything from
      offset to the end (which must then be a multiple of the itemsize). .is_blocking,
      .wait_for/.num_wait_for, .event as for every enqueue.
    Returns the map; on failure an empty map (ptr == NULL, serial == 0) and the code:
    CL_INVALID_COMMAND_QUEUE (NULL queue), CL_INVALID_MEM_OBJECT (empty buffer),
    CL_INVALID_CONTEXT (queue of another context), CL_INVALID_VALUE (bad flags, size 0,
    offset + size beyond the buffer, bad dtype/itemsize/order, more than
    CLMEM_MAP_MAX_DIMS axes, strides reaching outside the map), CL_INVALID_OPERATION
    (host-access flags forbid the map; overlap with a live map where either is for
    writing), CL_INVALID_EVENT_WAIT_LIST, CL_OUT_OF_HOST_MEMORY, or the driver's code.
    With CL_MEM_USE_HOST_PTR the pointer is the host memory plus the buffer's origin
    plus offset (on zero-copy devices such as PoCL and most CPUs).
    Thread safety: any thread; the live-map table is locked.
    Example: clmem_memory_map m = clmem_enqueue_map_buffer(q, b, CL_MAP_WRITE, 0, &err,
                 .shape = {1}, .dtype = CLMEM_DTYPE_VECTOR(CLMEM_DTYPE_UINT, 2)); */
#ifndef __cplusplus
#define clmem_enqueue_map_buffer(...) clmem__map_buffer_(__VA_ARGS__, )
#define clmem__map_buffer_(queue, buf, flags, offset, errcode_ret, ...)                                    \
    clmem_enqueue_map_buffer_opts(queue, buf, flags, offset,                                                 \
                                  &(clmem_map_options){.clmem__start = 0, .clmem__file = __FILE__,          \
                                                       .clmem__line = __LINE__, __VA_ARGS__},                \
                                  errcode_ret)
#endif
CLMEM_API clmem_memory_map clmem_enqueue_map_buffer_opts(cl_command_queue queue, clmem_buffer buf, cl_map_flags flags,
                                                         size_t offset, const clmem_map_options *opts,
                                                         cl_int *errcode_ret);

/** clmem_enqueue_map_image(queue, img, flags, origin, region, errcode_ret, ...options):
    map a box of an image into host memory (clEnqueueMapImage; PyOpenCL's
    enqueue_map_image).
    - origin: {x, y, z} in pixels (z: slice, or layer of an image array; for a 1-D
      image array y is the layer); NULL means {0, 0, 0}.
    - region: {w, h, d} in pixels; trailing zeros count as 1 ({64, 4, 0} is {64, 4, 1});
      NULL means everything from origin to the end of the image.
    - The map describes itself from the region and the pitches the driver returned (not
      from caller-given strides, where PyOpenCL let them disagree): shape {w} for 1-D,
      {h, w} for 2-D, {d, h, w} for 3-D, {layers, w} for 1-D arrays (stride: slice_pitch),
      {layers, h, w} for 2-D arrays; strides {slice_pitch, row_pitch, pixel size}.
      .dtype defaults to the pixel's type where one matches (CL_FLOAT RGBA: float4),
      else NONE with itemsize the pixel size; a given .dtype must have the pixel's size.
      .shape, .strides and .order are refused (CL_INVALID_VALUE).
    Errors: as clmem_enqueue_map_buffer, plus CL_INVALID_VALUE for a region beyond the
    image, a 0 before a non-zero region component, origin[1]/region[1] on 1-D images,
    origin[2]/region[2] on 1-D and 2-D images.
    Thread safety: any thread.
    Example: clmem_memory_map m = clmem_enqueue_map_image(q, img, CL_MAP_READ, NULL, NULL, &err);
             row y starts at (char *)m.ptr + y * m.row_pitch. */
#ifndef __cplusplus
#define clmem_enqueue_map_image(...) clmem__map_image_(__VA_ARGS__, )
#define clmem__map_image_(queue, img, flags, origin, region, errcode_ret, ...)                             \
    clmem_enqueue_map_image_opts(queue, img, flags, origin, region,                                         \
                                 &(clmem_map_options){.clmem__start = 0, .clmem__file = __FILE__,           \
                                                      .clmem__line = __LINE__, __VA_ARGS__},                 \
                                 errcode_ret)
#endif
CLMEM_API clmem_memory_map clmem_enqueue_map_image_opts(cl_command_queue queue, clmem_image img, cl_map_flags flags,
                                                        const size_t *origin, const size_t *region,
                                                        const clmem_map_options *opts, cl_int *errcode_ret);

/** clmem_memory_map_release(&map, ...options): unmap (clEnqueueUnmapMemObject;
    PyOpenCL's MemoryMap.release) and empty the handle: ptr, mem, queue and event
    become NULL; serial, file and line stay so that a second release can be reported.
    The unmap is enqueued, not waited for: later commands on an in-order queue see the
    host's writes. Options: .queue (default: the queue the map was made on), .wait_for,
    .num_wait_for, .event (the unmap's event).
    Returns CL_SUCCESS; CL_SUCCESS without doing anything for a map that never held
    anything (serial 0, ptr NULL: the result of a failed map), so failure paths may
    release unconditionally; CLMEM_ERROR_DOUBLE_RELEASE for a map already released
    (through this handle, a copy of it, or clmem_enqueue_unmap_mem_object): no second
    unmap is enqueued; CL_INVALID_VALUE (map NULL, or ptr/mem not a live map clmem
    handed out); CL_INVALID_CONTEXT (.queue of another context);
    CL_INVALID_EVENT_WAIT_LIST; or the driver's code (the map then stays live).
    Thread safety: any thread, but one map must not be released from two threads at
    once. Example: clmem_memory_map_release(&m, .event = &unmapped); */
#ifndef __cplusplus
#define clmem_memory_map_release(...) clmem__map_release_(__VA_ARGS__, )
#define clmem__map_release_(map, ...) \
    clmem_memory_map_release_opts(map, &(clmem_unmap_options){.clmem__start = 0, __VA_ARGS__})
#endif
CLMEM_API cl_int clmem_memory_map_release_opts(clmem_memory_map *map, const clmem_unmap_options *opts);

/** clmem_memory_map_release_default(&map): clmem_memory_map_release with no options
    (on the map's own queue, no wait list, no event). What clmem_release(&map) and
    CLMEM_WITH_MAP call. Same results as clmem_memory_map_release. */
CLMEM_API cl_int clmem_memory_map_release_default(clmem_memory_map *map);

/** clmem_enqueue_unmap_mem_object(queue, mem, ptr, ...options): unmap one live map of
    the raw object mem at host pointer ptr (for code that kept only the pointer; the
    most recent such map is released). Options: .wait_for, .num_wait_for, .event.
    Errors: CL_INVALID_COMMAND_QUEUE, CL_INVALID_MEM_OBJECT (NULL mem), CL_INVALID_VALUE
    (ptr is not a live map of mem that clmem handed out: a foreign pointer, a second
    unmap, or the wrong object), CL_INVALID_CONTEXT, CL_INVALID_EVENT_WAIT_LIST, or the
    driver's code. A later clmem_memory_map_release of that map's handle reports
    CLMEM_ERROR_DOUBLE_RELEASE. Thread safety: any thread. */
#ifndef __cplusplus
#define clmem_enqueue_unmap_mem_object(...) clmem__unmap_mem_(__VA_ARGS__, )
#define clmem__unmap_mem_(queue, mem, ptr, ...) \
    clmem_enqueue_unmap_mem_object_opts(queue, mem, ptr, &(clmem_enqueue_options){.clmem__start = 0, __VA_ARGS__})
#endif
CLMEM_API cl_int clmem_enqueue_unmap_mem_object_opts(cl_command_queue queue, cl_mem mem, void *ptr,
                                                     const clmem_enqueue_options *opts);

/** clmem_memory_map_at(&map, index): the address of the element at index (map->ndim
    entries) using the map's strides, or NULL when an index is out of range
    (CL_INVALID_VALUE in the last-error message) or the map is empty.
    Example: ((float *)clmem_memory_map_at(&m, (size_t[]){1, 2, 3}))[0] = 10.0f; */
CLMEM_API void *clmem_memory_map_at(const clmem_memory_map *map, const size_t *index);

/** clmem_live_map_count(mem): how many maps of mem (NULL: of any object) clmem holds
    live right now. For tests and leak checks. Thread safety: any thread. */
CLMEM_API size_t clmem_live_map_count(cl_mem mem);

/** CLMEM_WITH_MAP(m, map_expression) { ... }: PyOpenCL's `with map:`. Declares the
    clmem_memory_map m from map_expression, runs the block only if the map succeeded
    (m.ptr != NULL; the error code went where map_expression said), and releases the
    map (clmem_memory_map_release_default) when the block ends, including through
    `break` or `continue`. `return` and `goto` out of the block skip the release, as
    they would skip any statement after it.
    Example: CLMEM_WITH_MAP(m, clmem_enqueue_map_buffer(q, b, CL_MAP_READ, 0, &err)) { use(m.ptr); } */
#define CLMEM_WITH_MAP(m, map_expression)                                                                  \
    for (clmem_memory_map m = (map_expression), *clmem__with_##m = &m; clmem__with_##m != NULL;             \
         (void)clmem_memory_map_release_default(&m), clmem__with_##m = NULL)                                \
        for (int clmem__body_##m = (m.ptr != NULL); clmem__body_##m; clmem__body_##m = 0)

#ifdef __cplusplus
}
#endif
