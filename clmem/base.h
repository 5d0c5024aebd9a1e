/* >>base: version, configuration, linkage, results, error messages, logging */

/* Language and header checks: each stops the compiler at one clear #error (the
   missing #include after it is fatal, so no cascade of errors follows). */
#if defined(__cplusplus)
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 201103L
#error "clmem.h needs C++11 or later: compile with -std=c++11 (it uses thread_local)"
#include "clmem: stopped at the #error above"
#endif
#elif !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "clmem.h needs C11 (or C++11): compile with -std=c11 or later; it dispatches with _Generic"
#include "clmem: stopped at the #error above"
#endif

#define CLMEM_VERSION_MAJOR 0
#define CLMEM_VERSION_MINOR 2
#define CLMEM_VERSION_PATCH 1
/** The version of this header as one number, MAJOR * 10000 + MINOR * 100 + PATCH
    (0.2.0 is 200; 1.2.3 would be 10203), for #if comparisons. 0.1.0 (100) had
    another API (CHANGELOG.md lists the changes), so code for both writes:
    #if CLMEM_VERSION >= 200 ... #else ... #endif */
#define CLMEM_VERSION (CLMEM_VERSION_MAJOR * 10000 + CLMEM_VERSION_MINOR * 100 + CLMEM_VERSION_PATCH)
#define CLMEM__STR_(x) #x
#define CLMEM__STR(x) CLMEM__STR_(x)
#ifdef __cplusplus
#define CLMEM__STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define CLMEM__STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* CLMEM_NO_GNU_EXTENSIONS (define it before including clmem.h): compile the code that
   a compiler without GNU extensions (MSVC) gets, with gcc or clang too: no __atomic or
   __builtin calls, no vector types, no attributes that change code. CLMEM__GNU is 1
   where clmem uses those extensions. (Pragmas and attributes that only quiet the
   compiler's warnings follow __GNUC__ itself.) The suite runs both ways
   (tools/test --portable). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(CLMEM_NO_GNU_EXTENSIONS)
#define CLMEM__GNU 1
#else
#define CLMEM__GNU 0
#endif

/* hot paths inlined whole, rare paths kept out of them */
#if CLMEM__GNU
#define CLMEM__INLINE static inline __attribute__((always_inline))
#define CLMEM__NOINLINE __attribute__((noinline))
#else
#define CLMEM__INLINE static inline
#define CLMEM__NOINLINE
#endif
/* CLMEM__PRINTF(f, a): a printf-like function's format check */
#if defined(__MINGW32__) /* mingw-w64: the checks of the printf that stdio.h gives (the C99 one
                             with __USE_MINGW_ANSI_STDIO=1, which clmem's %zu needs) */
#include <stdio.h>
#define CLMEM__PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__) || defined(__clang__) /* format checks (warnings only) */
#define CLMEM__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLMEM__PRINTF(f, a)
#endif
/** "0.2.1": the version of this header, as a string. */
#define CLMEM_VERSION_STRING \
    CLMEM__STR(CLMEM_VERSION_MAJOR) "." CLMEM__STR(CLMEM_VERSION_MINOR) "." CLMEM__STR(CLMEM_VERSION_PATCH)

/* OpenCL headers: clmem compiles against 1.2 to 3.0 headers. A user who includes
   CL/cl.h first keeps their own CL_TARGET_OPENCL_VERSION. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#if defined(__APPLE__)
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif
#if !defined(CL_VERSION_1_2)
#error "clmem.h needs OpenCL 1.2 headers or later: CL_TARGET_OPENCL_VERSION is below 120 (define it as 120, 200 or 300)"
#include "clmem: stopped at the #error above"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

/* CLMEM_API: linkage of every public function. extern by default; static with
   CLMEM_STATIC (a private copy per translation unit, as stb's *_STATIC). */
#ifndef CLMEM_API
#ifdef CLMEM_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define CLMEM_API static __attribute__((unused)) /* a unit need not use every function */
#else
#define CLMEM_API static
#endif
#else
#define CLMEM_API extern
#endif
#endif

/* CLMEM__ZERO: an all-zero initializer for a struct, clean in C and in C++. */
#ifdef __cplusplus
#define CLMEM__ZERO {}
#else
#define CLMEM__ZERO {0}
#endif

/* CLMEM__DEFAULT: ends every field of an options struct. Nothing in C. In C++14 and
   later a default member initializer `= {}` (zero, the layout is unchanged), so that a
   designated initializer naming some fields leaves the others zero without g++'s
   -Wmissing-field-initializers; in C++11 such a struct would stop being an aggregate,
   so there it is nothing too (see the C++ section, clmem/cxx.h). */
#if defined(__cplusplus) && __cplusplus >= 201402L
#define CLMEM__DEFAULT = {}
#else
#define CLMEM__DEFAULT
#endif

#if defined(CLMEM_NO_VALIDATION)
#define CLMEM__CHECKS 0
#else
#define CLMEM__CHECKS 1
#endif

/* ---------------------------------------------------------------------------------
   ATOMICS: the one set of atomic operations every module uses (private)

   They work on plain integers and pointers, so that a struct is laid out alike in C
   and C++ and a field can also be read under a lock. Each load acquires, each store
   releases, each read-modify-write does both. Where they come from, in this order:
     gcc and clang (CLMEM__GNU)             __atomic builtins
     C++ otherwise                          std::atomic on the same memory
     Windows C otherwise (MSVC)             the Interlocked intrinsics (<intrin.h>)
     C11 otherwise                          <stdatomic.h> on the same memory
   The operations: clmem__atomic_load_/store_ of u64, int, uint, size and ptr;
   clmem__atomic_cas_u64 (true when it swapped), clmem__atomic_exchange_int (the old
   value), clmem__atomic_add_uint (the new value; (unsigned)-1 decrements).
   A 64-bit field that is used atomically is declared CLMEM__ALIGN8 (alignas(8)): on
   32-bit x86 a uint64_t is 4-aligned in a struct, where a 64-bit atomic would need
   libatomic's locks; aligned, every compiler does it in one instruction (cmpxchg8b),
   so no target links libatomic.
   --------------------------------------------------------------------------------- */
#ifdef __cplusplus
#define CLMEM__ALIGN8 alignas(8)
#else
#define CLMEM__ALIGN8 _Alignas(8)
#endif
#if CLMEM__GNU
#define CLMEM__ATOMICS "gnu"
/* the operand's type says "8-aligned" (the caller's field is): clang -m32 otherwise
   calls libatomic's __atomic_load_8 */
typedef uint64_t clmem__u64a __attribute__((aligned(8)));
#define CLMEM__U64A(p) ((clmem__u64a *)(uintptr_t)(p))
static inline uint64_t clmem__atomic_load_u64(const uint64_t *p) { return __atomic_load_n(CLMEM__U64A(p), __ATOMIC_ACQUIRE); }
static inline void clmem__atomic_store_u64(uint64_t *p, uint64_t v) { __atomic_store_n(CLMEM__U64A(p), v, __ATOMIC_RELEASE); }
static inline bool clmem__atomic_cas_u64(uint64_t *p, uint64_t expect, uint64_t v) {
    return __atomic_compare_exchange_n(CLMEM__U64A(p), &expect, v, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline int clmem__atomic_load_int(const int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void clmem__atomic_store_int(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static inline int clmem__atomic_exchange_int(int *p, int v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL); }
static inline unsigned clmem__atomic_add_uint(unsigned *p, unsigned v) { return __atomic_add_fetch(p, v, __ATOMIC_ACQ_REL); }
static inline unsigned clmem__atomic_load_uint(const unsigned *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void clmem__atomic_store_uint(unsigned *p, unsigned v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static inline size_t clmem__atomic_load_size(const size_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void clmem__atomic_store_size(size_t *p, size_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static inline void *clmem__atomic_load_ptr(void *const *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void clmem__atomic_store_ptr(void **p, void *v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
#elif defined(__cplusplus)
#define CLMEM__ATOMICS "c++"
#include <atomic>
template <class T> static inline std::atomic<T> *clmem__as_atomic(const T *p) {
    static_assert(sizeof(std::atomic<T>) == sizeof(T), "clmem: std::atomic<T> must have T's size");
    return reinterpret_cast<std::atomic<T> *>(const_cast<T *>(p));
}
static inline uint64_t clmem__atomic_load_u64(const uint64_t *p) { return clmem__as_atomic(p)->load(std::memory_order_acquire); }
static inline void clmem__atomic_store_u64(uint64_t *p, uint64_t v) { clmem__as_atomic(p)->store(v, std::memory_order_release); }
static inline bool clmem__atomic_cas_u64(uint64_t *p, uint64_t expect, uint64_t v) {
    return clmem__as_atomic(p)->compare_exchange_strong(expect, v, std::memory_order_acq_rel, std::memory_order_acquire);
}
static inline int clmem__atomic_load_int(const int *p) { return clmem__as_atomic(p)->load(std::memory_order_acquire); }
static inline void clmem__atomic_store_int(int *p, int v) { clmem__as_atomic(p)->store(v, std::memory_order_release); }
static inline int clmem__atomic_exchange_int(int *p, int v) { return clmem__as_atomic(p)->exchange(v, std::memory_order_acq_rel); }
static inline unsigned clmem__atomic_add_uint(unsigned *p, unsigned v) {
    return clmem__as_atomic(p)->fetch_add(v, std::memory_order_acq_rel) + v;
}
static inline unsigned clmem__atomic_load_uint(const unsigned *p) { return clmem__as_atomic(p)->load(std::memory_order_acquire); }
static inline void clmem__atomic_store_uint(unsigned *p, unsigned v) { clmem__as_atomic(p)->store(v, std::memory_order_release); }
static inline size_t clmem__atomic_load_size(const size_t *p) { return clmem__as_atomic(p)->load(std::memory_order_acquire); }
static inline void clmem__atomic_store_size(size_t *p, size_t v) { clmem__as_atomic(p)->store(v, std::memory_order_release); }
static inline void *clmem__atomic_load_ptr(void *const *p) { return clmem__as_atomic(p)->load(std::memory_order_acquire); }
static inline void clmem__atomic_store_ptr(void **p, void *v) { clmem__as_atomic(p)->store(v, std::memory_order_release); }
#elif defined(_WIN32)
#define CLMEM__ATOMICS "interlocked"
#include <intrin.h>
/* Interlocked operations are full barriers; a load is an exchange-add of 0 (an
   Interlocked operation on a const object: the object is never written). */
static inline uint64_t clmem__atomic_load_u64(const uint64_t *p) {
    return (uint64_t)_InterlockedCompareExchange64((volatile long long *)(uintptr_t)p, 0, 0);
}
static inline bool clmem__atomic_cas_u64(uint64_t *p, uint64_t expect, uint64_t v) {
    return (uint64_t)_InterlockedCompareExchange64((volatile long long *)p, (long long)v, (long long)expect) == expect;
}
static inline void clmem__atomic_store_u64(uint64_t *p, uint64_t v) {
    uint64_t old = *(volatile uint64_t *)p;
    while (!clmem__atomic_cas_u64(p, old, v)) old = clmem__atomic_load_u64(p);
}
static inline int clmem__atomic_load_int(const int *p) { return (int)_InterlockedOr((volatile long *)(uintptr_t)p, 0); }
static inline void clmem__atomic_store_int(int *p, int v) { (void)_InterlockedExchange((volatile long *)p, (long)v); }
static inline int clmem__atomic_exchange_int(int *p, int v) { return (int)_InterlockedExchange((volatile long *)p, (long)v); }
static inline unsigned clmem__atomic_add_uint(unsigned *p, unsigned v) {
    return (unsigned)_InterlockedExchangeAdd((volatile long *)p, (long)v) + v;
}
static inline unsigned clmem__atomic_load_uint(const unsigned *p) {
    return (unsigned)_InterlockedOr((volatile long *)(uintptr_t)p, 0);
}
static inline void clmem__atomic_store_uint(unsigned *p, unsigned v) { (void)_InterlockedExchange((volatile long *)p, (long)v); }
static inline void *clmem__atomic_load_ptr(void *const *p) {
    return _InterlockedCompareExchangePointer((void *volatile *)(uintptr_t)p, NULL, NULL);
}
static inline void clmem__atomic_store_ptr(void **p, void *v) { (void)_InterlockedExchangePointer((void *volatile *)p, v); }
static inline size_t clmem__atomic_load_size(const size_t *p) {
    return (size_t)(uintptr_t)clmem__atomic_load_ptr((void *const *)(uintptr_t)p);
}
static inline void clmem__atomic_store_size(size_t *p, size_t v) { clmem__atomic_store_ptr((void **)p, (void *)(uintptr_t)v); }
#elif !defined(__STDC_NO_ATOMICS__)
#define CLMEM__ATOMICS "c11"
#include <stdatomic.h>
#define CLMEM__A(T, p) ((_Atomic(T) *)(uintptr_t)(p)) /* the same memory as an atomic object */
static inline uint64_t clmem__atomic_load_u64(const uint64_t *p) {
    return atomic_load_explicit(CLMEM__A(uint64_t, p), memory_order_acquire);
}
static inline void clmem__atomic_store_u64(uint64_t *p, uint64_t v) {
    atomic_store_explicit(CLMEM__A(uint64_t, p), v, memory_order_release);
}
static inline bool clmem__atomic_cas_u64(uint64_t *p, uint64_t expect, uint64_t v) {
    return atomic_compare_exchange_strong_explicit(CLMEM__A(uint64_t, p), &expect, v, memory_order_acq_rel,
                                                   memory_order_acquire);
}
static inline int clmem__atomic_load_int(const int *p) { return atomic_load_explicit(CLMEM__A(int, p), memory_order_acquire); }
static inline void clmem__atomic_store_int(int *p, int v) { atomic_store_explicit(CLMEM__A(int, p), v, memory_order_release); }
static inline int clmem__atomic_exchange_int(int *p, int v) {
    return atomic_exchange_explicit(CLMEM__A(int, p), v, memory_order_acq_rel);
}
static inline unsigned clmem__atomic_add_uint(unsigned *p, unsigned v) {
    return atomic_fetch_add_explicit(CLMEM__A(unsigned, p), v, memory_order_acq_rel) + v;
}
static inline unsigned clmem__atomic_load_uint(const unsigned *p) {
    return atomic_load_explicit(CLMEM__A(unsigned, p), memory_order_acquire);
}
static inline void clmem__atomic_store_uint(unsigned *p, unsigned v) {
    atomic_store_explicit(CLMEM__A(unsigned, p), v, memory_order_release);
}
static inline size_t clmem__atomic_load_size(const size_t *p) {
    return atomic_load_explicit(CLMEM__A(size_t, p), memory_order_acquire);
}
static inline void clmem__atomic_store_size(size_t *p, size_t v) {
    atomic_store_explicit(CLMEM__A(size_t, p), v, memory_order_release);
}
static inline void *clmem__atomic_load_ptr(void *const *p) {
    return atomic_load_explicit(CLMEM__A(void *, p), memory_order_acquire);
}
static inline void clmem__atomic_store_ptr(void **p, void *v) {
    atomic_store_explicit(CLMEM__A(void *, p), v, memory_order_release);
}
#else
#error "clmem: no atomic operations: compile as C11 with <stdatomic.h>, as C++11, with gcc or clang, or with MSVC"
#include "clmem: stopped at the #error above"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   NAMED OPTIONS: AN OPTION WRITTEN MEANS ITS VALUE, ONE LEFT OUT MEANS THE DEFAULT

   Every options struct starts its named fields with `given`, a mask of the options
   whose default is not zero (CLMEM_GIVEN_*). The macros fill it at compile time from
   the designators the caller wrote: `#__VA_ARGS__` makes a string literal of the
   options, and a designator counts when ".name" follows the start or a comma
   (", .byte_count" but not "cfg.byte_count"). gcc folds the search at every -O level
   and clang from -O1; clang at -O0 searches at run time (about 20 short strstr calls).
   So `.is_blocking = false` does not block and `.byte_count = n` with n == 0 copies
   nothing, while leaving them out blocks and copies everything.
   The C++ forms (clmem/cxx.h) fill it too.

   A STRUCT BUILT BY HAND. Every way clmem makes an options struct (the macros, the
   C++ forms, CLMEM_OPTIONS_INIT) also sets CLMEM_OPTIONS_MARK in `given`: "the bits
   are complete". A struct without it (`= {0}`, memset, `clmem_copy_options()` in
   C++, or code written for 0.1.0, where CLMEM_NON_BLOCKING was -1) cannot say whether
   a zero field means 0 or the default, so the functions whose options have a default
   that is not zero (those with a CLMEM_GIVEN_* field: copies, maps, SVM maps, fills
   and arrays, images, the stager) refuse it with CL_INVALID_VALUE and a message
   saying how to build it; they never guess. NULL options still mean every default.
   Start from CLMEM_OPTIONS_INIT, and set the CLMEM_GIVEN_* bit of each option you
   mean as 0 (a non-zero value counts anyway):
       clmem_copy_options o = CLMEM_OPTIONS_INIT;  // C and C++
       o.is_blocking = CLMEM_NON_BLOCKING;          // 0: needs its bit
       o.given |= CLMEM_GIVEN_IS_BLOCKING;
   (CLMEM_NO_VALIDATION drops the refusal with the other checks: a struct without the
   mark then takes the default for every zero field.)
   --------------------------------------------------------------------------------- */
/** CLMEM_OPTIONS_MARK: set in `given` by everything in clmem that makes options. */
#define CLMEM_OPTIONS_MARK 0x80000000u
/** CLMEM_OPTIONS_INIT: the initializer of an options struct of any type meaning every
    default, with CLMEM_OPTIONS_MARK set (C: a designated initializer; C++: clmem/cxx.h). */
#ifndef __cplusplus
#define CLMEM_OPTIONS_INIT {.given = CLMEM_OPTIONS_MARK}
#endif
#define CLMEM_GIVEN_BYTE_COUNT 0x001u   /* .byte_count */
#define CLMEM_GIVEN_IS_BLOCKING 0x002u  /* .is_blocking */
#define CLMEM_GIVEN_REGION 0x004u       /* .region */
#define CLMEM_GIVEN_SIZE 0x008u         /* .size */
#define CLMEM_GIVEN_HOST_SIZE 0x010u    /* .host_size */
#define CLMEM_GIVEN_SHAPE 0x020u        /* .shape */
#define CLMEM_GIVEN_NDIM 0x040u         /* .ndim */
#define CLMEM_GIVEN_ORDER 0x080u        /* .order */
#define CLMEM_GIVEN_MODE 0x100u         /* .mode */
#define CLMEM_GIVEN_NUM_CHANNELS 0x200u /* .num_channels */
#define CLMEM_GIVEN_ALIGNMENT 0x400u    /* .alignment */

#if CLMEM__GNU
#define CLMEM__STRSTR(s, t) __builtin_strstr(s, t)
#else
#define CLMEM__STRSTR(s, t) strstr(s, t)
#endif
#define CLMEM__HAS(s, name, bit) ((CLMEM__STRSTR(s, ",." name) || CLMEM__STRSTR(s, ", ." name)) ? (bit) : 0u)
#define CLMEM__GIVEN_S(s)                                                                                    \
    (CLMEM__HAS(s, "byte_count", CLMEM_GIVEN_BYTE_COUNT) | CLMEM__HAS(s, "is_blocking", CLMEM_GIVEN_IS_BLOCKING) | \
     CLMEM__HAS(s, "region", CLMEM_GIVEN_REGION) | CLMEM__HAS(s, "size", CLMEM_GIVEN_SIZE) |                 \
     CLMEM__HAS(s, "host_size", CLMEM_GIVEN_HOST_SIZE) | CLMEM__HAS(s, "shape", CLMEM_GIVEN_SHAPE) |           \
     CLMEM__HAS(s, "ndim", CLMEM_GIVEN_NDIM) | CLMEM__HAS(s, "order", CLMEM_GIVEN_ORDER) |                    \
     CLMEM__HAS(s, "mode", CLMEM_GIVEN_MODE) | CLMEM__HAS(s, "num_channels", CLMEM_GIVEN_NUM_CHANNELS) |      \
     CLMEM__HAS(s, "alignment", CLMEM_GIVEN_ALIGNMENT))
/* CLMEM__GIVEN(options...): the given mask of the designators written (see above),
   with CLMEM_OPTIONS_MARK. */
#define CLMEM__GIVEN(...) (CLMEM__GIVEN_S("," #__VA_ARGS__) | CLMEM_OPTIONS_MARK)

/* Positional arguments that may be compound literals. The preprocessor splits a macro
   argument at its commas, so `(const size_t[]){1024, 512}` would be two arguments.
   A macro therefore names only the arguments it must see (those whose type picks the
   function) and hands the rest, positional and named, to a brace initializer, which
   puts every comma back: an "args" struct whose leading members are the positional
   arguments, followed by the options' fields, overlaid on the options struct so that
   the options pass on without a copy:
       typedef struct { const size_t *shape; cl_int *errcode_ret;
                        CLMEM__OPTIONS(clmem_x_options, CLMEM__X_FIELDS) } clmem__x_args;
       #define clmem_x(ctx, ...) clmem__x_call(ctx, &(clmem__x_args){__VA_ARGS__, .given = CLMEM__GIVEN(__VA_ARGS__)})
   C only (C++ has overloads). */
#ifndef __cplusplus
#define CLMEM__OPTIONS(T, FIELDS) \
    union {                       \
        T opts;                   \
        struct {                  \
            FIELDS                \
        };                        \
    };
#endif

/* ---------------------------------------------------------------------------------
   RESULTS

   Every operation returns a cl_int: CL_SUCCESS, the OpenCL error code the spec gives
   for the mistake, or one of clmem's own codes below. clmem's codes live in
   [CLMEM_ERROR_LAST, CLMEM_ERROR_FIRST], far from OpenCL's core (-1..-72) and
   extension (-1000..-1999) codes.
   --------------------------------------------------------------------------------- */
/* THE LIST OF CLMEM'S RESULT CODES: X(name, value, what it means). It makes the
   constants (an enum: usable in switch and static assertions, not in #if) and the
   names clmem_error_string returns. A new code is one row with the next value down. */
#define CLMEM__RESULT_CODES(X)                                                                       \
    X(CLMEM_ERROR_DOUBLE_RELEASE, -8001,                                                             \
      "a handle or pointer was released twice (pool blocks, SVM allocations, maps)")                 \
    X(CLMEM_ERROR_INVALID_TEST_SPEC, -8002, "a CLMEM_TEST / PYOPENCL_TEST specification could not be parsed") \
    X(CLMEM_ERROR_NOT_FOUND, -8003,                                                                  \
      "a CLMEM_TEST entry names a platform or device that does not exist; clmem_svm_allocation_lookup: " \
      "memory not from clmem")                                                                       \
    X(CLMEM_ERROR_SIZE_UNKNOWN, -8004,                                                               \
      "the size of a transfer could not be determined (a host pointer has no size)")                 \
    X(CLMEM_ERROR_LIMIT_EXCEEDED, -8005,                                                             \
      "a pool's managed-byte limit (clmem_memory_pool_set_limit) refused an allocation")             \
    X(CLMEM_ERROR_IN_USE, -8006,                                                                     \
      "an object is still in use (a map outstanding, a block active) where that is an error")

/** clmem's own result codes: one constant per row of the list above (name, value and
    meaning there), all in [CLMEM_ERROR_LAST, CLMEM_ERROR_FIRST]. */
#define CLMEM__RESULT_ENUM(name, value, what) name = value,
#define CLMEM__RESULT_ONE(name, value, what) +1
enum {
    CLMEM__RESULT_CODES(CLMEM__RESULT_ENUM)
    CLMEM_ERROR_FIRST = -8001,
    CLMEM_ERROR_LAST = CLMEM_ERROR_FIRST + 1 - (0 CLMEM__RESULT_CODES(CLMEM__RESULT_ONE))
};
#undef CLMEM__RESULT_ENUM
#undef CLMEM__RESULT_ONE

/** clmem_error_string(code): the name of any OpenCL 3.0 error code (core and the
    Khronos extension codes) or clmem code, e.g. "CL_INVALID_VALUE"; "CL_SUCCESS"
    for 0; "UNKNOWN_ERROR_CODE" for anything else. Never NULL; the string is static.
    Thread safety: safe from any thread. */
CLMEM_API const char *clmem_error_string(cl_int code);

/** clmem_last_error_message(): what went wrong in the last failed clmem call on this
    thread, in words, naming the function, the argument and the values, e.g.
    "clmem_buffer_create: flags 0x5 combine CL_MEM_READ_ONLY with CL_MEM_WRITE_ONLY".
    "" when no call on this thread has failed. Successful calls do not clear it.
    Thread safety: the message is per thread; the pointer stays valid until the next
    clmem call on the same thread. */
CLMEM_API const char *clmem_last_error_message(void);

/** clmem_clear_error(): empty this thread's last error message. */
CLMEM_API void clmem_clear_error(void);

/* ---------------------------------------------------------------------------------
   LOGGING

   clmem never prints on its own. Give it a callback to receive every error message
   (the same text as clmem_last_error_message) and every warning (where PyOpenCL
   would have issued a Python warning, e.g. a pool built on a deferred allocator).
   --------------------------------------------------------------------------------- */
typedef enum clmem_log_level {
    CLMEM_LOG_ERROR = 1,
    CLMEM_LOG_WARNING = 2,
    CLMEM_LOG_INFO = 3
} clmem_log_level;

/** A log callback: level, the code involved (CL_SUCCESS for plain warnings), the
    message, and the user pointer given to clmem_set_log_callback. It may be called
    from any thread that calls clmem, concurrently; it must not call clmem itself. */
typedef void (*clmem_log_fn)(clmem_log_level level, cl_int code, const char *message, void *user);

/** clmem_set_log_callback(fn, user): route errors and warnings to fn (NULL: silence,
    the default). Thread safety: safe at any time; calls already running may still
    use the previous callback. Example: clmem_set_log_callback(clmem_log_stderr, NULL). */
CLMEM_API void clmem_set_log_callback(clmem_log_fn fn, void *user);

/** clmem_log_stderr: a ready-made callback printing "clmem: error: ..." lines (a NULL
    message prints "(no message)"). */
CLMEM_API void clmem_log_stderr(clmem_log_level level, cl_int code, const char *message, void *user);

#ifdef __cplusplus
}
#endif
