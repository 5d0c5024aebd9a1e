/* >>stager (implementation) */

#if !defined(_WIN32)
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
    clmem__mutex lock; /* one copy at a time; guards the counters */
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
#endif
    clmem__mutex_destroy(&st->lock);
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
    cl_device_type type = 0;
    cl_bool unified = CL_FALSE;
    cl_int err;
    unsigned i;
    if ((err = clmem__pinned_queue_facts(fn, queue, &ctx, &dev, &max_alloc)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, err);
        return NULL;
    }
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
    if (CLMEM__CHECKS && (cl_ulong)slot_size > max_alloc) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_BUFFER_SIZE, fn,
                                                "slot_size %zu is above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes) of "
                                                "the queue's device", slot_size, (unsigned long long)max_alloc));
        return NULL;
    }
    st = CLMEM__CAST(clmem_stager *, CLMEM_MALLOC(sizeof *st));
    if (!st) {
        clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for the stager"));
        return NULL;
    }
    memset(st, 0, sizeof *st);
    clmem__mutex_init(&st->lock);
#if CLMEM__STAGER_WORKERS
    pthread_mutex_init(&st->jlock, NULL);
    pthread_cond_init(&st->jstart, NULL);
    pthread_cond_init(&st->jdone, NULL);
#else
    threads = 1;
#endif
    clRetainCommandQueue(queue);
    st->queue = queue;
    st->context = ctx;
    st->slot_size = slot_size;
    st->nthreads = threads;
    /* staging pays on a discrete device only: PoCL's CPU device, an integrated GPU
       sharing the host's memory copy pageable memory as fast as pinned */
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL) != CL_SUCCESS)
        unified = CL_FALSE;
    st->threshold = ((type & CL_DEVICE_TYPE_CPU) || unified) ? CLMEM_STAGER_NEVER : CLMEM_STAGER_DEFAULT_THRESHOLD;
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
    clmem__lock(&st->lock);
    st->threshold = min_bytes;
    clmem__unlock(&st->lock);
    return CL_SUCCESS;
}

CLMEM_API size_t clmem_stager_threshold(clmem_stager *st) {
    size_t t;
    if (!st) return 0;
    clmem__lock(&st->lock);
    t = st->threshold;
    clmem__unlock(&st->lock);
    return t;
}

CLMEM_API cl_int clmem_stager_get_stats(clmem_stager *st, clmem_stager_stats *stats) {
    if (CLMEM__CHECKS && (!st || !stats))
        return clmem__fail(CL_INVALID_VALUE, "clmem_stager_get_stats", "%s is NULL", st ? "stats" : "st");
    clmem__lock(&st->lock);
    *stats = st->st;
    clmem__unlock(&st->lock);
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
    cl_int err;
    if (!st) return CL_SUCCESS;
    err = clmem__stager_free(st);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, "clmem_stager_release", "clEnqueueUnmapMemObject");
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

/* the checks both directions share; *offset and *count resolved */
static cl_int clmem__stager_check(const char *fn, clmem_stager *st, clmem_buffer buf, const void *host, bool write,
                                  const clmem_stager_copy_options *o, size_t *offset, size_t *count) {
    const char *oname = write ? "dst_offset" : "src_offset";
    *offset = write ? o->dst_offset : o->src_offset;
    if (CLMEM__CHECKS) {
        cl_mem_flags forbidden = write ? (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
                                       : (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
        char text[200];
        cl_int err;
        if (!st) return clmem__fail(CL_INVALID_VALUE, fn, "st is NULL");
        if ((err = clmem__check_made(fn, o->given)) != CL_SUCCESS) return err;
        if ((err = clmem__check_wait_list(fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS) return err;
        if (!buf.mem)
            return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "%s is an empty or released buffer handle",
                               write ? "dst" : "src");
        if (!host) return clmem__fail(CL_INVALID_VALUE, fn, "the host pointer (%s) is NULL", write ? "src" : "dst");
        if (write ? o->src_offset != 0 : o->dst_offset != 0)
            return clmem__fail(CL_INVALID_VALUE, fn,
                               "%s %zu does not apply: the host side has no offset (offset the pointer); the buffer's "
                               "offset is %s", write ? "src_offset" : "dst_offset", write ? o->src_offset : o->dst_offset,
                               oname);
        if (buf.context && buf.context != st->context)
            return clmem__fail(CL_INVALID_CONTEXT, fn, "the buffer belongs to context %p but the stager's queue to %p",
                               (void *)buf.context, (void *)st->context);
        if (buf.flags & forbidden)
            return clmem__fail(CL_INVALID_OPERATION, fn, "the host may not %s %s: its flags are %s",
                               write ? "write" : "read", write ? "dst" : "src",
                               clmem__mem_flags_text(buf.flags, text, sizeof text));
        if (*offset > buf.size)
            return clmem__fail(CL_INVALID_VALUE, fn, "%s %zu is beyond the buffer's %zu bytes", oname, *offset, buf.size);
    }
    *count = o->byte_count || (o->given & CLMEM_GIVEN_BYTE_COUNT) ? o->byte_count : buf.size - *offset;
    if (CLMEM__CHECKS) {
        if (!clmem__range_ok(*offset, *count, buf.size))
            return clmem__fail(CL_INVALID_VALUE, fn, "%s %zu + byte_count %zu is beyond the buffer's %zu bytes", oname,
                               *offset, *count, buf.size);
        if ((o->host_size || (o->given & CLMEM_GIVEN_HOST_SIZE)) && *count > o->host_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "byte_count %zu is more than host_size %zu", *count, o->host_size);
    }
    return CL_SUCCESS;
}

static cl_int clmem__stager_transfer(clmem_stager *st, clmem_buffer buf, void *host, bool write,
                                     const clmem_stager_copy_options *o) {
    static const char fn[] = "clmem_stager_copy";
    static const clmem_stager_copy_options defaults = CLMEM_OPTIONS_INIT;
    cl_event ev[CLMEM_STAGER_MAX_SLOTS];
    size_t offset = 0, count = 0, pieces, i, S;
    unsigned K;
    cl_int err;
    const char *call = write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
    if (!o) o = &defaults;
    if ((err = clmem__stager_check(fn, st, buf, host, write, o, &offset, &count)) != CL_SUCCESS) return err;
    if (count == 0) return clmem__nothing_to_do(fn, st->queue, o->wait_for, o->num_wait_for, o->event);
    clmem__lock(&st->lock);
    if (count < st->threshold) {
        clmem_copy_options co;
        memset((void *)&co, 0, sizeof co); /* (void *): C++14 options have default member initializers */
        co.given = CLMEM_OPTIONS_MARK | CLMEM_GIVEN_BYTE_COUNT | (o->given & CLMEM_GIVEN_HOST_SIZE);
        co.byte_count = count;
        if (write) co.dst_offset = offset;
        else co.src_offset = offset;
        co.host_size = o->host_size;
        co.wait_for = o->wait_for;
        co.num_wait_for = o->num_wait_for;
        co.event = o->event;
        ++st->st.direct_copies;
        st->st.direct_bytes += count;
        err = write ? clmem__copy_buffer_from_host(st->queue, buf, host, &co)
                    : clmem__copy_host_from_buffer(st->queue, host, buf, &co);
        clmem__unlock(&st->lock);
        return err;
    }
    S = st->slot_size;
    K = st->nslots;
    pieces = (count + S - 1) / S;
    memset(ev, 0, sizeof ev);
    clmem__map_note_use(buf.mem, fn);
    err = CL_SUCCESS;
    if (write) {
        const unsigned char *src = CLMEM__CAST(const unsigned char *, host);
        for (i = 0; i < pieces && err == CL_SUCCESS; ++i) {
            unsigned k = (unsigned)(i % K);
            size_t pos = i * S, len = count - pos < S ? count - pos : S;
            if (ev[k]) { /* the slot's previous piece must be on the device */
                err = clWaitForEvents(1, &ev[k]);
                clReleaseEvent(ev[k]);
                ev[k] = NULL;
                if (err != CL_SUCCESS) {
                    call = "clWaitForEvents";
                    break;
                }
            }
            clmem__stager_memcpy(st, st->slot_ptr[k], src + pos, len);
            err = clEnqueueWriteBuffer(st->queue, buf.mem, CL_FALSE, offset + pos, len, st->slot_ptr[k],
                                       o->num_wait_for, o->wait_for, &ev[k]);
            if (err == CL_SUCCESS) clFlush(st->queue);
        }
    } else {
        unsigned char *dst = CLMEM__CAST(unsigned char *, host);
        size_t next = 0; /* the next piece to enqueue */
        for (; next < pieces && next < K && err == CL_SUCCESS; ++next) {
            size_t pos = next * S, len = count - pos < S ? count - pos : S;
            err = clEnqueueReadBuffer(st->queue, buf.mem, CL_FALSE, offset + pos, len, st->slot_ptr[next],
                                      o->num_wait_for, o->wait_for, &ev[next]);
        }
        if (err == CL_SUCCESS) clFlush(st->queue);
        for (i = 0; i < pieces && err == CL_SUCCESS; ++i) {
            unsigned k = (unsigned)(i % K);
            size_t pos = i * S, len = count - pos < S ? count - pos : S;
            err = clWaitForEvents(1, &ev[k]);
            clReleaseEvent(ev[k]);
            ev[k] = NULL;
            if (err != CL_SUCCESS) {
                call = "clWaitForEvents";
                break;
            }
            clmem__stager_memcpy(st, dst + pos, st->slot_ptr[k], len);
            if (next < pieces) { /* the slot is free again: the next piece goes there */
                size_t npos = next * S, nlen = count - npos < S ? count - npos : S;
                err = clEnqueueReadBuffer(st->queue, buf.mem, CL_FALSE, offset + npos, nlen, st->slot_ptr[k],
                                          o->num_wait_for, o->wait_for, &ev[k]);
                if (err == CL_SUCCESS) clFlush(st->queue);
                ++next;
            }
        }
    }
    {
        cl_int derr = clmem__stager_drain(ev, K);
        if (err == CL_SUCCESS && derr != CL_SUCCESS) {
            err = derr;
            call = "clWaitForEvents";
        }
    }
    if (err == CL_SUCCESS) {
        ++st->st.staged_copies;
        st->st.staged_bytes += count;
        st->st.pieces += pieces;
    }
    clmem__unlock(&st->lock);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, call);
    if (o->event) {
        err = clEnqueueMarkerWithWaitList(st->queue, 0, NULL, o->event);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
    }
    return CL_SUCCESS;
}

CLMEM_API cl_int clmem_stager_write_opts(clmem_stager *st, clmem_buffer dst, const void *src,
                                         const clmem_stager_copy_options *opts) {
    return clmem__stager_transfer(st, dst, clmem__unconst(src), true, opts);
}

CLMEM_API cl_int clmem_stager_read_opts(clmem_stager *st, void *dst, clmem_buffer src,
                                        const clmem_stager_copy_options *opts) {
    return clmem__stager_transfer(st, src, dst, false, opts);
}

CLMEM_API cl_int clmem__stager_write_fn(clmem_stager *st, clmem_buffer dst, const void *src,
                                        const clmem_stager_copy_options *opts) {
    return clmem__stager_transfer(st, dst, clmem__unconst(src), true, opts);
}

CLMEM_API cl_int clmem__stager_read_fn(clmem_stager *st, void *dst, clmem_buffer src,
                                       const clmem_stager_copy_options *opts) {
    return clmem__stager_transfer(st, src, dst, false, opts);
}
