/* >>sampler (implementation) */
#include "sampler.h"

static const char *clmem__addressing_name(cl_addressing_mode m) {
    switch (m) {
    case CL_ADDRESS_NONE: return "CL_ADDRESS_NONE";
    case CL_ADDRESS_CLAMP_TO_EDGE: return "CL_ADDRESS_CLAMP_TO_EDGE";
    case CL_ADDRESS_CLAMP: return "CL_ADDRESS_CLAMP";
    case CL_ADDRESS_REPEAT: return "CL_ADDRESS_REPEAT";
    case CL_ADDRESS_MIRRORED_REPEAT: return "CL_ADDRESS_MIRRORED_REPEAT";
    default: return NULL;
    }
}

#if defined(CL_VERSION_2_0)
/* clmem__context_platform_version(ctx): the OpenCL version of the context's platform as
   major*100+minor*10 (PyOpenCL decides the sampler call by it); 0 when unknown. */
static cl_int clmem__context_platform_version(const char *fn, cl_context ctx, int *version) {
    cl_uint n = 0;
    cl_platform_id platform = NULL;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &err);
    *version = 0;
    if (!devs) return err;
    err = clGetDeviceInfo(devs[0], CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    CLMEM_FREE(devs);
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_PLATFORM");
    if ((err = clmem__version_query(NULL, platform, version)) != CL_SUCCESS) /* 0 (unknown): the 1.x call */
        return clmem__info_fail(fn, err, "clGetPlatformInfo", "CL_PLATFORM_VERSION");
    return CL_SUCCESS;
}
#endif

/* clmem__context_has_images(ctx): some device of the context supports images. */
static cl_int clmem__context_has_images(const char *fn, cl_context ctx) {
    cl_uint n = 0, i;
    cl_bool any = CL_FALSE;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &err);
    if (!devs) return err;
    for (i = 0; i < n && !any && err == CL_SUCCESS; ++i)
        err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE_SUPPORT, sizeof any, &any, NULL);
    CLMEM_FREE(devs);
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_IMAGE_SUPPORT");
    if (!any) return clmem__fail(CL_INVALID_OPERATION, fn, "no device of the context supports images (CL_DEVICE_IMAGE_SUPPORT)");
    return CL_SUCCESS;
}

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static cl_sampler clmem__create_sampler_12(cl_context ctx, cl_bool nc, cl_addressing_mode am, cl_filter_mode fm,
                                           cl_int *err) {
    return clCreateSampler(ctx, nc, am, fm, err);
}
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

static clmem_sampler clmem__sampler_make(const char *fn, cl_context context, cl_bool nc, cl_addressing_mode am,
                                         cl_filter_mode fm, cl_int *errcode_ret) {
    clmem_sampler s;
    cl_int err = CL_SUCCESS;
    memset(&s, 0, sizeof s);
    if (CLMEM__CHECKS) {
        if (!context) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL"));
            return s;
        }
        if (!clmem__addressing_name(am)) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "addressing_mode 0x%x is not a CL_ADDRESS_* mode",
                                                    (unsigned)am));
            return s;
        }
        if (fm != CL_FILTER_NEAREST && fm != CL_FILTER_LINEAR) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                    "filter_mode 0x%x is neither CL_FILTER_NEAREST nor CL_FILTER_LINEAR",
                                                    (unsigned)fm));
            return s;
        }
        if (nc != CL_TRUE && nc != CL_FALSE) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "normalized_coords %u is neither CL_TRUE nor CL_FALSE",
                                                    (unsigned)nc));
            return s;
        }
        if (!nc && (am == CL_ADDRESS_REPEAT || am == CL_ADDRESS_MIRRORED_REPEAT)) {
            clmem__set_err(errcode_ret,
                           clmem__fail(CL_INVALID_VALUE, fn,
                                       "%s needs normalized coordinates (normalized_coords is false); the spec leaves "
                                       "it undefined and PoCL refuses it",
                                       clmem__addressing_name(am)));
            return s;
        }
        if ((err = clmem__context_has_images(fn, context)) != CL_SUCCESS) {
            clmem__set_err(errcode_ret, err);
            return s;
        }
    }
#if defined(CL_VERSION_2_0)
    {
        int version = 0;
        if ((err = clmem__context_platform_version(fn, context, &version)) != CL_SUCCESS) {
            clmem__set_err(errcode_ret, err);
            return s;
        }
        if (version >= 200) {
            cl_sampler_properties props[7];
            props[0] = CL_SAMPLER_NORMALIZED_COORDS;
            props[1] = nc;
            props[2] = CL_SAMPLER_ADDRESSING_MODE;
            props[3] = am;
            props[4] = CL_SAMPLER_FILTER_MODE;
            props[5] = fm;
            props[6] = 0;
            s.sampler = clCreateSamplerWithProperties(context, props, &err);
            if (err != CL_SUCCESS || !s.sampler) {
                clmem__set_err(errcode_ret, clmem__cl_fail(err ? err : CL_OUT_OF_RESOURCES, fn, "clCreateSamplerWithProperties"));
                memset(&s, 0, sizeof s);
                return s;
            }
        }
    }
#endif
    if (!s.sampler) {
        s.sampler = clmem__create_sampler_12(context, nc, am, fm, &err);
        if (err != CL_SUCCESS || !s.sampler) {
            clmem__set_err(errcode_ret, clmem__cl_fail(err ? err : CL_OUT_OF_RESOURCES, fn, "clCreateSampler"));
            memset(&s, 0, sizeof s);
            return s;
        }
    }
    s.context = context;
    s.normalized_coords = nc;
    s.addressing_mode = am;
    s.filter_mode = fm;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return s;
}

CLMEM_API clmem_sampler clmem_sampler_create(cl_context context, cl_bool normalized_coords,
                                             cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                             cl_int *errcode_ret) {
    return clmem__sampler_make("clmem_sampler_create", context, normalized_coords ? CL_TRUE : CL_FALSE, addressing_mode,
                               filter_mode, errcode_ret);
}

CLMEM_API clmem_sampler clmem_sampler_create_with_properties(cl_context context, const cl_bitfield *properties,
                                                             cl_int *errcode_ret) {
    static const char fn[] = "clmem_sampler_create_with_properties";
    cl_bool nc = CL_TRUE;
    cl_addressing_mode am = CL_ADDRESS_CLAMP;
    cl_filter_mode fm = CL_FILTER_NEAREST;
    bool seen[3] = {false, false, false};
    size_t i;
    clmem_sampler empty;
    memset(&empty, 0, sizeof empty);
    for (i = 0; properties && properties[i] != 0; i += 2) {
        cl_bitfield key = properties[i], value = properties[i + 1];
        int k = key == CL_SAMPLER_NORMALIZED_COORDS ? 0 : key == CL_SAMPLER_ADDRESSING_MODE ? 1
              : key == CL_SAMPLER_FILTER_MODE ? 2 : -1;
        if (k < 0) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "properties[%zu]: unknown sampler property 0x%llx",
                                                    i, (unsigned long long)key));
            return empty;
        }
        if (seen[k]) {
            clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "properties[%zu]: property 0x%llx is given twice",
                                                    i, (unsigned long long)key));
            return empty;
        }
        seen[k] = true;
        if (k == 0) {
            if (value != CL_TRUE && value != CL_FALSE) {
                clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                        "properties[%zu]: CL_SAMPLER_NORMALIZED_COORDS value %llu is "
                                                        "neither CL_TRUE nor CL_FALSE",
                                                        i + 1, (unsigned long long)value));
                return empty;
            }
            nc = (cl_bool)value;
        } else if (k == 1) {
            am = (cl_addressing_mode)value;
        } else {
            fm = (cl_filter_mode)value;
        }
    }
    return clmem__sampler_make(fn, context, nc, am, fm, errcode_ret);
}

CLMEM_API clmem_sampler clmem_sampler_from_int_ptr(cl_sampler sampler, bool retain, cl_int *errcode_ret) {
    static const char fn[] = "clmem_sampler_from_int_ptr";
    clmem_sampler s;
    cl_int err;
    memset(&s, 0, sizeof s);
    if (!sampler) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_SAMPLER, fn, "sampler is NULL"));
        return s;
    }
    err = clGetSamplerInfo(sampler, CL_SAMPLER_CONTEXT, sizeof s.context, &s.context, NULL);
    if (err == CL_SUCCESS)
        err = clGetSamplerInfo(sampler, CL_SAMPLER_NORMALIZED_COORDS, sizeof s.normalized_coords, &s.normalized_coords, NULL);
    if (err == CL_SUCCESS)
        err = clGetSamplerInfo(sampler, CL_SAMPLER_ADDRESSING_MODE, sizeof s.addressing_mode, &s.addressing_mode, NULL);
    if (err == CL_SUCCESS) err = clGetSamplerInfo(sampler, CL_SAMPLER_FILTER_MODE, sizeof s.filter_mode, &s.filter_mode, NULL);
    if (err != CL_SUCCESS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_SAMPLER, fn, "sampler %p is not a valid sampler (%s)",
                                                (void *)sampler, clmem_error_string(err)));
        memset(&s, 0, sizeof s);
        return s;
    }
    if (retain && (err = clRetainSampler(sampler)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, clmem__cl_fail(err, fn, "clRetainSampler"));
        memset(&s, 0, sizeof s);
        return s;
    }
    s.sampler = sampler;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return s;
}

CLMEM_API cl_int clmem_sampler_get_info(clmem_sampler s, clmem_sampler_info *info) {
    static const char fn[] = "clmem_sampler_get_info";
    cl_int err;
    if (!info) return clmem__fail(CL_INVALID_VALUE, fn, "info is NULL");
    memset(info, 0, sizeof *info);
    if (!s.sampler) return clmem__fail(CL_INVALID_SAMPLER, fn, "s is an empty or released handle");
#define CLMEM__SMP_Q(param, field)                                                                    \
    if ((err = clGetSamplerInfo(s.sampler, param, sizeof info->field, &info->field, NULL)) != CL_SUCCESS) \
        return clmem__cl_fail(err, fn, "clGetSamplerInfo(" #param ")");
    CLMEM__SMP_Q(CL_SAMPLER_REFERENCE_COUNT, reference_count)
    CLMEM__SMP_Q(CL_SAMPLER_CONTEXT, context)
    CLMEM__SMP_Q(CL_SAMPLER_NORMALIZED_COORDS, normalized_coords)
    CLMEM__SMP_Q(CL_SAMPLER_ADDRESSING_MODE, addressing_mode)
    CLMEM__SMP_Q(CL_SAMPLER_FILTER_MODE, filter_mode)
#undef CLMEM__SMP_Q
#if defined(CL_VERSION_3_0)
    {
        size_t bytes = 0;
        /* a 3.0 query: CL_INVALID_VALUE (unknown to an older platform) means none */
        err = clGetSamplerInfo(s.sampler, CL_SAMPLER_PROPERTIES, 0, NULL, &bytes);
        if (err == CL_SUCCESS && bytes > 0 && bytes <= sizeof info->properties)
            err = clGetSamplerInfo(s.sampler, CL_SAMPLER_PROPERTIES, bytes, info->properties, NULL);
        else if (err == CL_INVALID_VALUE)
            err = CL_SUCCESS, bytes = 0;
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetSamplerInfo(CL_SAMPLER_PROPERTIES)");
        if (bytes > 0 && bytes <= sizeof info->properties) {
            size_t n = bytes / sizeof(cl_bitfield);
            while (n > 0 && info->properties[n - 1] == 0) --n;
            info->num_properties = n;
        }
    }
#endif
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_sampler_release(clmem_sampler *s) {
    cl_sampler raw;
    cl_int err;
    if (!s || !s->sampler) return CL_SUCCESS;
    raw = s->sampler;
    memset(s, 0, sizeof *s);
    err = clReleaseSampler(raw);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, "clmem_sampler_release", "clReleaseSampler");
}

