/* >>pipe: pipes (PyOpenCL's Pipe) */
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A pipe handle, passed by value (PyOpenCL's Pipe, a MemoryObject). Treat fields as
    read-only: mem (NULL for an empty handle), context, flags, packet_size, max_packets. */
typedef struct clmem_pipe {
    cl_mem mem;
    cl_context context;
    cl_mem_flags flags;
    cl_uint packet_size;
    cl_uint max_packets;
} clmem_pipe;

/** clmem_pipe_int_ptr(p): the raw cl_mem (PyOpenCL's int_ptr). */
static inline cl_mem clmem_pipe_int_ptr(clmem_pipe p) { return p.mem; }

/** clmem_pipe_create(context, flags, packet_size, max_packets, properties, &err):
    PyOpenCL's Pipe(context, flags, packet_size, max_packets, properties=()), through
    clCreatePipe (OpenCL 2.0).
    - flags: 0 (CL_MEM_READ_WRITE), CL_MEM_READ_WRITE, optionally | CL_MEM_HOST_NO_ACCESS.
    - packet_size: bytes per packet, 1 to CL_DEVICE_PIPE_MAX_PACKET_SIZE.
    - max_packets: capacity in packets, > 0.
    - properties: NULL or an empty (0-terminated) list; OpenCL defines no pipe property.
    Argument checks come first, so they hold on every runtime. Returns the handle; on
    failure an empty one and *errcode_ret (may be NULL):
      CL_INVALID_CONTEXT     NULL context
      CL_INVALID_VALUE       flags other than READ_WRITE / HOST_NO_ACCESS; a non-empty
                             properties list
      CL_INVALID_PIPE_SIZE   packet_size 0 or above the device's CL_DEVICE_PIPE_MAX_PACKET_SIZE;
                             max_packets 0
      CL_INVALID_OPERATION   no device of the context supports pipes (CL_DEVICE_PIPE_SUPPORT,
                             e.g. PoCL and NVIDIA), or clmem compiled against headers older
                             than 2.0; the message names the device
      or the driver's code. Thread safety: any thread.
    Example: clmem_pipe p = clmem_pipe_create(ctx, 0, sizeof(cl_int), 1024, NULL, &err); */
CLMEM_API clmem_pipe clmem_pipe_create(cl_context context, cl_mem_flags flags, cl_uint packet_size, cl_uint max_packets,
                                       const intptr_t *properties, cl_int *errcode_ret);

/** clmem_pipe_from_int_ptr(mem, retain, &err): wrap a raw pipe cl_mem. Errors:
    CL_INVALID_MEM_OBJECT (NULL, not valid, or not a CL_MEM_OBJECT_PIPE). */
CLMEM_API clmem_pipe clmem_pipe_from_int_ptr(cl_mem mem, bool retain, cl_int *errcode_ret);

/** Every pipe_info (PyOpenCL's get_pipe_info). */
typedef struct clmem_pipe_info {
    cl_uint packet_size;                /* CL_PIPE_PACKET_SIZE */
    cl_uint max_packets;                /* CL_PIPE_MAX_PACKETS */
    size_t num_properties;              /* entries of CL_PIPE_PROPERTIES (3.0) */
    intptr_t properties[8];             /* CL_PIPE_PROPERTIES (cl_pipe_properties), 0-terminated */
} clmem_pipe_info;

/** clmem_pipe_get_info(p, &info): every pipe_info from the driver. Errors:
    CL_INVALID_MEM_OBJECT (empty handle), CL_INVALID_VALUE (info NULL), driver codes. */
CLMEM_API cl_int clmem_pipe_get_info(clmem_pipe p, clmem_pipe_info *info);

/** clmem_pipe_release(&p): release and empty the handle; a second release is a no-op. */
CLMEM_API cl_int clmem_pipe_release(clmem_pipe *p);

#ifdef __cplusplus
}
#endif
