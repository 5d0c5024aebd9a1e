/* >>characterize: device characterization (PyOpenCL's pyopencl.characterize) */
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   DEVICE CHARACTERIZATION

   Guesses about a device that OpenCL does not report: SIMD width, local-memory banks,
   bank conflicts of an access pattern, fast-math build options, known driver bugs,
   SVM support. The logic is PyOpenCL's (pyopencl/characterize/__init__.py), with its
   bug of taking Intel for AMD fixed (see clmem_get_simd_group_size).

   Every function comes in two forms:
     clmem_X(cl_device_id dev, ...)                          asks the device, then
     clmem_X_desc(const clmem_device_description *d, ...)   decides from a description.
   A description is filled from a device by clmem_device_describe, or by hand (to ask
   "what would this say on an NVIDIA CC 3.5 GPU?", and in tests):
       clmem_device_description d;
       memset(&d, 0, sizeof d);
       strcpy(d.vendor, "NVIDIA Corporation");
       d.type = CL_DEVICE_TYPE_GPU;
       d.has_nv_compute_capability = true; d.nv_compute_capability_major = 3;
   Results come back through pointers; every function returns CL_SUCCESS or an error
   code with a message (clmem_last_error_message). Where PyOpenCL issues a
   CLCharacterizationWarning, clmem logs a CLMEM_LOG_WARNING (clmem_set_log_callback).
   Where PyOpenCL returns None, clmem returns 0 (documented per function).
   Common errors of the device forms: CL_INVALID_DEVICE when dev is NULL, and the
   driver's code when a required clGetDeviceInfo query fails. Of the _desc forms:
   CL_INVALID_VALUE when d is NULL. Every function checks its result pointers
   (CL_INVALID_VALUE when NULL). Thread safety: all may be called from any thread.
   --------------------------------------------------------------------------------- */

/** What the characterize functions read about a device (PyOpenCL's dev.* attributes).
    Strings are NUL-terminated; a longer value is cut at a token boundary. */
typedef struct clmem_device_description {
    cl_device_id device;               /* the device (NULL for a made-up description: the
                                          functions that must build a probe kernel then
                                          fail with CL_INVALID_DEVICE) */
    cl_platform_id platform;           /* CL_DEVICE_PLATFORM (may be NULL) */
    char name[256];                    /* CL_DEVICE_NAME (for warnings) */
    char vendor[256];                  /* CL_DEVICE_VENDOR */
    char extensions[8192];             /* CL_DEVICE_EXTENSIONS, space-separated */
    cl_device_type type;               /* CL_DEVICE_TYPE */
    cl_ulong local_mem_size;           /* CL_DEVICE_LOCAL_MEM_SIZE */
    cl_device_local_mem_type local_mem_type; /* CL_DEVICE_LOCAL_MEM_TYPE (CL_LOCAL, CL_GLOBAL) */
    cl_bitfield svm_capabilities;      /* CL_DEVICE_SVM_CAPABILITIES (0 below OpenCL 2.0) */
    char platform_name[256];           /* CL_PLATFORM_NAME */
    char platform_vendor[256];         /* CL_PLATFORM_VENDOR */
    char platform_version[256];        /* CL_PLATFORM_VERSION, "OpenCL 3.0 ..." */
    bool has_nv_compute_capability;    /* CL_DEVICE_COMPUTE_CAPABILITY_*_NV answered */
    cl_uint nv_compute_capability_major; /* 0x4000 */
    cl_uint nv_compute_capability_minor; /* 0x4001 */
    bool has_warp_size_nv;             /* CL_DEVICE_WARP_SIZE_NV answered */
    cl_uint warp_size_nv;              /* 0x4003 */
    cl_uint preferred_work_group_size_multiple; /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
                                          of a trivial kernel; 0: not measured yet (a
                                          function that needs it builds one on `device`) */
} clmem_device_description;

/** clmem_device_describe(dev, out): fill *out from the device and its platform. The
    NVIDIA attributes are read only when the device lists cl_nv_device_attribute_query;
    a query that fails leaves has_* false (PyOpenCL catches the exception).
    preferred_work_group_size_multiple is left 0 (measured on demand).
    Returns CL_SUCCESS, CL_INVALID_DEVICE (dev NULL), CL_INVALID_VALUE (out NULL), or the
    driver's code of a failing query (the message names it). */
CLMEM_API cl_int clmem_device_describe(cl_device_id dev, clmem_device_description *out);

/** clmem_get_fast_inaccurate_build_options(dev, options, size, size_ret): the build
    options that enable fast but possibly inaccurate floating point, space-separated and
    ready for clBuildProgram: "-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros",
    plus " -cl-strict-aliasing" when the device vendor starts with "Advanced Micro" or
    "NVIDIA" (PyOpenCL returns the same flags as a list).
    options/size: caller storage (options may be NULL to ask for the size);
    size_ret (may be NULL): the bytes needed, NUL included. Errors: CL_INVALID_VALUE when
    options is given and size is smaller than needed (the message says how much).
    Example: char o[128]; clmem_get_fast_inaccurate_build_options(dev, o, sizeof o, NULL); */
CLMEM_API cl_int clmem_get_fast_inaccurate_build_options(cl_device_id dev, char *options, size_t size,
                                                         size_t *size_ret);
CLMEM_API cl_int clmem_get_fast_inaccurate_build_options_desc(const clmem_device_description *d, char *options,
                                                              size_t size, size_t *size_ret);

/** clmem_get_simd_group_size(dev, type_size, &simd): an estimate of how many work items
    run in lockstep across SIMD lanes (NVIDIA's warp, AMD's wavefront). type_size (bytes
    of the vector entry type) is accepted and, as in PyOpenCL, unused.
    Logic: CL_DEVICE_WARP_SIZE_NV when known; NVIDIA (platform or device vendor) → 32;
    AMD ("advanced micro" or the whole word "ati" in either vendor) GPU → the preferred
    work-group size multiple of a trivial kernel (built once per device and cached), AMD
    CPU → 1, other AMD types → CL_INVALID_DEVICE_TYPE; any CPU → 1; otherwise 0
    (PyOpenCL's None: unknown).
    Deliberate difference: PyOpenCL tests the substring "ati", which "Intel(R)
    Corporation" contains ("corpor-ati-on"), so it takes Intel devices for AMD; clmem
    matches "ati" as a word only, so an Intel GPU gives 0 and an Intel CPU 1.
    Errors: CL_INVALID_DEVICE_TYPE (an AMD device neither GPU nor CPU); for the kernel
    build: CL_INVALID_DEVICE (a description without a device) or the driver's code. */
CLMEM_API cl_int clmem_get_simd_group_size(cl_device_id dev, size_t type_size, cl_uint *simd);
CLMEM_API cl_int clmem_get_simd_group_size_desc(const clmem_device_description *d, size_t type_size, cl_uint *simd);

/** clmem_has_amd_double_support(dev, &yes): "cl_amd_fp64" is one of the device's
    extensions (an exact token; AMD's partial double support on low-end boards). */
CLMEM_API cl_int clmem_has_amd_double_support(cl_device_id dev, bool *yes);
CLMEM_API cl_int clmem_has_amd_double_support_desc(const clmem_device_description *d, bool *yes);

/** clmem_has_double_support(dev, &yes): "cl_khr_fp64" is one of the device's
    extensions (PyOpenCL's has_double_support). */
CLMEM_API cl_int clmem_has_double_support(cl_device_id dev, bool *yes);
CLMEM_API cl_int clmem_has_double_support_desc(const clmem_device_description *d, bool *yes);

/** Which struct-argument-count bug a device is expected to have (PyOpenCL returns the
    strings "apple", "pocl" or False). */
typedef enum clmem_struct_arg_count_bug {
    CLMEM_STRUCT_ARG_COUNT_BUG_NONE = 0,
    CLMEM_STRUCT_ARG_COUNT_BUG_APPLE = 1, /* Apple's CPU device */
    CLMEM_STRUCT_ARG_COUNT_BUG_POCL = 2   /* PoCL up to 0.14 (pocl issue 197) */
} clmem_struct_arg_count_bug;

/** clmem_has_struct_arg_count_bug(dev, ctx, &bug): whether the device is expected to
    count a struct kernel argument as several arguments.
    Logic: platform name "Apple" and a CPU device → APPLE. Platform name "Portable
    Computing Language": the PoCL version from CL_PLATFORM_VERSION (pattern
    "OpenCL <n.n> PoCL|pocl <major>.<minor>"; when it does not match, a warning and
    0.14); up to 0.13 → POCL; 0.14 → POCL if a probe kernel taking
    `struct {long a; long b;}` reports 2 arguments (built once per device, in ctx or,
    when ctx is NULL, in a context of its own; the answer is cached per device).
    Otherwise NONE.
    ctx: a context holding dev for the probe, or NULL.
    Errors (only when the probe must run): CL_INVALID_DEVICE (a description without a
    device), the driver's code of a failing build. */
CLMEM_API cl_int clmem_has_struct_arg_count_bug(cl_device_id dev, cl_context ctx, clmem_struct_arg_count_bug *bug);
CLMEM_API cl_int clmem_has_struct_arg_count_bug_desc(const clmem_device_description *d, cl_context ctx,
                                                     clmem_struct_arg_count_bug *bug);

/** clmem_local_memory_access_granularity(dev, &bytes): bytes per local-memory bank;
    always 4 (as PyOpenCL). */
CLMEM_API cl_int clmem_local_memory_access_granularity(cl_device_id dev, cl_uint *bytes);
CLMEM_API cl_int clmem_local_memory_access_granularity_desc(const clmem_device_description *d, cl_uint *bytes);

/** clmem_local_memory_bank_count(dev, &banks): the number of local-memory banks.
    NVIDIA compute capability below 2.0 → 16, else 32 (with a warning from 3.0 on: a
    guess); another GPU → 16 with a warning; a CPU whose local memory is CL_GLOBAL →
    CL_INVALID_OPERATION ("meaningless for cache-based local memory", PyOpenCL's
    RuntimeError; PoCL's CPU device is such a device); anything else → 16 with a
    warning. */
CLMEM_API cl_int clmem_local_memory_bank_count(cl_device_id dev, cl_uint *banks);
CLMEM_API cl_int clmem_local_memory_bank_count_desc(const clmem_device_description *d, cl_uint *banks);

/** clmem_nv_compute_capability(dev, &major, &minor): an NVIDIA device's compute
    capability; 0 and 0 when the device does not report one (PyOpenCL's None). */
CLMEM_API cl_int clmem_nv_compute_capability(cl_device_id dev, cl_uint *major, cl_uint *minor);
CLMEM_API cl_int clmem_nv_compute_capability_desc(const clmem_device_description *d, cl_uint *major,
                                                  cl_uint *minor);

/** clmem_simultaneous_work_items_on_local_access(dev, &n): how many work items access
    local memory at once and so may conflict. NVIDIA below 2.0 → 16, else 32 (warning
    from 3.0 on); another GPU → 16 with a warning; a CPU → 1; anything else → 16 with a
    warning. */
CLMEM_API cl_int clmem_simultaneous_work_items_on_local_access(cl_device_id dev, cl_uint *n);
CLMEM_API cl_int clmem_simultaneous_work_items_on_local_access_desc(const clmem_device_description *d, cl_uint *n);

/** Pass as nargs of clmem_usable_local_mem_size when the argument count is unknown. */
#define CLMEM_NARGS_UNKNOWN (-1L)

/** clmem_usable_local_mem_size(dev, nargs, &bytes): an estimate of the local memory a
    kernel can use: CL_DEVICE_LOCAL_MEM_SIZE, less what NVIDIA devices below compute
    capability 2.0 spend on arguments: 4 bytes per 32-bit argument (nargs), or 256
    bytes when nargs is CLMEM_NARGS_UNKNOWN (any negative value). Never below 0.
    Example: clmem_usable_local_mem_size(dev, 3, &lmem); */
CLMEM_API cl_int clmem_usable_local_mem_size(cl_device_id dev, long nargs, cl_ulong *bytes);
CLMEM_API cl_int clmem_usable_local_mem_size_desc(const clmem_device_description *d, long nargs, cl_ulong *bytes);

/** clmem_why_not_local_access_conflict_free(dev, itemsize, rank, shape, stored_shape,
        &multiplicity, explanation, size, size_ret):
    how many work items of one simultaneous group hit the same local-memory bank when
    each work item reads one element of a local array, for each choice of the axis
    along which consecutive work items move. shape: rank sizes, fastest-moving last (C
    order); stored_shape: the allocated sizes (padding), NULL for shape. The worst case
    wins: its multiplicity (1: conflict free) and an explanation such as
    "32x conflict on axis 1 (from right, 0-based): w.item 0 -> [0, 0], w.item 1 ->
    [1, 0], ... access bank 0" ("" when conflict free, PyOpenCL's None). Ties are broken
    as PyOpenCL's max() does (the greater explanation string).
    itemsize other than 4 gives a warning (the model is for 4-byte banks).
    explanation/size: caller storage (explanation may be NULL: not wanted);
    size_ret (may be NULL): bytes of the explanation, NUL included.
    Errors: CL_INVALID_VALUE (itemsize 0; shape NULL with rank > 0; a shape entry 0; a
    stored_shape entry smaller than shape's; explanation too small, after
    *multiplicity was set); CL_INVALID_OPERATION from clmem_local_memory_bank_count
    (a CPU with cache-based local memory, e.g. PoCL); CL_OUT_OF_HOST_MEMORY.
    Example: size_t sh[2] = {32, 32}, st[2] = {32, 33};
             clmem_why_not_local_access_conflict_free(dev, 4, 2, sh, st, &m, NULL, 0, NULL); */
CLMEM_API cl_int clmem_why_not_local_access_conflict_free(cl_device_id dev, size_t itemsize, size_t rank,
                                                          const size_t *shape, const size_t *stored_shape,
                                                          cl_uint *multiplicity, char *explanation, size_t size,
                                                          size_t *size_ret);
CLMEM_API cl_int clmem_why_not_local_access_conflict_free_desc(const clmem_device_description *d, size_t itemsize,
                                                               size_t rank, const size_t *shape,
                                                               const size_t *stored_shape, cl_uint *multiplicity,
                                                               char *explanation, size_t size, size_t *size_ret);

/** clmem_has_coarse_grain_buffer_svm(dev, &yes) and its siblings: the device may have
    SVM (the platform is OpenCL 2.0 or later, or for PoCL its version is 1.0 or later,
    and clmem was compiled against 2.0+ headers) and CL_DEVICE_SVM_CAPABILITIES has
    the bit (COARSE_GRAIN_BUFFER, FINE_GRAIN_BUFFER, FINE_GRAIN_SYSTEM; the _atomics
    forms also need ATOMICS). An unparsable PoCL version falls back to the platform's
    OpenCL version (PyOpenCL raises a TypeError there). */
CLMEM_API cl_int clmem_has_coarse_grain_buffer_svm(cl_device_id dev, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_buffer_svm(cl_device_id dev, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_system_svm(cl_device_id dev, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_buffer_svm_atomics(cl_device_id dev, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_system_svm_atomics(cl_device_id dev, bool *yes);
CLMEM_API cl_int clmem_has_coarse_grain_buffer_svm_desc(const clmem_device_description *d, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_buffer_svm_desc(const clmem_device_description *d, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_system_svm_desc(const clmem_device_description *d, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_buffer_svm_atomics_desc(const clmem_device_description *d, bool *yes);
CLMEM_API cl_int clmem_has_fine_grain_system_svm_atomics_desc(const clmem_device_description *d, bool *yes);

#ifdef __cplusplus
}
#endif
