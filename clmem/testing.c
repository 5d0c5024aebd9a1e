/* >>testing (implementation) */

#include <ctype.h>
#include <errno.h>

/* clmem__spec_int(text, len, &value): Python int() on a piece of the spec: optional
   surrounding spaces, an optional sign, decimal digits. */
static bool clmem__spec_int(const char *s, size_t len, long *value) {
    size_t i = 0, end = len;
    bool neg = false, digits = false;
    long v = 0;
    while (i < end && isspace((unsigned char)s[i])) ++i;
    while (end > i && isspace((unsigned char)s[end - 1])) --end;
    if (i < end && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    for (; i < end; ++i) {
        if (!isdigit((unsigned char)s[i])) return false;
        if (v > 100000000L) return false;
        v = v * 10 + (s[i] - '0');
        digits = true;
    }
    if (!digits) return false;
    *value = neg ? -v : v;
    return true;
}

/* clmem__spec_match(ident, len, name, vendor): ident (case-insensitive) is a substring
   of "name vendor". An empty ident matches everything. */
static bool clmem__spec_match(const char *ident, size_t len, const char *name, const char *vendor) {
    char hay[512];
    size_t n, i, j;
    snprintf(hay, sizeof hay, "%s %s", name, vendor);
    n = strlen(hay);
    if (len == 0) return true;
    for (i = 0; i + len <= n; ++i) {
        for (j = 0; j < len; ++j)
            if (tolower((unsigned char)hay[i + j]) != tolower((unsigned char)ident[j])) break;
        if (j == len) return true;
    }
    return false;
}

/* clmem__spec_pick(fn, what, ident, len, names, vendors, count, &index): resolve one
   identifier (index or name) among count objects. */
static cl_int clmem__spec_pick(const char *fn, const char *what, const char *ident, size_t len, char (*names)[256],
                               char (*vendors)[256], size_t count, size_t *index) {
    long v;
    size_t i;
    if (clmem__spec_int(ident, len, &v)) {
        long idx = v < 0 ? (long)count + v : v;
        if (idx < 0 || (size_t)idx >= count)
            return clmem__fail(CLMEM_ERROR_NOT_FOUND, fn, "%s index %ld is out of range (there are %zu)", what, v, count);
        *index = (size_t)idx;
        return CL_SUCCESS;
    }
    for (i = 0; i < count; ++i) {
        if (clmem__spec_match(ident, len, names[i], vendors[i])) {
            *index = i;
            return CL_SUCCESS;
        }
    }
    return clmem__fail(CLMEM_ERROR_NOT_FOUND, fn, "%s '%.*s' not found", what, (int)len, ident);
}

static void clmem__spec_store(clmem_test_device *out, size_t capacity, size_t *count, cl_platform_id p, cl_device_id d) {
    if (*count < capacity && out) {
        out[*count].platform = p;
        out[*count].device = d;
    }
    ++*count;
}

CLMEM_API cl_int clmem_get_test_platforms_and_devices(const char *spec, clmem_test_device *out, size_t capacity,
                                                       size_t *count) {
    static const char fn[] = "clmem_get_test_platforms_and_devices";
    cl_platform_id plats[32];
    char (*pnames)[256] = NULL, (*pvendors)[256] = NULL, (*dnames)[256] = NULL, (*dvendors)[256] = NULL;
    cl_device_id devs[64];
    cl_uint np = 0, nd = 0, i;
    cl_int err = CL_SUCCESS;
    size_t total = 0;
    const char *entry;

    if (!count) return clmem__fail(CL_INVALID_VALUE, fn, "count is NULL");
    *count = 0;
    if (!spec) {
        spec = getenv("CLMEM_TEST");
        if (!spec) spec = getenv("PYOPENCL_TEST");
        if (!spec) spec = "";
    }
    err = clGetPlatformIDs(32, plats, &np);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && np == 0))
        return clmem__fail(CL_DEVICE_NOT_FOUND, fn, "no OpenCL platform is installed (is an ICD such as PoCL present?)");
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetPlatformIDs");
    if (np > 32) np = 32;
    pnames = CLMEM__CAST(char(*)[256], CLMEM_MALLOC(sizeof(char[256]) * 4 * 64));
    if (!pnames) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory");
    pvendors = pnames + 32;
    dnames = pnames + 64;
    dvendors = pnames + 128;
    for (i = 0; i < np; ++i) {
        pnames[i][0] = pvendors[i][0] = '\0';
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, 255, pnames[i], NULL);
        clGetPlatformInfo(plats[i], CL_PLATFORM_VENDOR, 255, pvendors[i], NULL);
        pnames[i][255] = pvendors[i][255] = '\0';
    }

    entry = spec;
    if (*spec == '\0') { /* everything */
        for (i = 0; i < np; ++i) {
            cl_uint j;
            if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS) continue;
            for (j = 0; j < nd && j < 64; ++j) clmem__spec_store(out, capacity, &total, plats[i], devs[j]);
        }
        goto done;
    }
    for (;;) {
        const char *end = strchr(entry, ';'), *sep = NULL, *p;
        size_t len = end ? (size_t)(end - entry) : strlen(entry), pi = 0;
        unsigned seps = 0;
        for (p = entry; p < entry + len; ++p)
            if (*p == ':' || *p == '=') {
                if (!sep) sep = p;
                ++seps;
            }
        if (seps > 1) {
            err = clmem__fail(CLMEM_ERROR_INVALID_TEST_SPEC, fn,
                              "entry '%.*s' of '%s' has more than one ':' (write PLATFORM:DEV,DEV;PLATFORM)", (int)len,
                              entry, spec);
            goto done;
        }
        err = clmem__spec_pick(fn, "platform", entry, sep ? (size_t)(sep - entry) : len, pnames, pvendors, np, &pi);
        if (err != CL_SUCCESS) goto done;
        nd = 0;
        if (clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS) nd = 0;
        if (nd > 64) nd = 64;
        if (!sep) {
            for (i = 0; i < nd; ++i) clmem__spec_store(out, capacity, &total, plats[pi], devs[i]);
        } else {
            const char *d = sep + 1, *stop = entry + len;
            for (i = 0; i < nd; ++i) {
                dnames[i][0] = dvendors[i][0] = '\0';
                clGetDeviceInfo(devs[i], CL_DEVICE_NAME, 255, dnames[i], NULL);
                clGetDeviceInfo(devs[i], CL_DEVICE_VENDOR, 255, dvendors[i], NULL);
                dnames[i][255] = dvendors[i][255] = '\0';
            }
            for (;;) {
                const char *comma = memchr(d, ',', (size_t)(stop - d));
                size_t dlen = comma ? (size_t)(comma - d) : (size_t)(stop - d), di = 0;
                err = clmem__spec_pick(fn, "device", d, dlen, dnames, dvendors, nd, &di);
                if (err != CL_SUCCESS) goto done;
                clmem__spec_store(out, capacity, &total, plats[pi], devs[di]);
                if (!comma) break;
                d = comma + 1;
            }
        }
        if (!end) break;
        entry = end + 1;
    }
done:
    CLMEM_FREE(pnames);
    *count = err == CL_SUCCESS ? total : 0;
    return err;
}

/* ---- the runner ---- */

CLMEM_API void clmem_test_skip(clmem_test_context *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->skip_reason, sizeof t->skip_reason, fmt, ap);
    va_end(ap);
    if (!t->skip_reason[0]) snprintf(t->skip_reason, sizeof t->skip_reason, "skipped");
}

CLMEM_API void clmem_test_fail(clmem_test_context *t, const char *file, int line, const char *fmt, ...) {
    va_list ap;
    fprintf(stdout, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    t->failed = 1;
}

static cl_command_queue clmem__test_queue(cl_context ctx, cl_device_id dev, cl_int *err) {
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    if (clmem__device_version(dev) >= 200) return clCreateCommandQueueWithProperties(ctx, dev, NULL, err);
    return clCreateCommandQueue(ctx, dev, 0, err);
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
}

CLMEM_API int clmem_test_main(const clmem_test_case *cases, size_t n, int argc, char **argv) {
    clmem_test_device devs[64];
    size_t ndev = 0, c, d;
    unsigned passed = 0, failed = 0, skipped = 0;
    const char *filter = argc > 1 ? argv[1] : NULL;
    cl_int err = clmem_get_test_platforms_and_devices(NULL, devs, 64, &ndev);
    bool need_devices = false;
    for (c = 0; c < n; ++c) need_devices = need_devices || !cases[c].no_device;
    if (need_devices && err != CL_SUCCESS) {
        printf("clmem test: cannot select devices: %s\n", clmem_last_error_message());
        return 1;
    }
    if (ndev > 64) ndev = 64;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (c = 0; c < n; ++c) {
        size_t runs = cases[c].no_device ? 1 : ndev;
        if (filter && !strstr(cases[c].name, filter)) continue;
        for (d = 0; d < runs; ++d) {
            clmem_test_context t;
            memset(&t, 0, sizeof t);
            if (!cases[c].no_device) {
                char dn[96] = {0}, pn[56] = {0};
                cl_context_properties props[3];
                t.platform = devs[d].platform;
                t.device = devs[d].device;
                clGetDeviceInfo(t.device, CL_DEVICE_NAME, sizeof dn - 1, dn, NULL);
                clGetPlatformInfo(t.platform, CL_PLATFORM_NAME, sizeof pn - 1, pn, NULL);
                snprintf(t.device_name, sizeof t.device_name, "%s on %s", dn, pn);
                props[0] = CL_CONTEXT_PLATFORM;
                props[1] = (cl_context_properties)t.platform;
                props[2] = 0;
                t.context = clCreateContext(props, 1, &t.device, NULL, NULL, &err);
                if (err == CL_SUCCESS) t.queue = clmem__test_queue(t.context, t.device, &err);
                if (err != CL_SUCCESS) {
                    printf("FAIL %s [%s]: cannot create a context and queue: %s\n", cases[c].name, t.device_name,
                           clmem_error_string(err));
                    ++failed;
                    if (t.context) clReleaseContext(t.context);
                    continue;
                }
            } else {
                snprintf(t.device_name, sizeof t.device_name, "no device");
            }
            clmem_clear_error();
            cases[c].fn(&t);
            if (t.queue) {
                clFinish(t.queue);
                clReleaseCommandQueue(t.queue);
            }
            if (t.context) clReleaseContext(t.context);
            if (t.failed) {
                printf("FAIL %s [%s]\n", cases[c].name, t.device_name);
                ++failed;
            } else if (t.skip_reason[0]) {
                printf("skip %s [%s]: %s\n", cases[c].name, t.device_name, t.skip_reason);
                ++skipped;
            } else {
                printf("ok   %s [%s]\n", cases[c].name, t.device_name);
                ++passed;
            }
        }
    }
    printf("%u passed, %u failed, %u skipped\n", passed, failed, skipped);
    if (failed) return 1;
    if (passed == 0) return 77;
    return 0;
}
