/* >>transfer_image (implementation): the image pairs of clmem_enqueue_copy

   image <- host    clEnqueueWriteImage        .origin, .region, .pitches, .host_size, .is_blocking
   host <- image    clEnqueueReadImage         .origin, .region, .pitches, .host_size, .is_blocking
   image <- image   clEnqueueCopyImage         .src_origin, .dest_origin (= .dst_origin), .region
   buffer <- image  clEnqueueCopyImageToBuffer .origin (image), .offset (buffer bytes), .region
   image <- buffer  clEnqueueCopyBufferToImage .offset (buffer bytes), .origin (image), .region
   Every image type works (PyOpenCL refuses 1-D images). Regions are in pixels, in
   region coordinates (clmem_image_extent): {0,0,0} (left out) is everything from the
   origin on; trailing 0 components count as 1. Options that do not apply to a pair
   are refused (CL_INVALID_VALUE), so a misspelt intent never goes unnoticed.
   1-D buffer images are copied through their buffer, whose bytes they are (pixel x
   at byte x * element size): the same result everywhere, and PoCL 3.1 crashes in
   clEnqueueCopyImageToBuffer on a 1-D buffer image. */
#include "transfer.h"
#include "quirks.h"

static const char clmem__copy_fn[] = "clmem_enqueue_copy";

enum {
    CLMEM__IO_ORIGIN = 1 << 0,      /* .origin */
    CLMEM__IO_PITCHES = 1 << 1,     /* .pitches */
    CLMEM__IO_SRCDST = 1 << 2,      /* .src_origin, .dst_origin, .dest_origin */
    CLMEM__IO_OFFSET = 1 << 3,      /* .offset */
    CLMEM__IO_HOST = 1 << 4         /* .host_size, .is_blocking */
};

static bool clmem__nonzero3(const size_t v[3]) { return v[0] || v[1] || v[2]; }
/* The region as written (NULL: left out) and the host size (SIZE_MAX: unknown). */
static const size_t *clmem__region_in(const clmem_copy_options *o) {
    return (o->given & CLMEM_GIVEN_REGION) || clmem__nonzero3(o->region) ? o->region : NULL;
}
static size_t clmem__host_size(const clmem_copy_options *o) {
    return (o->given & CLMEM_GIVEN_HOST_SIZE) || o->host_size ? o->host_size : SIZE_MAX;
}

/* clmem__image_copy_unused(pair, o, allowed): refuse options that do not apply. */
static cl_int clmem__image_copy_unused(const char *pair, const clmem_copy_options *o, unsigned allowed) {
    const char *bad = NULL;
    if (o->byte_count || (o->given & CLMEM_GIVEN_BYTE_COUNT)) bad = ".byte_count";
    else if (o->src_offset) bad = ".src_offset";
    else if (o->dst_offset) bad = ".dst_offset";
    else if (clmem__nonzero3(o->buffer_origin)) bad = ".buffer_origin";
    else if (clmem__nonzero3(o->host_origin)) bad = ".host_origin";
    else if (o->buffer_pitches[0] || o->buffer_pitches[1]) bad = ".buffer_pitches";
    else if (o->host_pitches[0] || o->host_pitches[1]) bad = ".host_pitches";
    else if (o->src_pitches[0] || o->src_pitches[1]) bad = ".src_pitches";
    else if (o->dst_pitches[0] || o->dst_pitches[1]) bad = ".dst_pitches";
    else if (!(allowed & CLMEM__IO_ORIGIN) && clmem__nonzero3(o->origin)) bad = ".origin";
    else if (!(allowed & CLMEM__IO_PITCHES) && (o->pitches[0] || o->pitches[1])) bad = ".pitches";
    else if (!(allowed & CLMEM__IO_SRCDST) && clmem__nonzero3(o->src_origin)) bad = ".src_origin";
    else if (!(allowed & CLMEM__IO_SRCDST) && clmem__nonzero3(o->dst_origin)) bad = ".dst_origin";
    else if (!(allowed & CLMEM__IO_SRCDST) && clmem__nonzero3(o->dest_origin)) bad = ".dest_origin";
    else if (!(allowed & CLMEM__IO_OFFSET) && o->offset) bad = ".offset";
    else if (!(allowed & CLMEM__IO_HOST) && (o->host_size || (o->given & CLMEM_GIVEN_HOST_SIZE))) bad = ".host_size";
    if (bad) return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn, "%s: option %s does not apply to this copy", pair, bad);
    if (!(allowed & CLMEM__IO_HOST) && o->is_blocking)
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn,
                           "%s: .is_blocking = true does not apply: device-side copies never block "
                           "(wait on .event instead)",
                           pair);
    return CL_SUCCESS;
}

/* clmem__image_host_layout(pair, img, region, pitches, host_size, &row, &slice): check
   the host pitches of an image <-> host transfer and that the host extent fits
   host_size (when given). */
static cl_int clmem__image_host_layout(const char *pair, const clmem_image *img, const size_t region[3],
                                       const size_t pitches[2], size_t host_size, size_t *row_out, size_t *slice_out) {
    size_t elem = img->element_size, row = pitches[0], slice = pitches[1], row_eff, slice_eff, extent = 0, a = 0, b = 0;
    bool one_d_array = img->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    bool no_slices = img->type == CL_MEM_OBJECT_IMAGE1D || img->type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                     img->type == CL_MEM_OBJECT_IMAGE2D;
    if (!clmem__mul_ok(region[0], elem, &row_eff))
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn, "%s: region[0] %zu x element size overflows", pair, region[0]);
    if (row != 0 && row < row_eff)
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn,
                           "%s: host row pitch %zu is below region[0] %zu x element size %zu = %zu", pair, row,
                           region[0], elem, row_eff);
    if (row != 0) row_eff = row;
    if (slice != 0 && no_slices)
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn,
                           "%s: host slice pitch %zu is given for a %s image, which has no slices", pair, slice,
                           clmem__image_type_name(img->type));
    if (one_d_array) {
        slice_eff = row_eff;
    } else if (!clmem__mul_ok(row_eff, region[1], &slice_eff)) {
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn, "%s: row pitch x region[1] overflows", pair);
    }
    if (slice != 0 && slice < slice_eff)
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn, "%s: host slice pitch %zu is below %s = %zu", pair, slice,
                           one_d_array ? "the row pitch (a 1-D array's rows are its slices)" : "row pitch x region[1]",
                           slice_eff);
    if (slice != 0) slice_eff = slice;
    /* the last byte touched: (layers-1)*slice + (rows-1)*row + region[0]*elem */
    if (one_d_array) {
        if (!clmem__mul_ok(region[1] - 1, slice_eff, &a) || !clmem__mul_ok(region[0], elem, &b) ||
            !clmem__add_ok(a, b, &extent))
            return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn, "%s: the host extent overflows", pair);
    } else {
        size_t c = 0;
        if (!clmem__mul_ok(region[2] - 1, slice_eff, &a) || !clmem__mul_ok(region[1] - 1, row_eff, &b) ||
            !clmem__mul_ok(region[0], elem, &c) || !clmem__add_ok(a, b, &extent) || !clmem__add_ok(extent, c, &extent))
            return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn, "%s: the host extent overflows", pair);
    }
    if (extent > host_size)
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn,
                           "%s: the region {%zu, %zu, %zu} spans %zu bytes of host memory but .host_size is %zu", pair,
                           region[0], region[1], region[2], extent, host_size);
    /* A 1-D array's rows are its slices: pass the slice pitch as the row pitch too, so
       that runtimes stepping rows by the row pitch (PoCL 3.1) agree with the spec. */
    if (one_d_array && slice != 0) row = slice;
    *row_out = row;
    *slice_out = slice;
    return CL_SUCCESS;
}

static cl_int clmem__image_common(const char *pair, cl_command_queue queue, const clmem_image *img, const char *what,
                                  const clmem_copy_options *o, unsigned allowed) {
    cl_int err;
    if ((err = clmem__check_queue(clmem__copy_fn, queue)) != CL_SUCCESS) return err;
    if (!img->mem)
        return clmem__fail(CL_INVALID_MEM_OBJECT, clmem__copy_fn, "%s: %s is an empty or released image handle", pair, what);
    if ((err = clmem__check_made(clmem__copy_fn, o->given)) != CL_SUCCESS) return err;
    if ((err = clmem__check_wait_list(clmem__copy_fn, o->wait_for, o->num_wait_for)) != CL_SUCCESS) return err;
    if ((err = clmem__image_copy_unused(pair, o, allowed)) != CL_SUCCESS) return err;
    return clmem__same_context(clmem__copy_fn, queue, img->context, what);
}

/* clmem__via_buffer(img): a 1-D buffer image, copied through its buffer. */
static bool clmem__via_buffer(const clmem_image *img) {
    return img->type == CL_MEM_OBJECT_IMAGE1D_BUFFER && img->buffer != NULL;
}

static cl_int clmem__ret(cl_int err, const char *call) {
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, clmem__copy_fn, call);
}

/* clmem__image_host(queue, img, host, write, o): image <-> host, both directions: the
   image's own checks, then the host-transfer plan's rules (transfer.c; the context was
   checked with the image), then the region and the host layout. */
static cl_int clmem__image_host(cl_command_queue queue, clmem_image img, void *host, bool write,
                                const clmem_copy_options *opts) {
    const char *pair = write ? "image <- host" : "host <- image", *what = write ? "dst" : "src";
    size_t region[3], row = 0, slice = 0, off, n;
    cl_bool blocking;
    cl_int err;
    clmem_copy_options local;
    const clmem_copy_options *o = clmem__copy_opts_or_none(opts, &local);
    if (CLMEM__CHECKS &&
        (err = clmem__image_common(pair, queue, &img, what, o, CLMEM__IO_ORIGIN | CLMEM__IO_PITCHES | CLMEM__IO_HOST)) !=
            CL_SUCCESS)
        return err;
    if ((err = clmem__host_plan_side(clmem__copy_fn, queue, NULL, what, NULL, img.flags, host, write, o, &blocking)) !=
        CL_SUCCESS)
        return err;
    if ((err = clmem__image_region(clmem__copy_fn, pair, &img, o->origin, clmem__region_in(o), region)) != CL_SUCCESS)
        return err;
    if (region[0] == 0) return clmem__nothing_to_do(clmem__copy_fn, queue, o->wait_for, o->num_wait_for, o->event);
    if (CLMEM__CHECKS) {
        if ((err = clmem__image_host_layout(pair, &img, region, o->pitches, clmem__host_size(o), &row, &slice)) != CL_SUCCESS)
            return err;
    } else {
        row = o->pitches[0];
        slice = o->pitches[1];
    }
    clmem__map_note_use(img.mem, clmem__copy_fn);
    {   /* registered host memory (registered.c) */
        clmem__registered_xfer x = {clmem__copy_fn, queue, write, blocking, o->wait_for, o->num_wait_for, o->event};
        if (clmem__registered_image(&x, img, host, o->origin, region, row, slice, &err)) return err;
    }
    if (clmem__via_buffer(&img)) {
        off = o->origin[0] * img.element_size;
        n = region[0] * img.element_size;
        return write ? clmem__ret(clEnqueueWriteBuffer(queue, img.buffer, blocking, off, n, host, o->num_wait_for,
                                                       o->wait_for, o->event), "clEnqueueWriteBuffer")
                     : clmem__ret(clEnqueueReadBuffer(queue, img.buffer, blocking, off, n, host, o->num_wait_for,
                                                      o->wait_for, o->event), "clEnqueueReadBuffer");
    }
    if (clmem__quirk_image_host(clmem__copy_fn, queue, img.mem, img.type,
                                img.element_size ? img.element_size : clmem_image_format_itemsize(img.format), write,
                                blocking, o->origin, region, row, slice, host, o->wait_for, o->num_wait_for, o->event, &err))
        return err; /* as rows: the driver drops host pitches (quirks.c) */
    return write ? clmem__ret(clEnqueueWriteImage(queue, img.mem, blocking, o->origin, region, row, slice, host,
                                                  o->num_wait_for, o->wait_for, o->event), "clEnqueueWriteImage")
                 : clmem__ret(clEnqueueReadImage(queue, img.mem, blocking, o->origin, region, row, slice, host,
                                                 o->num_wait_for, o->wait_for, o->event), "clEnqueueReadImage");
}

CLMEM_API cl_int clmem__copy_host_from_image(cl_command_queue queue, void *dst, clmem_image src,
                                             const clmem_copy_options *opts) {
    return clmem__image_host(queue, src, dst, false, opts);
}

CLMEM_API cl_int clmem__copy_image_from_host(cl_command_queue queue, clmem_image dst, const void *src,
                                             const clmem_copy_options *opts) {
    return clmem__image_host(queue, dst, clmem__unconst(src), true, opts);
}

CLMEM_API cl_int clmem__copy_image_from_image(cl_command_queue queue, clmem_image dst, clmem_image src,
                                              const clmem_copy_options *opts) {
    static const char pair[] = "image <- image";
    size_t region[3], dummy[3];
    const size_t *dst_origin;
    cl_int err;
    int i;
    clmem_copy_options local;
    const clmem_copy_options *o = clmem__copy_opts_or_none(opts, &local);
    /* .dest_origin is PyOpenCL's name, .dst_origin the table's: either, or both when equal */
    dst_origin = clmem__nonzero3(o->dest_origin) ? o->dest_origin : o->dst_origin;
    if (CLMEM__CHECKS) {
        char a[64], b[64];
        if ((err = clmem__image_common(pair, queue, &src, "src", o, CLMEM__IO_SRCDST)) != CL_SUCCESS) return err;
        if ((err = clmem__image_common(pair, queue, &dst, "dst", o, CLMEM__IO_SRCDST)) != CL_SUCCESS) return err;
        if (clmem__nonzero3(o->dest_origin) && clmem__nonzero3(o->dst_origin) &&
            (o->dest_origin[0] != o->dst_origin[0] || o->dest_origin[1] != o->dst_origin[1] ||
             o->dest_origin[2] != o->dst_origin[2]))
            return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn,
                               "%s: .dest_origin {%zu, %zu, %zu} and .dst_origin {%zu, %zu, %zu} disagree (give one)", pair,
                               o->dest_origin[0], o->dest_origin[1], o->dest_origin[2], o->dst_origin[0], o->dst_origin[1],
                               o->dst_origin[2]);
        if (!clmem_image_format_equal(src.format, dst.format))
            return clmem__fail(CL_IMAGE_FORMAT_MISMATCH, clmem__copy_fn, "%s: src format %s differs from dst format %s", pair,
                               clmem_image_format_repr(src.format, a, sizeof a),
                               clmem_image_format_repr(dst.format, b, sizeof b));
    }
    if ((err = clmem__image_region(clmem__copy_fn, "image <- image (src)", &src, o->src_origin, clmem__region_in(o), region)) !=
        CL_SUCCESS)
        return err;
    if (region[0] == 0) return clmem__nothing_to_do(clmem__copy_fn, queue, o->wait_for, o->num_wait_for, o->event);
    if ((err = clmem__image_region(clmem__copy_fn, "image <- image (dst)", &dst, dst_origin, region, dummy)) != CL_SUCCESS)
        return err;
    if (CLMEM__CHECKS && src.mem == dst.mem) {
        bool overlap = true;
        for (i = 0; i < 3; ++i)
            if (o->src_origin[i] + region[i] <= dst_origin[i] || dst_origin[i] + region[i] <= o->src_origin[i])
                overlap = false;
        if (overlap)
            return clmem__fail(CL_MEM_COPY_OVERLAP, clmem__copy_fn,
                               "%s: src and dst are the same image and the regions at {%zu, %zu, %zu} and {%zu, %zu, "
                               "%zu} of size {%zu, %zu, %zu} overlap",
                               pair, o->src_origin[0], o->src_origin[1], o->src_origin[2], dst_origin[0], dst_origin[1],
                               dst_origin[2], region[0], region[1], region[2]);
    }
    clmem__map_note_use(src.mem, clmem__copy_fn);
    clmem__map_note_use(dst.mem, clmem__copy_fn);
    if (clmem__via_buffer(&src) && clmem__via_buffer(&dst))
        return clmem__ret(clEnqueueCopyBuffer(queue, src.buffer, dst.buffer, o->src_origin[0] * src.element_size,
                                              dst_origin[0] * dst.element_size, region[0] * src.element_size,
                                              o->num_wait_for, o->wait_for, o->event),
                          "clEnqueueCopyBuffer");
    if (clmem__via_buffer(&src))
        return clmem__ret(clEnqueueCopyBufferToImage(queue, src.buffer, dst.mem, o->src_origin[0] * src.element_size,
                                                     dst_origin, region, o->num_wait_for, o->wait_for, o->event),
                          "clEnqueueCopyBufferToImage");
    if (clmem__via_buffer(&dst))
        return clmem__ret(clEnqueueCopyImageToBuffer(queue, src.mem, dst.buffer, o->src_origin, region,
                                                     dst_origin[0] * dst.element_size, o->num_wait_for, o->wait_for,
                                                     o->event),
                          "clEnqueueCopyImageToBuffer");
    err = clEnqueueCopyImage(queue, src.mem, dst.mem, o->src_origin, dst_origin, region, o->num_wait_for, o->wait_for,
                             o->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, clmem__copy_fn, "clEnqueueCopyImage");
}

/* clmem__image_buffer_bytes(pair, img, region, buf, offset): the region's packed bytes
   fit the buffer after offset. */
static cl_int clmem__image_buffer_bytes(const char *pair, const clmem_image *img, const size_t region[3],
                                        const clmem_buffer *buf, size_t offset) {
    size_t bytes = img->element_size;
    if (!clmem__mul_ok(bytes, region[0], &bytes) || !clmem__mul_ok(bytes, region[1], &bytes) ||
        !clmem__mul_ok(bytes, region[2], &bytes) || !clmem__range_ok(offset, bytes, buf->size))
        return clmem__fail(CL_INVALID_VALUE, clmem__copy_fn,
                           "%s: region {%zu, %zu, %zu} of %zu-byte pixels at buffer .offset %zu does not fit the "
                           "buffer's %zu bytes",
                           pair, region[0], region[1], region[2], img->element_size, offset, buf->size);
    return CL_SUCCESS;
}

static cl_int clmem__image_buffer_common(const char *pair, cl_command_queue queue, const clmem_image *img,
                                         const clmem_buffer *buf, const char *bufwhat, const clmem_copy_options *o) {
    cl_int err;
    if ((err = clmem__image_common(pair, queue, img, bufwhat[0] == 'd' ? "src" : "dst", o,
                                   CLMEM__IO_ORIGIN | CLMEM__IO_OFFSET)) != CL_SUCCESS)
        return err;
    if ((err = clmem__buffer_invalid(clmem__copy_fn, bufwhat, *buf)) != CL_SUCCESS ||
        (err = clmem__buffer_queue_ok(clmem__copy_fn, bufwhat, *buf, queue)) != CL_SUCCESS)
        return err;
    if (buf->context != img->context)
        return clmem__fail(CL_INVALID_CONTEXT, clmem__copy_fn, "%s: the buffer belongs to context %p, the image to %p",
                           pair, (void *)buf->context, (void *)img->context);
    return CL_SUCCESS;
}

/* clmem__image_buffer_staged: copy between a 1-D image array and a buffer through host
   memory. NVIDIA's driver (CUDA 13, measured on an H200) refuses CopyImageToBuffer and
   CopyBufferToImage on 1-D image arrays for any layer but the first, though Read/
   WriteImage work; clmem's own checks have passed when this runs, so it is the
   fallback for that refusal. Blocking; an event asked for is a marker after it. */
static cl_int clmem__image_buffer_staged(cl_command_queue queue, const clmem_image *img, cl_mem buf, bool to_buffer,
                                         const size_t origin[3], const size_t region[3], size_t offset,
                                         const clmem_copy_options *o) {
    size_t bytes = region[0] * region[1] * region[2] * img->element_size;
    size_t row = region[0] * img->element_size;
    void *tmp = CLMEM_MALLOC(bytes ? bytes : 1);
    cl_int err;
    if (!tmp) return clmem__fail(CL_OUT_OF_HOST_MEMORY, clmem__copy_fn, "no host memory to stage %zu bytes", bytes);
    if (to_buffer) {
        err = clEnqueueReadImage(queue, img->mem, CL_TRUE, origin, region, row, row, tmp, o->num_wait_for, o->wait_for, NULL);
        if (err == CL_SUCCESS) err = clEnqueueWriteBuffer(queue, buf, CL_TRUE, offset, bytes, tmp, 0, NULL, NULL);
    } else {
        err = clEnqueueReadBuffer(queue, buf, CL_TRUE, offset, bytes, tmp, o->num_wait_for, o->wait_for, NULL);
        if (err == CL_SUCCESS) err = clEnqueueWriteImage(queue, img->mem, CL_TRUE, origin, region, row, row, tmp, 0, NULL, NULL);
    }
    CLMEM_FREE(tmp);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, clmem__copy_fn, to_buffer ? "staged image -> buffer copy" : "staged buffer -> image copy");
    return clmem__nothing_to_do(clmem__copy_fn, queue, NULL, 0, o->event);
}

/* clmem__image_buffer(queue, img, buf, to_buffer, o): buffer <- image (to_buffer) and
   image <- buffer, both directions in one place. */
static cl_int clmem__image_buffer(cl_command_queue queue, clmem_image img, clmem_buffer buf, bool to_buffer,
                                  const clmem_copy_options *opts) {
    const char *pair = to_buffer ? "buffer <- image" : "image <- buffer";
    size_t region[3], img_off, n;
    cl_int err;
    clmem_copy_options local;
    const clmem_copy_options *o = clmem__copy_opts_or_none(opts, &local);
    if (CLMEM__CHECKS &&
        (err = clmem__image_buffer_common(pair, queue, &img, &buf, to_buffer ? "dst" : "src", o)) != CL_SUCCESS)
        return err;
    if ((err = clmem__image_region(clmem__copy_fn, pair, &img, o->origin, clmem__region_in(o), region)) != CL_SUCCESS)
        return err;
    if (region[0] == 0) return clmem__nothing_to_do(clmem__copy_fn, queue, o->wait_for, o->num_wait_for, o->event);
    if (CLMEM__CHECKS && (err = clmem__image_buffer_bytes(pair, &img, region, &buf, o->offset)) != CL_SUCCESS) return err;
    clmem__map_note_use(buf.mem, clmem__copy_fn);
    clmem__map_note_use(img.mem, clmem__copy_fn);
    if (clmem__via_buffer(&img)) {
        img_off = o->origin[0] * img.element_size;
        n = region[0] * img.element_size;
        return clmem__ret(to_buffer ? clEnqueueCopyBuffer(queue, img.buffer, buf.mem, img_off, o->offset, n,
                                                          o->num_wait_for, o->wait_for, o->event)
                                    : clEnqueueCopyBuffer(queue, buf.mem, img.buffer, o->offset, img_off, n,
                                                          o->num_wait_for, o->wait_for, o->event),
                          "clEnqueueCopyBuffer");
    }
    err = to_buffer ? clEnqueueCopyImageToBuffer(queue, img.mem, buf.mem, o->origin, region, o->offset, o->num_wait_for,
                                                 o->wait_for, o->event)
                    : clEnqueueCopyBufferToImage(queue, buf.mem, img.mem, o->offset, o->origin, region, o->num_wait_for,
                                                 o->wait_for, o->event);
    if (err == CL_INVALID_VALUE && img.type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        return clmem__image_buffer_staged(queue, &img, buf.mem, to_buffer, o->origin, region, o->offset, o);
    return clmem__ret(err, to_buffer ? "clEnqueueCopyImageToBuffer" : "clEnqueueCopyBufferToImage");
}

CLMEM_API cl_int clmem__copy_buffer_from_image(cl_command_queue queue, clmem_buffer dst, clmem_image src,
                                               const clmem_copy_options *opts) {
    return clmem__image_buffer(queue, src, dst, true, opts);
}

CLMEM_API cl_int clmem__copy_image_from_buffer(cl_command_queue queue, clmem_image dst, clmem_buffer src,
                                               const clmem_copy_options *opts) {
    return clmem__image_buffer(queue, dst, src, false, opts);
}
