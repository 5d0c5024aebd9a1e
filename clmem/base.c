/* >>base (implementation) */
#include "base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Allocation overrides: define all three of CLMEM_MALLOC, CLMEM_REALLOC, CLMEM_FREE,
   or none. CLMEM_ASSERT guards clmem's own invariants only (never user input). */
#if defined(CLMEM_MALLOC) && defined(CLMEM_REALLOC) && defined(CLMEM_FREE)
/* all given */
#elif !defined(CLMEM_MALLOC) && !defined(CLMEM_REALLOC) && !defined(CLMEM_FREE)
#define CLMEM_MALLOC(sz) malloc(sz)
#define CLMEM_REALLOC(p, sz) realloc(p, sz)
#define CLMEM_FREE(p) free(p)
#else
#error "clmem: define all or none of CLMEM_MALLOC, CLMEM_REALLOC and CLMEM_FREE"
#endif
#ifndef CLMEM_ASSERT
#include <assert.h>
#define CLMEM_ASSERT(c) assert(c)
#endif

#ifdef __cplusplus
#define CLMEM__CAST(T, x) static_cast<T>(x)
#else
#define CLMEM__CAST(T, x) ((T)(x))
#endif

/* clmem__unconst(p): drop const from a pointer OpenCL takes as void * but only reads
   (a COPY_HOST_PTR source, a write's source). Clean in C and C++. */
static inline void *clmem__unconst(const void *p) {
    union { const void *c; void *m; } u;
    u.c = p;
    return u.m;
}

/* clmem__locked_size(m, v) / clmem__locked_set_size(m, v, value): read or write a
   size_t setting that m guards (a stager's or a device link's threshold). */
static size_t clmem__locked_size(clmem__mutex *m, const size_t *v) {
    size_t r;
    clmem__lock(m);
    r = *v;
    clmem__unlock(m);
    return r;
}
static void clmem__locked_set_size(clmem__mutex *m, size_t *v, size_t value) {
    clmem__lock(m);
    *v = value;
    clmem__unlock(m);
}

/* clmem__reg_add(r, obj, tag): a new live id for obj; 0 when out of host memory. */
static uint64_t clmem__reg_add(clmem__registry *r, void *obj, int tag) {
    uint32_t i;
    uint64_t id = 0;
    clmem__lock(&r->lock);
    if (r->free_head) {
        i = r->free_head - 1;
        r->free_head = r->slots[i].next_free;
    } else {
        if (r->n == r->cap) {
            uint32_t cap = r->cap ? r->cap * 2 : 64;
            clmem__reg_slot *s;
            if (cap > 0x7fffffffu) goto done;
            s = CLMEM__CAST(clmem__reg_slot *, CLMEM_REALLOC(r->slots, sizeof(clmem__reg_slot) * cap));
            if (!s) goto done;
            r->slots = s;
            r->cap = cap;
        }
        i = r->n++;
        r->slots[i].gen = 1;
    }
    r->slots[i].obj = obj;
    r->slots[i].tag = tag;
    r->slots[i].busy = true;
    r->slots[i].next_free = 0;
    id = ((uint64_t)r->slots[i].gen << 32) | (uint64_t)(i + 1);
done:
    clmem__unlock(&r->lock);
    return id;
}

/* locked: the slot of a live (not detached) id with this tag, or NULL */
static clmem__reg_slot *clmem__reg_slot_of(clmem__registry *r, uint64_t id, int tag) {
    uint32_t i = (uint32_t)(id & 0xffffffffu);
    clmem__reg_slot *s;
    if (i == 0 || i > r->n) return NULL;
    s = &r->slots[i - 1];
    if (!s->busy || s->obj == NULL || s->gen != (uint32_t)(id >> 32) || s->tag != tag) return NULL;
    return s;
}

/* clmem__reg_find(r, id, tag): the object of a live id, or NULL. With detach = true
   the object is taken out (nobody finds it from now on; the id stays reserved for
   clmem__reg_restore or clmem__reg_remove). */
static void *clmem__reg_find(clmem__registry *r, uint64_t id, int tag, bool detach) {
    clmem__reg_slot *s;
    void *obj = NULL;
    if (id == 0) return NULL;
    clmem__lock(&r->lock);
    s = clmem__reg_slot_of(r, id, tag);
    if (s) {
        obj = s->obj;
        if (detach) s->obj = NULL;
    }
    clmem__unlock(&r->lock);
    return obj;
}

/* clmem__reg_restore(r, id, obj): put back what a failed release detached. */
static void clmem__reg_restore(clmem__registry *r, uint64_t id, void *obj) {
    clmem__lock(&r->lock);
    r->slots[(id & 0xffffffffu) - 1].obj = obj;
    clmem__unlock(&r->lock);
}

/* clmem__reg_remove(r, id): finish a detach: the id is dead for good, the slot free. */
static void clmem__reg_remove(clmem__registry *r, uint64_t id) {
    uint32_t i = (uint32_t)(id & 0xffffffffu) - 1;
    clmem__lock(&r->lock);
    r->slots[i].busy = false;
    r->slots[i].obj = NULL;
    if (++r->slots[i].gen == 0) r->slots[i].gen = 1;
    r->slots[i].next_free = r->free_head;
    r->free_head = i + 1;
    clmem__unlock(&r->lock);
}

/* ---- error names ---- */
#define CLMEM__ERROR_NAMES(X)                                                                  \
    X(0, CL_SUCCESS) X(-1, CL_DEVICE_NOT_FOUND) X(-2, CL_DEVICE_NOT_AVAILABLE)                   \
    X(-3, CL_COMPILER_NOT_AVAILABLE) X(-4, CL_MEM_OBJECT_ALLOCATION_FAILURE)                     \
    X(-5, CL_OUT_OF_RESOURCES) X(-6, CL_OUT_OF_HOST_MEMORY) X(-7, CL_PROFILING_INFO_NOT_AVAILABLE) \
    X(-8, CL_MEM_COPY_OVERLAP) X(-9, CL_IMAGE_FORMAT_MISMATCH) X(-10, CL_IMAGE_FORMAT_NOT_SUPPORTED) \
    X(-11, CL_BUILD_PROGRAM_FAILURE) X(-12, CL_MAP_FAILURE) X(-13, CL_MISALIGNED_SUB_BUFFER_OFFSET) \
    X(-14, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) X(-15, CL_COMPILE_PROGRAM_FAILURE)       \
    X(-16, CL_LINKER_NOT_AVAILABLE) X(-17, CL_LINK_PROGRAM_FAILURE) X(-18, CL_DEVICE_PARTITION_FAILED) \
    X(-19, CL_KERNEL_ARG_INFO_NOT_AVAILABLE) X(-30, CL_INVALID_VALUE) X(-31, CL_INVALID_DEVICE_TYPE) \
    X(-32, CL_INVALID_PLATFORM) X(-33, CL_INVALID_DEVICE) X(-34, CL_INVALID_CONTEXT)               \
    X(-35, CL_INVALID_QUEUE_PROPERTIES) X(-36, CL_INVALID_COMMAND_QUEUE) X(-37, CL_INVALID_HOST_PTR) \
    X(-38, CL_INVALID_MEM_OBJECT) X(-39, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)                      \
    X(-40, CL_INVALID_IMAGE_SIZE) X(-41, CL_INVALID_SAMPLER) X(-42, CL_INVALID_BINARY)             \
    X(-43, CL_INVALID_BUILD_OPTIONS) X(-44, CL_INVALID_PROGRAM) X(-45, CL_INVALID_PROGRAM_EXECUTABLE) \
    X(-46, CL_INVALID_KERNEL_NAME) X(-47, CL_INVALID_KERNEL_DEFINITION) X(-48, CL_INVALID_KERNEL)  \
    X(-49, CL_INVALID_ARG_INDEX) X(-50, CL_INVALID_ARG_VALUE) X(-51, CL_INVALID_ARG_SIZE)          \
    X(-52, CL_INVALID_KERNEL_ARGS) X(-53, CL_INVALID_WORK_DIMENSION) X(-54, CL_INVALID_WORK_GROUP_SIZE) \
    X(-55, CL_INVALID_WORK_ITEM_SIZE) X(-56, CL_INVALID_GLOBAL_OFFSET) X(-57, CL_INVALID_EVENT_WAIT_LIST) \
    X(-58, CL_INVALID_EVENT) X(-59, CL_INVALID_OPERATION) X(-60, CL_INVALID_GL_OBJECT)             \
    X(-61, CL_INVALID_BUFFER_SIZE) X(-62, CL_INVALID_MIP_LEVEL) X(-63, CL_INVALID_GLOBAL_WORK_SIZE) \
    X(-64, CL_INVALID_PROPERTY) X(-65, CL_INVALID_IMAGE_DESCRIPTOR) X(-66, CL_INVALID_COMPILER_OPTIONS) \
    X(-67, CL_INVALID_LINKER_OPTIONS) X(-68, CL_INVALID_DEVICE_PARTITION_COUNT)                  \
    X(-69, CL_INVALID_PIPE_SIZE) X(-70, CL_INVALID_DEVICE_QUEUE) X(-71, CL_INVALID_SPEC_ID)        \
    X(-72, CL_MAX_SIZE_RESTRICTION_EXCEEDED)                                                     \
    X(-1000, CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR) X(-1001, CL_PLATFORM_NOT_FOUND_KHR)          \
    X(-1002, CL_INVALID_D3D10_DEVICE_KHR) X(-1003, CL_INVALID_D3D10_RESOURCE_KHR)                 \
    X(-1004, CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR) X(-1005, CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR) \
    X(-1006, CL_INVALID_D3D11_DEVICE_KHR) X(-1007, CL_INVALID_D3D11_RESOURCE_KHR)                 \
    X(-1008, CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR) X(-1009, CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR) \
    X(-1010, CL_INVALID_DX9_MEDIA_ADAPTER_KHR) X(-1011, CL_INVALID_DX9_MEDIA_SURFACE_KHR)         \
    X(-1012, CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR) X(-1013, CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR) \
    X(-1057, CL_DEVICE_PARTITION_FAILED_EXT) X(-1058, CL_INVALID_PARTITION_COUNT_EXT)             \
    X(-1059, CL_INVALID_PARTITION_NAME_EXT) X(-1092, CL_EGL_RESOURCE_NOT_ACQUIRED_KHR)            \
    X(-1093, CL_INVALID_EGL_OBJECT_KHR) X(-1094, CL_INVALID_ACCELERATOR_INTEL)                    \
    X(-1095, CL_INVALID_ACCELERATOR_TYPE_INTEL) X(-1096, CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL) \
    X(-1097, CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL) X(-1098, CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL) \
    X(-1099, CL_INVALID_VA_API_MEDIA_SURFACE_INTEL)                                               \
    X(-1100, CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL)                                      \
    X(-1101, CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL)                                          \
    X(-1108, CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM) X(-1121, CL_CONTEXT_TERMINATED_KHR)   \
    X(-1138, CL_INVALID_COMMAND_BUFFER_KHR) X(-1139, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR)         \
    X(-1140, CL_INCOMPATIBLE_COMMAND_QUEUE_KHR) X(-1141, CL_INVALID_MUTABLE_COMMAND_KHR)          \
    X(-1142, CL_INVALID_SEMAPHORE_KHR)

/* Every clmem code lies in [CLMEM_ERROR_LAST, CLMEM_ERROR_FIRST]; with the switch below,
   which refuses a value twice, the codes fill that range. */
#define CLMEM__RESULT_IN_RANGE(name, value, what)                              \
    CLMEM__STATIC_ASSERT(name <= CLMEM_ERROR_FIRST && name >= CLMEM_ERROR_LAST, \
                         #name " lies outside [CLMEM_ERROR_LAST, CLMEM_ERROR_FIRST]");
CLMEM__RESULT_CODES(CLMEM__RESULT_IN_RANGE)
#undef CLMEM__RESULT_IN_RANGE

CLMEM_API const char *clmem_error_string(cl_int code) {
    switch (code) {
#define CLMEM__ERROR_CASE(value, name) case value: return #name;
        CLMEM__ERROR_NAMES(CLMEM__ERROR_CASE)
#undef CLMEM__ERROR_CASE
#define CLMEM__RESULT_CASE(name, value, what) case name: return #name;
        CLMEM__RESULT_CODES(CLMEM__RESULT_CASE)
#undef CLMEM__RESULT_CASE
    default: return "UNKNOWN_ERROR_CODE";
    }
}

/* ---- last error message and log ---- */
static clmem__mutex clmem__log_mutex = CLMEM__MUTEX_INIT;
static clmem_log_fn clmem__log_fn;
static void *clmem__log_user;

CLMEM_API const char *clmem_last_error_message(void) { return clmem__message; }
CLMEM_API void clmem_clear_error(void) { clmem__message[0] = '\0'; }

CLMEM_API void clmem_set_log_callback(clmem_log_fn fn, void *user) {
    clmem__lock(&clmem__log_mutex);
    clmem__log_fn = fn;
    clmem__log_user = user;
    clmem__unlock(&clmem__log_mutex);
}

CLMEM_API void clmem_log_stderr(clmem_log_level level, cl_int code, const char *message, void *user) {
    static const char *const names[] = {"?", "error", "warning", "info"};
    (void)user;
    if (!message) message = "(no message)";
    if (code != CL_SUCCESS)
        fprintf(stderr, "clmem: %s: %s [%s]\n", names[level <= 3 ? level : 0], message, clmem_error_string(code));
    else
        fprintf(stderr, "clmem: %s: %s\n", names[level <= 3 ? level : 0], message);
}

static inline void clmem__log(clmem_log_level level, cl_int code, const char *message) {
    clmem_log_fn fn;
    void *user;
    clmem__lock(&clmem__log_mutex);
    fn = clmem__log_fn;
    user = clmem__log_user;
    clmem__unlock(&clmem__log_mutex);
    if (fn) fn(level, code, message, user);
}

/* clmem__format(buf, size, fn, fmt, ap): "fn: <formatted>" into buf, cut to size. */
static inline void clmem__format(char *buf, size_t size, const char *fn, const char *fmt, va_list ap) {
    int n = snprintf(buf, size, "%s: ", fn);
    if (n < 0) n = 0;
    if ((size_t)n < size) vsnprintf(buf + n, size - (size_t)n, fmt, ap);
}

/* clmem__fail(code, fn, fmt, ...): record "fn: <formatted>" as this thread's message,
   log it, and return code. Every rejection in clmem goes through here. */
static inline CLMEM__PRINTF(3, 4) cl_int clmem__fail(cl_int code, const char *fn, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    clmem__format(clmem__message, sizeof clmem__message, fn, fmt, ap);
    va_end(ap);
    clmem__log(CLMEM_LOG_ERROR, code, clmem__message);
    return code;
}

/* clmem__cl_fail(code, fn, call): an OpenCL call failed; say which and with what. */
static inline cl_int clmem__cl_fail(cl_int code, const char *fn, const char *call) {
    return clmem__fail(code, fn, "%s failed with %s (%d)", call, clmem_error_string(code), (int)code);
}

/* clmem__warn(fn, fmt, ...): a warning, to the log only (the error message is kept). */
static inline CLMEM__PRINTF(2, 3) void clmem__warn(const char *fn, const char *fmt, ...) {
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    clmem__format(buf, sizeof buf, fn, fmt, ap);
    va_end(ap);
    clmem__log(CLMEM_LOG_WARNING, CL_SUCCESS, buf);
}

static inline void clmem__set_err(cl_int *errcode_ret, cl_int code) {
    if (errcode_ret) *errcode_ret = code;
}

/* clmem__null_with(errcode_ret, err): a constructor's failure exit: *errcode_ret = err
   (where given), and NULL to return. */
static inline void *clmem__null_with(cl_int *errcode_ret, cl_int err) {
    clmem__set_err(errcode_ret, err);
    return NULL;
}

/* clmem__queue_follow(fn, &held, queue, old_call, new_call): memory bound to *held
   moves to queue: queue waits (a marker) for everything enqueued in *held so far, then
   holds a reference in its place (old_call, new_call: how a failed marker in each
   queue is named). Returns CL_SUCCESS, or the failed marker's code with a message. */
static inline cl_int clmem__queue_follow(const char *fn, cl_command_queue *held, cl_command_queue queue,
                                         const char *old_call, const char *new_call) {
    if (*held) {
        cl_event ev = NULL;
        cl_int err = clEnqueueMarkerWithWaitList(*held, 0, NULL, &ev);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, old_call);
        err = clEnqueueMarkerWithWaitList(queue, 1, &ev, NULL);
        clReleaseEvent(ev);
        if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, new_call);
        clReleaseCommandQueue(*held);
    }
    clRetainCommandQueue(queue);
    *held = queue;
    return CL_SUCCESS;
}

/* clmem__queue_unbind(fn, &held): memory bound to *held is bound to no queue: what
   *held has enqueued completes (clFinish), then its reference goes. Returns
   CL_SUCCESS (also when *held is NULL), or clFinish's code with a message. */
static inline cl_int clmem__queue_unbind(const char *fn, cl_command_queue *held) {
    cl_int err;
    if (!*held) return CL_SUCCESS;
    if ((err = clFinish(*held)) != CL_SUCCESS) return clmem__cl_fail(err, fn, "clFinish");
    clReleaseCommandQueue(*held);
    *held = NULL;
    return CL_SUCCESS;
}

/* clmem__alloc_for(size, fn, what, errcode_ret): size bytes of host memory, or NULL with
   *errcode_ret (where given) = CL_OUT_OF_HOST_MEMORY and the message
   "fn: out of host memory for <what>". */
static inline void *clmem__alloc_for(size_t size, const char *fn, const char *what, cl_int *errcode_ret) {
    void *p = CLMEM_MALLOC(size);
    if (!p) clmem__set_err(errcode_ret, clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory for %s", what));
    return p;
}

/* ---- arithmetic that cannot wrap ---- */
static inline bool clmem__add_ok(size_t a, size_t b, size_t *out) {
    if (a > SIZE_MAX - b) return false;
    *out = a + b;
    return true;
}
static inline bool clmem__mul_ok(size_t a, size_t b, size_t *out) {
    if (a != 0 && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}
/* clmem__range_ok(offset, count, size): [offset, offset+count) lies within [0, size). */
static inline bool clmem__range_ok(size_t offset, size_t count, size_t size) {
    return offset <= size && count <= size - offset;
}

/* ---- common argument checks ---- */
/* clmem__check_wait_list(fn, wait_for, n): the wait list of an enqueue, checked by every
   entry point that takes one (copies, fills, maps, unmaps, migrations, SVM frees, USM
   advice, external memory, semaphores), before it enqueues anything, marker of an
   enqueue with nothing to do included:
   - well formed: CL_INVALID_EVENT_WAIT_LIST for a NULL list with n > 0, a list with
     n == 0, or a NULL event;
   - no event of it has already failed (a negative CL_EVENT_COMMAND_EXECUTION_STATUS):
     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, blocking or not. A blocking call
     that waits on a failed user event hangs in PoCL 3.1 (reproduced with bare OpenCL
     calls), where the spec's answer is this code. A non-blocking command waiting on a
     failed event is to be terminated (never run; clSetUserEventStatus), but PoCL 3.1
     leaves it queued for ever, and every later command of its in-order queue behind
     it: refusing it gives what termination means on every driver (nothing done),
     reported at the call instead of through its event. One clGetEventInfo per event,
     only when a wait list is given. A failure of the status query itself keeps its
     own code and names clGetEventInfo. (An event that fails after this check is the
     driver's to report, through the command's event.) */
static inline cl_int clmem__check_wait_list(const char *fn, const cl_event *wait_for, cl_uint num_wait_for) {
    cl_uint i;
    if (!CLMEM__CHECKS) return CL_SUCCESS;
    if (num_wait_for > 0 && wait_for == NULL)
        return clmem__fail(CL_INVALID_EVENT_WAIT_LIST, fn, "num_wait_for is %u but wait_for is NULL", num_wait_for);
    if (num_wait_for == 0 && wait_for != NULL)
        return clmem__fail(CL_INVALID_EVENT_WAIT_LIST, fn,
                           "wait_for is given but num_wait_for is 0 (use CLMEM_WAIT_FOR(...) to set both)");
    for (i = 0; i < num_wait_for; ++i)
        if (wait_for[i] == NULL)
            return clmem__fail(CL_INVALID_EVENT_WAIT_LIST, fn, "wait_for[%u] is NULL", i);
    for (i = 0; i < num_wait_for; ++i) {
        cl_int status = CL_COMPLETE;
        cl_int err = clGetEventInfo(wait_for[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (err != CL_SUCCESS)
            return clmem__fail(err, fn, "clGetEventInfo(wait_for[%u], CL_EVENT_COMMAND_EXECUTION_STATUS) failed with %s "
                               "(%d)", i, clmem_error_string(err), (int)err);
        if (status < 0)
            return clmem__fail(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, fn,
                               "wait_for[%u] (event %p) has failed with status %d (%s): nothing is enqueued "
                               "(its commands would never run)", i, (void *)wait_for[i], (int)status, clmem_error_string(status));
    }
    return CL_SUCCESS;
}

/* clmem__check_made(fn, given): options whose type has a CLMEM_GIVEN_* field must carry
   CLMEM_OPTIONS_MARK (NAMED OPTIONS in base.h): one without it cannot tell a zero it
   means from a default, and is refused rather than guessed at. */
static inline cl_int clmem__check_made(const char *fn, unsigned given) {
    if (CLMEM__CHECKS && !(given & CLMEM_OPTIONS_MARK))
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "the options struct was not made by clmem (given 0x%x has no CLMEM_OPTIONS_MARK), so a zero "
                           "field could mean 0 or the default: start it from its type's initializer "
                           "(CLMEM_COPY_OPTIONS_INIT for clmem_copy_options, CLMEM_MAP_OPTIONS_INIT, ...; "
                           "CLMEM_OPTIONS_INIT where every option defaults to 0), or pass NULL for every default",
                           given);
    return CL_SUCCESS;
}

/* ---- options built by hand: "left out" fields (NAMED OPTIONS in base.h) ----
   A type's table has a row per field with a CLMEM_GIVEN_* bit (the type's
   CLMEM__*_UNSET list): where the field starts, the size of the value and how many
   values the field holds (an array's element 0 holds the "left out" value). */
typedef struct clmem__unset_row {
    size_t offset, size, count;
    unsigned bit;
} clmem__unset_row;
#define CLMEM__UNSET_ROW(T, field, element, value, bit)                                                              \
    {offsetof(T, field), sizeof(((T *)0)->field element),                                                        \
     sizeof(((T *)0)->field) / sizeof(((T *)0)->field element), bit},
#define CLMEM__UNSET_SIZE_OK(T, field, element, value, bit) &&sizeof(value) == sizeof(((T *)0)->field element)
/* CLMEM__UNSET_TABLE(T, LIST): the table clmem__unset_T of options type T, and
   clmem__defaults_T, the options NULL stands for (every default) */
#define CLMEM__UNSET_TABLE(T, LIST)                                                                                  \
    CLMEM__STATIC_ASSERT(offsetof(T, given) == 0 LIST(CLMEM__UNSET_SIZE_OK, T),                                      \
                         "clmem: " #T ": given first, each left-out value as wide as its field");                    \
    static const clmem__unset_row clmem__unset_##T[] = {LIST(CLMEM__UNSET_ROW, T){0, 0, 0, 0}};                      \
    static const T clmem__defaults_##T = CLMEM__OPTIONS_DEFAULTS;

/* clmem__options_resolve(opts, local, size, rows): *opts (size bytes) copied to local
   with each field of the table rows read: left out (every byte 0xC1; an array's other
   elements 0) becomes 0 without its bit, anything else sets its bit (bits already set
   stay set); CLMEM__OPTIONS_UNSET cleared. Returns local. */
static CLMEM__NOINLINE const void *clmem__options_resolve(const void *opts, void *local, size_t size,
                                                          const clmem__unset_row *rows) {
    unsigned char *o = (unsigned char *)local;
    unsigned given;
    memcpy(local, opts, size);
    memcpy(&given, o, sizeof given);
    for (; rows->size; rows++) {
        unsigned char *f = o + rows->offset;
        size_t k, rest = rows->size * (rows->count - 1);
        bool unset = true;
        for (k = 0; k < rows->size; k++)
            if (f[k] != 0xC1u) unset = false;
        if (unset) {
            memset(f, 0, rows->size);
            for (k = 0; k < rest; k++)
                if (f[rows->size + k]) unset = false; /* another element written: the array is */
        }
        if (!unset) given |= rows->bit;
    }
    given &= ~CLMEM__OPTIONS_UNSET;
    memcpy(o, &given, sizeof given);
    return local;
}
/* CLMEM__OPTIONS_IN(T, opts, local): the options of type T an *_opts function runs
   with: T's defaults for NULL (clmem__defaults_T of CLMEM__UNSET_TABLE), opts itself as
   the macros and the C++ forms make them, and for a struct from T's initializer its
   fields read into *local (clmem__options_resolve). */
#define CLMEM__OPTIONS_IN(T, opts, local)                                                                             \
    (!(opts) ? &clmem__defaults_##T                                                                                   \
             : ((opts)->given & CLMEM__OPTIONS_UNSET) ? (const T *)clmem__options_resolve(opts, local, sizeof(T),     \
                                                                                         clmem__unset_##T)            \
                                                    : (opts))

static inline cl_int clmem__check_queue(const char *fn, cl_command_queue queue) {
    if (CLMEM__CHECKS && queue == NULL) return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue is NULL");
    return CL_SUCCESS;
}

/* clmem__devices_of(fn, ctx, &n, &err): the devices of a context, CLMEM_MALLOC'd; NULL
   with *err set and a message naming the failed call (clGetContextInfo keeps its own
   code: CL_INVALID_CONTEXT only when the driver says so) or CLMEM_MALLOC. */
static cl_device_id *clmem__devices_of(const char *fn, cl_context ctx, cl_uint *n, cl_int *err) {
    cl_uint count = 0;
    cl_device_id *devs;
    *n = 0;
    *err = clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, NULL);
    if (*err != CL_SUCCESS) {
        *err = clmem__fail(*err, fn, "clGetContextInfo(context %p, CL_CONTEXT_NUM_DEVICES) failed with %s (%d)",
                           (void *)ctx, clmem_error_string(*err), (int)*err);
        return NULL;
    }
    if (count == 0) {
        *err = clmem__fail(CL_INVALID_CONTEXT, fn, "context %p has no devices", (void *)ctx);
        return NULL;
    }
    devs = CLMEM__CAST(cl_device_id *, CLMEM_MALLOC(sizeof(cl_device_id) * count));
    if (!devs) {
        *err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "CLMEM_MALLOC of %zu bytes for the %u devices of context %p failed",
                           sizeof(cl_device_id) * count, count, (void *)ctx);
        return NULL;
    }
    *err = clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(cl_device_id) * count, devs, NULL);
    if (*err != CL_SUCCESS) {
        CLMEM_FREE(devs);
        *err = clmem__fail(*err, fn, "clGetContextInfo(context %p, CL_CONTEXT_DEVICES) failed with %s (%d)", (void *)ctx,
                           clmem_error_string(*err), (int)*err);
        return NULL;
    }
    *n = count;
    return devs;
}

/* clmem__context_device(fn, ctx, dev, what): CL_INVALID_DEVICE, in words naming `what`
   and the values, when dev is not one of ctx's devices; a failed query keeps its code
   (clmem__devices_of). */
static cl_int clmem__context_device(const char *fn, cl_context ctx, cl_device_id dev, const char *what) {
    cl_uint n = 0, i;
    cl_int err;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &n, &err);
    if (!devs) return err;
    for (i = 0; i < n && devs[i] != dev; ++i) {}
    CLMEM_FREE(devs);
    if (i < n) return CL_SUCCESS;
    return clmem__fail(CL_INVALID_DEVICE, fn, "%s %p is not a device of context %p", what, (void *)dev, (void *)ctx);
}

/* clmem__info_fail(fn, err, call, what): a failed info query keeps its code and says
   which query failed. */
static cl_int clmem__info_fail(const char *fn, cl_int err, const char *call, const char *what) {
    return clmem__fail(err, fn, "%s(%s) failed with %s (%d)", call, what, clmem_error_string(err), (int)err);
}

/* clmem__refail_as(fn, err): a helper failed with its own message ("helper: text");
   say the text again in the name of fn, the function the user called. */
static cl_int clmem__refail_as(const char *fn, cl_int err) {
    char why[768];
    const char *m = clmem_last_error_message(), *colon = strstr(m, ": ");
    snprintf(why, sizeof why, "%s", colon ? colon + 2 : m);
    return clmem__fail(err, fn, "%s", why);
}

/* What a queue answers (clGetCommandQueueInfo) for clmem__queue_context_of and
   clmem__queue_device_of: CL_INVALID_COMMAND_QUEUE when the driver says so or answers
   NULL, any other failure with its own code and the query named. */
static cl_int clmem__queue_answer(const char *fn, cl_command_queue queue, cl_int err, bool got, const char *what) {
    if (err == CL_INVALID_COMMAND_QUEUE || (err == CL_SUCCESS && !got))
        return clmem__fail(CL_INVALID_COMMAND_QUEUE, fn, "queue %p is not a valid command queue", (void *)queue);
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetCommandQueueInfo", what);
    return CL_SUCCESS;
}

/* clmem__queue_context_of(fn, queue, &ctx) / clmem__queue_device_of(fn, queue, &dev):
   the queue's context or device; on failure the code and message of clmem__queue_answer. */
static cl_int clmem__queue_context_of(const char *fn, cl_command_queue queue, cl_context *ctx) {
    cl_int err;
    *ctx = NULL;
    err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof *ctx, ctx, NULL);
    return clmem__queue_answer(fn, queue, err, *ctx != NULL, "CL_QUEUE_CONTEXT");
}
static cl_int clmem__queue_device_of(const char *fn, cl_command_queue queue, cl_device_id *dev) {
    cl_int err;
    *dev = NULL;
    err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof *dev, dev, NULL);
    return clmem__queue_answer(fn, queue, err, *dev != NULL, "CL_QUEUE_DEVICE");
}

/* clmem__same_context(fn, queue, ctx, what): the object named `what` belongs to ctx;
   the queue must too. A failed clGetCommandQueueInfo keeps its own code
   (CL_INVALID_COMMAND_QUEUE only when the driver says so) and is named. */
static cl_int clmem__same_context(const char *fn, cl_command_queue queue, cl_context ctx, const char *what) {
    cl_context qctx = NULL;
    cl_int err;
    if (!CLMEM__CHECKS || ctx == NULL) return CL_SUCCESS;
    if ((err = clmem__queue_context_of(fn, queue, &qctx)) != CL_SUCCESS) return err;
    if (qctx != ctx)
        return clmem__fail(CL_INVALID_CONTEXT, fn, "%s belongs to context %p but the queue to context %p", what,
                           (void *)ctx, (void *)qctx);
    return CL_SUCCESS;
}

/* clmem__loader_version(&missing): the highest OpenCL version whose entry points the
   ICD loader of this process exports, and in *missing the first entry point of the
   next version that it lacks (NULL: none lacks). 0: no limit. On Windows a program
   imports OpenCL.dll's functions by name, and an OpenCL.dll may stop at 1.2 while its
   devices report 3.0 (Wine's: it forwards the host's devices); elsewhere the dynamic
   linker has resolved every entry point clmem names before main. */
static int clmem__loader_version(const char **missing) {
#if defined(_WIN32)
    static const struct {
        int version;
        const char *name;
    } probes[] = {{200, "clSVMAlloc"}, {210, "clCreateProgramWithIL"}, {220, "clSetProgramReleaseCallback"},
                  {300, "clCreateBufferWithProperties"}};
    HMODULE dll = GetModuleHandleA("OpenCL.dll");
    size_t i;
    *missing = NULL;
    if (!dll) return 0;
    for (i = 0; i < sizeof probes / sizeof probes[0]; ++i)
        if (!GetProcAddress(dll, probes[i].name)) {
            *missing = probes[i].name;
            return i ? probes[i - 1].version : 120;
        }
    return 0;
#else
    *missing = NULL;
    return 0;
#endif
}

/* clmem__parse_opencl_version(s): the version of a CL_DEVICE_VERSION or
   CL_PLATFORM_VERSION string, "OpenCL M.m <vendor text>", as M*100+m*10 (e.g. 300);
   0 when s does not have that form. The one parser of OpenCL version strings, and so
   the version every feature check sees: never above what the ICD loader exports
   (clmem__loader_version: a device of a 1.2 OpenCL.dll is a 1.2 device to clmem). */
static inline int clmem__parse_opencl_version(const char *s) {
    int major = 0, minor = 0, version;
    const char *missing;
    int loader = clmem__loader_version(&missing);
    if (sscanf(s, "OpenCL %d.%d", &major, &minor) != 2 || major < 0 || minor < 0 || major > 999 || minor > 9) return 0;
    version = major * 100 + minor * 10;
    return loader && version > loader ? loader : version;
}

/* clmem__dev_get / clmem__plat_get: clGetDeviceInfo and clGetPlatformInfo as one
   shape, for the queries that serve both (clmem__info_text) */
static cl_int clmem__dev_get(void *o, cl_uint param, size_t n, void *v, size_t *r) {
    return clGetDeviceInfo(CLMEM__CAST(cl_device_id, o), (cl_device_info)param, n, v, r);
}
static cl_int clmem__plat_get(void *o, cl_uint param, size_t n, void *v, size_t *r) {
    return clGetPlatformInfo(CLMEM__CAST(cl_platform_id, o), (cl_platform_info)param, n, v, r);
}

/* clmem__info_text(get, obj, param, buf, size, &text): a string query's answer whatever
   its length: in buf when it fits in size bytes (buf may be NULL), else CLMEM_MALLOC'd
   (free it when *text != buf); *text NULL on failure or for an empty answer. The
   query's code, quietly (CL_OUT_OF_HOST_MEMORY when memory is short). */
static cl_int clmem__info_text(cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *obj, cl_uint param,
                               char *buf, size_t size, char **text) {
    size_t n = 0;
    cl_int err = get(obj, param, 0, NULL, &n);
    *text = NULL;
    if (err != CL_SUCCESS || n == 0) return err;
    if (!(*text = n < size ? buf : CLMEM__CAST(char *, CLMEM_MALLOC(n + 1)))) return CL_OUT_OF_HOST_MEMORY;
    if ((err = get(obj, param, n, *text, NULL)) != CL_SUCCESS) {
        if (*text != buf) CLMEM_FREE(*text);
        *text = NULL;
        return err;
    }
    (*text)[n] = '\0';
    return CL_SUCCESS;
}

/* clmem__version_query(dev, platform, &version): dev's CL_DEVICE_VERSION (dev NULL:
   platform's CL_PLATFORM_VERSION) as clmem__parse_opencl_version gives it, whatever the
   string's length (PoCL appends build hashes: PoCL-Remote's device version ran past 128
   bytes, where a fixed buffer gets CL_INVALID_VALUE). The query's code, quietly; *version
   is 0 on failure. The one reader of version strings. */
static cl_int clmem__version_query(cl_device_id dev, cl_platform_id platform, int *version) {
    char small[256], *v = NULL;
    cl_int err = dev ? clmem__info_text(clmem__dev_get, (void *)dev, CL_DEVICE_VERSION, small, sizeof small, &v)
                     : clmem__info_text(clmem__plat_get, (void *)platform, CL_PLATFORM_VERSION, small, sizeof small, &v);
    *version = v ? clmem__parse_opencl_version(v) : 0;
    if (v != small) CLMEM_FREE(v);
    return err;
}

/* clmem__device_version(fn, dev, &version): the OpenCL version of a device as
   clmem__parse_opencl_version gives it (0: the string has no version). A failed
   CL_DEVICE_VERSION query keeps its code and is named in fn's message; *version is
   then 0 and must not be used. */
static inline cl_int clmem__device_version(const char *fn, cl_device_id dev, int *version) {
    cl_int err = clmem__version_query(dev, NULL, version);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_VERSION");
}

/* clmem__default_queue(fn, ctx, dev, what, &err): a queue of default properties
   (in-order, no profiling) on dev, made with the call dev's version has
   (clCreateCommandQueueWithProperties is OpenCL 2.0, clCreateCommandQueue before).
   NULL with *err set and worded in fn's name on failure, what naming the queue (a NULL
   queue with CL_SUCCESS reads CL_OUT_OF_RESOURCES). */
static cl_command_queue clmem__default_queue(const char *fn, cl_context ctx, cl_device_id dev, const char *what,
                                             cl_int *err) {
    cl_command_queue q = NULL;
    const char *call = "clCreateCommandQueue";
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
#ifdef CL_VERSION_2_0
    int version = 0;
    if ((*err = clmem__device_version(fn, dev, &version)) != CL_SUCCESS) return NULL;
    if (version >= 200) {
        call = "clCreateCommandQueueWithProperties";
        q = clCreateCommandQueueWithProperties(ctx, dev, NULL, err);
    } else
#endif
        q = clCreateCommandQueue(ctx, dev, 0, err);
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
    if (*err == CL_SUCCESS && !q) *err = CL_OUT_OF_RESOURCES;
    if (*err != CL_SUCCESS) {
        *err = clmem__fail(*err, fn, "%s (%s) failed with %s (%d)", call, what, clmem_error_string(*err), (int)*err);
        return NULL;
    }
    return q;
}

/* clmem__device_name(dev, buf, size): the device's CL_DEVICE_NAME for a message, "?"
   when the query fails (the name only decorates the message: optional). */
static void clmem__device_name(cl_device_id dev, char *buf, size_t size) {
    buf[0] = '\0';
    if (clGetDeviceInfo(dev, CL_DEVICE_NAME, size - 1, buf, NULL) != CL_SUCCESS) snprintf(buf, size, "?");
    buf[size - 1] = '\0';
}

/* clmem__device_max_alloc(fn, dev, &max): CL_DEVICE_MAX_MEM_ALLOC_SIZE of dev (0: the
   driver states no limit). A failed query keeps its code and is named; *max is then 0. */
static cl_int clmem__device_max_alloc(const char *fn, cl_device_id dev, cl_ulong *max) {
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof *max, max, NULL);
    if (err == CL_SUCCESS) return CL_SUCCESS;
    *max = 0;
    return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
}

/* clmem__check_max_alloc(fn, dev, what, size, max): CL_INVALID_BUFFER_SIZE, worded,
   when the argument `what` (size bytes) is above max, the CL_DEVICE_MAX_MEM_ALLOC_SIZE
   of dev (0: no limit). The one wording of that refusal. */
static cl_int clmem__check_max_alloc(const char *fn, cl_device_id dev, const char *what, size_t size, cl_ulong max) {
    char name[128];
    if (max == 0 || (cl_ulong)size <= max) return CL_SUCCESS;
    clmem__device_name(dev, name, sizeof name);
    return clmem__fail(CL_INVALID_BUFFER_SIZE, fn, "%s %zu is above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes) of device '%s'",
                       what, size, (unsigned long long)max, name);
}

/* clmem__mem_flags_text(flags, buf, size): the bits of a cl_mem_flags (or
   cl_svm_mem_flags) value in words, for messages. Not thread-safe across calls on the same thread within one message. */
static inline const char *clmem__mem_flags_text(cl_mem_flags flags, char *buf, size_t size) {
    static const struct { cl_mem_flags bit; const char *name; } names[] = {
        {CL_MEM_READ_WRITE, "READ_WRITE"}, {CL_MEM_WRITE_ONLY, "WRITE_ONLY"}, {CL_MEM_READ_ONLY, "READ_ONLY"},
        {CL_MEM_USE_HOST_PTR, "USE_HOST_PTR"}, {CL_MEM_ALLOC_HOST_PTR, "ALLOC_HOST_PTR"},
        {CL_MEM_COPY_HOST_PTR, "COPY_HOST_PTR"}, {CL_MEM_HOST_WRITE_ONLY, "HOST_WRITE_ONLY"},
        {CL_MEM_HOST_READ_ONLY, "HOST_READ_ONLY"}, {CL_MEM_HOST_NO_ACCESS, "HOST_NO_ACCESS"},
        {(cl_mem_flags)1 << 10, "SVM_FINE_GRAIN_BUFFER"}, {(cl_mem_flags)1 << 11, "SVM_ATOMICS"},
        {(cl_mem_flags)1 << 12, "KERNEL_READ_AND_WRITE"}};
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (flags & names[i].bit) {
            int n = snprintf(buf + used, size - used, "%s%s", used ? "|" : "", names[i].name);
            if (n < 0 || (size_t)n >= size - used) break;
            used += (size_t)n;
            flags &= ~names[i].bit;
        }
    }
    if (flags && used < size) snprintf(buf + used, size - used, "%sunknown 0x%llx", used ? "|" : "", (unsigned long long)flags);
    if (!buf[0]) snprintf(buf, size, "0");
    return buf;
}
