// The base module from C++: version, error strings, the last error message, clearing
// it, the log callback (also clmem_log_stderr), the CLMEM_GIVEN_* mask of the macros.
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"
#include <string>

static std::string logged;
static int log_calls = 0;
static void capture(clmem_log_level level, cl_int code, const char *message, void *user) {
    (void)user;
    log_calls++;
    logged = std::string(level == CLMEM_LOG_ERROR ? "error " : "other ") + clmem_error_string(code) + " " + message;
}

static void test_errors(clmem_test_context *t) {
    CLMEM_CHECK(t, std::string(CLMEM_VERSION_STRING) == std::to_string(CLMEM_VERSION_MAJOR) + "." +
                                                          std::to_string(CLMEM_VERSION_MINOR) + "." +
                                                          std::to_string(CLMEM_VERSION_PATCH));
    CLMEM_CHECK(t, std::string(clmem_error_string(CL_INVALID_VALUE)) == "CL_INVALID_VALUE");
    CLMEM_CHECK(t, std::string(clmem_error_string(CLMEM_ERROR_DOUBLE_RELEASE)) == "CLMEM_ERROR_DOUBLE_RELEASE");
    CLMEM_CHECK(t, std::string(clmem_error_string(12345)) == "UNKNOWN_ERROR_CODE");
    clmem_clear_error();
    CLMEM_CHECK(t, clmem_last_error_message()[0] == 0);
    clmem_set_log_callback(capture, NULL);
    clmem_buffer b = clmem_buffer_create(NULL, 0, 16, NULL, NULL);
    CLMEM_CHECK(t, b.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_buffer_create") != NULL);
    CLMEM_CHECK_EQ(t, log_calls, 1);
    CLMEM_CHECK(t, logged.find("error CL_INVALID_CONTEXT clmem_buffer_create") == 0);
    clmem_clear_error();
    CLMEM_CHECK(t, clmem_last_error_message()[0] == 0);
    clmem_set_log_callback(clmem_log_stderr, NULL);
    clmem_log_stderr(CLMEM_LOG_INFO, CL_SUCCESS, "cxx_base: clmem_log_stderr from C++ (expected line)", NULL);
    clmem_set_log_callback(NULL, NULL);
    (void)clmem_buffer_create(NULL, 0, 16, NULL, NULL);
    CLMEM_CHECK_EQ(t, log_calls, 1);
}

static void test_given(clmem_test_context *t) {
    // the mask the designator form computes from the text of the options (with the mark
    // every way clmem makes options sets)
    const unsigned M = CLMEM_OPTIONS_MARK;
    CLMEM_CHECK_EQ(t, CLMEM__GIVEN(), M);
    CLMEM_CHECK_EQ(t, CLMEM__GIVEN(.byte_count = 0, .is_blocking = false),
                   M | CLMEM_GIVEN_BYTE_COUNT | CLMEM_GIVEN_IS_BLOCKING);
    CLMEM_CHECK_EQ(t, CLMEM__GIVEN(.region = {1, 2}, .shape = {3}, .ndim = 1, .order = 'C', .mode = 'r'),
                   M | CLMEM_GIVEN_REGION | CLMEM_GIVEN_SHAPE | CLMEM_GIVEN_NDIM | CLMEM_GIVEN_ORDER | CLMEM_GIVEN_MODE);
    CLMEM_CHECK_EQ(t, CLMEM__GIVEN(.size = 1, .host_size = 2, .num_channels = 4, .alignment = 8),
                   M | CLMEM_GIVEN_SIZE | CLMEM_GIVEN_HOST_SIZE | CLMEM_GIVEN_NUM_CHANNELS | CLMEM_GIVEN_ALIGNMENT);
    // and the keywords set the same bits
    clmem_svm_empty_options o = clmem::detail::make<clmem_svm_empty_options>(
        clmem::shape(3, 4), clmem::ndim = 2, clmem::order = 'F', clmem::alignment = 0);
    CLMEM_CHECK_EQ(t, o.given, M | CLMEM_GIVEN_SHAPE | CLMEM_GIVEN_NDIM | CLMEM_GIVEN_ORDER | CLMEM_GIVEN_ALIGNMENT);
    CLMEM_CHECK(t, o.shape[0] == 3 && o.shape[1] == 4 && o.order == 'F');
    clmem_image_from_array_options f = clmem::detail::make<clmem_image_from_array_options>(
        clmem::num_channels = 0u, clmem::mode('w'), clmem::norm_int = true, clmem::half_float(false));
    CLMEM_CHECK_EQ(t, f.given, M | CLMEM_GIVEN_NUM_CHANNELS | CLMEM_GIVEN_MODE);
    // C++ spelling of the initializer: the type's own (every option with a CLMEM_GIVEN_* bit
    // holds its "left out" value), marked
    clmem_copy_options i = CLMEM_OPTIONS_INIT;
    CLMEM_CHECK(t, i.given == (M | CLMEM__OPTIONS_UNSET) && i.byte_count == CLMEM__UNSET_SIZE &&
                       i.host_size == CLMEM__UNSET_SIZE && i.region[0] == CLMEM__UNSET_SIZE && i.region[1] == 0 &&
                       i.is_blocking == CLMEM__UNSET_INT && i.src_offset == 0 && i.event == NULL);
    clmem_map_options mi = CLMEM_MAP_OPTIONS_INIT;
    CLMEM_CHECK(t, mi.given == (M | CLMEM__OPTIONS_UNSET) && mi.order == CLMEM__UNSET_CHAR && (unsigned char)mi.order == 0xC1 &&
                       mi.ndim == 0xC1C1C1C1u && mi.shape[0] == CLMEM__UNSET_SIZE && mi.strides[0] == 0);
    clmem_fill_options fi = CLMEM_OPTIONS_INIT; // a type whose options all default to 0: the mark only
    CLMEM_CHECK(t, fi.given == M && fi.offset == 0 && fi.pattern_size == 0);
    CLMEM_CHECK(t, f.mode == 'w' && f.norm_int && !f.half_float);
    // more values than the field holds poison it (every call refuses SIZE_MAX extents)
    clmem_copy_options c = clmem::detail::make<clmem_copy_options>(clmem::region = {1, 2, 3, 4});
    CLMEM_CHECK(t, c.region[0] == (size_t)-1 && c.region[2] == (size_t)-1);
}

CXX_CASES({"errors", test_errors, true}, {"given", test_given, true})
