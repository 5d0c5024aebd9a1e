/* >>testing: CLMEM_TEST device selection and a small test runner
   (PyOpenCL's get_test_platforms_and_devices and its pytest fixture) */

#ifdef __cplusplus
extern "C" {
#endif

/** A (platform, device) pair selected for testing. */
typedef struct clmem_test_device {
    cl_platform_id platform;
    cl_device_id device;
} clmem_test_device;

/** clmem_get_test_platforms_and_devices(spec, out, capacity, &count): the devices a
    test should run on.

    spec: NULL reads the environment: CLMEM_TEST, else PYOPENCL_TEST. Unset or empty
    selects every device of every platform. The grammar (PyOpenCL's):
        spec  := entry (';' entry)*
        entry := platform                      all devices of that platform
               | platform ':' device (',' device)*
    where platform and device are either an integer index (negative counts from the
    end) or text matched, case-insensitively, as a substring of "NAME VENDOR"; the
    first match wins. '=' is accepted in place of ':' (PyOpenCL's documentation
    shows it, its code never accepted it). An empty entry or device selects the first.
    Example: CLMEM_TEST="portable:0;nvidia" or "0:0,1".

    out/capacity: where to store the pairs (out may be NULL with capacity 0 to count).
    count: set to the number of pairs selected (it may exceed capacity; only
    capacity are stored). Returns CL_SUCCESS, CLMEM_ERROR_INVALID_TEST_SPEC (two ':'
    in an entry, an index that is not a number), CLMEM_ERROR_NOT_FOUND (no platform or
    device matches, index out of range), or a driver code; the message says which
    entry and why. A platform whose clGetDeviceIDs answers CL_DEVICE_NOT_FOUND has no
    devices; any other error of it is returned (with the platform named): a broken
    driver fails the tests instead of skipping them.
    Thread safety: any thread (it reads the environment). */
CLMEM_API cl_int clmem_get_test_platforms_and_devices(const char *spec, clmem_test_device *out, size_t capacity,
                                                       size_t *count);

/** A platform as clmem_test_spec_resolve sees it: names only, so the grammar can be
    tested without OpenCL. */
typedef struct clmem_test_spec_platform {
    const char *name;
    const char *vendor;
    size_t num_devices;
    const char *const *device_names;
    const char *const *device_vendors;
} clmem_test_spec_platform;

/** clmem_test_spec_resolve(spec, platforms, n, out, capacity, &count): the pure part
    of clmem_get_test_platforms_and_devices. Applies the CLMEM_TEST grammar to the
    given descriptions and stores (platform index, device index) pairs in out[i][0],
    out[i][1]. spec must not be NULL ("" selects everything). Same errors. */
CLMEM_API cl_int clmem_test_spec_resolve(const char *spec, const clmem_test_spec_platform *platforms, size_t n,
                                         size_t (*out)[2], size_t capacity, size_t *count);

/** What a test case receives: a fresh context and in-order queue on one device. */
typedef struct clmem_test_context {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;           /* NULL for cases that need no device */
    cl_command_queue queue;
    char device_name[160];        /* "DEVICE on PLATFORM" */
    int failed;                   /* set by the CLMEM_CHECK macros */
    char skip_reason[256];        /* set by clmem_test_skip */
} clmem_test_context;

typedef void (*clmem_test_fn)(clmem_test_context *t);

/** One test case. no_device: run once without OpenCL (parsers and other pure code). */
typedef struct clmem_test_case {
    const char *name;
    clmem_test_fn fn;
    bool no_device;
} clmem_test_case;

/** clmem_test_main(cases, n, argc, argv): run every case on every device that
    CLMEM_TEST selects, each with a new context and queue, printing one line per case
    and device ("ok", "FAIL" with the file, line and condition, or "skip" with the
    reason). An optional argv[1] runs only the cases whose name contains it.
    Returns the process exit code: 0 when something passed and nothing failed, 1 on
    any failure, 77 when everything was skipped (CTest's SKIP_RETURN_CODE). */
CLMEM_API int clmem_test_main(const clmem_test_case *cases, size_t n, int argc, char **argv);

/** clmem_test_skip(t, fmt, ...): mark the running case skipped with a reason; the
    case should return right after. */
CLMEM_API void clmem_test_skip(clmem_test_context *t, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** clmem_test_fail(t, file, line, fmt, ...): record a failure (used by the macros). */
CLMEM_API void clmem_test_fail(clmem_test_context *t, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/** CLMEM_CHECK(t, cond): on failure record it and return from the test function. */
#define CLMEM_CHECK(t, cond)                                               \
    do {                                                                   \
        if (!(cond)) {                                                     \
            clmem_test_fail((t), __FILE__, __LINE__, "check failed: %s", #cond); \
            return;                                                        \
        }                                                                  \
    } while (0)

/** CLMEM_CHECK_EQ(t, a, b): integers equal; the failure shows both values. */
#define CLMEM_CHECK_EQ(t, a, b)                                                                     \
    do {                                                                                            \
        long long clmem__a = (long long)(a), clmem__b = (long long)(b);                             \
        if (clmem__a != clmem__b) {                                                                 \
            clmem_test_fail((t), __FILE__, __LINE__, "%s == %s failed: %lld != %lld", #a, #b, clmem__a, clmem__b); \
            return;                                                                                 \
        }                                                                                           \
    } while (0)

/** CLMEM_CHECK_CL(t, expr): expr returns CL_SUCCESS; the failure names the code and
    clmem's last error message. */
#define CLMEM_CHECK_CL(t, expr)                                                                     \
    do {                                                                                            \
        cl_int clmem__e = (expr);                                                                   \
        if (clmem__e != CL_SUCCESS) {                                                               \
            clmem_test_fail((t), __FILE__, __LINE__, "%s returned %s (%d): %s", #expr,              \
                            clmem_error_string(clmem__e), (int)clmem__e, clmem_last_error_message()); \
            return;                                                                                 \
        }                                                                                           \
    } while (0)

/** CLMEM_CHECK_ERR(t, expr, code): expr returns exactly `code`, and clmem left a
    message naming the failing function (a rejection must say why). */
#define CLMEM_CHECK_ERR(t, expr, code)                                                              \
    do {                                                                                            \
        cl_int clmem__e;                                                                            \
        clmem_clear_error();                                                                        \
        clmem__e = (expr);                                                                          \
        if (clmem__e != (code)) {                                                                   \
            clmem_test_fail((t), __FILE__, __LINE__, "%s returned %s (%d), expected %s (%d): %s", #expr, \
                            clmem_error_string(clmem__e), (int)clmem__e, clmem_error_string(code), (int)(code), \
                            clmem_last_error_message());                                            \
            return;                                                                                 \
        }                                                                                           \
        if ((code) != CL_SUCCESS && clmem_last_error_message()[0] == '\0') {                        \
            clmem_test_fail((t), __FILE__, __LINE__, "%s returned %s but left no message", #expr,   \
                            clmem_error_string(clmem__e));                                          \
            return;                                                                                 \
        }                                                                                           \
    } while (0)

#ifdef __cplusplus
}
#endif
