/* peer_bench.c - peer memory between NVIDIA GPUs, in one run: clmem's device-link copy
   between peer buffers against CUDA's own cuMemcpy of the same memory, every ordered
   pair of GPUs, then a ring of copies at once; and clmem_device_memory_info against
   nvidia-smi's free figure, idle and while another process holds 40 GiB.

   Build (on any x86-64 Linux; no CUDA needed): cc -std=c11 -O2 -I. -Itests bench/peer_bench.c -o peer_bench -lOpenCL -ldl
   Run:   peer_bench [SIZE ...]        pairs and rings, sizes in MiB (default 64 256; at most
                                       CLMEM_PEER_BUFFER_MAX), NVIDIA's platform, every GPU
          peer_bench pairs SIZE ...    only the ordered pairs
          peer_bench ring GPUS SIZE ...  only the ring, of the first GPUS GPUs
          peer_bench memory [GIB]      only the free-memory comparison (a child holds GIB, default 40)
          peer_bench pool MIB [ROUNDS] peer buffers in a loop on GPU 0: made and released each round
                                       (create, view, release) against a peer pool's (allocate on
                                       the queue, view, release on the queue); default 200 rounds
          peer_bench probe MIB NBUF NVIEW   one configuration of imports (bench/peer_gpu.sh runs it in
                                            child processes: NVIDIA's driver has crashed on imports)
          peer_bench hog GPU GIB       (internal) hold GIB on CUDA device GPU until stdin closes
   bench/peer_gpu.sh runs everything on the GPU host.

   Per size and ordered pair (a, b): two peer buffers (clmem_peer_buffer_create, one on each
   GPU), the source written with a pattern; then
   - clmem: clmem_device_link_copy(link a->b, view of b, view of a, .is_blocking = true):
     one clEnqueueCopyBuffer on a's queue between the views imported for a, ordered after b's
     queue (a marker) and done before its later work (blocking: no barrier); the statistics must count
     a peer copy;
   - bare OpenCL: clEnqueueCopyBuffer on a's queue between the same views, then clFinish (the
     link's copy without its ordering against b's queue);
   - CUDA: the same two allocations mapped into CUDA's address space (cuMemMap of the very
     cuMemCreate handles), cuMemcpy in a's primary context, then cuCtxSynchronize.
   Best and median of REPS copies each (1 GB = 1e9 bytes); after each variant the destination
   is read back through OpenCL (b's view, b's queue) and compared with the pattern. For the pair
   0 -> 1 also a device link between plain buffers (pinned staging, what a link did before).
   Ring: every GPU g copies a buffer of its own into another on GPU g+1, all at once (links
   g -> g+1 whose destination queue is a second queue of g+1, so that no copy is ordered
   behind another; events), bytes checked, GB/s in all = GPUs * size / time. Exit code 1 when any bytes differ. */
#define _GNU_SOURCE
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

enum { MAXG = 8, REPS = 7 };

/* ---- CUDA: what the bench calls beyond clmem's own (libcuda at run time) ---- */
typedef clmem__CUresult R;
static struct {
    R (*ctx_set)(clmem__CUcontext);
    R (*ctx_sync)(void);
    R (*memcpy_)(clmem__CUdeviceptr, clmem__CUdeviceptr, size_t);
    R (*reserve)(clmem__CUdeviceptr *, size_t, size_t, clmem__CUdeviceptr, unsigned long long);
    R (*map)(clmem__CUdeviceptr, size_t, size_t, clmem__CUmemhandle, unsigned long long);
    R (*set_access)(clmem__CUdeviceptr, size_t, const clmem__CUmemAccessDesc *, size_t);
    R (*unmap)(clmem__CUdeviceptr, size_t);
    R (*addr_free)(clmem__CUdeviceptr, size_t);
    R (*alloc)(clmem__CUdeviceptr *, size_t);
    R (*retain)(clmem__CUcontext *, clmem__CUdevice);
} cu;
static const clmem__cuda_fns *cuf;

static int load_cuda(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib || clmem__cuda("peer_bench", &cuf) != CL_SUCCESS) {
        printf("no libcuda: %s\n", lib ? clmem_last_error_message() : dlerror());
        return 0;
    }
#define SYM(f, s) *(void **)&cu.f = dlsym(lib, s)
    SYM(ctx_set, "cuCtxSetCurrent");
    SYM(ctx_sync, "cuCtxSynchronize");
    SYM(memcpy_, "cuMemcpy");
    SYM(reserve, "cuMemAddressReserve");
    SYM(map, "cuMemMap");
    SYM(set_access, "cuMemSetAccess");
    SYM(unmap, "cuMemUnmap");
    SYM(addr_free, "cuMemAddressFree");
    SYM(alloc, "cuMemAlloc_v2");
    SYM(retain, "cuDevicePrimaryCtxRetain");
#undef SYM
    return cu.ctx_set && cu.ctx_sync && cu.memcpy_ && cu.reserve && cu.map && cu.set_access && cu.unmap && cu.addr_free &&
           cu.alloc && cu.retain;
}
#define CU(x)                                                                   \
    do {                                                                        \
        R r_ = (x);                                                             \
        if (r_) printf("  %s -> CUresult %d (line %d)\n", #x, (int)r_, __LINE__); \
    } while (0)

/* ---- OpenCL: NVIDIA's GPUs in one context ---- */
static cl_platform_id platform;
static cl_device_id dev[MAXG];
static cl_command_queue q[MAXG];
static cl_context ctx;
static int G;
static clmem__CUdevice cudev[MAXG];
static clmem__CUcontext cuctx[MAXG];

static int setup(void) {
    cl_platform_id ps[16];
    cl_uint np = 0, nd = 0, i;
    cl_int err;
    clGetPlatformIDs(16, ps, &np);
    for (i = 0; i < np && !nd; ++i) {
        char name[128] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, "NVIDIA") && clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, MAXG, dev, &nd) == CL_SUCCESS) platform = ps[i];
    }
    if (!nd) {
        printf("no NVIDIA OpenCL platform with GPUs\n");
        return 0;
    }
    G = (int)nd;
    ctx = clCreateContext(NULL, nd, dev, NULL, NULL, &err);
    if (!ctx) {
        printf("clCreateContext: %s\n", clmem_error_string(err));
        return 0;
    }
    for (i = 0; i < nd; ++i) {
        unsigned char uuid[16];
        q[i] = clCreateCommandQueueWithProperties(ctx, dev[i], NULL, &err);
        if (clmem__cl_device_uuid("peer_bench", dev[i], uuid) != CL_SUCCESS ||
            clmem__cuda_device_by_uuid("peer_bench", cuf, uuid, &cudev[i]) != CL_SUCCESS) {
            printf("GPU %u: %s\n", i, clmem_last_error_message());
            return 0;
        }
        CU(cu.retain(&cuctx[i], cudev[i]));
    }
    return 1;
}

/* ---- free memory: clmem against nvidia-smi ---- */
typedef struct {
    char uuid[64];
    long long free_mib;
} smi_row;
static int smi(smi_row *rows, int max) {
    FILE *p = popen("nvidia-smi --query-gpu=uuid,memory.free --format=csv,noheader,nounits 2>/dev/null", "r");
    int n = 0;
    char line[256];
    if (!p) return 0;
    while (n < max && fgets(line, sizeof line, p))
        if (sscanf(line, "%63[^,], %lld", rows[n].uuid, &rows[n].free_mib) == 2) ++n;
    pclose(p);
    return n;
}
static int memory_report(const char *when) {
    smi_row rows[MAXG];
    int n = smi(rows, MAXG), g, bad = 0;
    printf("free memory, %s (MiB; nvidia-smi rounds to MiB):\n", when);
    for (g = 0; g < G; ++g) {
        clmem_memory_info info, viacuda;
        unsigned char uuid[16];
        char text[48], why[640];
        long long smi_free = -1;
        int k;
        clmem_device_memory_info(dev[g], &info);
        clmem__cl_device_uuid("peer_bench", dev[g], uuid);
        clmem__uuid_text(uuid, text);
        for (k = 0; k < n; ++k)
            if (strcmp(rows[k].uuid, text) == 0) smi_free = rows[k].free_mib;
        memset(&viacuda, 0, sizeof viacuda);
        clmem__memory_info_cuda("peer_bench", uuid, &viacuda);
        (void)why;
        printf("  GPU %d %s: clmem %lld (%s%s) of %lld; cuMemGetInfo %lld; nvidia-smi %lld; clmem - smi %+lld MiB%s\n", g,
               text, (long long)(info.free_bytes >> 20), clmem_memory_info_source_name(info.source),
               info.exact ? "" : ", estimate", (long long)(info.total_bytes >> 20), (long long)(viacuda.free_bytes >> 20),
               smi_free, smi_free < 0 ? 0 : (long long)(info.free_bytes >> 20) - smi_free,
               smi_free >= 0 && llabs((long long)(info.free_bytes >> 20) - smi_free) > 64 ? "  (more than 64 MiB apart)" : "");
        if (smi_free >= 0 && llabs((long long)(info.free_bytes >> 20) - smi_free) > 64) bad = 1;
    }
    return bad;
}
static int memory_section(int gib) {
    int bad = memory_report("idle"), to_child[2], from_child[2];
    char ready[64] = "";
    pid_t pid;
    if (pipe(to_child) || pipe(from_child)) return 1;
    pid = fork();
    if (pid == 0) {
        char arg[32];
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[1]);
        close(from_child[0]);
        snprintf(arg, sizeof arg, "%d", gib);
        execl("/proc/self/exe", "peer_bench", "hog", "0", arg, (char *)NULL);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    if (read(from_child[0], ready, sizeof ready - 1) <= 0 || strncmp(ready, "ready", 5) != 0) {
        printf("the child holding %d GiB did not start: %s\n", gib, ready);
        bad = 1;
    } else {
        char when[64];
        snprintf(when, sizeof when, "another process holds %d GiB on GPU 0", gib);
        bad |= memory_report(when);
    }
    close(to_child[1]); /* the child ends */
    waitpid(pid, NULL, 0);
    close(from_child[0]);
    return bad;
}
static int hog(int gpu, int gib) {
    clmem__CUcontext c;
    clmem__CUdevice d;
    clmem__CUdeviceptr p = 0;
    char buf[8];
    if (!load_cuda() || cuf->device_get(&d, gpu) || cu.retain(&c, d) || cu.ctx_set(c) ||
        cu.alloc(&p, (size_t)gib << 30)) {
        printf("failed\n");
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    while (read(0, buf, sizeof buf) > 0) {}
    return 0;
}

/* ---- the copies ---- */
static unsigned char *pattern, *back;
static void fill_pattern(size_t n, unsigned seed) {
    size_t i;
    for (i = 0; i < n; ++i) pattern[i] = (unsigned char)(i * 131u + seed);
}
static int check(int g, clmem_buffer v, size_t n) {
    memset(back, 0, n);
    if (clmem_enqueue_copy(q[g], back, v, .byte_count = n) != CL_SUCCESS) {
        printf("  read back: %s\n", clmem_last_error_message());
        return 0;
    }
    return memcmp(back, pattern, n) == 0;
}

/* the cuMemCreate allocation of a peer buffer mapped into CUDA's address space */
static clmem__CUdeviceptr cuda_map(clmem_peer_buffer *pb) {
    clmem__CUdeviceptr va = 0;
    clmem__CUmemAccessDesc acc[MAXG];
    int k;
    CU(cu.reserve(&va, pb->alloc_size, 0, 0, 0));
    CU(cu.map(va, pb->alloc_size, 0, pb->handle, 0));
    for (k = 0; k < G; ++k) {
        acc[k].location.type = CLMEM__CU_MEM_LOCATION_TYPE_DEVICE;
        acc[k].location.id = cudev[k];
        acc[k].flags = CLMEM__CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
    CU(cu.set_access(va, pb->alloc_size, acc, (size_t)G));
    return va;
}
static void cuda_unmap(clmem_peer_buffer *pb, clmem__CUdeviceptr va) {
    CU(cu.unmap(va, pb->alloc_size));
    CU(cu.addr_free(va, pb->alloc_size));
}

static clmem_device_link *links[MAXG][MAXG];
static int failures;

static double gbs(size_t n, double s) { return s > 0 ? (double)n / s / 1e9 : 0; }

static void pair(int a, int b, size_t n) {
    cl_int err;
    clmem_peer_buffer *pa = clmem_peer_buffer_create(ctx, dev[a], n, &err), *pbuf;
    clmem_buffer va, vb;
    clmem_device_link_stats s0, s1;
    double t[REPS], c[REPS], bare[REPS], best, cbest, med, cmed, bbest;
    int r, ok, cok, bok;
    clmem__CUdeviceptr ca, cb;
    if (!pa) {
        printf("  GPU %d -> %d, %zu MiB: %s\n", a, b, n >> 20, clmem_last_error_message());
        return;
    }
    pbuf = clmem_peer_buffer_create(ctx, dev[b], n, &err);
    va = clmem_peer_buffer_view(pa, q[a], &err);
    vb = pbuf ? clmem_peer_buffer_view(pbuf, q[b], &err) : va;
    if (!pbuf || err != CL_SUCCESS) {
        printf("  GPU %d -> %d, %zu MiB: %s\n", a, b, n >> 20, clmem_last_error_message());
        clmem_peer_buffer_release(pa);
        clmem_peer_buffer_release(pbuf);
        return;
    }
    fill_pattern(n, (unsigned)(a * 8 + b));
    clmem_enqueue_copy(q[a], va, pattern, .byte_count = n);
    clmem_device_link_get_stats(links[a][b], &s0);
    err = clmem_device_link_copy(links[a][b], vb, va, .is_blocking = true); /* warm: the views for a are made here */
    if (err != CL_SUCCESS) {
        printf("  GPU %d -> %d, %zu MiB: clmem_device_link_copy: %s\n", a, b, n >> 20, clmem_last_error_message());
        failures++;
    }
    for (r = 0; r < REPS; ++r) {
        double t0 = bench_now();
        clmem_device_link_copy(links[a][b], vb, va, .is_blocking = true);
        t[r] = bench_now() - t0;
    }
    clmem_device_link_get_stats(links[a][b], &s1);
    ok = check(b, vb, n);
    /* bare OpenCL on the same views: clEnqueueCopyBuffer on a's queue, clFinish (the ceiling
       of the link's copy, which adds a marker on b's queue before and a barrier after) */
    {
        clmem_buffer vba = clmem_peer_buffer_view(pbuf, q[a], &err);
        for (r = 0; r < REPS; ++r) {
            double t0 = bench_now();
            clEnqueueCopyBuffer(q[a], va.mem, vba.mem, 0, 0, n, 0, NULL, NULL);
            clFinish(q[a]);
            bare[r] = bench_now() - t0;
        }
        bok = check(b, vb, n);
    }
    /* CUDA, the same memory */
    CU(cu.ctx_set(cuctx[a]));
    ca = cuda_map(pa);
    cb = cuda_map(pbuf);
    clmem_enqueue_fill(q[b], vb, (cl_uint)0, n);
    clFinish(q[b]);
    CU(cu.ctx_set(cuctx[a]));
    CU(cu.memcpy_(cb, ca, n));
    CU(cu.ctx_sync());
    for (r = 0; r < REPS; ++r) {
        double t0 = bench_now();
        CU(cu.memcpy_(cb, ca, n));
        CU(cu.ctx_sync());
        c[r] = bench_now() - t0;
    }
    cok = check(b, vb, n);
    cuda_unmap(pa, ca);
    cuda_unmap(pbuf, cb);
    best = t[0];
    cbest = c[0];
    for (r = 1; r < REPS; ++r) {
        if (t[r] < best) best = t[r];
        if (c[r] < cbest) cbest = c[r];
    }
    bbest = bare[0];
    for (r = 1; r < REPS; ++r)
        if (bare[r] < bbest) bbest = bare[r];
    med = bench_median(t, REPS);
    cmed = bench_median(c, REPS);
    printf("  GPU %d -> %d %5zu MiB: clmem %6.1f GB/s (median %6.1f), cuMemcpy %6.1f (median %6.1f), clmem/CUDA %.2f "
           "(median %.2f); bare clEnqueueCopyBuffer on the views %6.1f (median %6.1f); path %s; bytes %s/%s/%s\n",
           a, b, n >> 20, gbs(n, best), gbs(n, med), gbs(n, cbest), gbs(n, cmed), cbest / best, cmed / med, gbs(n, bbest),
           gbs(n, bench_median(bare, REPS)), s1.peer_copies - s0.peer_copies == REPS + 1 ? "peer (GPU to GPU)" : "NOT PEER",
           ok ? "equal" : "DIFFER", bok ? "equal" : "DIFFER", cok ? "equal" : "DIFFER");
    if (!ok || !cok || !bok || s1.peer_copies - s0.peer_copies != REPS + 1) failures++;
    clmem_peer_buffer_release(pa);
    clmem_peer_buffer_release(pbuf);
}

/* plain buffers through the same link: pinned staging (what a link does without peer memory) */
static void staged(int a, int b, size_t n) {
    cl_int err;
    clmem_buffer x = clmem_buffer_create(ctx, 0, n, NULL, &err), y = clmem_buffer_create(ctx, 0, n, NULL, &err);
    double t[REPS];
    int r, ok;
    if (!x.mem || !y.mem) return;
    fill_pattern(n, 99);
    clmem_enqueue_copy(q[a], x, pattern, .byte_count = n);
    clmem_device_link_copy(links[a][b], y, x, .is_blocking = true);
    for (r = 0; r < REPS; ++r) {
        double t0 = bench_now();
        clmem_device_link_copy(links[a][b], y, x, .is_blocking = true);
        t[r] = bench_now() - t0;
    }
    ok = check(b, y, n);
    printf("  GPU %d -> %d %5zu MiB: plain buffers, the same link (pinned staging) %6.1f GB/s (median); bytes %s\n", a, b,
           n >> 20, gbs(n, bench_median(t, REPS)), ok ? "equal" : "DIFFER");
    if (!ok) failures++;
    clmem_buffer_release(&x);
    clmem_buffer_release(&y);
}

static void ring(size_t n) {
    /* src[g] on GPU g, dst[g] on GPU g: GPU g copies src[g] into dst[g + 1]. Independent
       copies: each link's destination queue is a second queue of the destination's device
       (qd), so no copy is ordered behind another (a link orders its copy after its
       destination queue's earlier work, and the destination queue's later work after it:
       with q[g + 1] as the destination, copy g + 1 -> g + 2, enqueued on q[g + 1] later,
       would wait for copy g -> g + 1, and the ring would run one copy at a time). */
    clmem_peer_buffer *src[MAXG] = {NULL}, *dst[MAXG] = {NULL};
    clmem_buffer vs[MAXG], vd[MAXG];
    clmem_device_link *rl[MAXG] = {NULL};
    cl_command_queue qd[MAXG] = {NULL};
    cl_event ev[MAXG];
    double t[REPS], total;
    int g, r, ok = 1;
    cl_int err = CL_SUCCESS;
    for (g = 0; g < G && err == CL_SUCCESS; ++g) {
        src[g] = clmem_peer_buffer_create(ctx, dev[g], n, &err);
        if (src[g]) dst[g] = clmem_peer_buffer_create(ctx, dev[g], n, &err);
        if (dst[g]) vs[g] = clmem_peer_buffer_view(src[g], q[g], &err);
        if (err == CL_SUCCESS) vd[g] = clmem_peer_buffer_view(dst[g], q[g], &err);
        if (err == CL_SUCCESS) qd[g] = clCreateCommandQueueWithProperties(ctx, dev[g], NULL, &err);
    }
    for (g = 0; g < G && err == CL_SUCCESS; ++g) rl[g] = clmem_device_link_create(q[g], qd[(g + 1) % G], 0, 0, &err);
    if (err != CL_SUCCESS) {
        printf("  ring of %d, %zu MiB: %s (%d)\n", G, n >> 20, clmem_last_error_message(), (int)err);
        goto out;
    }
    fill_pattern(n, 7);
    for (g = 0; g < G; ++g) clmem_enqueue_copy(q[g], vs[g], pattern, .byte_count = n);
    for (r = -1; r < REPS; ++r) { /* r = -1: warm (the link makes GPU g's view of dst[g + 1]) */
        double t0 = bench_now();
        for (g = 0; g < G; ++g) clmem_device_link_copy(rl[g], vd[(g + 1) % G], vs[g], .event = &ev[g]);
        clWaitForEvents((cl_uint)G, ev);
        if (r >= 0) t[r] = bench_now() - t0;
        for (g = 0; g < G; ++g) clReleaseEvent(ev[g]);
    }
    for (g = 0; g < G; ++g) ok &= check(g, vd[g], n);
    total = (double)G * (double)n;
    {
        double best = t[0], med;
        for (r = 1; r < REPS; ++r)
            if (t[r] < best) best = t[r];
        med = bench_median(t, REPS);
        printf("  ring of %d at once, %5zu MiB each: %7.1f GB/s in all (median %7.1f), %.1f per GPU; bytes %s\n", G,
               n >> 20, total / 1e9 / best, total / 1e9 / med, total / 1e9 / med / G, ok ? "equal" : "DIFFER");
    }
    if (!ok) failures++;
out:
    for (g = 0; g < G; ++g) {
        if (rl[g]) clmem_device_link_release(rl[g]);
        clmem_peer_buffer_release(src[g]);
        clmem_peer_buffer_release(dst[g]);
        if (qd[g]) clReleaseCommandQueue(qd[g]);
    }
}

/* ---- one configuration of imports (run in a child process by bench/peer_gpu.sh) ---- */
static int probe(size_t n, int nbuf, int nview) {
    clmem_peer_buffer *pb[MAXG] = {NULL};
    clmem_buffer v[MAXG][MAXG];
    cl_int err;
    int i, k;
    fill_pattern(n, 3);
    for (i = 0; i < nbuf; ++i) {
        pb[i] = clmem_peer_buffer_create(ctx, dev[i % G], n, &err);
        if (!pb[i]) {
            printf("create %d: %s\n", i, clmem_last_error_message());
            return 2;
        }
        for (k = 0; k < nview; ++k) {
            v[i][k] = clmem_peer_buffer_view(pb[i], q[k % G], &err);
            if (err != CL_SUCCESS) {
                printf("view %d for GPU %d: %s\n", i, k, clmem_last_error_message());
                return 2;
            }
        }
        clmem_enqueue_copy(q[i % G], v[i][i % G < nview ? i % G : 0], pattern, .byte_count = n);
    }
    for (i = 0; i + 1 < nbuf; ++i) /* copy i -> i+1 on i's queue, when both have a view for it */
        if (i % G < nview) clEnqueueCopyBuffer(q[i % G], v[i][i % G].mem, v[i + 1][i % G].mem, 0, 0, n, 0, NULL, NULL);
    for (k = 0; k < G; ++k) clFinish(q[k]);
    for (i = 0; i < nbuf; ++i) clmem_peer_buffer_release(pb[i]);
    printf("ok: %d buffers of %zu MiB, each imported for %d devices (%d imports, %zu MiB in all)\n", nbuf, n >> 20, nview,
           nbuf * nview, (size_t)(nbuf * nview) * (n >> 20));
    return 0;
}

/* peer buffers in a loop on GPU 0, ROUNDS of each way: clmem_peer_buffer_create + view +
   a 4-byte fill + clmem_peer_buffer_release, against a peer pool's allocate_on_queue +
   view + the fill + enqueue_release (one block made, reused); microseconds per round
   (median of 5 runs), the pool's misses and hits, the bytes of the pooled block checked */
static int pool_section(size_t n, int rounds) {
    double plain[5], pooled[5];
    clmem_peer_pool *pp;
    clmem_pool_stats st;
    cl_int err = CL_SUCCESS;
    int run, r, ok = 1;
    for (run = 0; run < 5; ++run) {
        double t0 = bench_now();
        for (r = 0; r < rounds && ok; ++r) {
            clmem_peer_buffer *pb = clmem_peer_buffer_create(ctx, dev[0], n, &err);
            clmem_buffer v = pb ? clmem_peer_buffer_view(pb, q[0], &err) : clmem__buffer_empty();
            ok = v.mem && clmem_enqueue_fill(q[0], v, (cl_uint)r, 4) == CL_SUCCESS;
            clmem_peer_buffer_release(pb); /* finishes q[0] */
        }
        plain[run] = (bench_now() - t0) / rounds * 1e6;
    }
    if (!ok) {
        printf("pool: plain peer buffers failed: %s\n", clmem_last_error_message());
        return 1;
    }
    pp = clmem_peer_pool_create(ctx, dev[0], CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    if (!pp) {
        printf("pool: %s\n", clmem_last_error_message());
        return 1;
    }
    for (run = 0; run < 5; ++run) {
        double t0 = bench_now();
        for (r = 0; r < rounds && ok; ++r) {
            clmem_pooled_peer p = clmem_peer_pool_allocate_on_queue(pp, n, q[0], &err);
            clmem_buffer v = clmem_pooled_peer_view(p, q[0], &err);
            ok = v.mem && clmem_enqueue_fill(q[0], v, (cl_uint)r, 4) == CL_SUCCESS &&
                 clmem_pooled_peer_enqueue_release(&p, q[0]) == CL_SUCCESS;
        }
        clFinish(q[0]);
        pooled[run] = (bench_now() - t0) / rounds * 1e6;
    }
    if (ok) {
        clmem_pooled_peer p = clmem_peer_pool_allocate(pp, n, &err);
        clmem_buffer v = clmem_pooled_peer_view(p, q[0], &err);
        fill_pattern(n, 5);
        ok = v.mem && clmem_enqueue_copy(q[0], v, pattern, .byte_count = n) == CL_SUCCESS && check(0, v, n);
        clmem_pooled_peer_release(&p);
    }
    clmem_peer_pool_get_stats(pp, &st);
    clmem_peer_pool_release(pp);
    printf("pool: %zu MiB peer buffers on GPU 0, %d rounds, median of 5 runs: create+view+fill+release %.1f us "
           "a round, pooled %.2f us a round (%.0fx); pool misses %llu, hits %llu; bytes %s\n",
           n >> 20, rounds, bench_median(plain, 5), bench_median(pooled, 5),
           bench_median(pooled, 5) > 0 ? bench_median(plain, 5) / bench_median(pooled, 5) : 0.0, st.misses, st.hits,
           ok ? "equal" : "DIFFER (or a call failed)");
    return ok && st.misses == 1 ? 0 : 1;
}

int main(int argc, char **argv) {
    size_t sizes[16];
    int ns = 0, i, a, b, first = 1, do_pairs = 1, do_ring = 1;
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 4 && strcmp(argv[1], "hog") == 0) return hog(atoi(argv[2]), atoi(argv[3]));
    if (!load_cuda() || !setup()) return 77;
    if (argc == 5 && strcmp(argv[1], "probe") == 0) {
        size_t n = (size_t)atoi(argv[2]) << 20;
        pattern = (unsigned char *)malloc(n);
        return pattern ? probe(n, atoi(argv[3]), atoi(argv[4])) : 1;
    }
    if (argc >= 2 && strcmp(argv[1], "memory") == 0) return memory_section(argc > 2 ? atoi(argv[2]) : 40);
    if (argc >= 3 && strcmp(argv[1], "pool") == 0) {
        size_t n = (size_t)atoi(argv[2]) << 20;
        pattern = (unsigned char *)malloc(n);
        back = (unsigned char *)malloc(n);
        return pattern && back ? pool_section(n, argc > 3 ? atoi(argv[3]) : 200) : 1;
    }
    /* "pairs SIZE_MIB..." or "ring GPUS SIZE_MIB..." (the first GPUS GPUs only): one part,
       so that bench/peer_gpu.sh runs each in a process of its own; no mode: both */
    if (argc >= 2 && strcmp(argv[1], "pairs") == 0) {
        do_ring = 0;
        first = 2;
    } else if (argc >= 3 && strcmp(argv[1], "ring") == 0) {
        do_pairs = 0;
        first = 3;
        if (atoi(argv[2]) >= 2 && atoi(argv[2]) < G) G = atoi(argv[2]);
    }
    for (i = first; i < argc && ns < 16; ++i) sizes[ns++] = (size_t)atoi(argv[i]) << 20;
    if (!ns) {
        sizes[ns++] = (size_t)64 << 20;
        sizes[ns++] = (size_t)256 << 20;
    }
    {
        size_t most = 0;
        for (i = 0; i < ns; ++i)
            if (sizes[i] > most) most = sizes[i];
        pattern = (unsigned char *)malloc(most);
        back = (unsigned char *)malloc(most);
        if (!pattern || !back) return 1;
    }
    printf("peer_bench: %d GPUs of NVIDIA's OpenCL in one context; CLMEM_PEER_IMPORT_LIMIT %llu MiB\n", G,
           (unsigned long long)(CLMEM_PEER_IMPORT_LIMIT >> 20));
    for (a = 0; a < G; ++a)
        for (b = 0; b < G; ++b)
            if (a != b) {
                cl_int err;
                links[a][b] = clmem_device_link_create(q[a], q[b], 0, 0, &err);
                if (!links[a][b]) {
                    printf("link %d -> %d: %s\n", a, b, clmem_last_error_message());
                    return 1;
                }
            }
    if (do_pairs) printf("ordered pairs (best of %d, median):\n", REPS);
    for (i = 0; i < ns && do_pairs; ++i) {
        for (a = 0; a < G; ++a)
            for (b = 0; b < G; ++b)
                if (a != b) pair(a, b, sizes[i]);
        if (G >= 2) staged(0, 1, sizes[i]);
    }
    if (do_ring) printf("ring (best of %d copies of %d GPUs at once, median):\n", REPS, G);
    for (i = 0; i < ns && do_ring; ++i)
        if (G >= 2) ring(sizes[i]);
    for (a = 0; a < G; ++a)
        for (b = 0; b < G; ++b)
            if (links[a][b]) clmem_device_link_release(links[a][b]);
    printf("%s\n", failures ? "FAILED: see the lines above" : "all bytes equal");
    return failures ? 1 : 0;
}
