/* The loader (>>loader): an extension's entry points are found once per platform and
   the same table comes back to every thread; a required entry point the platform lacks
   is refused in words naming it; a vendor library that cannot be opened is refused in
   words naming it and dlopen's reason; extension lists match whole words. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <pthread.h>

/* a set of the core's own clGetPlatformInfo, looked up as an extension would be (ICD
   loaders answer core names through clGetExtensionFunctionAddressForPlatform on some
   platforms only, so the set's one required function is an extension's that every
   OpenCL 1.2 ICD has: clIcdGetPlatformIDsKHR) */
typedef struct { void (*icd)(void); void (*none)(void); } icd_fns;
static const clmem__entry icd_entries[] = {{"clIcdGetPlatformIDsKHR", offsetof(icd_fns, icd), 1},
                                           {"clNoSuchFunctionCLMEM", offsetof(icd_fns, none), 0}};
static const clmem__entry_set icd_set = {"cl_khr_icd", NULL, icd_entries, 2, sizeof(icd_fns)};
static const clmem__entry missing_entries[] = {{"clNoSuchFunctionCLMEM", 0, 1}};
static const clmem__entry_set missing_set = {"cl_clmem_no_such_extension", NULL, missing_entries, 1, sizeof(void *)};
static const clmem__entry lib_entries[] = {{"no_such_symbol", 0, 1}};
static const clmem__entry_set lib_set = {"a library that is not there", "libclmem_no_such_library.so.0", lib_entries, 1,
                                         sizeof(void *)};

enum { THREADS = 8 };
typedef struct {
    cl_platform_id platform;
    const void *fns;
    cl_int err;
} job;
static void *lookup(void *arg) {
    job *j = (job *)arg;
    int i;
    for (i = 0; i < 200 && j->err == CL_SUCCESS; ++i) {
        const void *f = NULL;
        j->err = clmem__ext_of_platform("lookup", j->platform, &icd_set, &f);
        if (i && f != j->fns) j->err = -99999;
        j->fns = f;
    }
    return NULL;
}

static void test_threads_share_one_table(clmem_test_context *t) {
    pthread_t th[THREADS];
    job jobs[THREADS];
    int i;
    if (skip_threads_on_oclgrind(t)) return;
    for (i = 0; i < THREADS; ++i) {
        jobs[i].platform = t->platform;
        jobs[i].fns = NULL;
        jobs[i].err = CL_SUCCESS;
        CLMEM_CHECK_EQ(t, pthread_create(&th[i], NULL, lookup, &jobs[i]), 0);
    }
    for (i = 0; i < THREADS; ++i) pthread_join(th[i], NULL);
    for (i = 0; i < THREADS; ++i) {
        if (jobs[i].err == CL_INVALID_OPERATION) {
            clmem_test_skip(t, "the platform's ICD answers no clIcdGetPlatformIDsKHR: %s", clmem_last_error_message());
            return;
        }
        CLMEM_CHECK_EQ(t, jobs[i].err, CL_SUCCESS);
        CLMEM_CHECK(t, jobs[i].fns == jobs[0].fns); /* one row for every thread */
    }
    CLMEM_CHECK(t, ((const icd_fns *)jobs[0].fns)->icd != NULL);
    CLMEM_CHECK(t, ((const icd_fns *)jobs[0].fns)->none == NULL); /* optional and absent: NULL, no refusal */
}

static void test_missing_entry_point_refused(clmem_test_context *t) {
    const void *f = (const void *)&f;
    CLMEM_CHECK_ERR(t, clmem__ext_of_platform("caller_fn", t->platform, &missing_set, &f), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, f == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "caller_fn: platform '") == clmem_last_error_message());
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "has no cl_clmem_no_such_extension"));
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "found no clNoSuchFunctionCLMEM"));
    /* the answer is kept: the second call refuses the same way */
    CLMEM_CHECK_ERR(t, clmem__ext_of_device("caller_fn", t->device, &missing_set, &f), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "found no clNoSuchFunctionCLMEM"));
    /* a device that is none: the driver's code, named */
    CLMEM_CHECK_ERR(t, clmem__ext_of_device("caller_fn", NULL, &missing_set, &f), CL_INVALID_DEVICE);
}

static void test_vendor_library_absent(clmem_test_context *t) {
    const void *f = (const void *)&f;
    int i;
    for (i = 0; i < 2; ++i) { /* the second answer comes from the kept row */
        CLMEM_CHECK_ERR(t, clmem__vendor_library("caller_fn", &lib_set, &f), CL_INVALID_OPERATION);
        CLMEM_CHECK(t, f == NULL);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(),
                              "caller_fn: a library that is not there is not available: libclmem_no_such_library.so.0 "
                              "could not be opened ("));
    }
}

static void test_extension_words(clmem_test_context *t) {
    (void)t;
    CLMEM_CHECK(t, clmem__extension_in("cl_khr_external_memory cl_khr_external_memory_opaque_fd", "cl_khr_external_memory"));
    CLMEM_CHECK(t, clmem__extension_in("cl_khr_external_memory_opaque_fd cl_khr_external_memory", "cl_khr_external_memory"));
    CLMEM_CHECK(t, !clmem__extension_in("cl_khr_external_memory_opaque_fd cl_khr_semaphore", "cl_khr_external_memory"));
    CLMEM_CHECK(t, !clmem__extension_in("xcl_khr_semaphore", "cl_khr_semaphore"));
    CLMEM_CHECK(t, clmem__extension_in("cl_khr_semaphore", "cl_khr_semaphore"));
    CLMEM_CHECK(t, !clmem__extension_in("", "cl_khr_semaphore"));
}

static const clmem_test_case cases[] = {{"threads_share_one_table", test_threads_share_one_table, false},
                                        {"missing_entry_point_refused", test_missing_entry_point_refused, false},
                                        {"vendor_library_absent", test_vendor_library_absent, true},
                                        {"extension_words", test_extension_words, true}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
