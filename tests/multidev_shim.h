/* tests/multidev_shim.h - include BEFORE clmem.h (not part of clmem).

   The devices of the contexts available to the tests (two PoCL pthread devices, CPU
   sub-devices, two identical GPUs) all have the same CL_DEVICE_MEM_BASE_ADDR_ALIGN,
   so "aligned for one device of the context but not for the other" cannot happen on
   them. This shim lets a test make clmem's own code see a larger alignment for one
   chosen device: it renames clGetDeviceInfo inside the clmem implementation compiled
   into this test binary to shim_get_device_info, which asks the driver and then
   replaces CL_DEVICE_MEM_BASE_ADDR_ALIGN of shim_align_device by shim_align_bits.
   The driver itself never sees the change, and with shim_align_device NULL every
   query passes through untouched. The test's own code after clmem.h calls the real
   clGetDeviceInfo (multidev_cases.h undefines the name). */
#ifndef CLMEM_TESTS_MULTIDEV_SHIM_H
#define CLMEM_TESTS_MULTIDEV_SHIM_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

static cl_device_id shim_align_device; /* NULL: no override */
static cl_uint shim_align_bits;        /* what it reports instead, in bits */
static unsigned shim_align_queries;    /* how often clmem asked for shim_align_device's alignment */

static cl_int shim_get_device_info(cl_device_id device, cl_device_info param, size_t size, void *value,
                                   size_t *size_ret) {
    cl_int err = clGetDeviceInfo(device, param, size, value, size_ret);
    if (err == CL_SUCCESS && shim_align_device && device == shim_align_device && param == CL_DEVICE_MEM_BASE_ADDR_ALIGN &&
        value && size >= sizeof(cl_uint)) {
        *(cl_uint *)value = shim_align_bits;
        ++shim_align_queries;
    }
    return err;
}
#define clGetDeviceInfo shim_get_device_info
#endif
