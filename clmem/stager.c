/* >>stager (implementation) */
#include "stager.h"
#include "memobj.h"
#include "transfer.h"
#include "pinned.h"

#if !defined(_WIN32) && !defined(CLMEM_USE_C11_THREADS) /* until the workers use base's threads */
#define CLMEM__STAGER_WORKERS 1 /* pthreads (pthread.h comes with >>base) */
#else
#define CLMEM__STAGER_WORKERS 0
#endif
/* Idle copying threads spin a while (with atomic builtins) before they sleep: waking a
   sleeping thread can cost as much as copying a piece at GPU speeds. */
#if CLMEM__STAGER_WORKERS && (defined(__GNUC__) || defined(__clang__))
#define CLMEM__STAGER_SPIN 2000
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

struct clmem_stager {
    clmem__mutex lock;  /* one copy at a time (where there are no worker threads; else the tickets) */
    clmem__mutex books; /* guards st, running, threshold and the tickets (never held across a driver call) */
    unsigned running;   /* copies in progress, a non-blocking one until its event completes */
    unsigned long long tnext, tserving; /* copies run in call order: the next ticket, the one running */
    cl_command_queue queue; /* retained */
    cl_context context;
    size_t slot_size, threshold;
    unsigned nslots, nthreads;
    cl_mem slot_mem[CLMEM_STAGER_MAX_SLOTS];
    void *slot_ptr[CLMEM_STAGER_MAX_SLOTS];
    clmem_stager_stats st;
#if CLMEM__STAGER_WORKERS
    pthread_t *workers;
    unsigned nworkers;
    pthread_mutex_t jlock;
    pthread_cond_t jstart, jdone;
    pthread_cond_t turn; /* with books: tserving moved on */
    bool quit;
    unsigned char *jdst;
    const unsigned char *jsrc;
    size_t jn, jpart;
    unsigned jnext, jparts;
    unsigned jleft;   /* parts not finished (atomic where spinning reads it) */
    unsigned jposted; /* jobs posted, and the stop (atomic where spinning reads it) */
#endif
};

/* Parts of a parallel memcpy are at least this big: below it, waking threads costs
   more than it saves. */
#define CLMEM__STAGER_MIN_PART ((size_t)256 << 10)

#if CLMEM__STAGER_WORKERS
/* under jlock: copy parts until none is left; jlock is held again on return */
static void clmem__stager_copy_parts(clmem_stager *st) {
    while (st->jnext < st->jparts) {
        unsigned k = st->jnext++;
        size_t lo = (size_t)k * st->jpart, len = st->jn - lo < st->jpart ? st->jn - lo : st->jpart;
        unsigned char *d = st->jdst + lo;
        const unsigned char *s = st->jsrc + lo;
        pthread_mutex_unlock(&st->jlock);
        memcpy(d, s, len);
        pthread_mutex_lock(&st->jlock);
#if CLMEM__STAGER_SPIN
        if (__atomic_sub_fetch(&st->jleft, 1u, __ATOMIC_RELEASE) == 0) pthread_cond_signal(&st->jdone);
#else
        if (--st->jleft == 0) pthread_cond_signal(&st->jdone);
#endif
    }
}

static void *clmem__stager_worker(void *arg) {
    clmem_stager *st = CLMEM__CAST(clmem_stager *, arg);
    pthread_mutex_lock(&st->jlock);
    for (;;) {
#if CLMEM__STAGER_SPIN
        if (!st->quit && st->jnext >= st->jparts) {
            unsigned seen = st->jposted, spins;
            pthread_mutex_unlock(&st->jlock);
            for (spins = 0; spins < CLMEM__STAGER_SPIN && __atomic_load_n(&st->jposted, __ATOMIC_ACQUIRE) == seen;
                 ++spins)
                CLMEM__CPU_RELAX();
            pthread_mutex_lock(&st->jlock);
        }
#endif
        while (!st->quit && st->jnext >= st->jparts) pthread_cond_wait(&st->jstart, &st->jlock);
        if (st->quit) break;
        clmem__stager_copy_parts(st);
    }
    pthread_mutex_unlock(&st->jlock);
    return NULL;
}
#endif

/* memcpy spread over the stager's threads, the calling thread included */
static void clmem__stager_memcpy(clmem_stager *st, void *dst, const void *src, size_t n) {
#if CLMEM__STAGER_WORKERS
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
    pthread_mutex_lock(&st->jlock);
    st->jdst = CLMEM__CAST(unsigned char *, dst);
    st->jsrc = CLMEM__CAST(const unsigned char *, src);
    st->jn = n;
    st->jpart = part;
    st->jnext = 0;
    st->jparts = (unsigned)parts;
#if CLMEM__STAGER_SPIN
    __atomic_store_n(&st->jleft, (unsigned)parts, __ATOMIC_RELAXED);
    __atomic_add_fetch(&st->jposted, 1u, __ATOMIC_RELEASE);
#else
    st->jleft = (unsigned)parts;
#endif
    pthread_cond_broadcast(&st->jstart);
    clmem__stager_copy_parts(st);
#if CLMEM__STAGER_SPIN
    if (__atomic_load_n(&st->jleft, __ATOMIC_ACQUIRE)) {
        unsigned spins;
        pthread_mutex_unlock(&st->jlock);
        for (spins = 0; spins < CLMEM__STAGER_SPIN && __atomic_load_n(&st->jleft, __ATOMIC_ACQUIRE); ++spins)
            CLMEM__CPU_RELAX();
        pthread_mutex_lock(&st->jlock);
    }
    while (__atomic_load_n(&st->jleft, __ATOMIC_ACQUIRE)) pthread_cond_wait(&st->jdone, &st->jlock);
#else
    while (st->jleft) pthread_cond_wait(&st->jdone, &st->jlock);
#endif
    st->jparts = 0;
    st->jnext = 0;
    pthread_mutex_unlock(&st->jlock);
#else
    (void)st;
    memcpy(dst, src, n);
#endif
}

static void clmem__stager_stop(clmem_stager *st) {
#if CLMEM__STAGER_WORKERS
    unsigned i;
    if (!st->workers) return;
    pthread_mutex_lock(&st->jlock);
    st->quit = true;
#if CLMEM__STAGER_SPIN
    __atomic_add_fetch(&st->jposted, 1u, __ATOMIC_RELEASE);
#endif
    pthread_cond_broadcast(&st->jstart);
    pthread_mutex_unlock(&st->jlock);
    for (i = 0; i < st->nworkers; ++i) pthread_join(st->workers[i], NULL);
    CLMEM_FREE(st->workers);
    st->workers = NULL;
    st->nworkers = 0;
#else
    (void)st;
#endif
}

/* Free what a stager holds; the first unmap error. */
static cl_int clmem__stager_free(clmem_stager *st) {
    cl_int first = CL_SUCCESS;
    unsigned i;
    clmem__stager_stop(st);
    for (i = 0; i < st->nslots; ++i) {
        if (st->slot_mem[i]) {
            cl_int err = clmem__pinned_unmake(st->queue, st->slot_mem[i], st->slot_ptr[i]);
            if (err != CL_SUCCESS && first == CL_SUCCESS) first = err;
        }
    }
#if CLMEM__STAGER_WORKERS
    pthread_mutex_destroy(&st->jlock);
    pthread_cond_destroy(&st->jstart);
    pthread_cond_destroy(&st->jdone);
    pthread_cond_destroy(&st->turn);
#endif
    clmem__mutex_destroy(&st->lock);
    clmem__mutex_destroy(&st->books);
    clReleaseCommandQueue(st->queue);
    CLMEM_FREE(st);
    return first;
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
        (err = clmem__staging_pays(fn, dev, &pays)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_stager *, clmem__null_with(errcode_ret, err));
    if (slot_size == 0) slot_size = CLMEM_STAGER_DEFAULT_SLOT_SIZE;
    if (slots == 0) slots = CLMEM_STAGER_DEFAULT_SLOTS;
    if (threads == 0) threads = CLMEM_STAGER_DEFAULT_THREADS;
    if (CLMEM__CHECKS && (slots < 2 || slots > CLMEM_STAGER_MAX_SLOTS)) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "slots %u is not in 2..%u (0: the default %u)",
                                                slots, CLMEM_STAGER_MAX_SLOTS, CLMEM_STAGER_DEFAULT_SLOTS));
        return NULL;
    }
    if (CLMEM__CHECKS && threads > CLMEM_STAGER_MAX_THREADS) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn, "threads %u is not in 1..%u (0: the default %u)",
                                                threads, CLMEM_STAGER_MAX_THREADS, CLMEM_STAGER_DEFAULT_THREADS));
        return NULL;
    }
    if (CLMEM__CHECKS && (err = clmem__check_max_alloc(fn, dev, "slot_size", slot_size, max_alloc)) != CL_SUCCESS)
        return CLMEM__CAST(clmem_stager *, clmem__null_with(errcode_ret, err));
    st = CLMEM__CAST(clmem_stager *, clmem__alloc_for(sizeof *st, fn, "the stager", errcode_ret));
    if (!st) return NULL;
    memset(st, 0, sizeof *st);
    clmem__mutex_init(&st->lock);
    clmem__mutex_init(&st->books);
#if CLMEM__STAGER_WORKERS
    pthread_mutex_init(&st->jlock, NULL);
    pthread_cond_init(&st->jstart, NULL);
    pthread_cond_init(&st->jdone, NULL);
    pthread_cond_init(&st->turn, NULL);
#else
    threads = 1;
#endif
    clRetainCommandQueue(queue);
    st->queue = queue;
    st->context = ctx;
    st->slot_size = slot_size;
    st->nthreads = threads;
    st->threshold = pays ? CLMEM_STAGER_DEFAULT_THRESHOLD : CLMEM_STAGER_NEVER;
    for (i = 0; i < slots; ++i) {
        const char *call = "";
        err = clmem__pinned_make(queue, ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, slot_size, &st->slot_mem[i],
                                 &st->slot_ptr[i], &call);
        if (err != CL_SUCCESS) {
            clmem__stager_free(st);
            clmem__set_err(errcode_ret, clmem__fail(err, fn, "%s of pinned slot %u (%zu bytes) failed with %s (%d)",
                                                    call, i, slot_size, clmem_error_string(err), (int)err));
            return NULL;
        }
        st->nslots = i + 1;
    }
#if CLMEM__STAGER_WORKERS
    if (threads > 1) {
        st->workers = CLMEM__CAST(pthread_t *, CLMEM_MALLOC(sizeof(pthread_t) * (threads - 1)));
        if (!st->workers) {
            clmem__stager_free(st);
            clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for %u threads",
                                                    threads - 1));
            return NULL;
        }
        for (i = 0; i + 1 < threads; ++i) {
            int rc = pthread_create(&st->workers[i], NULL, clmem__stager_worker, st);
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
#endif
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
#if CLMEM__STAGER_WORKERS
    stats->threads = (size_t)st->nworkers + 1;
#else
    stats->threads = 1;
#endif
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

/* ---- the order of copies: each takes a ticket when it is called; they run in that
   order, so a copy called after a non-blocking one sees its bytes ---- */
/* clmem__stager_enter(st): a copy is called: it counts as running; its ticket. */
static unsigned long long clmem__stager_enter(clmem_stager *st) {
    unsigned long long ticket;
    clmem__lock(&st->books);
    ++st->running;
    ticket = st->tnext++;
    clmem__unlock(&st->books);
    return ticket;
}
/* clmem__stager_turn(st, ticket): wait until the copies called before this one are
   done (a non-blocking one: its bytes have arrived). */
static void clmem__stager_turn(clmem_stager *st, unsigned long long ticket) {
#if CLMEM__STAGER_WORKERS
    clmem__lock(&st->books);
    while (st->tserving != ticket) pthread_cond_wait(&st->turn, &st->books);
    clmem__unlock(&st->books);
#else
    (void)ticket;
    clmem__lock(&st->lock);
#endif
}
/* clmem__stager_leave(st): the copy is done: the next one's turn; the stager may be
   released from here on. */
static void clmem__stager_leave(clmem_stager *st) {
#if !CLMEM__STAGER_WORKERS
    clmem__unlock(&st->lock);
#endif
    clmem__lock(&st->books);
    ++st->tserving;
    --st->running;
#if CLMEM__STAGER_WORKERS
    pthread_cond_broadcast(&st->turn);
#endif
    clmem__unlock(&st->books);
}

/* clmem__stager_pieces(st, buf, host, p, wait_for, n, &call): the staged copy of a
   plan, in its turn: the wait list is waited for on the host first (a failed event
   is reported, where PoCL would leave the pieces queued for ever); then, for a write,
   threads copy piece i into a slot while the DMA of piece i-1 runs; for a read, the
   DMA of the next pieces runs while threads copy piece i out. Every piece is on the
   device or in host memory when it returns. */
static cl_int clmem__stager_pieces(clmem_stager *st, clmem_buffer buf, void *host, const clmem__host_plan *p,
                                   const cl_event *wait_for, cl_uint n, const char **call) {
    cl_event ev[CLMEM_STAGER_MAX_SLOTS];
    size_t i, S = st->slot_size, count = p->count, offset = p->offset, pieces = (count + S - 1) / S;
    unsigned K = st->nslots;
    cl_int err = CL_SUCCESS;
    *call = p->write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
    if (n && (err = clmem__wait_events(wait_for, n)) != CL_SUCCESS) {
        *call = "clWaitForEvents(wait_for)";
        return err;
    }
    memset(ev, 0, sizeof ev);
    clmem__map_note_use(buf.mem, p->fn);
    if (p->write) {
        const unsigned char *src = CLMEM__CAST(const unsigned char *, host);
        for (i = 0; i < pieces && err == CL_SUCCESS; ++i) {
            unsigned k = (unsigned)(i % K);
            size_t pos = i * S, len = count - pos < S ? count - pos : S;
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
            err = clEnqueueWriteBuffer(st->queue, buf.mem, CL_FALSE, offset + pos, len, st->slot_ptr[k], 0, NULL, &ev[k]);
            if (err == CL_SUCCESS) clFlush(st->queue);
        }
    } else {
        unsigned char *dst = CLMEM__CAST(unsigned char *, host);
        size_t next = 0; /* the next piece to enqueue */
        for (; next < pieces && next < K && err == CL_SUCCESS; ++next) {
            size_t pos = next * S, len = count - pos < S ? count - pos : S;
            err = clEnqueueReadBuffer(st->queue, buf.mem, CL_FALSE, offset + pos, len, st->slot_ptr[next], 0, NULL,
                                      &ev[next]);
        }
        if (err == CL_SUCCESS) clFlush(st->queue);
        for (i = 0; i < pieces && err == CL_SUCCESS; ++i) {
            unsigned k = (unsigned)(i % K);
            size_t pos = i * S, len = count - pos < S ? count - pos : S;
            err = clWaitForEvents(1, &ev[k]);
            clReleaseEvent(ev[k]);
            ev[k] = NULL;
            if (err != CL_SUCCESS) {
                *call = "clWaitForEvents";
                break;
            }
            clmem__stager_memcpy(st, dst + pos, st->slot_ptr[k], len);
            if (next < pieces) { /* the slot is free again: the next piece goes there */
                size_t npos = next * S, nlen = count - npos < S ? count - npos : S;
                err = clEnqueueReadBuffer(st->queue, buf.mem, CL_FALSE, offset + npos, nlen, st->slot_ptr[k], 0, NULL,
                                          &ev[k]);
                if (err == CL_SUCCESS) clFlush(st->queue);
                ++next;
            }
        }
    }
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

#if CLMEM__STAGER_WORKERS
/* A non-blocking staged copy: its own thread takes the copy lock, copies, then
   completes the user event (CL_COMPLETE, or the failure's code). */
typedef struct clmem__stager_job {
    clmem_stager *st;
    clmem_buffer buf;
    void *host;
    clmem__host_plan plan;
    cl_event *wait_for; /* a retained copy of the caller's list */
    cl_uint n;
    cl_event done; /* the caller's event (this job holds a reference) */
    unsigned long long ticket;
} clmem__stager_job;

static void *clmem__stager_job_run(void *arg) {
    clmem__stager_job *j = CLMEM__CAST(clmem__stager_job *, arg);
    const char *call = "";
    cl_int err;
    cl_uint i;
    clmem__stager_turn(j->st, j->ticket);
    err = clmem__stager_pieces(j->st, j->buf, j->host, &j->plan, j->wait_for, j->n, &call);
    for (i = 0; i < j->n; ++i) clReleaseEvent(j->wait_for[i]);
    clmem__stager_leave(j->st); /* the stager may be released from here on */
    clSetUserEventStatus(j->done, err == CL_SUCCESS ? CL_COMPLETE : (err < 0 ? err : CL_OUT_OF_RESOURCES));
    clReleaseEvent(j->done);
    CLMEM_FREE(j->wait_for);
    CLMEM_FREE(j);
    return NULL;
}

/* clmem__stager_async(st, buf, host, p, o): start a non-blocking staged copy; *o->event
   is its user event. */
static cl_int clmem__stager_async(clmem_stager *st, clmem_buffer buf, void *host, const clmem__host_plan *p,
                                  const clmem_copy_options *o) {
    static const char fn[] = "clmem_stager_copy";
    clmem__stager_job *j = CLMEM__CAST(clmem__stager_job *, CLMEM_MALLOC(sizeof *j));
    pthread_t th;
    pthread_attr_t attr;
    cl_uint i;
    cl_int err;
    int rc;
    if (!j) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a non-blocking copy");
    memset(j, 0, sizeof *j);
    j->wait_for = CLMEM__CAST(cl_event *, CLMEM_MALLOC(sizeof(cl_event) * (o->num_wait_for + 1u)));
    if (!j->wait_for) {
        CLMEM_FREE(j);
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for a non-blocking copy");
    }
    if ((err = clmem__stager_user_event(st, 1, &j->done)) != CL_SUCCESS) {
        CLMEM_FREE(j->wait_for);
        CLMEM_FREE(j);
        return err;
    }
    j->st = st;
    j->buf = buf;
    j->host = host;
    j->plan = *p;
    j->n = o->num_wait_for;
    for (i = 0; i < j->n; ++i) {
        j->wait_for[i] = o->wait_for[i];
        clRetainEvent(j->wait_for[i]);
    }
    if (o->event) {
        clRetainEvent(j->done);
        *o->event = j->done;
    }
    j->ticket = clmem__stager_enter(st);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    rc = pthread_create(&th, &attr, clmem__stager_job_run, j);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        clmem__stager_turn(st, j->ticket); /* give the turn on, in order */
        clmem__stager_leave(st);
        for (i = 0; i < j->n; ++i) clReleaseEvent(j->wait_for[i]);
        if (o->event) {
            clReleaseEvent(*o->event);
            *o->event = NULL;
        }
        clReleaseEvent(j->done);
        CLMEM_FREE(j->wait_for);
        CLMEM_FREE(j);
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "starting the thread of a non-blocking copy failed (error %d)", rc);
    }
    return CL_SUCCESS;
}
#endif

/* clmem__stager_transfer: the host-transfer plan (transfer.c) checks and resolves the
   copy in clmem_stager_copy's name; below the threshold it runs as planned on the
   stager's queue (the direct path), from it in pieces through the slots. */
static cl_int clmem__stager_transfer(clmem_stager *st, clmem_buffer buf, void *host, bool write,
                                     const clmem_copy_options *o) {
    static const char fn[] = "clmem_stager_copy";
    clmem__host_plan p;
    size_t threshold;
    unsigned long long ticket;
    const char *call = "";
    cl_int err;
    o = clmem__copy_opts_or_none(o);
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
    if (p.count < threshold) {
        ++st->st.direct_copies;
        st->st.direct_bytes += p.count;
    }
    clmem__unlock(&st->books);
#if CLMEM__STAGER_WORKERS
    if (p.count >= threshold && !p.blocking) return clmem__stager_async(st, buf, host, &p, o);
#endif
    ticket = clmem__stager_enter(st);
    clmem__stager_turn(st, ticket);
    if (p.count < threshold) {
        err = clmem__host_plan_run(st->queue, buf, host, &p, o->wait_for, o->num_wait_for, o->event);
        /* a blocking call's event is complete at return (not every driver marks it so) */
        if (err == CL_SUCCESS && p.blocking && o->event && (err = clWaitForEvents(1, o->event)) != CL_SUCCESS)
            err = clmem__cl_fail(err, fn, "clWaitForEvents");
    } else if ((err = clmem__stager_pieces(st, buf, host, &p, o->wait_for, o->num_wait_for, &call)) != CL_SUCCESS)
        err = clmem__stager_failed(fn, err, call);
    else if (o->event) /* every byte has arrived: the event is complete */
        err = clmem__stager_user_event(st, CL_COMPLETE, o->event);
    clmem__stager_leave(st);
    return err;
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
