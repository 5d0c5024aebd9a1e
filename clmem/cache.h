/* >>cache: first-argument-dependent memoization (PyOpenCL's first_arg_dependent_memoize,
   context_dependent_memoize, clear_first_arg_caches) */
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   FIRST-ARGUMENT-DEPENDENT CACHES

   A cache remembers what a function computed for an OpenCL object (a context, a
   device, a queue, ...) and the rest of its arguments, taken as bytes. The first call
   with a key runs the function; later calls copy the stored value out. Typical use: a
   program compiled once per context, a device query made once per device.

       static cl_int build(cl_context ctx, cl_program *out) { ... clBuildProgram ... }
       static void unbuild(cl_program *p) { clReleaseProgram(*p); }
       CLMEM_CONTEXT_DEPENDENT_MEMOIZE(get_program, cl_program, build, unbuild)
       ...
       cl_program p;
       cl_int err = get_program(ctx, &p);   // builds on the first call per context

   What a cache keeps:
   - The key is the object's handle (its address) plus the argument bytes. Arguments
     given as a struct must have their padding zeroed (memset the struct first), or
     equal arguments may make different keys. PyOpenCL keys positional and keyword
     spellings apart; C has one spelling.
   - The value is a copy of `value_size` bytes written by the compute function; the
     cache owns it and runs the cache's destroy function on it exactly once: when the
     entry is dropped by clmem_clear_first_arg_caches, clmem_first_arg_caches_forget, or
     the destruction of its context. What a call copies out (e.g. a cl_program handle)
     stays valid until then: do not clear a cache while another thread uses its values.
   - Errors are not cached: a compute function that returns an error stores nothing,
     and the next call computes again.
   - A cache never retains its context (PyOpenCL's does, until clear_first_arg_caches).
     Where the platform has OpenCL 3.0's clSetContextDestructorCallback (PoCL, NVIDIA),
     the entries of a context are dropped, and destroyed, when that context is
     destroyed; entries keyed by a queue are tied to the queue's context. Two limits:
     (1) a value that itself holds a reference to the context (a cl_program, cl_kernel
     or cl_mem made in it) keeps the context alive, so call
     clmem_first_arg_caches_forget(ctx) before the last clReleaseContext (or clear the
     caches); (2) on platforms below OpenCL 3.0 nothing is dropped automatically, and a
     new context that happens to get the address of a destroyed one would see its
     entries: there, call clmem_first_arg_caches_forget(ctx) before releasing a
     context. Entries keyed by devices live until cleared (devices outlive contexts).
   - Thread safety: every function here may be called from any thread. The compute
     function runs without any lock held (it may itself use caches); if two threads
     miss the same key at the same time both compute, the first value stored is kept
     and returned to both, and the other is destroyed at once.
   --------------------------------------------------------------------------------- */

/** The compute function of a cache: write value_size bytes of the value for
    (cl_object, args) into `value` and return CL_SUCCESS, or return an error code (the
    value is then not cached and `value` is ignored). `user` is what the caller passed
    to clmem_first_arg_dependent_memoize (not part of the key). */
typedef cl_int (*clmem_memoize_compute_fn)(void *cl_object, const void *args, size_t args_size, void *value,
                                           void *user);

/** The destroy function of a cache: release what a cached value holds (e.g.
    clReleaseProgram(*(cl_program *)value)). Called exactly once per stored value,
    without any lock held. It must not free `value` itself (the cache owns the bytes). */
typedef void (*clmem_memoize_destroy_fn)(void *value);

/** What kind of OpenCL object keys a cache: it decides which context an entry belongs
    to (for dropping entries when that context is destroyed). */
typedef enum clmem_cache_key_kind {
    CLMEM_CACHE_KEY_CONTEXT = 0, /* a cl_context: entries die with it */
    CLMEM_CACHE_KEY_DEVICE = 1,  /* a cl_device_id: entries live until cleared */
    CLMEM_CACHE_KEY_QUEUE = 2,   /* a cl_command_queue: entries die with the queue's context */
    CLMEM_CACHE_KEY_OTHER = 3    /* any other handle (or pointer): entries live until cleared */
} clmem_cache_key_kind;

/** One cache (PyOpenCL keeps one per decorated function). Define it with static
    storage and CLMEM_FIRST_ARG_CACHE_INIT; the clmem__ fields are private. It registers
    itself on first use, so clmem_clear_first_arg_caches reaches it.
        static clmem_first_arg_cache cache =
            CLMEM_FIRST_ARG_CACHE_INIT("my_cache", CLMEM_CACHE_KEY_DEVICE, sizeof(cl_uint), compute, NULL);
    A cache object must stay alive (static storage) as long as it holds entries. */
typedef struct clmem_first_arg_cache {
    const char *name;                 /* for messages */
    clmem_cache_key_kind key_kind;    /* what kind of object keys it */
    size_t value_size;                /* bytes of one value (may be 0: a cache of "done") */
    clmem_memoize_compute_fn compute; /* required */
    clmem_memoize_destroy_fn destroy; /* may be NULL: nothing to release */
    void *clmem__state;               /* private: the entries, NULL until first use */
    struct clmem_first_arg_cache *clmem__next; /* private: registry of all caches */
} clmem_first_arg_cache;

/** CLMEM_FIRST_ARG_CACHE_INIT(name, key_kind, value_size, compute, destroy): the
    initializer of a clmem_first_arg_cache (plain braces: C and C++). */
#define CLMEM_FIRST_ARG_CACHE_INIT(name, key_kind, value_size, compute, destroy) \
    { (name), (key_kind), (value_size), (compute), (destroy), 0, 0 }

/** clmem_first_arg_dependent_memoize(cache, cl_object, args, args_size, value_out, user):
    PyOpenCL's first_arg_dependent_memoize wrapper call. Looks up (cl_object, the
    args_size bytes at args); on a hit copies the stored value_size bytes to value_out;
    on a miss runs cache->compute(cl_object, args, args_size, value, user), stores the
    value and copies it out.

    cache: a cache made with CLMEM_FIRST_ARG_CACHE_INIT. cl_object: the handle keying
    the entry (cl_context, cl_device_id, ...; must not be NULL). args/args_size: the
    remaining arguments as bytes (NULL/0 for none). value_out: value_size bytes to
    receive the value (NULL: compute if needed, copy nothing). user: passed to compute.

    Returns CL_SUCCESS; CL_INVALID_VALUE when cache or cache->compute is NULL, or args
    is NULL while args_size > 0; CL_INVALID_CONTEXT / CL_INVALID_DEVICE /
    CL_INVALID_COMMAND_QUEUE / CL_INVALID_VALUE (by key_kind) when cl_object is NULL;
    CL_INVALID_COMMAND_QUEUE when a queue key's context cannot be queried;
    CL_OUT_OF_HOST_MEMORY; or whatever compute returned (nothing is cached then; the
    message names the cache and keeps compute's own message).
    Thread safety: any thread (see above).
    Example: clmem_first_arg_dependent_memoize(&cache, dev, &type_size, sizeof type_size, &v, NULL); */
CLMEM_API cl_int clmem_first_arg_dependent_memoize(clmem_first_arg_cache *cache, void *cl_object, const void *args,
                                                   size_t args_size, void *value_out, void *user);

/** clmem_clear_first_arg_caches(): PyOpenCL's clear_first_arg_caches. Empties every
    cache that has been used, running the destroy function of each value exactly once
    (after the internal lock is let go, so destroy functions may release contexts).
    Call it before exit to release what caches hold (clmem registers no atexit
    handler: drivers may be gone by then). Thread safety: any thread; values copied out
    earlier must no longer be in use. */
CLMEM_API void clmem_clear_first_arg_caches(void);

/** clmem_first_arg_caches_forget(cl_object): drop, from every cache, the entries keyed
    by cl_object and those tied to it as their context (entries of its queues), running
    their destroy functions once. Use it before releasing a context whose cached values
    hold references to it, or on platforms without clSetContextDestructorCallback.
    Returns the number of entries dropped. Thread safety: any thread. */
CLMEM_API size_t clmem_first_arg_caches_forget(void *cl_object);

/** clmem_first_arg_cache_size(cache): how many entries the cache holds now (0 for
    NULL or an unused cache). Thread safety: any thread; stale as soon as it returns. */
CLMEM_API size_t clmem_first_arg_cache_size(const clmem_first_arg_cache *cache);

/* The destroy adapter and the cache of a memoized name (both macros below; the
   compute adapter name##_clmem__compute comes first). */
#define CLMEM__MEMOIZE_CACHE(name, key_kind, T, destroy)                                             \
    static void name##_clmem__destroy(void *v_) {                                                    \
        void (*d_)(T *) = destroy;                                                                   \
        if (d_) d_((T *)v_);                                                                         \
    }                                                                                                \
    static clmem_first_arg_cache name##_clmem__cache = CLMEM_FIRST_ARG_CACHE_INIT(                   \
        #name, key_kind, sizeof(T), name##_clmem__compute, name##_clmem__destroy);

/** CLMEM_CONTEXT_DEPENDENT_MEMOIZE(name, T, compute, destroy): define
        static cl_int name(cl_context ctx, T *out);
    which returns compute's value for ctx, computing it once per context (PyOpenCL's
    context_dependent_memoize used as a decorator). compute has the signature
    `cl_int compute(cl_context ctx, T *out)`; destroy is `void destroy(T *value)` or
    NULL. Use at file scope. name(ctx, out) returns what clmem_first_arg_dependent_memoize
    returns; out may be NULL.
        static cl_int count_devices(cl_context c, cl_uint *n) {
            return clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof *n, n, NULL); }
        CLMEM_CONTEXT_DEPENDENT_MEMOIZE(num_devices, cl_uint, count_devices, NULL) */
#define CLMEM_CONTEXT_DEPENDENT_MEMOIZE(name, T, compute, destroy)                                   \
    static cl_int name##_clmem__compute(void *o_, const void *a_, size_t n_, void *v_, void *u_) {   \
        (void)a_; (void)n_; (void)u_;                                                                \
        return compute((cl_context)o_, (T *)v_);                                                     \
    }                                                                                                \
    CLMEM__MEMOIZE_CACHE(name, CLMEM_CACHE_KEY_CONTEXT, T, destroy)                                  \
    static cl_int name(cl_context ctx_, T *out_) {                                                   \
        return clmem_first_arg_dependent_memoize(&name##_clmem__cache, (void *)ctx_, 0, 0, out_, 0); \
    }

/** CLMEM_FIRST_ARG_DEPENDENT_MEMOIZE(name, key_kind, ObjT, ArgT, T, compute, destroy):
    define
        static cl_int name(ObjT obj, const ArgT *args, T *out);
    memoizing compute per (obj, the bytes of *args). compute is
    `cl_int compute(ObjT obj, const ArgT *args, T *out)`; destroy is
    `void destroy(T *value)` or NULL; key_kind one of CLMEM_CACHE_KEY_*. Zero ArgT's
    padding (memset) before filling it. Use at file scope.
        CLMEM_FIRST_ARG_DEPENDENT_MEMOIZE(kernel_for, CLMEM_CACHE_KEY_CONTEXT, cl_context,
                                          struct kernel_key, cl_kernel, make_kernel, free_kernel) */
#define CLMEM_FIRST_ARG_DEPENDENT_MEMOIZE(name, key_kind, ObjT, ArgT, T, compute, destroy)          \
    static cl_int name##_clmem__compute(void *o_, const void *a_, size_t n_, void *v_, void *u_) {   \
        (void)n_; (void)u_;                                                                          \
        return compute((ObjT)o_, (const ArgT *)a_, (T *)v_);                                         \
    }                                                                                                \
    CLMEM__MEMOIZE_CACHE(name, key_kind, T, destroy)                                                 \
    static cl_int name(ObjT obj_, const ArgT *args_, T *out_) {                                      \
        return clmem_first_arg_dependent_memoize(&name##_clmem__cache, (void *)obj_, args_,          \
                                                 sizeof(ArgT), out_, 0);                             \
    }

#ifdef __cplusplus
}
#endif
