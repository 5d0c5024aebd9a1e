/* >>device_link (implementation) */
#include "device_link.h"
#include "memobj.h"
#include "pinned.h"

struct clmem_device_link {
    clmem__mutex lock;                  /* one copy at a time; guards everything below */
    cl_command_queue src_queue, dst_queue; /* retained */
    cl_context context;
    size_t slot_size, threshold;
    unsigned slots;
    unsigned next;                      /* the slot the next piece takes: the least recently used */
    clmem_pinned_allocation slot[CLMEM_DEVICE_LINK_MAX_SLOTS];
    cl_event last_write[CLMEM_DEVICE_LINK_MAX_SLOTS]; /* the write that last read the slot, or NULL */
    clmem_device_link_stats stats;
};

static const char clmem__link_copy_fn[] = "clmem_device_link_copy";

/* Staging pays between two different devices that are neither CPUs nor share the
   host's memory; the answer of a failed query is the query's code. */
static cl_int clmem__link_default_threshold(const char *fn, cl_device_id a, cl_device_id b, size_t *out) {
    cl_device_id d[2];
    int i;
    d[0] = a;
    d[1] = b;
    *out = CLMEM_DEVICE_LINK_NEVER;
    if (a == b) return CL_SUCCESS;
    for (i = 0; i < 2; ++i) {
        bool pays = false;
        cl_int err = clmem__staging_pays(fn, d[i], &pays);
        if (err != CL_SUCCESS || !pays) return err;
    }
    *out = CLMEM_DEVICE_LINK_DEFAULT_THRESHOLD;
    return CL_SUCCESS;
}

/* Wait for and drop the slots' last writes; the first error of the waits. */
static cl_int clmem__link_drain(clmem_device_link *l) {
    cl_int first = CL_SUCCESS;
    unsigned i;
    for (i = 0; i < l->slots; ++i) {
        if (!l->last_write[i]) continue;
        cl_int err = clWaitForEvents(1, &l->last_write[i]);
        if (err != CL_SUCCESS && first == CL_SUCCESS) first = err;
        clReleaseEvent(l->last_write[i]);
        l->last_write[i] = NULL;
    }
    return first;
}

/* Free the link; the first failure of the slots' releases (their messages stand). */
static cl_int clmem__link_free(clmem_device_link *l) {
    cl_int first = CL_SUCCESS;
    unsigned i;
    for (i = 0; i < l->slots; ++i) {
        cl_int err = clmem_pinned_allocation_release(&l->slot[i]);
        if (err != CL_SUCCESS && first == CL_SUCCESS) first = err;
    }
    if (l->src_queue) clReleaseCommandQueue(l->src_queue);
    if (l->dst_queue) clReleaseCommandQueue(l->dst_queue);
    clmem__mutex_destroy(&l->lock);
    CLMEM_FREE(l);
    return first;
}

/* The facts create needs of its queues: one context, their devices, the size limit. */
static cl_int clmem__link_queues(const char *fn, cl_command_queue src_queue, cl_command_queue dst_queue, cl_context *ctx,
                                 cl_device_id dev[2]) {
    cl_context other = NULL;
    cl_int err;
    if ((err = clmem__check_queue(fn, src_queue)) != CL_SUCCESS || (err = clmem__check_queue(fn, dst_queue)) != CL_SUCCESS ||
        (err = clmem__queue_context_of(fn, src_queue, ctx)) != CL_SUCCESS ||
        (err = clmem__queue_context_of(fn, dst_queue, &other)) != CL_SUCCESS ||
        (err = clmem__queue_device_of(fn, src_queue, &dev[0])) != CL_SUCCESS ||
        (err = clmem__queue_device_of(fn, dst_queue, &dev[1])) != CL_SUCCESS)
        return err;
    if (*ctx != other)
        return clmem__fail(CL_INVALID_CONTEXT, fn, "src_queue (context %p) and dst_queue (context %p) differ in context",
                           (void *)*ctx, (void *)other);
    return CL_SUCCESS;
}

CLMEM_API clmem_device_link *clmem_device_link_create(cl_command_queue src_queue, cl_command_queue dst_queue,
                                                      size_t slot_size, unsigned slots, cl_int *errcode_ret) {
    static const char fn[] = "clmem_device_link_create";
    clmem_device_link *l;
    cl_context ctx = NULL;
    cl_device_id dev[2] = {NULL, NULL};
    size_t threshold = CLMEM_DEVICE_LINK_NEVER;
    unsigned i;
    cl_int err;
    if ((err = clmem__link_queues(fn, src_queue, dst_queue, &ctx, dev)) != CL_SUCCESS ||
        (err = clmem__link_default_threshold(fn, dev[0], dev[1], &threshold)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_device_link *, clmem__null_with(errcode_ret, err));
    if (slots == 1 || slots > CLMEM_DEVICE_LINK_MAX_SLOTS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "slots %u: a link takes 0 (the default, %u) or 2..%u",
                                                slots, CLMEM_DEVICE_LINK_DEFAULT_SLOTS, CLMEM_DEVICE_LINK_MAX_SLOTS));
        return NULL;
    }
    l = CLMEM__CAST(clmem_device_link *, clmem__alloc_for(sizeof *l, fn, "the link", errcode_ret));
    if (!l) return NULL;
    memset(l, 0, sizeof *l);
    clmem__mutex_init(&l->lock);
    l->slot_size = slot_size ? slot_size : CLMEM_DEVICE_LINK_DEFAULT_SLOT_SIZE;
    l->slots = slots ? slots : CLMEM_DEVICE_LINK_DEFAULT_SLOTS;
    l->context = ctx;
    l->threshold = threshold;
    clRetainCommandQueue(src_queue);
    l->src_queue = src_queue;
    clRetainCommandQueue(dst_queue);
    l->dst_queue = dst_queue;
    for (i = 0; i < l->slots; ++i) {
        l->slot[i] = clmem_pinned_allocation_create(src_queue, l->slot_size, 0, &err);
        if (err != CL_SUCCESS) { /* the pinned allocation's message stands, under its own name */
            clmem__link_free(l);
            clmem__set_err(errcode_ret, err);
            return NULL;
        }
    }
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return l;
}

CLMEM_API cl_int clmem_device_link_set_threshold(clmem_device_link *l, size_t min_bytes) {
    if (!l) return clmem__fail(CL_INVALID_VALUE, "clmem_device_link_set_threshold", "l is NULL");
    clmem__locked_set_size(&l->lock, &l->threshold, min_bytes);
    return CL_SUCCESS;
}

CLMEM_API size_t clmem_device_link_threshold(clmem_device_link *l) {
    return l ? clmem__locked_size(&l->lock, &l->threshold) : CLMEM_DEVICE_LINK_NEVER;
}

CLMEM_API cl_int clmem_device_link_get_stats(clmem_device_link *l, clmem_device_link_stats *stats) {
    static const char fn[] = "clmem_device_link_get_stats";
    if (!l || !stats) return clmem__fail(CL_INVALID_VALUE, fn, "%s is NULL", !l ? "l" : "stats");
    clmem__lock(&l->lock);
    *stats = l->stats;
    clmem__unlock(&l->lock);
    return CL_SUCCESS;
}

/* One piece: read src bytes [from, from + n) on the source queue into slot s once the
   slot's last write is done (and, for every piece, once the caller's wait list is: the
   queues may be out of order), then write them to dst at `to` on the destination
   queue after that read. The write becomes the slot's last write. */
static cl_int clmem__link_piece(clmem_device_link *l, unsigned s, cl_mem dst, size_t to, cl_mem src, size_t from, size_t n,
                                const clmem_copy_options *o, cl_event *waits) {
    cl_uint nw = o->num_wait_for;
    cl_event read = NULL, write = NULL;
    cl_int err;
    if (nw) memcpy(waits, o->wait_for, nw * sizeof *waits);
    if (l->last_write[s]) waits[nw++] = l->last_write[s];
    err = clEnqueueReadBuffer(l->src_queue, src, CL_FALSE, from, n, l->slot[s].ptr, nw, nw ? waits : NULL, &read);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, clmem__link_copy_fn, "clEnqueueReadBuffer");
    err = clEnqueueWriteBuffer(l->dst_queue, dst, CL_FALSE, to, n, l->slot[s].ptr, 1, &read, &write);
    if (err != CL_SUCCESS) {
        clWaitForEvents(1, &read); /* the read must be done with the slot before anyone reuses it */
        clReleaseEvent(read);
        return clmem__cl_fail(err, clmem__link_copy_fn, "clEnqueueWriteBuffer");
    }
    clReleaseEvent(read);
    if (l->last_write[s]) clReleaseEvent(l->last_write[s]);
    l->last_write[s] = write;
    /* the write waits for a read of another queue: that queue must be flushed */
    if ((err = clFlush(l->src_queue)) != CL_SUCCESS || (err = clFlush(l->dst_queue)) != CL_SUCCESS)
        return clmem__cl_fail(err, clmem__link_copy_fn, "clFlush");
    return CL_SUCCESS;
}

/* The piece size of a staged copy of `count` bytes on an idle link: the power of two
   nearest below sqrt(count * CLMEM__LINK_PIECE_COST), at least 64 KiB, at most the
   slot size. Such a copy costs about one piece more than its bytes (its first read
   and last write overlap nothing) plus a fixed cost per piece (a command, an event
   between the devices): about 256 KiB's worth on H100/H200, the cost this rule
   balances (docs/benchmarks.md). On a busy link (a copy before it still writing) the
   first read overlaps those writes, so the slot size is best. */
#define CLMEM__LINK_PIECE_COST ((double)(256 << 10))
static size_t clmem__link_piece_size(const clmem_device_link *l, size_t count) {
    size_t piece = l->slot_size < ((size_t)64 << 10) ? l->slot_size : (size_t)64 << 10;
    unsigned i;
    for (i = 0; i < l->slots; ++i) {
        cl_int status = CL_COMPLETE;
        if (l->last_write[i] && clGetEventInfo(l->last_write[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                               &status, NULL) == CL_SUCCESS && status > CL_COMPLETE)
            return l->slot_size;
    }
    while (piece <= l->slot_size / 2 &&
           4.0 * (double)piece * (double)piece <= (double)count * CLMEM__LINK_PIECE_COST)
        piece *= 2;
    return piece;
}

/* The staged copy of count bytes (the lock held): pieces through the slots, then the
   event or the wait the caller asked for. */
static cl_int clmem__link_staged(clmem_device_link *l, clmem_buffer dst, clmem_buffer src, size_t count,
                                 const clmem_copy_options *o) {
    cl_event small[8], *waits = small;
    cl_event last[CLMEM_DEVICE_LINK_MAX_SLOTS];
    size_t done = 0, pieces = 0, each = clmem__link_piece_size(l, count);
    cl_uint n = 0;
    unsigned s = l->next, i;
    cl_int err = CL_SUCCESS;
    if (o->num_wait_for + 1 > sizeof small / sizeof small[0]) {
        waits = CLMEM__CAST(cl_event *, CLMEM_MALLOC((o->num_wait_for + 1) * sizeof *waits));
        if (!waits) return clmem__fail(CL_OUT_OF_HOST_MEMORY, clmem__link_copy_fn, "out of host memory for the wait list");
    }
    while (done < count && err == CL_SUCCESS) {
        size_t piece = count - done < each ? count - done : each;
        err = clmem__link_piece(l, s, dst.root, dst.origin + o->dst_offset + done, src.root,
                                src.origin + o->src_offset + done, piece, o, waits);
        done += piece;
        ++pieces;
        s = (s + 1) % l->slots;
    }
    l->next = s;
    if (waits != small) CLMEM_FREE(waits);
    if (err != CL_SUCCESS) {
        clmem__link_drain(l); /* nothing the failed copy enqueued outlives the call */
        return err;
    }
    for (i = 0; i < l->slots; ++i)
        if (l->last_write[i]) last[n++] = l->last_write[i];
    l->stats.staged_copies++;
    l->stats.staged_bytes += count;
    l->stats.pieces += pieces;
    if (o->event) {
        err = clEnqueueMarkerWithWaitList(l->dst_queue, n, last, o->event);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, clmem__link_copy_fn, "clEnqueueMarkerWithWaitList");
        if ((err = clFlush(l->dst_queue)) != CL_SUCCESS) return clmem__cl_fail(err, clmem__link_copy_fn, "clFlush");
    }
    if (clmem__device_wait(o) && (err = clWaitForEvents(n, last)) != CL_SUCCESS)
        return clmem__cl_fail(err, clmem__link_copy_fn, "clWaitForEvents");
    return CL_SUCCESS;
}

/* The driver's path: clEnqueueCopyBuffer on the destination queue after the wait list;
   without one, after the source queue's work so far (a marker there, when the queues
   differ). */
static cl_int clmem__link_direct(clmem_device_link *l, clmem_buffer dst, clmem_buffer src, size_t count,
                                 const clmem_copy_options *o) {
    const char *fn = clmem__link_copy_fn;
    cl_event small[8], *waits = small, mark = NULL, own = NULL;
    cl_uint nw = o->num_wait_for;
    cl_int err;
    if (l->src_queue != l->dst_queue && nw == 0) {
        if (nw + 1 > sizeof small / sizeof small[0]) {
            waits = CLMEM__CAST(cl_event *, CLMEM_MALLOC((nw + 1) * sizeof *waits));
            if (!waits) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the wait list");
        }
        err = clEnqueueMarkerWithWaitList(l->src_queue, 0, NULL, &mark);
        if (err != CL_SUCCESS || (err = clFlush(l->src_queue)) != CL_SUCCESS) {
            if (mark) clReleaseEvent(mark);
            if (waits != small) CLMEM_FREE(waits);
            return clmem__cl_fail(err, fn, mark ? "clFlush" : "clEnqueueMarkerWithWaitList");
        }
        if (nw) memcpy(waits, o->wait_for, nw * sizeof *waits);
        waits[nw++] = mark;
    } else {
        waits = CLMEM__CAST(cl_event *, clmem__unconst(o->wait_for));
    }
    err = clEnqueueCopyBuffer(l->dst_queue, src.root, dst.root, src.origin + o->src_offset, dst.origin + o->dst_offset,
                              count, nw, nw ? waits : NULL, o->event ? o->event : &own);
    if (mark) clReleaseEvent(mark);
    if (waits != small && mark) CLMEM_FREE(waits);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueCopyBuffer");
    if (clmem__device_wait(o)) err = clWaitForEvents(1, o->event ? o->event : &own);
    if (own) clReleaseEvent(own);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clWaitForEvents");
}

static cl_int clmem__link_check(clmem_device_link *l, clmem_buffer dst, clmem_buffer src, const clmem_copy_options *o) {
    const char *fn = clmem__link_copy_fn;
    cl_int err;
    if (!l) return clmem__fail(CL_INVALID_VALUE, fn, "l is NULL");
    if ((err = clmem__check_made(fn, o->given)) != CL_SUCCESS ||
        (err = clmem__check_wait_list(fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS ||
        (err = clmem__buffer_invalid(fn, "dst", dst)) != CL_SUCCESS ||
        (err = clmem__buffer_invalid(fn, "src", src)) != CL_SUCCESS)
        return err;
    if (src.context != l->context || dst.context != l->context)
        return clmem__fail(CL_INVALID_CONTEXT, fn, "%s (context %p) is not of the link's context %p",
                           src.context != l->context ? "src" : "dst",
                           (void *)(src.context != l->context ? src.context : dst.context), (void *)l->context);
    if (o->given & CLMEM_GIVEN_REGION)
        return clmem__fail(CL_INVALID_VALUE, fn, "a region was given: a device link copies linear ranges only "
                                                 "(.byte_count, .src_offset, .dst_offset)");
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_device_link_copy_opts(clmem_device_link *l, clmem_buffer dst, clmem_buffer src,
                                             const clmem_copy_options *opts) {
    const clmem_copy_options *o = clmem__copy_opts_or_none(opts);
    size_t count = 0;
    bool peer = false, staged;
    cl_int err;
    if (CLMEM__CHECKS && (err = clmem__link_check(l, dst, src, o)) != CL_SUCCESS) return err;
    if ((err = clmem__buffer_pair_count(clmem__link_copy_fn, dst, src, o, &count)) != CL_SUCCESS) return err;
    if (count == 0)
        return clmem__nothing_to_do(clmem__link_copy_fn, l->dst_queue, o->wait_for, o->num_wait_for, o->event);
    if (clmem__device_wait(o) && (err = clmem__wait_list_ok(clmem__link_copy_fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS)
        return err;
    clmem__lock(&l->lock);
    staged = count >= l->threshold;
    clmem__unlock(&l->lock);
    /* peer memory (>>peer): the views for the devices that touch it; on both sides, GPU to GPU */
    if ((err = clmem__peer_link_copy(l->src_queue, l->dst_queue, &dst, &src, count, o, staged, &peer)) != CL_SUCCESS ||
        peer) {
        clmem__lock(&l->lock);
        l->stats.peer_copies += peer;
        l->stats.peer_bytes += peer ? count : 0;
        clmem__unlock(&l->lock);
        return err;
    }
    clmem__lock(&l->lock);
    if (!staged) {
        l->stats.direct_copies++;
        clmem__unlock(&l->lock);
        return clmem__link_direct(l, dst, src, count, o);
    }
    err = clmem__link_staged(l, dst, src, count, o);
    clmem__unlock(&l->lock);
    return err;
}

CLMEM_API cl_int clmem_device_link_release(clmem_device_link *l) {
    cl_int err;
    if (!l) return CL_SUCCESS;
    clmem__lock(&l->lock);
    err = clmem__link_drain(l);
    clmem__unlock(&l->lock);
    if (err != CL_SUCCESS) {
        clmem__link_free(l);
        return clmem__cl_fail(err, "clmem_device_link_release", "clWaitForEvents");
    }
    return clmem__link_free(l);
}
