/* >>svm (implementation) */
#include "svm.h"

/* ---- the registry of live allocations and maps ----
   A handle names its record by an id: (generation << 32) | (slot index + 1). A
   release bumps the slot's generation, so the same id never comes back, and a
   stale handle (or a copy of one) is recognised instead of touching freed memory. */
enum { CLMEM__SVM_ALLOCATION = 1, CLMEM__SVM_MAP = 2 };

typedef struct clmem__svm_rec {
    int kind;
    void *ptr;
    size_t size;
    cl_context context;     /* allocation: retained until clSVMFree has run */
    cl_command_queue queue; /* allocation: bound queue; map: the map's queue (retained) */
    cl_svm_mem_flags flags;
    size_t alignment;
} clmem__svm_rec;

/* clmem__svm_rec_new(kind, ptr, size, context, queue, flags, alignment): a record with
   these fields (no reference taken), or NULL when out of host memory (the caller says
   so): an allocation's, a map's, or that of a free on a queue */
static inline clmem__svm_rec *clmem__svm_rec_new(int kind, void *ptr, size_t size, cl_context context,
                                                 cl_command_queue queue, cl_svm_mem_flags flags, size_t alignment) {
    const clmem__svm_rec r = {kind, ptr, size, context, queue, flags, alignment};
    clmem__svm_rec *rec = CLMEM__CAST(clmem__svm_rec *, CLMEM_MALLOC(sizeof *rec));
    if (rec) *rec = r;
    return rec;
}

/* the registry of live allocations and maps (base.c); a record's kind is its tag */
static clmem__registry clmem__svm_reg = CLMEM__REGISTRY_INIT;

/* Register rec; 0 when out of memory. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((unused))
#endif
static uint64_t clmem__svm_reg_add(clmem__svm_rec *rec) { return clmem__reg_add(&clmem__svm_reg, rec, rec->kind); }

/* The record of a live id, or NULL. The record stays valid until its release. */
static clmem__svm_rec *clmem__svm_reg_find(uint64_t id, int kind) {
    return CLMEM__CAST(clmem__svm_rec *, clmem__reg_find(&clmem__svm_reg, id, kind, false));
}

/* Take a live record out of the registry for a release: nobody else finds it from
   now on, but the id is kept so that clmem__svm_reg_restore can put it back. */
static clmem__svm_rec *clmem__svm_reg_detach(uint64_t id, int kind) {
    return CLMEM__CAST(clmem__svm_rec *, clmem__reg_find(&clmem__svm_reg, id, kind, true));
}

static void clmem__svm_reg_restore(uint64_t id, clmem__svm_rec *rec) { clmem__reg_restore(&clmem__svm_reg, id, rec); }

/* Finish a detach: the id is dead for good and the slot reusable. */
static void clmem__svm_reg_remove(uint64_t id) { clmem__reg_remove(&clmem__svm_reg, id); }

/* clmem__svm_check_live(fn, what, svm, &ctx): an SVM pointer whose owner is known
   (an allocation, a pooled block) must still be allocated (handed out); an
   allocation's context is returned (NULL for tags and pooled blocks). */
static cl_int clmem__svm_check_live(const char *fn, const char *what, clmem_svm svm, cl_context *ctx) {
    clmem__svm_rec *rec;
    *ctx = NULL;
    if (svm.pool) return clmem__check_pooled_ptr(fn, what, "SVM", svm.pool, svm.generation, svm.ptr);
    if (svm.generation == 0) return CL_SUCCESS;
    rec = clmem__svm_reg_find(svm.generation, CLMEM__SVM_ALLOCATION);
    if (!rec)
        return clmem__fail(CL_INVALID_VALUE, fn, "%s (SVM pointer %p) belongs to an allocation that was released", what,
                           svm.ptr);
    *ctx = rec->context;
    return CL_SUCCESS;
}

/* SVM flags share cl_mem_flags' bits; base names them all. */
static const char *clmem__svm_flags_text(cl_svm_mem_flags flags, char *buf, size_t size) {
    return clmem__mem_flags_text(flags, buf, size);
}


/* ---- thin wrappers around the OpenCL 2.0 entry points (absent from 1.2 headers) ---- */
#define CLMEM__SVM_CAP_COARSE ((cl_bitfield)1 << 0)
#define CLMEM__SVM_CAP_FINE ((cl_bitfield)1 << 1)
#define CLMEM__SVM_CAP_SYSTEM ((cl_bitfield)1 << 2)
#define CLMEM__SVM_CAP_ATOMICS ((cl_bitfield)1 << 3)
#define CLMEM__SVM_FLAG_ATOMICS ((cl_svm_mem_flags)1 << 11)

#ifndef CL_VERSION_2_0
static cl_int clmem__svm_unsupported(const char *fn) {
    return clmem__fail(CL_INVALID_OPERATION, fn,
                       "clmem was compiled with OpenCL headers older than 2.0 (CL_TARGET_OPENCL_VERSION %d): no SVM",
                       (int)CL_TARGET_OPENCL_VERSION);
}
#endif

#ifdef CL_VERSION_2_0
/* clmem__svm_device_caps(fn, dev, &caps): 0 for a device older than OpenCL 2.0; a
   failed query keeps its code and is named. */
static cl_int clmem__svm_device_caps(const char *fn, cl_device_id dev, cl_bitfield *caps) {
    int version = 0;
    cl_int err = clmem__device_version(fn, dev, &version);
    *caps = 0;
    if (err != CL_SUCCESS || version < 200) return err;
    err = clGetDeviceInfo(dev, 0x1053 /* CL_DEVICE_SVM_CAPABILITIES */, sizeof *caps, caps, NULL);
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_SVM_CAPABILITIES");
    return CL_SUCCESS;
}
#endif

/* Free now: clSVMFree while still holding clmem's context reference, then drop it. */
static void clmem__svm_free_now(clmem__svm_rec *rec) {
#ifdef CL_VERSION_2_0
    clSVMFree(rec->context, rec->ptr);
#endif
    clReleaseContext(rec->context);
    if (rec->queue) clReleaseCommandQueue(rec->queue);
    CLMEM_FREE(rec);
}

#ifdef CL_VERSION_2_0
/* clEnqueueSVMFree's callback: runs when the free's turn comes in the queue. The
   queue (which holds its context) is alive while it runs, so dropping clmem's
   context reference here never destroys the context inside the driver's thread. */
static void CL_CALLBACK clmem__svm_allocation_free_cb(cl_command_queue queue, cl_uint n, void *ptrs[], void *user) {
    clmem__svm_rec *rec = CLMEM__CAST(clmem__svm_rec *, user);
    cl_uint i;
    (void)queue;
    for (i = 0; i < n; ++i) clSVMFree(rec->context, ptrs[i]);
    clReleaseContext(rec->context);
    CLMEM_FREE(rec);
}
#endif

/* Enqueue the free of a detached record on queue. On success the record belongs to
   the callback (do not touch it again) and its bound queue reference is dropped. */
static cl_int clmem__svm_enqueue_free(clmem__svm_rec *rec, cl_command_queue queue, cl_uint nw, const cl_event *wl,
                                      cl_event *event) {
#ifdef CL_VERSION_2_0
    cl_command_queue bound = rec->queue;
    cl_int err;
    rec->queue = NULL;
    err = clEnqueueSVMFree(queue, 1, &rec->ptr, clmem__svm_allocation_free_cb, rec, nw, wl, event);
    if (err != CL_SUCCESS) {
        rec->queue = bound;
        return err;
    }
    if (bound) clReleaseCommandQueue(bound);
    return CL_SUCCESS;
#else
    (void)rec; (void)queue; (void)nw; (void)wl; (void)event;
    return CL_INVALID_OPERATION;
#endif
}

/* clmem__svm_free_after(queue, context, ptr): free SVM memory that is no one's
   allocation record (a pool block) after the work enqueued on queue, holding a context
   reference of its own until clSVMFree has run, as allocations do. */
static inline cl_int clmem__svm_free_after(cl_command_queue queue, cl_context context, void *ptr) {
    clmem__svm_rec *rec = clmem__svm_rec_new(0, ptr, 0, context, NULL, 0, 0);
    cl_int err;
    if (!rec) return CL_OUT_OF_HOST_MEMORY;
    if ((err = clRetainContext(context)) != CL_SUCCESS) {
        CLMEM_FREE(rec);
        return err;
    }
    err = clmem__svm_enqueue_free(rec, queue, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        clReleaseContext(context);
        CLMEM_FREE(rec);
    }
    return err;
}

/* clmem__queue_out_of_order(fn, queue, &ooo): whether `queue` runs its commands out
   of order. A failed CL_QUEUE_PROPERTIES query is its code, named (never taken for
   in-order: a block released on an out-of-order queue must not be reused unordered). */
static cl_int clmem__queue_out_of_order(const char *fn, cl_command_queue queue, bool *ooo) {
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    *ooo = false;
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetCommandQueueInfo", "CL_QUEUE_PROPERTIES");
    *ooo = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    return CL_SUCCESS;
}

/* clmem__check_in_order(fn, queue, why): the rule for queues that order frees and
   reuse (SVM allocations, SVM allocators, pooled SVM): an out-of-order queue is
   CL_INVALID_COMMAND_QUEUE, `why` says what needs the order. */
static cl_int clmem__check_in_order(const char *fn, cl_command_queue queue, const char *why) {
    bool ooo = false;
    cl_int err = clmem__queue_out_of_order(fn, queue, &ooo);
    if (err != CL_SUCCESS) return err;
    if (ooo)
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is out-of-order; %s, which must be in-order",
                           (void *)queue, why);
    return CL_SUCCESS;
}

/* The queue an allocation may be bound to: valid, of ctx, in order. */
static cl_int clmem__svm_check_bind_queue(const char *fn, cl_command_queue queue, cl_context ctx) {
    cl_context qctx = NULL;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
    if (err == CL_INVALID_COMMAND_QUEUE || (err == CL_SUCCESS && !qctx))
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is not a valid command queue", (void *)queue);
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
    if (qctx != ctx)
        return clmem__fail(CL_INVALID_CONTEXT, fn, "queue %p belongs to context %p, the SVM memory to context %p",
                           (void *)queue, (void *)qctx, (void *)ctx);
    return clmem__check_in_order(fn, queue, "an SVM allocation's release is ordered by its queue");
}

/* ---- allocations ---- */
static clmem_svm_allocation clmem__svm_empty_allocation(void) {
    clmem_svm_allocation a;
    a.svm.ptr = NULL;
    a.svm.size = 0;
    a.svm.pool = NULL;
    a.svm.generation = 0;
    return a;
}

/* The arguments every SVM allocation takes, checked alike for an allocation and an
   allocator: flags (SVM bits only, one access, ATOMICS with FINE_GRAIN_BUFFER),
   alignment (0 or a power of two), queue (NULL, or valid, of ctx, in order). */
static cl_int clmem__svm_check_args(const char *fn, cl_context ctx, cl_uint alignment, cl_svm_mem_flags flags,
                                    cl_command_queue queue) {
    const cl_svm_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    const cl_svm_mem_flags known = access | CLMEM__SVM_FINE_GRAIN_BUFFER | CLMEM__SVM_FLAG_ATOMICS;
    const cl_svm_mem_flags acc = flags & access;
    char text[160];
    if (CLMEM__CHECKS && (flags & ~known))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s contain bits that are not SVM flags",
                           clmem__svm_flags_text(flags, text, sizeof text));
    if (CLMEM__CHECKS && (acc & (acc - 1)))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s combine more than one of READ_WRITE, READ_ONLY and WRITE_ONLY",
                           clmem__svm_flags_text(flags, text, sizeof text));
    if (CLMEM__CHECKS && (flags & CLMEM__SVM_FLAG_ATOMICS) && !(flags & CLMEM__SVM_FINE_GRAIN_BUFFER))
        return clmem__fail(CL_INVALID_VALUE, fn, "flags %s ask for SVM_ATOMICS without SVM_FINE_GRAIN_BUFFER",
                           clmem__svm_flags_text(flags, text, sizeof text));
    if (CLMEM__CHECKS && (alignment & (alignment - 1)))
        return clmem__fail(CL_INVALID_VALUE, fn, "alignment %u is not a power of two", alignment);
    return queue ? clmem__svm_check_bind_queue(fn, queue, ctx) : CL_SUCCESS;
}

/* PCI vendor id of NVIDIA (CL_DEVICE_VENDOR_ID) */
#define CLMEM__VENDOR_NVIDIA 0x10DEu

#ifdef CL_VERSION_2_0
/* What the context's devices must offer for SVM of `flags`, `alignment` and `size`
   bytes (0: no size yet, as for an allocator): SVM at all, the fine grain and atomics
   asked for, the alignment and the size within their limits, and no context of
   several NVIDIA GPUs with coarse grain only (the driver returns old bytes there;
   bench/svm_two_gpus.c shows it with bare calls). A failed query is its code, named. */

static cl_int clmem__svm_check_devices(const char *fn, cl_context ctx, size_t size, cl_uint alignment,
                                       cl_svm_mem_flags flags) {
    cl_uint n = 0, i;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &err);
    cl_bitfield any = 0;
    cl_ulong max_alloc = 0;
    cl_uint max_align = 0, nvidia = 0;
    cl_device_id dev0;
    char name[128] = "?";
    if (!devs) return err;
    for (i = 0; i < n && err == CL_SUCCESS; ++i) {
        cl_ulong ma = 0;
        cl_uint al = 0, vendor = 0;
        cl_bitfield caps = 0;
        if ((err = clmem__svm_device_caps(fn, devs[i], &caps)) != CL_SUCCESS) break;
        any |= caps;
        if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL)) != CL_SUCCESS) {
            err = clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_VENDOR_ID");
            break;
        }
        nvidia += vendor == CLMEM__VENDOR_NVIDIA;
        if ((err = clmem__device_max_alloc(fn, devs[i], &ma)) != CL_SUCCESS) break;
        if (max_alloc == 0 || ma < max_alloc) max_alloc = ma;
        if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof al, &al, NULL)) != CL_SUCCESS) {
            err = clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE");
            break;
        }
        if (max_align == 0 || al < max_align) max_align = al;
    }
    if (err == CL_SUCCESS) clmem__device_name(devs[0], name, sizeof name);
    dev0 = devs[0];
    CLMEM_FREE(devs);
    if (err != CL_SUCCESS) return err;
    if (!(any & (CLMEM__SVM_CAP_COARSE | CLMEM__SVM_CAP_FINE)))
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "no device of the context supports SVM (device '%s' reports no CL_DEVICE_SVM_CAPABILITIES; "
                           "SVM needs OpenCL 2.0)", name);
    if (n > 1 && nvidia == n && !(any & CLMEM__SVM_CAP_FINE))
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "the context holds %u NVIDIA GPUs ('%s'), and NVIDIA's OpenCL driver does not keep "
                           "coarse-grain SVM coherent between the GPUs of one context (a kernel on one GPU and a copy "
                           "on another see different bytes; clEnqueueSVMMap can crash: bench/svm_two_gpus.c, "
                           "docs/robustness.md): use SVM in a context of one GPU, or buffers (clmem_device_link) "
                           "across GPUs", n, name);
    if ((flags & CLMEM__SVM_FINE_GRAIN_BUFFER) && !(any & CLMEM__SVM_CAP_FINE))
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "flags ask for SVM_FINE_GRAIN_BUFFER but no device of the context has fine-grain buffer SVM "
                           "(device '%s' has coarse grain only)", name);
    if ((flags & CLMEM__SVM_FLAG_ATOMICS) && !(any & CLMEM__SVM_CAP_ATOMICS))
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "flags ask for SVM_ATOMICS but no device of the context has SVM atomics (device '%s')", name);
    if (max_align && alignment > max_align)
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "alignment %u is above CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE (%u bytes) of device '%s', the "
                           "largest clSVMAlloc accepts", alignment, max_align, name);
    return clmem__check_max_alloc(fn, dev0, "size", size, max_alloc);
}
#endif

static clmem_svm_allocation clmem__svm_alloc(const char *fn, cl_context ctx, size_t size, cl_uint alignment,
                                             cl_svm_mem_flags flags, cl_command_queue queue, cl_int *errcode_ret) {
    clmem_svm_allocation a = clmem__svm_empty_allocation();
    clmem__svm_rec *rec;
    char text[160];
    cl_int err;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    if (!ctx) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL"));
        return a;
    }
    if ((err = clmem__svm_check_args(fn, ctx, alignment, flags, queue)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return a;
    }
    if (size == 0) return a; /* PyOpenCL: nothing allocated; release is a no-op */
#ifndef CL_VERSION_2_0
    (void)rec;
    (void)text;
    clmem__set_err(errcode_ret, clmem__svm_unsupported(fn));
    return a;
#else
    if (CLMEM__CHECKS && (err = clmem__svm_check_devices(fn, ctx, size, alignment, flags)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return a;
    }
    rec = clmem__svm_rec_new(CLMEM__SVM_ALLOCATION, NULL, size, ctx, queue, flags, alignment);
    if (!rec) {
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the allocation record"));
        return a;
    }
    rec->ptr = clSVMAlloc(ctx, flags, size, alignment);
    if (!rec->ptr) {
        CLMEM_FREE(rec);
        clmem__set_err(errcode_ret, clmem__fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, fn,
                                                "clSVMAlloc(size %zu, alignment %u, flags %s) returned NULL", size,
                                                alignment, clmem__svm_flags_text(flags, text, sizeof text)));
        return a;
    }
    clRetainContext(ctx);
    if (queue) clRetainCommandQueue(queue);
    a.svm.generation = clmem__svm_reg_add(rec);
    if (a.svm.generation == 0) {
        clmem__svm_free_now(rec);
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the SVM registry"));
        return clmem__svm_empty_allocation();
    }
    a.svm.ptr = rec->ptr;
    a.svm.size = size;
    return a;
#endif
}

CLMEM_API clmem_svm_allocation clmem_svm_allocation_create(cl_context context, size_t size, cl_uint alignment,
                                                           cl_svm_mem_flags flags, cl_command_queue queue,
                                                           cl_int *errcode_ret) {
    return clmem__svm_alloc("clmem_svm_allocation_create", context, size, alignment, flags, queue, errcode_ret);
}

/* The record of a handle about to be released: NULL with *err set when there is
   nothing to do (empty handle: CL_SUCCESS) or it cannot be released. */
static clmem__svm_rec *clmem__svm_detach_allocation(const char *fn, const clmem_svm_allocation *a, cl_int *err) {
    clmem__svm_rec *rec;
    *err = CL_SUCCESS;
    if (a->svm.generation == 0) {
        if (a->svm.ptr != NULL)
            *err = clmem__fail(CL_INVALID_VALUE, fn,
                               "%p is not a clmem SVM allocation (a tag or a hand-made handle owns nothing)", a->svm.ptr);
        return NULL;
    }
    rec = clmem__svm_reg_detach(a->svm.generation, CLMEM__SVM_ALLOCATION);
    if (!rec)
        *err = clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                           "the SVM allocation (id 0x%llx) was already released, through this handle or a copy of it",
                           (unsigned long long)a->svm.generation);
    return rec;
}

static cl_int clmem__svm_alloc_release(const char *fn, clmem_svm_allocation *a) {
    clmem__svm_rec *rec;
    cl_int err;
    if (!a) return clmem__fail(CL_INVALID_VALUE, fn, "the allocation pointer is NULL");
    rec = clmem__svm_detach_allocation(fn, a, &err);
    if (!rec) return err;
    if (rec->queue) {
        cl_command_queue q = rec->queue;
        err = clmem__svm_enqueue_free(rec, q, 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            /* Could not enqueue: wait for the queue, then free at once. */
            clFinish(q);
            clmem__svm_free_now(rec);
            err = clmem__cl_fail(err, fn, "clEnqueueSVMFree (the memory was freed after clFinish instead)");
        }
    } else {
        clmem__svm_free_now(rec);
    }
    clmem__svm_reg_remove(a->svm.generation);
    a->svm.ptr = NULL;
    a->svm.size = 0;
    return err;
}

CLMEM_API cl_int clmem_svm_allocation_release(clmem_svm_allocation *a) {
    return clmem__svm_alloc_release("clmem_svm_allocation_release", a);
}

CLMEM_API cl_int clmem_svm_allocation_enqueue_release_opts(clmem_svm_allocation *a, cl_command_queue queue,
                                                           const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_svm_allocation_enqueue_release";
    clmem__svm_rec *rec;
    cl_command_queue q;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if (!a) return clmem__fail(CL_INVALID_VALUE, fn, "the allocation pointer is NULL");
    if ((err = clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for)) != CL_SUCCESS) return err;
    if (a->svm.generation == 0 && a->svm.ptr == NULL) {
        /* zero-size: nothing to free, but the event asked for still comes */
        if (!queue)
            return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn,
                               "no implicit queue available for a zero-size allocation, must be provided explicitly");
        return clmem__nothing_to_do(fn, queue, opts->wait_for, opts->num_wait_for, opts->event);
    }
    rec = clmem__svm_detach_allocation(fn, a, &err);
    if (!rec) return err;
    q = queue ? queue : rec->queue;
    if (!q) {
        clmem__svm_reg_restore(a->svm.generation, rec);
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn,
                           "no implicit queue available (the allocation is not bound to a queue), must be provided explicitly");
    }
    if (queue && CLMEM__CHECKS) {
        cl_context qctx = NULL;
        err = clmem__queue_context_of(fn, queue, &qctx);
        if (err != CL_SUCCESS || qctx != rec->context) {
            clmem__svm_reg_restore(a->svm.generation, rec);
            if (err != CL_SUCCESS) return err;
            return clmem__fail(CL_INVALID_CONTEXT, fn, "queue %p belongs to context %p, the allocation to context %p",
                               (void *)queue, (void *)qctx, (void *)rec->context);
        }
    }
    err = clmem__svm_enqueue_free(rec, q, opts->num_wait_for, opts->wait_for, opts->event);
    if (err != CL_SUCCESS) {
        clmem__svm_reg_restore(a->svm.generation, rec);
        return clmem__cl_fail(err, fn, "clEnqueueSVMFree");
    }
    clmem__svm_reg_remove(a->svm.generation);
    a->svm.ptr = NULL;
    a->svm.size = 0;
    return CL_SUCCESS;
}

/* The live record behind a by-value handle for the queue functions. */
static clmem__svm_rec *clmem__svm_live_allocation(const char *fn, clmem_svm_allocation a, cl_int *err) {
    clmem__svm_rec *rec;
    *err = CL_SUCCESS;
    if (a.svm.generation == 0) {
        if (a.svm.ptr != NULL) *err = clmem__fail(CL_INVALID_VALUE, fn, "%p is not a clmem SVM allocation", a.svm.ptr);
        return NULL;
    }
    rec = clmem__svm_reg_find(a.svm.generation, CLMEM__SVM_ALLOCATION);
    if (!rec) *err = clmem__fail(CL_INVALID_VALUE, fn, "the SVM allocation (id 0x%llx) was released", (unsigned long long)a.svm.generation);
    return rec;
}

CLMEM_API cl_int clmem_svm_allocation_bind_to_queue(clmem_svm_allocation a, cl_command_queue queue) {
    static const char fn[] = "clmem_svm_allocation_bind_to_queue";
    clmem__svm_rec *rec;
    cl_int err;
    if (!queue) return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL");
    rec = clmem__svm_live_allocation(fn, a, &err);
    if (!rec) return err;
    if ((err = clmem__svm_check_bind_queue(fn, queue, rec->context)) != CL_SUCCESS) return err;
    if (rec->queue == queue) return CL_SUCCESS;
    return clmem__queue_follow(fn, &rec->queue, queue, "clEnqueueMarkerWithWaitList (old queue)",
                               "clEnqueueMarkerWithWaitList (new queue)");
}

CLMEM_API cl_int clmem_svm_allocation_unbind_from_queue(clmem_svm_allocation a) {
    static const char fn[] = "clmem_svm_allocation_unbind_from_queue";
    clmem__svm_rec *rec;
    cl_int err;
    rec = clmem__svm_live_allocation(fn, a, &err);
    if (!rec) return err;
    return clmem__queue_unbind(fn, &rec->queue);
}

CLMEM_API cl_command_queue clmem_svm_allocation_queue(clmem_svm_allocation a) {
    clmem__svm_rec *rec = clmem__svm_reg_find(a.svm.generation, CLMEM__SVM_ALLOCATION);
    return rec ? rec->queue : NULL;
}

CLMEM_API cl_context clmem_svm_allocation_context(clmem_svm_allocation a) {
    clmem__svm_rec *rec = clmem__svm_reg_find(a.svm.generation, CLMEM__SVM_ALLOCATION);
    return rec ? rec->context : NULL;
}

CLMEM_API cl_svm_mem_flags clmem_svm_allocation_flags(clmem_svm_allocation a) {
    clmem__svm_rec *rec = clmem__svm_reg_find(a.svm.generation, CLMEM__SVM_ALLOCATION);
    return rec ? rec->flags : 0;
}

/* ---- maps ---- */
static void clmem__svm_empty_map(clmem_svm_map *m) {
    m->ptr = NULL;
    m->size = 0;
    m->svm.ptr = NULL;
    m->svm.size = 0;
    m->svm.pool = NULL;
    m->svm.generation = 0;
    m->queue = NULL;
    m->event = NULL;
    m->id = 0;
}

/* Checks shared by the SVM enqueues: queue, wait list, a live owner of the same
   context as the queue. */
static cl_int clmem__svm_check_enqueue(const char *fn, cl_command_queue queue, const cl_event *wl, cl_uint nw,
                                       clmem_svm svm, const char *what) {
    cl_context ctx;
    cl_int err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if ((err = clmem__check_wait_list(fn, wl, nw)) != CL_SUCCESS) return err;
    if (!CLMEM__CHECKS) return CL_SUCCESS;
    if ((err = clmem__svm_check_live(fn, what, svm, &ctx)) != CL_SUCCESS) return err;
    return clmem__same_context(fn, queue, ctx, what);
}

CLMEM__UNSET_TABLE(clmem_svm_map_options, CLMEM__SVM_MAP_UNSET)
CLMEM_API cl_int clmem_enqueue_svm_map_opts(cl_command_queue queue, clmem_svm svm, cl_map_flags flags,
                                            clmem_svm_map *map, const clmem_svm_map_options *opts) {
    static const char fn[] = "clmem_enqueue_svm_map";
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    clmem__svm_rec *rec;
    clmem_svm_map_options local;
    size_t size;
    cl_int err;
    opts = CLMEM__OPTIONS_IN(clmem_svm_map_options, opts, &local);
    if (!map) return clmem__fail(CL_INVALID_VALUE, fn, "map (where to store the map) is NULL");
    clmem__svm_empty_map(map);
    if ((err = clmem__check_made(fn, opts->given)) != CL_SUCCESS) return err;
    if ((err = clmem__svm_check_enqueue(fn, queue, opts->wait_for, opts->num_wait_for, svm, "svm")) != CL_SUCCESS)
        return err;
    if (CLMEM__CHECKS) {
        if (!svm.ptr) return clmem__fail(CL_INVALID_VALUE, fn, "svm.ptr is NULL");
        if (flags == 0 || (flags & ~known))
            return clmem__fail(CL_INVALID_VALUE, fn,
                               "flags 0x%llx are not CL_MAP_READ, CL_MAP_WRITE (or both) or CL_MAP_WRITE_INVALIDATE_REGION",
                               (unsigned long long)flags);
        if ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))
            return clmem__fail(CL_INVALID_VALUE, fn,
                               "flags 0x%llx combine CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE",
                               (unsigned long long)flags);
    }
    size = opts->size || (opts->given & CLMEM_GIVEN_SIZE) ? opts->size : svm.size;
    if (CLMEM__CHECKS && size == 0 && (opts->given & CLMEM_GIVEN_SIZE))
        return clmem__fail(CL_INVALID_VALUE, fn, ".size is 0: OpenCL cannot map 0 bytes");
    if (size == 0)
        return clmem__fail(CLMEM_ERROR_SIZE_UNKNOWN, fn, "the size of the map is unknown: svm.size is 0 and .size not given");
    if (CLMEM__CHECKS && svm.size && size > svm.size)
        return clmem__fail(CL_INVALID_VALUE, fn, ".size %zu is larger than the %zu bytes of svm", size, svm.size);
#ifndef CL_VERSION_2_0
    (void)rec;
    return clmem__svm_unsupported(fn);
#else
    rec = clmem__svm_rec_new(CLMEM__SVM_MAP, svm.ptr, size, NULL, queue, flags, 0);
    if (!rec) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the map record");
    err = clEnqueueSVMMap(queue, (opts->given & CLMEM_GIVEN_IS_BLOCKING) && !opts->is_blocking ? CL_FALSE : CL_TRUE, flags, svm.ptr, size,
                          opts->num_wait_for, opts->wait_for, &map->event);
    if (err != CL_SUCCESS) {
        CLMEM_FREE(rec);
        map->event = NULL;
        return clmem__cl_fail(err, fn, "clEnqueueSVMMap");
    }
    map->id = clmem__svm_reg_add(rec);
    if (map->id == 0) {
        clEnqueueSVMUnmap(queue, svm.ptr, 0, NULL, NULL);
        clReleaseEvent(map->event);
        CLMEM_FREE(rec);
        clmem__svm_empty_map(map);
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the SVM registry");
    }
    clRetainCommandQueue(queue);
    map->ptr = svm.ptr;
    map->size = size;
    map->svm = svm;
    map->queue = queue;
    if (opts->event) {
        clRetainEvent(map->event);
        *opts->event = map->event;
    }
    return CL_SUCCESS;
#endif
}

CLMEM_API cl_int clmem_svm_map_release_opts(clmem_svm_map *map, const clmem_svm_unmap_options *opts) {
    static const char fn[] = "clmem_svm_map_release";
    static const clmem_svm_unmap_options none = CLMEM_OPTIONS_INIT;
    clmem__svm_rec *rec;
    cl_command_queue q;
    cl_int err;
    if (!opts) opts = &none;
    if ((err = clmem__check_made(fn, opts->given)) != CL_SUCCESS) return err;
    if (!map) return clmem__fail(CL_INVALID_VALUE, fn, "map is NULL");
    if ((err = clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for)) != CL_SUCCESS) return err;
    if (map->id == 0) return CL_SUCCESS; /* an empty handle (e.g. from a failed map) */
    rec = clmem__svm_reg_detach(map->id, CLMEM__SVM_MAP);
    if (!rec)
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn,
                           "the SVM map (id 0x%llx) was already released, through this handle or a copy of it",
                           (unsigned long long)map->id);
    q = opts->queue ? opts->queue : rec->queue;
    if (opts->queue && CLMEM__CHECKS && opts->queue != rec->queue) {
        cl_context want = NULL, have = NULL;
        err = clmem__queue_context_of(fn, opts->queue, &have);
        if (err == CL_SUCCESS) err = clmem__queue_context_of(fn, rec->queue, &want);
        if (err != CL_SUCCESS || have != want) {
            clmem__svm_reg_restore(map->id, rec);
            if (err != CL_SUCCESS) return err;
            return clmem__fail(CL_INVALID_CONTEXT, fn, ".queue %p belongs to context %p, the map's queue to context %p",
                               (void *)opts->queue, (void *)have, (void *)want);
        }
    }
#ifdef CL_VERSION_2_0
    err = clEnqueueSVMUnmap(q, rec->ptr, opts->num_wait_for, opts->wait_for, opts->event);
#else
    (void)q;
    err = CL_INVALID_OPERATION;
#endif
    if (err != CL_SUCCESS) {
        clmem__svm_reg_restore(map->id, rec);
        return clmem__cl_fail(err, fn, "clEnqueueSVMUnmap");
    }
    clmem__svm_reg_remove(map->id);
    clReleaseCommandQueue(rec->queue);
    CLMEM_FREE(rec);
    if (map->event) clReleaseEvent(map->event);
    map->ptr = NULL;
    map->size = 0;
    map->svm.ptr = NULL;
    map->svm.size = 0;
    map->queue = NULL;
    map->event = NULL;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_svm_map_release_default(clmem_svm_map *map) { return clmem_svm_map_release_opts(map, NULL); }

/* ---- as_buffer ---- */
CLMEM_API clmem_buffer clmem_svm_as_buffer(cl_context context, clmem_svm svm, cl_mem_flags flags, size_t size,
                                           cl_int *errcode_ret) {
    static const char fn[] = "clmem_svm_as_buffer";
    clmem_buffer none;
    cl_context owner_ctx;
    cl_int err;
    memset(&none, 0, sizeof none);
    clmem__set_err(errcode_ret, CL_SUCCESS);
    if (!svm.ptr) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "svm.ptr is NULL"));
        return none;
    }
    if ((err = clmem__svm_check_live(fn, "svm", svm, &owner_ctx)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return none;
    }
    if (size == 0) size = svm.size;
    if (size == 0) {
        clmem__set_err(errcode_ret, clmem__fail(CLMEM_ERROR_SIZE_UNKNOWN, fn, "size is 0 and svm.size is unknown"));
        return none;
    }
    if (svm.size && size > svm.size) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size %zu is larger than the %zu bytes of svm",
                                                size, svm.size));
        return none;
    }
    if (!(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR))) flags |= CL_MEM_USE_HOST_PTR;
    return clmem_buffer_create(context, flags, size, svm.ptr, errcode_ret);
}

/* ---- fill (shared by clmem_enqueue_svm_memfill and clmem_enqueue_fill) ---- */

/* CLMEM__KNOWN_SIZE(h): the size of a pointer handle (SVM, USM) for the extent rules
   below and clmem__ptr_copy_extent: 0 is "unknown", except for a pooled block, whose
   size 0 is known (a real 1-byte block handed out for 0 bytes): CLMEM__SIZE_ZERO. */
#define CLMEM__SIZE_ZERO SIZE_MAX
#define CLMEM__KNOWN_SIZE(h) ((h).size || !(h).pool ? (h).size : CLMEM__SIZE_ZERO)

/* clmem__ptr_fill_extent(fn, ptr, size, offset, pattern, pattern_size, n, n_given, &count):
   the rules of a fill of pointer memory (SVM, USM; size 0: unknown, CLMEM__SIZE_ZERO:
   0 bytes): ptr and pattern
   not NULL, pattern_size a power of two up to 128, offset within size, the count
   (given, or all of size after offset) within size and a multiple of pattern_size,
   ptr + offset aligned to pattern_size. */
static cl_int clmem__ptr_fill_extent(const char *fn, void *ptr, size_t size, size_t offset, const void *pattern,
                                     size_t pattern_size, size_t n, bool n_given, size_t *count) {
    const size_t known = size;
    *count = 0;
    if (size == CLMEM__SIZE_ZERO) size = 0;
    if (CLMEM__CHECKS) {
        if (!ptr) return clmem__fail(CL_INVALID_VALUE, fn, "dst.ptr is NULL");
        if (!pattern) return clmem__fail(CL_INVALID_VALUE, fn, "pattern is NULL");
        if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
            return clmem__fail(CL_INVALID_VALUE, fn, "pattern_size %zu is not one of 1, 2, 4, 8, 16, 32, 64, 128", pattern_size);
        if (known && offset > size)
            return clmem__fail(CL_INVALID_VALUE, fn, "offset %zu is beyond the %zu bytes of dst", offset, size);
    }
    if (!n_given) {
        if (!known)
            return clmem__fail(CLMEM_ERROR_SIZE_UNKNOWN, fn, "the size to fill is unknown: dst.size is 0 and no byte count was given");
        n = size - offset;
    }
    if (CLMEM__CHECKS) {
        if (known && n > size - offset)
            return clmem__fail(CL_INVALID_VALUE, fn, "%zu bytes at offset %zu do not fit in the %zu bytes of dst", n, offset,
                               size);
        if (n % pattern_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "byte count %zu is not a multiple of pattern_size %zu", n, pattern_size);
        if (((uintptr_t)ptr + offset) % pattern_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "dst.ptr %p + offset %zu is not aligned to pattern_size %zu", ptr,
                               offset, pattern_size);
    }
    *count = n;
    return CL_SUCCESS;
}

static cl_int clmem__svm_fill(const char *fn, cl_command_queue queue, clmem_svm dst, size_t offset, const void *pattern,
                              size_t pattern_size, size_t n, bool n_given, const cl_event *wl, cl_uint nw, cl_event *event) {
    cl_int err;
    if ((err = clmem__svm_check_enqueue(fn, queue, wl, nw, dst, "dst")) != CL_SUCCESS) return err;
    if ((err = clmem__ptr_fill_extent(fn, dst.ptr, CLMEM__KNOWN_SIZE(dst), offset, pattern, pattern_size, n, n_given, &n)) != CL_SUCCESS)
        return err;
    if (n == 0) return clmem__nothing_to_do(fn, queue, wl, nw, event);
#ifdef CL_VERSION_2_0
    err = clEnqueueSVMMemFill(queue, (char *)dst.ptr + offset, pattern, pattern_size, n, nw, wl, event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueSVMMemFill");
#else
    return clmem__svm_unsupported(fn);
#endif
}

CLMEM__UNSET_TABLE(clmem_svm_memfill_options, CLMEM__SVM_MEMFILL_UNSET)
CLMEM_API cl_int clmem_enqueue_svm_memfill_opts(cl_command_queue queue, clmem_svm dst, const void *pattern,
                                                size_t pattern_size, const clmem_svm_memfill_options *opts) {
    clmem_svm_memfill_options local;
    cl_int err;
    opts = CLMEM__OPTIONS_IN(clmem_svm_memfill_options, opts, &local);
    if ((err = clmem__check_made("clmem_enqueue_svm_memfill", opts->given)) != CL_SUCCESS) return err;
    return clmem__svm_fill("clmem_enqueue_svm_memfill", queue, dst, 0, pattern, pattern_size, opts->byte_count,
                           opts->byte_count != 0 || (opts->given & CLMEM_GIVEN_BYTE_COUNT), opts->wait_for, opts->num_wait_for, opts->event);
}

/* ---- migration ---- */
CLMEM_API cl_int clmem_enqueue_svm_migratemem_opts(cl_command_queue queue, const clmem_svm *svms, cl_uint n,
                                                   cl_mem_migration_flags flags, const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_svm_migratemem";
    const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    cl_uint i;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if ((err = clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for)) != CL_SUCCESS) return err;
    if (n == 0 || !svms) return clmem__fail(CL_INVALID_VALUE, fn, "no SVM pointers given (n %u, svms %p)", n, (const void *)svms);
    if (flags & ~known)
        return clmem__fail(CL_INVALID_VALUE, fn, "flags 0x%llx contain bits other than CL_MIGRATE_MEM_OBJECT_HOST and "
                           "CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED", (unsigned long long)flags);
    for (i = 0; i < n; ++i) {
        char what[32];
        if (!svms[i].ptr) return clmem__fail(CL_INVALID_VALUE, fn, "svms[%u].ptr is NULL", i);
        snprintf(what, sizeof what, "svms[%u]", i);
        if ((err = clmem__svm_check_enqueue(fn, queue, NULL, 0, svms[i], what)) != CL_SUCCESS) return err;
    }
    {
        cl_device_id dev = NULL;
        int v;
        if ((err = clmem__queue_device_of(fn, queue, &dev)) != CL_SUCCESS) return err;
        if ((err = clmem__device_version(fn, dev, &v)) != CL_SUCCESS) return err;
        if (v < 210) {
            char name[128] = "?";
            clmem__device_name(dev, name, sizeof name);
            return clmem__fail(CL_INVALID_OPERATION, fn,
                               "clEnqueueSVMMigrateMem needs OpenCL 2.1; device '%s' is OpenCL %d.%d", name, v / 100,
                               (v / 10) % 10);
        }
    }
#if defined(CL_VERSION_2_1)
    {
        const void **ptrs = CLMEM__CAST(const void **, CLMEM_MALLOC(sizeof(void *) * n));
        size_t *sizes = CLMEM__CAST(size_t *, CLMEM_MALLOC(sizeof(size_t) * n));
        if (!ptrs || !sizes) {
            CLMEM_FREE(ptrs);
            CLMEM_FREE(sizes);
            return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for %u pointers", n);
        }
        for (i = 0; i < n; ++i) {
            ptrs[i] = svms[i].ptr;
            sizes[i] = svms[i].size;
        }
        err = clEnqueueSVMMigrateMem(queue, n, ptrs, sizes, flags, opts->num_wait_for, opts->wait_for, opts->event);
        CLMEM_FREE(ptrs);
        CLMEM_FREE(sizes);
        return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueSVMMigrateMem");
    }
#else
    return clmem__fail(CL_INVALID_OPERATION, fn, "clmem was compiled with OpenCL headers older than 2.1: no clEnqueueSVMMigrateMem");
#endif
}

/* ---- SVM pointers reached through memory (clSetKernelExecInfo) ---- */
CLMEM_API cl_int clmem_kernel_set_exec_info(cl_kernel kernel, const clmem_svm *svms, cl_uint n, cl_bool fine_grain_system) {
    static const char fn[] = "clmem_kernel_set_exec_info";
    cl_int err;
    if (!kernel) return clmem__fail(CL_INVALID_KERNEL, fn, "kernel is NULL");
    if (n > 0 && !svms) return clmem__fail(CL_INVALID_VALUE, fn, "svms is NULL but n is %u", n);
    if (CLMEM__CHECKS && n == 0 && svms)
        return clmem__fail(CL_INVALID_VALUE, fn, "n is 0 but svms is not NULL: say how many SVM pointers svms holds");
#ifndef CL_VERSION_2_0
    (void)err; (void)fine_grain_system;
    return clmem__svm_unsupported(fn);
#else
    {
        cl_context kctx = NULL;
        cl_device_id *devs;
        cl_uint nd = 0, i;
        cl_bitfield any = 0;
        char name[128] = "?";
        err = clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof kctx, &kctx, NULL);
        if (err == CL_INVALID_KERNEL || (err == CL_SUCCESS && !kctx))
            return clmem__fail(CL_INVALID_KERNEL, fn, "kernel %p is not a valid kernel (clGetKernelInfo: %s)", (void *)kernel,
                               clmem_error_string(err));
        if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetKernelInfo", "CL_KERNEL_CONTEXT");
        devs = clmem__devices_of(fn, kctx, &nd, &err);
        if (!devs) return err;
        for (i = 0; i < nd; ++i) {
            cl_bitfield caps = 0;
            if ((err = clmem__svm_device_caps(fn, devs[i], &caps)) != CL_SUCCESS) {
                CLMEM_FREE(devs);
                return err;
            }
            any |= caps;
        }
        clmem__device_name(devs[0], name, sizeof name);
        CLMEM_FREE(devs);
        if (CLMEM__CHECKS) {
            if (!(any & (CLMEM__SVM_CAP_COARSE | CLMEM__SVM_CAP_FINE | CLMEM__SVM_CAP_SYSTEM)))
                return clmem__fail(CL_INVALID_OPERATION, fn,
                                   "no device of the kernel's context supports SVM (device '%s' reports no "
                                   "CL_DEVICE_SVM_CAPABILITIES; SVM needs OpenCL 2.0)", name);
            if (fine_grain_system && !(any & CLMEM__SVM_CAP_SYSTEM))
                return clmem__fail(CL_INVALID_OPERATION, fn,
                                   "fine_grain_system is CL_TRUE but no device of the kernel's context has fine-grain "
                                   "system SVM (device '%s' has %s buffer SVM only)",
                                   name, (any & CLMEM__SVM_CAP_FINE) ? "coarse- and fine-grain" : "coarse-grain");
            for (i = 0; i < n; ++i) {
                char what[32];
                cl_context actx;
                if (!svms[i].ptr) return clmem__fail(CL_INVALID_VALUE, fn, "svms[%u].ptr is NULL", i);
                snprintf(what, sizeof what, "svms[%u]", i);
                if ((err = clmem__svm_check_live(fn, what, svms[i], &actx)) != CL_SUCCESS) return err;
                if (actx && actx != kctx)
                    return clmem__fail(CL_INVALID_CONTEXT, fn,
                                       "svms[%u] (SVM pointer %p) belongs to context %p, the kernel to context %p", i,
                                       svms[i].ptr, (void *)actx, (void *)kctx);
            }
        }
        if (n > 0) {
            void **ptrs = CLMEM__CAST(void **, CLMEM_MALLOC(sizeof(void *) * n));
            if (!ptrs) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for %u pointers", n);
            for (i = 0; i < n; ++i) ptrs[i] = svms[i].ptr;
            err = clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *) * n, ptrs);
            CLMEM_FREE(ptrs);
            if (err != CL_SUCCESS)
                return clmem__fail(err, fn, "clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS, %u pointers) failed with %s (%d)",
                                   n, clmem_error_string(err), (int)err);
        }
        /* the flag can only be on where a device has system SVM: elsewhere CL_FALSE is
           what it already is, and some drivers refuse the query outright */
        if (fine_grain_system || (any & CLMEM__SVM_CAP_SYSTEM)) {
            cl_bool v = fine_grain_system ? CL_TRUE : CL_FALSE;
            err = clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof v, &v);
            if (err != CL_SUCCESS)
                return clmem__fail(err, fn, "clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, %s) failed with %s (%d)",
                                   v ? "CL_TRUE" : "CL_FALSE", clmem_error_string(err), (int)err);
        }
        return CL_SUCCESS;
    }
#endif
}

/* ---- from any pointer into an allocation to the allocation ---- */
CLMEM_API cl_int clmem_svm_allocation_lookup(const void *ptr, clmem_svm_allocation *alloc) {
    static const char fn[] = "clmem_svm_allocation_lookup";
    uintptr_t p = (uintptr_t)ptr;
    void *end_of = NULL;
    size_t end_size = 0;
    bool found = false;
    uint32_t i;
    if (!alloc) return clmem__fail(CL_INVALID_VALUE, fn, "alloc (where to store the allocation) is NULL");
    *alloc = clmem__svm_empty_allocation();
    if (!ptr) return clmem__fail(CL_INVALID_VALUE, fn, "ptr is NULL");
    clmem__lock(&clmem__svm_reg.lock);
    for (i = 0; i < clmem__svm_reg.n; ++i) {
        const clmem__reg_slot *s = &clmem__svm_reg.slots[i];
        const clmem__svm_rec *r = CLMEM__CAST(const clmem__svm_rec *, s->obj); /* NULL while a release is under way */
        uintptr_t b;
        if (!s->busy || !r || s->tag != CLMEM__SVM_ALLOCATION) continue;
        b = (uintptr_t)r->ptr;
        if (p >= b && p - b < r->size) {
            alloc->svm.ptr = r->ptr;
            alloc->svm.size = r->size;
            alloc->svm.generation = ((uint64_t)s->gen << 32) | (uint64_t)(i + 1);
            found = true;
            break;
        }
        if (p >= b && p - b == r->size) {
            end_of = r->ptr;
            end_size = r->size;
        }
    }
    clmem__unlock(&clmem__svm_reg.lock);
    if (found) return CL_SUCCESS;
    if (end_of)
        return clmem__fail(CLMEM_ERROR_NOT_FOUND, fn,
                           "%p is one past the end of the SVM allocation at %p (%zu bytes), not inside it", ptr, end_of,
                           end_size);
    return clmem__fail(CLMEM_ERROR_NOT_FOUND, fn,
                       "%p is not inside a live SVM allocation made by clmem (not from clmem, a pooled block, or "
                       "already released)", ptr);
}

/* ---- C-shaped arrays ---- */
static cl_int clmem__svm_empty(const char *fn, cl_context ctx, cl_svm_mem_flags flags, size_t itemsize, const char *dtype,
                               const size_t *shape, unsigned ndim, char order, size_t alignment, cl_command_queue queue,
                               clmem_svm_array *arr) {
    size_t nbytes = itemsize, stride;
    unsigned i;
    cl_int err;
    clmem_svm_allocation a;
    if (ndim == 0) return clmem__fail(CL_INVALID_VALUE, fn, "no shape given (write .shape = {n0, n1, ...})");
    if (ndim > CLMEM_SVM_MAX_DIMS) return clmem__fail(CL_INVALID_VALUE, fn, "ndim %u is above CLMEM_SVM_MAX_DIMS (%d)", ndim, CLMEM_SVM_MAX_DIMS);
    if (itemsize == 0) return clmem__fail(CL_INVALID_VALUE, fn, "the element size is 0");
    if (order == 0 || order == 'c') order = 'C';
    if (order == 'f') order = 'F';
    if (order != 'C' && order != 'F') return clmem__fail(CL_INVALID_VALUE, fn, "order '%c' not recognized (use 'C' or 'F')", order);
    for (i = 0; i < ndim; ++i)
        if (!clmem__mul_ok(nbytes, shape[i], &nbytes))
            return clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "the byte size of the shape overflows (dimension %u is %zu)", i, shape[i]);
    if (alignment == 0) /* PyOpenCL's default: the element size (where clSVMAlloc can take it) */
        alignment = (itemsize <= 128 && !(itemsize & (itemsize - 1))) ? itemsize : 0;
    if (alignment > 0xffffffffu) return clmem__fail(CL_INVALID_VALUE, fn, "alignment %zu does not fit a cl_uint", alignment);
    a = clmem__svm_alloc(fn, ctx, nbytes, (cl_uint)alignment, flags, queue, &err);
    if (err != CL_SUCCESS) return err;
    arr->svm = a.svm;
    arr->dtype = dtype;
    arr->itemsize = itemsize;
    arr->ndim = ndim;
    arr->order = order;
    arr->alignment = alignment;
    stride = itemsize;
    for (i = 0; i < ndim; ++i) {
        unsigned d = order == 'C' ? ndim - 1 - i : i;
        arr->shape[d] = shape[d];
        arr->strides[d] = stride;
        stride *= shape[d];
    }
    return CL_SUCCESS;
}

CLMEM__UNSET_TABLE(clmem_svm_empty_options, CLMEM__SVM_EMPTY_UNSET)
/* the name in parentheses: in C a macro of the same name checks the arguments (clmem/compat.h) */
CLMEM_API clmem_svm_array (clmem_svm_empty_opts)(cl_context ctx, cl_svm_mem_flags flags, size_t itemsize, const char *dtype,
                                               cl_int *errcode_ret, const clmem_svm_empty_options *opts) {
    static const char fn[] = "clmem_svm_empty";
    clmem_svm_empty_options local;
    clmem_svm_array arr;
    unsigned ndim = 0;
    cl_int err;
    memset(&arr, 0, sizeof arr);
    if (opts) opts = CLMEM__OPTIONS_IN(clmem_svm_empty_options, opts, &local);
    if (!opts) {
        err = clmem__fail(CL_INVALID_VALUE, fn, "no options: the shape is required");
    } else if ((err = clmem__check_made(fn, opts->given)) == CL_SUCCESS) {
        ndim = opts->ndim;
        if (ndim == 0 && !(opts->given & CLMEM_GIVEN_NDIM))
            while (ndim < CLMEM_SVM_MAX_DIMS && opts->shape[ndim] != 0) ++ndim;
        err = clmem__svm_empty(fn, ctx, flags, itemsize, dtype, opts->shape, ndim, opts->order, opts->alignment, opts->queue,
                               &arr);
    }
    clmem__set_err(errcode_ret, err);
    return arr;
}

/* the name in parentheses: in C a macro of the same name checks the arguments (clmem/compat.h) */
CLMEM_API clmem_svm_array (clmem_svm_empty_like_opts)(cl_context ctx, cl_svm_mem_flags flags, const clmem_svm_array *like,
                                                    cl_int *errcode_ret, const clmem_svm_empty_options *opts) {
    static const char fn[] = "clmem_svm_empty_like";
    clmem_svm_empty_options local;
    clmem_svm_array arr;
    cl_int err;
    opts = CLMEM__OPTIONS_IN(clmem_svm_empty_options, opts, &local);
    memset(&arr, 0, sizeof arr);
    if (!like)
        err = clmem__fail(CL_INVALID_VALUE, fn, "like (the array to copy the shape of) is NULL");
    else
        err = clmem__svm_empty(fn, ctx, flags, like->itemsize, like->dtype, like->shape, like->ndim, like->order,
                               opts->alignment, opts->queue, &arr);
    clmem__set_err(errcode_ret, err);
    return arr;
}

CLMEM_API cl_int clmem_svm_array_release(clmem_svm_array *arr) {
    clmem_svm_allocation a;
    cl_int err;
    if (!arr) return clmem__fail(CL_INVALID_VALUE, "clmem_svm_array_release", "arr is NULL");
    a.svm = arr->svm;
    err = clmem__svm_alloc_release("clmem_svm_array_release", &a);
    arr->svm = a.svm;
    return err;
}
