/* >>map: mapping memory into host address space (PyOpenCL's enqueue_map_buffer,
   enqueue_map_image, MemoryMap) */
#include "base.h"
#include "memobj.h"
#include "buffer.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   MAPS

   A map makes a region of a buffer or image visible to the host. PyOpenCL returned a
   numpy array whose .base was a MemoryMap; clmem fills one clmem_memory_map that holds
   the host pointer, what describes it (element type name and size, shape, strides in
   bytes, and for images the row and slice pitches the driver returned), the map's
   event and what is needed to unmap.

       clmem_memory_map m;
       if (clmem_enqueue_map_buffer(q, buf, CL_MAP_READ, 0, float, &m, .shape = {5, 6, 7}) == CL_SUCCESS) {
           const float *p = (const float *)m.ptr;   ... p[0 .. 209] ...
           clmem_memory_map_release(&m);            // clEnqueueUnmapMemObject on the map's queue
       }

   PyOpenCL's `with` block is CLMEM_WITH_MAP: it declares the map, stores the map's
   result in an error variable, runs the block when the map succeeded and unmaps when
   the block is left by its end, `break` or `continue`:

       CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(q, buf, CL_MAP_WRITE_INVALIDATE_REGION, 0, char, &m)) {
           memset(m.ptr, 0, m.size);
       }
       if (err != CL_SUCCESS) puts(clmem_last_error_message());

   LIVE-MAP TABLE. clmem remembers every map it made until it is released (a multiset:
   PoCL returns the same pointer for two maps of one region, so each map is its own
   entry and unmapping one leaves the other valid). With it clmem
     - refuses to unmap a pointer it did not hand out (CL_INVALID_VALUE),
     - reports a second release of the same map (CLMEM_ERROR_DOUBLE_RELEASE, naming the
       file and line of the map) and never enqueues a second unmap,
     - refuses a map that overlaps a live map of the same memory when either of the two
       is for writing (CL_INVALID_OPERATION; the spec makes overlapping write maps an
       error and read/write overlaps undefined; PoCL allows both),
     - logs a warning, with the file and line of the map, when a buffer mapped for
       writing is released or passed to a copy (the device may not see the host's
       writes before the unmap).
   The table holds a reference to the mapped object and to the queue until the unmap,
   so releasing a buffer while it is mapped is safe: the unmap still works.

   CHECKS made before the driver is called (PoCL maps anyway where the spec says no):
     - flags: 0, unknown bits, CL_MAP_WRITE_INVALIDATE_REGION together with CL_MAP_READ
       or CL_MAP_WRITE                                          -> CL_INVALID_VALUE
     - zero size, offset/region beyond the object, overflow       -> CL_INVALID_VALUE
     - MAP_READ on a HOST_WRITE_ONLY or HOST_NO_ACCESS object, MAP_WRITE or
       WRITE_INVALIDATE_REGION on a HOST_READ_ONLY or HOST_NO_ACCESS object (also as
       inherited by a sub-buffer)                                 -> CL_INVALID_OPERATION
     - the pitches of an image map are always requested by clmem, so the spec's
       "NULL image_row_pitch / image_slice_pitch" error cannot arise.
   --------------------------------------------------------------------------------- */

/** Most axes a map's shape can have. */
#define CLMEM_MAP_MAX_DIMS 8

/** A live map (PyOpenCL's MemoryMap together with the numpy array it carried). Filled
    by the map functions, released once with clmem_memory_map_release (or
    clmem_release). Treat the fields as read-only; element (i, j) of a 2-D map is at
    (char *)m.ptr + i * m.strides[0] + j * m.strides[1] (see clmem_memory_map_at). */
typedef struct clmem_memory_map {
    void *ptr;                            /* the host pointer (element 0); NULL when empty or released */
    size_t size;                          /* bytes mapped (buffers: itemsize * prod(shape)) */
    const char *dtype;                    /* element type as written ("float", "cl_uint2"); images:
                                             the pixel's type ("cl_float4"), "bytes" when none fits */
    size_t itemsize;                      /* bytes per element (images: bytes per pixel) */
    unsigned ndim;                        /* axes in shape/strides */
    size_t shape[CLMEM_MAP_MAX_DIMS];     /* elements per axis, slowest first in C order */
    size_t strides[CLMEM_MAP_MAX_DIMS];   /* bytes between neighbours along each axis */
    size_t row_pitch, slice_pitch;        /* images: the pitches the driver returned; buffers: 0 */
    cl_map_flags flags;                   /* CL_MAP_READ | CL_MAP_WRITE, or CL_MAP_WRITE_INVALIDATE_REGION */
    cl_event event;                       /* the map command's event, owned by the map until its release
                                             (NULL for a blocking map made without .event) */
    cl_mem mem;                           /* the mapped object (kept alive until the unmap) */
    cl_command_queue queue;               /* the queue the map was made on (kept alive until the unmap) */
    unsigned long long serial;            /* clmem's number for this map (0: never mapped); kept after release */
    const char *file;                     /* where the map was made (NULL when unknown: the *_opts functions) */
    int line;
} clmem_memory_map;

/** Options of clmem_enqueue_map_buffer and clmem_enqueue_map_image (PyOpenCL's
    keyword arguments). A written option means its value, one left out its default. */
typedef struct CLMEM__OPTIONS_TYPE clmem_map_options {
    CLMEM__GIVEN_FIELD /* given: CLMEM_GIVEN_* bits, filled by the macros */
    size_t shape[CLMEM_MAP_MAX_DIMS] CLMEM__DEFAULT; /* buffers: elements per axis. Default: one axis holding
                                             everything from offset to the end of the buffer */
    unsigned ndim CLMEM__DEFAULT;         /* buffers: axes of .shape (0: its leading non-zero entries;
                                             give it when a computed extent may be 0, so that the
                                             map fails instead of covering the rest of the buffer) */
    char order CLMEM__DEFAULT;            /* buffers: 'C' (default; last index fastest) or 'F' */
    size_t strides[CLMEM_MAP_MAX_DIMS] CLMEM__DEFAULT; /* buffers: byte strides per axis, overriding .order. As in
                                             PyOpenCL they do not change the mapped size; clmem
                                             checks that every element they reach lies inside it */
    size_t origin[3] CLMEM__DEFAULT;      /* images: {x, y, z} of the box in pixels (default {0, 0, 0}) */
    size_t region[3] CLMEM__DEFAULT;      /* images: {w, h, d} in pixels; trailing zeros count as 1;
                                             all zero (default): from origin to the end of the image */
    int is_blocking CLMEM__DEFAULT;       /* 0 or CLMEM_BLOCKING: wait for the map; CLMEM_NON_BLOCKING:
                                             wait on map.event before touching map.ptr */
    CLMEM__WAIT_FIELDS                    /* .wait_for, .num_wait_for: events to wait for
                                             (CLMEM_WAIT_FOR(...)); .event: also give the map's event
                                             to the caller (a reference of the caller's own, to release) */
    const char *clmem__file CLMEM__DEFAULT; /* private: set by the macros */
    int clmem__line CLMEM__DEFAULT;
} clmem_map_options;
/* The options of clmem_map_options with a CLMEM_GIVEN_* bit (CLMEM__UNSET_INIT in base.h). */
#define CLMEM__MAP_UNSET(X, T)                                  \
    CLMEM__LAYOUT_UNSET(X, T)                                   \
    X(T, region, [0], CLMEM__UNSET_SIZE, CLMEM_GIVEN_REGION)     \
    X(T, is_blocking, , CLMEM__UNSET_INT, CLMEM_GIVEN_IS_BLOCKING)
/** CLMEM_MAP_OPTIONS_INIT: the initializer of a clmem_map_options built by hand: every
    option left out; a field then set means its value (NAMED OPTIONS in base.h). */
#define CLMEM_MAP_OPTIONS_INIT CLMEM__UNSET_INIT(clmem_map_options, CLMEM__MAP_UNSET)

/** Options of clmem_memory_map_release. */
typedef struct CLMEM__OPTIONS_TYPE clmem_unmap_options {
    CLMEM__GIVEN_FIELD_NO_DEFAULTS /* given: CLMEM_OPTIONS_MARK, filled by the macros */
    cl_command_queue queue CLMEM__DEFAULT; /* queue for the unmap (default: the map's queue); same context */
    CLMEM__WAIT_FIELDS                    /* .wait_for, .num_wait_for; .event: where to put the unmap's
                                             event (NULL: none is made) */
} clmem_unmap_options;

/** clmem_enqueue_map_buffer(queue, buf, flags, offset, T, &map, ...options): map a
    buffer, sub-buffer or pooled buffer into host memory as an array of element type T
    (clEnqueueMapBuffer; PyOpenCL's enqueue_map_buffer(queue, buf, flags, offset,
    shape, dtype)).
    - flags: CL_MAP_READ and/or CL_MAP_WRITE, or CL_MAP_WRITE_INVALIDATE_REGION alone.
    - offset: bytes from the start of buf.
    - T: the element type (float, cl_uint2, struct particle, char for bytes); the map
      records sizeof(T) and the name as written.
    - map: filled on success; emptied (ptr NULL, serial 0) on failure.
    - options: .shape/.ndim, .order, .strides describe the array; the mapped size is
      sizeof(T) * prod(shape), or without .shape everything from offset to the end
      (which must then be a whole number of elements); .origin and .region are for
      images and refused here. .is_blocking, .wait_for,
      .num_wait_for, .event as for every enqueue.
    Returns CL_SUCCESS or: CL_INVALID_COMMAND_QUEUE (NULL queue), CL_INVALID_MEM_OBJECT
    (empty buffer), CL_INVALID_CONTEXT (queue of another context), CL_INVALID_VALUE
    (map NULL, bad flags, size 0, offset + size beyond the buffer, .ndim above
    CLMEM_MAP_MAX_DIMS, order not 'C'/'F', strides reaching outside the map, size
    overflow), CL_INVALID_OPERATION (the host-access flags forbid the map; overlap with
    a live map where either is for writing), CL_INVALID_EVENT_WAIT_LIST,
    CL_OUT_OF_HOST_MEMORY, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the
    wait list has already failed, blocking or not: no map is made, nothing enqueued,
    no .event made; a blocking map would hang in PoCL 3.1), or the driver's code.
    With CL_MEM_USE_HOST_PTR the pointer is the host memory plus the buffer's origin
    plus offset on zero-copy devices (PoCL, CPUs); others may hand out a staging copy.
    Thread safety: any thread; the live-map table is locked. LIMIT: PoCL 3.1 crashes
    inside its device threads (pocl_driver_map_mem) when maps of one region of a buffer
    run at the same time from several threads (reproduced with bare OpenCL calls);
    clmem does not serialise them (that would make unmaps blocking). On PoCL, map one
    buffer's overlapping regions from one thread at a time.
    Example: clmem_enqueue_map_buffer(q, b, CL_MAP_WRITE, 0, cl_uint2, &m, .shape = {1}); */
#ifndef __cplusplus
#define clmem_enqueue_map_buffer(...) clmem__map_buffer_(__VA_ARGS__, )
#define clmem__map_buffer_(queue, buf, flags, offset, T, map, ...)                                     \
    clmem_enqueue_map_buffer_opts(queue, buf, flags, offset, sizeof(T), #T, map,                         \
                                  &(clmem_map_options){.clmem__file = __FILE__, .clmem__line = __LINE__,                 \
                                                       .given = CLMEM__GIVEN(__VA_ARGS__), __VA_ARGS__})
#endif
CLMEM_API cl_int clmem_enqueue_map_buffer_opts(cl_command_queue queue, clmem_buffer buf, cl_map_flags flags,
                                               size_t offset, size_t itemsize, const char *dtype,
                                               clmem_memory_map *map, const clmem_map_options *opts);

/** clmem_enqueue_map_image(queue, img, flags, &map, ...options): map a box of an image
    into host memory (clEnqueueMapImage; PyOpenCL's enqueue_map_image(queue, img,
    flags, origin, region, shape, dtype)).
    - .origin = {x, y, z} in pixels (for a 1-D image array y is the layer, for a 2-D
      array z); default {0, 0, 0}.
    - .region = {w, h, d} in pixels; trailing zeros count as 1 ({64, 4} is {64, 4, 1});
      default (all zero): everything from origin to the end of the image.
      (Named, not positional as in PyOpenCL: a compound literal such as
      (size_t[]){1, 2, 0} cannot be a macro argument, .origin = {1, 2} can.)
    - The map describes itself from the region and the pitches the driver returned
      (PyOpenCL built the array from caller-given shape and strides, which could
      disagree with them): shape {w} for 1-D, {h, w} for 2-D, {layers, w} for 1-D
      arrays (stride: slice_pitch), {d, h, w} for 3-D and {layers, h, w} for 2-D arrays,
      with strides {slice_pitch, row_pitch, pixel size}; dtype names the pixel's OpenCL
      type where one fits (CL_RGBA + CL_FLOAT: "cl_float4"), else "bytes".
      .shape, .ndim, .strides and .order are refused (CL_INVALID_VALUE).
    Errors: as clmem_enqueue_map_buffer (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    for a wait list holding a failed event included), plus CL_INVALID_VALUE for a box
    beyond the image (y or z on a 1-D image, z on a 2-D image included), a 0 before a
    non-zero region component; CL_INVALID_MEM_OBJECT for a handle whose type is not an
    image.
    Thread safety: any thread.
    Example: clmem_enqueue_map_image(q, img, CL_MAP_READ, &m, .origin = {8, 8}, .region = {16, 16});
             // row y of the box starts at (char *)m.ptr + y * m.row_pitch */
#ifndef __cplusplus
#define clmem_enqueue_map_image(...) clmem__map_image_(__VA_ARGS__, )
#define clmem__map_image_(queue, img, flags, map, ...)                                                  \
    clmem_enqueue_map_image_opts(queue, img, flags, map,                                                 \
                                 &(clmem_map_options){.clmem__file = __FILE__, .clmem__line = __LINE__,                  \
                                                      .given = CLMEM__GIVEN(__VA_ARGS__), __VA_ARGS__})
#endif
CLMEM_API cl_int clmem_enqueue_map_image_opts(cl_command_queue queue, clmem_image img, cl_map_flags flags,
                                              clmem_memory_map *map, const clmem_map_options *opts);

/** clmem_memory_map_release(&map, ...options): unmap (clEnqueueUnmapMemObject;
    PyOpenCL's MemoryMap.release(queue, wait_for)) and empty the handle: ptr, mem,
    queue and event become NULL (the map's event is released); serial, file and line
    stay so that a second release can be reported. The unmap is enqueued, not waited
    for: later commands on an in-order queue see the host's writes.
    Options: .queue (default: the queue the map was made on), .wait_for,
    .num_wait_for, .event (the unmap's event, yours to release).
    Returns CL_SUCCESS; CL_SUCCESS without doing anything for a map that never held
    anything (serial 0 and ptr NULL: the result of a failed map), so failure paths may
    release unconditionally; CLMEM_ERROR_DOUBLE_RELEASE for a map already released
    (through this handle, a copy of it, or clmem_enqueue_unmap_mem_object): no second
    unmap is enqueued; CL_INVALID_VALUE (map NULL, or its ptr/mem are not the live map
    clmem handed out under that serial); CL_INVALID_CONTEXT (.queue of another
    context); CL_INVALID_COMMAND_QUEUE; CL_INVALID_EVENT_WAIT_LIST;
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: no unmap is enqueued, no .event made, and the map stays live: its memory
    usable, to be released again); or the driver's code (the map then stays live and
    may be released again).
    Thread safety: any thread; of two threads releasing one map at the same time, one
    unmaps and the other gets CLMEM_ERROR_DOUBLE_RELEASE.
    Example: clmem_memory_map_release(&m, .event = &unmapped); */
#define clmem_memory_map_release(...) clmem__map_release_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__map_release_(map, ...) \
    CLMEM__NAMED_RET(clmem_memory_map_release_opts(map, CLMEM__NAMED(clmem_unmap_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_memory_map_release_opts(clmem_memory_map *map, const clmem_unmap_options *opts);

/** clmem_memory_map_release_default(&map): clmem_memory_map_release with no options
    (on the map's own queue, no wait list, no event): what clmem_release(&map) and
    CLMEM_WITH_MAP call. Same results as clmem_memory_map_release, except that the
    handle is final: when the driver refuses the unmap, its code is returned and the
    map is forgotten anyway (clmem's references to the object, queue and event are
    released; nothing leaks), since CLMEM_WITH_MAP's handle goes out of scope. */
CLMEM_API cl_int clmem_memory_map_release_default(clmem_memory_map *map);

/** clmem_enqueue_unmap_mem_object(queue, mem, ptr, ...options): unmap one live map of
    the raw object mem (buf.mem, img.mem) at host pointer ptr, for code that kept only
    the pointer; of several live maps of (mem, ptr) the most recent goes. Options:
    .wait_for, .num_wait_for, .event. Returns CL_SUCCESS or: CL_INVALID_COMMAND_QUEUE,
    CL_INVALID_MEM_OBJECT (NULL mem), CL_INVALID_VALUE (ptr is not a live map of mem
    that clmem handed out: a foreign pointer, a second unmap, the wrong object),
    CL_INVALID_CONTEXT, CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: no unmap is enqueued, the map stays live), or the driver's code. After a
    successful unmap the handle of that map is stale: its release reports CLMEM_ERROR_DOUBLE_RELEASE, and its
    mem, queue and event must no longer be used. Thread safety: any thread.
    Example: clmem_enqueue_unmap_mem_object(q, buf.mem, p); */
#define clmem_enqueue_unmap_mem_object(...) clmem__unmap_mem_(__VA_ARGS__, CLMEM__NAMED_END)
#define clmem__unmap_mem_(queue, mem, ptr, ...) \
    CLMEM__NAMED_RET(clmem_enqueue_unmap_mem_object_opts(queue, mem, ptr, CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__)))
CLMEM_API cl_int clmem_enqueue_unmap_mem_object_opts(cl_command_queue queue, cl_mem mem, void *ptr,
                                                     const clmem_enqueue_options *opts);

/** clmem_memory_map_at(&map, index): the address of the element at index (map->ndim
    entries) through the map's strides; NULL when an index is out of range or the map
    is empty or released (with a CL_INVALID_VALUE message in clmem_last_error_message).
    Thread safety: any thread.
    Example: *(float *)clmem_memory_map_at(&m, (const size_t[]){1, 2, 3}) = 10.0f; */
CLMEM_API void *clmem_memory_map_at(const clmem_memory_map *map, const size_t *index);

/** CLMEM_WITH_MAP(m, err, map_call) { ... }: PyOpenCL's `with map:`. Declares the
    clmem_memory_map m (empty), stores map_call's result (map_call fills &m) in the
    cl_int lvalue err, runs the block only when it is CL_SUCCESS, and releases the
    map (clmem_memory_map_release_default) when the block ends, also through `break`
    or `continue`. A failed map skips the block and err says why: test it after the
    block. `return` and `goto` out of the block skip the release, as they skip any
    statement after a block: release by hand before them. CLMEM_WITH_SVM_MAP is the
    same for SVM maps.
    Example: CLMEM_WITH_MAP(m, err, clmem_enqueue_map_buffer(q, b, CL_MAP_READ, 0, float, &m)) { use(m.ptr); } */
#define CLMEM_WITH_MAP(m, ...) CLMEM__ARG3_(__VA_ARGS__, CLMEM__WITH_MAP, CLMEM__WITH_MAP_0_1, )(m, __VA_ARGS__)
#define CLMEM__ARG3_(a, b, c, ...) c /* 0.1.0's CLMEM_WITH_MAP(m, map_call) is refused: clmem/compat.h */
#define CLMEM__WITH_MAP(m, err, map_call)                                                                        \
    for (clmem_memory_map m = CLMEM__ZERO, *clmem__with_##m = ((err) = (map_call), &m); clmem__with_##m != NULL; \
         (void)clmem_memory_map_release_default(&m), clmem__with_##m = NULL)                                     \
        for (int clmem__body_##m = ((err) == CL_SUCCESS); clmem__body_##m; clmem__body_##m = 0)

#ifdef __cplusplus
}
#endif
