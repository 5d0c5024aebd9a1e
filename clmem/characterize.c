/* >>characterize (implementation) */
#include "characterize.h"
#include "cache.h"

#define CLMEM__NV_CC_MAJOR 0x4000 /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
#define CLMEM__NV_CC_MINOR 0x4001 /* CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV */
#define CLMEM__NV_WARP_SIZE 0x4003 /* CL_DEVICE_WARP_SIZE_NV */
#define CLMEM__CAP_SVM_COARSE ((cl_bitfield)1 << 0)
#define CLMEM__CAP_SVM_FINE_BUFFER ((cl_bitfield)1 << 1)
#define CLMEM__CAP_SVM_FINE_SYSTEM ((cl_bitfield)1 << 2)
#define CLMEM__CAP_SVM_ATOMICS ((cl_bitfield)1 << 3)

/* ---- small string helpers ---- */

/* clmem__has_token(list, tok): tok is one of the space-separated words of list
   (PyOpenCL's `tok in s.split(" ")`: runs of spaces make empty tokens, never tok). */
static bool clmem__has_token(const char *list, const char *tok) {
    size_t n = strlen(tok);
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && memcmp(p, tok, n) == 0) return true;
        if (!end) break;
        p = end + 1;
    }
    return false;
}

static void clmem__lower(char *dst, const char *src, size_t size) {
    size_t i;
    for (i = 0; i + 1 < size && src[i]; ++i)
        dst[i] = (char)((src[i] >= 'A' && src[i] <= 'Z') ? src[i] - 'A' + 'a' : src[i]);
    dst[i] = '\0';
}

static bool clmem__is_alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* clmem__has_word(s, w): w occurs in s with no letter or digit on either side. */
static bool clmem__has_word(const char *s, const char *w) {
    size_t n = strlen(w);
    const char *p = s;
    while ((p = strstr(p, w)) != NULL) {
        if ((p == s || !clmem__is_alnum(p[-1])) && !clmem__is_alnum(p[n])) return true;
        ++p;
    }
    return false;
}

/* clmem__parse_pocl_version: PyOpenCL's regex ^OpenCL [0-9.]+ [Pp]o[Cc][Ll] ([0-9]+)\.([0-9]+) */
static bool clmem__parse_pocl_version(const char *v, int *major, int *minor) {
    const char *p = v;
    long a = 0, b = 0;
    if (strncmp(p, "OpenCL ", 7) != 0) return false;
    p += 7;
    if (!((*p >= '0' && *p <= '9') || *p == '.')) return false;
    while ((*p >= '0' && *p <= '9') || *p == '.') ++p;
    if (*p++ != ' ') return false;
    if ((p[0] != 'P' && p[0] != 'p') || p[1] != 'o' || (p[2] != 'C' && p[2] != 'c') || (p[3] != 'L' && p[3] != 'l'))
        return false;
    p += 4;
    if (*p++ != ' ') return false;
    if (!(*p >= '0' && *p <= '9')) return false;
    while (*p >= '0' && *p <= '9') a = a < 100000 ? a * 10 + (*p++ - '0') : (++p, a);
    if (*p++ != '.') return false;
    if (!(*p >= '0' && *p <= '9')) return false;
    while (*p >= '0' && *p <= '9') b = b < 100000 ? b * 10 + (*p++ - '0') : (++p, b);
    *major = (int)a;
    *minor = (int)b;
    return true;
}

static bool clmem__is_pocl(const clmem_device_description *d) {
    return strcmp(d->platform_name, "Portable Computing Language") == 0;
}

/* PyOpenCL's get_pocl_version(platform, fallback): the version, or the fallback with a
   warning when the string has another form. Only for PoCL platforms. */
static void clmem__pocl_version(const char *fn, const clmem_device_description *d, int fb_major, int fb_minor,
                                int *major, int *minor) {
    if (clmem__parse_pocl_version(d->platform_version, major, minor)) return;
    clmem__warn(fn, "PoCL version number did not have expected format: '%s'", d->platform_version);
    *major = fb_major;
    *minor = fb_minor;
}

static const char *clmem__dev_name(const clmem_device_description *d) { return d->name[0] ? d->name : "?"; }

/* ---- describing a device ---- */

static cl_int clmem__info_string(const char *fn, cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *obj,
                                 cl_uint param, const char *what, char *dst, size_t size) {
    size_t need = 0;
    char *tmp;
    cl_int err = get(obj, param, 0, NULL, &need);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, what);
    dst[0] = '\0';
    if (need <= size) {
        err = get(obj, param, size, dst, NULL);
        dst[size - 1] = '\0';
        return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, what);
    }
    tmp = CLMEM__CAST(char *, CLMEM_MALLOC(need + 1));
    if (!tmp) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for %zu bytes of %s", need, what);
    err = get(obj, param, need, tmp, NULL);
    if (err == CL_SUCCESS) {
        size_t cut = size - 1;
        tmp[need] = '\0';
        while (cut > 0 && tmp[cut] != ' ') --cut; /* keep whole tokens */
        memcpy(dst, tmp, cut);
        dst[cut] = '\0';
        clmem__warn(fn, "%s is %zu bytes; kept the first %zu (whole words)", what, need, cut);
    }
    CLMEM_FREE(tmp);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, what);
}


static cl_int clmem__describe(const char *fn, cl_device_id dev, clmem_device_description *d) {
    cl_int err;
    cl_uint u = 0;
    if (dev == NULL) return clmem__fail(CL_INVALID_DEVICE, fn, "dev is NULL");
    memset(d, 0, sizeof *d);
    d->device = dev;
#define CLMEM__Q(param, var, what)                                                   \
    if ((err = clGetDeviceInfo(dev, param, sizeof(var), &(var), NULL)) != CL_SUCCESS) \
        return clmem__cl_fail(err, fn, "clGetDeviceInfo(" what ")");
    CLMEM__Q(CL_DEVICE_PLATFORM, d->platform, "CL_DEVICE_PLATFORM")
    CLMEM__Q(CL_DEVICE_TYPE, d->type, "CL_DEVICE_TYPE")
    CLMEM__Q(CL_DEVICE_LOCAL_MEM_SIZE, d->local_mem_size, "CL_DEVICE_LOCAL_MEM_SIZE")
    CLMEM__Q(CL_DEVICE_LOCAL_MEM_TYPE, d->local_mem_type, "CL_DEVICE_LOCAL_MEM_TYPE")
#undef CLMEM__Q
    if ((err = clmem__info_string(fn, clmem__dev_get, dev, CL_DEVICE_NAME, "clGetDeviceInfo(CL_DEVICE_NAME)",
                                  d->name, sizeof d->name)) != CL_SUCCESS ||
        (err = clmem__info_string(fn, clmem__dev_get, dev, CL_DEVICE_VENDOR, "clGetDeviceInfo(CL_DEVICE_VENDOR)",
                                  d->vendor, sizeof d->vendor)) != CL_SUCCESS ||
        (err = clmem__info_string(fn, clmem__dev_get, dev, CL_DEVICE_EXTENSIONS,
                                  "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)", d->extensions, sizeof d->extensions)) !=
            CL_SUCCESS)
        return err;
    if (d->platform &&
        ((err = clmem__info_string(fn, clmem__plat_get, d->platform, CL_PLATFORM_NAME,
                                   "clGetPlatformInfo(CL_PLATFORM_NAME)", d->platform_name, sizeof d->platform_name)) !=
             CL_SUCCESS ||
         (err = clmem__info_string(fn, clmem__plat_get, d->platform, CL_PLATFORM_VENDOR,
                                   "clGetPlatformInfo(CL_PLATFORM_VENDOR)", d->platform_vendor,
                                   sizeof d->platform_vendor)) != CL_SUCCESS ||
         (err = clmem__info_string(fn, clmem__plat_get, d->platform, CL_PLATFORM_VERSION,
                                   "clGetPlatformInfo(CL_PLATFORM_VERSION)", d->platform_version,
                                   sizeof d->platform_version)) != CL_SUCCESS))
        return err;
#ifdef CL_DEVICE_SVM_CAPABILITIES
    {
        cl_device_svm_capabilities caps = 0;
        int version = 0;
        /* an OpenCL 1.x device does not know the query (CL_INVALID_VALUE): no SVM; nor
           does one that clmem sees as 1.x (clmem__parse_opencl_version: a 1.2 loader) */
        if ((err = clmem__device_version(fn, dev, &version)) != CL_SUCCESS) return err;
        err = version >= 200 ? clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) : CL_INVALID_VALUE;
        if (err == CL_SUCCESS)
            d->svm_capabilities = (cl_bitfield)caps;
        else if (err != CL_INVALID_VALUE)
            return clmem__cl_fail(err, fn, "clGetDeviceInfo(CL_DEVICE_SVM_CAPABILITIES)");
    }
#endif
    /* NVIDIA's attributes: asked only of devices that list the extension; a failing
       query means "absent", as PyOpenCL's `except Exception`. */
    if (clmem__has_token(d->extensions, "cl_nv_device_attribute_query")) {
        cl_uint minor = 0;
        if (clGetDeviceInfo(dev, CLMEM__NV_CC_MAJOR, sizeof u, &u, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(dev, CLMEM__NV_CC_MINOR, sizeof minor, &minor, NULL) == CL_SUCCESS) {
            d->has_nv_compute_capability = true;
            d->nv_compute_capability_major = u;
            d->nv_compute_capability_minor = minor;
        }
        if (clGetDeviceInfo(dev, CLMEM__NV_WARP_SIZE, sizeof u, &u, NULL) == CL_SUCCESS) {
            d->has_warp_size_nv = true;
            d->warp_size_nv = u;
        }
    }
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_device_describe(cl_device_id dev, clmem_device_description *out) {
    if (out == NULL) return clmem__fail(CL_INVALID_VALUE, "clmem_device_describe", "out is NULL");
    return clmem__describe("clmem_device_describe", dev, out);
}

/* CLMEM__DESC_CHECK(fn, d, p): the common checks of a _desc form. */
#define CLMEM__DESC_CHECK(fn, d, p)                                                  \
    do {                                                                             \
        if ((d) == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "description is NULL"); \
        if ((p) == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "%s is NULL", #p); \
    } while (0)

/* CLMEM__DEVICE_FORM(fn, result, call): check dev and the result pointer, describe
   dev into d_, then return call. */
#define CLMEM__DEVICE_FORM(fn, result, call)                                               \
    do {                                                                                   \
        clmem_device_description *d_;                                                      \
        cl_int e_;                                                                         \
        if (dev == NULL) return clmem__fail(CL_INVALID_DEVICE, fn, "dev is NULL");         \
        if ((result) == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "%s is NULL", #result); \
        d_ = CLMEM__CAST(clmem_device_description *, CLMEM_MALLOC(sizeof *d_));            \
        if (!d_) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for a device description"); \
        e_ = clmem__describe(fn, dev, d_);                                                 \
        if (e_ == CL_SUCCESS) e_ = call;                                                   \
        CLMEM_FREE(d_);                                                                    \
        return e_;                                                                         \
    } while (0)
/* a result that may be NULL */
#define CLMEM__ANY ((const void *)1)

/* CLMEM__DEVICE_FORMS(name, T, result, impl): clmem_<name>(dev, T *result) and
   clmem_<name>_desc(d, T *result), both answered by impl(fn, description, result). */
#define CLMEM__DEVICE_FORMS(name, T, result, impl)                                       \
    CLMEM_API cl_int clmem_##name(cl_device_id dev, T *result) {                         \
        CLMEM__DEVICE_FORM("clmem_" #name, result, impl("clmem_" #name, d_, result));    \
    }                                                                                    \
    CLMEM_API cl_int clmem_##name##_desc(const clmem_device_description *d, T *result) { \
        CLMEM__DESC_CHECK("clmem_" #name "_desc", d, result);                            \
        return impl("clmem_" #name "_desc", d, result);                                  \
    }

/* ---- build options ---- */

static cl_int clmem__fast_options(const char *fn, const clmem_device_description *d, char *options, size_t size,
                                  size_t *size_ret) {
    char buf[128];
    size_t need;
    strcpy(buf, "-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros");
    if (strncmp(d->vendor, "Advanced Micro", 14) == 0 || strncmp(d->vendor, "NVIDIA", 6) == 0)
        strcat(buf, " -cl-strict-aliasing");
    need = strlen(buf) + 1;
    if (size_ret) *size_ret = need;
    if (options) {
        if (size < need)
            return clmem__fail(CL_INVALID_VALUE, fn, "size %zu is too small for the options: %zu bytes needed", size,
                               need);
        memcpy(options, buf, need);
    }
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_get_fast_inaccurate_build_options(cl_device_id dev, char *options, size_t size,
                                                         size_t *size_ret) {
    static const char *const fn = "clmem_get_fast_inaccurate_build_options";
    CLMEM__DEVICE_FORM(fn, CLMEM__ANY, clmem__fast_options(fn, d_, options, size, size_ret));
}
CLMEM_API cl_int clmem_get_fast_inaccurate_build_options_desc(const clmem_device_description *d, char *options,
                                                              size_t size, size_t *size_ret) {
    static const char *const fn = "clmem_get_fast_inaccurate_build_options_desc";
    if (d == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "description is NULL");
    return clmem__fast_options(fn, d, options, size, size_ret);
}

/* ---- SIMD group size ---- */

/* clmem__probe_ask: what a probe asks of its built kernel; stores the answer in value */
typedef cl_int (*clmem__probe_ask)(const char *fn, cl_device_id dev, cl_kernel knl, void *value);

/* clmem__probe_kernel(fn, dev, ctx, src, name, ask, value): build kernel `name` of src
   for dev in ctx (the caller's, or, when NULL, a context of its own), ask it, release
   what was made. A failed call is named. */
static cl_int clmem__probe_kernel(const char *fn, cl_device_id dev, cl_context ctx, const char *src, const char *name,
                                  clmem__probe_ask ask, void *value) {
    cl_program prg = NULL;
    cl_kernel knl = NULL;
    cl_int err = CL_SUCCESS;
    if (ctx) {
        clRetainContext(ctx);
    } else {
        ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clCreateContext (for the probe kernel)");
    }
    prg = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
        err = clmem__cl_fail(err, fn, "clCreateProgramWithSource (probe kernel)");
    } else if ((err = clBuildProgram(prg, 1, &dev, "", NULL, NULL)) != CL_SUCCESS) {
        err = clmem__cl_fail(err, fn, "clBuildProgram (probe kernel)");
    } else {
        knl = clCreateKernel(prg, name, &err);
        err = err != CL_SUCCESS ? clmem__fail(err, fn, "clCreateKernel(%s) failed with %s (%d)", name,
                                              clmem_error_string(err), (int)err)
                                : ask(fn, dev, knl, value);
    }
    if (knl) clReleaseKernel(knl);
    if (prg) clReleaseProgram(prg);
    clReleaseContext(ctx);
    return err;
}

/* clmem__preferred_multiple: CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of a trivial
   kernel (PyOpenCL's reasonable_work_group_size_multiple), built once per device. */
static cl_int clmem__multiple_ask(const char *fn, cl_device_id dev, cl_kernel knl, void *value) {
    size_t multiple = 0;
    cl_int err = clGetKernelWorkGroupInfo(knl, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                          &multiple, NULL);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetKernelWorkGroupInfo(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)");
    *CLMEM__CAST(cl_uint *, value) = (cl_uint)multiple;
    return CL_SUCCESS;
}
static cl_int clmem__multiple_compute(void *obj, const void *args, size_t n, void *value, void *user) {
    (void)args;
    (void)n;
    (void)user;
    return clmem__probe_kernel("clmem_get_simd_group_size", CLMEM__CAST(cl_device_id, obj), NULL,
                               "__kernel void knl(__global float *a) { a[get_global_id(0)] = 0; }", "knl",
                               clmem__multiple_ask, value);
}
static clmem_first_arg_cache clmem__multiple_cache = CLMEM_FIRST_ARG_CACHE_INIT(
    "clmem: preferred work-group size multiple", CLMEM_CACHE_KEY_DEVICE, sizeof(cl_uint), clmem__multiple_compute, NULL);

static cl_int clmem__simd(const char *fn, const clmem_device_description *d, cl_uint *simd) {
    char pv[256], dv[256];
    *simd = 0;
    if (d->has_warp_size_nv) {
        *simd = d->warp_size_nv;
        return CL_SUCCESS;
    }
    clmem__lower(pv, d->platform_vendor, sizeof pv);
    clmem__lower(dv, d->vendor, sizeof dv);
    if (strstr(pv, "nvidia") || strstr(dv, "nvidia")) {
        *simd = 32;
        return CL_SUCCESS;
    }
    /* PyOpenCL: `"ati" in vendor`, true for "intel(r) corporation"; clmem: a word */
    if (strstr(pv, "advanced micro") || clmem__has_word(pv, "ati") || strstr(dv, "advanced micro") ||
        clmem__has_word(dv, "ati")) {
        if (d->type & CL_DEVICE_TYPE_GPU) {
            if (d->preferred_work_group_size_multiple) {
                *simd = d->preferred_work_group_size_multiple;
                return CL_SUCCESS;
            }
            if (d->device == NULL)
                return clmem__fail(CL_INVALID_DEVICE, fn,
                                   "the AMD GPU '%s' needs a probe kernel, but the description has no device "
                                   "(set .device or .preferred_work_group_size_multiple)",
                                   clmem__dev_name(d));
            return clmem_first_arg_dependent_memoize(&clmem__multiple_cache, (void *)d->device, NULL, 0, simd, NULL);
        }
        if (d->type & CL_DEVICE_TYPE_CPU) {
            *simd = 1;
            return CL_SUCCESS;
        }
        return clmem__fail(CL_INVALID_DEVICE_TYPE, fn, "unexpected AMD device type 0x%llx of '%s' (neither GPU nor CPU)",
                           (unsigned long long)d->type, clmem__dev_name(d));
    }
    if (d->type & CL_DEVICE_TYPE_CPU) *simd = 1; /* implicit assumption: it vectorizes */
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_get_simd_group_size(cl_device_id dev, size_t type_size, cl_uint *simd) {
    static const char *const fn = "clmem_get_simd_group_size";
    (void)type_size;
    CLMEM__DEVICE_FORM(fn, simd, clmem__simd(fn, d_, simd));
}
CLMEM_API cl_int clmem_get_simd_group_size_desc(const clmem_device_description *d, size_t type_size, cl_uint *simd) {
    static const char *const fn = "clmem_get_simd_group_size_desc";
    (void)type_size;
    CLMEM__DESC_CHECK(fn, d, simd);
    return clmem__simd(fn, d, simd);
}

/* ---- double support ---- */

static cl_int clmem__amd_fp64(const char *fn, const clmem_device_description *d, bool *yes) {
    (void)fn;
    *yes = clmem__has_token(d->extensions, "cl_amd_fp64");
    return CL_SUCCESS;
}
static cl_int clmem__khr_fp64(const char *fn, const clmem_device_description *d, bool *yes) {
    (void)fn;
    *yes = clmem__has_token(d->extensions, "cl_khr_fp64");
    return CL_SUCCESS;
}
CLMEM__DEVICE_FORMS(has_amd_double_support, bool, yes, clmem__amd_fp64)
CLMEM__DEVICE_FORMS(has_double_support, bool, yes, clmem__khr_fp64)

/* ---- struct argument count bug ---- */

static int clmem__struct_probe_runs; /* how often the probe kernel was built (tests read it) */

/* The probe: does `struct two_things {long a; long b;}` count as 2 kernel arguments?
   Cached per device; user is the context to build in (or NULL: one of its own). */
static cl_int clmem__struct_probe_ask(const char *fn, cl_device_id dev, cl_kernel knl, void *value) {
    cl_uint num_args = 0;
    cl_int err = clGetKernelInfo(knl, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, NULL);
    (void)dev;
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
    ++clmem__struct_probe_runs;
    *CLMEM__CAST(int *, value) = num_args == 2;
    return CL_SUCCESS;
}
static cl_int clmem__struct_probe_compute(void *obj, const void *args, size_t n, void *value, void *user) {
    (void)args;
    (void)n;
    return clmem__probe_kernel("clmem_has_struct_arg_count_bug", CLMEM__CAST(cl_device_id, obj),
                               CLMEM__CAST(cl_context, user),
                               "struct two_things { long a; long b; };\n"
                               "__kernel void test_knl(struct two_things x) { }\n",
                               "test_knl", clmem__struct_probe_ask, value);
}
static clmem_first_arg_cache clmem__struct_probe_cache = CLMEM_FIRST_ARG_CACHE_INIT(
    "clmem: struct argument count probe", CLMEM_CACHE_KEY_DEVICE, sizeof(int), clmem__struct_probe_compute, NULL);

static cl_int clmem__struct_bug(const char *fn, const clmem_device_description *d, cl_context ctx,
                                clmem_struct_arg_count_bug *bug) {
    *bug = CLMEM_STRUCT_ARG_COUNT_BUG_NONE;
    if (strcmp(d->platform_name, "Apple") == 0 && (d->type & CL_DEVICE_TYPE_CPU)) {
        *bug = CLMEM_STRUCT_ARG_COUNT_BUG_APPLE;
        return CL_SUCCESS;
    }
    if (clmem__is_pocl(d)) {
        int major, minor;
        clmem__pocl_version(fn, d, 0, 14, &major, &minor);
        if (major == 0 && minor <= 13) {
            *bug = CLMEM_STRUCT_ARG_COUNT_BUG_POCL;
        } else if (major == 0 && minor == 14) {
            int counts_two = 0;
            cl_int err;
            if (d->device == NULL)
                return clmem__fail(CL_INVALID_DEVICE, fn,
                                   "PoCL 0.14 needs the probe kernel, but the description of '%s' has no device",
                                   clmem__dev_name(d));
            err = clmem_first_arg_dependent_memoize(&clmem__struct_probe_cache, (void *)d->device, NULL, 0, &counts_two,
                                                    (void *)ctx);
            if (err != CL_SUCCESS) return err;
            if (counts_two) *bug = CLMEM_STRUCT_ARG_COUNT_BUG_POCL;
        }
    }
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_has_struct_arg_count_bug(cl_device_id dev, cl_context ctx, clmem_struct_arg_count_bug *bug) {
    static const char *const fn = "clmem_has_struct_arg_count_bug";
    CLMEM__DEVICE_FORM(fn, bug, clmem__struct_bug(fn, d_, ctx, bug));
}
CLMEM_API cl_int clmem_has_struct_arg_count_bug_desc(const clmem_device_description *d, cl_context ctx,
                                                     clmem_struct_arg_count_bug *bug) {
    static const char *const fn = "clmem_has_struct_arg_count_bug_desc";
    CLMEM__DESC_CHECK(fn, d, bug);
    return clmem__struct_bug(fn, d, ctx, bug);
}

/* ---- local memory ---- */

static cl_int clmem__granularity(const char *fn, const clmem_device_description *d, cl_uint *bytes) {
    (void)fn;
    (void)d;
    *bytes = 4;
    return CL_SUCCESS;
}
CLMEM_API cl_int clmem_local_memory_access_granularity(cl_device_id dev, cl_uint *bytes) {
    /* needs no device query, but checks dev like every other device form */
    if (dev == NULL) return clmem__fail(CL_INVALID_DEVICE, "clmem_local_memory_access_granularity", "dev is NULL");
    if (bytes == NULL) return clmem__fail(CL_INVALID_VALUE, "clmem_local_memory_access_granularity", "bytes is NULL");
    return clmem__granularity("", NULL, bytes);
}
CLMEM_API cl_int clmem_local_memory_access_granularity_desc(const clmem_device_description *d, cl_uint *bytes) {
    CLMEM__DESC_CHECK("clmem_local_memory_access_granularity_desc", d, bytes);
    return clmem__granularity("", d, bytes);
}

/* NVIDIA compute capability compared with (major, minor) as tuples: <0, 0, >0 */
static int clmem__cc_cmp(const clmem_device_description *d, cl_uint major, cl_uint minor) {
    if (d->nv_compute_capability_major != major) return d->nv_compute_capability_major < major ? -1 : 1;
    if (d->nv_compute_capability_minor != minor) return d->nv_compute_capability_minor < minor ? -1 : 1;
    return 0;
}

/* clmem__bank_guess(fn, d, what): PyOpenCL's answer to both bank questions where the
   device is not a plain CPU: 16 below NVIDIA compute capability 2.0, 32 from it; a
   warning that `what` is a wild guess from 3.0 and on every device that is not NVIDIA
   (16 there). */
static cl_uint clmem__bank_guess(const char *fn, const clmem_device_description *d, const char *what) {
    if (!d->has_nv_compute_capability || clmem__cc_cmp(d, 3, 0) >= 0)
        clmem__warn(fn, "wildly guessing %s on '%s'", what, clmem__dev_name(d));
    return d->has_nv_compute_capability && clmem__cc_cmp(d, 2, 0) >= 0 ? 32 : 16;
}

/* a CPU that is neither NVIDIA's nor a GPU */
static bool clmem__plain_cpu(const clmem_device_description *d) {
    return !d->has_nv_compute_capability && !(d->type & CL_DEVICE_TYPE_GPU) && (d->type & CL_DEVICE_TYPE_CPU);
}

static cl_int clmem__sim_items(const char *fn, const clmem_device_description *d, cl_uint *n) {
    *n = clmem__plain_cpu(d) ? 1 : clmem__bank_guess(fn, d, "conflicting local access size");
    return CL_SUCCESS;
}
CLMEM__DEVICE_FORMS(simultaneous_work_items_on_local_access, cl_uint, n, clmem__sim_items)

static cl_int clmem__banks(const char *fn, const clmem_device_description *d, cl_uint *banks) {
    if (clmem__plain_cpu(d) && d->local_mem_type == CL_GLOBAL)
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "asking for a bank count is meaningless for cache-based local memory: '%s' is a CPU whose "
                           "CL_DEVICE_LOCAL_MEM_TYPE is CL_GLOBAL",
                           clmem__dev_name(d));
    *banks = clmem__bank_guess(fn, d, "local memory bank count");
    return CL_SUCCESS;
}
CLMEM__DEVICE_FORMS(local_memory_bank_count, cl_uint, banks, clmem__banks)

static cl_int clmem__nv_cc(const char *fn, const clmem_device_description *d, cl_uint *major, cl_uint *minor) {
    if (minor == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "minor is NULL");
    *major = d->has_nv_compute_capability ? d->nv_compute_capability_major : 0;
    *minor = d->has_nv_compute_capability ? d->nv_compute_capability_minor : 0;
    return CL_SUCCESS;
}
CLMEM_API cl_int clmem_nv_compute_capability(cl_device_id dev, cl_uint *major, cl_uint *minor) {
    static const char *const fn = "clmem_nv_compute_capability";
    CLMEM__DEVICE_FORM(fn, major, clmem__nv_cc(fn, d_, major, minor));
}
CLMEM_API cl_int clmem_nv_compute_capability_desc(const clmem_device_description *d, cl_uint *major,
                                                  cl_uint *minor) {
    static const char *const fn = "clmem_nv_compute_capability_desc";
    CLMEM__DESC_CHECK(fn, d, major);
    return clmem__nv_cc(fn, d, major, minor);
}

static cl_int clmem__usable_lmem(const char *fn, const clmem_device_description *d, long nargs, cl_ulong *bytes) {
    cl_ulong s = d->local_mem_size, less = 0;
    (void)fn;
    if (d->has_nv_compute_capability && clmem__cc_cmp(d, 2, 0) < 0) /* pre-Fermi: arguments live in lmem */
        less = nargs < 0 ? 256 : 4 * (cl_ulong)nargs;
    *bytes = s > less ? s - less : 0;
    return CL_SUCCESS;
}
CLMEM_API cl_int clmem_usable_local_mem_size(cl_device_id dev, long nargs, cl_ulong *bytes) {
    static const char *const fn = "clmem_usable_local_mem_size";
    CLMEM__DEVICE_FORM(fn, bytes, clmem__usable_lmem(fn, d_, nargs, bytes));
}
CLMEM_API cl_int clmem_usable_local_mem_size_desc(const clmem_device_description *d, long nargs, cl_ulong *bytes) {
    static const char *const fn = "clmem_usable_local_mem_size_desc";
    CLMEM__DESC_CHECK(fn, d, bytes);
    return clmem__usable_lmem(fn, d, nargs, bytes);
}

/* ---- bank conflicts ---- */

typedef struct clmem__strbuf {
    char *p;
    size_t len, cap;
    bool oom;
} clmem__strbuf;

static CLMEM__PRINTF(2, 3) void clmem__sb_printf(clmem__strbuf *b, const char *fmt, ...) {
    va_list ap;
    int n;
    if (b->oom) return;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        {
            size_t cap = (b->cap ? b->cap * 2 : 256) + (size_t)n;
            char *g = CLMEM__CAST(char *, CLMEM_REALLOC(b->p, cap));
            if (!g) {
                b->oom = true;
                return;
            }
            b->p = g;
            b->cap = cap;
        }
    }
}

/* clmem__conflicts: PyOpenCL's characterize.why_not_local_access_conflict_free, one
   loop over the work items of a simulated access with the explanation written as it
   goes. Over 100 lines on purpose: it stays line for line comparable with PyOpenCL's
   function, which is one function too. */
static cl_int clmem__conflicts(const char *fn, const clmem_device_description *d, size_t itemsize, size_t rank,
                               const size_t *shape, const size_t *stored_shape, cl_uint *multiplicity,
                               char *explanation, size_t size, size_t *size_ret) {
    const cl_uint gran = 4;
    cl_uint sim = 0, banks = 0, best_m = 1, *bank_of = NULL, *count = NULL;
    size_t ax, wia, wi, b, *idx = NULL, idx_count = 0, need;
    bool *inside = NULL;
    char *best = NULL;
    clmem__strbuf sb = {NULL, 0, 0, false};
    cl_int err = CL_SUCCESS;

    if (multiplicity == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "multiplicity is NULL");
    if (itemsize == 0) return clmem__fail(CL_INVALID_VALUE, fn, "itemsize is 0");
    if (rank > 0 && shape == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "shape is NULL but rank is %zu", rank);
    if (!stored_shape) stored_shape = shape;
    for (ax = 0; ax < rank; ++ax) {
        if (shape[ax] == 0) return clmem__fail(CL_INVALID_VALUE, fn, "shape[%zu] is 0", ax);
        if (stored_shape[ax] < shape[ax])
            return clmem__fail(CL_INVALID_VALUE, fn, "stored_shape[%zu] = %zu is smaller than shape[%zu] = %zu", ax,
                               stored_shape[ax], ax, shape[ax]);
    }
    if (itemsize != gran)
        clmem__warn(fn, "local conflict info might be inaccurate for itemsize %zu != %u", itemsize, gran);
    if ((err = clmem__sim_items(fn, d, &sim)) != CL_SUCCESS) return err;
    if ((err = clmem__banks(fn, d, &banks)) != CL_SUCCESS) return err;

    if (rank > 0) {
        if (!clmem__mul_ok(sim, rank, &idx_count))
            return clmem__fail(CL_INVALID_VALUE, fn, "rank %zu is too large", rank);
        idx = CLMEM__CAST(size_t *, CLMEM_MALLOC(sizeof(size_t) * (idx_count ? idx_count : 1)));
        bank_of = CLMEM__CAST(cl_uint *, CLMEM_MALLOC(sizeof(cl_uint) * sim));
        inside = CLMEM__CAST(bool *, CLMEM_MALLOC(sizeof(bool) * sim));
        count = CLMEM__CAST(cl_uint *, CLMEM_MALLOC(sizeof(cl_uint) * banks));
        if (!idx || !bank_of || !inside || !count) {
            err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for %u work items of rank %zu", sim, rank);
            goto done;
        }
    }
    /* Axes run fastest first (PyOpenCL reverses the shapes). Addresses are taken modulo
       gran * banks: the bank (addr / gran) % banks is the same, and nothing can wrap. */
    for (wia = 0; wia < rank; ++wia) {
        const size_t mod = (size_t)gran * banks;
        cl_uint m = 0;
        memset(count, 0, sizeof(cl_uint) * banks);
        for (wi = 0; wi < sim; ++wi) {
            size_t addr = 0, mult = itemsize % mod, left = wi;
            size_t *id = idx + wi * rank;
            for (ax = 0; ax < rank; ++ax) {
                size_t sh = shape[rank - 1 - ax], st = stored_shape[rank - 1 - ax];
                if (ax >= wia) {
                    size_t i = left % sh;
                    left /= sh;
                    addr = (addr + mult * (i % mod)) % mod;
                    id[ax] = i;
                } else {
                    id[ax] = 0;
                }
                mult = (mult * (st % mod)) % mod;
            }
            inside[wi] = left == 0; /* out of bounds: assume it does not take place */
            if (inside[wi]) {
                bank_of[wi] = (cl_uint)((addr / gran) % banks);
                if (++count[bank_of[wi]] > m) m = count[bank_of[wi]];
            }
        }
        if (m <= 1) continue;
        for (b = 0; b < banks; ++b) {
            bool first = true;
            if (count[b] != m) continue;
            sb.len = 0;
            clmem__sb_printf(&sb, "%ux conflict on axis %zu (from right, 0-based): ", m, wia);
            for (wi = 0; wi < sim; ++wi) {
                if (!inside[wi] || bank_of[wi] != b) continue;
                clmem__sb_printf(&sb, "%sw.item %zu -> [", first ? "" : ", ", wi);
                for (ax = rank; ax-- > 0;) clmem__sb_printf(&sb, "%zu%s", idx[wi * rank + ax], ax ? ", " : "");
                clmem__sb_printf(&sb, "]");
                first = false;
            }
            clmem__sb_printf(&sb, " access bank %zu", b);
            if (sb.oom) {
                err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for the explanation");
                goto done;
            }
            /* max() over (multiplicity, text) tuples */
            if (best == NULL || m > best_m || (m == best_m && strcmp(sb.p, best) > 0)) {
                char *copy = CLMEM__CAST(char *, CLMEM_MALLOC(sb.len + 1));
                if (!copy) {
                    err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for the explanation");
                    goto done;
                }
                memcpy(copy, sb.p, sb.len + 1);
                CLMEM_FREE(best);
                best = copy;
                best_m = m;
            }
        }
    }
    *multiplicity = best_m;
    need = best ? strlen(best) + 1 : 1;
    if (size_ret) *size_ret = need;
    if (explanation) {
        if (size < need) {
            err = clmem__fail(CL_INVALID_VALUE, fn, "size %zu is too small for the explanation: %zu bytes needed", size,
                              need);
            goto done;
        }
        memcpy(explanation, best ? best : "", need);
    }
done:
    CLMEM_FREE(sb.p);
    CLMEM_FREE(best);
    CLMEM_FREE(idx);
    CLMEM_FREE(bank_of);
    CLMEM_FREE(inside);
    CLMEM_FREE(count);
    return err;
}

CLMEM_API cl_int clmem_why_not_local_access_conflict_free(cl_device_id dev, size_t itemsize, size_t rank,
                                                          const size_t *shape, const size_t *stored_shape,
                                                          cl_uint *multiplicity, char *explanation, size_t size,
                                                          size_t *size_ret) {
    static const char *const fn = "clmem_why_not_local_access_conflict_free";
    CLMEM__DEVICE_FORM(fn, multiplicity,
                       clmem__conflicts(fn, d_, itemsize, rank, shape, stored_shape, multiplicity, explanation, size,
                                        size_ret));
}
CLMEM_API cl_int clmem_why_not_local_access_conflict_free_desc(const clmem_device_description *d, size_t itemsize,
                                                               size_t rank, const size_t *shape,
                                                               const size_t *stored_shape, cl_uint *multiplicity,
                                                               char *explanation, size_t size, size_t *size_ret) {
    static const char *const fn = "clmem_why_not_local_access_conflict_free_desc";
    CLMEM__DESC_CHECK(fn, d, multiplicity);
    return clmem__conflicts(fn, d, itemsize, rank, shape, stored_shape, multiplicity, explanation, size, size_ret);
}

/* ---- SVM ---- */

/* PyOpenCL's _may_have_svm */
static bool clmem__may_have_svm(const char *fn, const clmem_device_description *d) {
    int major = 0, minor = 0;
#ifndef CL_VERSION_2_0
    return false; /* OpenCL headers before 2.0 */
#endif
    if (clmem__is_pocl(d)) {
        if (clmem__parse_pocl_version(d->platform_version, &major, &minor)) return major >= 1;
        clmem__warn(fn, "PoCL version number did not have expected format: '%s'; using the OpenCL version",
                    d->platform_version);
    }
    return clmem__parse_opencl_version(d->platform_version) >= 200;
}

static cl_int clmem__svm(const char *fn, const clmem_device_description *d, cl_bitfield bits, bool *yes) {
    *yes = clmem__may_have_svm(fn, d) && (d->svm_capabilities & bits) == bits;
    return CL_SUCCESS;
}

#define CLMEM__SVM_FN(name, bits)                                                                  \
    static cl_int clmem__##name(const char *fn, const clmem_device_description *d, bool *yes) {    \
        return clmem__svm(fn, d, bits, yes);                                                       \
    }                                                                                              \
    CLMEM__DEVICE_FORMS(name, bool, yes, clmem__##name)
CLMEM__SVM_FN(has_coarse_grain_buffer_svm, CLMEM__CAP_SVM_COARSE)
CLMEM__SVM_FN(has_fine_grain_buffer_svm, CLMEM__CAP_SVM_FINE_BUFFER)
CLMEM__SVM_FN(has_fine_grain_system_svm, CLMEM__CAP_SVM_FINE_SYSTEM)
CLMEM__SVM_FN(has_fine_grain_buffer_svm_atomics, CLMEM__CAP_SVM_FINE_BUFFER | CLMEM__CAP_SVM_ATOMICS)
CLMEM__SVM_FN(has_fine_grain_system_svm_atomics, CLMEM__CAP_SVM_FINE_SYSTEM | CLMEM__CAP_SVM_ATOMICS)
#undef CLMEM__SVM_FN
