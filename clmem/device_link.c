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
    clmem_device_link_staging staging;  /* how pieces move (clmem_device_link_set_staging) */
    cl_mem slot_mem[CLMEM_DEVICE_LINK_MAX_SLOTS]; /* pinned slots (made as pinned allocations are) */
    void *slot_ptr[CLMEM_DEVICE_LINK_MAX_SLOTS];  /* mapped by transfers; NULL by copies (unmapped) */
    cl_mem scratch[2]; /* by transfers, for a buffer the host may not access: a plain buffer of
                          slot_size per side ([0] source, [1] destination), made at first need */
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

/* Free the link; the first failure of the slots' unmaps. */
static cl_int clmem__link_free(clmem_device_link *l) {
    cl_int first = CL_SUCCESS;
    unsigned i;
    for (i = 0; i < l->slots; ++i) {
        cl_int err = CL_SUCCESS;
        if (!l->slot_mem[i]) continue;
        if (l->slot_ptr[i]) err = clmem__pinned_unmake(l->src_queue, l->slot_mem[i], l->slot_ptr[i]);
        else clReleaseMemObject(l->slot_mem[i]); /* unmapped (by copies) */
        if (err != CL_SUCCESS && first == CL_SUCCESS) first = err;
    }
    for (i = 0; i < 2; ++i)
        if (l->scratch[i]) clReleaseMemObject(l->scratch[i]);
    if (l->src_queue) clReleaseCommandQueue(l->src_queue);
    if (l->dst_queue) clReleaseCommandQueue(l->dst_queue);
    clmem__mutex_destroy(&l->lock);
    CLMEM_FREE(l);
    return first;
}

/* The facts create needs of its queues: one context, in order, their devices, the
   source device's size limit. */
static cl_int clmem__link_queues(const char *fn, cl_command_queue src_queue, cl_command_queue dst_queue, cl_context *ctx,
                                 cl_device_id dev[2], cl_ulong *max_alloc) {
    static const char why[] = "a device link's copies are commands of its queues in their order";
    cl_context other = NULL;
    cl_int err;
    if ((err = clmem__check_queue(fn, src_queue)) != CL_SUCCESS || (err = clmem__check_queue(fn, dst_queue)) != CL_SUCCESS ||
        (err = clmem__pinned_queue_facts(fn, src_queue, ctx, &dev[0], max_alloc)) != CL_SUCCESS ||
        (err = clmem__queue_context_of(fn, dst_queue, &other)) != CL_SUCCESS ||
        (err = clmem__queue_device_of(fn, dst_queue, &dev[1])) != CL_SUCCESS ||
        (err = clmem__check_in_order(fn, src_queue, why)) != CL_SUCCESS ||
        (err = clmem__check_in_order(fn, dst_queue, why)) != CL_SUCCESS)
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
    cl_ulong max_alloc = 0;
    unsigned i;
    cl_int err;
    if ((err = clmem__link_queues(fn, src_queue, dst_queue, &ctx, dev, &max_alloc)) != CL_SUCCESS ||
        (err = clmem__link_default_threshold(fn, dev[0], dev[1], &threshold)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_device_link *, clmem__null_with(errcode_ret, err));
    if (slots == 1 || slots > CLMEM_DEVICE_LINK_MAX_SLOTS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "slots %u: a link takes 0 (the default, %u) or 2..%u",
                                                slots, CLMEM_DEVICE_LINK_DEFAULT_SLOTS, CLMEM_DEVICE_LINK_MAX_SLOTS));
        return NULL;
    }
    if (CLMEM__CHECKS && (err = clmem__check_max_alloc(fn, dev[0], "slot_size",
                                                       slot_size ? slot_size : CLMEM_DEVICE_LINK_DEFAULT_SLOT_SIZE,
                                                       max_alloc)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_device_link *, clmem__null_with(errcode_ret, err));
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
        const char *call = "";
        err = clmem__pinned_make(src_queue, ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, l->slot_size, &l->slot_mem[i],
                                 &l->slot_ptr[i], &call);
        if (err != CL_SUCCESS) {
            clmem__link_free(l);
            clmem__set_err(errcode_ret, clmem__fail(err, fn, "%s of pinned slot %u (%zu bytes) failed with %s (%d)", call,
                                                    i, slot_size ? slot_size : CLMEM_DEVICE_LINK_DEFAULT_SLOT_SIZE,
                                                    clmem_error_string(err), (int)err));
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

/* Map (by transfers) or unmap (by copies) every slot on the source queue, waited for;
   the first failure, named, with the slots as they were left (a slot is mapped exactly
   when its slot_ptr is not NULL). */
static cl_int clmem__link_slots_mapped(clmem_device_link *l, bool mapped, const char *fn) {
    unsigned i;
    for (i = 0; i < l->slots; ++i) {
        cl_int err = CL_SUCCESS;
        if (mapped && !l->slot_ptr[i]) {
            void *p = clEnqueueMapBuffer(l->src_queue, l->slot_mem[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                         l->slot_size, 0, NULL, NULL, &err);
            if (err == CL_SUCCESS && !p) err = CL_MAP_FAILURE;
            if (err != CL_SUCCESS) return clmem__fail(err, fn, "clEnqueueMapBuffer of slot %u failed with %s (%d)", i,
                                                      clmem_error_string(err), (int)err);
            l->slot_ptr[i] = p;
        } else if (!mapped && l->slot_ptr[i]) {
            cl_event ev = NULL;
            err = clEnqueueUnmapMemObject(l->src_queue, l->slot_mem[i], l->slot_ptr[i], 0, NULL, &ev);
            if (err == CL_SUCCESS) {
                err = clWaitForEvents(1, &ev);
                l->slot_ptr[i] = NULL; /* unmapped once enqueued */
            }
            if (ev) clReleaseEvent(ev);
            if (err != CL_SUCCESS) return clmem__fail(err, fn, "%s of slot %u failed with %s (%d)", ev ?
                                                      "clWaitForEvents on the unmap" : "clEnqueueUnmapMemObject", i,
                                                      clmem_error_string(err), (int)err);
        }
    }
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_device_link_set_staging(clmem_device_link *l, clmem_device_link_staging how) {
    static const char fn[] = "clmem_device_link_set_staging";
    cl_int err;
    if (!l) return clmem__fail(CL_INVALID_VALUE, fn, "l is NULL");
    if (how != CLMEM_DEVICE_LINK_BY_TRANSFERS && how != CLMEM_DEVICE_LINK_BY_COPIES)
        return clmem__fail(CL_INVALID_VALUE, fn, "how %d: neither CLMEM_DEVICE_LINK_BY_TRANSFERS (%d) nor "
                           "CLMEM_DEVICE_LINK_BY_COPIES (%d)", (int)how, (int)CLMEM_DEVICE_LINK_BY_TRANSFERS,
                           (int)CLMEM_DEVICE_LINK_BY_COPIES);
    clmem__lock(&l->lock);
    err = clmem__link_drain(l); /* no piece may use a slot while it is mapped or unmapped */
    if (err != CL_SUCCESS) err = clmem__cl_fail(err, fn, "clWaitForEvents");
    else err = clmem__link_slots_mapped(l, how == CLMEM_DEVICE_LINK_BY_TRANSFERS, fn);
    if (err == CL_SUCCESS) l->staging = how;
    else if (how == CLMEM_DEVICE_LINK_BY_TRANSFERS)
        clmem__link_slots_mapped(l, false, fn); /* a slot left unmapped: stay by copies, every slot unmapped */
    else if (clmem__link_slots_mapped(l, true, fn) != CL_SUCCESS) {
        clmem__link_slots_mapped(l, false, fn);
        l->staging = CLMEM_DEVICE_LINK_BY_COPIES;
    }
    clmem__unlock(&l->lock);
    return err;
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

/* One piece through slot s: src bytes [from, from + n) into the slot on the source
   queue once the slot's last piece and the caller's wait list are done, then out of
   the slot into dst at `to` on the destination queue after that. By transfers:
   clEnqueueReadBuffer into the slot's mapped memory and clEnqueueWriteBuffer out of
   it; a side whose buffer the host may not read (src) or write (dst) goes through
   that side's scratch buffer (clEnqueueCopyBuffer on the side's in-order queue, so one
   scratch buffer serves every piece). By copies: clEnqueueCopyBuffer into and out of
   the slot's (unmapped) buffer. The destination side's last command becomes the
   slot's last piece (l->last_write[s]). */
static cl_int clmem__link_piece(clmem_device_link *l, unsigned s, cl_mem dst, size_t to, cl_mem src, size_t from, size_t n,
                                const clmem_copy_options *o, cl_event *waits, const bool via[2]) {
    const bool copies = l->staging == CLMEM_DEVICE_LINK_BY_COPIES;
    cl_uint nw = o->num_wait_for;
    cl_event read = NULL, mid = NULL, write = NULL;
    const char *call = "clEnqueueCopyBuffer";
    cl_int err;
    if (nw) memcpy(waits, o->wait_for, nw * sizeof *waits);
    if (l->last_write[s]) waits[nw++] = l->last_write[s];
    if (copies) {
        err = clEnqueueCopyBuffer(l->src_queue, src, l->slot_mem[s], from, 0, n, nw, nw ? waits : NULL, &read);
    } else {
        err = CL_SUCCESS;
        if (via[0]) {
            err = clEnqueueCopyBuffer(l->src_queue, src, l->scratch[0], from, 0, n, nw, nw ? waits : NULL, NULL);
            src = l->scratch[0];
            from = 0;
            nw = 0; /* the in-order queue: the read comes after that copy */
        }
        if (err == CL_SUCCESS) {
            call = "clEnqueueReadBuffer";
            err = clEnqueueReadBuffer(l->src_queue, src, CL_FALSE, from, n, l->slot_ptr[s], nw, nw ? waits : NULL, &read);
        }
    }
    if (err != CL_SUCCESS) return clmem__cl_fail(err, clmem__link_copy_fn, call);
    if (copies) {
        err = clEnqueueCopyBuffer(l->dst_queue, l->slot_mem[s], dst, 0, to, n, 1, &read, &write);
    } else if (via[1]) {
        call = "clEnqueueWriteBuffer";
        err = clEnqueueWriteBuffer(l->dst_queue, l->scratch[1], CL_FALSE, 0, n, l->slot_ptr[s], 1, &read, &mid);
        if (err == CL_SUCCESS) {
            call = "clEnqueueCopyBuffer";
            err = clEnqueueCopyBuffer(l->dst_queue, l->scratch[1], dst, 0, to, n, 0, NULL, &write);
        }
    } else {
        call = "clEnqueueWriteBuffer";
        err = clEnqueueWriteBuffer(l->dst_queue, dst, CL_FALSE, to, n, l->slot_ptr[s], 1, &read, &write);
    }
    if (err != CL_SUCCESS) {
        /* the read must be done with the slot (and the write out of it) before anyone reuses it */
        clWaitForEvents(1, &read);
        if (mid) clWaitForEvents(1, &mid);
    }
    clReleaseEvent(read);
    if (mid) clReleaseEvent(mid);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, clmem__link_copy_fn, call);
    if (l->last_write[s]) clReleaseEvent(l->last_write[s]);
    l->last_write[s] = write;
    /* the destination side waits for a command of another queue: that queue must be flushed */
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
    bool via[2];
    cl_int err = CL_SUCCESS;
    /* by transfers, a buffer the host may not read (src) or write (dst) goes through
       a scratch buffer of its side */
    via[0] = l->staging == CLMEM_DEVICE_LINK_BY_TRANSFERS && clmem__host_forbidden(src.flags, false);
    via[1] = l->staging == CLMEM_DEVICE_LINK_BY_TRANSFERS && clmem__host_forbidden(dst.flags, true);
    for (i = 0; i < 2; ++i) {
        if (!via[i] || l->scratch[i]) continue;
        l->scratch[i] = clCreateBuffer(l->context, CL_MEM_READ_WRITE, l->slot_size, NULL, &err);
        if (err == CL_SUCCESS && !l->scratch[i]) err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        if (err != CL_SUCCESS) {
            l->scratch[i] = NULL;
            return clmem__fail(err, clmem__link_copy_fn, "clCreateBuffer of the link's %s scratch buffer (%zu bytes, "
                               "for %s, which the host may not %s) failed with %s (%d)", i ? "destination" : "source",
                               l->slot_size, i ? "dst" : "src", i ? "write" : "read", clmem_error_string(err), (int)err);
        }
    }
    if (o->num_wait_for + 1 > sizeof small / sizeof small[0]) {
        waits = CLMEM__CAST(cl_event *, CLMEM_MALLOC((o->num_wait_for + 1) * sizeof *waits));
        if (!waits) return clmem__fail(CL_OUT_OF_HOST_MEMORY, clmem__link_copy_fn, "out of host memory for the wait list");
    }
    while (done < count && err == CL_SUCCESS) {
        size_t piece = count - done < each ? count - done : each;
        err = clmem__link_piece(l, s, dst.root, dst.origin + o->dst_offset + done, src.root,
                                src.origin + o->src_offset + done, piece, o, waits, via);
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
    if (l->staging == CLMEM_DEVICE_LINK_BY_COPIES || via[0] || via[1]) l->stats.copied_pieces += pieces;
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
    /* the wait list: an event that has already failed is refused, blocking or not (PoCL
       would leave the pieces queued for ever, and the link's release waiting for them) */
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
    clmem_copy_options local;
    const clmem_copy_options *o = clmem__copy_opts_or_none(opts, &local);
    size_t count = 0;
    bool peer = false, staged;
    cl_int err;
    if (CLMEM__CHECKS && (err = clmem__link_check(l, dst, src, o)) != CL_SUCCESS) return err;
    if ((err = clmem__buffer_pair_count(clmem__link_copy_fn, dst, src, o, &count)) != CL_SUCCESS) return err;
    if (count == 0)
        return clmem__nothing_to_do(clmem__link_copy_fn, l->dst_queue, o->wait_for, o->num_wait_for, o->event);
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
    if ((err = clmem__link_free(l)) != CL_SUCCESS)
        return clmem__cl_fail(err, "clmem_device_link_release", "clEnqueueUnmapMemObject");
    return CL_SUCCESS;
}
