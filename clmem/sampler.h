/* >>sampler: samplers (PyOpenCL's Sampler) */
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A sampler handle, passed by value (PyOpenCL's Sampler). Treat fields as read-only:
      sampler            the OpenCL sampler; NULL for an empty or released handle
      context            its context (not retained separately)
      normalized_coords, addressing_mode, filter_mode   as created */
typedef struct clmem_sampler {
    cl_sampler sampler;
    cl_context context;
    cl_bool normalized_coords;
    cl_addressing_mode addressing_mode;
    cl_filter_mode filter_mode;
} clmem_sampler;

/** clmem_sampler_create(context, normalized_coords, addressing_mode, filter_mode, &err):
    PyOpenCL's Sampler(context, normalized_coords, addressing_mode, filter_mode).
    - normalized_coords: coordinates in [0, 1) (true) or in pixels (false).
    - addressing_mode: CL_ADDRESS_NONE, _CLAMP_TO_EDGE, _CLAMP, _REPEAT, _MIRRORED_REPEAT.
    - filter_mode: CL_FILTER_NEAREST or CL_FILTER_LINEAR.
    Uses clCreateSamplerWithProperties where the context's platform is OpenCL 2.0 or
    newer, else clCreateSampler. Returns the handle; on failure an empty one and
    *errcode_ret (may be NULL):
      CL_INVALID_CONTEXT    NULL context
      CL_INVALID_VALUE      an unknown addressing or filter mode; REPEAT or
                            MIRRORED_REPEAT with unnormalized coordinates (undefined in
                            kernels by the spec; PoCL refuses it, so clmem refuses it
                            everywhere and behaves the same on every runtime)
      CL_INVALID_OPERATION  no device of the context supports images
      or the driver's code. Thread safety: any thread.
    Example: clmem_sampler s = clmem_sampler_create(ctx, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err); */
CLMEM_API clmem_sampler clmem_sampler_create(cl_context context, cl_bool normalized_coords,
                                             cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                             cl_int *errcode_ret);

/** clmem_sampler_create_with_properties(context, properties, &err): PyOpenCL's
    Sampler(context, properties): keys and values of CL_SAMPLER_NORMALIZED_COORDS,
    CL_SAMPLER_ADDRESSING_MODE, CL_SAMPLER_FILTER_MODE, terminated by 0 (NULL: all
    defaults: normalized, CLAMP, NEAREST, the spec's defaults). Errors: those of
    clmem_sampler_create, and CL_INVALID_VALUE for an unknown key, a key given twice,
    or a normalized-coords value other than CL_TRUE/CL_FALSE. On a platform older than
    2.0 the properties are checked and clCreateSampler is used. */
CLMEM_API clmem_sampler clmem_sampler_create_with_properties(cl_context context, const cl_bitfield *properties,
                                                             cl_int *errcode_ret);

/** clmem_sampler_from_int_ptr(sampler, retain, &err): wrap a raw cl_sampler, reading
    its context and modes from the driver; retain: clRetainSampler (true) or take over
    your reference (false). Errors: CL_INVALID_SAMPLER (NULL or not valid). */
CLMEM_API clmem_sampler clmem_sampler_from_int_ptr(cl_sampler sampler, bool retain, cl_int *errcode_ret);

/** clmem_sampler_int_ptr(s): the raw cl_sampler (PyOpenCL's int_ptr). */
static inline cl_sampler clmem_sampler_int_ptr(clmem_sampler s) { return s.sampler; }

/** clmem_sampler_equal(a, b): same OpenCL sampler (PyOpenCL's ==); hash consistent. */
static inline bool clmem_sampler_equal(clmem_sampler a, clmem_sampler b) { return a.sampler == b.sampler; }
static inline size_t clmem_sampler_hash(clmem_sampler s) { return (size_t)(uintptr_t)s.sampler >> 4; }

/** Every sampler_info (PyOpenCL's Sampler.get_info). */
typedef struct clmem_sampler_info {
    cl_uint reference_count;               /* CL_SAMPLER_REFERENCE_COUNT */
    cl_context context;                    /* CL_SAMPLER_CONTEXT */
    cl_bool normalized_coords;             /* CL_SAMPLER_NORMALIZED_COORDS */
    cl_addressing_mode addressing_mode;    /* CL_SAMPLER_ADDRESSING_MODE */
    cl_filter_mode filter_mode;            /* CL_SAMPLER_FILTER_MODE */
    size_t num_properties;                 /* entries of CL_SAMPLER_PROPERTIES (3.0), terminator excluded */
    cl_bitfield properties[16];            /* CL_SAMPLER_PROPERTIES (cl_sampler_properties), 0-terminated; empty before 3.0 */
} clmem_sampler_info;

/** clmem_sampler_get_info(s, &info): every sampler_info from the driver. Errors:
    CL_INVALID_SAMPLER (empty handle), CL_INVALID_VALUE (info NULL), driver codes. */
CLMEM_API cl_int clmem_sampler_get_info(clmem_sampler s, clmem_sampler_info *info);

/** clmem_sampler_release(&s): release and empty the handle; a second release is a
    no-op. Returns CL_SUCCESS or the driver's code. */
CLMEM_API cl_int clmem_sampler_release(clmem_sampler *s);

#ifdef __cplusplus
}
#endif
