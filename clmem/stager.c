/* >>stager (implementation) */
#include "stager.h"
#include "memobj.h"
#include "transfer.h"
#include "pinned.h"

/* The stager's threads are base's (clmem__thread, clmem__cond: Win32, <threads.h> or
   pthreads). Idle copying threads spin a while (with a pause instruction where the
   compiler has one) before they sleep: waking a sleeping thread can cost as much as
   copying a piece at GPU speeds. While a staged copy runs they spin a hundred times
   longer (CLMEM__STAGER_HOT_SPIN), from one piece to the next (stager.h: "Threads"),
   when they are at most half the processors online: more would take the cores that
   the driver's and the program's own threads need (32 spinning threads on 16 cores
   copied at 4 GB/s). */
#if CLMEM__GNU
#define CLMEM__STAGER_SPIN 2000
/* while a staged copy runs: 0.5 to 11 ms by the cost of a pause on x86 processors
   (10 to 140 cycles), where a piece's DMA takes 0.3 ms (16 MiB at 55 GB/s); bounded, so
   that a copy queued behind a long kernel does not keep its threads spinning for the
   kernel's time */
#define CLMEM__STAGER_HOT_SPIN 200000u
#if defined(__x86_64__) || defined(__i386__)
#define CLMEM__CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define CLMEM__CPU_RELAX() __asm__ __volatile__("yield")
#else
#define CLMEM__CPU_RELAX() ((void)0)
#endif
#else
#define CLMEM__STAGER_SPIN 0
#endif

/* A staged copy is a command of the caller's queue in its order: at the call, a marker
   on that queue (after its earlier work) that the pieces wait for, and, for a
   non-blocking copy, a barrier there that holds later work back until the stager sets
   a user event (the gate) once every piece is done. The pieces run on a queue of the
   stager's own on the same device, so they are never enqueued behind work that waits
   for them. Non-blocking copies run in call order on one thread of the stager's (the
   runner); tickets give staged copies, blocking ones included, the slots in call
   order. */
struct clmem__stager_job;

struct clmem_stager {
    clmem__mutex books; /* guards st, running, threshold, the tickets and the runner's list (never held across a
                           driver call) */
    clmem__mutex order; /* held while a staged copy takes its ticket and its place on the caller's queue */
    unsigned running;   /* copies in progress, a non-blocking staged one until its event completes */
    unsigned long long tnext, tserving; /* staged copies run in call order: the next ticket, the one running */
    cl_command_queue queue; /* the caller's (retained): every copy is a command of it */
    cl_command_queue own;   /* the stager's own queue on the same device (the pieces run there) */
    cl_context context;
    size_t slot_size, threshold;
    unsigned nslots, nthreads;
    cl_mem slot_mem[CLMEM_STAGER_MAX_SLOTS];
    void *slot_ptr[CLMEM_STAGER_MAX_SLOTS];
    clmem_stager_stats st;
    clmem__thread *workers; /* each stays where it is until joined */
    unsigned nworkers;
    clmem__mutex jlock;
    clmem__cond jstart, jdone;
    clmem__cond turn; /* with books: tserving moved on */
    bool quit;
    unsigned char *jdst;
    const unsigned char *jsrc;
    size_t jn, jpart;
    unsigned jnext, jparts;
    unsigned jleft;   /* parts not finished (atomic: spinning reads it) */
    unsigned jposted; /* jobs posted, and the stop (atomic: spinning reads it) */
    unsigned hot;     /* a staged copy is running: idle threads spin until the next piece (atomic) */
    bool spin_through; /* the threads spin through a copy (at most half the processors) */
    /* the runner: started at the first non-blocking staged copy, it runs those copies
       one after the other from a list (books) */
    clmem__thread runner;
    bool has_runner, rquit;
    clmem__cond rwake; /* with books: a job was listed, or the stop */
    struct clmem__stager_job *rhead, *rtail;
};

/* Parts of a parallel memcpy are at least this big: below it, waking threads costs
   more than it saves. */
#define CLMEM__STAGER_MIN_PART ((size_t)256 << 10)

/* under jlock: copy parts until none is left; jlock is held again on return */
static void clmem__stager_copy_parts(clmem_stager *st) {
    while (st->jnext < st->jparts) {
        unsigned k = st->jnext++;
        size_t lo = (size_t)k * st->jpart, len = st->jn - lo < st->jpart ? st->jn - lo : st->jpart;
        unsigned char *d = st->jdst + lo;
        const unsigned char *s = st->jsrc + lo;
        clmem__unlock(&st->jlock);
        memcpy(d, s, len);
        clmem__lock(&st->jlock);
        if (clmem__atomic_add_uint(&st->jleft, (unsigned)-1) == 0) clmem__cond_signal(&st->jdone);
    }
}

static void clmem__stager_worker(void *arg) {
    clmem_stager *st = CLMEM__CAST(clmem_stager *, arg);
    clmem__lock(&st->jlock);
    for (;;) {
#if CLMEM__STAGER_SPIN
        if (!st->quit && st->jnext >= st->jparts) {
            unsigned seen = st->jposted, spins;
            clmem__unlock(&st->jlock);
            for (spins = 0; (spins < CLMEM__STAGER_SPIN ||
                             (spins < CLMEM__STAGER_HOT_SPIN && clmem__atomic_load_uint(&st->hot))) &&
                            clmem__atomic_load_uint(&st->jposted) == seen;
                 ++spins)
                CLMEM__CPU_RELAX();
            clmem__lock(&st->jlock);
        }
#endif
        while (!st->quit && st->jnext >= st->jparts) clmem__cond_wait(&st->jstart, &st->jlock);
        if (st->quit) break;
        clmem__stager_copy_parts(st);
    }
    clmem__unlock(&st->jlock);
}

/* memcpy spread over the stager's threads, the calling thread included */
static void clmem__stager_memcpy(clmem_stager *st, void *dst, const void *src, size_t n) {
    size_t parts, part;
    if (st->nworkers == 0 || n < 2 * CLMEM__STAGER_MIN_PART) {
        memcpy(dst, src, n);
        return;
    }
    parts = n / CLMEM__STAGER_MIN_PART;
    if (parts > (size_t)st->nworkers + 1) parts = (size_t)st->nworkers + 1;
    part = (n + parts - 1) / parts;
    part = (part + 4095) & ~(size_t)4095; /* whole pages per thread */
    parts = (n + part - 1) / part;
    clmem__lock(&st->jlock);
    st->jdst = CLMEM__CAST(unsigned char *, dst);
    st->jsrc = CLMEM__CAST(const unsigned char *, src);
    st->jn = n;
    st->jpart = part;
    st->jnext = 0;
    st->jparts = (unsigned)parts;
    clmem__atomic_store_uint(&st->jleft, (unsigned)parts);
    clmem__atomic_add_uint(&st->jposted, 1u);
    clmem__cond_broadcast(&st->jstart);
    clmem__stager_copy_parts(st);
#if CLMEM__STAGER_SPIN
    if (clmem__atomic_load_uint(&st->jleft)) {
        unsigned spins;
        clmem__unlock(&st->jlock);
        for (spins = 0; spins < CLMEM__STAGER_SPIN && clmem__atomic_load_uint(&st->jleft); ++spins)
            CLMEM__CPU_RELAX();
        clmem__lock(&st->jlock);
    }
#endif
    while (clmem__atomic_load_uint(&st->jleft)) clmem__cond_wait(&st->jdone, &st->jlock);
    st->jparts = 0;
    st->jnext = 0;
    clmem__unlock(&st->jlock);
}

static void clmem__stager_stop(clmem_stager *st) {
    unsigned i;
    clmem__lock(&st->books); /* the runner: its list is empty (nothing runs when a stager is freed) */
    st->rquit = true;
    clmem__cond_broadcast(&st->rwake);
    clmem__unlock(&st->books);
    if (st->has_runner) clmem__thread_join(&st->runner);
    st->has_runner = false;
    if (!st->workers) return;
    clmem__lock(&st->jlock);
    st->quit = true;
    clmem__atomic_add_uint(&st->jposted, 1u);
    clmem__cond_broadcast(&st->jstart);
    clmem__unlock(&st->jlock);
    for (i = 0; i < st->nworkers; ++i) clmem__thread_join(&st->workers[i]);
    CLMEM_FREE(st->workers);
    st->workers = NULL;
    st->nworkers = 0;
}

/* clmem__stager_sync(st, make): make (or destroy) the stager's locks and condition
   variables, all of them in one list */
static void clmem__stager_sync(clmem_stager *st, bool make) {
    clmem__mutex *const mutexes[] = {&st->books, &st->order, &st->jlock};
    clmem__cond *const conds[] = {&st->jstart, &st->jdone, &st->turn, &st->rwake};
    size_t i;
    for (i = 0; i < sizeof mutexes / sizeof mutexes[0]; ++i) {
        if (make) clmem__mutex_init(mutexes[i]);
        else clmem__mutex_destroy(mutexes[i]);
    }
    for (i = 0; i < sizeof conds / sizeof conds[0]; ++i) {
        if (make) clmem__cond_init(conds[i]);
        else clmem__cond_destroy(conds[i]);
    }
}

/* Free what a stager holds; the first unmap error. */
static cl_int clmem__stager_free(clmem_stager *st) {
    cl_int first = CL_SUCCESS;
    unsigned i;
    clmem__stager_stop(st);
    for (i = 0; i < st->nslots; ++i) {
        if (st->slot_mem[i]) {
            cl_int err = clmem__pinned_unmake(st->own, st->slot_mem[i], st->slot_ptr[i]);
            if (err != CL_SUCCESS && first == CL_SUCCESS) first = err;
        }
    }
    clmem__stager_sync(st, false);
    if (st->own) clReleaseCommandQueue(st->own);
    clReleaseCommandQueue(st->queue);
    CLMEM_FREE(st);
    return first;
}

/* clmem__stager_own_queue(fn, ctx, dev, &err): the stager's own in-order queue on dev,
   made with the call the device's version has (clCreateCommandQueueWithProperties is
   OpenCL 2.0); NULL with *err set and worded on failure. */
static cl_command_queue clmem__stager_own_queue(const char *fn, cl_context ctx, cl_device_id dev, cl_int *err) {
    return clmem__default_queue(fn, ctx, dev, "the stager's own queue on the queue's device", err);
}

/* the default threads: half the processors online, at least 1, at most
   CLMEM_STAGER_DEFAULT_THREADS (stager.h: "How the default shape was chosen") */
static unsigned clmem__stager_default_threads(void) {
    unsigned n = clmem__cpu_count() / 2u;
    return n < 1u ? 1u : (n > CLMEM_STAGER_DEFAULT_THREADS ? CLMEM_STAGER_DEFAULT_THREADS : n);
}

CLMEM_API clmem_stager *clmem_stager_create(cl_command_queue queue, size_t slot_size, unsigned slots,
                                            unsigned threads, cl_int *errcode_ret) {
    static const char fn[] = "clmem_stager_create";
    clmem_stager *st;
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_ulong max_alloc;
    bool pays = false;
    cl_int err;
    unsigned i;
    if ((err = clmem__pinned_queue_facts(fn, queue, &ctx, &dev, &max_alloc)) != CL_SUCCESS ||
        (err = clmem__check_in_order(fn, queue, "a stager's copies are commands of its queue in call order"))
            != CL_SUCCESS ||
        (err = clmem__staging_pays(fn, dev, &pays)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_stager *, clmem__null_with(errcode_ret, err));
    if (slot_size == 0) slot_size = CLMEM_STAGER_DEFAULT_SLOT_SIZE;
    if (slots == 0) slots = CLMEM_STAGER_DEFAULT_SLOTS;
    if (threads == 0) threads = clmem__stager_default_threads();
    if (CLMEM__CHECKS && (slots < 2 || slots > CLMEM_STAGER_MAX_SLOTS)) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "slots %u is not in 2..%u (0: the default %u)",
                                                slots, CLMEM_STAGER_MAX_SLOTS, CLMEM_STAGER_DEFAULT_SLOTS));
        return NULL;
    }
    if (CLMEM__CHECKS && threads > CLMEM_STAGER_MAX_THREADS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "threads %u is not in 1..%u (0: the default %u)",
                                                threads, CLMEM_STAGER_MAX_THREADS, clmem__stager_default_threads()));
        return NULL;
    }
    if (CLMEM__CHECKS && (err = clmem__check_max_alloc(fn, dev, "slot_size", slot_size, max_alloc)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_stager *, clmem__null_with(errcode_ret, err));
    st = CLMEM__CAST(clmem_stager *, clmem__alloc_for(sizeof *st, fn, "the stager", errcode_ret));
    if (!st) return NULL;
    memset(st, 0, sizeof *st);
    clmem__stager_sync(st, true);
    clRetainCommandQueue(queue);
    st->queue = queue;
    st->context = ctx;
    st->slot_size = slot_size;
    st->nthreads = threads;
    st->spin_through = threads <= clmem__cpu_count() / 2u;
    st->threshold = pays ? CLMEM_STAGER_DEFAULT_THRESHOLD : CLMEM_STAGER_NEVER;
    st->own = clmem__stager_own_queue(fn, ctx, dev, &err);
    if (!st->own) {
        clmem__stager_free(st);
        clmem__set_err(errcode_ret, err);
        return NULL;
    }
    for (i = 0; i < slots; ++i) {
        const char *call = "";
        err = clmem__pinned_make(st->own, ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, slot_size, &st->slot_mem[i],
                                 &st->slot_ptr[i], &call);
        if (err != CL_SUCCESS) {
            clmem__stager_free(st);
            clmem__set_err(errcode_ret, clmem__fail(err, fn, "%s of pinned slot %u (%zu bytes) failed with %s (%d)",
                                                    call, i, slot_size, clmem_error_string(err), (int)err));
            return NULL;
        }
        st->nslots = i + 1;
    }
    if (threads > 1) {
        st->workers = CLMEM__CAST(clmem__thread *, CLMEM_MALLOC(sizeof(clmem__thread) * (threads - 1)));
        if (!st->workers) {
            clmem__stager_free(st);
            clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for %u threads",
                                                    threads - 1));
            return NULL;
        }
        for (i = 0; i + 1 < threads; ++i) {
            int rc = clmem__thread_start(&st->workers[i], clmem__stager_worker, st);
            if (rc != 0) {
                clmem__stager_free(st);
                clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn,
                                                        "starting copying thread %u of %u failed (error %d)", i + 1,
                                                        threads - 1, rc));
                return NULL;
            }
            st->nworkers = i + 1;
        }
    }
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return st;
}

CLMEM_API cl_int clmem_stager_set_threshold(clmem_stager *st, size_t min_bytes) {
    if (CLMEM__CHECKS && !st) return clmem__fail(CL_INVALID_VALUE, "clmem_stager_set_threshold", "st is NULL");
    clmem__locked_set_size(&st->books, &st->threshold, min_bytes);
    return CL_SUCCESS;
}

CLMEM_API size_t clmem_stager_threshold(clmem_stager *st) {
    return st ? clmem__locked_size(&st->books, &st->threshold) : 0;
}

CLMEM_API cl_int clmem_stager_get_stats(clmem_stager *st, clmem_stager_stats *stats) {
    if (CLMEM__CHECKS && (!st || !stats))
        return clmem__fail(CL_INVALID_VALUE, "clmem_stager_get_stats", "%s is NULL", st ? "stats" : "st");
    clmem__lock(&st->books);
    *stats = st->st;
    stats->running = st->running;
    clmem__unlock(&st->books);
    stats->slot_size = st->slot_size;
    stats->slots = st->nslots;
    stats->threads = (size_t)st->nworkers + 1;
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_stager_release(clmem_stager *st) {
    static const char fn[] = "clmem_stager_release";
    unsigned running;
    cl_int err;
    if (!st) return CL_SUCCESS;
    clmem__lock(&st->books);
    running = st->running;
    clmem__unlock(&st->books);
    if (CLMEM__CHECKS && running)
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "%u copy%s running through the stager (in another thread, or non-blocking and its event not "
                           "yet complete); nothing was released: release it after %s", running,
                           running == 1 ? " is" : "ies are", running == 1 ? "that copy returns" : "those copies return");
    err = clmem__stager_free(st);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueUnmapMemObject");
    return CL_SUCCESS;
}

/* Wait for and release the events of pieces in flight; the first failure. */
static cl_int clmem__stager_drain(cl_event *ev, unsigned n) {
    cl_int first = CL_SUCCESS;
    unsigned i;
    for (i = 0; i < n; ++i) {
        if (ev[i]) {
            cl_int err = clWaitForEvents(1, &ev[i]);
            if (err != CL_SUCCESS && first == CL_SUCCESS) first = err;
            clReleaseEvent(ev[i]);
            ev[i] = NULL;
        }
    }
    return first;
}

/* ---- the order of staged copies: each takes a ticket when it is called (with its
   place on the caller's queue); they use the slots in that order ---- */
/* clmem__stager_busy(st, d): one copy more (d 1) or less (-1) in progress. */
static void clmem__stager_busy(clmem_stager *st, int d) {
    clmem__lock(&st->books);
    st->running = d > 0 ? st->running + 1 : st->running - 1;
    clmem__unlock(&st->books);
}
/* clmem__stager_turn(st, ticket): wait until the staged copies called before this
   one are done. */
static void clmem__stager_turn(clmem_stager *st, unsigned long long ticket) {
    clmem__lock(&st->books);
    while (st->tserving != ticket) clmem__cond_wait(&st->turn, &st->books);
    clmem__unlock(&st->books);
}
/* clmem__stager_leave(st): the staged copy is done: the next one's turn; the stager
   may be released from here on. */
static void clmem__stager_leave(clmem_stager *st) {
    clmem__lock(&st->books);
    ++st->tserving;
    --st->running;
    clmem__cond_broadcast(&st->turn);
    clmem__unlock(&st->books);
}

/* clmem__stager_place(st, nonblocking, &start, &gate, &ticket): a staged copy's place
   on the caller's queue, taken with its ticket under `order` (so that tickets and the
   queue agree): a marker after the queue's earlier work (start: the pieces wait for
   it), and for a non-blocking copy a barrier that holds the queue's later work back
   until *gate, a user event, is set (the stager sets it CL_COMPLETE when the copy is
   over, whatever its outcome, so the queue never stalls). The caller holds `order`
   (a non-blocking copy lists its job before letting go of it). The copy counts as
   running from here. On failure nothing is left behind and the message is written. */
static cl_int clmem__stager_place(clmem_stager *st, bool nonblocking, cl_event *start, cl_event *gate,
                                  unsigned long long *ticket) {
    static const char fn[] = "clmem_stager_copy";
    const char *call = "clEnqueueMarkerWithWaitList";
    cl_int err;
    *start = *gate = NULL;
    err = clEnqueueMarkerWithWaitList(st->queue, 0, NULL, start);
    if (err == CL_SUCCESS && (err = clFlush(st->queue)) != CL_SUCCESS) call = "clFlush";
    if (err == CL_SUCCESS && nonblocking) {
        call = "clCreateUserEvent";
        *gate = clCreateUserEvent(st->context, &err);
        if (err == CL_SUCCESS) {
            call = "clEnqueueBarrierWithWaitList";
            err = clEnqueueBarrierWithWaitList(st->queue, 1, gate, NULL);
        }
    }
    if (err == CL_SUCCESS) {
        clmem__lock(&st->books);
        ++st->running;
        *ticket = st->tnext++;
        clmem__unlock(&st->books);
        return CL_SUCCESS;
    }
    if (*gate) clReleaseEvent(*gate);
    if (*start) clReleaseEvent(*start);
    *start = *gate = NULL;
    return clmem__cl_fail(err, fn, call);
}

/* The pieces of a staged copy are slot-sized but for a ramp where the host's copy of a
   piece overlaps no DMA: a write's first pieces (the DMA waits for the first one to be
   copied in) and a read's last (the threads copy it out after the last DMA). The ramp
   is S/8, S/4, S/2 (as many of these as are at least CLMEM__STAGER_RAMP_MIN), so the
   pipeline starts, or ends, after an eighth of a slot's copy instead of a whole one:
   with 16 MiB slots 2 MiB, about 25 microseconds of 16 threads' memcpy. Each next
   piece is at most twice the one before: its copy takes about as long as the DMA of
   the one before (host memcpy with many threads runs about 1.5x the DMA). */
#define CLMEM__STAGER_RAMP_MIN ((size_t)1 << 20)

/* where the first i pieces of a write end, with ramp steps r */
static size_t clmem__stager_head_end(size_t S, unsigned r, size_t i) {
    return i <= r ? (S >> r) * (((size_t)1 << i) - 1) : (S >> r) * (((size_t)1 << r) - 1) + (i - r) * S;
}

/* clmem__stager_plan(S, count, &r): how many pieces a staged copy of count bytes takes
   with slots of S bytes; r the ramp steps */
static size_t clmem__stager_plan(size_t S, size_t count, unsigned *r) {
    size_t i, head;
    *r = 0;
    while (*r < 3 && (S >> (*r + 1)) >= CLMEM__STAGER_RAMP_MIN) ++*r;
    for (i = 0; i < *r; ++i)
        if (clmem__stager_head_end(S, *r, i + 1) >= count) return i + 1;
    head = clmem__stager_head_end(S, *r, *r);
    return *r + (count - head + S - 1) / S;
}

/* piece i of `pieces` of a staged copy of count bytes: a write ramps up at its start, a
   read down at its end */
static void clmem__stager_piece(size_t S, unsigned r, size_t count, size_t pieces, bool write, size_t i, size_t *pos,
                                size_t *len) {
    size_t j = write ? i : pieces - 1 - i, lo = clmem__stager_head_end(S, r, j),
           hi = clmem__stager_head_end(S, r, j + 1);
    if (hi > count) hi = count;
    *pos = write ? lo : count - hi;
    *len = hi - lo;
}

/* clmem__stager_pieces(st, buf, host, p, wait_for, n, start, &call): the staged copy
   of a plan, in its turn: the wait list is waited for on the host first (a failed
   event is reported, where PoCL would leave the pieces queued for ever); then, on the
   stager's own queue after `start`, for a write, threads copy piece i into a slot
   while the DMA of piece i-1 runs; for a read, the DMA of the next pieces runs while
   threads copy piece i out. Every piece is on the device or in host memory when it
   returns. */
static cl_int clmem__stager_pieces(clmem_stager *st, clmem_buffer buf, void *host, const clmem__host_plan *p,
                                   const cl_event *wait_for, cl_uint n, cl_event start, const char **call) {
    cl_event ev[CLMEM_STAGER_MAX_SLOTS];
    size_t i, pos, len, S = st->slot_size, count = p->count, offset = p->offset;
    unsigned r, K = st->nslots;
    size_t pieces = clmem__stager_plan(S, count, &r);
    cl_uint nstart = start ? 1u : 0u; /* only the first piece waits for start: the own queue is in order */
    cl_command_queue q = st->own;
    cl_int err = CL_SUCCESS;
    const char *enq = p->write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
    *call = enq;
    if (n && (err = clmem__wait_events(wait_for, n)) != CL_SUCCESS) {
        *call = "clWaitForEvents(wait_for)";
        return err;
    }
    memset(ev, 0, sizeof ev);
    clmem__map_note_use(buf.mem, p->fn);
    if (st->spin_through) clmem__atomic_store_uint(&st->hot, 1u); /* until the last piece is copied */
    if (p->write) {
        const unsigned char *src = CLMEM__CAST(const unsigned char *, host);
        for (i = 0; i < pieces && err == CL_SUCCESS; ++i) {
            unsigned k = (unsigned)(i % K);
            clmem__stager_piece(S, r, count, pieces, true, i, &pos, &len);
            if (ev[k]) { /* the slot's previous piece must be on the device */
                err = clWaitForEvents(1, &ev[k]);
                clReleaseEvent(ev[k]);
                ev[k] = NULL;
                if (err != CL_SUCCESS) {
                    *call = "clWaitForEvents";
                    break;
                }
            }
            clmem__stager_memcpy(st, st->slot_ptr[k], src + pos, len);
            *call = enq;
            err = clEnqueueWriteBuffer(q, buf.mem, CL_FALSE, offset + pos, len, st->slot_ptr[k], nstart,
                                       nstart ? &start : NULL, &ev[k]);
            nstart = 0;
            if (err == CL_SUCCESS && (err = clFlush(q)) != CL_SUCCESS) *call = "clFlush";
        }
    } else {
        unsigned char *dst = CLMEM__CAST(unsigned char *, host);
        size_t next = 0; /* the next piece to enqueue */
        for (; next < pieces && next < K && err == CL_SUCCESS; ++next) {
            clmem__stager_piece(S, r, count, pieces, false, next, &pos, &len);
            err = clEnqueueReadBuffer(q, buf.mem, CL_FALSE, offset + pos, len, st->slot_ptr[next], nstart,
                                      nstart ? &start : NULL, &ev[next]);
            nstart = 0;
        }
        if (err == CL_SUCCESS && (err = clFlush(q)) != CL_SUCCESS) *call = "clFlush";
        for (i = 0; i < pieces && err == CL_SUCCESS; ++i) {
            unsigned k = (unsigned)(i % K);
            clmem__stager_piece(S, r, count, pieces, false, i, &pos, &len);
            err = clWaitForEvents(1, &ev[k]);
            clReleaseEvent(ev[k]);
            ev[k] = NULL;
            if (err != CL_SUCCESS) {
                *call = "clWaitForEvents";
                break;
            }
            clmem__stager_memcpy(st, dst + pos, st->slot_ptr[k], len);
            if (next < pieces) { /* the slot is free again: the next piece goes there */
                size_t npos, nlen;
                clmem__stager_piece(S, r, count, pieces, false, next, &npos, &nlen);
                err = clEnqueueReadBuffer(q, buf.mem, CL_FALSE, offset + npos, nlen, st->slot_ptr[k], 0, NULL, &ev[k]);
                if (err == CL_SUCCESS && (err = clFlush(q)) != CL_SUCCESS) *call = "clFlush";
                ++next;
            }
        }
    }
    clmem__atomic_store_uint(&st->hot, 0u);
    {
        cl_int derr = clmem__stager_drain(ev, K);
        if (err == CL_SUCCESS && derr != CL_SUCCESS) {
            err = derr;
            *call = "clWaitForEvents";
        }
    }
    if (err == CL_SUCCESS) {
        clmem__lock(&st->books);
        ++st->st.staged_copies;
        st->st.staged_bytes += count;
        st->st.pieces += pieces;
        clmem__unlock(&st->books);
    }
    return err;
}

/* clmem__stager_failed(fn, err, call): a staged copy's failure in words; a failed
   event of the wait list is CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, as the
   direct path and clmem_enqueue_copy report it. */
static cl_int clmem__stager_failed(const char *fn, cl_int err, const char *call) {
    if (err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || (err < 0 && strcmp(call, "clWaitForEvents(wait_for)") == 0))
        return clmem__fail(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, fn,
                           "an event of wait_for has failed (%s returned %s); nothing was copied", call,
                           clmem_error_string(err));
    return clmem__cl_fail(err, fn, call);
}

/* clmem__stager_user_event(st, status, &event): a user event of the stager's context,
   set to status unless it is 1 (left pending). */
static cl_int clmem__stager_user_event(clmem_stager *st, cl_int status, cl_event *event) {
    cl_int err;
    *event = clCreateUserEvent(st->context, &err);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, "clmem_stager_copy", "clCreateUserEvent");
    if (status != 1 && (err = clSetUserEventStatus(*event, status)) != CL_SUCCESS) {
        clReleaseEvent(*event);
        *event = NULL;
        return clmem__cl_fail(err, "clmem_stager_copy", "clSetUserEventStatus");
    }
    return CL_SUCCESS;
}

/* clmem__stager_blocking(st, buf, host, p, o): a blocking staged copy, in the calling
   thread: its place on the queue, its turn, the pieces. */
static cl_int clmem__stager_blocking(clmem_stager *st, clmem_buffer buf, void *host, const clmem__host_plan *p,
                                     const clmem_copy_options *o) {
    static const char fn[] = "clmem_stager_copy";
    const char *call = "";
    cl_event start = NULL, gate = NULL;
    unsigned long long ticket = 0;
    cl_int err;
    clmem__lock(&st->order);
    err = clmem__stager_place(st, false, &start, &gate, &ticket);
    clmem__unlock(&st->order);
    if (err != CL_SUCCESS) return err;
    clmem__stager_turn(st, ticket);
    if ((err = clmem__stager_pieces(st, buf, host, p, o->wait_for, o->num_wait_for, start, &call)) != CL_SUCCESS)
        err = clmem__stager_failed(fn, err, call);
    else if (o->event) /* every byte has arrived: the event is complete */
        err = clmem__stager_user_event(st, CL_COMPLETE, o->event);
    clReleaseEvent(start);
    clmem__stager_leave(st);
    return err;
}

/* A non-blocking staged copy, listed for the runner. It holds a reference to
   everything it touches: the buffer, the wait list's events, its events. */
typedef struct clmem__stager_job {
    struct clmem__stager_job *next;
    clmem_buffer buf; /* buf.mem retained */
    void *host;
    clmem__host_plan plan;
    cl_event *wait_for; /* a retained copy of the caller's list */
    cl_uint n;
    cl_event start, gate; /* the marker and the barrier's user event on the caller's queue */
    cl_event done;        /* the caller's .event, or NULL (the job holds a reference) */
    unsigned long long ticket;
} clmem__stager_job;

static void clmem__stager_job_free(clmem__stager_job *j) {
    cl_uint i;
    for (i = 0; i < j->n; ++i) clReleaseEvent(j->wait_for[i]);
    if (j->start) clReleaseEvent(j->start);
    if (j->gate) clReleaseEvent(j->gate);
    if (j->done) clReleaseEvent(j->done);
    if (j->buf.mem) clReleaseMemObject(j->buf.mem);
    CLMEM_FREE(j->wait_for);
    CLMEM_FREE(j);
}

/* clmem__stager_job_run(st, j): a listed copy in its turn: the pieces; then, once the
   stager's part is over (the next copy's turn), the caller's event (CL_COMPLETE, or the
   failure's code) and the gate (CL_COMPLETE: the queue goes on). */
static void clmem__stager_job_run(clmem_stager *st, clmem__stager_job *j) {
    const char *call = "";
    cl_int err;
    clmem__stager_turn(st, j->ticket);
    err = clmem__stager_pieces(st, j->buf, j->host, &j->plan, j->wait_for, j->n, j->start, &call);
    if (err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || (err < 0 && strcmp(call, "clWaitForEvents(wait_for)") == 0))
        err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    clmem__stager_leave(st); /* the stager may be released once the events are set */
    /* the copy's event first: the queue's later work, which the gate lets go, finds it complete */
    if (j->done) clSetUserEventStatus(j->done, err == CL_SUCCESS ? CL_COMPLETE : (err < 0 ? err : CL_OUT_OF_RESOURCES));
    clSetUserEventStatus(j->gate, CL_COMPLETE);
    clmem__stager_job_free(j);
}

/* The runner: the listed copies, one after the other, until the stager stops. */
static void clmem__stager_runner(void *arg) {
    clmem_stager *st = CLMEM__CAST(clmem_stager *, arg);
    for (;;) {
        clmem__stager_job *j;
        clmem__lock(&st->books);
        while (!st->rhead && !st->rquit) clmem__cond_wait(&st->rwake, &st->books);
        j = st->rhead;
        if (j) {
            st->rhead = j->next;
            if (!st->rhead) st->rtail = NULL;
        }
        clmem__unlock(&st->books);
        if (!j) break; /* the stop, with nothing listed */
        clmem__stager_job_run(st, j);
    }
}

/* clmem__stager_async(st, buf, host, p, o): a non-blocking staged copy: its place on
   the caller's queue and a job for the runner (started here the first time); *o->event
   is a user event the runner completes. */
static cl_int clmem__stager_async(clmem_stager *st, clmem_buffer buf, void *host, const clmem__host_plan *p,
                                  const clmem_copy_options *o) {
    static const char fn[] = "clmem_stager_copy";
    clmem__stager_job *j = CLMEM__CAST(clmem__stager_job *, CLMEM_MALLOC(sizeof *j));
    cl_uint i;
    cl_int err;
    if (!j) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a non-blocking copy");
    memset(j, 0, sizeof *j);
    j->wait_for = CLMEM__CAST(cl_event *, CLMEM_MALLOC(sizeof(cl_event) * (o->num_wait_for + 1u)));
    if (!j->wait_for) {
        CLMEM_FREE(j);
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a non-blocking copy");
    }
    if (o->event && (err = clmem__stager_user_event(st, 1, &j->done)) != CL_SUCCESS) {
        clmem__stager_job_free(j);
        return err;
    }
    clmem__lock(&st->books);
    if (!st->has_runner) {
        int rc = clmem__thread_start(&st->runner, clmem__stager_runner, st);
        if (rc != 0) {
            clmem__unlock(&st->books);
            clmem__stager_job_free(j);
            return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "starting the stager's thread for non-blocking copies "
                                                          "failed (error %d)", rc);
        }
        st->has_runner = true;
    }
    clmem__unlock(&st->books);
    j->buf = buf;
    clRetainMemObject(buf.mem);
    j->host = host;
    j->plan = *p;
    for (i = 0; i < o->num_wait_for; ++i) {
        j->wait_for[i] = o->wait_for[i];
        clRetainEvent(j->wait_for[i]);
    }
    j->n = o->num_wait_for;
    clmem__lock(&st->order);
    if ((err = clmem__stager_place(st, true, &j->start, &j->gate, &j->ticket)) != CL_SUCCESS) {
        clmem__unlock(&st->order);
        clmem__stager_job_free(j);
        return err;
    }
    if (o->event) {
        clRetainEvent(j->done);
        *o->event = j->done;
    }
    clmem__lock(&st->books); /* listed in ticket order (under `order`): the runner takes them in turn */
    if (st->rtail) st->rtail->next = j;
    else st->rhead = j;
    st->rtail = j;
    clmem__cond_signal(&st->rwake);
    clmem__unlock(&st->books);
    clmem__unlock(&st->order);
    return CL_SUCCESS;
}

/* clmem__stager_transfer: the host-transfer plan (transfer.c) checks and resolves the
   copy in clmem_stager_copy's name; below the threshold, or with its host range
   registered, it runs as planned on the stager's queue (the direct path, which takes
   the registered way), from the threshold in pieces through the slots. */
static cl_int clmem__stager_transfer(clmem_stager *st, clmem_buffer buf, void *host, bool write,
                                     const clmem_copy_options *o) {
    static const char fn[] = "clmem_stager_copy";
    clmem__host_plan p;
    size_t threshold;
    bool direct;
    cl_int err;
    clmem_copy_options local;
    o = clmem__copy_opts_or_none(o, &local);
    if (CLMEM__CHECKS) {
        if (!st) return clmem__fail(CL_INVALID_VALUE, fn, "st is NULL");
        if ((o->given & CLMEM_GIVEN_REGION) || (o->region[0] | o->region[1] | o->region[2]))
            return clmem__fail(CL_INVALID_VALUE, fn,
                               ".region {%zu, %zu, %zu} does not apply: a stager copies linear ranges (rectangles: "
                               "clmem_enqueue_copy)", o->region[0], o->region[1], o->region[2]);
    }
    if ((err = clmem__host_plan_make(fn, st->queue, st->context, buf, host, write, o, &p)) != CL_SUCCESS) return err;
    if (p.count == 0) return clmem__host_plan_run(st->queue, buf, host, &p, o->wait_for, o->num_wait_for, o->event);
    clmem__lock(&st->books);
    threshold = st->threshold;
    clmem__unlock(&st->books);
    /* a registered host range: the DMA from (or to) the caller's pages beats any staging */
    direct = p.count < threshold ||
             (clmem__host_registrations_live() && clmem_host_registered(st->context, host, p.count));
    if (direct) {
        clmem__lock(&st->books);
        ++st->st.direct_copies;
        st->st.direct_bytes += p.count;
        clmem__unlock(&st->books);
        /* a command of the queue like any other: the queue orders it */
        clmem__stager_busy(st, 1);
        err = clmem__host_plan_run(st->queue, buf, host, &p, o->wait_for, o->num_wait_for, o->event);
        /* a blocking call's event is complete at return (not every driver marks it so) */
        if (err == CL_SUCCESS && p.blocking && o->event && (err = clWaitForEvents(1, o->event)) != CL_SUCCESS)
            err = clmem__cl_fail(err, fn, "clWaitForEvents");
        clmem__stager_busy(st, -1);
        return err;
    }
    if (!p.blocking) return clmem__stager_async(st, buf, host, &p, o);
    return clmem__stager_blocking(st, buf, host, &p, o);
}

CLMEM_API cl_int clmem_stager_write_opts(clmem_stager *st, clmem_buffer dst, const void *src,
                                         const clmem_copy_options *opts) {
    return clmem__stager_transfer(st, dst, clmem__unconst(src), true, opts);
}

CLMEM_API cl_int clmem_stager_read_opts(clmem_stager *st, void *dst, clmem_buffer src, const clmem_copy_options *opts) {
    return clmem__stager_transfer(st, src, dst, false, opts);
}

CLMEM_API cl_int clmem__stager_write_fn(clmem_stager *st, clmem_buffer dst, const void *src,
                                        const clmem_copy_options *opts) {
    return clmem__stager_transfer(st, dst, clmem__unconst(src), true, opts);
}

CLMEM_API cl_int clmem__stager_read_fn(clmem_stager *st, void *dst, clmem_buffer src, const clmem_copy_options *opts) {
    return clmem__stager_transfer(st, src, dst, false, opts);
}
