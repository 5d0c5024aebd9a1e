/* >>pipe (implementation) */
#include "pipe.h"
#include "memobj.h"

/* CL_INVALID_PIPE_SIZE (-69) is named only by OpenCL 2.0+ headers. */
#define CLMEM__INVALID_PIPE_SIZE (-69)

/* clmem__pipe_support(fn, ctx, packet_size): some device of the context supports pipes
   and takes packets of packet_size bytes. */
static cl_int clmem__pipe_support(const char *fn, cl_context ctx, cl_uint packet_size) {
    cl_uint n = 0, i;
    cl_int result = CL_INVALID_OPERATION, err = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &err);
    char name[96] = {0};
    cl_uint largest = 0;
    if (!devs) return err;
    for (i = 0; i < n; ++i) {
        cl_bool support = CL_FALSE;
        cl_uint max_packet = 0;
        int version = 0;
        if ((err = clmem__device_version(fn, devs[i], &version)) != CL_SUCCESS) break;
#if defined(CL_VERSION_3_0)
        if (version >= 300 &&
            (err = clGetDeviceInfo(devs[i], CL_DEVICE_PIPE_SUPPORT, sizeof support, &support, NULL)) != CL_SUCCESS) {
            err = clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_PIPE_SUPPORT");
            break;
        }
        if (version < 300)
#endif
            support = version >= 200 ? CL_TRUE : CL_FALSE;
        /* the name only decorates the message: optional */
        if (!name[0] && clGetDeviceInfo(devs[i], CL_DEVICE_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS) name[0] = '\0';
        if (!support) continue;
#if defined(CL_VERSION_2_0)
        if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof max_packet, &max_packet, NULL)) !=
            CL_SUCCESS) {
            err = clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_PIPE_MAX_PACKET_SIZE");
            break;
        }
#endif
        if (max_packet > largest) largest = max_packet;
        if (max_packet == 0 || packet_size <= max_packet) {
            result = CL_SUCCESS;
            break;
        }
        result = CLMEM__INVALID_PIPE_SIZE;
    }
    CLMEM_FREE(devs);
    if (err != CL_SUCCESS) return err;
    if (result == CL_INVALID_OPERATION)
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "no device of the context supports pipes (CL_DEVICE_PIPE_SUPPORT is false on '%s'%s)", name,
                           n > 1 ? " and the others" : "");
    if (result == CLMEM__INVALID_PIPE_SIZE)
        return clmem__fail(CLMEM__INVALID_PIPE_SIZE, fn, "packet_size %u is above CL_DEVICE_PIPE_MAX_PACKET_SIZE %u",
                           packet_size, largest);
    return CL_SUCCESS;
}

/* clmem__pipe_failed(errcode_ret, err): a pipe constructor's failure exit: the code,
   and an empty handle. */
static clmem_pipe clmem__pipe_failed(cl_int *errcode_ret, cl_int err) {
    clmem_pipe p;
    memset(&p, 0, sizeof p);
    clmem__set_err(errcode_ret, err);
    return p;
}

/* what clmem_pipe_create checks before the driver */
static cl_int clmem__pipe_create_check(const char *fn, cl_context context, cl_mem_flags flags, cl_uint packet_size,
                                       cl_uint max_packets, const intptr_t *properties) {
    char text[200];
    if (!context) return clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
    if (flags & ~(cl_mem_flags)(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s: a pipe takes only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS",
                           clmem__mem_flags_text(flags, text, sizeof text));
    if (properties && properties[0] != 0)
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "properties[0] is 0x%llx: OpenCL defines no pipe property, so the list must be NULL or empty",
                           (unsigned long long)properties[0]);
    if (packet_size == 0) return clmem__fail(CLMEM__INVALID_PIPE_SIZE, fn, "packet_size is 0");
    if (max_packets == 0) return clmem__fail(CLMEM__INVALID_PIPE_SIZE, fn, "max_packets is 0");
    return clmem__pipe_support(fn, context, packet_size);
}

CLMEM_API clmem_pipe clmem_pipe_create(cl_context context, cl_mem_flags flags, cl_uint packet_size, cl_uint max_packets,
                                       const intptr_t *properties, cl_int *errcode_ret) {
    static const char fn[] = "clmem_pipe_create";
    clmem_pipe p;
    cl_int err = CL_SUCCESS;
    memset(&p, 0, sizeof p);
    if (CLMEM__CHECKS && (err = clmem__pipe_create_check(fn, context, flags, packet_size, max_packets, properties)) != CL_SUCCESS)
        return clmem__pipe_failed(errcode_ret, err);
#if defined(CL_VERSION_2_0)
    p.mem = clCreatePipe(context, flags, packet_size, max_packets, NULL, &err);
    if (err != CL_SUCCESS || !p.mem)
        return clmem__pipe_failed(errcode_ret, clmem__cl_fail(err ? err : CL_OUT_OF_RESOURCES, fn, "clCreatePipe"));
    p.context = context;
    p.flags = flags ? flags : CL_MEM_READ_WRITE;
    p.packet_size = packet_size;
    p.max_packets = max_packets;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return p;
#else
    return clmem__pipe_failed(errcode_ret, clmem__fail(CL_INVALID_OPERATION, fn, "clmem was compiled against OpenCL "
                                                       "headers older than 2.0, which have no pipes"));
#endif
}

CLMEM_API clmem_pipe clmem_pipe_from_int_ptr(cl_mem mem, bool retain, cl_int *errcode_ret) {
    static const char fn[] = "clmem_pipe_from_int_ptr";
    clmem_pipe p;
    cl_mem_object_type type = 0;
    cl_int err;
    memset(&p, 0, sizeof p);
    if (!mem) return clmem__pipe_failed(errcode_ret, clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem is NULL"));
    err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
#if defined(CL_VERSION_2_0)
    if (err == CL_SUCCESS && type == CL_MEM_OBJECT_PIPE) {
        err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof p.context, &p.context, NULL);
        if (err == CL_SUCCESS) err = clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof p.flags, &p.flags, NULL);
        if (err == CL_SUCCESS) err = clGetPipeInfo(mem, CL_PIPE_PACKET_SIZE, sizeof p.packet_size, &p.packet_size, NULL);
        if (err == CL_SUCCESS) err = clGetPipeInfo(mem, CL_PIPE_MAX_PACKETS, sizeof p.max_packets, &p.max_packets, NULL);
        if (err == CL_SUCCESS && retain) err = clRetainMemObject(mem);
        if (err == CL_SUCCESS) {
            p.mem = mem;
            clmem__set_err(errcode_ret, CL_SUCCESS);
            return p;
        }
    } else if (err == CL_SUCCESS) {
        err = CL_INVALID_MEM_OBJECT;
    }
#else
    (void)retain;
    if (err == CL_SUCCESS) err = CL_INVALID_MEM_OBJECT;
#endif
    return clmem__pipe_failed(errcode_ret, clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                                                       "mem %p is not a valid pipe (%s, CL_MEM_TYPE 0x%x)", (void *)mem,
                                                       clmem_error_string(err), (unsigned)type));
}

CLMEM_API cl_int clmem_pipe_get_info(clmem_pipe p, clmem_pipe_info *info) {
    static const char fn[] = "clmem_pipe_get_info";
    if (!info) return clmem__fail(CL_INVALID_VALUE, fn, "info is NULL");
    memset(info, 0, sizeof *info);
    if (!p.mem) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "p is an empty or released handle");
#if defined(CL_VERSION_2_0)
    {
        cl_int err = clGetPipeInfo(p.mem, CL_PIPE_PACKET_SIZE, sizeof info->packet_size, &info->packet_size, NULL);
        if (err == CL_SUCCESS) err = clGetPipeInfo(p.mem, CL_PIPE_MAX_PACKETS, sizeof info->max_packets, &info->max_packets, NULL);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetPipeInfo");
#if defined(CL_VERSION_3_0)
        {
            size_t bytes = 0;
            if (clGetPipeInfo(p.mem, CL_PIPE_PROPERTIES, 0, NULL, &bytes) == CL_SUCCESS && bytes > 0 &&
                bytes <= sizeof info->properties &&
                clGetPipeInfo(p.mem, CL_PIPE_PROPERTIES, bytes, info->properties, NULL) == CL_SUCCESS) {
                size_t n = bytes / sizeof(intptr_t);
                while (n > 0 && info->properties[n - 1] == 0) --n;
                info->num_properties = n;
            }
        }
#endif
        return CL_SUCCESS;
    }
#else
    return clmem__fail(CL_INVALID_OPERATION, fn, "clmem was compiled against OpenCL headers older than 2.0");
#endif
}

CLMEM_API cl_int clmem_pipe_release(clmem_pipe *p) {
    cl_mem mem;
    if (!p || !p->mem) return CL_SUCCESS;
    mem = p->mem;
    memset(p, 0, sizeof *p);
    return clmem__release_mem("clmem_pipe_release", mem);
}

