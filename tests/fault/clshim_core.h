/* tests/fault/clshim_core.h - the bookkeeping of the fault-injection shim, included
   by the generated clshim.c. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include "clshim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t clshim__lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long clshim__calls_n, clshim__fail_at;
static cl_int clshim__fail_code = CL_OUT_OF_HOST_MEMORY;
static const char *clshim__hit;
static unsigned clshim__hit_param;
static long clshim__refs, clshim__map_n, clshim__svm_n;
#define CLSHIM__MAX_FNS 160
static struct {
    const char *name;
    long balance;
} clshim__by_fn[CLSHIM__MAX_FNS];

static void *clshim__sym(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        fprintf(stderr, "clshim: %s not found in the next library (is libOpenCL linked after the shim?)\n", name);
        abort();
    }
    return p;
}

#define CLSHIM__MAX_RULES 8
static struct {
    const char *name;
    unsigned param;
    cl_int code;
} clshim__rules[CLSHIM__MAX_RULES];
static unsigned clshim__rule_n;

static cl_int clshim__should_fail(const char *name, unsigned param) {
    cl_int code = CL_SUCCESS;
    unsigned i;
    pthread_mutex_lock(&clshim__lock);
    ++clshim__calls_n;
    if (clshim__fail_at && clshim__calls_n == clshim__fail_at) code = clshim__fail_code;
    for (i = 0; i < clshim__rule_n && code == CL_SUCCESS; ++i)
        if (strcmp(clshim__rules[i].name, name) == 0 && (!clshim__rules[i].param || clshim__rules[i].param == param))
            code = clshim__rules[i].code;
    if (code != CL_SUCCESS) {
        clshim__hit = name;
        clshim__hit_param = param;
    }
    pthread_mutex_unlock(&clshim__lock);
    return code;
}
static cl_int clshim__count(const char *name) {
    (void)name;
    return CL_SUCCESS;
}

static void clshim__live(long delta, const char *name) {
    unsigned i;
    size_t len = strcspn(name, " ");
    pthread_mutex_lock(&clshim__lock);
    clshim__refs += delta;
    for (i = 0; i < CLSHIM__MAX_FNS; ++i) {
        if (!clshim__by_fn[i].name) clshim__by_fn[i].name = name;
        if (strncmp(clshim__by_fn[i].name, name, len) == 0 && clshim__by_fn[i].name[len] == name[len]) {
            clshim__by_fn[i].balance += delta;
            break;
        }
    }
    pthread_mutex_unlock(&clshim__lock);
}
static void clshim__maps(long delta) {
    pthread_mutex_lock(&clshim__lock);
    clshim__map_n += delta;
    pthread_mutex_unlock(&clshim__lock);
}
static void clshim__svm(long delta) {
    pthread_mutex_lock(&clshim__lock);
    clshim__svm_n += delta;
    pthread_mutex_unlock(&clshim__lock);
}

/* Unmaps failed by injection: the driver never saw them, so its mapping stays. The
   shim keeps the queue and the buffer (real retains, not counted) until
   clshim_undo_failed_unmaps makes the unmap, so that a release that went on (as clmem's
   releases do) leaves no mapped buffer behind in the driver. */
#define CLSHIM__MAX_UNDO 16
static struct {
    cl_command_queue queue;
    cl_mem mem;
    void *ptr;
    int done; /* unmapped since (a retry by the caller): only the references to drop */
} clshim__undo[CLSHIM__MAX_UNDO];
static unsigned clshim__undo_n;
typedef cl_int(CL_API_CALL *clshim__retain_q_t)(cl_command_queue);
typedef cl_int(CL_API_CALL *clshim__retain_m_t)(cl_mem);
typedef cl_int(CL_API_CALL *clshim__unmap_t)(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *);

static void clshim__failed_unmap(cl_command_queue queue, cl_mem mem, void *ptr) {
    clshim__retain_q_t retain_q;
    clshim__retain_m_t retain_m;
    void *p;
    if (!queue || !mem) return;
    p = clshim__sym("clRetainCommandQueue");
    memcpy(&retain_q, &p, sizeof p);
    p = clshim__sym("clRetainMemObject");
    memcpy(&retain_m, &p, sizeof p);
    pthread_mutex_lock(&clshim__lock);
    if (clshim__undo_n < CLSHIM__MAX_UNDO && retain_q(queue) == CL_SUCCESS) {
        retain_m(mem);
        clshim__undo[clshim__undo_n].queue = queue;
        clshim__undo[clshim__undo_n].mem = mem;
        clshim__undo[clshim__undo_n].ptr = ptr;
        clshim__undo[clshim__undo_n].done = 0;
        ++clshim__undo_n;
    }
    pthread_mutex_unlock(&clshim__lock);
}

/* a real unmap went through: a pending undo of the same mapping is not to be made
   (a driver that does not check, such as Oclgrind, would unmap twice) */
static void clshim__unmapped(cl_mem mem, void *ptr) {
    unsigned i;
    pthread_mutex_lock(&clshim__lock);
    for (i = 0; i < clshim__undo_n; ++i)
        if (!clshim__undo[i].done && clshim__undo[i].mem == mem && clshim__undo[i].ptr == ptr) {
            clshim__undo[i].done = 1;
            break;
        }
    pthread_mutex_unlock(&clshim__lock);
}

void clshim_undo_failed_unmaps(void) {
    clshim__retain_q_t release_q, finish;
    clshim__retain_m_t release_m;
    clshim__unmap_t unmap;
    void *p;
    unsigned i, n;
    p = clshim__sym("clReleaseCommandQueue");
    memcpy(&release_q, &p, sizeof p);
    p = clshim__sym("clFinish");
    memcpy(&finish, &p, sizeof p);
    p = clshim__sym("clReleaseMemObject");
    memcpy(&release_m, &p, sizeof p);
    p = clshim__sym("clEnqueueUnmapMemObject");
    memcpy(&unmap, &p, sizeof p);
    pthread_mutex_lock(&clshim__lock);
    n = clshim__undo_n;
    clshim__undo_n = 0;
    pthread_mutex_unlock(&clshim__lock);
    for (i = 0; i < n; ++i) {
        if (!clshim__undo[i].done &&
            unmap(clshim__undo[i].queue, clshim__undo[i].mem, clshim__undo[i].ptr, 0, NULL, NULL) == CL_SUCCESS)
            clshim__maps(-1);
        finish(clshim__undo[i].queue);
        release_m(clshim__undo[i].mem);
        release_q(clshim__undo[i].queue);
    }
}

void clshim_arm(unsigned long n, cl_int code) {
    pthread_mutex_lock(&clshim__lock);
    clshim__calls_n = 0;
    clshim__fail_at = n;
    clshim__fail_code = code;
    clshim__hit = NULL;
    clshim__hit_param = 0;
    clshim__rule_n = 0;
    pthread_mutex_unlock(&clshim__lock);
}
int clshim_fail_call(const char *name, unsigned param, cl_int code) {
    int ok = 0;
    pthread_mutex_lock(&clshim__lock);
    if (clshim__rule_n < CLSHIM__MAX_RULES) {
        clshim__rules[clshim__rule_n].name = name;
        clshim__rules[clshim__rule_n].param = param;
        clshim__rules[clshim__rule_n].code = code;
        ++clshim__rule_n;
        ok = 1;
    }
    pthread_mutex_unlock(&clshim__lock);
    return ok;
}
unsigned clshim_injected_param(void) {
    unsigned v;
    pthread_mutex_lock(&clshim__lock);
    v = clshim__hit_param;
    pthread_mutex_unlock(&clshim__lock);
    return v;
}
unsigned long clshim_calls(void) {
    unsigned long n;
    pthread_mutex_lock(&clshim__lock);
    n = clshim__calls_n;
    pthread_mutex_unlock(&clshim__lock);
    return n;
}
const char *clshim_injected(void) {
    const char *s;
    pthread_mutex_lock(&clshim__lock);
    s = clshim__hit;
    pthread_mutex_unlock(&clshim__lock);
    return s;
}
long clshim_live_refs(void) { return clshim__refs; }
long clshim_live_maps(void) { return clshim__map_n; }
long clshim_live_svm(void) { return clshim__svm_n; }
void clshim_live_report(void) {
    unsigned i;
    for (i = 0; i < CLSHIM__MAX_FNS && clshim__by_fn[i].name; ++i)
        if (clshim__by_fn[i].balance) fprintf(stderr, "clshim: %s %+ld\n", clshim__by_fn[i].name, clshim__by_fn[i].balance);
}
