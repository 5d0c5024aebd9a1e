/* >>peer (implementation) */
#include "peer.h"
#include "transfer.h"

#if CLMEM__VENDOR_LIBRARIES
#include <unistd.h>
#endif

enum { CLMEM__PEER_MAX_VIEWS = 16 };
typedef struct clmem__peer_view {
    cl_device_id device;
    clmem_external_memory *m;
    clmem_buffer buf;
} clmem__peer_view;

struct clmem_peer_buffer {
    clmem__peer_home at;              /* its context (retained), home and CUDA device */
    size_t size, alloc_size;
    int fd;
    clmem__CUmemhandle handle;
    clmem__mutex lock;
    bool pooled;                      /* a block of a peer pool (>>peer_pool): its pool frees it */
    unsigned nviews;
    clmem__peer_view views[CLMEM__PEER_MAX_VIEWS];
};

/* ---- bytes imported per context (CLMEM_PEER_IMPORT_LIMIT) ---- */
enum { CLMEM__PEER_CONTEXTS = 64 };
static struct {
    cl_context context;
    cl_ulong bytes;
} clmem__peer_imported[CLMEM__PEER_CONTEXTS];
static clmem__mutex clmem__peer_lock = CLMEM__MUTEX_INIT;

/* clmem__peer_account(fn, ctx, add, sub): count add more (or sub fewer) bytes imported
   into ctx; refuses (nothing counted) what would pass the limit */
static cl_int clmem__peer_account(const char *fn, cl_context ctx, cl_ulong add, cl_ulong sub) {
    unsigned i, free_slot = CLMEM__PEER_CONTEXTS;
    cl_int err = CL_SUCCESS;
    clmem__lock(&clmem__peer_lock);
    for (i = 0; i < CLMEM__PEER_CONTEXTS && clmem__peer_imported[i].context != ctx; ++i)
        if (!clmem__peer_imported[i].context && free_slot == CLMEM__PEER_CONTEXTS) free_slot = i;
    if (i == CLMEM__PEER_CONTEXTS && add) {
        if (free_slot == CLMEM__PEER_CONTEXTS)
            err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "more than %d contexts hold peer views", (int)CLMEM__PEER_CONTEXTS);
        else
            clmem__peer_imported[i = free_slot].context = ctx;
    }
    if (err == CL_SUCCESS && i < CLMEM__PEER_CONTEXTS) {
        cl_ulong now = clmem__peer_imported[i].bytes;
        if (add && now + add > (cl_ulong)CLMEM_PEER_IMPORT_LIMIT)
            err = clmem__fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, fn,
                              "a view of %llu bytes would take the peer memory imported into context %p to %llu bytes, "
                              "past CLMEM_PEER_IMPORT_LIMIT (%llu): NVIDIA's driver was seen to work up to 4 GiB of imports in one "
                              "context; release peer buffers, or define CLMEM_PEER_IMPORT_LIMIT larger where the driver "
                              "copes", (unsigned long long)add, (void *)ctx, (unsigned long long)(now + add),
                              (unsigned long long)CLMEM_PEER_IMPORT_LIMIT);
        else {
            now = now + add - (sub < now + add ? sub : now + add);
            clmem__peer_imported[i].bytes = now;
            if (now == 0) clmem__peer_imported[i].context = NULL;
        }
    }
    clmem__unlock(&clmem__peer_lock);
    return err;
}

/* ---- the CUDA side ---- */

/* clmem__peer_cuda_alloc(fn, cu, device, size, &handle, &alloc_size, &fd): size bytes
   (rounded up to the granularity) of the CUDA device's memory, exportable as an fd,
   and the fd; on failure nothing is left allocated */
static cl_int clmem__peer_cuda_alloc(const char *fn, const clmem__cuda_fns *cu, clmem__CUdevice device, size_t size,
                                     clmem__CUmemhandle *handle, size_t *alloc_size, int *fd) {
    clmem__CUmemAllocationProp prop;
    size_t gran = 0;
    clmem__CUresult r;
    cl_int err;
    *handle = 0;
    *fd = -1;
    if (!cu->mem_granularity || !cu->mem_create || !cu->mem_release || !cu->mem_export)
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "%s has no virtual memory management (cuMemCreate, cuMemExportToShareableHandle: CUDA 10.2 "
                           "and later)", CLMEM_LIBCUDA);
    memset(&prop, 0, sizeof prop);
    prop.type = CLMEM__CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.requestedHandleTypes = CLMEM__CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    prop.location.type = CLMEM__CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    if ((err = clmem__cuda_enter(fn, cu, device)) != CL_SUCCESS) return err;
    r = cu->mem_granularity(&gran, &prop, CLMEM__CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    if (r != CLMEM__CUDA_SUCCESS) {
        err = clmem__cuda_fail(fn, cu, "cuMemGetAllocationGranularity", r);
    } else {
        if (gran == 0) gran = 1;
        *alloc_size = (size + gran - 1) / gran * gran;
        if (*alloc_size < size) /* wrapped */
            err = clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size %zu rounded up to CUDA's granularity %zu overflows", size, gran);
        else if ((r = cu->mem_create(handle, *alloc_size, &prop, 0)) != CLMEM__CUDA_SUCCESS)
            err = clmem__cuda_fail(fn, cu, "cuMemCreate", r);
        else if ((r = cu->mem_export(fd, *handle, CLMEM__CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)) !=
                 CLMEM__CUDA_SUCCESS) {
            err = clmem__cuda_fail(fn, cu, "cuMemExportToShareableHandle", r);
            cu->mem_release(*handle);
            *handle = 0;
            *fd = -1;
        }
    }
    clmem__cuda_leave(cu, device);
    return err;
}

static void clmem__peer_cuda_free(const clmem__cuda_fns *cu, clmem__CUdevice device, clmem__CUmemhandle handle, int fd) {
    if (handle && clmem__cuda_enter("clmem_peer_buffer_release", cu, device) == CL_SUCCESS) {
        cu->mem_release(handle);
        clmem__cuda_leave(cu, device);
    }
#if CLMEM__VENDOR_LIBRARIES
    if (fd >= 0) close(fd);
#else
    (void)fd;
#endif
}

/* ---- peer buffers ---- */

/* clmem__peer_check_home(fn, context, home, &at): what peer memory on home takes
   (context and home given): home a device of context with
   cl_khr_external_memory_opaque_fd, libcuda, the CUDA device with home's UUID. On
   success *at holds all four (clmem__peer_home). The checks of clmem_peer_buffer_create
   and clmem_peer_pool_create. */
static cl_int clmem__peer_check_home(const char *fn, cl_context context, cl_device_id home, clmem__peer_home *at) {
    unsigned char uuid[16];
    char name[128];
    cl_int err;
    if ((err = clmem__context_device(fn, context, home, "home")) != CL_SUCCESS) return err;
    if (!clmem__device_lists(home, "cl_khr_external_memory_opaque_fd")) {
        clmem__device_name(home, name, sizeof name);
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "device '%s' has no cl_khr_external_memory_opaque_fd: peer memory is CUDA memory imported "
                           "into OpenCL", name);
    }
    if ((err = clmem__cuda(fn, &at->cu)) != CL_SUCCESS || (err = clmem__cl_device_uuid(fn, home, uuid)) != CL_SUCCESS ||
        (err = clmem__cuda_device_by_uuid(fn, at->cu, uuid, &at->cudev)) != CL_SUCCESS)
        return err;
    at->context = context;
    at->home = home;
    return CL_SUCCESS;
}

/* clmem__peer_check_size(fn, size, several): CL_INVALID_BUFFER_SIZE in words above
   CLMEM_PEER_BUFFER_MAX, advising to allocate several (peer buffers, blocks) instead */
static cl_int clmem__peer_check_size(const char *fn, size_t size, const char *several) {
    if (size <= CLMEM_PEER_BUFFER_MAX) return CL_SUCCESS;
    return clmem__fail(CL_INVALID_BUFFER_SIZE, fn,
                       "size %zu is above CLMEM_PEER_BUFFER_MAX (%zu): NVIDIA's driver crashes on one import of "
                       "512 MiB or more; allocate several %s", size, (size_t)CLMEM_PEER_BUFFER_MAX, several);
}

/* clmem__peer_buffer_new(fn, at, size, pooled, &err): a peer buffer of size bytes where
   clmem__peer_check_home found `at` (size > 0), no view made yet; pooled: a peer pool's
   block, which clmem_peer_buffer_release refuses */
static clmem_peer_buffer *clmem__peer_buffer_new(const char *fn, const clmem__peer_home *at, size_t size, bool pooled,
                                                 cl_int *errcode_ret) {
    clmem_peer_buffer *pb = CLMEM__CAST(clmem_peer_buffer *, clmem__alloc_for(sizeof *pb, fn, "the peer buffer", errcode_ret));
    cl_int err;
    if (!pb) return NULL;
    memset(pb, 0, sizeof *pb);
    if ((err = clmem__peer_cuda_alloc(fn, at->cu, at->cudev, size, &pb->handle, &pb->alloc_size, &pb->fd)) !=
        CL_SUCCESS) {
        CLMEM_FREE(pb);
        return CLMEM__CAST(clmem_peer_buffer *, clmem__null_with(errcode_ret, err));
    }
    pb->at = *at;
    pb->size = size;
    pb->pooled = pooled;
    clmem__mutex_init(&pb->lock);
    clRetainContext(at->context);
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return pb;
}

CLMEM_API clmem_peer_buffer *clmem_peer_buffer_create(cl_context context, cl_device_id home, size_t size,
                                                      cl_int *errcode_ret) {
    static const char fn[] = "clmem_peer_buffer_create";
    clmem__peer_home at = CLMEM__ZERO;
    cl_int err;
    if (!context) return CLMEM__CAST(clmem_peer_buffer *, clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL")));
    if (!home) return CLMEM__CAST(clmem_peer_buffer *, clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_DEVICE, fn, "home is NULL")));
    if (size == 0) return CLMEM__CAST(clmem_peer_buffer *, clmem__null_with(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "size is 0")));
    if ((err = clmem__peer_check_size(fn, size, "peer buffers")) != CL_SUCCESS ||
        (err = clmem__peer_check_home(fn, context, home, &at)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_peer_buffer *, clmem__null_with(errcode_ret, err));
    return clmem__peer_buffer_new(fn, &at, size, false, errcode_ret);
}

/* clmem__peer_view_of(fn, pb, queue, dev, &buf): the view for dev (the queue's device),
   made at first use: imported for dev, acquired on queue (waited for, so every queue
   of dev may use it) */
static cl_int clmem__peer_view_of(const char *fn, clmem_peer_buffer *pb, cl_command_queue queue, cl_device_id dev,
                                  clmem_buffer *buf) {
    clmem__peer_view *v = NULL;
    clmem_external_memory *m;
    cl_event acquired = NULL;
    unsigned i;
    cl_int err;
    clmem__lock(&pb->lock);
    for (i = 0; i < pb->nviews && !v; ++i)
        if (pb->views[i].device == dev) v = &pb->views[i];
    if (v) {
        *buf = v->buf;
        clmem__unlock(&pb->lock);
        return CL_SUCCESS;
    }
    if (pb->nviews == CLMEM__PEER_MAX_VIEWS) {
        clmem__unlock(&pb->lock);
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "a peer buffer has views for at most %d devices", (int)CLMEM__PEER_MAX_VIEWS);
    }
    if ((err = clmem__peer_account(fn, pb->at.context, pb->size, 0)) != CL_SUCCESS) {
        clmem__unlock(&pb->lock);
        return err;
    }
    m = clmem_external_memory_import(pb->at.context, dev, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, pb->fd, pb->size,
                                     CL_MEM_READ_WRITE, &err);
    if (m) {
        err = clmem_enqueue_acquire_external_memory_opts(queue, m, buf, NULL);
        if (err == CL_SUCCESS) {
            if ((err = clEnqueueMarkerWithWaitList(queue, 0, NULL, &acquired)) != CL_SUCCESS) {
                clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
            } else {
                if ((err = clWaitForEvents(1, &acquired)) != CL_SUCCESS) clmem__cl_fail(err, fn, "clWaitForEvents");
                clReleaseEvent(acquired);
            }
            if (err != CL_SUCCESS) {
                clmem_enqueue_release_external_memory_opts(queue, m, NULL);
                clFinish(queue);
            }
        }
        if (err != CL_SUCCESS) {
            cl_int kept = err;
            char why[768];
            snprintf(why, sizeof why, "%s", clmem_last_error_message());
            clmem_external_memory_release(m);
            m = NULL;
            err = clmem__fail(kept, fn, "%s", why);
        }
    }
    if (!m) {
        clmem__peer_account(fn, pb->at.context, 0, pb->size);
        clmem__unlock(&pb->lock);
        *buf = clmem__buffer_empty();
        return clmem__refail_as(fn, err);
    }
    m->rec->object = pb;
    v = &pb->views[pb->nviews++];
    v->device = dev;
    v->m = m;
    v->buf = *buf;
    clmem__unlock(&pb->lock);
    return CL_SUCCESS;
}

/* clmem__peer_view_for(fn, pb, queue, &buf): pb's view for the queue's device (the
   queue checked: valid, of pb's context); an empty handle on failure */
static cl_int clmem__peer_view_for(const char *fn, clmem_peer_buffer *pb, cl_command_queue queue, clmem_buffer *buf) {
    cl_device_id dev = NULL;
    cl_int err;
    *buf = clmem__buffer_empty();
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS ||
        (err = clmem__same_context(fn, queue, pb->at.context, "pb")) != CL_SUCCESS ||
        (err = clmem__queue_device_of(fn, queue, &dev)) != CL_SUCCESS)
        return err;
    return clmem__peer_view_of(fn, pb, queue, dev, buf);
}

CLMEM_API clmem_buffer clmem_peer_buffer_view(clmem_peer_buffer *pb, cl_command_queue queue, cl_int *errcode_ret) {
    static const char fn[] = "clmem_peer_buffer_view";
    clmem_buffer buf = clmem__buffer_empty();
    cl_int err;
    if (!pb) err = clmem__fail(CL_INVALID_VALUE, fn, "pb is NULL");
    else err = clmem__peer_view_for(fn, pb, queue, &buf);
    clmem__set_err(errcode_ret, err);
    return buf;
}

/* clmem__peer_restamp(pb): every view handle given out so far goes stale (a pooled
   peer buffer's hand-out ended, >>peer_pool): each view's record takes a new
   generation (odd: still acquired), which the views handed out from now on carry */
static void clmem__peer_restamp(clmem_peer_buffer *pb) {
    unsigned i;
    clmem__lock(&pb->lock);
    for (i = 0; i < pb->nviews; ++i) {
        clmem__peer_view *v = &pb->views[i];
        clmem__lock(&v->m->lock);
        v->buf.generation += 2;
        v->m->buffer.generation = v->buf.generation;
        clmem__atomic_store_u64(&v->m->rec->owner.gen, v->buf.generation);
        clmem__unlock(&v->m->lock);
    }
    clmem__unlock(&pb->lock);
}

CLMEM_API size_t clmem_peer_buffer_size(const clmem_peer_buffer *pb) { return pb ? pb->size : 0; }
CLMEM_API cl_device_id clmem_peer_buffer_home(const clmem_peer_buffer *pb) { return pb ? pb->at.home : NULL; }
CLMEM_API int clmem_peer_buffer_fd(const clmem_peer_buffer *pb) { return pb ? pb->fd : -1; }

CLMEM_API clmem_peer_buffer *clmem_peer_buffer_of(clmem_buffer view) {
    if (!view.mem || !view.pool || !(view.generation & CLMEM__GEN_BOUND) || clmem__buffer_stale(view)) return NULL;
    return CLMEM__CAST(clmem_peer_buffer *, CLMEM__CAST(const clmem__bound_owner *, view.pool)->object);
}

/* clmem__peer_buffer_free(fn, pb): release every view (each on the queue that
   acquired it, which is then finished), then the CUDA memory; the first error met */
static cl_int clmem__peer_buffer_free(const char *fn, clmem_peer_buffer *pb) {
    cl_int err = CL_SUCCESS, e;
    unsigned i;
    for (i = 0; i < pb->nviews; ++i) {
        clmem__peer_view *v = &pb->views[i];
        cl_command_queue q = v->m->acquired_on;
        if (q) {
            clRetainCommandQueue(q);
            e = clmem_enqueue_release_external_memory_opts(q, v->m, NULL);
            if (e == CL_SUCCESS && (e = clFinish(q)) != CL_SUCCESS) clmem__cl_fail(e, fn, "clFinish");
            clReleaseCommandQueue(q);
            if (e != CL_SUCCESS && err == CL_SUCCESS) err = e;
        }
        if (!v->m->acquired_on && (e = clmem_external_memory_release(v->m)) != CL_SUCCESS && err == CL_SUCCESS) err = e;
    }
    clmem__peer_account(fn, pb->at.context, 0, (cl_ulong)pb->size * pb->nviews);
    clmem__peer_cuda_free(pb->at.cu, pb->at.cudev, pb->handle, pb->fd);
    clReleaseContext(pb->at.context);
    clmem__mutex_destroy(&pb->lock);
    CLMEM_FREE(pb);
    return err;
}

CLMEM_API cl_int clmem_peer_buffer_release(clmem_peer_buffer *pb) {
    static const char fn[] = "clmem_peer_buffer_release";
    if (!pb) return CL_SUCCESS;
    if (pb->pooled)
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "pb %p is a block of a peer pool: release its pooled handle (clmem_pooled_peer_release), "
                           "and the pool frees the block", (void *)pb);
    return clmem__peer_buffer_free(fn, pb);
}

/* ---- device links over peer memory (called by clmem_device_link_copy) ---- */

/* clmem__peer_link_copy(src_queue, dst_queue, &dst, &src, count, o, staged, &done): a
   side that is a peer buffer's view becomes the view for the device whose queue will
   touch it. Peer memory on both sides: one clEnqueueCopyBuffer on the source queue
   between the views for the source device, after the destination queue's earlier work,
   the destination queue's later work and .event after it; *done true. One side only:
   *done false, and the link copies its own way (staged: the source read on the source
   queue, the destination written on its own; else the driver's copy on the destination
   queue, so both views for the destination's device). */
static cl_int clmem__peer_link_copy(cl_command_queue src_queue, cl_command_queue dst_queue, clmem_buffer *dst,
                                    clmem_buffer *src, size_t count, const clmem_copy_options *o, bool staged, bool *done) {
    static const char fn[] = "clmem_device_link_copy";
    clmem_peer_buffer *pd = clmem_peer_buffer_of(*dst), *ps = clmem_peer_buffer_of(*src);
    cl_device_id sdev = NULL, ddev = NULL;
    cl_event small[8], *waits = small, mark = NULL, copied = NULL;
    cl_uint nw = o->num_wait_for;
    cl_int err;
    *done = false;
    if (!pd && !ps) return CL_SUCCESS;
    if ((err = clmem__queue_device_of(fn, src_queue, &sdev)) != CL_SUCCESS ||
        (err = clmem__queue_device_of(fn, dst_queue, &ddev)) != CL_SUCCESS)
        return err;
    if (!(pd && ps)) {
        /* one side: staged, each side on its own queue; else the driver's copy on the
           destination queue, which must use the views for its device */
        if (ps && (err = clmem__peer_view_of(fn, ps, staged ? src_queue : dst_queue, staged ? sdev : ddev, src)) != CL_SUCCESS)
            return err;
        return pd ? clmem__peer_view_of(fn, pd, dst_queue, ddev, dst) : CL_SUCCESS;
    }
    if ((err = clmem__peer_view_of(fn, ps, src_queue, sdev, src)) != CL_SUCCESS ||
        (err = clmem__peer_view_of(fn, pd, src_queue, sdev, dst)) != CL_SUCCESS)
        return err;
    *done = true;
    if (nw + 1 > sizeof small / sizeof small[0]) {
        waits = CLMEM__CAST(cl_event *, CLMEM_MALLOC((nw + 1) * sizeof *waits));
        if (!waits) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the wait list");
    }
    if (nw) memcpy(waits, o->wait_for, nw * sizeof *waits);
    if (dst_queue != src_queue) {
        if ((err = clEnqueueMarkerWithWaitList(dst_queue, 0, NULL, &mark)) != CL_SUCCESS || (err = clFlush(dst_queue)) != CL_SUCCESS) {
            if (mark) clReleaseEvent(mark);
            if (waits != small) CLMEM_FREE(waits);
            return clmem__cl_fail(err, fn, mark ? "clFlush" : "clEnqueueMarkerWithWaitList");
        }
        waits[nw++] = mark;
    }
    err = clEnqueueCopyBuffer(src_queue, src->root, dst->root, src->origin + o->src_offset, dst->origin + o->dst_offset,
                              count, nw, nw ? waits : NULL, &copied);
    if (mark) clReleaseEvent(mark);
    if (waits != small) CLMEM_FREE(waits);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueCopyBuffer (peer memory)");
    if ((err = clFlush(src_queue)) != CL_SUCCESS) {
        clReleaseEvent(copied);
        return clmem__cl_fail(err, fn, "clFlush");
    }
    if (dst_queue != src_queue && !clmem__device_wait(o)) {
        /* the destination queue's later work, and .event, after the copy (a blocking copy
           is done before any later work is enqueued: no barrier; .event is the copy's) */
        if ((err = clEnqueueBarrierWithWaitList(dst_queue, 1, &copied, o->event)) != CL_SUCCESS ||
            (err = clFlush(dst_queue)) != CL_SUCCESS) {
            clReleaseEvent(copied);
            return clmem__cl_fail(err, fn, "clEnqueueBarrierWithWaitList");
        }
    } else if (o->event) {
        clRetainEvent(copied);
        *o->event = copied;
    }
    /* blocking: done when the copy is (not when the destination queue has seen it) */
    err = clmem__device_wait(o) ? clWaitForEvents(1, &copied) : CL_SUCCESS;
    clReleaseEvent(copied);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clWaitForEvents");
}
