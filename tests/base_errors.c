/* base: error names, the last-error message, the log callback. No device needed. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static void test_every_code_named(clmem_test_context *t) {
    /* Every core code -1..-19, -30..-72 and the extension and clmem codes have a name
       that is not the fallback, and each name is distinct. */
    static const cl_int ext[] = {-1000, -1001, -1002, -1003, -1004, -1005, -1006, -1007, -1008, -1009, -1010, -1011,
                                 -1012, -1013, -1057, -1058, -1059, -1092, -1093, -1094, -1095, -1096, -1097, -1098,
                                 -1099, -1100, -1101, -1108, -1121, -1138, -1139, -1140, -1141, -1142};
    cl_int c;
    size_t i, named = 0;
    for (c = CLMEM_ERROR_LAST; c <= 0; ++c) {
        bool core = (c >= -19) || (c <= -30 && c >= -72);
        bool mine = c >= CLMEM_ERROR_LAST && c <= CLMEM_ERROR_FIRST;
        bool extension = false;
        for (i = 0; i < sizeof ext / sizeof ext[0]; ++i) extension = extension || ext[i] == c;
        if (core || mine || extension) {
            CLMEM_CHECK(t, strcmp(clmem_error_string(c), "UNKNOWN_ERROR_CODE") != 0);
            ++named;
        } else {
            CLMEM_CHECK(t, strcmp(clmem_error_string(c), "UNKNOWN_ERROR_CODE") == 0);
        }
    }
    CLMEM_CHECK_EQ(t, named, 1 + 19 + 43 + sizeof ext / sizeof ext[0] + 6);
    CLMEM_CHECK(t, strcmp(clmem_error_string(CL_SUCCESS), "CL_SUCCESS") == 0);
    CLMEM_CHECK(t, strcmp(clmem_error_string(-38), "CL_INVALID_MEM_OBJECT") == 0);
    CLMEM_CHECK(t, strcmp(clmem_error_string(-1001), "CL_PLATFORM_NOT_FOUND_KHR") == 0);
    CLMEM_CHECK(t, strcmp(clmem_error_string(CLMEM_ERROR_DOUBLE_RELEASE), "CLMEM_ERROR_DOUBLE_RELEASE") == 0);
    CLMEM_CHECK(t, strcmp(clmem_error_string(12345), "UNKNOWN_ERROR_CODE") == 0);
}

static int log_calls;
static cl_int log_code;
static clmem_log_level log_level;
static char log_text[768];
static void capture(clmem_log_level level, cl_int code, const char *message, void *user) {
    ++log_calls;
    log_level = level;
    log_code = code;
    snprintf(log_text, sizeof log_text, "%s", message);
    *(int *)user += 1;
}

static void test_message_and_log(clmem_test_context *t) {
    int user = 0;
    cl_int err = 0;
    clmem_buffer b;
    clmem_clear_error();
    CLMEM_CHECK(t, clmem_last_error_message()[0] == '\0');
    clmem_set_log_callback(capture, &user);
    b = clmem_buffer_create(NULL, 0, 16, NULL, &err);
    clmem_set_log_callback(NULL, NULL);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_CONTEXT);
    CLMEM_CHECK(t, b.mem == NULL);
    CLMEM_CHECK(t, strcmp(clmem_last_error_message(), "clmem_buffer_create: context is NULL") == 0);
    CLMEM_CHECK_EQ(t, log_calls, 1);
    CLMEM_CHECK_EQ(t, user, 1);
    CLMEM_CHECK_EQ(t, log_code, CL_INVALID_CONTEXT);
    CLMEM_CHECK_EQ(t, log_level, CLMEM_LOG_ERROR);
    CLMEM_CHECK(t, strcmp(log_text, clmem_last_error_message()) == 0);
    /* No callback: silent, but the message is still kept. */
    b = clmem_buffer_create(NULL, 0, 16, NULL, NULL);
    CLMEM_CHECK_EQ(t, log_calls, 1);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "context is NULL") != NULL);
    clmem_clear_error();
    CLMEM_CHECK(t, clmem_last_error_message()[0] == '\0');
}

static void test_version(clmem_test_context *t) {
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", CLMEM_VERSION_MAJOR, CLMEM_VERSION_MINOR, CLMEM_VERSION_PATCH);
    CLMEM_CHECK(t, strcmp(v, CLMEM_VERSION_STRING) == 0);
}

static const clmem_test_case cases[] = {
    {"every_code_named", test_every_code_named, true},
    {"message_and_log", test_message_and_log, true},
    {"version", test_version, true},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
