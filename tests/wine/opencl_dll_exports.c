/* tests/wine/opencl_dll_exports.c - a bare-OpenCL reproducer (no clmem) of what Wine's
   OpenCL.dll lacks: the device it forwards reports OpenCL 3.0 and SVM, while the DLL
   exports no entry point past OpenCL 1.2, so a program that calls one (clSVMAlloc,
   clCreateCommandQueueWithProperties) stops at Wine's "Unimplemented function
   OpenCL.dll.X called". tools/wine builds and runs it; exit 0 when every entry point is
   there, 3 when some are missing (printed one a line). With the argument "call" it then
   calls clCreateCommandQueueWithProperties through the import library, as a program
   written for OpenCL 2.0 would. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>
#include <windows.h>

int main(int argc, char **argv) {
    static const char *const names[] = {"clSVMAlloc", "clSVMFree", "clEnqueueSVMMemcpy", "clEnqueueSVMMemFill",
                                        "clEnqueueSVMMap", "clEnqueueSVMUnmap", "clEnqueueSVMFree",
                                        "clSetKernelArgSVMPointer", "clSetKernelExecInfo",
                                        "clCreateCommandQueueWithProperties", "clCreateSamplerWithProperties",
                                        "clCreatePipe", "clGetPipeInfo", "clEnqueueSVMMigrateMem",
                                        "clCreateProgramWithIL", "clCreateBufferWithProperties",
                                        "clSetContextDestructorCallback"};
    cl_platform_id p;
    cl_device_id d;
    cl_uint n = 0;
    char version[256] = {0};
    cl_device_svm_capabilities svm = 0;
    HMODULE dll = GetModuleHandleA("OpenCL.dll");
    size_t i, missing = 0;
    if (clGetPlatformIDs(1, &p, &n) != CL_SUCCESS || n == 0 || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL)) {
        puts("no OpenCL device");
        return 2;
    }
    clGetDeviceInfo(d, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    clGetDeviceInfo(d, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
    printf("device: %s, CL_DEVICE_SVM_CAPABILITIES 0x%llx\n", version, (unsigned long long)svm);
    for (i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (!dll || !GetProcAddress(dll, names[i])) {
            printf("OpenCL.dll exports no %s\n", names[i]);
            ++missing;
        }
    if (argc > 1 && strcmp(argv[1], "call") == 0) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
        printf("clCreateCommandQueueWithProperties: %d\n", err);
        if (q) clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
    return missing ? 3 : 0;
}
