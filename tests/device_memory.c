/* clmem_device_memory_info: free and total memory of the device, from the source its
   kind has (NVIDIA: NVML or CUDA by UUID; AMD: CL_DEVICE_GLOBAL_FREE_MEMORY_AMD; CPU:
   the host's MemAvailable clipped to CL_DEVICE_GLOBAL_MEM_SIZE; else the total marked
   an estimate), and its refusals. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* the host's MemAvailable in bytes, read here independently (0: unknown) */
static cl_ulong host_available(void) {
    char line[128];
    unsigned long long kib = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
    fclose(f);
    return (cl_ulong)kib * 1024u;
}

static void test_refusals(clmem_test_context *t) {
    clmem_memory_info info;
    CLMEM_CHECK_ERR(t, clmem_device_memory_info(t->device, NULL), CL_INVALID_VALUE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_device_memory_info: info is NULL"));
    memset(&info, 0x5a, sizeof info);
    CLMEM_CHECK_ERR(t, clmem_device_memory_info(NULL, &info), CL_INVALID_DEVICE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "device is NULL"));
    CLMEM_CHECK_EQ(t, info.free_bytes, 0); /* cleared on failure */
    CLMEM_CHECK_EQ(t, info.total_bytes, 0);
    CLMEM_CHECK_EQ(t, clmem_memory_info_source_name((clmem_memory_info_source)0)[0], '?');
    CLMEM_CHECK(t, strcmp(clmem_memory_info_source_name(CLMEM_MEMORY_INFO_HOST), "host") == 0);
    CLMEM_CHECK(t, strcmp(clmem_memory_info_source_name(CLMEM_MEMORY_INFO_NVML), "NVML") == 0);
}

static void test_figures(clmem_test_context *t) {
    clmem_memory_info info;
    cl_ulong global = 0, avail;
    cl_device_type type = 0;
    cl_uint vendor = 0;
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL));
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    CLMEM_CHECK_CL(t, clGetDeviceInfo(t->device, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL));
    CLMEM_CHECK_CL(t, clmem_device_memory_info(t->device, &info));
    printf("  %s: free %llu MiB of %llu MiB (%s%s): %s\n", t->device_name, (unsigned long long)(info.free_bytes >> 20),
           (unsigned long long)(info.total_bytes >> 20), clmem_memory_info_source_name(info.source),
           info.exact ? "" : ", an estimate", info.note);
    CLMEM_CHECK(t, info.free_bytes <= info.total_bytes);
    CLMEM_CHECK(t, info.note[0] != '\0');
    if (vendor == 0x10DE && !(type & CL_DEVICE_TYPE_CPU)) {
        /* NVIDIA: NVML or CUDA must answer where the driver is (this test runs with it) */
        CLMEM_CHECK(t, info.source == CLMEM_MEMORY_INFO_NVML || info.source == CLMEM_MEMORY_INFO_CUDA);
        CLMEM_CHECK(t, info.exact);
        CLMEM_CHECK(t, strstr(info.note, "GPU-") != NULL); /* the UUID it matched */
        CLMEM_CHECK(t, info.free_bytes > 0);
        /* CUDA's total is the GPU's memory, about OpenCL's global size */
        CLMEM_CHECK(t, info.total_bytes + ((cl_ulong)1 << 30) >= global);
        return;
    }
    if (info.source == CLMEM_MEMORY_INFO_AMD) {
        CLMEM_CHECK(t, info.exact);
        CLMEM_CHECK_EQ(t, info.total_bytes, global);
        return;
    }
    CLMEM_CHECK_EQ(t, info.total_bytes, global);
    avail = host_available();
    if (type & CL_DEVICE_TYPE_CPU) {
        cl_ulong want, slack = (cl_ulong)256 << 20; /* other processes allocate meanwhile */
        if (!avail) {
            CLMEM_CHECK_EQ(t, info.source, CLMEM_MEMORY_INFO_TOTAL);
            return;
        }
        want = avail < global ? avail : global;
        CLMEM_CHECK_EQ(t, info.source, CLMEM_MEMORY_INFO_HOST);
        CLMEM_CHECK(t, info.exact);
        CLMEM_CHECK(t, info.free_bytes + slack >= want && info.free_bytes <= want + slack);
        CLMEM_CHECK(t, strstr(info.note, "MemAvailable") != NULL);
        if (avail > global) CLMEM_CHECK(t, strstr(info.note, "clipped") != NULL && info.free_bytes == global);
        return;
    }
    /* no source: the total, marked an estimate, with the reason */
    CLMEM_CHECK_EQ(t, info.source, CLMEM_MEMORY_INFO_TOTAL);
    CLMEM_CHECK(t, !info.exact);
    CLMEM_CHECK_EQ(t, info.free_bytes, global);
    CLMEM_CHECK(t, strstr(info.note, "an estimate") == info.note);
}

static const clmem_test_case cases[] = {{"refusals", test_refusals, false}, {"figures", test_figures, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
