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
#define CLMEM_VERSION_MINOR 4
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

/* CLMEM_STATIC declares every function static: a unit that defines it without
   CLMEM_IMPLEMENTATION would declare hundreds of static functions it never defines. */
#if defined(CLMEM_STATIC) && !defined(CLMEM_IMPLEMENTATION)
#error "clmem.h: CLMEM_STATIC makes every function static, so define CLMEM_IMPLEMENTATION too (before the first #include of clmem.h) in each unit that defines CLMEM_STATIC: each gets a private copy"
#include "clmem: stopped at the #error above"
#endif

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

   A STRUCT BUILT BY HAND (for a *_opts function) starts from its type's initializer,
   and every field you set means its value, 0 and false included; a field you leave
   out means its default:
       clmem_copy_options o = CLMEM_COPY_OPTIONS_INIT;  // C and C++
       o.is_blocking = CL_FALSE;                        // does not block
       o.byte_count = n;                                // n == 0: copies nothing
   The initializers of the types that have an option whose default is not 0:
       CLMEM_COPY_OPTIONS_INIT             clmem_copy_options (= clmem_stager_copy_options)
       CLMEM_MAP_OPTIONS_INIT              clmem_map_options
       CLMEM_SVM_MAP_OPTIONS_INIT          clmem_svm_map_options
       CLMEM_SVM_MEMFILL_OPTIONS_INIT      clmem_svm_memfill_options
       CLMEM_SVM_EMPTY_OPTIONS_INIT        clmem_svm_empty_options
       CLMEM_IMAGE_OPTIONS_INIT            clmem_image_options
       CLMEM_IMAGE_FROM_ARRAY_OPTIONS_INIT clmem_image_from_array_options
   They put "left out" in each such option (the fields with a CLMEM_GIVEN_* bit):
   a value whose every byte is 0xC1 (CLMEM__UNSET_*), which no caller means: as a
   size (0xC1C1...C1, above PTRDIFF_MAX) or count (0xC1C1C1C1 axes or channels) every
   call refuses it, as a char (.order, .mode) it is no character (0xC1 never occurs
   in UTF-8), and as .is_blocking it is not 0, so it blocks, as left out does. In
   arrays (.region, .shape) element 0 holds it; the others stay 0, and an array with
   another element set counts as written (element 0 then 0). They also set
   CLMEM__OPTIONS_UNSET in `given`, and every *_opts function that sees that bit
   reads such a field as left out and any other value as written, before the bits
   below (one mechanism, base.c: clmem__options_resolve with a table of the type's
   fields). Keep the bits: add to `given` with |=, never assign it.
   CLMEM_OPTIONS_INIT is the initializer of the other types (fills, unmaps, SVM
   unmaps, clmem_enqueue_options), whose options all default to 0. In C it does not
   compile for a type with an option whose default is not 0 (the error names
   "CLMEM_OPTIONS_INIT_is_not_for_this_type__write_CLMEM_X_OPTIONS_INIT_for_clmem_x_options"
   and the type); in C++ it converts to any options type and means the same as the
   type's own initializer there.

   Every way clmem makes an options struct (the macros, the C++ forms, the
   initializers) also sets CLMEM_OPTIONS_MARK in `given`: "made by clmem". A struct
   without it (`= {0}`, memset, `clmem_copy_options()` in C++, or code written for
   0.1.0, where CLMEM_NON_BLOCKING was -1) cannot say whether a zero field means 0 or
   the default, so every function refuses it with CL_INVALID_VALUE and a message
   saying how to build it; they never guess. NULL options still mean every default.
   Code that sets the CLMEM_GIVEN_* bit of an option it means as 0
   (o.given |= CLMEM_GIVEN_IS_BLOCKING) keeps working: a field at 0 whose bit is set
   means 0.
   (CLMEM_NO_VALIDATION drops the refusal with the other checks: a struct without the
   mark then takes the default for every zero field.)
   --------------------------------------------------------------------------------- */
/** CLMEM_OPTIONS_MARK: set in `given` by everything in clmem that makes options. */
#define CLMEM_OPTIONS_MARK 0x80000000u
/* CLMEM__OPTIONS_UNSET: set in `given` by the types' own initializers: the fields of
   CLMEM__UNSET_* value are left out (see above). */
#define CLMEM__OPTIONS_UNSET 0x40000000u
/* The "left out" values: every byte 0xC1, for each type of field it goes in. */
#define CLMEM__UNSET_SIZE (SIZE_MAX / 0xFFu * 0xC1u)       /* size_t: 0xC1C1...C1 */
#define CLMEM__UNSET_UINT (~0u / 0xFFu * 0xC1u)            /* unsigned, cl_uint: 0xC1C1C1C1 */
#define CLMEM__UNSET_INT (-(int)(~0u / 0xFFu * 0x3Eu) - 1) /* int: ~0x3E3E3E3E, 0xC1C1C1C1 */
#define CLMEM__UNSET_CHAR ((char)~0x3E)                    /* char: 0xC1 */
/* CLMEM__UNSET_INIT(T, LIST): the initializer of options type T whose fields with a
   CLMEM_GIVEN_* bit LIST names: LIST(X, T) is X(T, field, element, value, bit) per
   field (element: [0] for an array, else empty; value: its CLMEM__UNSET_*). */
#ifdef __cplusplus
#define CLMEM__UNSET_INIT(T, LIST) clmem::detail::options_init_of<T>()
#else
#define CLMEM__UNSET_DESIGNATOR(T, field, element, value, bit) , .field element = value
#define CLMEM__UNSET_INIT(T, LIST) {.given = CLMEM_OPTIONS_MARK | CLMEM__OPTIONS_UNSET LIST(CLMEM__UNSET_DESIGNATOR, T)}
#endif
/* CLMEM__LAYOUT_UNSET(X, T): the rows of the array-layout options .shape, .ndim and
   .order (an n-dimensional view: clmem_map_options, clmem_svm_empty_options) for a LIST. */
#define CLMEM__LAYOUT_UNSET(X, T)                              \
    X(T, shape, [0], CLMEM__UNSET_SIZE, CLMEM_GIVEN_SHAPE)       \
    X(T, ndim, , CLMEM__UNSET_UINT, CLMEM_GIVEN_NDIM)            \
    X(T, order, , CLMEM__UNSET_CHAR, CLMEM_GIVEN_ORDER)
/** CLMEM_OPTIONS_INIT: the initializer of an options struct whose options all default
    to 0 (clmem_fill_options, clmem_unmap_options, clmem_svm_unmap_options,
    clmem_enqueue_options): every default, with CLMEM_OPTIONS_MARK. The other types
    have their own (CLMEM_COPY_OPTIONS_INIT, ...: see above); in C this one does not
    compile for them, in C++ (clmem/cxx.h) it converts to every type. */
#ifndef __cplusplus
#define CLMEM_OPTIONS_INIT \
    {.given = CLMEM_OPTIONS_MARK, .CLMEM_OPTIONS_INIT_is_not_for_this_type__write_CLMEM_X_OPTIONS_INIT_for_clmem_x_options = 0}
/* CLMEM__OPTIONS_DEFAULTS: every default of any options type, inside clmem (the
   fields at 0 without their bits) */
#define CLMEM__OPTIONS_DEFAULTS {.given = CLMEM_OPTIONS_MARK}
#else
#define CLMEM__OPTIONS_DEFAULTS clmem::detail::options_defaults()
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

/* ONE MACRO FOR C AND C++. A named-option macro whose C++ form is the same call is
   written once, in its module's header, for both languages:
       #define clmem_x(...) clmem__x_(__VA_ARGS__, CLMEM__NAMED_END)
       #define clmem__x_(queue, a, ...) \
           CLMEM__NAMED_RET(clmem_x_opts(queue, a, CLMEM__NAMED(clmem_x_options, __VA_ARGS__)))
   CLMEM__NAMED(T, options...): the address of the T the options written make (C: a
   compound literal with `given` filled; C++: CLMEM__CXX_O of clmem/cxx.h, in either
   spelling). CLMEM__NAMED_END ends the options (C: an empty argument).
   CLMEM__NAMED_RET(call): what the call returns (C++: the code, or with
   CLMEM_CXX_EXCEPTIONS a throw). A macro that dispatches with _Generic, passes
   positional arguments through an args struct (CLMEM__OPTIONS below) or needs C++
   conversions is C only (#ifndef __cplusplus) and has its C++ form in clmem/cxx.h. */
#ifdef __cplusplus
#define CLMEM__NAMED_END CLMEM__CXX_END
#define CLMEM__NAMED(T, ...) CLMEM__CXX_O(T, __VA_ARGS__)
#define CLMEM__NAMED_RET(call) CLMEM__CXX_RET(call)
#else
#define CLMEM__NAMED_END
#define CLMEM__NAMED(T, ...) &(T){.given = CLMEM__GIVEN(__VA_ARGS__), __VA_ARGS__}
#define CLMEM__NAMED_RET(call) call
#endif

/* OPTIONS ARE NAMED: a value among the options without a name, as in the raw call's
   habit `clmem_enqueue_copy(q, host, buf, false)`, is a compile error in C, never a
   silent option. The macros build `{.given = ..., OPTIONS}`, so such a value would
   initialize the field after `given`; that field (CLMEM__GIVEN_FIELD, private) has a
   type no value converts to, whose name says what to write: clang stops with
   "initializing '_Atomic(struct clmem_options_are_named__write_e_g__is_blocking_eq_false)'
   with an expression of incompatible type 'int'". gcc converts into it, so there every
   options struct is `designated_init` (CLMEM__OPTIONS_TYPE) and that warning is an error:
   "positional initialization of field in 'struct' declared with 'designated_init'
   attribute" (which also stops `= {0}`: start a struct from its initializer). The
   byte lies in the padding after `given` (a plain unsigned char in C++, which has
   overloads and no such macros), so the layout is the same in C and C++. */
struct clmem_options_are_named__write_e_g__is_blocking_eq_false {
    char clmem__c;
};
#if !defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic error "-Wdesignated-init"
#define CLMEM__OPTIONS_TYPE __attribute__((designated_init))
#else
#define CLMEM__OPTIONS_TYPE
#endif
/* CLMEM__GIVEN_FIELD_NO_DEFAULTS: CLMEM__GIVEN_FIELD of a type whose options all
   default to 0, with the byte CLMEM_OPTIONS_INIT designates (in the padding after
   the private one: the layout does not change), which the other types lack. */
#define CLMEM__GIVEN_FIELD_NO_DEFAULTS \
    CLMEM__GIVEN_FIELD                 \
    unsigned char CLMEM_OPTIONS_INIT_is_not_for_this_type__write_CLMEM_X_OPTIONS_INIT_for_clmem_x_options CLMEM__DEFAULT;
#if defined(__cplusplus) || defined(__STDC_NO_ATOMICS__)
#define CLMEM__GIVEN_FIELD         \
    unsigned given CLMEM__DEFAULT; \
    unsigned char clmem__named_options_only CLMEM__DEFAULT;
#else
#define CLMEM__GIVEN_FIELD \
    unsigned given;       \
    _Atomic struct clmem_options_are_named__write_e_g__is_blocking_eq_false clmem__named_options_only;
/* the same size and alignment as C++'s unsigned char: one layout in both languages */
_Static_assert(sizeof(_Atomic struct clmem_options_are_named__write_e_g__is_blocking_eq_false) == 1 &&
                   _Alignof(_Atomic struct clmem_options_are_named__write_e_g__is_blocking_eq_false) == 1,
               "clmem: the options' private byte must be one byte in C as in C++");
#endif

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

/* ---- private: what other modules of clmem use of base; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* ---------------------------------------------------------------------------------
   THREADS: mutexes (pools, caches, registries, the stager), condition variables,
   threads, the processor count

   One set of calls over the platform's threads, chosen here and nowhere else:
     Windows (_WIN32)                       SRW locks, condition variables, CreateThread
     CLMEM_USE_C11_THREADS, or a C11        <threads.h>: mtx_t, cnd_t, thrd_t
       compiler on a system without POSIX
     otherwise (POSIX)                      pthreads
   (POSIX systems take pthreads by default: their mutexes initialize statically, and
   C++ has no <threads.h>; CLMEM_USE_C11_THREADS selects <threads.h> to test it.)
   A backend's block includes its headers and keeps what is its own; the types and
   calls below them are one table, a row each with a column per backend, of which
   CLMEM__THREADS_PICK(win32, c11, pthreads) keeps the chosen one: a new call is a row.
     clmem__mutex m = CLMEM__MUTEX_INIT;    (also static; or clmem__mutex_init)
     clmem__lock(&m); clmem__unlock(&m);    clmem__mutex_destroy(&m)
     clmem__cond c; clmem__cond_init(&c);   clmem__cond_wait(&c, &m) (m locked),
                                            clmem__cond_signal, _broadcast, _destroy
     clmem__thread t;                       clmem__thread_start(&t, fn, arg): 0 or an
                                            error; t stays where it is until
                                            clmem__thread_join(&t) (fn(arg) runs with a
                                            pointer into t)
     clmem__thread_yield(), clmem__cpu_count()
   The atomics are in clmem/base.h (ATOMICS).
   --------------------------------------------------------------------------------- */
#if defined(_WIN32)
#define CLMEM__THREADS "win32"
/* windows.h without its min/max macros and rarely used APIs; neither define is left
   behind for the code that includes clmem.h. (A windows.h included later by that code
   is this one: the include guard has seen it. Include windows.h first to get more.) */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#define CLMEM__UNDEF_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#define CLMEM__UNDEF_NOMINMAX
#endif
#include <windows.h>
#ifdef CLMEM__UNDEF_LEAN_AND_MEAN
#undef WIN32_LEAN_AND_MEAN
#undef CLMEM__UNDEF_LEAN_AND_MEAN
/* nor windows.h's empty far and near macros of 16-bit Windows, which turn a variable of
   that name into a syntax error (FAR and NEAR stay) */
#undef far
#undef near
#endif
#ifdef CLMEM__UNDEF_NOMINMAX
#undef NOMINMAX
#undef CLMEM__UNDEF_NOMINMAX
#endif
#define CLMEM__THREADS_PICK(win32, c11, pthreads) win32
static unsigned clmem__cpu_count(void) {
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors ? (unsigned)si.dwNumberOfProcessors : 1u;
}
#elif defined(CLMEM_USE_C11_THREADS) ||                                                                   \
    (!defined(__cplusplus) && !defined(__STDC_NO_THREADS__) && !defined(__unix__) && !defined(__APPLE__))
#define CLMEM__THREADS "c11"
#include <threads.h>
#define CLMEM__THREADS_PICK(win32, c11, pthreads) c11
/* mtx_t has no static initializer: a mutex initializes itself at its first lock
   (state 0 -> 1 while one thread does it -> 2). */
struct clmem__c11_mutex {
    int state;
    mtx_t m;
};
static inline void clmem__c11_mutex_init(struct clmem__c11_mutex *m) {
    mtx_init(&m->m, mtx_plain);
    clmem__atomic_store_int(&m->state, 2);
}
static CLMEM__NOINLINE void clmem__c11_first_lock(struct clmem__c11_mutex *m) {
    if (clmem__atomic_exchange_int(&m->state, 1) == 0) {
        clmem__c11_mutex_init(m);
        return;
    }
    while (clmem__atomic_load_int(&m->state) != 2) thrd_yield();
}
static inline void clmem__c11_lock(struct clmem__c11_mutex *m) {
    if (clmem__atomic_load_int(&m->state) != 2) clmem__c11_first_lock(m);
    mtx_lock(&m->m);
}
#else
#define CLMEM__THREADS "pthreads"
#include <pthread.h>
#include <sched.h>
#define CLMEM__THREADS_PICK(win32, c11, pthreads) pthreads
#endif
/* The types and calls: a row each, a column per backend (CLMEM__THREADS_PICK(win32,
   c11, pthreads) keeps the chosen one's). */
typedef CLMEM__THREADS_PICK(SRWLOCK, struct clmem__c11_mutex, pthread_mutex_t) clmem__mutex;
#define CLMEM__MUTEX_INIT CLMEM__THREADS_PICK(SRWLOCK_INIT, CLMEM__ZERO, PTHREAD_MUTEX_INITIALIZER)
typedef CLMEM__THREADS_PICK(CONDITION_VARIABLE, cnd_t, pthread_cond_t) clmem__cond;
static inline void clmem__mutex_init(clmem__mutex *m) {
    CLMEM__THREADS_PICK(InitializeSRWLock(m), clmem__c11_mutex_init(m), pthread_mutex_init(m, NULL));
}
static inline void clmem__mutex_destroy(clmem__mutex *m) {
    CLMEM__THREADS_PICK((void)m, clmem__atomic_load_int(&m->state) == 2 ? mtx_destroy(&m->m) : (void)0,
                        pthread_mutex_destroy(m));
}
static inline void clmem__lock(clmem__mutex *m) {
    CLMEM__THREADS_PICK(AcquireSRWLockExclusive(m), clmem__c11_lock(m), pthread_mutex_lock(m));
}
static inline void clmem__unlock(clmem__mutex *m) {
    CLMEM__THREADS_PICK(ReleaseSRWLockExclusive(m), mtx_unlock(&m->m), pthread_mutex_unlock(m));
}
static inline void clmem__cond_init(clmem__cond *c) {
    CLMEM__THREADS_PICK(InitializeConditionVariable(c), cnd_init(c), pthread_cond_init(c, NULL));
}
static inline void clmem__cond_destroy(clmem__cond *c) { CLMEM__THREADS_PICK((void)c, cnd_destroy(c), pthread_cond_destroy(c)); }
static inline void clmem__cond_wait(clmem__cond *c, clmem__mutex *m) {
    CLMEM__THREADS_PICK(SleepConditionVariableSRW(c, m, INFINITE, 0), cnd_wait(c, &m->m), pthread_cond_wait(c, m));
}
static inline void clmem__cond_signal(clmem__cond *c) {
    CLMEM__THREADS_PICK(WakeConditionVariable(c), cnd_signal(c), pthread_cond_signal(c));
}
static inline void clmem__cond_broadcast(clmem__cond *c) {
    CLMEM__THREADS_PICK(WakeAllConditionVariable(c), cnd_broadcast(c), pthread_cond_broadcast(c));
}
typedef struct clmem__thread {
    CLMEM__THREADS_PICK(HANDLE, thrd_t, pthread_t) handle;
    void (*fn)(void *);
    void *arg;
} clmem__thread;
static CLMEM__THREADS_PICK(DWORD WINAPI, int, void *) clmem__thread_main(void *t) {
    clmem__thread *self = (clmem__thread *)t;
    self->fn(self->arg);
    return CLMEM__THREADS_PICK(0, 0, NULL);
}
static inline int clmem__thread_start(clmem__thread *t, void (*fn)(void *), void *arg) {
    t->fn = fn;
    t->arg = arg;
    return CLMEM__THREADS_PICK(
        (t->handle = CreateThread(NULL, 0, clmem__thread_main, t, 0, NULL)) != NULL ? 0 : (int)GetLastError(),
        thrd_create(&t->handle, clmem__thread_main, t) == thrd_success ? 0 : -1,
        pthread_create(&t->handle, NULL, clmem__thread_main, t));
}
static inline void clmem__thread_join(clmem__thread *t) {
    CLMEM__THREADS_PICK((void)(WaitForSingleObject(t->handle, INFINITE), CloseHandle(t->handle)),
                        thrd_join(t->handle, NULL), pthread_join(t->handle, NULL));
}
static inline void clmem__thread_yield(void) { CLMEM__THREADS_PICK(SwitchToThread(), thrd_yield(), sched_yield()); }
#if !defined(_WIN32)
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif
/* the processors online (1 where that cannot be asked) */
static unsigned clmem__cpu_count(void) {
#if defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
#else
    return 1;
#endif
}
#endif

/* ---- registries of live handles (SVM allocations and maps, pinned memory) ----
   A handle carries an id, generation << 32 | (slot + 1); the slot keeps the object, a
   tag (what kind of object) and the generation, bumped when the id dies, so a copy of
   a dead handle is recognised, never followed. A release detaches the object first
   (nobody finds it any more, the id stays reserved), then removes it, or restores it
   when the release fails. */
typedef struct clmem__reg_slot {
    void *obj;          /* NULL: free, or detached while a release is under way */
    uint32_t gen;
    uint32_t next_free; /* index + 1 of the next free slot, 0 ends the list */
    int tag;
    bool busy;          /* taken (live or detached) */
} clmem__reg_slot;

typedef struct clmem__registry {
    clmem__mutex lock;
    clmem__reg_slot *slots;
    uint32_t n, cap, free_head;
} clmem__registry;
#define CLMEM__REGISTRY_INIT {CLMEM__MUTEX_INIT, NULL, 0, 0, 0}

/* a per-thread variable */
#if defined(__cplusplus)
#define CLMEM__THREAD_LOCAL thread_local
#elif defined(_MSC_VER)
#define CLMEM__THREAD_LOCAL __declspec(thread)
#else
#define CLMEM__THREAD_LOCAL _Thread_local
#endif

/* the calling thread's last error message (clmem_last_error_message) */
static CLMEM__THREAD_LOCAL char clmem__message[768];

/* functions (each described where it is defined) */
static inline void *clmem__unconst(const void *p);
static inline void clmem__mutex_init(clmem__mutex *m);
static inline void clmem__mutex_destroy(clmem__mutex *m);
static inline void clmem__lock(clmem__mutex *m);
static inline void clmem__unlock(clmem__mutex *m);
static size_t clmem__locked_size(clmem__mutex *m, const size_t *v);
static void clmem__locked_set_size(clmem__mutex *m, size_t *v, size_t value);
static uint64_t clmem__reg_add(clmem__registry *r, void *obj, int tag);
static void *clmem__reg_find(clmem__registry *r, uint64_t id, int tag, bool detach);
static void clmem__reg_restore(clmem__registry *r, uint64_t id, void *obj);
static void clmem__reg_remove(clmem__registry *r, uint64_t id);
static inline cl_int clmem__cl_fail(cl_int code, const char *fn, const char *call);
static inline void clmem__set_err(cl_int *errcode_ret, cl_int code);
static inline void *clmem__null_with(cl_int *errcode_ret, cl_int err);
static inline cl_int clmem__queue_follow(const char *fn, cl_command_queue *held, cl_command_queue queue,
                                         const char *old_call, const char *new_call);
static inline cl_int clmem__queue_unbind(const char *fn, cl_command_queue *held);
static inline void *clmem__alloc_for(size_t size, const char *fn, const char *what, cl_int *errcode_ret);
static inline bool clmem__add_ok(size_t a, size_t b, size_t *out);
static inline bool clmem__mul_ok(size_t a, size_t b, size_t *out);
static inline bool clmem__range_ok(size_t offset, size_t count, size_t size);
static inline cl_int clmem__check_wait_list(const char *fn, const cl_event *wait_for, cl_uint num_wait_for);
static inline cl_int clmem__check_made(const char *fn, unsigned given);
static inline cl_int clmem__check_queue(const char *fn, cl_command_queue queue);
static cl_device_id *clmem__devices_of(const char *fn, cl_context ctx, cl_uint *n, cl_int *err);
static cl_int clmem__context_device(const char *fn, cl_context ctx, cl_device_id dev, const char *what);
static cl_int clmem__info_fail(const char *fn, cl_int err, const char *call, const char *what);
static cl_int clmem__refail_as(const char *fn, cl_int err);
static cl_int clmem__queue_context_of(const char *fn, cl_command_queue queue, cl_context *ctx);
static cl_int clmem__queue_device_of(const char *fn, cl_command_queue queue, cl_device_id *dev);
static cl_int clmem__same_context(const char *fn, cl_command_queue queue, cl_context ctx, const char *what);
static inline int clmem__parse_opencl_version(const char *s);
static cl_int clmem__dev_get(void *o, cl_uint param, size_t n, void *v, size_t *r);
static cl_int clmem__plat_get(void *o, cl_uint param, size_t n, void *v, size_t *r);
static cl_int clmem__info_text(cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *obj, cl_uint param,
                               char *buf, size_t size, char **text);
static cl_int clmem__version_query(cl_device_id dev, cl_platform_id platform, int *version);
static inline cl_int clmem__device_version(const char *fn, cl_device_id dev, int *version);
static cl_command_queue clmem__default_queue(const char *fn, cl_context ctx, cl_device_id dev, const char *what,
                                             cl_int *err);
static void clmem__device_name(cl_device_id dev, char *buf, size_t size);
static cl_int clmem__device_max_alloc(const char *fn, cl_device_id dev, cl_ulong *max);
static cl_int clmem__check_max_alloc(const char *fn, cl_device_id dev, const char *what, size_t size, cl_ulong max);
static inline const char *clmem__mem_flags_text(cl_mem_flags flags, char *buf, size_t size);
/* ---- end private ---- */
