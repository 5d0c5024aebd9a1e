// examples/transfer_bandwidth.cpp - host <-> device bandwidth in the style of clpeak's
// transfer test (clpeak/src/transfer_bandwidth.cpp), written with clmem from C++.
//
//   c++ -std=c++11 -I. examples/transfer_bandwidth.cpp -lOpenCL -o transfer_bandwidth
//   ./transfer_bandwidth [MiB per transfer, default 64] [iterations, default 8]
//
// Runs on every device CLMEM_TEST selects (all devices when unset), e.g.
// CLMEM_TEST=nvidia ./transfer_bandwidth 256. Prints GB/s (10^9 bytes per second) on
// the host clock, as clpeak does: transfers timed together over `iterations` runs after
// a warm-up; for the maps only the map, the memcpy or the unmap is timed, and a map or
// unmap more than 5x faster than the best real transfer prints "inf (zero-copy)".
//
// What clmem does here: one clmem_enqueue_copy for reads and writes in both directions
// (the direction comes from the argument types), named options (clmem::is_blocking =
// false), maps that unmap themselves (clmem::unique<clmem_memory_map>), owned buffers
// (clmem::unique<clmem_buffer>) and, with CLMEM_CXX_EXCEPTIONS, no error checks in
// the code: any failure throws clmem::error naming the call, the argument and the values.
//
// The options are keywords, which compile in every C++ standard, so this file builds as
// C++11 and as C++20 alike; a C++20-only program could write `.is_blocking = false` as
// in C.
#define CLMEM_CXX_EXCEPTIONS
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

typedef std::chrono::steady_clock clk;
double since(clk::time_point t0) { return std::chrono::duration<double>(clk::now() - t0).count(); }

// clpeak's rule: a map or unmap more than 5x faster than the best real transfer moved
// no data (zero-copy, shared memory).
const double zero_copy_multiplier = 5.0;

struct bench {
    cl_command_queue q;
    int iters;
    size_t bytes;
    double peak;   // best real transfer so far (GB/s)
    bench(cl_command_queue queue, int n, size_t size) : q(queue), iters(n), bytes(size), peak(0) {}
    double gbps(double seconds) const { return static_cast<double>(bytes) * iters / seconds / 1e9; }
    // `iters` runs of op after one warm-up, timed together on the host clock.
    template <class Op> double transfer(const char *what, Op op) {
        op();
        clmem::check(clFinish(q));
        clk::time_point t0 = clk::now();
        for (int i = 0; i < iters; i++) op();
        clmem::check(clFinish(q));
        double r = gbps(since(t0));
        if (r > peak) peak = r;
        std::printf("      %-32s: %8.2f\n", what, r);
        return r;
    }
    // `iters` runs of op, which times its own part (op returns seconds).
    template <class Op> void part(const char *what, bool map_or_unmap, Op op) const {
        clmem::check(clFinish(q));
        double s = 0;
        for (int i = 0; i < iters; i++) s += op();
        double r = gbps(s);
        if (map_or_unmap && peak > 0 && r > peak * zero_copy_multiplier)
            std::printf("      %-32s: inf (zero-copy)\n", what);
        else
            std::printf("      %-32s: %8.2f\n", what, r);
    }
};

void device_bandwidth(cl_platform_id platform, cl_device_id device, size_t mib, int iters) {
    char pname[256] = "", dname[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    std::printf("Platform: %s\n  Device: %s\n", pname, dname);

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    clmem::check(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    clmem::check(err);

    cl_ulong max_alloc = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    size_t bytes = mib << 20;
    if (bytes > max_alloc / 2) bytes = static_cast<size_t>(max_alloc / 2) & ~static_cast<size_t>(4095);
    std::vector<float> host(bytes / sizeof(float), 1.0f);

    // as clpeak: host-visible memory where the driver offers it
    clmem::unique<clmem_buffer> buf(clmem_buffer_create(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err));
    clmem::check(err);
    clmem::unique<clmem_buffer> buf2(clmem_buffer_create(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err));
    clmem::check(err);

    bench b(q, iters, bytes);
    std::printf("    Transfer bandwidth (GBPS), %zu MiB x %d\n", bytes >> 20, iters);
    b.transfer("enqueueWriteBuffer", [&] { clmem_enqueue_copy(q, buf, host.data()); });
    b.transfer("enqueueReadBuffer", [&] { clmem_enqueue_copy(q, host.data(), buf); });
    b.transfer("enqueueWriteBuffer non-blocking",
               [&] { clmem_enqueue_copy(q, buf, host.data(), clmem::is_blocking = false); });
    b.transfer("enqueueReadBuffer non-blocking",
               [&] { clmem_enqueue_copy(q, host.data(), buf, clmem::is_blocking = false); });
    // maps: a clmem::unique<clmem_memory_map> unmaps when it goes out of scope
    b.part("enqueueMapBuffer(for read)", true, [&] {
        clmem::unique<clmem_memory_map> m;
        clk::time_point t0 = clk::now();
        clmem_enqueue_map_buffer(q, buf, CL_MAP_READ, 0, float, m.out());
        return since(t0);
    });
    b.part("  memcpy from mapped ptr", false, [&] {
        clmem::unique<clmem_memory_map> m;
        clmem_enqueue_map_buffer(q, buf, CL_MAP_READ, 0, float, m.out());
        clk::time_point t0 = clk::now();
        std::memcpy(host.data(), clmem::data<float>(m), bytes);
        return since(t0);
    });
    b.part("enqueueUnmap(after write)", true, [&] {
        clmem::unique<clmem_memory_map> m;
        clmem_enqueue_map_buffer(q, buf, CL_MAP_WRITE, 0, float, m.out());
        clk::time_point t0 = clk::now();
        m.reset();   // the unmap
        clmem::check(clFinish(q));
        return since(t0);
    });
    b.part("  memcpy to mapped ptr", false, [&] {
        clmem::unique<clmem_memory_map> m;
        clmem_enqueue_map_buffer(q, buf, CL_MAP_WRITE, 0, float, m.out());
        clk::time_point t0 = clk::now();
        std::memcpy(clmem::data<float>(m), host.data(), bytes);
        return since(t0);
    });
    // beyond clpeak: on the device
    b.transfer("enqueueCopyBuffer (device)", [&] { clmem_enqueue_copy(q, buf2, buf); });
    b.transfer("enqueueFillBuffer (device)", [&] { clmem_enqueue_fill(q, buf, 0.0f, bytes); });

    // the data made the round trip
    std::vector<float> check(host.size(), 0.0f);
    clmem_enqueue_fill(q, buf, 2.5f, bytes);
    clmem_enqueue_copy(q, buf2, buf);
    clmem_enqueue_copy(q, check.data(), buf2);
    if (check.front() != 2.5f || check.back() != 2.5f) std::printf("    data check FAILED\n");

    buf.reset();
    buf2.reset();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

} // namespace

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? std::strtoul(argv[1], NULL, 10) : 64;
    int iters = argc > 2 ? std::atoi(argv[2]) : 8;
    if (mib == 0 || iters <= 0) {
        std::fprintf(stderr, "usage: %s [MiB per transfer > 0] [iterations > 0]\n", argv[0]);
        return 2;
    }
    try {
        size_t n = 0;
        clmem::check(clmem_get_test_platforms_and_devices(NULL, NULL, 0, &n));
        std::vector<clmem_test_device> devices(n);
        clmem::check(clmem_get_test_platforms_and_devices(NULL, devices.data(), n, &n));
        for (const clmem_test_device &d : devices) device_bandwidth(d.platform, d.device, mib, iters);
    } catch (const clmem::error &e) {
        std::fprintf(stderr, "transfer_bandwidth: %s\n", e.what());
        return 1;
    }
    return 0;
}
