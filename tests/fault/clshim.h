/* tests/fault/clshim.h - control of the OpenCL fault-injection shim (libclmem_clshim,
   built from clshim.c). A test linked with the shim before libOpenCL calls OpenCL as
   usual; every call clmem.h can make passes through the shim, which forwards it.
   Injection points are the calls that can fail: everything but clRetain*, clRelease*,
   clSVMFree (void) and clGetExtensionFunctionAddressForPlatform (no error code). */
#ifndef CLMEM_CLSHIM_H
#define CLMEM_CLSHIM_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#ifdef __cplusplus
extern "C" {
#endif
/* clshim_arm(n, code): the n-th injection point from now (1-based) returns code
   without reaching the driver (creators: NULL and *errcode_ret = code); 0 disarms.
   Resets the call count, the injected name and the clshim_fail_call rules. */
void clshim_arm(unsigned long n, cl_int code);
/* clshim_fail_call(name, param, code): from now on every call of the OpenCL function
   `name` (for a clGet*Info, only those asking for `param`; 0: any) returns code without
   reaching the driver, until clshim_arm. Up to 8 such rules at once; returns 0 when
   the table is full. For tests that fail one query by name, or two calls at once. */
int clshim_fail_call(const char *name, unsigned param, cl_int code);
/* clshim_undo_failed_unmaps(): make the real unmaps of the clEnqueueUnmapMemObject
   calls that were failed by injection (the shim keeps their queue and buffer until
   then), so a release that went on after a failed unmap leaves no mapped buffer in the
   driver, and the live map count is as before. Call after the operation. */
void clshim_undo_failed_unmaps(void);
/* clshim_calls(): injection points passed since the last clshim_arm. */
unsigned long clshim_calls(void);
/* clshim_injected(): the OpenCL function that was failed since clshim_arm, or NULL. */
const char *clshim_injected(void);
/* clshim_injected_param(): for a failed clGet*Info, its param_name (else 0). */
unsigned clshim_injected_param(void);
/* Live counts since the process started: OpenCL references (creations, retains and
   enqueue-made events minus releases), maps (map minus unmap) and SVM blocks. */
long clshim_live_refs(void);
long clshim_live_maps(void);
long clshim_live_svm(void);
/* clshim_live_report(): the per-function balance of references, to stderr (for leaks). */
void clshim_live_report(void);
/* The functions the shim wraps (generated list). */
extern const char *const clshim__names[];
extern const unsigned clshim__name_count;
#ifdef __cplusplus
}
#endif
#endif
