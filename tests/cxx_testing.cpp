// The testing module from C++: clmem_get_test_platforms_and_devices,
// clmem_test_spec_resolve, clmem_test_main (this binary), clmem_test_skip,
// clmem_test_fail and the CLMEM_CHECK* macros.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_spec(clmem_test_context *t) {
    const char *const dn[2] = {"cpu one", "gpu two"};
    const char *const dv[2] = {"acme", "acme"};
    const clmem_test_spec_platform plats[2] = {{"Portable", "pocl", 2, dn, dv}, {"Other", "nv", 1, dn, dv}};
    size_t out[4][2], n = 0;
    CLMEM_CHECK_CL(t, clmem_test_spec_resolve("portable:1;other", plats, 2, out, 4, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    CLMEM_CHECK(t, out[0][0] == 0 && out[0][1] == 1 && out[1][0] == 1 && out[1][1] == 0);
    CLMEM_CHECK_CL(t, clmem_test_spec_resolve("", plats, 2, out, 4, &n));
    CLMEM_CHECK_EQ(t, n, 3);
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve("0:1:2", plats, 2, out, 4, &n), CLMEM_ERROR_INVALID_TEST_SPEC);
    CLMEM_CHECK_ERR(t, clmem_test_spec_resolve("nothere", plats, 2, out, 4, &n), CLMEM_ERROR_NOT_FOUND);
    size_t g[4][3];
    CLMEM_CHECK_CL(t, clmem_test_spec_resolve_groups("0:0+1", plats, 2, g, 4, &n));
    CLMEM_CHECK_EQ(t, n, 2);
    CLMEM_CHECK(t, g[0][1] == 0 && g[1][1] == 1 && g[0][2] == g[1][2]);
}

static void test_devices(clmem_test_context *t) {
    size_t n = 0;
    CLMEM_CHECK_CL(t, clmem_get_test_platforms_and_devices(NULL, NULL, 0, &n));
    CLMEM_CHECK(t, n >= 1);
    clmem_test_device d[8];
    CLMEM_CHECK_CL(t, clmem_get_test_platforms_and_devices(NULL, d, 8, &n));
    bool found = false;
    for (size_t i = 0; i < n && i < 8; i++) found = found || d[i].device == t->device;
    CLMEM_CHECK(t, found);
    CLMEM_CHECK_EQ(t, t->failed, 0);
    CLMEM_CHECK_EQ(t, 2 + 2, 4);
}

// A case that fails on purpose, run through a nested context, checks the fail path.
static void fails(clmem_test_context *t) { CLMEM_CHECK_EQ(t, 1, 2); }
static void test_fail_and_skip(clmem_test_context *t) {
    clmem_test_context inner = *t;
    inner.failed = 0;
    fails(&inner);
    CLMEM_CHECK_EQ(t, inner.failed, 1);
    inner.skip_reason[0] = 0;
    clmem_test_skip(&inner, "reason %d", 7);
    CLMEM_CHECK(t, strcmp(inner.skip_reason, "reason 7") == 0);
}

static const clmem_test_case cases[] = {
    {"spec", test_spec, true}, {"devices", test_devices, false}, {"fail_and_skip", test_fail_and_skip, true}};
// clmem_test_main_on with the devices CLMEM_TEST selects: the same runs as clmem_test_main.
int main(int argc, char **argv) {
    clmem_test_device d[16];
    size_t n = 0;
    if (clmem_get_test_platforms_and_devices(NULL, d, 16, &n) != CL_SUCCESS) return 1;
    return clmem_test_main_on(cases, sizeof cases / sizeof cases[0], argc, argv, d, n < 16 ? n : 16);
}
