/* >>memobj: what every memory object shares (PyOpenCL's MemoryObject) */
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   NAMED OPTIONAL ARGUMENTS

   PyOpenCL's keyword arguments are designated initializers here:
       clmem_enqueue_fill_buffer(q, buf, &v, sizeof v, 0, n, .event = &ev);
   An option you write means its value; an option you leave out takes its default
   (see NAMED OPTIONS in base: the macros record which designators were written):
     .is_blocking   left out: blocking (as in PyOpenCL). `.is_blocking = false`
                    (CL_FALSE, 0, CLMEM_NON_BLOCKING) returns before the transfer is
                    done: wait on .event (or clFinish) before touching the host memory.
     .byte_count    left out: the whole extent (see clmem_enqueue_copy). `.byte_count
                    = n` copies n bytes, also when n is 0 (then nothing, successfully).
     .region        left out: linear copy, or the whole image; written as all zero:
                    nothing is copied.
   Every enqueue takes .wait_for/.num_wait_for (set both with CLMEM_WAIT_FOR(e1, e2))
   and .event (where to store the new event; none is created when it is NULL).
   A compound literal as a positional argument that picks the operation (the dst
   and src of clmem_enqueue_copy, the pattern of clmem_enqueue_fill, the value of
   clmem_set_kernel_arg) goes in parentheses, as for assert():
       clmem_enqueue_fill(q, buf, ((cl_float4){{1, 2, 3, 4}}), 64);
   the preprocessor would split it at its commas, and the macro must see it whole to
   take its type. Other positional arguments (shapes, formats, colors, origins) may
   be compound literals as they are.
   --------------------------------------------------------------------------------- */
/** CLMEM_BLOCKING, CLMEM_NON_BLOCKING: readable values for .is_blocking. */
#define CLMEM_BLOCKING 1
#define CLMEM_NON_BLOCKING 0

/** CLMEM_WAIT_FOR(e1, e2, ...): sets .wait_for and .num_wait_for together.
    clmem_enqueue_copy(q, host, buf, CLMEM_WAIT_FOR(write_done), .event = &ev) */
#ifndef __cplusplus /* C++: clmem/cxx.h */
#define CLMEM_WAIT_FOR(...)                                   \
    .wait_for = (const cl_event[]){__VA_ARGS__},              \
    .num_wait_for = (cl_uint)(sizeof((const cl_event[]){__VA_ARGS__}) / sizeof(cl_event))
#endif

/* ---- THE HOST-TRANSFER RULES (private) ----
   What every host transfer (clmem_enqueue_copy's host pairs, inline and full, the
   stager, maps) decides alike, in one place. The worded checks are in memobj.c
   (clmem__host_access_check, clmem__host_wait_check); the host-transfer plan in
   transfer.c composes them with the extents. */
/* clmem__host_forbidden(flags, write): the HOST_* bits of an object's flags that
   forbid the host to write it (write != 0) or to read it; 0 when allowed. */
static inline cl_mem_flags clmem__host_forbidden(cl_mem_flags flags, int write) {
    return flags & (CL_MEM_HOST_NO_ACCESS | (write ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY));
}
/* clmem__host_blocking(given, is_blocking): host transfers and maps block unless
   .is_blocking was written and is false. */
static inline cl_bool clmem__host_blocking(unsigned given, int is_blocking) {
    return (given & CLMEM_GIVEN_IS_BLOCKING) && !is_blocking ? CL_FALSE : CL_TRUE;
}
/* clmem__host_count(given, byte_count, size, offset): a linear host transfer's byte
   count: .byte_count when written (also 0), else everything after offset (offset <=
   size is checked by the caller). */
static inline size_t clmem__host_count(unsigned given, size_t byte_count, size_t size, size_t offset) {
    return (given & CLMEM_GIVEN_BYTE_COUNT) || byte_count ? byte_count : size - offset;
}

/* CLMEM__WAIT_FIELDS: the fields every enqueue's options struct has, in this order
   (the last ones, but for clmem_map_options' private call site): wait_for (events to
   wait for; NULL: none), num_wait_for (how many; CLMEM_WAIT_FOR(e1, e2) sets both),
   event (where to put the new event; NULL: none is made). */
#define CLMEM__WAIT_FIELDS                   \
    const cl_event *wait_for CLMEM__DEFAULT; \
    cl_uint num_wait_for CLMEM__DEFAULT;     \
    cl_event *event CLMEM__DEFAULT;

/** The options every enqueue without options of its own takes: given (CLMEM_GIVEN_*
    bits, filled by the macros), wait_for (events to wait for; NULL: none),
    num_wait_for (how many), event (where to put the new event; NULL: none is made). */
#define CLMEM__ENQUEUE_FIELDS      \
    CLMEM__GIVEN_FIELD_NO_DEFAULTS \
    CLMEM__WAIT_FIELDS
typedef struct CLMEM__OPTIONS_TYPE clmem_enqueue_options {
    CLMEM__ENQUEUE_FIELDS
} clmem_enqueue_options;

/** Everything clGetMemObjectInfo knows about a memory object, in one struct
    (PyOpenCL's MemoryObject.get_info for every mem_info). Fields the device's
    OpenCL version lacks stay 0. */
typedef struct clmem_mem_info {
    cl_mem_object_type type;          /* CL_MEM_TYPE */
    cl_mem_flags flags;               /* CL_MEM_FLAGS */
    size_t size;                      /* CL_MEM_SIZE (a pooled block: its rounded size) */
    void *host_ptr;                   /* CL_MEM_HOST_PTR */
    cl_uint map_count;                /* CL_MEM_MAP_COUNT */
    cl_uint reference_count;          /* CL_MEM_REFERENCE_COUNT */
    cl_context context;               /* CL_MEM_CONTEXT */
    cl_mem associated_memobject;      /* CL_MEM_ASSOCIATED_MEMOBJECT (1.1) */
    size_t offset;                    /* CL_MEM_OFFSET (1.1) */
    cl_bool uses_svm_pointer;         /* CL_MEM_USES_SVM_POINTER (2.0) */
    size_t num_properties;            /* entries of CL_MEM_PROPERTIES (3.0), 0 terminator excluded */
    cl_ulong properties[16];          /* CL_MEM_PROPERTIES, 0-terminated */
} clmem_mem_info;

/** clmem_mem_get_info(mem, &info): fill info for a raw cl_mem. Returns CL_SUCCESS,
    CL_INVALID_MEM_OBJECT for NULL, or the driver's code. Thread safety: any thread.
    The generic clmem_memory_object_get_info(obj, &info) takes any clmem handle. */
CLMEM_API cl_int clmem_mem_get_info(cl_mem mem, clmem_mem_info *info);

/** clmem_mem_get_host_array(mem, nbytes, &err): the host memory behind a
    CL_MEM_USE_HOST_PTR object (PyOpenCL's get_host_array): CL_MEM_HOST_PTR, checked
    to hold at least nbytes (0: no check). Errors: CL_INVALID_MEM_OBJECT (NULL or not
    USE_HOST_PTR: "only objects created with CL_MEM_USE_HOST_PTR have a host array"),
    CL_INVALID_VALUE (nbytes above CL_MEM_SIZE). The pointer stays owned by you. */
CLMEM_API void *clmem_mem_get_host_array(cl_mem mem, size_t nbytes, cl_int *errcode_ret);

/** clmem_enqueue_migrate_mem_objects(queue, objects, n, flags, ...): move memory
    objects to the queue's device (clEnqueueMigrateMemObjects, OpenCL 1.2). objects
    is an array of raw cl_mem (buf.mem, img.mem, pooled buffers too). flags: 0 or
    CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED.
    Options: .wait_for, .num_wait_for, .event. Errors: CL_INVALID_VALUE (n == 0, NULL
    array, unknown flag bits), CL_INVALID_MEM_OBJECT (a NULL or invalid entry),
    CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT
    (an object of another context), CL_INVALID_OPERATION (device older than 1.2).
    Thread safety: any thread. clmem makes one migration call at a time in the process:
    NVIDIA's driver 580 crashes when threads migrate onto one queue at once. It also
    crashes when a migration onto a queue meets another thread's enqueue onto the same
    queue (a write, say), which clmem cannot order: there, give each thread its own
    queue, or do not migrate while other threads enqueue. */
CLMEM_API cl_int clmem_enqueue_migrate_mem_objects_opts(cl_command_queue queue, const cl_mem *objects, cl_uint n,
                                                        cl_mem_migration_flags flags, const clmem_enqueue_options *opts);
#ifndef __cplusplus
/* CLMEM__MIGRATE_ARGS(kind, T, fn): what a C migrate macro expands to: the args struct
   clmem__<kind>_args (T objects[n], flags, then the enqueue options; see CLMEM__OPTIONS)
   and clmem__<kind>_call(queue, &args), which calls fn(queue, objects, n, flags, &opts). */
#define CLMEM__MIGRATE_ARGS(kind, T, fn)                                                         \
    typedef struct clmem__##kind##_args {                                                        \
        const T *objects;                                                                        \
        cl_uint n;                                                                               \
        cl_mem_migration_flags flags;                                                            \
        CLMEM__OPTIONS(clmem_enqueue_options, CLMEM__ENQUEUE_FIELDS)                             \
    } clmem__##kind##_args;                                                                      \
    static inline cl_int clmem__##kind##_call(cl_command_queue queue, const clmem__##kind##_args *a) { \
        return fn(queue, a->objects, a->n, a->flags, &a->opts);                                  \
    }
CLMEM__MIGRATE_ARGS(migrate, cl_mem, clmem_enqueue_migrate_mem_objects_opts)
#define clmem_enqueue_migrate_mem_objects(queue, ...) \
    clmem__migrate_call(queue, &(clmem__migrate_args){__VA_ARGS__, .given = CLMEM__GIVEN(__VA_ARGS__)})
#endif

/* ---------------------------------------------------------------------------------
   GENERIC MEMORY-OBJECT FUNCTIONS (C: _Generic; C++: overloads)

   Each takes any memory handle: clmem_buffer, clmem_image, clmem_pipe or a raw cl_mem.
     clmem_memory_object_int_ptr(obj)        the raw cl_mem (PyOpenCL's int_ptr)
     clmem_memory_object_get_info(obj, &i)  every mem_info (clmem_mem_info)
     clmem_memory_object_get_host_array(obj, nbytes, &err)
     clmem_memory_object_hostbuf(obj)        CL_MEM_HOST_PTR for USE_HOST_PTR objects, else NULL
     clmem_memory_object_equal(a, b)         same OpenCL object (pointer equality)
     clmem_memory_object_hash(obj)           a hash consistent with equality
     clmem_release(&obj)                     release any clmem handle (see clmem_buffer_release)
   --------------------------------------------------------------------------------- */
CLMEM_API void *clmem_mem_hostbuf(cl_mem mem);
/* What clmem_memory_object_get_info calls: clmem_mem_get_info, refusing a stale
   pooled handle (stale != 0) with CL_INVALID_MEM_OBJECT. */
CLMEM_API cl_int clmem__object_get_info(cl_mem mem, int stale, clmem_mem_info *info);
CLMEM_API size_t clmem_mem_hash(cl_mem mem);

/** clmem_live_map_count(mem): how many maps of mem (NULL: of any object) clmem holds
    live now. For tests and leak checks. Thread safety: any thread. */
CLMEM_API size_t clmem_live_map_count(cl_mem mem);

/* clmem__maps_live(): 1 while any map made through clmem is live (the inline copy
   path then takes the full path, which warns about copying mapped memory). */
CLMEM_API int clmem__maps_live(void);

#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
/* Each kind's module defines clmem_<kind>_int_ptr and clmem_<kind>_release. */
#define CLMEM__MEM_OF(obj)                                                                  \
    _Generic((obj), clmem_buffer: clmem_buffer_int_ptr, clmem_image: clmem_image_int_ptr, \
             clmem_pipe: clmem_pipe_int_ptr, cl_mem: clmem__mem_identity)(obj)
#define clmem_memory_object_int_ptr(obj) CLMEM__MEM_OF(obj)
/* get_info refuses a stale copy of a pooled buffer handle (its block may belong to
   another owner now); a clmem_buffer argument is evaluated twice. */
#define clmem_memory_object_get_info(obj, info) \
    clmem__object_get_info(CLMEM__MEM_OF(obj), clmem__buffer_stale(CLMEM__AS_BUFFER(obj)), (info))
#define CLMEM__AS_BUFFER(obj) _Generic((obj), clmem_buffer: (obj), default: (clmem_buffer){0})
#define clmem_memory_object_get_host_array(obj, nbytes, err) clmem_mem_get_host_array(CLMEM__MEM_OF(obj), (nbytes), (err))
#define clmem_memory_object_hostbuf(obj) clmem_mem_hostbuf(CLMEM__MEM_OF(obj))
#define clmem_memory_object_equal(a, b) (CLMEM__MEM_OF(a) == CLMEM__MEM_OF(b))
#define clmem_memory_object_hash(obj) clmem_mem_hash(CLMEM__MEM_OF(obj))
#endif
static inline cl_mem clmem__mem_identity(cl_mem m) { return m; }

/* THE LIST OF HANDLE KINDS: X(type, its release function), every handle a clmem call
   hands out to be released. It makes clmem_release's _Generic (C) and overloads
   (C++, clmem/cxx.h); a new kind of handle is a new row. */
#define CLMEM__HANDLES(X)                                                                                   \
    X(clmem_buffer, clmem_buffer_release) X(clmem_image, clmem_image_release)                              \
    X(clmem_pipe, clmem_pipe_release) X(clmem_sampler, clmem_sampler_release)                              \
    X(clmem_svm_allocation, clmem_svm_allocation_release) X(clmem_svm_array, clmem_svm_array_release)      \
    X(clmem_memory_map, clmem_memory_map_release_default) X(clmem_svm_map, clmem_svm_map_release_default)  \
    X(clmem_pooled_svm, clmem_pooled_svm_release) X(clmem_pinned_allocation, clmem_pinned_allocation_release) \
    X(clmem_usm_allocation, clmem_usm_allocation_release) X(clmem_pooled_usm, clmem_pooled_usm_release)

/** clmem_release(&handle): release any clmem handle through its kind's release
    function and empty it: buffers (pooled ones go back to their pool), images,
    pipes, samplers, SVM allocations, SVM arrays, memory maps, SVM maps (both with
    no options), pooled SVM, pinned allocations, USM allocations and pooled USM;
    see each kind's *_release for
    what that means and its errors. Another type is a compile error. Pools,
    allocators and stagers are objects, not handles: their own *_release frees them. */
#ifndef __cplusplus
#define CLMEM__RELEASE_ASSOC(T, fn) , T *: fn /* a leading comma: the list needs no default */
#define clmem_release(handle_ptr) _Generic((handle_ptr)CLMEM__HANDLES(CLMEM__RELEASE_ASSOC))(handle_ptr)
#endif
