/* >>testing (implementation) */
#include "testing.h"
#include "cache.h"

#include <ctype.h>
#include <errno.h>

/* Under LeakSanitizer (-fsanitize=address or leak) the runner checks for leaks itself,
   once, when its cases are done and every object they made is released, instead of
   leaving it to LSan's at-exit hook. At exit, LSan's stop-the-world tracer ran while
   the process was in its exit handlers (LLVM's and PoCL's static destructors run
   before LSan's hook) and crashed at random under load ("Tracer caught signal 11",
   2 of 2 full sanitizer runs, 0 of 10 single runs). Checking before exit() gives one
   fixed point with the driver idle; the at-exit check then does nothing. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_LEAK__)
#define CLMEM__LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define CLMEM__LSAN 1
#endif
#endif
#ifdef CLMEM__LSAN
#include <sanitizer/lsan_interface.h>
#define CLMEM__LEAK_CHECK() __lsan_do_leak_check()
#else
#define CLMEM__LEAK_CHECK() ((void)0)
#endif

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
static cl_int clmem__spec_pick(const char *fn, const char *what, const char *ident, size_t len,
                               const char *const *names, const char *const *vendors, size_t count, size_t *index) {
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
        if (clmem__spec_match(ident, len, names[i] ? names[i] : "", vendors && vendors[i] ? vendors[i] : "")) {
            *index = i;
            return CL_SUCCESS;
        }
    }
    return clmem__fail(CLMEM_ERROR_NOT_FOUND, fn, "%s '%.*s' not found", what, (int)len, ident);
}

/* Triples (platform, device, group) go into out, `width` (2 or 3) numbers each. */
static void clmem__spec_store(size_t *out, size_t width, size_t capacity, size_t *count, size_t p, size_t d, size_t g) {
    if (*count < capacity && out) {
        out[*count * width] = p;
        out[*count * width + 1] = d;
        if (width > 2) out[*count * width + 2] = g;
    }
    ++*count;
}

/* clmem__spec_set(...): one devset of an entry ("2", "0+1", "*") of platform pi,
   stored as one group. */
static cl_int clmem__spec_set(const char *fn, const char *spec, const char *set, const char *stop,
                              const clmem_test_spec_platform *plat, size_t pi, size_t *out, size_t width,
                              size_t capacity, size_t *total, size_t group) {
    size_t seen[64], nseen = 0, i;
    const char *d = set, *p;
    for (p = set; p < stop && isspace((unsigned char)*p); ++p) {}
    if (memchr(set, '*', (size_t)(stop - set))) {
        const char *q = p + 1;
        while (q < stop && isspace((unsigned char)*q)) ++q;
        if (*p != '*' || q != stop)
            return clmem__fail(CLMEM_ERROR_INVALID_TEST_SPEC, fn,
                               "'%.*s' in \"%s\": '*' (every device in one context) stands alone", (int)(stop - set),
                               set, spec);
        for (i = 0; i < plat->num_devices; ++i) clmem__spec_store(out, width, capacity, total, pi, i, group);
        return CL_SUCCESS;
    }
    for (;;) {
        const char *plus = CLMEM__CAST(const char *, memchr(d, '+', (size_t)(stop - d)));
        size_t dlen = plus ? (size_t)(plus - d) : (size_t)(stop - d), di = 0;
        cl_int err = clmem__spec_pick(fn, "device", d, dlen, plat->device_names, plat->device_vendors,
                                      plat->num_devices, &di);
        if (err != CL_SUCCESS) return err;
        /* one device twice in one context: typically a name that matched the first of
           several devices of that name ("pthread+pthread") */
        for (i = 0; i < nseen; ++i)
            if (seen[i] == di)
                return clmem__fail(CLMEM_ERROR_INVALID_TEST_SPEC, fn,
                                   "'%.*s' in \"%s\" puts device %zu in one context twice (a name selects the first "
                                   "device it matches; use indices, e.g. 0+1)",
                                   (int)(stop - set), set, spec, di);
        if (nseen == sizeof seen / sizeof seen[0])
            return clmem__fail(CLMEM_ERROR_INVALID_TEST_SPEC, fn, "'%.*s' in \"%s\" joins more than %zu devices",
                               (int)(stop - set), set, spec, sizeof seen / sizeof seen[0]);
        seen[nseen++] = di;
        clmem__spec_store(out, width, capacity, total, pi, di, group);
        if (!plus) break;
        d = plus + 1;
    }
    return CL_SUCCESS;
}

static cl_int clmem__spec_resolve(const char *spec, const clmem_test_spec_platform *platforms, size_t n, size_t *out,
                                  size_t width, size_t capacity, size_t *count) {
    static const char fn[] = "clmem_get_test_platforms_and_devices";
    const char *pnames[64], *pvendors[64];
    const char *entry = spec;
    size_t total = 0, group = 0, i;
    cl_int err = CL_SUCCESS;
    if (!count) return clmem__fail(CL_INVALID_VALUE, fn, "count is NULL");
    *count = 0;
    if (!spec) return clmem__fail(CL_INVALID_VALUE, fn, "spec is NULL");
    if (n > 64) n = 64;
    for (i = 0; i < n; ++i) {
        pnames[i] = platforms[i].name ? platforms[i].name : "";
        pvendors[i] = platforms[i].vendor ? platforms[i].vendor : "";
    }
    if (*spec == '\0') {
        size_t j;
        for (i = 0; i < n; ++i)
            for (j = 0; j < platforms[i].num_devices; ++j) clmem__spec_store(out, width, capacity, &total, i, j, group++);
        *count = total;
        return CL_SUCCESS;
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
        if (seps > 1)
            return clmem__fail(CLMEM_ERROR_INVALID_TEST_SPEC, fn,
                               "entry '%.*s' of \"%s\" has more than one ':' (the form is PLATFORM:DEV,DEV;PLATFORM)",
                               (int)len, entry, spec);
        err = clmem__spec_pick(fn, "platform", entry, sep ? (size_t)(sep - entry) : len, pnames, pvendors, n, &pi);
        if (err != CL_SUCCESS) return err;
        if (!sep) {
            for (i = 0; i < platforms[pi].num_devices; ++i)
                clmem__spec_store(out, width, capacity, &total, pi, i, group++);
        } else {
            const char *d = sep + 1, *stop = entry + len;
            for (;;) {
                const char *comma = CLMEM__CAST(const char *, memchr(d, ',', (size_t)(stop - d)));
                err = clmem__spec_set(fn, spec, d, comma ? comma : stop, &platforms[pi], pi, out, width, capacity,
                                      &total, group++);
                if (err != CL_SUCCESS) return err;
                if (!comma) break;
                d = comma + 1;
            }
        }
        if (!end) break;
        entry = end + 1;
    }
    *count = total;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_test_spec_resolve(const char *spec, const clmem_test_spec_platform *platforms, size_t n,
                                         size_t (*out)[2], size_t capacity, size_t *count) {
    return clmem__spec_resolve(spec, platforms, n, out ? out[0] : NULL, 2, capacity, count);
}

CLMEM_API cl_int clmem_test_spec_resolve_groups(const char *spec, const clmem_test_spec_platform *platforms, size_t n,
                                                size_t (*out)[3], size_t capacity, size_t *count) {
    return clmem__spec_resolve(spec, platforms, n, out ? out[0] : NULL, 3, capacity, count);
}

CLMEM_API cl_int clmem_get_test_platforms_and_devices(const char *spec, clmem_test_device *out, size_t capacity,
                                                       size_t *count) {
    static const char fn[] = "clmem_get_test_platforms_and_devices";
    enum { MAXP = 16, MAXD = 32 };
    struct names { char p[MAXP][2][128]; char d[MAXP][MAXD][2][128]; const char *dn[MAXP][MAXD], *dv[MAXP][MAXD]; };
    cl_platform_id plats[MAXP];
    cl_device_id devs[MAXP][MAXD];
    clmem_test_spec_platform desc[MAXP];
    struct names *nm;
    size_t (*pairs)[3] = NULL;
    size_t total = 0, i, j;
    cl_uint np = 0;
    cl_int err;
    if (!count) return clmem__fail(CL_INVALID_VALUE, fn, "count is NULL");
    *count = 0;
    if (!spec) {
        spec = getenv("CLMEM_TEST");
        if (!spec) spec = getenv("PYOPENCL_TEST");
        if (!spec) spec = "";
    }
    err = clGetPlatformIDs(MAXP, plats, &np);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && np == 0))
        return clmem__fail(CL_DEVICE_NOT_FOUND, fn, "no OpenCL platform is installed (is an ICD such as PoCL present?)");
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetPlatformIDs");
    if (np > MAXP) np = MAXP;
    nm = CLMEM__CAST(struct names *, CLMEM_MALLOC(sizeof *nm));
    if (!nm) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory");
    memset(nm, 0, sizeof *nm);
    for (i = 0; i < np; ++i) {
        cl_uint nd = 0;
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, 127, nm->p[i][0], NULL);
        clGetPlatformInfo(plats[i], CL_PLATFORM_VENDOR, 127, nm->p[i][1], NULL);
        err = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, MAXD, devs[i], &nd);
        if (err == CL_DEVICE_NOT_FOUND) nd = 0; /* the one code that means "no devices" */
        else if (err != CL_SUCCESS) {           /* a broken driver is a failure, not a skip */
            err = clmem__fail(err, fn, "clGetDeviceIDs on platform %u ('%s') failed with %s (%d)", (unsigned)i,
                              nm->p[i][0], clmem_error_string(err), (int)err);
            CLMEM_FREE(nm);
            return err;
        }
        if (nd > MAXD) nd = MAXD;
        for (j = 0; j < nd; ++j) {
            clGetDeviceInfo(devs[i][j], CL_DEVICE_NAME, 127, nm->d[i][j][0], NULL);
            clGetDeviceInfo(devs[i][j], CL_DEVICE_VENDOR, 127, nm->d[i][j][1], NULL);
            nm->dn[i][j] = nm->d[i][j][0];
            nm->dv[i][j] = nm->d[i][j][1];
        }
        desc[i].name = nm->p[i][0];
        desc[i].vendor = nm->p[i][1];
        desc[i].num_devices = nd;
        desc[i].device_names = nm->dn[i];
        desc[i].device_vendors = nm->dv[i];
    }
    err = clmem_test_spec_resolve_groups(spec, desc, np, NULL, 0, &total);
    if (err == CL_SUCCESS && total > 0) {
        pairs = CLMEM__CAST(size_t(*)[3], CLMEM_MALLOC(sizeof(size_t[3]) * total));
        if (!pairs) err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory");
        else err = clmem_test_spec_resolve_groups(spec, desc, np, pairs, total, &total);
    }
    if (err == CL_SUCCESS) {
        for (i = 0; i < total && i < capacity && out; ++i) {
            out[i].platform = plats[pairs[i][0]];
            out[i].device = devs[pairs[i][0]][pairs[i][1]];
            out[i].group = pairs[i][2];
        }
        *count = total;
    }
    CLMEM_FREE(pairs);
    CLMEM_FREE(nm);
    return err;
}

/* ---- the runner ---- */

CLMEM_API void clmem_test_skip(clmem_test_context *t, const char *fmt, ...) {
    va_list ap;
    if (!t) {
        clmem__fail(CL_INVALID_VALUE, "clmem_test_skip", "t (the running case's context) is NULL; nothing is skipped");
        return;
    }
    t->skip_reason[0] = '\0';
    if (fmt) {
        va_start(ap, fmt);
        vsnprintf(t->skip_reason, sizeof t->skip_reason, fmt, ap);
        va_end(ap);
    }
    if (!t->skip_reason[0]) snprintf(t->skip_reason, sizeof t->skip_reason, "skipped");
}

CLMEM_API void clmem_test_fail(clmem_test_context *t, const char *file, int line, const char *fmt, ...) {
    va_list ap;
    fprintf(stdout, "    %s:%d: ", file ? file : "?", line);
    if (fmt) {
        va_start(ap, fmt);
        vfprintf(stdout, fmt, ap);
        va_end(ap);
    } else {
        fputs("failed (no message)", stdout);
    }
    fputc('\n', stdout);
    if (t) t->failed = 1;
    else
        clmem__fail(CL_INVALID_VALUE, "clmem_test_fail", "t (the running case's context) is NULL; the failure above "
                    "is printed but no case is marked failed");
}

static cl_command_queue clmem__test_queue(cl_context ctx, cl_device_id dev, cl_int *err) {
    return clmem__default_queue("clmem_test_main", ctx, dev, "the case's queue", err);
}

/* clmem__test_group_name(t): "NAME on PLATFORM", "2 x NAME on PLATFORM" (devices of
   one name; "sub-devices" when they have a parent) or "A + B on PLATFORM". */
static void clmem__test_group_name(clmem_test_context *t) {
    char dn[96] = {0}, other[96] = {0}, pn[56] = {0}, list[112] = {0};
    size_t i, used = 0;
    bool same = true;
    clGetDeviceInfo(t->devices[0], CL_DEVICE_NAME, sizeof dn - 1, dn, NULL);
    clGetPlatformInfo(t->platform, CL_PLATFORM_NAME, sizeof pn - 1, pn, NULL);
    for (i = 1; i < t->num_devices; ++i) {
        memset(other, 0, sizeof other);
        clGetDeviceInfo(t->devices[i], CL_DEVICE_NAME, sizeof other - 1, other, NULL);
        same = same && strcmp(other, dn) == 0;
    }
    if (t->num_devices == 1) {
        snprintf(t->device_name, sizeof t->device_name, "%s on %s", dn, pn);
        return;
    }
    if (same) {
        cl_device_id parent = NULL;
#ifdef CL_VERSION_1_2
        clGetDeviceInfo(t->devices[0], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL);
#endif
        snprintf(t->device_name, sizeof t->device_name, "%u x %.80s%s on %s", (unsigned)t->num_devices, dn,
                 parent ? " (sub-devices)" : "", pn);
        return;
    }
    for (i = 0; i < t->num_devices && used + 1 < sizeof list; ++i) {
        int w;
        memset(other, 0, sizeof other);
        clGetDeviceInfo(t->devices[i], CL_DEVICE_NAME, sizeof other - 1, other, NULL);
        w = snprintf(list + used, sizeof list - used, "%s%.40s", i ? " + " : "", other);
        if (w < 0) break;
        used += (size_t)w;
    }
    snprintf(t->device_name, sizeof t->device_name, "%.110s on %.45s", list, pn);
}

/* Runners in progress: a case may run a runner of its own (tests/testing_device_errors.c). */
static int clmem__test_nesting;

/* clmem__test_bad_table(n): cases is NULL with n > 0: said, and the run fails. */
static int clmem__test_bad_table(size_t n) {
    printf("clmem test: cases is NULL but n is %zu\n", n);
    return 1;
}

/* clmem__test_bad_case(cases, c): an entry without a name or a function (a zeroed
   table, a miscounted n) is a failure of the run, said with its index. */
static bool clmem__test_bad_case(const clmem_test_case *cases, size_t c) {
    if (cases[c].name && cases[c].fn) return false;
    printf("FAIL cases[%zu]: %s\n", c, !cases[c].name ? "no name (a zeroed entry, or n too large?)" : "no function");
    return true;
}

CLMEM_API int clmem_test_main(const clmem_test_case *cases, size_t n, int argc, char **argv) {
    clmem_test_device devs[64];
    size_t ndev = 0, c;
    cl_int err;
    bool need_devices = false;
    if (!cases && n > 0) return clmem__test_bad_table(n);
    err = clmem_get_test_platforms_and_devices(NULL, devs, 64, &ndev);
    for (c = 0; c < n; ++c) need_devices = need_devices || !cases[c].no_device;
    if (need_devices && err != CL_SUCCESS) {
        printf("clmem test: cannot select devices: %s\n", clmem_last_error_message());
        return 1;
    }
    if (err != CL_SUCCESS) ndev = 0;
    if (ndev > 64) {
        printf("clmem test: CLMEM_TEST selects %zu devices; the runner takes the first 64\n", ndev);
        ndev = 64;
    }
    return clmem_test_main_on(cases, n, argc, argv, devs, ndev);
}

CLMEM_API int clmem_test_main_on(const clmem_test_case *cases, size_t n, int argc, char **argv,
                                 const clmem_test_device *devs, size_t ndev) {
    size_t c, g, ngroups = 0, starts[65];
    unsigned passed = 0, failed = 0, skipped = 0;
    const char *filter = argc > 1 && argv ? argv[1] : NULL;
    cl_int err;
    if (!cases && n > 0) return clmem__test_bad_table(n);
    if (!devs) ndev = 0;
    if (ndev > 64) ndev = 64;
    /* the contexts: runs of consecutive entries with the same group */
    for (g = 0; g < ndev; ++g)
        if (g == 0 || devs[g].group != devs[g - 1].group) starts[ngroups++] = g;
    starts[ngroups] = ndev;
    ++clmem__test_nesting;
    {   /* once: setvbuf may only come before other output (a test may run a runner inside) */
        static bool buffered = false;
        if (!buffered) setvbuf(stdout, NULL, _IOLBF, 0);
        buffered = true;
    }
    for (c = 0; c < n; ++c) {
        size_t runs = cases[c].no_device ? 1 : ngroups;
        if (clmem__test_bad_case(cases, c)) {
            ++failed;
            continue;
        }
        if (filter && !strstr(cases[c].name, filter)) continue;
        for (g = 0; g < runs; ++g) {
            clmem_test_context t;
            size_t q;
            memset(&t, 0, sizeof t);
            if (!cases[c].no_device) {
                cl_context_properties props[3];
                size_t first = starts[g], count = starts[g + 1] - starts[g];
                err = CL_SUCCESS;
                t.platform = devs[first].platform;
                if (count > CLMEM_TEST_MAX_DEVICES) {
                    printf("FAIL %s: a context of %zu devices (the runner takes at most %d)\n", cases[c].name, count,
                           CLMEM_TEST_MAX_DEVICES);
                    ++failed;
                    continue;
                }
                for (q = 0; q < count; ++q) {
                    t.devices[q] = devs[first + q].device;
                    if (devs[first + q].platform != t.platform) err = CL_INVALID_PLATFORM;
                }
                t.num_devices = count;
                t.device = t.devices[0];
                clmem__test_group_name(&t);
                if (err != CL_SUCCESS) {
                    printf("FAIL %s [%s]: the devices of one context are of different platforms\n", cases[c].name,
                           t.device_name);
                    ++failed;
                    continue;
                }
                props[0] = CL_CONTEXT_PLATFORM;
                props[1] = (cl_context_properties)t.platform;
                props[2] = 0;
                clmem_clear_first_arg_caches(); /* as PyOpenCL's ctx_factory: a fresh start per case */
                t.context = clCreateContext(props, (cl_uint)count, t.devices, NULL, NULL, &err);
                for (q = 0; q < count && err == CL_SUCCESS; ++q) t.queues[q] = clmem__test_queue(t.context, t.devices[q], &err);
                t.queue = t.queues[0];
                if (err != CL_SUCCESS) {
                    printf("FAIL %s [%s]: cannot create a context and queues: %s\n", cases[c].name, t.device_name,
                           clmem_error_string(err));
                    ++failed;
                    for (q = 0; q < count; ++q)
                        if (t.queues[q]) clReleaseCommandQueue(t.queues[q]);
                    if (t.context) clReleaseContext(t.context);
                    continue;
                }
            } else {
                snprintf(t.device_name, sizeof t.device_name, "no device");
            }
            clmem_clear_error();
            cases[c].fn(&t);
            for (q = 0; q < t.num_devices; ++q)
                if (t.queues[q]) clFinish(t.queues[q]);
            for (q = 0; q < t.num_devices; ++q)
                if (t.queues[q]) clReleaseCommandQueue(t.queues[q]);
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
    if (--clmem__test_nesting == 0) CLMEM__LEAK_CHECK(); /* the outermost runner only */
    if (failed) return 1;
    if (passed == 0) return 77;
    return 0;
}
