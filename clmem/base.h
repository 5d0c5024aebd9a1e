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
#define CLMEM_VERSION_MINOR 1
#define CLMEM_VERSION_PATCH 0
/** The version of this header as one number, MAJOR * 10000 + MINOR * 100 + PATCH
    (0.1.0 is 100; 1.2.3 would be 10203), for #if comparisons:
    #if CLMEM_VERSION >= 100 ... */
#define CLMEM_VERSION (CLMEM_VERSION_MAJOR * 10000 + CLMEM_VERSION_MINOR * 100 + CLMEM_VERSION_PATCH)
#define CLMEM__STR_(x) #x
#define CLMEM__STR(x) CLMEM__STR_(x)
/** "0.1.0": the version of this header, as a string. */
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

#if defined(CLMEM_NO_VALIDATION)
#define CLMEM__CHECKS 0
#else
#define CLMEM__CHECKS 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   RESULTS

   Every operation returns a cl_int: CL_SUCCESS, the OpenCL error code the spec gives
   for the mistake, or one of clmem's own codes below. clmem's codes live in
   [CLMEM_ERROR_LAST, CLMEM_ERROR_FIRST], far from OpenCL's core (-1..-72) and
   extension (-1000..-1999) codes.
   --------------------------------------------------------------------------------- */
#define CLMEM_ERROR_FIRST (-8001)
/** A handle or pointer was released twice (pool blocks, SVM allocations, maps). */
#define CLMEM_ERROR_DOUBLE_RELEASE (-8001)
/** A CLMEM_TEST / PYOPENCL_TEST specification could not be parsed. */
#define CLMEM_ERROR_INVALID_TEST_SPEC (-8002)
/** A CLMEM_TEST entry names a platform or device that does not exist. */
#define CLMEM_ERROR_NOT_FOUND (-8003)
/** The size of a transfer could not be determined (a host pointer has no size). */
#define CLMEM_ERROR_SIZE_UNKNOWN (-8004)
/** A pool's managed-byte limit (clmem_memory_pool_set_limit) refused an allocation. */
#define CLMEM_ERROR_LIMIT_EXCEEDED (-8005)
/** An object is still in use (a map outstanding, a block active) where that is an error. */
#define CLMEM_ERROR_IN_USE (-8006)
#define CLMEM_ERROR_LAST (-8006)

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

/** clmem_log_stderr: a ready-made callback printing "clmem: error: ..." lines. */
CLMEM_API void clmem_log_stderr(clmem_log_level level, cl_int code, const char *message, void *user);

#ifdef __cplusplus
}
#endif
