/* >>testing: CLMEM_TEST device selection and a small test runner
   (PyOpenCL's get_test_platforms_and_devices and its pytest fixture) */
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The most devices one test context holds (CLMEM_TEST's "0+1" and "*" forms). */
#define CLMEM_TEST_MAX_DEVICES 16

/** A (platform, device) pair selected for testing. `group` numbers the contexts:
    consecutive entries with the same group share one context (CLMEM_TEST's
    "PLATFORM:0+1"); a plain entry has a group of its own. */
typedef struct clmem_test_device {
    cl_platform_id platform;
    cl_device_id device;
    size_t group;
} clmem_test_device;

/** clmem_get_test_platforms_and_devices(spec, out, capacity, &count): the devices a
    test should run on.

    spec: NULL reads the environment: CLMEM_TEST, else PYOPENCL_TEST. Unset or empty
    selects every device of every platform. The grammar (PyOpenCL's, plus '+' and '*'):
        spec   := entry (';' entry)*
        entry  := platform                     all devices of that platform, each in a
                                               context of its own
                | platform ':' devset (',' devset)*
        devset := device                       that device alone in a context
                | device ('+' device)+         those devices together in one context
                | '*'                          all devices of the platform in one context
    where platform and device are either an integer index (negative counts from the
    end) or text matched, case-insensitively, as a substring of "NAME VENDOR"; the
    first match wins. '=' is accepted in place of ':' (PyOpenCL's documentation
    shows it, its code never accepted it). An empty entry or device selects the first.
    ',' keeps PyOpenCL's meaning (one run per device); '+' is clmem's addition: a
    context holding several devices (PyOpenCL's tests never make one), with the
    devices in the order given and each device at most once per context.
    For example CLMEM_TEST="portable:0;nvidia", "0:0,1" (two runs), "nvidia:0+1" (one
    run on a context of GPUs 0 and 1), "nvidia:*" (one run, every NVIDIA device),
    "0:0+1,0" (a 2-device context, then device 0 alone). Devices with the same name
    (PoCL with POCL_DEVICES="pthread pthread") are told apart by index only:
    "portable:0+1", not "portable:pthread+pthread".

    out/capacity: where to store the pairs (out may be NULL with capacity 0 to count).
    count: set to the number of pairs selected (it may exceed capacity; only
    capacity are stored). The devices of one context are consecutive and share
    out[i].group. Returns CL_SUCCESS, CLMEM_ERROR_INVALID_TEST_SPEC (two ':' in an
    entry, '*' joined with other devices by '+', one device twice in a '+' set),
    CLMEM_ERROR_NOT_FOUND (no platform or device matches, index out of range), or a
    driver code; the message says which entry and why. A platform whose
    clGetDeviceIDs answers CL_DEVICE_NOT_FOUND has no devices; any other error of it
    is returned (with the platform named): a broken driver fails the tests instead of
    skipping them. Thread safety: any thread (it reads the environment). */
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

/** clmem_test_spec_resolve_groups(spec, platforms, n, out, capacity, &count): the
    same with the context of each pair: out[i] = {platform, device, group}, where
    consecutive triples with the same group belong in one context ("0:0+1").
    clmem_test_spec_resolve gives the same pairs without the groups. Same errors. */
CLMEM_API cl_int clmem_test_spec_resolve_groups(const char *spec, const clmem_test_spec_platform *platforms, size_t n,
                                                size_t (*out)[3], size_t capacity, size_t *count);

/** What a test case receives: a fresh context and one in-order queue per device.
    Single-device cases use device, queue and context as before; in a context of
    several devices (CLMEM_TEST="0:0+1") they are devices[0] and queues[0], and a case
    that needs several devices reads num_devices, devices[] and queues[] (and skips
    with a reason when num_devices is too small). */
typedef struct clmem_test_context {
    cl_platform_id platform;
    cl_device_id device;          /* devices[0] */
    cl_context context;           /* NULL for cases that need no device */
    cl_command_queue queue;       /* queues[0] */
    char device_name[160];        /* "DEVICE on PLATFORM", "2 x DEVICE on PLATFORM", "A + B on PLATFORM" */
    int failed;                   /* set by the CLMEM_CHECK macros */
    char skip_reason[256];        /* set by clmem_test_skip */
    size_t num_devices;           /* devices in context: 1, or more for a '+' or '*' set; 0 without a device */
    cl_device_id devices[CLMEM_TEST_MAX_DEVICES];     /* the context's devices, in CLMEM_TEST's order */
    cl_command_queue queues[CLMEM_TEST_MAX_DEVICES];  /* an in-order queue on each of them */
} clmem_test_context;

typedef void (*clmem_test_fn)(clmem_test_context *t);

/** One test case. no_device: run once without OpenCL (parsers and other pure code). */
typedef struct clmem_test_case {
    const char *name;
    clmem_test_fn fn;
    bool no_device;
} clmem_test_case;

/** clmem_test_main(cases, n, argc, argv): run every case on every context that
    CLMEM_TEST selects (a device alone, or a '+'/'*' set of devices together), each
    time with a new context and one new in-order queue per device, printing one line
    per case and context ("ok", "FAIL" with the file, line and condition, or "skip" with the
    reason). An optional argv[1] runs only the cases whose name contains it.
    Returns the process exit code: 0 when something passed and nothing failed, 1 on
    any failure, 77 when everything was skipped (CTest's SKIP_RETURN_CODE). cases NULL
    with n > 0 returns 1; an entry without a name or a function (a zeroed table, n
    too large) is printed as a failure of the run. */
CLMEM_API int clmem_test_main(const clmem_test_case *cases, size_t n, int argc, char **argv);

/** clmem_test_main_on(cases, n, argc, argv, devices, ndev): clmem_test_main on the
    given devices instead of CLMEM_TEST's selection (sub-devices from
    clCreateSubDevices, a selection made by the test itself). Consecutive entries with
    the same .group share one context (at most CLMEM_TEST_MAX_DEVICES, all of one
    platform). ndev 0 runs the no-device cases only. Same output and exit codes. */
CLMEM_API int clmem_test_main_on(const clmem_test_case *cases, size_t n, int argc, char **argv,
                                 const clmem_test_device *devices, size_t ndev);

/** clmem_test_skip(t, fmt, ...): mark the running case skipped with a reason; the
    case should return right after. fmt NULL: the reason is "skipped". t NULL: nothing
    is marked and the last error message says so (CL_INVALID_VALUE, logged). */
CLMEM_API void clmem_test_skip(clmem_test_context *t, const char *fmt, ...)
    CLMEM__PRINTF(2, 3);

/** clmem_test_fail(t, file, line, fmt, ...): record a failure (used by the macros).
    file or fmt NULL print "?" and "failed (no message)"; t NULL prints the failure,
    marks nothing and leaves a CL_INVALID_VALUE message (logged). */
CLMEM_API void clmem_test_fail(clmem_test_context *t, const char *file, int line, const char *fmt, ...)
    CLMEM__PRINTF(4, 5);

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
