/* NVIDIA's logic on a machine without NVIDIA's driver: this binary's clmem opens the
   tests' own fake of libcuda and NVML (tests/fake_cuda/fake_cuda.c, built next to it;
   CMake sets CLMEM_LIBCUDA and CLMEM_LIBNVML to it), so the match of a GPU by UUID
   (never by number), the choice NVML -> CUDA, CUDA's errors in words and the balance of
   CUDA contexts are tested here. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include <dlfcn.h>

static void (*fake_configure)(int, const unsigned char *, const unsigned long long *, const unsigned long long *);
static void (*fake_fail_next)(const char *, int);
static void (*fake_nvml_enable)(int);
static int (*fake_retained)(void), (*fake_pushed)(void), (*fake_allocations)(void);

#define MiB(x) ((unsigned long long)(x) << 20)
/* three GPUs whose CUDA numbers are not their order by UUID */
static const unsigned char uuids[3 * 16] = {
    0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
    0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b};
static const unsigned long long frees[3] = {MiB(1000), MiB(2000), MiB(3000)};
static const unsigned long long totals[3] = {MiB(4000), MiB(5000), MiB(6000)};

/* the fake: the library clmem opens (the same handle: dlopen counts) */
static int load_fake(clmem_test_context *t) {
    void *lib = dlopen(CLMEM_LIBCUDA, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        clmem_test_fail(t, __FILE__, __LINE__, "the fake libcuda %s is not next to this binary: %s", CLMEM_LIBCUDA,
                        dlerror());
        return 0;
    }
    *(void **)&fake_configure = dlsym(lib, "fake_cuda_configure");
    *(void **)&fake_fail_next = dlsym(lib, "fake_cuda_fail_next");
    *(void **)&fake_nvml_enable = dlsym(lib, "fake_nvml_enable");
    *(void **)&fake_retained = dlsym(lib, "fake_cuda_retained");
    *(void **)&fake_pushed = dlsym(lib, "fake_cuda_pushed");
    *(void **)&fake_allocations = dlsym(lib, "fake_cuda_allocations");
    fake_configure(3, uuids, frees, totals);
    fake_nvml_enable(1);
    return 1;
}

static void test_uuid_text(clmem_test_context *t) {
    char text[48];
    clmem__uuid_text(uuids + 32, text);
    CLMEM_CHECK(t, strcmp(text, "GPU-deadbeef-0001-0203-0405-060708090a0b") == 0);
}

static void test_nvml_first(clmem_test_context *t) {
    clmem_memory_info info;
    char why[640] = "";
    if (!load_fake(t)) return;
    memset(&info, 0, sizeof info);
    CLMEM_CHECK_CL(t, clmem__memory_info_nvidia("f", uuids + 16, &info, why, sizeof why));
    CLMEM_CHECK_EQ(t, info.source, CLMEM_MEMORY_INFO_NVML);
    CLMEM_CHECK_EQ(t, info.free_bytes, MiB(2000) - MiB(1)); /* the fake's NVML says 1 MiB less */
    CLMEM_CHECK_EQ(t, info.total_bytes, MiB(5000));
    CLMEM_CHECK(t, info.exact);
    CLMEM_CHECK(t, strstr(info.note, "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f") != NULL);
}

static void test_cuda_by_uuid(clmem_test_context *t) {
    clmem_memory_info info;
    char why[640] = "";
    int i;
    if (!load_fake(t)) return;
    fake_nvml_enable(0); /* NVML fails: CUDA answers */
    for (i = 0; i < 3; ++i) {
        memset(&info, 0, sizeof info);
        CLMEM_CHECK_CL(t, clmem__memory_info_nvidia("f", uuids + 16 * i, &info, why, sizeof why));
        CLMEM_CHECK_EQ(t, info.source, CLMEM_MEMORY_INFO_CUDA);
        CLMEM_CHECK_EQ(t, info.free_bytes, frees[i]);
        CLMEM_CHECK_EQ(t, info.total_bytes, totals[i]);
        CLMEM_CHECK(t, info.exact);
    }
    /* the GPUs in another CUDA order: the match follows the UUID, not the number */
    {
        unsigned char swapped[3 * 16];
        unsigned long long f2[3] = {frees[2], frees[0], frees[1]}, t2[3] = {totals[2], totals[0], totals[1]};
        memcpy(swapped, uuids + 32, 16);
        memcpy(swapped + 16, uuids, 16);
        memcpy(swapped + 32, uuids + 16, 16);
        fake_configure(3, swapped, f2, t2);
        CLMEM_CHECK_CL(t, clmem__memory_info_nvidia("f", uuids + 32, &info, why, sizeof why));
        CLMEM_CHECK_EQ(t, info.free_bytes, MiB(3000));
        CLMEM_CHECK(t, strstr(info.note, "CUDA device 0 (GPU-deadbeef-") != NULL);
    }
    CLMEM_CHECK(t, fake_retained() <= 3); /* a primary context is retained once per GPU, and kept */
    CLMEM_CHECK_EQ(t, fake_pushed(), 0);  /* the caller's current context is back */
    fake_nvml_enable(1);
}

static void test_errors_in_words(clmem_test_context *t) {
    static const unsigned char stranger[16] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
    clmem_memory_info info;
    char why[640] = "";
    if (!load_fake(t)) return;
    /* no GPU has the UUID: both sources say so */
    CLMEM_CHECK_EQ(t, clmem__memory_info_nvidia("f", stranger, &info, why, sizeof why), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(why, "NVML: f: NVML: nvmlDeviceGetHandleByUUID for GPU-09090909-0909-0909-0909-090909090909 "
                               "failed: nvmlReturn_t 13 (Not Found)") == why);
    CLMEM_CHECK(t, strstr(why, "CUDA: f: none of the 3 CUDA devices has the UUID GPU-09090909-0909-0909-0909-090909090909"));
    /* CUDA's call fails: named, with CUDA's name of the result; contexts balanced */
    fake_nvml_enable(0);
    fake_fail_next("cuMemGetInfo_v2", 201);
    CLMEM_CHECK_EQ(t, clmem__memory_info_nvidia("f", uuids, &info, why, sizeof why), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(why, "CUDA: f: cuMemGetInfo_v2 failed: CUresult 201 (CUDA_ERROR_INVALID_CONTEXT)"));
    CLMEM_CHECK(t, fake_retained() <= 3);
    CLMEM_CHECK_EQ(t, fake_pushed(), 0);
    fake_fail_next("cuCtxPushCurrent_v2", 2);
    CLMEM_CHECK_EQ(t, clmem__memory_info_nvidia("f", uuids, &info, why, sizeof why), CL_INVALID_OPERATION);
    CLMEM_CHECK(t, strstr(why, "cuCtxPushCurrent failed: CUresult 2 (CUDA_ERROR_OUT_OF_MEMORY)"));
    CLMEM_CHECK(t, fake_retained() <= 3);
    CLMEM_CHECK_EQ(t, fake_pushed(), 0);
    fake_nvml_enable(1);
    /* a device without cl_khr_device_uuid (PoCL 3.1, Oclgrind) is refused in words */
    {
        unsigned char u[16];
        cl_int err = clmem__cl_device_uuid("f", t->device, u);
        if (err != CL_SUCCESS) {
            CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
            CLMEM_CHECK(t, strstr(clmem_last_error_message(), "has no cl_khr_device_uuid"));
        }
    }
}

/* peer memory's CUDA side: rounded to the granularity, exported as an fd, freed again;
   CUDA's failures in words, nothing left allocated, contexts balanced */
static void test_peer_cuda_alloc(clmem_test_context *t) {
    const clmem__cuda_fns *cu = NULL;
    clmem__CUmemhandle h = 0;
    size_t got = 0;
    int fd = -1;
    if (!load_fake(t)) return;
    CLMEM_CHECK_CL(t, clmem__cuda("f", &cu));
    CLMEM_CHECK_CL(t, clmem__peer_cuda_alloc("f", cu, 1, MiB(3), &h, &got, &fd));
    CLMEM_CHECK_EQ(t, got, MiB(4)); /* 2 MiB granularity */
    CLMEM_CHECK(t, h != 0 && fd >= 0);
    CLMEM_CHECK_EQ(t, fake_allocations(), 1);
    {   /* CUDA sees the memory gone: cuMemGetInfo in that GPU's context */
        clmem_memory_info info;
        char why[640];
        fake_nvml_enable(0);
        CLMEM_CHECK_CL(t, clmem__memory_info_nvidia("f", uuids + 16, &info, why, sizeof why));
        CLMEM_CHECK_EQ(t, info.free_bytes, MiB(2000) - MiB(4));
        fake_nvml_enable(1);
    }
    clmem__peer_cuda_free(cu, 1, h, fd);
    CLMEM_CHECK_EQ(t, fake_allocations(), 0);
    /* out of memory: CL_MEM_OBJECT_ALLOCATION_FAILURE, CUDA's name */
    CLMEM_CHECK_ERR(t, clmem__peer_cuda_alloc("f", cu, 0, MiB(1001), &h, &got, &fd), CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "f: cuMemCreate failed: CUresult 2 (CUDA_ERROR_OUT_OF_MEMORY)"));
    CLMEM_CHECK(t, h == 0 && fd == -1);
    /* the export fails: the allocation is released */
    fake_fail_next("cuMemExportToShareableHandle", 999);
    CLMEM_CHECK_ERR(t, clmem__peer_cuda_alloc("f", cu, 2, MiB(2), &h, &got, &fd), CL_OUT_OF_RESOURCES);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "cuMemExportToShareableHandle failed: CUresult 999"));
    CLMEM_CHECK_EQ(t, fake_allocations(), 0);
    CLMEM_CHECK(t, h == 0 && fd == -1);
    /* no such device */
    CLMEM_CHECK_ERR(t, clmem__peer_cuda_alloc("f", cu, 7, MiB(2), &h, &got, &fd), CL_OUT_OF_RESOURCES);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CUDA_ERROR_INVALID_DEVICE"));
    CLMEM_CHECK(t, fake_retained() <= 3);
    CLMEM_CHECK_EQ(t, fake_pushed(), 0);
    /* a peer buffer on a device without the extension (PoCL, Oclgrind): refused in words */
    if (!clmem__device_lists(t->device, "cl_khr_external_memory_opaque_fd")) {
        cl_int err = 0;
        CLMEM_CHECK(t, clmem_peer_buffer_create(t->context, t->device, 64, &err) == NULL);
        CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
        CLMEM_CHECK(t, strstr(clmem_last_error_message(), "has no cl_khr_external_memory_opaque_fd"));
    }
}

static const clmem_test_case cases[] = {{"uuid_text", test_uuid_text, true},
                                        {"nvml_first", test_nvml_first, true},
                                        {"cuda_by_uuid", test_cuda_by_uuid, true},
                                        {"errors_in_words", test_errors_in_words, false},
                                        {"peer_cuda_alloc", test_peer_cuda_alloc, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
