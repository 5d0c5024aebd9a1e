/* >>device_memory: how much memory a device has free (beyond PyOpenCL and OpenCL) */
#include "base.h"
#include "cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   FREE DEVICE MEMORY

   OpenCL says how much memory a device has (CL_DEVICE_GLOBAL_MEM_SIZE), not how much
   of it is free. clmem_device_memory_info asks whoever knows, in this order:
     NVIDIA GPUs   NVML's nvmlDeviceGetMemoryInfo (what nvidia-smi shows), else CUDA's
                   cuMemGetInfo in the device's primary context: the GPU with the
                   OpenCL device's CL_DEVICE_UUID_KHR, never the GPU of the same number
                   (>>cuda; both libraries opened at run time, never linked). Free
                   memory of the whole GPU, all processes counted.
     AMD GPUs      CL_DEVICE_GLOBAL_FREE_MEMORY_AMD (cl_amd_device_attribute_query; in
                   KiB, so exact to 1 KiB; some AMD stacks count this process only).
     CPU devices   the host's available memory (MemAvailable of /proc/meminfo, Linux),
                   at most CL_DEVICE_GLOBAL_MEM_SIZE.
     otherwise     CL_DEVICE_GLOBAL_MEM_SIZE as the free figure, marked an estimate
                   (exact false), the note saying why no source answered.
   The figures are a moment's: other processes allocate and free.
   --------------------------------------------------------------------------------- */

/** Where clmem_device_memory_info's figures came from. */
typedef enum clmem_memory_info_source {
    CLMEM_MEMORY_INFO_NVML = 1,  /* NVML, the GPU matched by UUID */
    CLMEM_MEMORY_INFO_CUDA = 2,  /* CUDA's cuMemGetInfo, the GPU matched by UUID */
    CLMEM_MEMORY_INFO_AMD = 3,   /* CL_DEVICE_GLOBAL_FREE_MEMORY_AMD */
    CLMEM_MEMORY_INFO_HOST = 4,  /* the host's available memory (a CPU device) */
    CLMEM_MEMORY_INFO_TOTAL = 5  /* no source: the free figure is the device's total */
} clmem_memory_info_source;

/** What clmem_device_memory_info found. */
typedef struct clmem_memory_info {
    cl_ulong free_bytes;              /* free now (an estimate when exact is false) */
    cl_ulong total_bytes;             /* the device's memory (the source's figure; else CL_DEVICE_GLOBAL_MEM_SIZE) */
    clmem_memory_info_source source;  /* where free_bytes came from */
    bool exact;                       /* true: a measure of free memory; false: the total stands in for it */
    char note[400];                   /* in words: the source asked, or why none answered */
} clmem_memory_info;

/** clmem_device_memory_info(device, &info): free and total memory of a device, the
    source and whether the free figure is a measure (see FREE DEVICE MEMORY).
    Returns CL_SUCCESS (also when the figure is only an estimate: info.exact false, the
    reason in info.note), or:
      CL_INVALID_DEVICE  device NULL or not a device
      CL_INVALID_VALUE   info NULL
    Thread safety: any thread. The first call on an NVIDIA GPU opens NVML (or libcuda,
    whose first use takes a few hundred milliseconds).
    Example: clmem_memory_info mi; clmem_device_memory_info(dev, &mi); */
CLMEM_API cl_int clmem_device_memory_info(cl_device_id device, clmem_memory_info *info);

/** clmem_memory_info_source_name(source): "NVML", "CUDA", "AMD", "host", "total";
    "?" for anything else. */
CLMEM_API const char *clmem_memory_info_source_name(clmem_memory_info_source source);

#ifdef __cplusplus
}
#endif
