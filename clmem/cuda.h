/* >>cuda: the few calls of NVIDIA's driver libraries (libcuda, NVML) that clmem makes,
   opened at run time, and the CUDA device of an OpenCL device (matched by UUID) */
#include "base.h"
#include "loader.h"

/* ---------------------------------------------------------------------------------
   CUDA AND NVML, AT RUN TIME

   clmem never links CUDA. Where NVIDIA's driver is installed, libcuda.so.1 and
   libnvidia-ml.so.1 are too (they come with the driver, not with the CUDA toolkit);
   clmem opens them with dlopen at first use (>>loader; CLMEM_LIBCUDA, CLMEM_LIBNVML,
   CLMEM_NO_VENDOR_LIBRARIES) and declares the few types and functions it calls
   itself, so no CUDA header is needed to build. Free device memory (>>device_memory)
   and peer memory (>>peer) use them.

   An OpenCL device is the CUDA device whose UUID (cuDeviceGetUuid_v2) equals the
   OpenCL device's CL_DEVICE_UUID_KHR (cl_khr_device_uuid), never the device of the
   same number: the two APIs may order GPUs differently (CUDA_VISIBLE_DEVICES,
   CUDA_DEVICE_ORDER), and NVIDIA's CL_DEVICE_PCI_BUS_ID_NV reads 0 for every GPU of a
   host whose GPUs differ by device number only.

   Thread safety: any thread. cuInit runs once; each call makes the device's primary
   context current for its own duration and restores the caller's. A device's primary
   context is retained at clmem's first use of the device and kept until the process
   ends (NVML, tried first for free memory, needs none).
   --------------------------------------------------------------------------------- */

#ifdef __cplusplus
extern "C" {
#endif

/* (private) CUDA driver types, as cuda.h declares them (the ABI is stable) */
typedef int clmem__CUresult;
typedef int clmem__CUdevice;
typedef struct clmem__CUctx_st *clmem__CUcontext;
typedef unsigned long long clmem__CUdeviceptr;
typedef unsigned long long clmem__CUmemhandle;
typedef struct clmem__CUmemLocation {
    int type; /* CU_MEM_LOCATION_TYPE_DEVICE = 1 */
    int id;
} clmem__CUmemLocation;
typedef struct clmem__CUmemAllocationProp {
    int type;                  /* CU_MEM_ALLOCATION_TYPE_PINNED = 1 */
    int requestedHandleTypes;  /* CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 1 */
    clmem__CUmemLocation location;
    void *win32HandleMetaData;
    struct {
        unsigned char compressionType, gpuDirectRDMACapable;
        unsigned short usage;
        unsigned char reserved[4];
    } allocFlags;
} clmem__CUmemAllocationProp;
typedef struct clmem__CUmemAccessDesc {
    clmem__CUmemLocation location;
    int flags; /* CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3 */
} clmem__CUmemAccessDesc;
#define CLMEM__CUDA_SUCCESS 0
#define CLMEM__CUDA_ERROR_OUT_OF_MEMORY 2
#define CLMEM__CU_MEM_ALLOCATION_TYPE_PINNED 1
#define CLMEM__CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR 1
#define CLMEM__CU_MEM_LOCATION_TYPE_DEVICE 1
#define CLMEM__CU_MEM_ACCESS_FLAGS_PROT_READWRITE 3
#define CLMEM__CU_MEM_ALLOC_GRANULARITY_MINIMUM 0

/* (private) the functions of libcuda clmem calls; clmem__cuda() fills it */
typedef struct clmem__cuda_fns {
    clmem__CUresult (*init)(unsigned);
    clmem__CUresult (*device_get_count)(int *);
    clmem__CUresult (*device_get)(clmem__CUdevice *, int);
    clmem__CUresult (*device_get_uuid)(unsigned char *, clmem__CUdevice);
    clmem__CUresult (*primary_retain)(clmem__CUcontext *, clmem__CUdevice);
    clmem__CUresult (*ctx_push)(clmem__CUcontext);
    clmem__CUresult (*ctx_pop)(clmem__CUcontext *);
    clmem__CUresult (*mem_get_info)(size_t *, size_t *);
    clmem__CUresult (*get_error_name)(clmem__CUresult, const char **);
    /* virtual memory management (peer memory); optional: checked where used */
    clmem__CUresult (*mem_granularity)(size_t *, const clmem__CUmemAllocationProp *, int);
    clmem__CUresult (*mem_create)(clmem__CUmemhandle *, size_t, const clmem__CUmemAllocationProp *, unsigned long long);
    clmem__CUresult (*mem_release)(clmem__CUmemhandle);
    clmem__CUresult (*mem_export)(void *, clmem__CUmemhandle, int, unsigned long long);
} clmem__cuda_fns;

/* (private) NVML's memory figures (nvmlMemory_t) and the functions clmem calls */
typedef struct clmem__nvml_memory {
    unsigned long long total, free, used;
} clmem__nvml_memory;
typedef struct clmem__nvml_fns {
    int (*init)(void);
    int (*by_uuid)(const char *, void **);
    int (*memory)(void *, clmem__nvml_memory *);
    const char *(*error_string)(int);
} clmem__nvml_fns;

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of cuda; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* functions (each described where it is defined) */
static cl_int clmem__cuda_fail(const char *fn, const clmem__cuda_fns *f, const char *call, clmem__CUresult r);
static cl_int clmem__cuda(const char *fn, const clmem__cuda_fns **fns);
static cl_int clmem__nvml(const char *fn, const clmem__nvml_fns **fns);
static const char *clmem__nvml_error(const clmem__nvml_fns *f, int r);
static void clmem__uuid_text(const unsigned char uuid[16], char *buf);
static cl_int clmem__cl_device_uuid(const char *fn, cl_device_id dev, unsigned char uuid[16]);
static cl_int clmem__cuda_device_by_uuid(const char *fn, const clmem__cuda_fns *f, const unsigned char uuid[16],
                                         clmem__CUdevice *device);
static cl_int clmem__cuda_enter(const char *fn, const clmem__cuda_fns *f, clmem__CUdevice device);
static void clmem__cuda_leave(const clmem__cuda_fns *f, clmem__CUdevice device);
/* ---- end private ---- */
