/* >>map (implementation) */
#include "map.h"
#include "quirks.h"

/* ---- checks shared by buffer and image maps ---- */
static cl_int clmem__map_check_flags(const char *fn, cl_map_flags flags) {
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (!CLMEM__CHECKS) return CL_SUCCESS;
    if (flags == 0)
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "flags is 0: give CL_MAP_READ, CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION");
    if (flags & ~known)
        return clmem__fail(CL_INVALID_VALUE, fn, "flags 0x%llx has unknown bits 0x%llx (known: CL_MAP_READ, "
                           "CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION)",
                           (unsigned long long)flags, (unsigned long long)(flags & ~known));
    if ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))
        return clmem__fail(CL_INVALID_VALUE, fn,
                           "flags 0x%llx combine CL_MAP_WRITE_INVALIDATE_REGION with %s; it must stand alone",
                           (unsigned long long)flags, (flags & CL_MAP_READ) ? "CL_MAP_READ" : "CL_MAP_WRITE");
    return CL_SUCCESS;
}

/* clmem__map_check_access(fn, what, mem_flags, flags): the host-access rule of every
   host transfer (clmem__host_access_check), for each direction the map flags ask. */
static cl_int clmem__map_check_access(const char *fn, const char *what, cl_mem_flags mem_flags, cl_map_flags flags) {
    cl_int err;
    if ((flags & CL_MAP_READ) &&
        (err = clmem__host_access_check(fn, what, mem_flags, 0, "CL_MAP_READ: ")) != CL_SUCCESS)
        return err;
    if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
        return clmem__host_access_check(fn, what, mem_flags, 1,
                                        (flags & CL_MAP_WRITE) ? "CL_MAP_WRITE: " : "CL_MAP_WRITE_INVALIDATE_REGION: ");
    return CL_SUCCESS;
}

/* clmem__map_buffer_layout(fn, opts, itemsize, avail, m): fill m's ndim, shape,
   strides and size from the options; avail is the room from offset to the end. */
static cl_int clmem__map_buffer_layout(const char *fn, const clmem_map_options *opts, size_t itemsize, size_t avail,
                                       clmem_memory_map *m) {
    size_t size, i, ndim = opts->ndim, extent;
    bool strided = false;
    char order = opts->order || (opts->given & CLMEM_GIVEN_ORDER) ? opts->order : 'C';
    if (itemsize == 0) return clmem__fail(CL_INVALID_VALUE, fn, "the element type has size 0");
    if (order != 'C' && order != 'F')
        return clmem__fail(CL_INVALID_VALUE, fn, "order '%c' (%d) is neither 'C' nor 'F'",
                           (order >= 32 && order < 127) ? order : '?', (int)order);
    if (ndim > CLMEM_MAP_MAX_DIMS)
        return clmem__fail(CL_INVALID_VALUE, fn, "ndim %zu is above CLMEM_MAP_MAX_DIMS (%d)", ndim, CLMEM_MAP_MAX_DIMS);
    if (ndim == 0 && (opts->given & CLMEM_GIVEN_NDIM))
        return clmem__fail(CL_INVALID_VALUE, fn, ".ndim is 0: a map has at least one axis");
    if (ndim == 0 && (opts->given & CLMEM_GIVEN_SHAPE) && opts->shape[0] == 0)
        return clmem__fail(CL_INVALID_VALUE, fn, ".shape is written but its first extent is 0: OpenCL cannot map 0 bytes "
                           "(leave .shape out to map everything from offset on)");
    if (ndim == 0) {
        while (ndim < CLMEM_MAP_MAX_DIMS && opts->shape[ndim] != 0) ++ndim;
        for (i = ndim; i < CLMEM_MAP_MAX_DIMS; ++i)
            if (opts->shape[i] != 0)
                return clmem__fail(CL_INVALID_VALUE, fn, "shape[%zu] is %zu after shape[%zu] == 0: a 0 ends the shape "
                                   "(give .ndim for an axis of length 0)", i, opts->shape[i], ndim);
    }
    m->itemsize = itemsize;
    if (ndim == 0) { /* no shape: everything from offset to the end, as one axis */
        if (avail % itemsize != 0)
            return clmem__fail(CL_INVALID_VALUE, fn, "the %zu bytes from offset to the end of the buffer are not a "
                               "whole number of %zu-byte elements: give .shape", avail, itemsize);
        m->ndim = 1;
        m->shape[0] = avail / itemsize;
        m->strides[0] = itemsize;
        m->size = avail;
        return CL_SUCCESS;
    }
    size = itemsize;
    for (i = 0; i < ndim; ++i)
        if (!clmem__mul_ok(size, opts->shape[i], &size))
            return clmem__fail(CL_INVALID_VALUE, fn, "the size of the map (itemsize %zu times the shape) overflows size_t",
                               itemsize);
    m->ndim = (unsigned)ndim;
    for (i = 0; i < ndim; ++i) {
        m->shape[i] = opts->shape[i];
        if (opts->strides[i] != 0) strided = true;
    }
    if (size == 0) { /* an axis of length 0 under an explicit .ndim */
        m->size = 0;
        return CL_SUCCESS;
    }
    if (strided) { /* the caller's strides: every element they reach must be inside the map */
        extent = itemsize;
        for (i = 0; i < ndim; ++i) {
            size_t reach;
            if (!clmem__mul_ok(m->shape[i] - 1, opts->strides[i], &reach) || !clmem__add_ok(extent, reach, &extent))
                return clmem__fail(CL_INVALID_VALUE, fn, "shape[%zu] %zu x strides[%zu] %zu overflows size_t", i,
                                   m->shape[i], i, opts->strides[i]);
            m->strides[i] = opts->strides[i];
        }
        if (extent > size)
            return clmem__fail(CL_INVALID_VALUE, fn, "the strides reach %zu bytes but the map holds %zu (itemsize * "
                               "prod(shape)); strides do not change the mapped size", extent, size);
    } else {
        size_t s = itemsize;
        if (order == 'C') {
            for (i = ndim; i-- > 0;) {
                m->strides[i] = s;
                s *= m->shape[i];
            }
        } else {
            for (i = 0; i < ndim; ++i) {
                m->strides[i] = s;
                s *= m->shape[i];
            }
        }
    }
    m->size = size;
    return CL_SUCCESS;
}


/* clmem__map_finish(...): the driver call succeeded; the record keeps the object and
   the queue alive until the unmap; publish the map. */
static void clmem__map_finish(clmem_memory_map *m, const clmem__map_record *rec, cl_command_queue queue, cl_event ev,
                              const clmem_map_options *opts, void *ptr) {
    clRetainMemObject(rec->mem);
    clRetainCommandQueue(queue);
    m->ptr = ptr;
    m->mem = rec->mem;
    m->queue = queue;
    m->event = ev;
    m->flags = rec->flags;
    m->serial = rec->serial;
    m->file = rec->file;
    m->line = rec->line;
    if (opts->event) {
        if (ev) clRetainEvent(ev);
        *opts->event = ev;
    }
    clmem__map_publish(rec->serial, ptr, queue, ev);
}

/* clmem__map_enter(fn, rec, opts): enter the record (clmem__map_reserve, with the call
   site). The wait list was checked by clmem__map_start. */
static cl_int clmem__map_enter(const char *fn, clmem__map_record *rec, const clmem_map_options *opts) {
    rec->file = opts->clmem__file;
    rec->line = opts->clmem__line;
    return clmem__map_reserve(fn, rec);
}

CLMEM__UNSET_TABLE(clmem_map_options, CLMEM__MAP_UNSET)
/* clmem__map_start(fn, queue, mem, what, flags, map, &opts, local): what every map
   function does first: NULL options mean every default (one from CLMEM_MAP_OPTIONS_INIT
   is read into *local: CLMEM__OPTIONS_IN), *map starts empty (a failed map leaves
   an empty handle), then the checks every map makes alike, before the object-specific
   ones (the wait list: clmem__check_wait_list, an event that has already failed
   refused, blocking or not). */
static cl_int clmem__map_start(const char *fn, cl_command_queue queue, cl_mem mem, const char *what,
                               cl_map_flags flags, clmem_memory_map *map, const clmem_map_options **optsp,
                               clmem_map_options *local) {
    const clmem_map_options *opts = CLMEM__OPTIONS_IN(clmem_map_options, *optsp, local);
    cl_int err;
    *optsp = opts;
    if (map == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "map (where to put the map) is NULL");
    memset(map, 0, sizeof *map);
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if (CLMEM__CHECKS && mem == NULL)
        return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "%s is an empty handle (mem NULL: never created or released)", what);
    if ((err = clmem__map_check_flags(fn, flags)) != CL_SUCCESS) return err;
    if ((err = clmem__check_made(fn, opts->given)) != CL_SUCCESS) return err;
    return clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for);
}

CLMEM_API cl_int clmem_enqueue_map_buffer_opts(cl_command_queue queue, clmem_buffer buf, cl_map_flags flags,
                                               size_t offset, size_t itemsize, const char *dtype,
                                               clmem_memory_map *map, const clmem_map_options *opts) {
    static const char fn[] = "clmem_enqueue_map_buffer";
    clmem_map_options local;
    clmem_memory_map m;
    clmem__map_record rec;
    bool blocking;
    cl_event ev = NULL;
    cl_int err;
    size_t i;
    void *ptr;
    memset(&m, 0, sizeof m);
    if ((err = clmem__map_start(fn, queue, buf.mem, "buf", flags, map, &opts, &local)) != CL_SUCCESS) return err;
    if (CLMEM__CHECKS && ((err = clmem__buffer_invalid(fn, "buf", buf)) != CL_SUCCESS ||
                          (err = clmem__buffer_queue_ok(fn, "buf", buf, queue)) != CL_SUCCESS))
        return err;
    blocking = clmem__host_blocking(opts->given, opts->is_blocking) != CL_FALSE;
    for (i = 0; i < 3; ++i)
        if (opts->origin[i] != 0 || opts->region[i] != 0 || (opts->given & CLMEM_GIVEN_REGION))
            return clmem__fail(CL_INVALID_VALUE, fn, ".origin {%zu, %zu, %zu} and .region {%zu, %zu, %zu} are for image "
                               "maps; a buffer map takes offset and .shape", opts->origin[0], opts->origin[1],
                               opts->origin[2], opts->region[0], opts->region[1], opts->region[2]);
    if (CLMEM__CHECKS && offset > buf.size)
        return clmem__fail(CL_INVALID_VALUE, fn, "offset %zu is beyond the buffer's %zu bytes", offset, buf.size);
    if ((err = clmem__map_buffer_layout(fn, opts, itemsize, offset < buf.size ? buf.size - offset : 0, &m)) != CL_SUCCESS)
        return err;
    if (CLMEM__CHECKS && m.size == 0)
        return clmem__fail(CL_INVALID_VALUE, fn, "the map would hold 0 bytes (offset %zu of a %zu-byte buffer): OpenCL "
                           "cannot map nothing", offset, buf.size);
    if (CLMEM__CHECKS && !clmem__range_ok(offset, m.size, buf.size))
        return clmem__fail(CL_INVALID_VALUE, fn, "offset %zu + size %zu (shape of %zu-byte elements) is beyond the "
                           "buffer's %zu bytes", offset, m.size, itemsize, buf.size);
    if ((err = clmem__map_check_access(fn, "buf", buf.flags, flags)) != CL_SUCCESS) return err;
    if ((err = clmem__same_context(fn, queue, buf.context, "buf")) != CL_SUCCESS) return err;

    memset(&rec, 0, sizeof rec);
    rec.mem = buf.mem;
    rec.root = buf.root ? buf.root : buf.mem;
    rec.flags = flags;
    rec.lo[0] = buf.origin + offset;
    rec.hi[0] = rec.lo[0] + m.size;
    rec.hi[1] = rec.hi[2] = 1;
    if ((err = clmem__map_enter(fn, &rec, opts)) != CL_SUCCESS) return err;
    ptr = clEnqueueMapBuffer(queue, buf.mem, blocking ? CL_TRUE : CL_FALSE, flags, offset, m.size, opts->num_wait_for,
                             opts->wait_for, (!blocking || opts->event) ? &ev : NULL, &err);
    if (err != CL_SUCCESS || ptr == NULL) {
        clmem__map_cancel(rec.serial);
        if (ev) clReleaseEvent(ev);
        return clmem__cl_fail(err != CL_SUCCESS ? err : CL_MAP_FAILURE, fn, "clEnqueueMapBuffer");
    }
    m.dtype = dtype ? dtype : "bytes";
    clmem__map_finish(&m, &rec, queue, ev, opts, ptr);
    *map = m;
    return CL_SUCCESS;
}

/* ---- images ---- */

/* The name of one pixel's OpenCL type where there is one (CL_RGBA + CL_FLOAT:
   "cl_float4"), else "bytes". */
static const char *clmem__map_pixel_dtype(cl_image_format f, size_t pixel_size) {
    static const char *const names[8][3] = {
        {"cl_char", "cl_char2", "cl_char4"},     {"cl_uchar", "cl_uchar2", "cl_uchar4"},
        {"cl_short", "cl_short2", "cl_short4"},  {"cl_ushort", "cl_ushort2", "cl_ushort4"},
        {"cl_int", "cl_int2", "cl_int4"},        {"cl_uint", "cl_uint2", "cl_uint4"},
        {"cl_half", "cl_half2", "cl_half4"},     {"cl_float", "cl_float2", "cl_float4"}};
    int t;
    size_t size, n;
    switch (f.image_channel_data_type) {
    case CL_SNORM_INT8: case CL_SIGNED_INT8: t = 0, size = 1; break;
    case CL_UNORM_INT8: case CL_UNSIGNED_INT8: t = 1, size = 1; break;
    case CL_SNORM_INT16: case CL_SIGNED_INT16: t = 2, size = 2; break;
    case CL_UNORM_INT16: case CL_UNSIGNED_INT16: t = 3, size = 2; break;
    case CL_SIGNED_INT32: t = 4, size = 4; break;
    case CL_UNSIGNED_INT32: t = 5, size = 4; break;
    case CL_HALF_FLOAT: t = 6, size = 2; break;
    case CL_FLOAT: t = 7, size = 4; break;
    default: return "bytes";
    }
    n = pixel_size / size;
    return n == 1 ? names[t][0] : n == 2 ? names[t][1] : n == 4 ? names[t][2] : "bytes";
}

/* clmem__map_image_shape(m, type, r, pixel, row_pitch, slice_pitch): an image map's
   axes (slowest first), strides and size from the region and the driver's pitches. */
static void clmem__map_image_shape(clmem_memory_map *m, cl_mem_object_type type, const size_t r[3], size_t pixel,
                                   size_t row_pitch, size_t slice_pitch) {
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: /* layers are slice_pitch apart */
        m->ndim = 2;
        m->shape[0] = r[1], m->shape[1] = r[0];
        m->strides[0] = slice_pitch, m->strides[1] = pixel;
        m->size = (r[1] - 1) * slice_pitch + r[0] * pixel;
        break;
    case CL_MEM_OBJECT_IMAGE2D:
        m->ndim = 2;
        m->shape[0] = r[1], m->shape[1] = r[0];
        m->strides[0] = row_pitch, m->strides[1] = pixel;
        m->size = (r[1] - 1) * row_pitch + r[0] * pixel;
        break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D:
        m->ndim = 3;
        m->shape[0] = r[2], m->shape[1] = r[1], m->shape[2] = r[0];
        m->strides[0] = slice_pitch, m->strides[1] = row_pitch, m->strides[2] = pixel;
        m->size = (r[2] - 1) * slice_pitch + (r[1] - 1) * row_pitch + r[0] * pixel;
        break;
    default: /* 1-D */
        m->ndim = 1;
        m->shape[0] = r[0];
        m->strides[0] = pixel;
        m->size = r[0] * pixel;
        break;
    }
}

CLMEM_API cl_int clmem_enqueue_map_image_opts(cl_command_queue queue, clmem_image img, cl_map_flags flags,
                                              clmem_memory_map *map, const clmem_map_options *opts) {
    static const char fn[] = "clmem_enqueue_map_image";
    static const char *const axis[3] = {"x", "y", "z"};
    clmem_map_options local;
    clmem_memory_map m;
    clmem__map_record rec;
    size_t dims[3], o[3], r[3], pixel, row_pitch = 0, slice_pitch = 0, i;
    bool blocking;
    cl_event ev = NULL;
    cl_int err;
    void *ptr;
    memset(&m, 0, sizeof m);
    if ((err = clmem__map_start(fn, queue, img.mem, "img", flags, map, &opts, &local)) != CL_SUCCESS) return err;
    blocking = clmem__host_blocking(opts->given, opts->is_blocking) != CL_FALSE;
    if (opts->ndim != 0 || opts->order != 0 || (opts->given & (CLMEM_GIVEN_NDIM | CLMEM_GIVEN_ORDER | CLMEM_GIVEN_SHAPE)))
        return clmem__fail(CL_INVALID_VALUE, fn, "an image map takes its shape from the region: leave .ndim (%zu), .order "
                           "(%d) and .shape out", (size_t)opts->ndim, (int)opts->order);
    for (i = 0; i < CLMEM_MAP_MAX_DIMS; ++i)
        if (opts->shape[i] != 0 || opts->strides[i] != 0)
            return clmem__fail(CL_INVALID_VALUE, fn, "an image map takes its shape and strides from the region and the "
                               "pitches the driver returns: leave .shape and .strides out (shape[%zu] %zu, strides[%zu] %zu)",
                               i, opts->shape[i], i, opts->strides[i]);
    /* the image's extent along x, y, z for its type (unused axes have extent 1) */
    dims[0] = img.width;
    dims[1] = dims[2] = 1;
    switch (img.type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: dims[1] = img.array_size; break;
    case CL_MEM_OBJECT_IMAGE2D: dims[1] = img.height; break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: dims[1] = img.height, dims[2] = img.array_size; break;
    case CL_MEM_OBJECT_IMAGE3D: dims[1] = img.height, dims[2] = img.depth; break;
    default:
        return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "img has type 0x%x, which is not an image type", (unsigned)img.type);
    }
    for (i = 0; i < 3; ++i) o[i] = opts->origin[i];
    if (opts->region[0] != 0 || opts->region[1] != 0 || opts->region[2] != 0 || (opts->given & CLMEM_GIVEN_REGION)) {
        for (i = 0; i < 3; ++i) r[i] = opts->region[i];
        if (CLMEM__CHECKS && (r[0] == 0 || (r[1] == 0 && r[2] != 0)))
            return clmem__fail(CL_INVALID_VALUE, fn, "region {%zu, %zu, %zu} is empty along %s", r[0], r[1], r[2],
                               r[0] == 0 ? "x" : "y");
        if (r[1] == 0) r[1] = 1;
        if (r[2] == 0) r[2] = 1;
    } else {
        for (i = 0; i < 3; ++i) r[i] = o[i] < dims[i] ? dims[i] - o[i] : 0;
        if (CLMEM__CHECKS && (r[0] == 0 || r[1] == 0 || r[2] == 0))
            return clmem__fail(CL_INVALID_VALUE, fn, "origin {%zu, %zu, %zu} is outside the %zux%zux%zu image", o[0], o[1],
                               o[2], dims[0], dims[1], dims[2]);
    }
    if (CLMEM__CHECKS)
        for (i = 0; i < 3; ++i)
            if (!clmem__range_ok(o[i], r[i], dims[i]))
                return clmem__fail(CL_INVALID_VALUE, fn, "origin %s %zu + region %zu is beyond the image's %zu (the image "
                                   "is %zux%zux%zu along x, y, z)", axis[i], o[i], r[i], dims[i], dims[0], dims[1], dims[2]);
    pixel = img.element_size ? img.element_size : clmem_image_format_itemsize(img.format);
    if (pixel == 0)
        return clmem__fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, fn, "img has an unknown format (order 0x%x, type 0x%x)",
                           (unsigned)img.format.image_channel_order, (unsigned)img.format.image_channel_data_type);
    if ((err = clmem__map_check_access(fn, "img", img.flags, flags)) != CL_SUCCESS) return err;
    if ((err = clmem__same_context(fn, queue, img.context, "img")) != CL_SUCCESS) return err;

    memset(&rec, 0, sizeof rec);
    rec.mem = rec.root = img.mem;
    rec.flags = flags;
    for (i = 0; i < 3; ++i) {
        rec.lo[i] = o[i];
        rec.hi[i] = o[i] + r[i];
    }
    if ((err = clmem__map_enter(fn, &rec, opts)) != CL_SUCCESS) return err;
    ptr = clmem__quirk_map_image(fn, queue, img.mem, img.type, pixel, dims, blocking ? CL_TRUE : CL_FALSE, flags, o, r,
                                 &row_pitch, &slice_pitch, opts->num_wait_for, opts->wait_for,
                                 (!blocking || opts->event) ? &ev : NULL, &err); /* quirks.c: as whole rows where needed */
    if (err != CL_SUCCESS || ptr == NULL) {
        clmem__map_cancel(rec.serial);
        if (ev) clReleaseEvent(ev);
        return clmem__cl_fail(err != CL_SUCCESS ? err : CL_MAP_FAILURE, fn, "clEnqueueMapImage");
    }
    m.dtype = clmem__map_pixel_dtype(img.format, pixel);
    m.itemsize = pixel;
    m.row_pitch = row_pitch;
    m.slice_pitch = slice_pitch;
    clmem__map_image_shape(&m, img.type, r, pixel, row_pitch, slice_pitch);
    clmem__map_finish(&m, &rec, queue, ev, opts, ptr);
    *map = m;
    return CL_SUCCESS;
}

/* ---- unmapping ---- */
/* same_queue: the unmap goes to the queue the map was made on (its context is right). */
static cl_int clmem__unmap_checks(const char *fn, cl_command_queue queue, bool same_queue, cl_mem mem,
                                  const cl_event *wait_for, cl_uint num_wait_for) {
    cl_int err;
    cl_context mctx = NULL;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if ((err = clmem__check_wait_list(fn, wait_for, num_wait_for)) != CL_SUCCESS) return err;
    if (CLMEM__CHECKS && !same_queue && clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof mctx, &mctx, NULL) == CL_SUCCESS)
        return clmem__same_context(fn, queue, mctx, "the mapped object");
    return CL_SUCCESS;
}

/* clmem__map_release(fn, map, opts, final): final (clmem_release, CLMEM_WITH_MAP): the
   handle goes out of scope after this call, so when the driver refuses the unmap the
   record is dropped anyway (its references to the object, queue and event released:
   nothing clmem holds leaks; the driver's mapping is the driver's) and the driver's
   code returned. Not final: the map stays live and may be released again. */
static cl_int clmem__map_release(const char *fn, clmem_memory_map *map, const clmem_unmap_options *opts, bool final);

CLMEM_API cl_int clmem_memory_map_release_opts(clmem_memory_map *map, const clmem_unmap_options *opts) {
    return clmem__map_release("clmem_memory_map_release", map, opts, false);
}

static cl_int clmem__map_release(const char *fn, clmem_memory_map *map, const clmem_unmap_options *opts, bool final) {
    static const clmem_unmap_options none = CLMEM_OPTIONS_INIT;
    cl_command_queue queue;
    cl_mem mem;
    cl_int err;
    size_t i;
    bool same_queue;
    char where[320];
    if (!opts) opts = &none;
    if ((err = clmem__check_made(fn, opts->given)) != CL_SUCCESS) return err;
    if (map == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "map is NULL");
    if (map->serial == 0 && map->ptr == NULL) return CL_SUCCESS; /* never held a map (e.g. the map failed) */
    if (map->file)
        snprintf(where, sizeof where, "map #%llu made at %s:%d", map->serial, map->file, map->line);
    else
        snprintf(where, sizeof where, "map #%llu", map->serial);
    clmem__lock(&clmem__map_lock);
    i = map->serial ? clmem__map_find(map->serial) : clmem__map_count;
    if (i == clmem__map_count || clmem__maps[i].busy) {
        clmem__unlock(&clmem__map_lock);
        if (map->serial == 0)
            return clmem__fail(CL_INVALID_VALUE, fn, "map.ptr %p was not handed out by clmem (the handle has no serial)",
                               map->ptr);
        return clmem__fail(CLMEM_ERROR_DOUBLE_RELEASE, fn, "%s was already released; no second unmap was enqueued",
                           where);
    }
    if (clmem__maps[i].ptr == NULL || clmem__maps[i].ptr != map->ptr || clmem__maps[i].mem != map->mem) {
        void *live_ptr = clmem__maps[i].ptr;
        cl_mem live_mem = clmem__maps[i].mem;
        clmem__unlock(&clmem__map_lock);
        return clmem__fail(CL_INVALID_VALUE, fn, "%s is of object %p at %p, but the handle names object %p at %p: "
                           "clmem did not hand out that pointer", where, (void *)live_mem, live_ptr, (void *)map->mem,
                           map->ptr);
    }
    clmem__maps[i].busy = 1;
    mem = clmem__maps[i].mem;
    queue = opts->queue ? opts->queue : clmem__maps[i].queue;
    same_queue = queue == clmem__maps[i].queue;
    clmem__unlock(&clmem__map_lock);
    err = clmem__unmap_checks(fn, queue, same_queue, mem, opts->wait_for, opts->num_wait_for);
    if (err == CL_SUCCESS) {
        err = clEnqueueUnmapMemObject(queue, mem, clmem__quirk_map_ptr(mem, map->ptr), opts->num_wait_for, opts->wait_for,
                                      opts->event);
        if (err != CL_SUCCESS) err = clmem__cl_fail(err, fn, "clEnqueueUnmapMemObject");
    }
    if (err != CL_SUCCESS && !final) {
        clmem__map_unclaim(map->serial);
        return err;
    }
    clmem__quirk_map_forget(mem, map->ptr);
    clmem__map_drop(map->serial);
    map->ptr = NULL;
    map->mem = NULL;
    map->queue = NULL;
    map->event = NULL;
    return err;
}

CLMEM_API cl_int clmem_memory_map_release_default(clmem_memory_map *map) {
    return clmem__map_release("clmem_release", map, NULL, true);
}

CLMEM_API cl_int clmem_enqueue_unmap_mem_object_opts(cl_command_queue queue, cl_mem mem, void *ptr,
                                                     const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_unmap_mem_object";
    size_t i, k, other = 0;
    unsigned long long serial = 0;
    bool same_queue = false;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
    if (mem == NULL) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem is NULL");
    if (ptr == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "ptr is NULL");
    clmem__lock(&clmem__map_lock);
    for (i = clmem__map_count; i-- > 0;) /* the most recent live map of (mem, ptr) */
        if (clmem__maps[i].mem == mem && clmem__maps[i].ptr == ptr && !clmem__maps[i].busy) {
            serial = clmem__maps[i].serial;
            same_queue = queue == clmem__maps[i].queue;
            clmem__maps[i].busy = 1;
            break;
        }
    if (serial == 0) {
        for (k = 0; k < clmem__map_count; ++k)
            if (clmem__maps[k].ptr == ptr) ++other;
        clmem__unlock(&clmem__map_lock);
        if (other)
            return clmem__fail(CL_INVALID_VALUE, fn, "pointer %p is a live map of another memory object, not of %p",
                               ptr, (void *)mem);
        return clmem__fail(CL_INVALID_VALUE, fn, "pointer %p is not a live map of memory object %p that clmem handed "
                           "out (never mapped, or already unmapped)", ptr, (void *)mem);
    }
    clmem__unlock(&clmem__map_lock);
    err = clmem__unmap_checks(fn, queue, same_queue, mem, opts->wait_for, opts->num_wait_for);
    if (err == CL_SUCCESS) {
        err = clEnqueueUnmapMemObject(queue, mem, clmem__quirk_map_ptr(mem, ptr), opts->num_wait_for, opts->wait_for,
                                      opts->event);
        if (err != CL_SUCCESS) err = clmem__cl_fail(err, fn, "clEnqueueUnmapMemObject");
    }
    if (err != CL_SUCCESS) {
        clmem__map_unclaim(serial);
        return err;
    }
    clmem__quirk_map_forget(mem, ptr);
    clmem__map_drop(serial);
    return CL_SUCCESS;
}

CLMEM_API void *clmem_memory_map_at(const clmem_memory_map *map, const size_t *index) {
    static const char fn[] = "clmem_memory_map_at";
    size_t off = 0, i;
    if (map == NULL || map->ptr == NULL) {
        clmem__fail(CL_INVALID_VALUE, fn, "the map is %s", map ? "empty or released" : "NULL");
        return NULL;
    }
    if (index == NULL && map->ndim > 0) {
        clmem__fail(CL_INVALID_VALUE, fn, "index is NULL");
        return NULL;
    }
    for (i = 0; i < map->ndim; ++i) {
        if (index[i] >= map->shape[i]) {
            clmem__fail(CL_INVALID_VALUE, fn, "index[%zu] is %zu but the axis has %zu elements", i, index[i], map->shape[i]);
            return NULL;
        }
        off += index[i] * map->strides[i];
    }
    return (char *)map->ptr + off;
}
