/* multidev: contexts of several devices from CLMEM_TEST ("PLATFORM:0+1", "PLATFORM:*"):
   write on one device and read on the other with events, sub-buffer alignment for
   every device, migration then copies, a pool used from both queues, SVM shared by
   both devices, images read on the other device (tests/multidev_cases.h).

   With neither CLMEM_TEST nor PYOPENCL_TEST set it runs on every platform's devices
   together in one context ("0:*;1:*;..."), so that plain `ctest` exercises a
   2-device context where a platform has two devices (CTest sets
   POCL_DEVICES="pthread pthread" for this test: see the end of CMakeLists.txt).
   Contexts of one device report every case skipped. */
#include "multidev_shim.h"
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "multidev_cases.h"

int main(int argc, char **argv) {
    char spec[256] = "";
    cl_uint np = 0, i;
    clmem_test_device devs[64];
    size_t n = 0;
    if (getenv("CLMEM_TEST") || getenv("PYOPENCL_TEST")) return clmem_test_main(multidev_cases, MULTIDEV_NCASES, argc, argv);
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) {
        printf("multidev: no OpenCL platform\n");
        return 1;
    }
    for (i = 0; i < np && i < 16; ++i) {
        size_t used = strlen(spec);
        snprintf(spec + used, sizeof spec - used, "%s%u:*", i ? ";" : "", i);
    }
    if (clmem_get_test_platforms_and_devices(spec, devs, 64, &n) != CL_SUCCESS) {
        printf("multidev: cannot select \"%s\": %s\n", spec, clmem_last_error_message());
        return 1;
    }
    printf("multidev: CLMEM_TEST is not set; running on \"%s\" (every platform's devices in one context)\n", spec);
    return clmem_test_main_on(multidev_cases, MULTIDEV_NCASES, argc, argv, devs, n < 64 ? n : 64);
}
