/* >>memobj (implementation) */
#include "memobj.h"

/* clmem__enqueue_opts_made(fn, &opts): *opts, or for NULL the defaults (none of the
   enqueue options given); a struct not made by clmem is refused, as every options type's
   (clmem__check_made). */
static cl_int clmem__enqueue_opts_made(const char *fn, const clmem_enqueue_options **opts) {
    static const clmem_enqueue_options none = CLMEM_OPTIONS_INIT;
    if (!*opts) *opts = &none;
    return clmem__check_made(fn, (*opts)->given);
}

/* clmem__marker(queue, opts...): an enqueue that has nothing to do still honours its
   wait list and produces the event that was asked for. */
static cl_int clmem__nothing_to_do(const char *fn, cl_command_queue queue, const cl_event *wait_for, cl_uint num_wait_for,
                                   cl_event *event) {
    cl_int err;
    if (!event) return CL_SUCCESS;
    err = clEnqueueMarkerWithWaitList(queue, num_wait_for, wait_for, event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueMarkerWithWaitList");
}

/* clmem__wait_events(w, n): clWaitForEvents, and CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
   when an event of the list has failed even where the driver's wait says CL_SUCCESS
   (NVIDIA 580 does for a user event set to a negative status). A failed status query
   is its own code. */
static cl_int clmem__wait_events(const cl_event *w, cl_uint n) {
    cl_uint i;
    cl_int err = n ? clWaitForEvents(n, w) : CL_SUCCESS;
    for (i = 0; i < n && err == CL_SUCCESS; ++i) {
        cl_int status = CL_COMPLETE;
        err = clGetEventInfo(w[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (err == CL_SUCCESS && status < 0) err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    return err;
}

/* clmem__host_access_check(fn, what, flags, write, how): CL_INVALID_OPERATION, in
   words, when the object's HOST_* flags forbid the host access (how: "" for a copy,
   "CL_MAP_READ " or the like for a map, written before the sentence). */
static cl_int clmem__host_access_check(const char *fn, const char *what, cl_mem_flags flags, int write, const char *how) {
    char text[200];
    if (!CLMEM__CHECKS || !clmem__host_forbidden(flags, write)) return CL_SUCCESS;
    return clmem__fail(CL_INVALID_OPERATION, fn, "%sthe host may not %s %s: its flags are %s", how,
                       write ? "write" : "read", what, clmem__mem_flags_text(flags, text, sizeof text));
}

CLMEM_API cl_int clmem_mem_get_info(cl_mem mem, clmem_mem_info *info) {
    static const char fn[] = "clmem_mem_get_info";
    cl_int err;
    size_t props_size = 0;
    if (!info) return clmem__fail(CL_INVALID_VALUE, fn, "info is NULL");
    memset(info, 0, sizeof *info);
    if (!mem) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "the memory object is NULL (empty or released handle)");
#define CLMEM__MEMQ(param, field)                                                     \
    err = clGetMemObjectInfo(mem, param, sizeof info->field, &info->field, NULL);     \
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(" #param ")");
    CLMEM__MEMQ(CL_MEM_TYPE, type)
    CLMEM__MEMQ(CL_MEM_FLAGS, flags)
    CLMEM__MEMQ(CL_MEM_SIZE, size)
    CLMEM__MEMQ(CL_MEM_HOST_PTR, host_ptr)
    CLMEM__MEMQ(CL_MEM_MAP_COUNT, map_count)
    CLMEM__MEMQ(CL_MEM_REFERENCE_COUNT, reference_count)
    CLMEM__MEMQ(CL_MEM_CONTEXT, context)
    CLMEM__MEMQ(CL_MEM_ASSOCIATED_MEMOBJECT, associated_memobject)
    CLMEM__MEMQ(CL_MEM_OFFSET, offset)
#undef CLMEM__MEMQ
    /* 2.0 and 3.0 queries: absent on older platforms (CL_INVALID_VALUE: an unknown
       query), which is not an error; any other failure is. */
#ifdef CL_MEM_USES_SVM_POINTER
    err = clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof info->uses_svm_pointer, &info->uses_svm_pointer, NULL);
    if (err == CL_INVALID_VALUE) info->uses_svm_pointer = CL_FALSE;
    else if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(CL_MEM_USES_SVM_POINTER)");
#endif
#ifdef CL_MEM_PROPERTIES
    err = clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, 0, NULL, &props_size);
    if (err != CL_SUCCESS && err != CL_INVALID_VALUE) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(CL_MEM_PROPERTIES)");
    if (err == CL_SUCCESS && props_size > 0 && props_size <= sizeof info->properties) {
        err = clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, props_size, info->properties, NULL);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetMemObjectInfo(CL_MEM_PROPERTIES)");
        {
            size_t n = props_size / sizeof(cl_ulong);
            while (n > 0 && info->properties[n - 1] == 0) --n;
            info->num_properties = n;
        }
    }
#else
    (void)props_size;
#endif
    return CL_SUCCESS;
}

CLMEM_API void *clmem_mem_get_host_array(cl_mem mem, size_t nbytes, cl_int *errcode_ret) {
    static const char fn[] = "clmem_memory_object_get_host_array";
    cl_mem_flags flags = 0;
    size_t size = 0;
    void *host = NULL;
    cl_int err;
    clmem__set_err(errcode_ret, CL_SUCCESS);
    if (!mem) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_MEM_OBJECT, fn, "the memory object is NULL"));
        return NULL;
    }
    if ((err = clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL)) != CL_SUCCESS ||
        (err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL)) != CL_SUCCESS ||
        (err = clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof host, &host, NULL)) != CL_SUCCESS) {
        clmem__set_err(errcode_ret, clmem__cl_fail(err, fn, "clGetMemObjectInfo"));
        return NULL;
    }
    if (!(flags & CL_MEM_USE_HOST_PTR)) {
        char text[160];
        clmem__set_err(errcode_ret,
                       clmem__fail(CL_INVALID_MEM_OBJECT, fn,
                                   "only objects created with CL_MEM_USE_HOST_PTR have a host array (flags are %s)",
                                   clmem__mem_flags_text(flags, text, sizeof text)));
        return NULL;
    }
    if (nbytes > size) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_VALUE, fn,
                                                "nbytes %zu is more than the object's %zu bytes", nbytes, size));
        return NULL;
    }
    return host;
}

CLMEM_API cl_int clmem__object_get_info(cl_mem mem, int stale, clmem_mem_info *info) {
    if (CLMEM__CHECKS && stale) {
        if (info) memset(info, 0, sizeof *info);
        return clmem__fail(CL_INVALID_MEM_OBJECT, "clmem_memory_object_get_info",
                           "obj is a stale pooled buffer handle: its block was released (it may belong to another "
                           "owner now)");
    }
    return clmem_mem_get_info(mem, info);
}

CLMEM_API void *clmem_mem_hostbuf(cl_mem mem) {
    cl_mem_flags flags = 0;
    void *host = NULL;
    if (!mem || clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS) return NULL;
    if (!(flags & CL_MEM_USE_HOST_PTR)) return NULL;
    if (clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof host, &host, NULL) != CL_SUCCESS) return NULL;
    return host;
}

CLMEM_API size_t clmem_mem_hash(cl_mem mem) {
    /* Pointer identity, mixed so that aligned pointers spread over hash buckets. */
    uint64_t x = (uint64_t)(uintptr_t)mem;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

/* clmem__enqueue_migrate: clEnqueueMigrateMemObjects, one call at a time in the
   process. NVIDIA's OpenCL 3.0 driver (580.159) crashes when threads migrate onto one
   queue at once, and when a migration meets another thread's write on that queue
   (bare calls, 4 threads x 100 rounds: every run; concurrent clCreateBuffer, concurrent
   writes, and one queue per thread do not crash). The lock covers the first case; a
   migration is an enqueue of microseconds, so it costs nothing measurable. */
static clmem__mutex clmem__migrate_lock = CLMEM__MUTEX_INIT;
static cl_int clmem__enqueue_migrate(cl_command_queue queue, cl_uint n, const cl_mem *objects,
                                     cl_mem_migration_flags flags, cl_uint num_wait, const cl_event *wait,
                                     cl_event *event) {
    cl_int err;
    clmem__lock(&clmem__migrate_lock);
    err = clEnqueueMigrateMemObjects(queue, n, objects, flags, num_wait, wait, event);
    clmem__unlock(&clmem__migrate_lock);
    return err;
}

CLMEM_API cl_int clmem_enqueue_migrate_mem_objects_opts(cl_command_queue queue, const cl_mem *objects, cl_uint n,
                                                        cl_mem_migration_flags flags, const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_migrate_mem_objects";
    const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    cl_device_id dev = NULL;
    cl_int err;
    cl_uint i;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if (CLMEM__CHECKS) {
        cl_context qctx = NULL;
        if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
        if ((err = clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for)) != CL_SUCCESS) return err;
        if (n == 0 || objects == NULL)
            return clmem__fail(CL_INVALID_VALUE, fn, "no memory objects given (objects %p, n %u)", (const void *)objects, n);
        if (flags & ~known)
            return clmem__fail(CL_INVALID_VALUE, fn, "flags 0x%llx has unknown bits 0x%llx", (unsigned long long)flags,
                               (unsigned long long)(flags & ~known));
        err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
        if (err == CL_INVALID_COMMAND_QUEUE)
            return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is not a valid command queue", (void *)queue);
        if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
        for (i = 0; i < n; ++i) {
            cl_context c = NULL;
            if (!objects[i]) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "objects[%u] is NULL", i);
            err = clGetMemObjectInfo(objects[i], CL_MEM_CONTEXT, sizeof c, &c, NULL);
            if (err == CL_INVALID_MEM_OBJECT)
                return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "objects[%u] is not a valid memory object", i);
            if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetMemObjectInfo", "CL_MEM_CONTEXT");
            if (c != qctx)
                return clmem__fail(CL_INVALID_CONTEXT, fn, "objects[%u] belongs to context %p, the queue to %p", i,
                                   (void *)c, (void *)qctx);
        }
    }
    err = clmem__enqueue_migrate(queue, n, objects, flags, opts->num_wait_for, opts->wait_for, opts->event);
    if (err == CL_SUCCESS) return CL_SUCCESS;
    /* asked only on failure (it cost a third of a call when asked every time) */
    if (CLMEM__CHECKS) {
        int version = 0;
        cl_int qerr = clmem__queue_device_of(fn, queue, &dev);
        if (qerr == CL_SUCCESS) qerr = clmem__device_version(fn, dev, &version);
        if (qerr != CL_SUCCESS) return qerr;
        if (version < 120)
            return clmem__fail(CL_INVALID_OPERATION, fn, "the queue's device is older than OpenCL 1.2 (no migration)");
    }
    return clmem__cl_fail(err, fn, "clEnqueueMigrateMemObjects");
}

/* ---- the live-map table ----
   Maps are made and released in map.c; buffer and image releases and copies ask
   here whether their memory is mapped. One record per map clmem made and has not released (a multiset: two maps of one
   region may share a pointer). A record is entered, with ptr NULL, before the driver
   is called, so that overlapping maps made at the same time from two threads cannot
   both pass the overlap check; the lock is never held across a driver call. */

static size_t clmem__map_count, clmem__map_capacity;
/* clmem__map_live mirrors clmem__map_count for the lock-free fast path of
   clmem__map_note_use: every copy asks, and with no live maps it must cost nothing. */
static size_t clmem__map_live;
#define CLMEM__MAP_PUBLISH() clmem__atomic_store_size(&clmem__map_live, clmem__map_count)
#define CLMEM__MAP_ANY_LIVE() (clmem__atomic_load_size(&clmem__map_live) != 0)
static unsigned long long clmem__map_serial;

CLMEM_API int clmem__maps_live(void) { return CLMEM__MAP_ANY_LIVE(); }

#define CLMEM__MAP_WRITES(flags) (((flags) & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0)

static bool clmem__map_boxes_meet(const clmem__map_record *a, const size_t *lo, const size_t *hi) {
    int i;
    for (i = 0; i < 3; ++i)
        if (!(a->lo[i] < hi[i] && lo[i] < a->hi[i])) return false;
    return true;
}

static void clmem__map_where(const clmem__map_record *r, char *buf, size_t size) {
    if (r->file)
        snprintf(buf, size, "map #%llu made at %s:%d", r->serial, r->file, r->line);
    else
        snprintf(buf, size, "map #%llu", r->serial);
}

/* clmem__map_reserve(fn, rec): enter rec (ptr NULL) unless it overlaps a live map of
   the same memory where either is for writing. Returns CL_SUCCESS and sets the
   record's serial. */
static cl_int clmem__map_reserve(const char *fn, clmem__map_record *rec) {
    size_t i;
    cl_int result = CL_SUCCESS;
    clmem__lock(&clmem__map_lock);
    if (CLMEM__CHECKS) {
        for (i = 0; i < clmem__map_count; ++i) {
            const clmem__map_record *r = &clmem__maps[i];
            if (r->root == rec->root && (CLMEM__MAP_WRITES(r->flags) || CLMEM__MAP_WRITES(rec->flags)) &&
                clmem__map_boxes_meet(r, rec->lo, rec->hi)) {
                char where[320];
                /* everything the message needs is copied while the lock is held: once it is
                   released another thread may remove records and shrink the table */
                const char *use = CLMEM__MAP_WRITES(r->flags) ? "writing" : "reading";
                clmem__map_where(r, where, sizeof where);
                clmem__unlock(&clmem__map_lock);
                return clmem__fail(CL_INVALID_OPERATION, fn,
                                   "the region overlaps a live map for %s (%s); overlapping maps are allowed only "
                                   "when all of them are for reading: release that map first",
                                   use, where);
            }
        }
    }
    if (clmem__map_count == clmem__map_capacity) {
        size_t cap = clmem__map_capacity ? clmem__map_capacity * 2 : 16;
        clmem__map_record *grown =
            CLMEM__CAST(clmem__map_record *, CLMEM_REALLOC(clmem__maps, cap * sizeof(clmem__map_record)));
        if (!grown) {
            result = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for the live-map table (%zu entries)", cap);
        } else {
            clmem__maps = grown;
            clmem__map_capacity = cap;
        }
    }
    if (result == CL_SUCCESS) {
        rec->serial = ++clmem__map_serial;
        rec->ptr = NULL;
        clmem__maps[clmem__map_count++] = *rec;
        CLMEM__MAP_PUBLISH();
    }
    clmem__unlock(&clmem__map_lock);
    return result;
}

/* Index of the record with this serial, or clmem__map_count. Lock held. */
static size_t clmem__map_find(unsigned long long serial) {
    size_t i;
    for (i = 0; i < clmem__map_count; ++i)
        if (clmem__maps[i].serial == serial) return i;
    return clmem__map_count;
}

/* Remove record i (order kept, so "the most recent" stays meaningful). Lock held. */
static void clmem__map_remove_at(size_t i) {
    memmove(clmem__maps + i, clmem__maps + i + 1, (clmem__map_count - i - 1) * sizeof(clmem__map_record));
    --clmem__map_count;
    CLMEM__MAP_PUBLISH();
    if (clmem__map_count == 0) {
        CLMEM_FREE(clmem__maps);
        clmem__maps = NULL;
        clmem__map_capacity = 0;
    }
}

static void clmem__map_cancel(unsigned long long serial) {
    size_t i;
    clmem__lock(&clmem__map_lock);
    i = clmem__map_find(serial);
    if (i < clmem__map_count) clmem__map_remove_at(i);
    clmem__unlock(&clmem__map_lock);
}

static void clmem__map_publish(unsigned long long serial, void *ptr, cl_command_queue queue, cl_event event) {
    size_t i;
    clmem__lock(&clmem__map_lock);
    i = clmem__map_find(serial);
    if (i < clmem__map_count) {
        clmem__maps[i].ptr = ptr;
        clmem__maps[i].queue = queue;
        clmem__maps[i].event = event;
    }
    clmem__unlock(&clmem__map_lock);
}

/* clmem__map_drop(serial): the map was unmapped: forget it and release what it held. */
static void clmem__map_drop(unsigned long long serial) {
    size_t i;
    clmem__map_record rec;
    clmem__lock(&clmem__map_lock);
    i = clmem__map_find(serial);
    if (i == clmem__map_count) {
        clmem__unlock(&clmem__map_lock);
        return;
    }
    rec = clmem__maps[i];
    clmem__map_remove_at(i);
    clmem__unlock(&clmem__map_lock);
    clReleaseMemObject(rec.mem);
    clReleaseCommandQueue(rec.queue);
    if (rec.event) clReleaseEvent(rec.event);
}

/* clmem__map_unclaim(serial): the unmap failed; the map stays live and releasable. */
static void clmem__map_unclaim(unsigned long long serial) {
    size_t i;
    clmem__lock(&clmem__map_lock);
    i = clmem__map_find(serial);
    if (i < clmem__map_count) clmem__maps[i].busy = 0;
    clmem__unlock(&clmem__map_lock);
}

CLMEM_API size_t clmem_live_map_count(cl_mem mem) {
    size_t i, n = 0;
    clmem__lock(&clmem__map_lock);
    for (i = 0; i < clmem__map_count; ++i)
        if (clmem__maps[i].ptr && (mem == NULL || clmem__maps[i].mem == mem)) ++n;
    clmem__unlock(&clmem__map_lock);
    return n;
}

/* clmem__map_note_use(mem, fn): called by releases and copies; reports (log
   warning) when mem is mapped for writing through clmem: mem itself, its root buffer
   (a sub-buffer of a mapped buffer, where the ranges meet) or a sub-buffer of it.
   With no live map it is one load, inlined (the search is out of line). */
static CLMEM__NOINLINE void clmem__map_note_use_slow(cl_mem mem, const char *fn) {
    size_t i, sub_lo = 0, sub_hi = 0;
    cl_mem parent = NULL;
    bool parent_known = false;
    char where[320];
    clmem__lock(&clmem__map_lock);
    for (i = 0; i < clmem__map_count; ++i) {
        const clmem__map_record *r = &clmem__maps[i];
        if (!r->ptr || !CLMEM__MAP_WRITES(r->flags)) continue;
        if (r->mem == mem || r->root == mem) break;
        if (!parent_known) { /* is mem a sub-buffer of a mapped root? (asked once, only while maps exist) */
            size_t off = 0, size = 0;
            parent_known = true;
            if (clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) != CL_SUCCESS ||
                clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof off, &off, NULL) != CL_SUCCESS ||
                clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS)
                parent = NULL;
            sub_lo = off;
            sub_hi = off + size;
        }
        if (parent != NULL && r->root == parent && r->lo[0] < sub_hi && sub_lo < r->hi[0]) break;
    }
    if (i < clmem__map_count) {
        clmem__map_where(&clmem__maps[i], where, sizeof where);
        clmem__unlock(&clmem__map_lock);
        clmem__warn(fn,
                    "memory object %p is mapped for writing (%s); the device may not see the host's writes "
                    "until clmem_memory_map_release",
                    (void *)mem, where);
        return;
    }
    clmem__unlock(&clmem__map_lock);
}

static void clmem__map_note_use(cl_mem mem, const char *fn) {
    if (mem != NULL && CLMEM__MAP_ANY_LIVE()) clmem__map_note_use_slow(mem, fn);
}

/* clmem__release_mem(fn, mem): the release of a handle's cl_mem (the handle already
   emptied): a warning while it is mapped for writing (clmem__map_note_use), then
   clReleaseMemObject, its failure named in fn's message. Out of line: inlined, it made
   clmem_buffer_release too large to inline into a pooled pair (10 instructions more a
   pair, bench/pool_count.sh). */
static CLMEM__NOINLINE cl_int clmem__release_mem(const char *fn, cl_mem mem) {
    cl_int err;
    clmem__map_note_use(mem, fn);
    err = clReleaseMemObject(mem);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clReleaseMemObject");
}
