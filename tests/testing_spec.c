/* testing: the CLMEM_TEST / PYOPENCL_TEST grammar, on made-up platforms (no OpenCL),
   then on the real ones. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static const char *const amd_devs[] = {"gfx90a", "gfx1100"};
static const char *const amd_vend[] = {"Advanced Micro Devices, Inc.", "Advanced Micro Devices, Inc."};
static const char *const intel_devs[] = {"Intel(R) Core(TM) i5", "Intel(R) Core(TM) i7", "Intel(R) UHD Graphics"};
static const char *const intel_vend[] = {"Intel(R) Corporation", "Intel(R) Corporation", "Intel(R) Corporation"};
static const char *const pocl_devs[] = {"pthread-skylake"};
static const char *const pocl_vend[] = {"GenuineIntel"};
static const clmem_test_spec_platform plats[] = {
    {"AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.", 2, amd_devs, amd_vend},
    {"Intel(R) OpenCL", "Intel(R) Corporation", 3, intel_devs, intel_vend},
    {"Portable Computing Language", "The pocl project", 1, pocl_devs, pocl_vend},
};

/* resolve(spec) into "p.d p.d ..." or "error NAME" */
static const char *resolve(const char *spec) {
    static char text[256];
    size_t pairs[16][2], n = 0, i, used = 0;
    cl_int err = clmem_test_spec_resolve(spec, plats, 3, pairs, 16, &n);
    if (err != CL_SUCCESS) {
        snprintf(text, sizeof text, "error %s", clmem_error_string(err));
        return text;
    }
    text[0] = '\0';
    for (i = 0; i < n && i < 16; ++i)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%zu.%zu", i ? " " : "", pairs[i][0], pairs[i][1]);
    return text;
}

/* resolve_groups(spec) into "p.d+p.d p.d ..." (a '+' joins the devices of one context) */
static const char *resolve_groups(const char *spec) {
    static char text[256];
    size_t trip[16][3], n = 0, i, used = 0;
    cl_int err = clmem_test_spec_resolve_groups(spec, plats, 3, trip, 16, &n);
    if (err != CL_SUCCESS) {
        snprintf(text, sizeof text, "error %s", clmem_error_string(err));
        return text;
    }
    text[0] = '\0';
    for (i = 0; i < n && i < 16; ++i)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%zu.%zu",
                                 i == 0 ? "" : trip[i][2] == trip[i - 1][2] ? "+" : " ", trip[i][0], trip[i][1]);
    return text;
}

#define EXPECT_GROUPS(t, spec, want)                                                                 \
    do {                                                                                             \
        const char *got_ = resolve_groups(spec);                                                     \
        if (strcmp(got_, want) != 0) {                                                               \
            clmem_test_fail(t, __FILE__, __LINE__, "spec \"%s\": got \"%s\", want \"%s\"", spec, got_, want); \
            return;                                                                                  \
        }                                                                                            \
    } while (0)

#define EXPECT(t, spec, want)                                                                        \
    do {                                                                                             \
        const char *got_ = resolve(spec);                                                            \
        if (strcmp(got_, want) != 0) {                                                               \
            clmem_test_fail(t, __FILE__, __LINE__, "spec \"%s\": got \"%s\", want \"%s\"", spec, got_, want); \
            return;                                                                                  \
        }                                                                                            \
    } while (0)

static void test_grammar(clmem_test_context *t) {
    EXPECT(t, "", "0.0 0.1 1.0 1.1 1.2 2.0");            /* everything */
    EXPECT(t, "0", "0.0 0.1");                             /* a platform: all devices */
    EXPECT(t, "1:0,2", "1.0 1.2");                         /* listed devices, in order */
    EXPECT(t, "1:2,0", "1.2 1.0");
    EXPECT(t, "-1", "2.0");                                /* negative from the end */
    EXPECT(t, "1:-1", "1.2");
    EXPECT(t, " 2 ", "2.0");                               /* int() strips spaces */
    EXPECT(t, "intel:i5,i7", "1.0 1.1");                   /* names: substrings */
    EXPECT(t, "INTEL:UHD", "1.2");                         /* case-insensitive */
    EXPECT(t, "pocl", "2.0");                              /* matches the vendor too */
    EXPECT(t, "advanced micro", "0.0 0.1");                /* first match wins */
    EXPECT(t, "0:0,1;intel:i5", "0.0 0.1 1.0");            /* PyOpenCL's docstring example */
    EXPECT(t, "0=0,1;intel=i5,i7", "0.0 0.1 1.0 1.1");     /* '=' as in PyOpenCL's docs */
    EXPECT(t, ";", "0.0 0.1 0.0 0.1");                     /* empty entries: the first platform */
    EXPECT(t, "1:", "1.0");                                /* empty device: the first */
    EXPECT(t, "2;2", "2.0 2.0");                           /* not de-duplicated */
}

static void test_grammar_errors(clmem_test_context *t) {
    size_t pairs[4][2], n = 99;
    EXPECT(t, "0:0:0", "error CLMEM_ERROR_INVALID_TEST_SPEC");
    EXPECT(t, "nvidia", "error CLMEM_ERROR_NOT_FOUND");
    EXPECT(t, "3", "error CLMEM_ERROR_NOT_FOUND");
    EXPECT(t, "-4", "error CLMEM_ERROR_NOT_FOUND");
    EXPECT(t, "1:7", "error CLMEM_ERROR_NOT_FOUND");
    EXPECT(t, "intel:gfx", "error CLMEM_ERROR_NOT_FOUND");
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve("0:0:0", plats, 3, pairs, 4, &n), CLMEM_ERROR_INVALID_TEST_SPEC);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "'0:0:0'") != NULL);
    CLMEM_CHECK_EQ(t, n, 0);
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve("nvidia", plats, 3, pairs, 4, &n), CLMEM_ERROR_NOT_FOUND);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "platform 'nvidia' not found") != NULL);
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve("1:9", plats, 3, pairs, 4, &n), CLMEM_ERROR_NOT_FOUND);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "device index 9 is out of range (there are 3)") != NULL);
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve(NULL, plats, 3, pairs, 4, &n), CL_INVALID_VALUE);
    /* capacity smaller than the selection: the count says how many there are */
    CLMEM_CHECK_CL(t, clmem_test_spec_resolve("", plats, 3, pairs, 2, &n));
    CLMEM_CHECK_EQ(t, n, 6);
    CLMEM_CHECK_EQ(t, pairs[1][0], 0);
    CLMEM_CHECK_EQ(t, pairs[1][1], 1);
}

/* '+' joins devices into one context, '*' is every device of the platform in one. */
static void test_grammar_groups(clmem_test_context *t) {
    size_t trip[4][3], pairs[4][2], n = 99;
    EXPECT_GROUPS(t, "", "0.0 0.1 1.0 1.1 1.2 2.0");      /* without '+': a context per device */
    EXPECT_GROUPS(t, "1", "1.0 1.1 1.2");
    EXPECT_GROUPS(t, "0:0,1", "0.0 0.1");                  /* ',' keeps PyOpenCL's meaning */
    EXPECT_GROUPS(t, "0:0+1", "0.0+0.1");                  /* one context of two devices */
    EXPECT_GROUPS(t, "1:2+0", "1.2+1.0");                  /* in the order given */
    EXPECT_GROUPS(t, "1:-1+0", "1.2+1.0");
    EXPECT_GROUPS(t, "0:0+1,0", "0.0+0.1 0.0");            /* a pair, then device 0 alone */
    EXPECT_GROUPS(t, "0:0,0+1", "0.0 0.0+0.1");
    EXPECT_GROUPS(t, "intel:i5+uhd", "1.0+1.2");           /* names work too */
    EXPECT_GROUPS(t, "1:*", "1.0+1.1+1.2");                /* every device in one context */
    EXPECT_GROUPS(t, "1: * ", "1.0+1.1+1.2");
    EXPECT_GROUPS(t, "2:*", "2.0");                        /* one device: a plain context */
    EXPECT_GROUPS(t, "0:*;2;1:0+1", "0.0+0.1 2.0 1.0+1.1");
    EXPECT_GROUPS(t, "0=1+0", "0.1+0.0");                  /* '=' as ':' */
    EXPECT_GROUPS(t, "0:0+1;0:0+1", "0.0+0.1 0.0+0.1");    /* two entries: two contexts */
    /* the pairs interface sees the same devices, without the grouping */
    EXPECT(t, "0:0+1,0", "0.0 0.1 0.0");
    EXPECT(t, "1:*", "1.0 1.1 1.2");
    /* one device twice in a context: by index, or by a name that matches the first */
    EXPECT_GROUPS(t, "0:0+0", "error CLMEM_ERROR_INVALID_TEST_SPEC");
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve_groups("intel:intel+intel", plats, 3, trip, 4, &n),
                    CLMEM_ERROR_INVALID_TEST_SPEC);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "'intel+intel'") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "device 0 in one context twice") != NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "use indices") != NULL);
    CLMEM_CHECK_EQ(t, n, 0);
    /* found while only counting, too */
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve_groups("1:1+2+1", plats, 3, NULL, 0, &n), CLMEM_ERROR_INVALID_TEST_SPEC);
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve("1:1+2+1", plats, 3, pairs, 4, &n), CLMEM_ERROR_INVALID_TEST_SPEC);
    /* '*' stands alone */
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve_groups("1:*+0", plats, 3, trip, 4, &n), CLMEM_ERROR_INVALID_TEST_SPEC);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "'*' (every device in one context) stands alone") != NULL);
    EXPECT_GROUPS(t, "1:0+*", "error CLMEM_ERROR_INVALID_TEST_SPEC");
    EXPECT_GROUPS(t, "1:**", "error CLMEM_ERROR_INVALID_TEST_SPEC");
    EXPECT_GROUPS(t, "1:0+9", "error CLMEM_ERROR_NOT_FOUND");
    EXPECT_GROUPS(t, "1:0+gfx", "error CLMEM_ERROR_NOT_FOUND");
    /* capacity smaller than the selection: the count is still the whole selection */
    CLMEM_CHECK_CL(t, clmem_test_spec_resolve_groups("1:*;0:0+1", plats, 3, trip, 2, &n));
    CLMEM_CHECK_EQ(t, n, 5);
    CLMEM_CHECK_EQ(t, trip[1][1], 1);
    CLMEM_CHECK_EQ(t, trip[1][2], trip[0][2]);
}

/* What the runner hands a case: context, one queue per device, devices[0] == device. */
static void test_runner_context(clmem_test_context *t) {
    size_t i;
    cl_uint nctx = 0;
    cl_device_id cdevs[CLMEM_TEST_MAX_DEVICES];
    CLMEM_CHECK(t, t->num_devices >= 1 && t->num_devices <= CLMEM_TEST_MAX_DEVICES);
    CLMEM_CHECK(t, t->device == t->devices[0]);
    CLMEM_CHECK(t, t->queue == t->queues[0]);
    CLMEM_CHECK_CL(t, clGetContextInfo(t->context, CL_CONTEXT_NUM_DEVICES, sizeof nctx, &nctx, NULL));
    CLMEM_CHECK_EQ(t, nctx, t->num_devices);
    CLMEM_CHECK_CL(t, clGetContextInfo(t->context, CL_CONTEXT_DEVICES, sizeof cdevs, cdevs, NULL));
    for (i = 0; i < t->num_devices; ++i) {
        cl_device_id qdev = NULL;
        cl_context qctx = NULL;
        size_t j;
        bool in_context = false;
        CLMEM_CHECK(t, t->queues[i] != NULL);
        CLMEM_CHECK_CL(t, clGetCommandQueueInfo(t->queues[i], CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL));
        CLMEM_CHECK_CL(t, clGetCommandQueueInfo(t->queues[i], CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL));
        CLMEM_CHECK(t, qdev == t->devices[i]);
        CLMEM_CHECK(t, qctx == t->context);
        for (j = 0; j < nctx; ++j) in_context = in_context || cdevs[j] == t->devices[i];
        CLMEM_CHECK(t, in_context);
        for (j = 0; j < i; ++j) CLMEM_CHECK(t, t->devices[j] != t->devices[i]);
    }
    for (i = t->num_devices; i < CLMEM_TEST_MAX_DEVICES; ++i) {
        CLMEM_CHECK(t, t->devices[i] == NULL);
        CLMEM_CHECK(t, t->queues[i] == NULL);
    }
}

static void test_real_platforms(clmem_test_context *t) {
    clmem_test_device devs[8];
    size_t n = 0, all = 0;
    char name[128] = {0};
    CLMEM_CHECK_CL(t, clmem_get_test_platforms_and_devices("", devs, 8, &all));
    CLMEM_CHECK(t, all >= 1);
    CLMEM_CHECK_CL(t, clmem_get_test_platforms_and_devices("0:0", devs, 8, &n));
    CLMEM_CHECK_EQ(t, n, 1);
    clGetDeviceInfo(devs[0].device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    CLMEM_CHECK(t, name[0] != '\0');
    CLMEM_CHECK_ERR(t, clmem_get_test_platforms_and_devices("no-such-platform-xyz", devs, 8, &n), CLMEM_ERROR_NOT_FOUND);
    CLMEM_CHECK_EQ(t, n, 0);
}

static const clmem_test_case cases[] = {
    {"grammar", test_grammar, true},
    {"grammar_errors", test_grammar_errors, true},
    {"grammar_groups", test_grammar_groups, true},
    {"real_platforms", test_real_platforms, false},
    {"runner_context", test_runner_context, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
