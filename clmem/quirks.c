/* >>quirks (implementation): the self-tests, the table of their answers, the routes */
#include "quirks.h"

/* Faults to act on as if every device had them (bits CLMEM__QUIRK_*): the tests set it
   to run the routes and refusals on drivers without the faults. Not for users. */
static unsigned clmem__quirks_forced;

/* The answers: per device (single-device faults), per ordered pair of devices (images
   read on another device). A full table runs the self-test again on every use. */
enum { CLMEM__QUIRK_SLOTS = 64 };
typedef struct clmem__quirk_entry {
    cl_device_id dev, other; /* other: NULL for single-device faults */
    unsigned tested, faults;
} clmem__quirk_entry;
static clmem__quirk_entry clmem__quirk_table[CLMEM__QUIRK_SLOTS];
static size_t clmem__quirk_count;
static clmem__mutex clmem__quirk_lock = CLMEM__MUTEX_INIT;

/* clmem__quirk_known(dev, other, bit, &fault): true when the self-test of `bit` has an
   answer for (dev, other), in *fault */
static bool clmem__quirk_known(cl_device_id dev, cl_device_id other, unsigned bit, bool *fault) {
    size_t i;
    bool known = false;
    clmem__lock(&clmem__quirk_lock);
    for (i = 0; i < clmem__quirk_count; ++i)
        if (clmem__quirk_table[i].dev == dev && clmem__quirk_table[i].other == other) {
            known = (clmem__quirk_table[i].tested & bit) != 0;
            *fault = (clmem__quirk_table[i].faults & bit) != 0;
            break;
        }
    clmem__unlock(&clmem__quirk_lock);
    return known;
}

static void clmem__quirk_note(cl_device_id dev, cl_device_id other, unsigned bit, bool fault) {
    size_t i;
    clmem__lock(&clmem__quirk_lock);
    for (i = 0; i < clmem__quirk_count; ++i)
        if (clmem__quirk_table[i].dev == dev && clmem__quirk_table[i].other == other) break;
    if (i == clmem__quirk_count && clmem__quirk_count < CLMEM__QUIRK_SLOTS) {
        clmem__quirk_table[i].dev = dev;
        clmem__quirk_table[i].other = other;
        clmem__quirk_table[i].tested = clmem__quirk_table[i].faults = 0;
        ++clmem__quirk_count;
    }
    if (i < clmem__quirk_count) {
        clmem__quirk_table[i].tested |= bit;
        if (fault) clmem__quirk_table[i].faults |= bit;
    }
    clmem__unlock(&clmem__quirk_lock);
}

/* ---- the self-tests: each on a private in-order queue of (ctx, dev); a call that
   fails leaves the answer open (no fault assumed, asked again next time) ---- */
static cl_command_queue clmem__quirk_queue_on(cl_context ctx, cl_device_id dev) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q;
    int version = 0;
    if (clmem__version_query(dev, NULL, &version) != CL_SUCCESS) return NULL;
#if defined(CL_VERSION_2_0)
    if (version >= 200) {
        q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
        return err == CL_SUCCESS ? q : NULL;
    }
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    q = clCreateCommandQueue(ctx, dev, 0, &err);
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
    return err == CL_SUCCESS ? q : NULL;
}

/* 0: right, 1: wrong bytes, -1: no answer (a call failed) */
static int clmem__quirk_test_rect(cl_command_queue q, cl_context ctx) {
    static const size_t zero[3] = {0, 0, 0}, region[3] = {4, 2, 1};
    unsigned char host[16], back[16], zeros[16];
    int i, r = -1;
    cl_int err = CL_SUCCESS;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof back, NULL, &err);
    if (err != CL_SUCCESS || !b) return -1;
    for (i = 0; i < 16; ++i) host[i] = (unsigned char)(i + 1), zeros[i] = 0;
    /* host rows 8 bytes apart -> buffer rows 4 bytes apart, then back into rows 8 apart */
    if (clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof zeros, zeros, 0, NULL, NULL) == CL_SUCCESS &&
        clEnqueueWriteBufferRect(q, b, CL_TRUE, zero, zero, region, 4, 8, 8, 16, host, 0, NULL, NULL) == CL_SUCCESS &&
        clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL) == CL_SUCCESS) {
        r = memcmp(back, host, 4) != 0 || memcmp(back + 4, host + 8, 4) != 0;
        memset(back, 0, sizeof back);
        if (r == 0 && clEnqueueReadBufferRect(q, b, CL_TRUE, zero, zero, region, 4, 8, 8, 16, back, 0, NULL, NULL) ==
                          CL_SUCCESS)
            r = memcmp(back, host, 4) != 0 || memcmp(back + 8, host + 8, 4) != 0;
        else if (r == 0)
            r = -1;
    }
    clReleaseMemObject(b);
    return r;
}

/* a w x h RGBA8 image; with host, made with CL_MEM_COPY_HOST_PTR from host rows
   row_pitch bytes apart */
static cl_mem clmem__quirk_image(cl_context ctx, size_t w, size_t h, size_t row_pitch, void *host) {
    cl_image_format fmt;
    cl_image_desc d;
    cl_int err = CL_SUCCESS;
    cl_mem m;
    fmt.image_channel_order = CL_RGBA;
    fmt.image_channel_data_type = CL_UNSIGNED_INT8;
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = w;
    d.image_height = h;
    d.image_row_pitch = row_pitch;
    m = clCreateImage(ctx, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), &fmt, &d, host, &err);
    return err == CL_SUCCESS ? m : NULL;
}

/* a 2x2 RGBA8 image written and read with host rows 12 bytes apart */
static int clmem__quirk_test_image_pitch(cl_command_queue q, cl_context ctx) {
    static const size_t zero[3] = {0, 0, 0}, region[3] = {2, 2, 1};
    unsigned char host[24], back[24];
    int i, r = -1;
    cl_mem img = clmem__quirk_image(ctx, 2, 2, 0, NULL);
    if (!img) return -1;
    for (i = 0; i < 24; ++i) host[i] = (unsigned char)(i + 1);
    if (clEnqueueWriteImage(q, img, CL_TRUE, zero, region, 12, 0, host, 0, NULL, NULL) == CL_SUCCESS &&
        clEnqueueReadImage(q, img, CL_TRUE, zero, region, 0, 0, back, 0, NULL, NULL) == CL_SUCCESS) {
        r = memcmp(back, host, 8) != 0 || memcmp(back + 8, host + 12, 8) != 0;
        memset(back, 0, sizeof back);
        if (r == 0 && clEnqueueReadImage(q, img, CL_TRUE, zero, region, 12, 0, back, 0, NULL, NULL) == CL_SUCCESS)
            r = memcmp(back, host, 8) != 0 || memcmp(back + 12, host + 12, 8) != 0;
        else if (r == 0)
            r = -1;
    }
    clReleaseMemObject(img);
    return r;
}

/* a 2x2 RGBA8 image made with CL_MEM_COPY_HOST_PTR from host rows 12 bytes apart */
static int clmem__quirk_test_create_pitch(cl_command_queue q, cl_context ctx) {
    static const size_t zero[3] = {0, 0, 0}, region[3] = {2, 2, 1};
    unsigned char host[24], back[16];
    int i, r = -1;
    cl_mem img;
    for (i = 0; i < 24; ++i) host[i] = (unsigned char)(i + 1);
    img = clmem__quirk_image(ctx, 2, 2, 12, host);
    if (!img) return -1;
    if (clEnqueueReadImage(q, img, CL_TRUE, zero, region, 0, 0, back, 0, NULL, NULL) == CL_SUCCESS)
        r = memcmp(back, host, 8) != 0 || memcmp(back + 8, host + 12, 8) != 0;
    clReleaseMemObject(img);
    return r;
}

/* a read map of the 2x2 box at x 1 of a 4x2 RGBA8 image */
static int clmem__quirk_test_map_box(cl_command_queue q, cl_context ctx) {
    static const size_t zero[3] = {0, 0, 0}, whole[3] = {4, 2, 1}, org[3] = {1, 0, 0}, reg[3] = {2, 2, 1};
    unsigned char host[32];
    unsigned char *p;
    size_t rp = 0, sp = 0;
    int i, r = -1;
    cl_int err = CL_SUCCESS;
    cl_mem img = clmem__quirk_image(ctx, 4, 2, 0, NULL);
    if (!img) return -1;
    for (i = 0; i < 32; ++i) host[i] = (unsigned char)(i + 1);
    if (clEnqueueWriteImage(q, img, CL_TRUE, zero, whole, 0, 0, host, 0, NULL, NULL) == CL_SUCCESS) {
        p = CLMEM__CAST(unsigned char *, clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, org, reg, &rp, &sp, 0, NULL,
                                                           NULL, &err));
        if (err == CL_SUCCESS && p) {
            r = memcmp(p, host + 4, 8) != 0 || memcmp(p + rp, host + 16 + 4, 8) != 0;
            if (clEnqueueUnmapMemObject(q, img, p, 0, NULL, NULL) != CL_SUCCESS || clFinish(q) != CL_SUCCESS) r = -1;
        }
    }
    clReleaseMemObject(img);
    return r;
}

/* a 4x2 RGBA8 image written on q (device a) and read on q2 (device b) */
static int clmem__quirk_test_other_device(cl_command_queue q, cl_command_queue q2, cl_context ctx) {
    static const size_t zero[3] = {0, 0, 0}, whole[3] = {4, 2, 1};
    unsigned char host[32], back[32];
    int i, r = -1;
    cl_event written = NULL;
    cl_mem img = clmem__quirk_image(ctx, 4, 2, 0, NULL);
    if (!img) return -1;
    for (i = 0; i < 32; ++i) host[i] = (unsigned char)(i + 1), back[i] = 0;
    if (clEnqueueWriteImage(q, img, CL_TRUE, zero, whole, 0, 0, host, 0, NULL, &written) == CL_SUCCESS &&
        clEnqueueReadImage(q2, img, CL_TRUE, zero, whole, 0, 0, back, 1, &written, NULL) == CL_SUCCESS)
        r = memcmp(back, host, sizeof host) != 0;
    if (written) clReleaseEvent(written);
    clReleaseMemObject(img);
    return r;
}

/* maps of a 64-byte CL_MEM_USE_HOST_PTR buffer keep the host memory and the bytes in step */
static int clmem__quirk_test_host_ptr(cl_command_queue q, cl_context ctx) {
    unsigned char host[64], back[64];
    unsigned char *p;
    int r = -1, i;
    cl_int err = CL_SUCCESS;
    cl_mem buf;
    memset(host, 0, sizeof host);
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    if (err != CL_SUCCESS || !buf) return -1;
    memset(host, 0xa5, sizeof host); /* the host writes; a read map must keep its bytes */
    p = CLMEM__CAST(unsigned char *, clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err));
    if (err == CL_SUCCESS && p) {
        r = 0;
        for (i = 0; i < 64; ++i) r |= host[i] != 0xa5;
        if (clEnqueueUnmapMemObject(q, buf, p, 0, NULL, NULL) != CL_SUCCESS || clFinish(q) != CL_SUCCESS) r = -1;
    }
    if (r == 0) { /* the host writes; a write-invalidate map and unmap must send its bytes */
        r = -1;
        memset(host, 0x5a, sizeof host);
        p = CLMEM__CAST(unsigned char *, clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                                            sizeof host, 0, NULL, NULL, &err));
        if (err == CL_SUCCESS && p) {
            if (p != host) memcpy(p, host, sizeof host);
            if (clEnqueueUnmapMemObject(q, buf, p, 0, NULL, NULL) == CL_SUCCESS &&
                clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL) == CL_SUCCESS) {
                r = 0;
                for (i = 0; i < 64; ++i) r |= back[i] != 0x5a;
            }
        }
    }
    clReleaseMemObject(buf);
    return r;
}

static bool clmem__quirk_images_on(cl_device_id dev) {
    cl_bool yes = CL_FALSE;
    return clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof yes, &yes, NULL) == CL_SUCCESS && yes;
}

/* clmem__quirk_device(ctx, dev, bit): device dev (in context ctx) has the
   single-device fault `bit`; runs its self-test the first time */
static bool clmem__quirk_device(cl_context ctx, cl_device_id dev, unsigned bit) {
    bool fault = false;
    int r = -1;
    cl_command_queue q;
    if (clmem__quirks_forced & bit) return true;
    if (!ctx || !dev) return false;
    if (clmem__quirk_known(dev, NULL, bit, &fault)) return fault;
    if (bit != CLMEM__QUIRK_RECT_HOST_PITCH && bit != CLMEM__QUIRK_HOST_PTR_SYNC && !clmem__quirk_images_on(dev)) {
        clmem__quirk_note(dev, NULL, bit, false);
        return false;
    }
    if ((q = clmem__quirk_queue_on(ctx, dev)) == NULL) return false;
    switch (bit) {
    case CLMEM__QUIRK_RECT_HOST_PITCH: r = clmem__quirk_test_rect(q, ctx); break;
    case CLMEM__QUIRK_IMAGE_HOST_PITCH: r = clmem__quirk_test_image_pitch(q, ctx); break;
    case CLMEM__QUIRK_IMAGE_MAP_BOX: r = clmem__quirk_test_map_box(q, ctx); break;
    case CLMEM__QUIRK_IMAGE_CREATE_PITCH: r = clmem__quirk_test_create_pitch(q, ctx); break;
    case CLMEM__QUIRK_HOST_PTR_SYNC: r = clmem__quirk_test_host_ptr(q, ctx); break;
    default: break;
    }
    clReleaseCommandQueue(q);
    if (r < 0) return false;
    clmem__quirk_note(dev, NULL, bit, r == 1);
    return r == 1;
}

/* clmem__quirk_queue(queue, bit): the same for the queue's device and context */
static bool clmem__quirk_queue(cl_command_queue queue, unsigned bit) {
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    if (clmem__quirks_forced & bit) return true;
    if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS)
        return false;
    return clmem__quirk_device(ctx, dev, bit);
}

/* clmem__quirk_pair(ctx, a, b): an image written on device a reads wrong on device b */
static bool clmem__quirk_pair(cl_context ctx, cl_device_id a, cl_device_id b) {
    bool fault = false;
    int r = -1;
    cl_command_queue qa, qb;
    if (clmem__quirk_known(a, b, CLMEM__QUIRK_IMAGE_OTHER_DEVICE, &fault)) return fault;
    if (!clmem__quirk_images_on(a) || !clmem__quirk_images_on(b)) {
        clmem__quirk_note(a, b, CLMEM__QUIRK_IMAGE_OTHER_DEVICE, false);
        return false;
    }
    qa = clmem__quirk_queue_on(ctx, a);
    qb = qa ? clmem__quirk_queue_on(ctx, b) : NULL;
    if (qa && qb) r = clmem__quirk_test_other_device(qa, qb, ctx);
    if (qa) clReleaseCommandQueue(qa);
    if (qb) clReleaseCommandQueue(qb);
    if (r < 0) return false;
    clmem__quirk_note(a, b, CLMEM__QUIRK_IMAGE_OTHER_DEVICE, r == 1);
    return r == 1;
}

/* clmem__quirk_refuse(fn, dev, fault, instead): the refusal of an operation a driver
   fault spoils: CL_INVALID_OPERATION, the fault, the device and what to do instead */
static cl_int clmem__quirk_refuse(const char *fn, cl_device_id dev, const char *fault, const char *instead) {
    char name[128] = "?";
    if (dev) clmem__device_name(dev, name, sizeof name);
    return clmem__fail(CL_INVALID_OPERATION, fn, "driver fault of device '%s' (found by clmem's self-test): %s; %s", name,
                       fault, instead);
}

/* ---- images in a context whose devices move images between them wrongly ---- */

/* clmem__quirk_context_images(fn, ctx): CL_SUCCESS where images made in ctx read right
   on every device of it; else the refusal. A failed query of the context's devices
   keeps its code. */
static cl_int clmem__quirk_context_images(const char *fn, cl_context ctx) {
    cl_uint n = 0, i, j;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs;
    cl_uint bad_a = 0, bad_b = 0;
    bool bad = false;
    if (!ctx) return CL_SUCCESS;
    if (!(clmem__quirks_forced & CLMEM__QUIRK_IMAGE_OTHER_DEVICE)) {
        err = clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL);
        if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetContextInfo", "CL_CONTEXT_NUM_DEVICES");
        if (n < 2) return CL_SUCCESS;
    }
    if ((devs = clmem__devices_of(fn, ctx, &n, &err)) == NULL) return err;
    if (clmem__quirks_forced & CLMEM__QUIRK_IMAGE_OTHER_DEVICE) bad = true, bad_a = 0, bad_b = n - 1;
    for (i = 0; i < n && !bad; ++i)
        for (j = 0; j < n && !bad; ++j)
            if (i != j && clmem__quirk_pair(ctx, devs[i], devs[j])) bad = true, bad_a = i, bad_b = j;
    if (bad) {
        char other[128], why[320];
        clmem__device_name(devs[bad_a], other, sizeof other);
        snprintf(why, sizeof why, "an image written on device %u ('%s') of the context reads other bytes on its device %u",
                 bad_a, other, bad_b);
        err = clmem__quirk_refuse(fn, devs[bad_b], why,
                                  "images are refused in a context of these devices (make a context per device, or per "
                                  "server on PoCL-Remote)");
    }
    CLMEM_FREE(devs);
    return err;
}

/* ---- transfers as rows: a transfer whose host rows the driver would take as packed
   goes as one packed transfer per row ---- */

/* clmem__quirk_rows_run(...): `n` pieces, piece i enqueued by put(arg, i, wait, nwait,
   ev) on `queue`; as one command: each piece waits for the wait list; with .event (or
   blocking) one event that completes after every piece (the last piece's on an
   in-order queue, else a marker after all of them); blocking waits for it. */
typedef cl_int (*clmem__quirk_put)(void *arg, size_t i, const cl_event *wait, cl_uint nwait, cl_event *ev);
static cl_int clmem__quirk_pieces(const char *fn, const char *call, cl_command_queue queue, size_t n, clmem__quirk_put put,
                                  void *arg, cl_bool blocking, const cl_event *wait_for, cl_uint num_wait_for,
                                  cl_event *event) {
    cl_command_queue_properties props = 0;
    cl_event last = NULL, *evs = NULL;
    bool in_order, need = event != NULL || blocking;
    size_t i, got = 0;
    cl_int err = CL_SUCCESS;
    if (event) *event = NULL;
    if (n == 0) return clmem__nothing_to_do(fn, queue, wait_for, num_wait_for, event);
    if ((err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL)) != CL_SUCCESS)
        return clmem__info_fail(fn, err, "clGetCommandQueueInfo", "CL_QUEUE_PROPERTIES");
    in_order = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
    if (need && !in_order) {
        evs = CLMEM__CAST(cl_event *, CLMEM_MALLOC(n * sizeof *evs));
        if (!evs)
            return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "CLMEM_MALLOC of %zu bytes for the events of %zu rows failed",
                               n * sizeof *evs, n);
    }
    for (i = 0; i < n && err == CL_SUCCESS; ++i) {
        cl_event *ev = !need ? NULL : evs ? &evs[got] : i + 1 == n ? &last : NULL;
        err = put(arg, i, wait_for, num_wait_for, ev);
        if (err == CL_SUCCESS && evs) ++got;
    }
    if (err == CL_SUCCESS && evs) err = clEnqueueMarkerWithWaitList(queue, (cl_uint)got, evs, &last);
    if (evs) {
        for (i = 0; i < got; ++i) clReleaseEvent(evs[i]);
        CLMEM_FREE(evs);
    }
    if (err == CL_SUCCESS && blocking && last) err = clWaitForEvents(1, &last);
    if (err != CL_SUCCESS) {
        if (last) clReleaseEvent(last);
        return clmem__cl_fail(err, fn, call);
    }
    if (event) *event = last;
    else if (last) clReleaseEvent(last);
    return CL_SUCCESS;
}

typedef struct clmem__quirk_rect_args {
    cl_command_queue queue;
    cl_mem mem;
    bool write;
    size_t start, row, slice;   /* buffer: byte of the region's first row, pitches */
    char *host;                 /* host: the region's first byte */
    size_t hrow, hslice;
    size_t width, height;       /* bytes per row, rows per slice */
} clmem__quirk_rect_args;

static cl_int clmem__quirk_put_rect(void *arg, size_t i, const cl_event *wait, cl_uint nwait, cl_event *ev) {
    const clmem__quirk_rect_args *a = CLMEM__CAST(const clmem__quirk_rect_args *, arg);
    size_t y = i % a->height, z = i / a->height;
    size_t off = a->start + y * a->row + z * a->slice;
    char *h = a->host + y * a->hrow + z * a->hslice;
    return a->write ? clEnqueueWriteBuffer(a->queue, a->mem, CL_FALSE, off, a->width, h, nwait, wait, ev)
                    : clEnqueueReadBuffer(a->queue, a->mem, CL_FALSE, off, a->width, h, nwait, wait, ev);
}

/* clmem__quirk_rect_host(fn, queue, mem, write, blocking, borigin, horigin, region,
   brow, bslice, hrow, hslice, host, wait, nwait, event, &err): a rectangular host
   transfer (pitches resolved, none 0) on a device that drops the host pitches, when
   they are not packed, as row transfers. Returns false when the driver's own call is
   right for it (then *err is untouched); true when routed, with the result in *err. */
static bool clmem__quirk_rect_host(const char *fn, cl_command_queue queue, cl_mem mem, bool write, cl_bool blocking,
                                   const size_t borigin[3], const size_t horigin[3], const size_t region[3], size_t brow,
                                   size_t bslice, size_t hrow, size_t hslice, void *host, const cl_event *wait_for,
                                   cl_uint num_wait_for, cl_event *event, cl_int *err) {
    clmem__quirk_rect_args a;
    bool packed = (region[1] <= 1 || hrow == region[0]) && (region[2] <= 1 || hslice == hrow * region[1]);
    if (packed || !clmem__quirk_queue(queue, CLMEM__QUIRK_RECT_HOST_PITCH)) return false;
    a.queue = queue;
    a.mem = mem;
    a.write = write;
    a.start = borigin[0] + borigin[1] * brow + borigin[2] * bslice;
    a.row = brow;
    a.slice = bslice;
    a.host = CLMEM__CAST(char *, host) + horigin[0] + horigin[1] * hrow + horigin[2] * hslice;
    a.hrow = hrow;
    a.hslice = hslice;
    a.width = region[0];
    a.height = region[1];
    *err = clmem__quirk_pieces(fn, write ? "clEnqueueWriteBuffer (a row)" : "clEnqueueReadBuffer (a row)", queue,
                               region[1] * region[2], clmem__quirk_put_rect, &a, blocking, wait_for, num_wait_for, event);
    return true;
}

typedef struct clmem__quirk_image_args {
    cl_command_queue queue;
    cl_mem img;
    bool write;
    size_t origin[3], width;    /* pixels */
    size_t height;              /* rows (1-D arrays: layers) per slice */
    int layers_on_y;            /* 1-D image array: the layer is origin[1] */
    char *host;
    size_t hrow, hslice;        /* bytes between host rows (1-D arrays: layers), slices */
} clmem__quirk_image_args;

static cl_int clmem__quirk_put_image(void *arg, size_t i, const cl_event *wait, cl_uint nwait, cl_event *ev) {
    const clmem__quirk_image_args *a = CLMEM__CAST(const clmem__quirk_image_args *, arg);
    size_t y = i % a->height, z = i / a->height, o[3], r[3];
    char *h = a->host + y * a->hrow + z * a->hslice;
    o[0] = a->origin[0], o[1] = a->origin[1] + y, o[2] = a->origin[2] + z;
    r[0] = a->width, r[1] = 1, r[2] = 1;
    return a->write ? clEnqueueWriteImage(a->queue, a->img, CL_FALSE, o, r, 0, 0, h, nwait, wait, ev)
                    : clEnqueueReadImage(a->queue, a->img, CL_FALSE, o, r, 0, 0, h, nwait, wait, ev);
}

/* clmem__quirk_image_host(fn, queue, img, type, pixel, write, blocking, origin, region,
   row, slice, host, wait, nwait, event, &err): an image host transfer (host pitches as
   clmem passes them: row, slice; a 1-D array's layers are `slice` apart) on a device
   that drops host pitches, when they are not packed, as row transfers. Returns as
   clmem__quirk_rect_host. */
static bool clmem__quirk_image_host(const char *fn, cl_command_queue queue, cl_mem img, cl_mem_object_type type,
                                    size_t pixel, bool write, cl_bool blocking, const size_t origin[3],
                                    const size_t region[3], size_t row, size_t slice, void *host,
                                    const cl_event *wait_for, cl_uint num_wait_for, cl_event *event, cl_int *err) {
    clmem__quirk_image_args a;
    size_t line = region[0] * pixel;
    bool arr1 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t ystep = arr1 ? (slice ? slice : row ? row : line) : (row ? row : line);
    size_t zstep = arr1 ? 0 : (slice ? slice : ystep * region[1]);
    bool packed = (region[1] <= 1 || ystep == line) && (region[2] <= 1 || zstep == ystep * region[1]);
    if (packed || !clmem__quirk_queue(queue, CLMEM__QUIRK_IMAGE_HOST_PITCH)) return false;
    a.queue = queue;
    a.img = img;
    a.write = write;
    a.origin[0] = origin[0], a.origin[1] = origin[1], a.origin[2] = origin[2];
    a.width = region[0];
    a.height = region[1];
    a.layers_on_y = arr1;
    a.host = CLMEM__CAST(char *, host);
    a.hrow = ystep;
    a.hslice = zstep;
    *err = clmem__quirk_pieces(fn, write ? "clEnqueueWriteImage (a row)" : "clEnqueueReadImage (a row)", queue,
                               region[1] * region[2], clmem__quirk_put_image, &a, blocking, wait_for, num_wait_for, event);
    return true;
}

/* clmem__quirk_image_host_copy(fn, ctx, flags, type, pixel, w, h, d, n, row, slice,
   host, &copy, &err): an image made with CL_MEM_COPY_HOST_PTR from host rows that are
   not packed, in a context with a device that drops host pitches: *copy is a packed
   CLMEM_MALLOC'd copy to make it from instead (pitches 0), the caller frees it; false
   (and *copy NULL) when the rows are packed or no device has the fault; *err is set
   (and true returned) only when the copy cannot be made. */
static bool clmem__quirk_image_host_copy(const char *fn, cl_context ctx, cl_mem_flags flags, cl_mem_object_type type,
                                         size_t pixel, size_t w, size_t h, size_t d, size_t n, size_t row, size_t slice,
                                         const void *host, void **copy, cl_int *err) {
    size_t line = w * pixel, rows, per_slice, slices, i, ystep, zstep;
    bool arr1 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY, fault = false;
    cl_device_id *devs;
    cl_uint nd = 0, k;
    cl_int e = CL_SUCCESS;
    char *dst;
    *copy = NULL;
    if (!host || !(flags & CL_MEM_COPY_HOST_PTR) || line == 0 || type == CL_MEM_OBJECT_IMAGE1D ||
        type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        return false;
    /* rows per slice and slices; a 1-D array's layers are its rows, `slice` apart */
    per_slice = arr1 ? n : h;
    slices = type == CL_MEM_OBJECT_IMAGE3D ? d : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? n : 1;
    ystep = arr1 ? (slice ? slice : row ? row : line) : (row ? row : line);
    zstep = slice ? slice : ystep * per_slice;
    if ((per_slice <= 1 || ystep == line) && (slices <= 1 || zstep == ystep * per_slice)) return false;
    if (clmem__quirks_forced & CLMEM__QUIRK_IMAGE_CREATE_PITCH) {
        fault = true;
    } else {
        if ((devs = clmem__devices_of(fn, ctx, &nd, &e)) == NULL) {
            *err = e;
            return true;
        }
        for (k = 0; k < nd && !fault; ++k) fault = clmem__quirk_device(ctx, devs[k], CLMEM__QUIRK_IMAGE_CREATE_PITCH);
        CLMEM_FREE(devs);
    }
    if (!fault) return false;
    rows = per_slice * slices;
    dst = CLMEM__CAST(char *, CLMEM_MALLOC(rows * line + 1));
    if (!dst) {
        *err = clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "CLMEM_MALLOC of %zu bytes for the packed rows of .hostbuf failed",
                           rows * line);
        return true;
    }
    for (i = 0; i < rows; ++i)
        memcpy(dst + i * line, CLMEM__CAST(const char *, host) + (i % per_slice) * ystep + (i / per_slice) * zstep, line);
    *copy = dst;
    return false;
}

/* ---- image maps of a box that is not whole rows and slices: mapped as the whole rows
   (and slices) that hold it, the pointer moved to the box ---- */

/* The widened maps: the pointer the driver gave (to unmap with) of each pointer clmem
   handed out. */
typedef struct clmem__quirk_map {
    cl_mem mem;
    void *user, *driver;
} clmem__quirk_map;
static clmem__quirk_map *clmem__quirk_maps;
static size_t clmem__quirk_map_count, clmem__quirk_map_cap;

/* clmem__quirk_map_widen(queue, type, dims, origin, region, &flags, wo, wr): where the
   device stages a box of an image map packed but answers the image's pitches, and this
   box is not whole rows (for 3-D images and 2-D arrays, with more than one slice, whole
   slices): wo, wr the box of whole rows (slices) that holds it, *flags
   CL_MAP_WRITE for CL_MAP_WRITE_INVALIDATE_REGION (the pixels around the box are
   written back as they were); true then. dims: the image's extent along x, y, z. */
static bool clmem__quirk_map_widen(cl_command_queue queue, const size_t dims[3], const size_t o[3], const size_t r[3],
                                   cl_map_flags *flags, size_t wo[3], size_t wr[3]) {
    bool rows = r[1] > 1 || r[2] > 1, whole_rows = o[0] == 0 && r[0] == dims[0];
    bool whole_slices = o[1] == 0 && r[1] == dims[1];
    if ((!rows || whole_rows) && (r[2] <= 1 || whole_slices)) return false;
    if (!clmem__quirk_queue(queue, CLMEM__QUIRK_IMAGE_MAP_BOX)) return false;
    wo[0] = 0, wr[0] = dims[0];
    wo[1] = r[2] > 1 ? 0 : o[1], wr[1] = r[2] > 1 ? dims[1] : r[1];
    wo[2] = o[2], wr[2] = r[2];
    if (*flags & CL_MAP_WRITE_INVALIDATE_REGION) *flags = CL_MAP_WRITE;
    return true;
}

/* clmem__quirk_map_note(fn, mem, driver, user): keep the driver's pointer of a widened
   map; CL_OUT_OF_HOST_MEMORY (worded) when there is no room */
static cl_int clmem__quirk_map_note(const char *fn, cl_mem mem, void *driver, void *user) {
    cl_int err = CL_SUCCESS;
    clmem__lock(&clmem__quirk_lock);
    if (clmem__quirk_map_count == clmem__quirk_map_cap) {
        size_t cap = clmem__quirk_map_cap ? 2 * clmem__quirk_map_cap : 8;
        clmem__quirk_map *grown =
            CLMEM__CAST(clmem__quirk_map *, CLMEM_REALLOC(clmem__quirk_maps, cap * sizeof *clmem__quirk_maps));
        if (grown) clmem__quirk_maps = grown, clmem__quirk_map_cap = cap;
    }
    if (clmem__quirk_map_count < clmem__quirk_map_cap) {
        clmem__quirk_maps[clmem__quirk_map_count].mem = mem;
        clmem__quirk_maps[clmem__quirk_map_count].user = user;
        clmem__quirk_maps[clmem__quirk_map_count].driver = driver;
        ++clmem__quirk_map_count;
    } else {
        err = CL_OUT_OF_HOST_MEMORY;
    }
    clmem__unlock(&clmem__quirk_lock);
    if (err != CL_SUCCESS) return clmem__fail(err, fn, "CLMEM_REALLOC for the record of a widened image map failed");
    return CL_SUCCESS;
}

/* clmem__quirk_map_ptr(mem, ptr): the pointer to unmap `ptr` (a map of mem) with: the
   driver's where clmem widened the map, else ptr. clmem__quirk_map_forget(mem, ptr):
   the map is gone. */
static void *clmem__quirk_map_ptr(cl_mem mem, void *ptr) {
    size_t i;
    void *driver = ptr;
    clmem__lock(&clmem__quirk_lock);
    for (i = 0; i < clmem__quirk_map_count; ++i)
        if (clmem__quirk_maps[i].mem == mem && clmem__quirk_maps[i].user == ptr) {
            driver = clmem__quirk_maps[i].driver;
            break;
        }
    clmem__unlock(&clmem__quirk_lock);
    return driver;
}
static void clmem__quirk_map_forget(cl_mem mem, void *ptr) {
    size_t i;
    clmem__lock(&clmem__quirk_lock);
    for (i = 0; i < clmem__quirk_map_count; ++i)
        if (clmem__quirk_maps[i].mem == mem && clmem__quirk_maps[i].user == ptr) {
            clmem__quirk_maps[i] = clmem__quirk_maps[--clmem__quirk_map_count];
            break;
        }
    clmem__unlock(&clmem__quirk_lock);
}

/* clmem__quirk_map_image(fn, queue, img, type, pixel, dims, blocking, flags, origin,
   region, &row, &slice, nwait, wait, ev, &err): clEnqueueMapImage, as whole rows
   (slices) where the device needs it (clmem__quirk_map_widen): the pointer returned is
   then the box's first pixel, the driver's own kept for the unmap
   (clmem__quirk_map_ptr). Fails as clEnqueueMapImage does. */
static void *clmem__quirk_map_image(const char *fn, cl_command_queue queue, cl_mem img, cl_mem_object_type type,
                                    size_t pixel, const size_t dims[3], cl_bool blocking, cl_map_flags flags,
                                    const size_t o[3], const size_t r[3], size_t *row, size_t *slice, cl_uint nwait,
                                    const cl_event *wait, cl_event *ev, cl_int *err) {
    size_t wo[3], wr[3], ystep;
    char *p, *user;
    if (!clmem__quirk_map_widen(queue, dims, o, r, &flags, wo, wr))
        return clEnqueueMapImage(queue, img, blocking, flags, o, r, row, slice, nwait, wait, ev, err);
    p = CLMEM__CAST(char *, clEnqueueMapImage(queue, img, blocking, flags, wo, wr, row, slice, nwait, wait, ev, err));
    if (*err != CL_SUCCESS || !p) return p;
    ystep = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? *slice : *row;
    user = p + (o[0] - wo[0]) * pixel + (o[1] - wo[1]) * ystep + (o[2] - wo[2]) * *slice;
    if ((*err = clmem__quirk_map_note(fn, img, p, user)) != CL_SUCCESS) {
        clEnqueueUnmapMemObject(queue, img, p, ev && *ev ? 1 : 0, ev && *ev ? ev : NULL, NULL);
        return NULL;
    }
    return user;
}

/* ---- kernel argument sizes on a driver that checks none ---- */

/* clmem__quirk_src_type(src, kernel, index, type, size): the type of parameter `index`
   of kernel `kernel` in OpenCL C source `src` (comments out, as clGetKernelArgInfo's
   CL_KERNEL_ARG_TYPE_NAME has it with the blanks removed: address spaces, access and
   type qualifiers dropped, "*" kept); false where the source does not tell. */
static bool clmem__quirk_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
static bool clmem__quirk_src_type(char *src, const char *kernel, cl_uint index, char *type, size_t size) {
    static const char *const drop[] = {"const", "__const", "volatile", "restrict", "__restrict", "global", "__global",
                                       "local", "__local", "constant", "__constant", "private", "__private", "read_only",
                                       "__read_only", "write_only", "__write_only", "read_write", "__read_write"};
    size_t klen = strlen(kernel), i, n = strlen(src), used = 0;
    char *p, *open = NULL, *start, *end, *last_word = NULL, *q;
    cl_uint at = 0;
    int depth;
    for (i = 0; i < n; ++i) { /* comments to blanks */
        if (src[i] == '/' && src[i + 1] == '/')
            while (i < n && src[i] != '\n') src[i++] = ' ';
        else if (src[i] == '/' && src[i + 1] == '*') {
            src[i] = src[i + 1] = ' ';
            for (i += 2; i < n && !(src[i] == '*' && src[i + 1] == '/'); ++i) src[i] = ' ';
            if (i < n) src[i] = src[i + 1] = ' ';
        }
    }
    for (p = strstr(src, kernel); p && !open; p = strstr(p + 1, kernel)) { /* NAME ( after kernel ... */
        char *b = p, *a = p + klen;
        if ((p > src && clmem__quirk_word(p[-1])) || clmem__quirk_word(*a)) continue;
        while (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r') ++a;
        if (*a != '(') continue;
        while (b > src && b[-1] != ';' && b[-1] != '}' && b[-1] != '#') --b;
        for (q = b; q < p && !open; ++q)
            if ((q == src || !clmem__quirk_word(q[-1])) &&
                ((strncmp(q, "kernel", 6) == 0 && !clmem__quirk_word(q[6])) ||
                 (strncmp(q, "__kernel", 8) == 0 && !clmem__quirk_word(q[8]))))
                open = a;
    }
    if (!open) return false;
    for (start = open + 1, depth = 0, end = start; *end; ++end) { /* parameter `index`: [start, end) */
        if (*end == '(') {
            ++depth;
        } else if (*end == ')') {
            if (depth == 0) break;
            --depth;
        } else if (*end == ',' && depth == 0) {
            if (at == index) break;
            ++at;
            start = end + 1;
        }
    }
    if (!*end || at != index) return false;
    /* the last word is the parameter's name; the words before it, less the qualifiers,
       and the stars are the type */
    for (q = start; q < end; ++q)
        if (clmem__quirk_word(*q) && (q == start || !clmem__quirk_word(q[-1]))) last_word = q;
    if (!last_word) return false;
    for (q = start; q < last_word; ) {
        if (*q == '*') {
            if (used + 1 >= size) return false;
            type[used++] = '*';
            ++q;
        } else if (clmem__quirk_word(*q)) {
            char *w = q;
            size_t len, k;
            bool skip = false;
            while (q < last_word && clmem__quirk_word(*q)) ++q;
            len = (size_t)(q - w);
            for (k = 0; k < sizeof drop / sizeof drop[0]; ++k)
                if (strlen(drop[k]) == len && strncmp(w, drop[k], len) == 0) skip = true;
            if (skip) continue;
            if (used + len >= size) return false;
            memcpy(type + used, w, len);
            used += len;
        } else if (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') {
            ++q;
        } else {
            return false; /* [, (, a macro's punctuation, ...: not a plain declaration */
        }
    }
    if (used == 0) return false;
    type[used] = '\0';
    return true;
}

/* clmem__quirk_arg_type(fn, kernel, index, size, value, type, tsize, &found): a value
   for parameter `index` of a kernel without argument information. Where the driver
   checks argument sizes (it refuses a size of 0), *found is false and nothing is left
   to do. Where it checks none, the parameter's type from the program's source goes to
   type (*found true) for clmem's own check; where the source does not tell, the
   refusal. */
static cl_int clmem__quirk_arg_type(const char *fn, cl_kernel kernel, cl_uint index, size_t size, const void *value,
                                    char *type, size_t tsize, bool *found) {
    cl_program prog = NULL;
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    size_t n = 0;
    char name[128] = {0}, *src;
    bool ok;
    *found = false;
    if (!(clmem__quirks_forced & CLMEM__QUIRK_ARG_SIZE) && clSetKernelArg(kernel, index, 0, value) != CL_SUCCESS)
        return CL_SUCCESS; /* the driver checks sizes (a size of 0 fits no parameter) */
    if (clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL) == CL_SUCCESS && prog &&
        clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, NULL) == CL_SUCCESS &&
        clGetProgramInfo(prog, CL_PROGRAM_SOURCE, 0, NULL, &n) == CL_SUCCESS && n > 1 &&
        (src = CLMEM__CAST(char *, CLMEM_MALLOC(n + 1))) != NULL) {
        ok = clGetProgramInfo(prog, CL_PROGRAM_SOURCE, n, src, NULL) == CL_SUCCESS;
        src[n] = '\0';
        ok = ok && clmem__quirk_src_type(src, name, index, type, tsize);
        CLMEM_FREE(src);
        if (ok) {
            *found = true;
            return CL_SUCCESS;
        }
    }
    if (clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof ctx, &ctx, NULL) == CL_SUCCESS && ctx)
        clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL);
    {
        char why[200];
        snprintf(why, sizeof why, "clSetKernelArg checks no argument sizes (it took 0 bytes for argument %u), and the "
                 "kernel has no argument information for clmem to check the %zu-byte value", index, size);
        return clmem__quirk_refuse(fn, dev, why,
                                   "build the program with -cl-kernel-arg-info, or from source with a plain signature");
    }
}
