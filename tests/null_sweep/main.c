/* tests/null_sweep/main.c - every public function of clmem.h given NULL pointers and
   zeroed handles (ctest null_sweep). The callers are GENERATED at build time by
   tools/gen-null-sweep from the header's declarations (null_sweep_gen.c in the build
   directory), so a new function is swept without anyone listing it. Each runs in up to
   three variants (see tools/gen-null-sweep): zero (everything zero), live (the real
   context, queue, device and platform, errcode_ret given) and handles (live, plus a real
   object for every handle argument; every pointer stays NULL).
   Asserts: no crash (the sanitizer build of CI runs it under ASan and UBSan); a function
   that returns a cl_int, or writes one through errcode_ret, returns an error with a
   message, unless its success is documented (ns_successes below, each with the reason). */
#include <signal.h>
#include <unistd.h>
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

#define NS_NO_CODE ((cl_int)0x7fffffff) /* the function returns no code */
enum { NS_ZERO, NS_LIVE, NS_HANDLES, NS_VARIANTS };
static const char *const ns_variant_names[NS_VARIANTS] = {"zero", "live", "handles"};

/* What the live and handles variants pass: the test's objects, made once per context. */
typedef struct ns_fixture {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clmem_buffer buffer;
    cl_mem mem;
    clmem_image image;
    clmem_sampler sampler;
    clmem_pipe pipe; /* empty: no pipes on PoCL; a zeroed handle is the sweep's other half */
    clmem_svm_allocation svm_allocation;
    clmem_svm svm;
    clmem_pooled_svm pooled_svm; /* empty */
    cl_kernel kernel;
    cl_event event;
    clmem_allocator *allocator;
    clmem_memory_pool *pool;
    clmem_svm_allocator *svm_allocator; /* NULL without SVM */
    clmem_svm_pool *svm_pool;
    clmem_pinned_pool *pinned_pool;
    clmem_stager *stager;
} ns_fixture;

typedef struct ns_function {
    const char *name;
    cl_int (*call)(const ns_fixture *f, int variant);
    int returns_code; /* returns a cl_int */
    int takes_live;   /* takes a context, queue, device, platform or errcode_ret */
    int takes_handle; /* takes a handle by value */
} ns_function;

/* memset through a volatile pointer: the compiler cannot see the zeros, so it neither
   folds the calls nor warns about paths the checks rule out (gcc -O2 -Wnonnull) */
static void *(*volatile ns_memset)(void *, int, size_t) = memset;

#include "null_sweep_gen.c"

/* Successes that are right, by function and variants (bits 1 << NS_ZERO, ...): NULL
   or an empty handle is documented as "nothing to do" or as a default, or the function
   has no pointer argument the caller must give. */
#define Z (1u << NS_ZERO)
#define L (1u << NS_LIVE)
#define H (1u << NS_HANDLES)
static const struct {
    const char *name;
    unsigned variants;
    const char *why;
} ns_successes[] = {
    /* a release of nothing (NULL, or an empty handle) is a no-op, as every release */
    {"clmem_allocator_release", Z, "NULL: nothing to release"},
    {"clmem_buffer_release", Z, "NULL: nothing to release"},
    {"clmem_host_registration_release", Z, "NULL: nothing to release"},
    {"clmem_image_release", Z, "NULL: nothing to release"},
    {"clmem_memory_pool_release", Z, "NULL: nothing to release"},
    {"clmem_pinned_allocation_release", Z, "NULL: nothing to release"},
    {"clmem_pinned_pool_release", Z, "NULL: nothing to release"},
    {"clmem_pipe_release", Z, "NULL: nothing to release"},
    {"clmem_pooled_svm_release", Z, "NULL: nothing to release"},
    {"clmem_sampler_release", Z, "NULL: nothing to release"},
    {"clmem_stager_release", Z, "NULL: nothing to release"},
    {"clmem_device_link_release", Z, "NULL: nothing to release"},
    {"clmem_external_memory_release", Z, "NULL: nothing to release"},
    {"clmem_peer_buffer_release", Z, "NULL: nothing to release"},
    {"clmem_semaphore_release", Z, "NULL: nothing to release"},
    {"clmem_svm_allocator_release", Z, "NULL: nothing to release"},
    {"clmem_svm_pool_release", Z, "NULL: nothing to release"},
    {"clmem_usm_pool_release", Z, "NULL: nothing to release"},
    {"clmem_pooled_usm_release", Z, "NULL: nothing to release"},
    {"clmem_peer_pool_release", Z, "NULL: nothing to release"},
    {"clmem_pooled_peer_release", Z, "NULL: nothing to release"},
    {"clmem_pooled_buffer_enqueue_release", Z | L, "NULL: nothing to release (the queue is not needed)"},
    {"clmem_pinned_allocation_enqueue_release", Z | L, "NULL: nothing to release (the queue is not needed)"},
    {"clmem_pooled_svm_enqueue_release", Z | L, "NULL: nothing to release (the queue is not needed)"},
    {"clmem_pooled_usm_enqueue_release", Z | L, "NULL: nothing to release (the queue is not needed)"},
    {"clmem_pooled_peer_enqueue_release", Z | L, "NULL: nothing to release (the queue is not needed)"},
    /* an empty (zero-size) SVM allocation: binding and unbinding are documented no-ops */
    {"clmem_svm_allocation_bind_to_queue", L, "zero-size allocation: no-op (svm.h)"},
    {"clmem_semaphore_create", L | H, "a live context, device NULL (every device) and export type 0 make a semaphore where the device has cl_khr_semaphore (external.h)"},
    {"clmem_svm_allocation_unbind_from_queue", Z, "zero-size allocation: no-op (svm.h)"},
    /* constructors whose zero arguments are all defaults: the object is made (and released) */
    {"clmem_deferred_allocator_create", L, "flags 0: CL_MEM_READ_WRITE"},
    {"clmem_immediate_allocator_create", L, "flags 0: CL_MEM_READ_WRITE"},
    {"clmem_pinned_pool_create", L, "flags 0, leading bits 0: valid"},
    {"clmem_svm_allocator_create", L, "alignment 0, flags 0, no queue: the defaults"},
    {"clmem_stager_create", L, "slot size, slots and threads 0: the defaults"},
    {"clmem_device_link_create", L, "slot size and slots 0: the defaults (the same queue twice: nothing staged)"},
    {"clmem_sampler_create_with_properties", L, "properties NULL: PyOpenCL's defaults (sampler.h)"},
    {"clmem_pinned_allocation_create", L, "size 0: an empty allocation (pinned.h)"},
    {"clmem_svm_allocation_create", L, "size 0: an empty allocation (svm.h)"},
    {"clmem_get_fast_inaccurate_build_options", L, "options NULL asks for the size; size_ret NULL: not wanted"},
    /* real handles, everything else zero: a valid call */
    {"clmem_buffer_from_int_ptr", H, "a real buffer, retain false: the wrapper takes the reference (not released)"},
    {"clmem_svm_as_buffer", H, "size 0: the SVM allocation's size (svm.h)"},
    {"clmem_svm_allocation_bind_to_queue", H, "a real allocation and queue"},
    {"clmem_svm_allocation_unbind_from_queue", H, "a real allocation: finishes its queue"},
    {"clmem_kernel_set_exec_info", H, "n 0 with svms NULL leaves the kernel's list as it was (svm.h)"},
    {"clmem__copy_buffer_from_image", H, "options NULL: the whole image, which fits the buffer"},
    {"clmem__copy_image_from_buffer", H, "options NULL: the whole image, which the buffer holds"},
    {"clmem__copy_image_from_mem", H, "as clmem__copy_image_from_buffer, through the raw cl_mem"},
    {"clmem__copy_mem_from_image", H, "as clmem__copy_buffer_from_image, through the raw cl_mem"},
    /* a real pool, allocator or stager with valid zero arguments */
    {"clmem_allocator_allocate", H, "size 0: a real 1-byte block (pool.h)"},
    {"clmem_memory_pool_allocate", H, "size 0: a real 1-byte block (pool.h)"},
    {"clmem_memory_pool_allocate_at", H, "size 0; file NULL is \"(unknown)\""},
    {"clmem_memory_pool_allocate_on_queue", H, "size 0 on the real queue"},
    {"clmem_memory_pool_allocate_on_queue_at", H, "size 0 on the real queue; file NULL"},
    {"clmem_pinned_pool_allocate_on_queue", H, "size 0 on the real queue"},
    {"clmem_pinned_pool_allocate_on_queue_at", H, "size 0 on the real queue; file NULL"},
    {"clmem_svm_allocator_allocate", H, "size 0: an empty allocation (svm.h)"},
    {"clmem_svm_pool_allocate", H, "size 0: a real block with svm.size 0 (pool.h)"},
    {"clmem_svm_pool_allocate_at", H, "size 0; file NULL"},
    {"clmem_svm_pool_allocate_on_queue", H, "size 0 on the real queue"},
    {"clmem_svm_pool_allocate_on_queue_at", H, "size 0 on the real queue; file NULL"},
    {"clmem_pinned_pool_allocate", H, "size 0: a real 1-byte block (pinned.h)"},
    {"clmem_pinned_pool_allocate_at", H, "size 0; file NULL"},
    {"clmem_memory_pool_create", H, "leading bits 0 over the real allocator"},
    {"clmem_svm_pool_create", H, "leading bits 0 over the real SVM allocator"},
    {"clmem_memory_pool_free_held", H, "nothing held: nothing to free"},
    {"clmem_svm_pool_free_held", H, "nothing held: nothing to free"},
    {"clmem_pinned_pool_free_held", H, "nothing held: nothing to free"},
    {"clmem_memory_pool_stop_holding", H, "a real pool"},
    {"clmem_svm_pool_stop_holding", H, "a real pool"},
    {"clmem_pinned_pool_stop_holding", H, "a real pool"},
    {"clmem_memory_pool_reset_peaks", H, "a real pool"},
    {"clmem_svm_pool_reset_peaks", H, "a real pool"},
    {"clmem_pinned_pool_reset_peaks", H, "a real pool"},
    {"clmem_memory_pool_set_limit", H, "0: no limit"},
    {"clmem_svm_pool_set_limit", H, "0: no limit"},
    {"clmem_pinned_pool_set_limit", H, "0: no limit"},
    {"clmem_memory_pool_set_keep_free", H, "0 bytes: none"},
    {"clmem_svm_pool_set_keep_free", H, "0 bytes: none"},
    {"clmem_pinned_pool_set_keep_free", H, "0 bytes: none"},
    {"clmem_memory_pool_set_oom_callback", H, "NULL: no callback"},
    {"clmem_svm_pool_set_oom_callback", H, "NULL: no callback"},
    {"clmem_pinned_pool_set_oom_callback", H, "NULL: no callback"},
    {"clmem_stager_set_threshold", H, "0: stage every copy (stager.h)"},
    /* kernel arguments: the fixture's kernel takes `global int *`; an 8-byte zero value
       is a NULL buffer to OpenCL, and without -cl-kernel-arg-info the type is unknown
       (clmem__check_kernel_arg: CL_SUCCESS where the type is not known) */
    {"clmem__check_kernel_arg", Z | H, "the type is not known: CL_SUCCESS (svm.h)"},
    {"clmem__set_arg_buffer", H, "a buffer to a pointer argument"},
    {"clmem__set_arg_mem", H, "a buffer to a pointer argument"},
    {"clmem__set_arg_svm", H, "an SVM pointer to a pointer argument"},
    {"clmem__set_arg_image", H, "type unknown without -cl-kernel-arg-info; the driver takes any cl_mem"},
    {"clmem__set_arg_sampler", H, "type unknown without -cl-kernel-arg-info; 8 bytes, as a pointer"},
    {"clmem__set_arg_char8", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_uchar8", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_short4", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_ushort4", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_int2", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_uint2", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_float2", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_long", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_ulong", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_llong", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_ullong", H, "8 zero bytes: a NULL buffer"},
    {"clmem__set_arg_double", H, "8 zero bytes: a NULL buffer"},
    /* a private helper: maps a failed driver call's code; 0 is no failure */
    {"clmem__copy_host_failed", Z | L | H, "err 0 (CL_SUCCESS) is what it returns"},
};
#undef Z
#undef L
#undef H

static unsigned ns_success_ok(const char *name, int variant) {
    size_t i;
    for (i = 0; i < sizeof ns_successes / sizeof ns_successes[0]; ++i)
        if (strcmp(ns_successes[i].name, name) == 0 && (ns_successes[i].variants & (1u << variant))) return 1;
    return 0;
}

/* the call running now, for a crash report without a sanitizer */
static char ns_now[160];
static void ns_on_signal(int sig) {
    static const char head[] = "null_sweep: crashed in ";
    ssize_t r = write(2, head, sizeof head - 1);
    r = write(2, ns_now, (unsigned)strlen(ns_now)); /* Windows' write takes an unsigned count */
    r = write(2, "\n", 1);
    (void)r;
    signal(sig, SIG_DFL);
    raise(sig);
}

static int ns_make_fixture(clmem_test_context *t, ns_fixture *f) {
    cl_int err;
    static const clmem_image_format rgba8 = {CL_RGBA, CL_UNSIGNED_INT8};
    memset(f, 0, sizeof *f);
    f->platform = t->platform;
    f->device = t->device;
    f->context = t->context;
    f->queue = t->queue;
    f->buffer = clmem_buffer_create(t->context, 0, 4096, NULL, &err);
    if (err != CL_SUCCESS) return 0;
    f->mem = f->buffer.mem;
    f->image = clmem_create_image(t->context, 0, rgba8, &err, .shape = {16, 16});
    if (err != CL_SUCCESS) memset(&f->image, 0, sizeof f->image); /* no images: a zeroed one */
    f->sampler = clmem_sampler_create(t->context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    if (err != CL_SUCCESS) memset(&f->sampler, 0, sizeof f->sampler);
    f->svm_allocation = clmem_svm_allocation_create(t->context, 4096, 0, CL_MEM_READ_WRITE, NULL, &err);
    if (err != CL_SUCCESS) memset(&f->svm_allocation, 0, sizeof f->svm_allocation); /* no SVM */
    f->svm = f->svm_allocation.svm;
    f->kernel = build_kernel(t, "kernel void k(global int *p) { p[0] = 1; }", "k");
    if (!f->kernel) return 0;
    if (clEnqueueMarkerWithWaitList(t->queue, 0, NULL, &f->event) != CL_SUCCESS) return 0;
    f->allocator = clmem_immediate_allocator_create(t->queue, 0, &err);
    if (f->allocator) f->pool = clmem_memory_pool_create(f->allocator, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    if (f->svm.ptr) f->svm_allocator = clmem_svm_allocator_create(t->context, 0, 0, NULL, &err);
    if (f->svm_allocator) f->svm_pool = clmem_svm_pool_create(f->svm_allocator, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    f->pinned_pool = clmem_pinned_pool_create(t->queue, 0, CLMEM_POOL_DEFAULT_LEADING_BITS, &err);
    f->stager = clmem_stager_create(t->queue, 0, 0, 1, &err);
    return f->allocator && f->pool && f->pinned_pool && f->stager && (!f->svm.ptr || f->svm_pool);
}

static void ns_free_fixture(ns_fixture *f) {
    clFinish(f->queue);
    if (f->stager) clmem_stager_release(f->stager);
    if (f->pinned_pool) clmem_pinned_pool_release(f->pinned_pool);
    if (f->svm_pool) clmem_svm_pool_release(f->svm_pool);
    if (f->svm_allocator) clmem_svm_allocator_release(f->svm_allocator);
    if (f->pool) clmem_memory_pool_release(f->pool);
    if (f->allocator) clmem_allocator_release(f->allocator);
    if (f->event) clReleaseEvent(f->event);
    if (f->kernel) clReleaseKernel(f->kernel);
    clmem_svm_allocation_release(&f->svm_allocation);
    clmem_sampler_release(&f->sampler);
    clmem_image_release(&f->image);
    clmem_buffer_release(&f->buffer);
    clFinish(f->queue);
}

static void test_sweep(clmem_test_context *t) {
    ns_fixture f;
    size_t i, n = sizeof ns_functions / sizeof ns_functions[0], calls = 0, codes = 0, allowed = 0;
    int v;
    if (!ns_make_fixture(t, &f)) {
        clmem_test_fail(t, __FILE__, __LINE__, "the fixture: %s", clmem_last_error_message());
        ns_free_fixture(&f);
        return;
    }
    signal(SIGSEGV, ns_on_signal);
#ifdef SIGBUS /* not on Windows */
    signal(SIGBUS, ns_on_signal);
#endif
    signal(SIGFPE, ns_on_signal);
    signal(SIGABRT, ns_on_signal);
    for (i = 0; i < n; ++i) {
        const ns_function *fn = &ns_functions[i];
        for (v = 0; v < NS_VARIANTS; ++v) {
            cl_int code;
            if (v == NS_LIVE && !fn->takes_live) continue;
            if (v == NS_HANDLES && !fn->takes_handle) continue;
            snprintf(ns_now, sizeof ns_now, "%s (%s)", fn->name, ns_variant_names[v]);
            clmem_clear_error();
            code = fn->call(&f, v);
            ++calls;
            if (code == NS_NO_CODE) continue;
            ++codes;
            if (code == CL_SUCCESS) {
                if (ns_success_ok(fn->name, v)) {
                    ++allowed;
                    continue;
                }
                clmem_test_fail(t, __FILE__, __LINE__, "%s: CL_SUCCESS, but no success is documented for it",
                                ns_now);
            } else if (clmem_last_error_message()[0] == '\0') {
                clmem_test_fail(t, __FILE__, __LINE__, "%s: %s without a message", ns_now, clmem_error_string(code));
            }
        }
    }
    signal(SIGSEGV, SIG_DFL);
#ifdef SIGBUS
    signal(SIGBUS, SIG_DFL);
#endif
    signal(SIGFPE, SIG_DFL);
    signal(SIGABRT, SIG_DFL);
    clmem_set_log_callback(NULL, NULL); /* the sweep set it to zero too; as at the start */
    ns_free_fixture(&f);
    printf("null sweep: %zu functions, %zu calls (zero, live, handles), %zu with a code: %zu refused with a message, "
           "%zu documented successes\n",
           n, calls, codes, codes - allowed, allowed);
}

static const clmem_test_case cases[] = {{"sweep", test_sweep, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
