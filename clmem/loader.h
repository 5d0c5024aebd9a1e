/* >>loader: extension entry points (per platform) and vendor libraries opened at run
   time (libcuda, NVML), found once, kept, safe from any thread */
#include "base.h"

/* ---------------------------------------------------------------------------------
   THE LOADER

   clmem finds every function it may not link against in one place:
   - an OpenCL extension's entry points, with clGetExtensionFunctionAddressForPlatform,
     once per platform (cl_intel_unified_shared_memory, cl_amd_copy_buffer_p2p,
     cl_khr_external_memory, cl_khr_semaphore, ...);
   - a vendor's driver library, with dlopen at first use (libcuda for peer memory and
     free memory on NVIDIA GPUs, NVML for free memory). clmem never links them: a
     program built with clmem runs where they are absent, and the calls that need them
     say so (CL_INVALID_OPERATION, with the library and dlopen's reason in the message).
   What was found (or that nothing was) is kept for the life of the process.

   OPTIONS (define before including clmem.h with CLMEM_IMPLEMENTATION):
     CLMEM_NO_VENDOR_LIBRARIES  compile out dlopen: every call that needs a vendor
                                library refuses in words (no -ldl needed). Implied on
                                systems without dlopen (Windows).
     CLMEM_LIBCUDA              the file name dlopen opens for CUDA's driver API
                                (default "libcuda.so.1"); a path works too.
     CLMEM_LIBNVML              the same for NVML (default "libnvidia-ml.so.1").
   On glibc before 2.34 link with -ldl (CMake's clmem::clmem does).
   --------------------------------------------------------------------------------- */
#ifndef CLMEM_LIBCUDA
#define CLMEM_LIBCUDA "libcuda.so.1"
#endif
#ifndef CLMEM_LIBNVML
#define CLMEM_LIBNVML "libnvidia-ml.so.1"
#endif
#if !defined(CLMEM_NO_VENDOR_LIBRARIES) && (defined(__unix__) || defined(__APPLE__))
#define CLMEM__VENDOR_LIBRARIES 1
#else
#define CLMEM__VENDOR_LIBRARIES 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* (private) One function a module needs: its name, where its pointer goes in the
   module's struct of function pointers, and whether the set is unusable without it. */
typedef struct clmem__entry {
    const char *name;
    size_t offset;
    int required;
} clmem__entry;

/* (private) A set of functions found together: an extension's entry points
   (library NULL) or a vendor library's symbols (library: the file dlopen opens).
   `what` names it in messages ("cl_khr_external_memory", "libcuda"). `size` is the
   size of the module's struct of function pointers (at most CLMEM__ENTRY_BYTES); the
   loader fills a copy of it, zero where a function is missing. */
typedef struct clmem__entry_set {
    const char *what;
    const char *library;
    const clmem__entry *entries;
    unsigned count;
    size_t size;
} clmem__entry_set;

/* (private) The largest struct of function pointers a set may have. */
#define CLMEM__ENTRY_BYTES (32 * sizeof(void *))

/* (private) CLMEM__ENTRY_SET(set, T, LIST, what, library): defines the clmem__entry_set
   `set` (and its table set_entries) of the functions whose pointers go in a T, the
   module's struct of function pointers (a compile error where T is larger than the
   loader's row). LIST(X, T) is X(T, field, "name", required) per function: the
   function called name goes in T's field; required: the set is unusable without it. */
#define CLMEM__ENTRY_ROW(T, field, name, required) {name, offsetof(T, field), required},
#define CLMEM__ENTRY_SET(set, T, LIST, what, library)                                   \
    static const clmem__entry set##_entries[] = {LIST(CLMEM__ENTRY_ROW, T)};            \
    CLMEM__STATIC_ASSERT(sizeof(T) <= CLMEM__ENTRY_BYTES, #T " fits the loader's row"); \
    static const clmem__entry_set set = {what, library, set##_entries,                  \
                                         sizeof set##_entries / sizeof set##_entries[0], sizeof(T)}

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of loader; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* functions (each described where it is defined) */
static cl_int clmem__ext_of_platform(const char *fn, cl_platform_id p, const clmem__entry_set *set, const void **fns);
static cl_int clmem__ext_of_device(const char *fn, cl_device_id dev, const clmem__entry_set *set, const void **fns);
static cl_int clmem__vendor_library(const char *fn, const clmem__entry_set *set, const void **fns);
static bool clmem__device_lists(cl_device_id dev, const char *name);
static bool clmem__extension_listed(cl_device_id dev, const char *name);
/* ---- end private ---- */
