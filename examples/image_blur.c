/* image_blur.c - a 3x3 box blur through a sampler, with clmem images.

   Build: cc -std=c11 -I. examples/image_blur.c -lOpenCL
   Makes a 64x48 grayscale test picture as a C array pic[y][x], loads it into an image
   with clmem_image_from_array (pixel (x, y) is pic[y][x]), blurs it in a kernel that
   reads through a CLAMP_TO_EDGE sampler and writes a second image, copies the result
   back with clmem_enqueue_copy and checks it against the same blur on the CPU. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include <stdio.h>

enum { W = 64, H = 48 };

static const char *source =
    "__kernel void blur(__read_only image2d_t src, __write_only image2d_t dst, sampler_t s) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float sum = 0.0f;\n"
    "    for (int dy = -1; dy <= 1; ++dy)\n"
    "        for (int dx = -1; dx <= 1; ++dx)\n"
    "            sum += read_imagef(src, s, (int2)(x + dx, y + dy)).x;\n"
    "    write_imagef(dst, (int2)(x, y), (float4)(sum / 9.0f, 0, 0, 1));\n"
    "}\n";

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(void) {
    static float pic[H][W], out[H][W];
    const size_t shape[] = {H, W}, global[] = {W, H};
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_int err;
    clmem_image src, dst;
    clmem_sampler samp;
    int x, y, bad = 0;
    double worst = 0;

    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    clmem_set_log_callback(clmem_log_stderr, NULL);

    for (y = 0; y < H; ++y)
        for (x = 0; x < W; ++x) pic[y][x] = (float)((x * 7 + y * 13) % 32) + (x == y ? 100.0f : 0.0f);

    src = clmem_image_from_array(ctx, &pic[0][0], 2, shape, &err); /* R FLOAT, 64 x 48, read-only */
    if (err != CL_SUCCESS) return 1;
    dst = clmem_create_image(ctx, CL_MEM_WRITE_ONLY, clmem_image_format_create(CL_R, CL_FLOAT), &err,
                             .shape = {W, H});
    if (err != CL_SUCCESS) return 1;
    samp = clmem_sampler_create(ctx, false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    if (err != CL_SUCCESS) return 1;
    printf("source %zu x %zu, element size %zu bytes\n", src.width, src.height, src.element_size);

    prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err = clBuildProgram(prog, 1, &device, "", NULL, NULL);
    k = clCreateKernel(prog, "blur", &err);
    if (err != CL_SUCCESS) return 1;
    clmem_set_kernel_arg(k, 0, src);
    clmem_set_kernel_arg(k, 1, dst);
    clmem_set_kernel_arg(k, 2, samp);
    clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL);
    err = clmem_enqueue_copy(q, (void *)out, dst); /* the whole image, blocking */
    if (err != CL_SUCCESS) return 1;

    for (y = 0; y < H; ++y)
        for (x = 0; x < W; ++x) {
            float sum = 0;
            int dx, dy;
            double diff;
            for (dy = -1; dy <= 1; ++dy)
                for (dx = -1; dx <= 1; ++dx) sum += pic[clampi(y + dy, 0, H - 1)][clampi(x + dx, 0, W - 1)];
            diff = (double)(out[y][x] - sum / 9.0f);
            if (diff < 0) diff = -diff;
            if (diff > worst) worst = diff;
            if (diff > 1e-4) ++bad;
        }
    printf("blurred: out[10][20] = %.4f, largest difference from the CPU blur %.2g, %d pixels off\n",
           (double)out[10][20], worst, bad);

    clReleaseKernel(k);
    clReleaseProgram(prog);
    clmem_release(&samp);
    clmem_release(&src);
    clmem_release(&dst);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return bad ? 1 : 0;
}
