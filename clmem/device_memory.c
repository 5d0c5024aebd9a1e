/* >>device_memory (implementation) */
#include "device_memory.h"
#include "cuda.h"

#include <stdio.h>

#ifndef CL_DEVICE_GLOBAL_FREE_MEMORY_AMD
#define CL_DEVICE_GLOBAL_FREE_MEMORY_AMD 0x4039
#endif
#define CLMEM__VENDOR_ID_NVIDIA 0x10DEu

/* NVML: the GPU named by its UUID; nvidia-smi's figures */
static cl_int clmem__memory_info_nvml(const char *fn, const unsigned char uuid[16], clmem_memory_info *info) {
    const clmem__nvml_fns *f = NULL;
    void *handle = NULL;
    clmem__nvml_memory m = {0, 0, 0};
    char text[48];
    int r;
    cl_int err = clmem__nvml(fn, &f);
    if (err != CL_SUCCESS) return err;
    clmem__uuid_text(uuid, text);
    if ((r = f->by_uuid(text, &handle)) != 0 || (r = f->memory(handle, &m)) != 0)
        return clmem__fail(CL_OUT_OF_RESOURCES, fn, "NVML: %s for %s failed: nvmlReturn_t %d (%s)",
                           handle ? "nvmlDeviceGetMemoryInfo" : "nvmlDeviceGetHandleByUUID", text, r,
                           clmem__nvml_error(f, r));
    info->free_bytes = m.free;
    info->total_bytes = m.total;
    info->source = CLMEM_MEMORY_INFO_NVML;
    info->exact = true;
    snprintf(info->note, sizeof info->note, "NVML nvmlDeviceGetMemoryInfo of %s", text);
    return CL_SUCCESS;
}

/* CUDA: cuMemGetInfo in the primary context of the GPU with this UUID */
static cl_int clmem__memory_info_cuda(const char *fn, const unsigned char uuid[16], clmem_memory_info *info) {
    const clmem__cuda_fns *f = NULL;
    clmem__CUdevice d = 0;
    size_t free_b = 0, total_b = 0;
    clmem__CUresult r;
    char text[48];
    cl_int err;
    if ((err = clmem__cuda(fn, &f)) != CL_SUCCESS || (err = clmem__cuda_device_by_uuid(fn, f, uuid, &d)) != CL_SUCCESS ||
        (err = clmem__cuda_enter(fn, f, d)) != CL_SUCCESS)
        return err;
    r = f->mem_get_info(&free_b, &total_b);
    clmem__cuda_leave(f, d);
    if (r != CLMEM__CUDA_SUCCESS) return clmem__cuda_fail(fn, f, "cuMemGetInfo_v2", r);
    clmem__uuid_text(uuid, text);
    info->free_bytes = free_b;
    info->total_bytes = total_b;
    info->source = CLMEM_MEMORY_INFO_CUDA;
    info->exact = true;
    snprintf(info->note, sizeof info->note, "CUDA cuMemGetInfo of CUDA device %d (%s)", (int)d, text);
    return CL_SUCCESS;
}

/* clmem__memory_info_nvidia(fn, uuid, info, why, size): NVML, else CUDA; when neither
   answers, CL_INVALID_OPERATION with both reasons in why */
static cl_int clmem__memory_info_nvidia(const char *fn, const unsigned char uuid[16], clmem_memory_info *info, char *why,
                                        size_t size) {
    char nvml_why[200];
    if (clmem__memory_info_nvml(fn, uuid, info) == CL_SUCCESS) return CL_SUCCESS;
    snprintf(nvml_why, sizeof nvml_why, "%.199s", clmem_last_error_message());
    if (clmem__memory_info_cuda(fn, uuid, info) == CL_SUCCESS) return CL_SUCCESS;
    snprintf(why, size, "NVML: %s; CUDA: %.400s", nvml_why, clmem_last_error_message());
    return CL_INVALID_OPERATION;
}

/* the host's available memory in bytes (Linux: MemAvailable of /proc/meminfo; Windows:
   GlobalMemoryStatusEx); false where it cannot be read */
static bool clmem__host_available(cl_ulong *bytes) {
#if defined(__linux__)
    char line[128];
    bool found = false;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return false;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long long kib = 0;
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
            *bytes = (cl_ulong)kib * 1024u;
            found = true;
        }
    }
    fclose(f);
    return found;
#elif defined(_WIN32)
    MEMORYSTATUSEX m;
    m.dwLength = sizeof m;
    if (!GlobalMemoryStatusEx(&m)) return false;
    *bytes = (cl_ulong)m.ullAvailPhys;
    return true;
#else
    (void)bytes;
    return false;
#endif
}

CLMEM_API const char *clmem_memory_info_source_name(clmem_memory_info_source source) {
    switch (source) {
    case CLMEM_MEMORY_INFO_NVML: return "NVML";
    case CLMEM_MEMORY_INFO_CUDA: return "CUDA";
    case CLMEM_MEMORY_INFO_AMD: return "AMD";
    case CLMEM_MEMORY_INFO_HOST: return "host";
    case CLMEM_MEMORY_INFO_TOTAL: return "total";
    default: return "?";
    }
}

CLMEM_API cl_int clmem_device_memory_info(cl_device_id device, clmem_memory_info *info) {
    static const char fn[] = "clmem_device_memory_info";
    cl_ulong total = 0, host = 0;
    cl_uint vendor = 0;
    cl_device_type type = 0;
    size_t amd[2] = {0, 0};
    char why[640] = "";
    unsigned char uuid[16];
    cl_int err;
    if (!info) return clmem__fail(CL_INVALID_VALUE, fn, "info is NULL");
    memset(info, 0, sizeof *info);
    if (!device) return clmem__fail(CL_INVALID_DEVICE, fn, "device is NULL");
    if ((err = clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof total, &total, NULL)) != CL_SUCCESS)
        return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_GLOBAL_MEM_SIZE");
    if ((err = clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL)) != CL_SUCCESS)
        return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_TYPE");
    if ((err = clGetDeviceInfo(device, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL)) != CL_SUCCESS)
        return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_VENDOR_ID");
    info->total_bytes = total;
    if (vendor == CLMEM__VENDOR_ID_NVIDIA && !(type & CL_DEVICE_TYPE_CPU)) {
        if (clmem__cl_device_uuid(fn, device, uuid) != CL_SUCCESS)
            snprintf(why, sizeof why, "%.600s", clmem_last_error_message());
        else if (clmem__memory_info_nvidia(fn, uuid, info, why, sizeof why) == CL_SUCCESS)
            return CL_SUCCESS;
    }
    if (clmem__device_lists(device, "cl_amd_device_attribute_query") &&
        clGetDeviceInfo(device, CL_DEVICE_GLOBAL_FREE_MEMORY_AMD, sizeof amd, amd, NULL) == CL_SUCCESS) {
        info->free_bytes = (cl_ulong)amd[0] * 1024u;
        info->source = CLMEM_MEMORY_INFO_AMD;
        info->exact = true;
        snprintf(info->note, sizeof info->note, "CL_DEVICE_GLOBAL_FREE_MEMORY_AMD (KiB; largest free block %llu KiB)",
                 (unsigned long long)amd[1]);
        return CL_SUCCESS;
    }
    if ((type & CL_DEVICE_TYPE_CPU) && clmem__host_available(&host)) {
        info->free_bytes = host < total ? host : total;
        info->source = CLMEM_MEMORY_INFO_HOST;
        info->exact = true;
        snprintf(info->note, sizeof info->note, "the host's MemAvailable (/proc/meminfo, %llu MiB)%s",
                 (unsigned long long)(host >> 20), host > total ? ", clipped to CL_DEVICE_GLOBAL_MEM_SIZE" : "");
        return CL_SUCCESS;
    }
    info->free_bytes = total;
    info->source = CLMEM_MEMORY_INFO_TOTAL;
    info->exact = false;
    snprintf(info->note, sizeof info->note, "an estimate: CL_DEVICE_GLOBAL_MEM_SIZE; %.340s",
             why[0] ? why
             : (type & CL_DEVICE_TYPE_CPU) ? "the host's available memory could not be read (/proc/meminfo)"
                                           : "the device is no NVIDIA GPU, lists no cl_amd_device_attribute_query and is no CPU");
    return CL_SUCCESS;
}
