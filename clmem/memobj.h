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
   and .event (where to store the new event; none is created when it is NULL). A
   wait list holding an event that has already failed (a negative execution status,
   such as a user event set with clSetUserEventStatus(ev, -1)) is refused by every
   enqueue, blocking or not: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST with a
   message naming the function, the event's index and its status; nothing is
   enqueued and no .event is made (the spec has such a command terminated, never run;
   PoCL 3.1 would leave it queued for ever, and a blocking call would hang). An event
   that fails after the call is the driver's to report, through the command's event.
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
   stager, maps) decides alike, in one place. The worded check is in memobj.c
   (clmem__host_access_check; the wait list is every enqueue's clmem__check_wait_list,
   base.c); the host-transfer plan in transfer.c composes them with the extents. */
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
    cl_uint map_count;                /* CL_MEM_MAP_COUNT (debugging only, stale at once;
                                         clmem_live_map_count is clmem's own count) */
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
    CL_INVALID_EVENT_WAIT_LIST, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event
    of the wait list has already failed: nothing is enqueued, no .event made),
    CL_INVALID_CONTEXT (an object of another context), CL_INVALID_OPERATION (device
    older than 1.2).
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
/* Each kind's module defines clmem_<kind>_int_ptr (the kinds of CLMEM__KINDS with mem 1). */
#define CLMEM__MEM_OF(obj) _Generic((obj), CLMEM__KINDS(CLMEM__KIND_IF_MEM, CLMEM__MEM_OF_ASSOC) cl_mem: clmem__mem_identity)(obj)
#define CLMEM__MEM_OF_ASSOC(T, name) T: clmem_##name##_int_ptr,
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

/* THE LIST OF MEMORY KINDS: one row per type of handle or value that clmem hands out
   or takes, and what it is to each generic call. A new kind is its module plus a row
   here (docs/hacking.md, "A new memory kind"). Each row is
       X(F, type, name, ARG, copy, fill, arg, release, mem, live, text)
   - name: the suffix of its functions: clmem_<name>_release, clmem__set_arg_<name>,
     clmem__fill_target_<name>, clmem_<name>_int_ptr (raw copies: clmem__copy_<name>_from_mem)
   - ARG: its kernel-argument kind, CLMEM__ARG_KIND_<ARG> (kernel_arg.c)
   - copy 1: a kind of clmem_enqueue_copy's DISPATCH TABLE (CLMEM__COPY_KINDS; its pairs
     are CLMEM__COPY_PAIRS, transfer.h, which CTest copy_pairs checks against this list)
   - fill 1: a target of clmem_enqueue_fill (CLMEM__FILL_TARGETS)
   - arg: what it is to clmem_set_kernel_arg: P a pointer (buffer, SVM, USM), M another
     memory object, S a sampler, L local memory, 0 not a kernel argument
   - release: R clmem_<name>_release, D clmem_<name>_release_default, 0 not a handle
     (clmem_release, CLMEM__HANDLES)
   - mem 1: a cl_mem underneath, clmem_<name>_int_ptr gives it (CLMEM__MEM_OF)
   - live: the field that is non-zero while the handle is live (the C++ owners)
   - text: how messages name a value of this kind (kernel arguments)
   X is a filter below (CLMEM__KIND_IF_*), which calls F for the rows it keeps; every
   list the generic calls need is such a filter. Rows name types of later modules:
   the macro expands only where it is used. */
#define CLMEM__KINDS(X, F)                                                                                  \
    X(F, clmem_buffer, buffer, BUFFER, 1, 1, P, R, 1, mem, "a buffer")                                      \
    X(F, clmem_image, image, IMAGE, 1, 0, M, R, 1, mem, "an image")                                         \
    X(F, clmem_pipe, pipe, PIPE, 0, 0, M, R, 1, mem, "a pipe")                                              \
    X(F, clmem_sampler, sampler, SAMPLER, 0, 0, S, R, 0, sampler, "a sampler")                              \
    X(F, clmem_svm, svm, SVM, 1, 1, P, 0, 0, ptr, "an SVM pointer")                                         \
    X(F, clmem_usm, usm, USM, 1, 1, P, 0, 0, ptr, "a USM pointer")                                          \
    X(F, cl_mem, mem, MEM, 1, 0, M, 0, 0, -, "a cl_mem")                                                    \
    X(F, clmem_local_memory, local, LOCAL, 0, 0, L, 0, 0, -, "local memory (a size, no value)")             \
    X(F, clmem_svm_allocation, svm_allocation, -, 0, 0, 0, R, 0, svm.ptr, "")                               \
    X(F, clmem_svm_array, svm_array, -, 0, 0, 0, R, 0, svm.ptr, "")                                         \
    X(F, clmem_memory_map, memory_map, -, 0, 0, 0, D, 0, ptr, "")                                           \
    X(F, clmem_svm_map, svm_map, -, 0, 0, 0, D, 0, id, "")                                                  \
    X(F, clmem_pooled_svm, pooled_svm, -, 0, 0, 0, R, 0, svm.pool, "")                                      \
    X(F, clmem_pinned_allocation, pinned_allocation, -, 0, 0, 0, R, 0, ptr, "")                             \
    X(F, clmem_usm_allocation, usm_allocation, -, 0, 0, 0, R, 0, usm.ptr, "")                               \
    X(F, clmem_pooled_usm, pooled_usm, -, 0, 0, 0, R, 0, usm.pool, "")                                      \
    X(F, clmem_pooled_peer, pooled_peer, -, 0, 0, 0, R, 0, pool, "")                                        \
    X(F, clmem_host_registration, host_registration, -, 0, 0, 0, R, 0, ptr, "")                         \
    X(F, clmem_semaphore, semaphore, -, 0, 0, 0, R, 0, sem, "")

/* The filters: each keeps some rows and calls F with what that list needs. */
#define CLMEM__KIND_YES(...) __VA_ARGS__
#define CLMEM__KIND_NO(...)
#define CLMEM__KIND_IS_1 CLMEM__KIND_YES
#define CLMEM__KIND_IS_0 CLMEM__KIND_NO
#define CLMEM__KIND_ARG_P CLMEM__KIND_YES
#define CLMEM__KIND_ARG_M CLMEM__KIND_YES
#define CLMEM__KIND_ARG_S CLMEM__KIND_YES
#define CLMEM__KIND_ARG_L CLMEM__KIND_YES
#define CLMEM__KIND_ARG_0 CLMEM__KIND_NO
#define CLMEM__KIND_REL_R CLMEM__KIND_YES
#define CLMEM__KIND_REL_D CLMEM__KIND_YES
#define CLMEM__KIND_REL_0 CLMEM__KIND_NO
#define CLMEM__KIND_RELEASE_R(name) clmem_##name##_release
#define CLMEM__KIND_RELEASE_D(name) clmem_##name##_release_default
/* F(type): the kinds of clmem_enqueue_copy */
#define CLMEM__KIND_IF_COPY(F, T, name, ARG, copy, fill, arg, rel, mem, live, text) CLMEM__KIND_IS_##copy(F(T))
/* F(type, name): the targets of clmem_enqueue_fill */
#define CLMEM__KIND_IF_FILL(F, T, name, ARG, copy, fill, arg, rel, mem, live, text) CLMEM__KIND_IS_##fill(F(T, name))
/* F(type, name, ARG, arg, text): the kinds of kernel argument */
#define CLMEM__KIND_IF_ARG(F, T, name, ARG, copy, fill, arg, rel, mem, live, text) \
    CLMEM__KIND_ARG_##arg(F(T, name, ARG, arg, text))
/* F(type, release function, live field): the handles clmem_release takes */
#define CLMEM__KIND_IF_HANDLE(F, T, name, ARG, copy, fill, arg, rel, mem, live, text) \
    CLMEM__KIND_REL_##rel(F(T, CLMEM__KIND_RELEASE_##rel(name), live))
/* F(type, name): the kinds with a cl_mem underneath */
#define CLMEM__KIND_IF_MEM(F, T, name, ARG, copy, fill, arg, rel, mem, live, text) CLMEM__KIND_IS_##mem(F(T, name))
/* F(type, name): the kinds with a cl_mem underneath that clmem_enqueue_copy takes (their
   pairs with a raw cl_mem: clmem__copy_<name>_from_mem, clmem__copy_mem_from_<name>) */
#define CLMEM__KIND_IF_COPY_MEM(F, T, name, ARG, copy, fill, arg, rel, mem, live, text) \
    CLMEM__KIND_IS_##copy(CLMEM__KIND_IS_##mem(F(T, name)))

/* X(type, its release function, its live field): every handle a clmem call hands out
   to be released. It makes clmem_release's _Generic (C) and overloads (C++,
   clmem/cxx.h). */
#define CLMEM__HANDLES(X) CLMEM__KINDS(CLMEM__KIND_IF_HANDLE, X)

/** clmem_release(&handle): release any clmem handle through its kind's release
    function and empty it: buffers (pooled ones go back to their pool), images,
    pipes, samplers, SVM allocations, SVM arrays, memory maps, SVM maps (both with
    no options), pooled SVM, pinned allocations, USM allocations, pooled USM and
    host registrations;
    see each kind's *_release for
    what that means and its errors. Another type is a compile error. Pools,
    allocators and stagers are objects, not handles: their own *_release frees them. */
#ifndef __cplusplus
#define CLMEM__RELEASE_ASSOC(T, fn, live) , T *: fn /* a leading comma: the list needs no default */
#define clmem_release(handle_ptr) _Generic((handle_ptr)CLMEM__HANDLES(CLMEM__RELEASE_ASSOC))(handle_ptr)
#endif

/* ---- private: what other modules of clmem use of memobj; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* a live map clmem made (the live-map table, memobj.c) */
typedef struct clmem__map_record {
    unsigned long long serial;
    cl_mem mem;          /* the mapped object */
    cl_mem root;         /* buffers: the root buffer; images: mem */
    void *ptr;           /* NULL while the driver call is in progress */
    cl_command_queue queue; /* retained by the record while the map is live */
    cl_event event;      /* the map's event (owned by the record), or NULL */
    int busy;            /* an unmap of this map is being enqueued */
    cl_map_flags flags;
    size_t lo[3], hi[3]; /* buffers: [lo[0], hi[0]) bytes of root; images: the pixel box */
    const char *file;
    int line;
} clmem__map_record;

/* the live-map table: its lock and records (memobj.c) */
static clmem__mutex clmem__map_lock = CLMEM__MUTEX_INIT;
static clmem__map_record *clmem__maps;

/* functions (each described where it is defined) */
static cl_int clmem__enqueue_opts_made(const char *fn, const clmem_enqueue_options **opts);
static cl_int clmem__nothing_to_do(const char *fn, cl_command_queue queue, const cl_event *wait_for, cl_uint num_wait_for,
                                   cl_event *event);
static cl_int clmem__wait_events(const cl_event *w, cl_uint n);
static cl_int clmem__host_access_check(const char *fn, const char *what, cl_mem_flags flags, int write, const char *how);
static cl_int clmem__map_reserve(const char *fn, clmem__map_record *rec);
static size_t clmem__map_find(unsigned long long serial);
static void clmem__map_cancel(unsigned long long serial);
static void clmem__map_publish(unsigned long long serial, void *ptr, cl_command_queue queue, cl_event event);
static void clmem__map_drop(unsigned long long serial);
static void clmem__map_unclaim(unsigned long long serial);
static void clmem__map_note_use(cl_mem mem, const char *fn);
static CLMEM__NOINLINE cl_int clmem__release_mem(const char *fn, cl_mem mem);
/* ---- end private ---- */
