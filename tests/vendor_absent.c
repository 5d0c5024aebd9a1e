/* CLMEM_NO_VENDOR_LIBRARIES: clmem opens no vendor library; what needs libcuda or NVML
   refuses in words naming the macro, and free memory falls back to the next source. */
#define CLMEM_NO_VENDOR_LIBRARIES
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static void test_refused_in_words(clmem_test_context *t) {
    static const unsigned char uuid[16] = {1};
    const clmem__cuda_fns *cu = (const clmem__cuda_fns *)&cu;
    const clmem__nvml_fns *nv = (const clmem__nvml_fns *)&nv;
    clmem_memory_info info;
    char why[640] = "";
    CLMEM_CHECK_ERR(t, clmem__cuda("f", &cu), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, cu == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "f: CUDA's driver library is not available: " CLMEM_LIBCUDA
                                                      " could not be opened (clmem was compiled with CLMEM_NO_VENDOR_LIBRARIES)"));
    CLMEM_CHECK_ERR(t, clmem__nvml("f", &nv), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, nv == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CLMEM_NO_VENDOR_LIBRARIES"));
    CLMEM_CHECK_EQ(t, clmem__memory_info_nvidia("f", uuid, &info, why, sizeof why), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(why, "NVML: ") == why && strstr(why, "; CUDA: ") && strstr(why, "CLMEM_NO_VENDOR_LIBRARIES"));
    /* the public call still answers, from the device's own source */
    CLMEM_CHECK_CL(t, clmem_device_memory_info(t->device, &info));
    CLMEM_CHECK(t, info.source != CLMEM_MEMORY_INFO_NVML && info.source != CLMEM_MEMORY_INFO_CUDA);
}

static const clmem_test_case cases[] = {{"refused_in_words", test_refused_in_words, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
