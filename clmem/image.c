/* >>image (implementation) */
#include "image.h"
#include "quirks.h"

/* ---- formats ---- */

#define CLMEM__CHANNEL_ORDERS(X)                                                                       \
    X(CL_R, "R", 1) X(CL_A, "A", 1) X(CL_RG, "RG", 2) X(CL_RA, "RA", 2) X(CL_RGB, "RGB", 3)            \
    X(CL_RGBA, "RGBA", 4) X(CL_BGRA, "BGRA", 4) X(CL_ARGB, "ARGB", 4) X(CL_INTENSITY, "INTENSITY", 1) \
    X(CL_LUMINANCE, "LUMINANCE", 1) X(CL_Rx, "Rx", 1) X(CL_RGx, "RGx", 2) X(CL_RGBx, "RGBx", 3)        \
    X(0x10BD, "DEPTH", 1) X(0x10BE, "DEPTH_STENCIL", 1) X(0x10BF, "sRGB", 3) X(0x10C0, "sRGBx", 3)     \
    X(0x10C1, "sRGBA", 4) X(0x10C2, "sBGRA", 4) X(0x10C3, "ABGR", 4)
/* 0x10BD..0x10C3 are CL_DEPTH, CL_DEPTH_STENCIL, CL_sRGB, CL_sRGBx, CL_sRGBA, CL_sBGRA,
   CL_ABGR (OpenCL 2.0 headers); spelled as numbers so 1.2 headers compile too. */
#define CLMEM__ORDER_DEPTH 0x10BD
#define CLMEM__ORDER_DEPTH_STENCIL 0x10BE
#define CLMEM__ORDER_SRGB 0x10BF
#define CLMEM__ORDER_SRGBX 0x10C0
#define CLMEM__ORDER_SRGBA 0x10C1
#define CLMEM__ORDER_SBGRA 0x10C2
#define CLMEM__ORDER_ABGR 0x10C3

/* type, name, bytes per channel, packed (1: the channels share one word of that size) */
#define CLMEM__CHANNEL_TYPES(X)                                                                        \
    X(CL_SNORM_INT8, "SNORM_INT8", 1, 0) X(CL_SNORM_INT16, "SNORM_INT16", 2, 0)                        \
    X(CL_UNORM_INT8, "UNORM_INT8", 1, 0) X(CL_UNORM_INT16, "UNORM_INT16", 2, 0)                        \
    X(CL_UNORM_SHORT_565, "UNORM_SHORT_565", 2, 1) X(CL_UNORM_SHORT_555, "UNORM_SHORT_555", 2, 1)      \
    X(CL_UNORM_INT_101010, "UNORM_INT_101010", 4, 1) X(CL_SIGNED_INT8, "SIGNED_INT8", 1, 0)           \
    X(CL_SIGNED_INT16, "SIGNED_INT16", 2, 0) X(CL_SIGNED_INT32, "SIGNED_INT32", 4, 0)                  \
    X(CL_UNSIGNED_INT8, "UNSIGNED_INT8", 1, 0) X(CL_UNSIGNED_INT16, "UNSIGNED_INT16", 2, 0)            \
    X(CL_UNSIGNED_INT32, "UNSIGNED_INT32", 4, 0) X(CL_HALF_FLOAT, "HALF_FLOAT", 2, 0)                  \
    X(CL_FLOAT, "FLOAT", 4, 0) X(0x10DF, "UNORM_INT24", 4, 1) X(0x10E0, "UNORM_INT_101010_2", 4, 1)
#define CLMEM__TYPE_UNORM_INT24 0x10DF
#define CLMEM__TYPE_UNORM_INT_101010_2 0x10E0

CLMEM_API cl_uint clmem_image_format_channel_count(clmem_image_format f) {
    switch (f.image_channel_order) {
#define CLMEM__ORDER_COUNT(o, name, n) case o: return n;
        CLMEM__CHANNEL_ORDERS(CLMEM__ORDER_COUNT)
#undef CLMEM__ORDER_COUNT
    default: return 0;
    }
}

CLMEM_API const char *clmem_channel_order_name(cl_channel_order order) {
    switch (order) {
#define CLMEM__ORDER_NAME(o, name, n) case o: return name;
        CLMEM__CHANNEL_ORDERS(CLMEM__ORDER_NAME)
#undef CLMEM__ORDER_NAME
    default: return NULL;
    }
}

CLMEM_API const char *clmem_channel_type_name(cl_channel_type type) {
    switch (type) {
#define CLMEM__TYPE_NAME(t, name, size, packed) case t: return name;
        CLMEM__CHANNEL_TYPES(CLMEM__TYPE_NAME)
#undef CLMEM__TYPE_NAME
    default: return NULL;
    }
}

CLMEM_API size_t clmem_image_format_dtype_size(clmem_image_format f) {
    switch (f.image_channel_data_type) {
#define CLMEM__TYPE_SIZE(t, name, size, packed) case t: return size;
        CLMEM__CHANNEL_TYPES(CLMEM__TYPE_SIZE)
#undef CLMEM__TYPE_SIZE
    default: return 0;
    }
}

static bool clmem__channel_type_packed(cl_channel_type type) {
    switch (type) {
#define CLMEM__TYPE_PACKED(t, name, size, packed) case t: return packed != 0;
        CLMEM__CHANNEL_TYPES(CLMEM__TYPE_PACKED)
#undef CLMEM__TYPE_PACKED
    default: return false;
    }
}

CLMEM_API size_t clmem_image_format_itemsize(clmem_image_format f) {
    size_t size = clmem_image_format_dtype_size(f);
    cl_uint n = clmem_image_format_channel_count(f);
    if (size == 0 || n == 0) return 0;
    if (clmem__channel_type_packed(f.image_channel_data_type)) return size;
    if (f.image_channel_order == CLMEM__ORDER_DEPTH_STENCIL) return 8; /* FLOAT depth + 8-bit stencil, padded */
    if (f.image_channel_order == CL_Rx || f.image_channel_order == CL_RGx || f.image_channel_order == CL_RGBx ||
        f.image_channel_order == CLMEM__ORDER_SRGBX)
        ++n; /* the x padding channel is stored */
    return n * size;
}

CLMEM_API const char *clmem_image_format_repr(clmem_image_format f, char *buf, size_t size) {
    const char *o = clmem_channel_order_name(f.image_channel_order);
    const char *t = clmem_channel_type_name(f.image_channel_data_type);
    char ob[48], tb[48];
    if (!buf || size == 0) return buf;
    if (!o) {
        snprintf(ob, sizeof ob, "<unknown channel order 0x%x>", (unsigned)f.image_channel_order);
        o = ob;
    }
    if (!t) {
        snprintf(tb, sizeof tb, "<unknown channel data type 0x%x>", (unsigned)f.image_channel_data_type);
        t = tb;
    }
    if (snprintf(buf, size, "ImageFormat(%s, %s)", o, t) < 0) buf[0] = '\0'; /* truncation is fine: the caller sized buf */
    return buf;
}

/* clmem__check_format(fn, f): the order and type exist and OpenCL allows them together.
   CL_INVALID_IMAGE_FORMAT_DESCRIPTOR otherwise. */
static cl_int clmem__check_format(const char *fn, clmem_image_format f) {
    cl_channel_order o = f.image_channel_order;
    cl_channel_type t = f.image_channel_data_type;
    const char *on = clmem_channel_order_name(o), *tn = clmem_channel_type_name(t);
    bool ok = true;
    const char *rule = "";
    if (!on)
        return clmem__fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, fn, "format has unknown channel order 0x%x", (unsigned)o);
    if (!tn)
        return clmem__fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, fn, "format has unknown channel data type 0x%x", (unsigned)t);
    if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010) {
        ok = o == CL_RGB || o == CL_RGBx;
        rule = "packed types 565, 555 and 101010 go with RGB or RGBx only";
    } else if (t == CLMEM__TYPE_UNORM_INT_101010_2) {
        ok = o == CL_RGBA;
        rule = "UNORM_INT_101010_2 goes with RGBA only";
    } else if (t == CLMEM__TYPE_UNORM_INT24) {
        ok = o == CLMEM__ORDER_DEPTH || o == CLMEM__ORDER_DEPTH_STENCIL;
        rule = "UNORM_INT24 goes with DEPTH or DEPTH_STENCIL only";
    } else if (o == CL_RGB || o == CL_RGBx) {
        ok = false;
        rule = "RGB and RGBx need a packed type (UNORM_SHORT_565, UNORM_SHORT_555, UNORM_INT_101010); use RGBA";
    } else if (o == CL_INTENSITY || o == CL_LUMINANCE) {
        ok = t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
             t == CL_HALF_FLOAT || t == CL_FLOAT;
        rule = "INTENSITY and LUMINANCE take UNORM/SNORM 8 and 16 bit, HALF_FLOAT or FLOAT";
    } else if (o == CL_ARGB || o == CL_BGRA || o == CLMEM__ORDER_ABGR) {
        ok = t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
        rule = "ARGB, BGRA and ABGR take 8-bit types only";
    } else if (o == CLMEM__ORDER_SRGB || o == CLMEM__ORDER_SRGBX || o == CLMEM__ORDER_SRGBA || o == CLMEM__ORDER_SBGRA) {
        ok = t == CL_UNORM_INT8;
        rule = "the sRGB orders take UNORM_INT8 only";
    } else if (o == CLMEM__ORDER_DEPTH) {
        ok = t == CL_UNORM_INT16 || t == CL_FLOAT;
        rule = "DEPTH takes UNORM_INT16, UNORM_INT24 or FLOAT";
    } else if (o == CLMEM__ORDER_DEPTH_STENCIL) {
        ok = t == CL_FLOAT;
        rule = "DEPTH_STENCIL takes UNORM_INT24 or FLOAT";
    }
    if (!ok)
        return clmem__fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, fn, "format ImageFormat(%s, %s) is not valid: %s", on, tn,
                           rule);
    return CL_SUCCESS;
}

static bool clmem__is_image_type(cl_mem_object_type t) {
    return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
           t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

static const char *clmem__image_type_name(cl_mem_object_type t) {
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: return "IMAGE1D";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "IMAGE1D_BUFFER";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "IMAGE1D_ARRAY";
    case CL_MEM_OBJECT_IMAGE2D: return "IMAGE2D";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "IMAGE2D_ARRAY";
    case CL_MEM_OBJECT_IMAGE3D: return "IMAGE3D";
    default: return "not an image";
    }
}

/* Flags images accept: the buffer flags plus CL_MEM_KERNEL_READ_AND_WRITE (2.0). */
#define CLMEM__IMAGE_FLAGS (CLMEM__BUFFER_FLAGS | ((cl_mem_flags)1 << 12))

CLMEM_API cl_int clmem_get_supported_image_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                                   clmem_image_format *out, cl_uint capacity, cl_uint *count) {
    static const char fn[] = "clmem_get_supported_image_formats";
    cl_uint n = 0;
    cl_int err;
    if (count) *count = 0;
    if (CLMEM__CHECKS) {
        if (!context) return clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
        if (!clmem__is_image_type(image_type))
            return clmem__fail(CL_INVALID_VALUE, fn, "image_type 0x%x is not an image type (CL_MEM_OBJECT_IMAGE2D, ...)",
                               (unsigned)image_type);
        if (!out && capacity > 0) return clmem__fail(CL_INVALID_VALUE, fn, "out is NULL but capacity is %u", capacity);
        if ((err = clmem__check_mem_flags(fn, flags, CLMEM__IMAGE_FLAGS)) != CL_SUCCESS) return err;
    }
    if (flags == 0) flags = CL_MEM_READ_WRITE;
    err = clGetSupportedImageFormats(context, flags, image_type, capacity, capacity ? out : NULL, &n);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetSupportedImageFormats");
    if (count) *count = n;
    return CL_SUCCESS;
}

/* clmem__format_supported(fn, ctx, flags, type, f): CL_SUCCESS when the context lists f. */
static cl_int clmem__format_supported(const char *fn, cl_context ctx, cl_mem_flags flags, cl_mem_object_type type,
                                      clmem_image_format f) {
    cl_uint n = 0, i;
    clmem_image_format *all;
    cl_int err;
    char text[64];
    cl_mem_flags query = flags & (CLMEM__ACCESS_FLAGS | ((cl_mem_flags)1 << 12));
    if (query == 0) query = CL_MEM_READ_WRITE;
    err = clGetSupportedImageFormats(ctx, query, type, 0, NULL, &n);
    if (err != CL_SUCCESS) return clmem__cl_fail(err, fn, "clGetSupportedImageFormats");
    if (n > 0) {
        all = CLMEM__CAST(clmem_image_format *, CLMEM_MALLOC(sizeof(clmem_image_format) * n));
        if (!all) return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "out of host memory listing %u image formats", n);
        err = clGetSupportedImageFormats(ctx, query, type, n, all, NULL);
        if (err != CL_SUCCESS) {
            CLMEM_FREE(all);
            return clmem__cl_fail(err, fn, "clGetSupportedImageFormats");
        }
        for (i = 0; i < n; ++i)
            if (clmem_image_format_equal(all[i], f)) break;
        CLMEM_FREE(all);
        if (i < n) return CL_SUCCESS;
    }
    return clmem__fail(CL_IMAGE_FORMAT_NOT_SUPPORTED, fn,
                       "format %s is not supported for %s images with these flags by the context (%u formats are; "
                       "see clmem_get_supported_image_formats)",
                       clmem_image_format_repr(f, text, sizeof text), clmem__image_type_name(type), n);
}

/* clmem__check_image_limits(fn, ctx, type, w, h, d, n): some device of the context
   supports images and holds these extents. */
static cl_int clmem__check_image_limits(const char *fn, cl_context ctx, cl_mem_object_type type, size_t w, size_t h,
                                        size_t d, size_t n) {
    cl_uint count = 0, i;
    cl_int err = CL_SUCCESS;
    cl_device_id *devs = clmem__devices_of(fn, ctx, &count, &err);
    bool any_images = false;
    cl_int result = CL_SUCCESS;
    char why[256] = {0};
    if (!devs) return err;
    for (i = 0; i < count && err == CL_SUCCESS; ++i) {
        cl_bool images = CL_FALSE;
        size_t max_w = 0, max_h = 0, max_d = 0, max_n = 0, max_buf = 0;
        char name[96] = {0};
        const char *q = "CL_DEVICE_IMAGE_SUPPORT";
        err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
        if (err != CL_SUCCESS) break;
        if (!images) continue;
        any_images = true;
        /* the name is only for the message: optional */
        if (clGetDeviceInfo(devs[i], CL_DEVICE_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS) name[0] = '\0';
        if (type == CL_MEM_OBJECT_IMAGE3D) {
            if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof max_w, &max_w, NULL)) != CL_SUCCESS)
                q = "CL_DEVICE_IMAGE3D_MAX_WIDTH";
            else if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof max_h, &max_h, NULL)) != CL_SUCCESS)
                q = "CL_DEVICE_IMAGE3D_MAX_HEIGHT";
            else if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof max_d, &max_d, NULL)) != CL_SUCCESS)
                q = "CL_DEVICE_IMAGE3D_MAX_DEPTH";
        } else {
            if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max_w, &max_w, NULL)) != CL_SUCCESS)
                q = "CL_DEVICE_IMAGE2D_MAX_WIDTH";
            else if ((err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof max_h, &max_h, NULL)) != CL_SUCCESS)
                q = "CL_DEVICE_IMAGE2D_MAX_HEIGHT";
            max_d = 1;
        }
        if (err == CL_SUCCESS &&
            (err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof max_n, &max_n, NULL)) != CL_SUCCESS)
            q = "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE";
        if (err == CL_SUCCESS &&
            (err = clGetDeviceInfo(devs[i], CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof max_buf, &max_buf, NULL)) != CL_SUCCESS)
            q = "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE";
        if (err != CL_SUCCESS) {
            CLMEM_FREE(devs);
            return clmem__info_fail(fn, err, "clGetDeviceInfo", q);
        }
        if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) max_w = max_buf;
        if (w > max_w)
            snprintf(why, sizeof why, "width %zu is above %zu, the limit of device '%s'", w, max_w, name);
        else if (h > max_h)
            snprintf(why, sizeof why, "height %zu is above %zu, the limit of device '%s'", h, max_h, name);
        else if (d > max_d)
            snprintf(why, sizeof why, "depth %zu is above %zu, the limit of device '%s'", d, max_d, name);
        else if (n > max_n)
            snprintf(why, sizeof why, "array size %zu is above CL_DEVICE_IMAGE_MAX_ARRAY_SIZE %zu of device '%s'", n,
                     max_n, name);
        else {
            why[0] = '\0';
            break; /* this device holds it */
        }
    }
    CLMEM_FREE(devs);
    if (err != CL_SUCCESS)
        result = clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_IMAGE_SUPPORT");
    else if (!any_images)
        result = clmem__fail(CL_INVALID_OPERATION, fn, "no device of the context supports images (CL_DEVICE_IMAGE_SUPPORT)");
    else if (why[0])
        result = clmem__fail(CL_INVALID_IMAGE_SIZE, fn, "%s image: %s", clmem__image_type_name(type), why);
    return result;
}

static clmem_image clmem__image_empty(void) {
    clmem_image img;
    memset(&img, 0, sizeof img);
    return img;
}

/* an image constructor's failure exit: *errcode_ret = err (where given), the empty handle */
static clmem_image clmem__image_failed(cl_int *errcode_ret, cl_int err) {
    clmem__set_err(errcode_ret, err);
    return clmem__image_empty();
}

/* clmem__image_fill_from_driver(img, &query): read type, format, extents and element
   size; on failure *query names the query that failed (CL_INVALID_MEM_OBJECT without a
   query: not an image). */
static cl_int clmem__image_fill_from_driver(clmem_image *img, const char **query) {
    cl_int err;
    cl_mem buffer = NULL;
#define CLMEM__IMGQ(call, param, field)                                                   \
    if (err == CL_SUCCESS && (err = call(img->mem, param, sizeof img->field, &img->field, NULL)) != CL_SUCCESS) \
        *query = #call "(" #param ")";
    *query = NULL;
    err = CL_SUCCESS;
    CLMEM__IMGQ(clGetMemObjectInfo, CL_MEM_TYPE, type)
    CLMEM__IMGQ(clGetMemObjectInfo, CL_MEM_CONTEXT, context)
    CLMEM__IMGQ(clGetMemObjectInfo, CL_MEM_FLAGS, flags)
    if (err == CL_SUCCESS && !clmem__is_image_type(img->type)) return CL_INVALID_MEM_OBJECT;
    CLMEM__IMGQ(clGetImageInfo, CL_IMAGE_FORMAT, format)
    CLMEM__IMGQ(clGetImageInfo, CL_IMAGE_ELEMENT_SIZE, element_size)
    CLMEM__IMGQ(clGetImageInfo, CL_IMAGE_WIDTH, width)
    CLMEM__IMGQ(clGetImageInfo, CL_IMAGE_HEIGHT, height)
    CLMEM__IMGQ(clGetImageInfo, CL_IMAGE_DEPTH, depth)
    CLMEM__IMGQ(clGetImageInfo, CL_IMAGE_ARRAY_SIZE, array_size)
#undef CLMEM__IMGQ
    if (err != CL_SUCCESS) return err;
    /* CL_IMAGE_BUFFER is an OpenCL 1.2 query: an unknown query (CL_INVALID_VALUE) means
       no buffer; any other failure is one */
    err = clGetImageInfo(img->mem, CL_IMAGE_BUFFER, sizeof buffer, &buffer, NULL);
    if (err == CL_SUCCESS)
        img->buffer = buffer;
    else if (err != CL_INVALID_VALUE) {
        *query = "clGetImageInfo(CL_IMAGE_BUFFER)";
        return err;
    }
    return CL_SUCCESS;
}

/* clmem__image_layout_check(fn, type, w, h, d, n, elem, row, slice, has_host, host_size):
   the pure checks of clmem_create_image on extents and host pitches (no driver call;
   tests/fuzz/image_layout.c fuzzes it). An element size of 0 (unknown format) is left
   to the format check. Sizes that wrap size_t are CL_INVALID_IMAGE_SIZE (no device
   holds them); pitch rules are CL_INVALID_IMAGE_DESCRIPTOR; a host_size too small for
   what the driver reads is CL_INVALID_VALUE. */
static cl_int clmem__image_layout_check(const char *fn, cl_mem_object_type type, size_t w, size_t h, size_t d, size_t n,
                                        size_t elem, size_t row, size_t slice, bool has_host, size_t host_size) {
    size_t row_min = 0, min_slice = 0, layers, total = 0;
    bool arr1d = type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    if (elem == 0) return CL_SUCCESS;
    if (w == 0 || h == 0 || d == 0 || n == 0)
        return clmem__fail(CL_INVALID_IMAGE_SIZE, fn, "%s image extents %zu x %zu x %zu (array size %zu) contain a 0",
                           clmem__image_type_name(type), w, h, d, n);
    layers = (type == CL_MEM_OBJECT_IMAGE3D) ? d : n;
    if (!clmem__mul_ok(w, elem, &row_min) || !clmem__mul_ok(row_min, arr1d ? 1 : h, &total) ||
        !clmem__mul_ok(total, layers, &total))
        return clmem__fail(CL_INVALID_IMAGE_SIZE, fn,
                           "%s image of %zu x %zu x %zu pixels (array size %zu) of %zu bytes is more than size_t holds",
                           clmem__image_type_name(type), w, h, d, n, elem);
    if ((row || slice) && !has_host)
        return clmem__fail(CL_INVALID_IMAGE_DESCRIPTOR, fn,
                           "pitches {%zu, %zu} are given without hostbuf (pitches describe host memory)", row, slice);
    if (row != 0 && (row < row_min || row % elem != 0))
        return clmem__fail(CL_INVALID_IMAGE_DESCRIPTOR, fn,
                           "row pitch %zu must be at least width %zu x element size %zu = %zu and a multiple of %zu", row,
                           w, elem, row_min, elem);
    if (row == 0) row = row_min; /* > 0: w and elem are */
    if (slice != 0) {
        if (type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER || type == CL_MEM_OBJECT_IMAGE2D)
            return clmem__fail(CL_INVALID_IMAGE_DESCRIPTOR, fn, "slice pitch %zu is given for a %s image, which has no slices",
                               slice, clmem__image_type_name(type));
        if (!clmem__mul_ok(row, arr1d ? 1 : h, &min_slice))
            return clmem__fail(CL_INVALID_IMAGE_DESCRIPTOR, fn,
                               "row pitch %zu x height %zu (the least slice pitch) is more than size_t holds", row, h);
        if (slice < min_slice || slice % row != 0)
            return clmem__fail(CL_INVALID_IMAGE_DESCRIPTOR, fn,
                               "slice pitch %zu must be at least %zu (%s) and a multiple of the row pitch %zu", slice,
                               min_slice, arr1d ? "the row pitch" : "row pitch x height", row);
    }
    if (has_host && host_size != SIZE_MAX) {
        /* bytes the driver reads: the last pixel's end */
        size_t need = 0, t1 = 0, t2 = 0, slice_eff = slice;
        bool ok = true;
        if (!slice_eff) ok = clmem__mul_ok(row, arr1d ? 1 : h, &slice_eff);
        ok = ok && clmem__mul_ok(layers - 1, slice_eff, &t1) && clmem__mul_ok(arr1d ? 0 : h - 1, row, &t2) &&
             clmem__add_ok(t1, t2, &need) && clmem__add_ok(need, row_min, &need);
        if (!ok || need > host_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "hostbuf holds .host_size %zu bytes but the image reads %s%zu",
                               host_size, ok ? "" : "more than ", ok ? need : (size_t)SIZE_MAX);
    }
    return CL_SUCCESS;
}

/* the name in parentheses: in C a macro of the same name checks the arguments (clmem/compat.h) */
/* The shape of clmem_create_image's options: the image type (from the number of
   non-zero extents, .is_array and .buffer), its extents and the element size. */
typedef struct clmem__image_geom {
    cl_mem_object_type type;
    cl_uint ndim;
    size_t w, h, d, n, elem;
} clmem__image_geom;
static clmem__image_geom clmem__image_geom_of(const clmem_image_options *opts, clmem_image_format format) {
    clmem__image_geom g;
    cl_uint i;
    memset(&g, 0, sizeof g);
    for (i = 0; i < 3 && opts->shape[i] != 0; ++i) g.ndim = i + 1;
    g.w = opts->shape[0];
    g.h = g.d = g.n = 1;
    if (g.ndim == 1)
        g.type = opts->buffer.mem ? CL_MEM_OBJECT_IMAGE1D_BUFFER : CL_MEM_OBJECT_IMAGE1D;
    else if (g.ndim == 2)
        g.type = opts->is_array ? CL_MEM_OBJECT_IMAGE1D_ARRAY : CL_MEM_OBJECT_IMAGE2D;
    else
        g.type = opts->is_array ? CL_MEM_OBJECT_IMAGE2D_ARRAY : CL_MEM_OBJECT_IMAGE3D;
    if (g.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) g.n = opts->shape[1];
    if (g.type == CL_MEM_OBJECT_IMAGE2D || g.type == CL_MEM_OBJECT_IMAGE2D_ARRAY || g.type == CL_MEM_OBJECT_IMAGE3D)
        g.h = opts->shape[1];
    if (g.type == CL_MEM_OBJECT_IMAGE3D) g.d = opts->shape[2];
    if (g.type == CL_MEM_OBJECT_IMAGE2D_ARRAY) g.n = opts->shape[2];
    g.elem = clmem_image_format_itemsize(format);
    return g;
}

/* The checks of clmem_create_image before the driver (CLMEM__CHECKS). */
static cl_int clmem__create_image_check(const char *fn, cl_context context, cl_mem_flags flags, clmem_image_format format,
                                        const clmem_image_options *opts, const clmem__image_geom *g) {
    const cl_mem_object_type type = g->type;
    const cl_uint ndim = g->ndim;
    const size_t w = g->w, h = g->h, d = g->d, n = g->n, elem = g->elem;
    cl_int err;
    if (!context) {
        err = clmem__fail(CL_INVALID_CONTEXT, fn, "context is NULL");
        return err;
    }
    if ((err = clmem__check_made(fn, opts->given)) != CL_SUCCESS) return err;
    if ((err = clmem__check_mem_flags(fn, flags, CLMEM__IMAGE_FLAGS)) != CL_SUCCESS) return err;
    if ((err = clmem__check_host_ptr(fn, flags, opts->hostbuf)) != CL_SUCCESS) return err;
    if (ndim == 0) {
        err = clmem__fail(CL_INVALID_IMAGE_SIZE, fn, "shape is missing or starts with 0: give .shape = {width, ...}");
        return err;
    }
    if (ndim < 3 && opts->shape[ndim] == 0 && ndim + 1 < 3 && opts->shape[ndim + 1] != 0) {
        err = clmem__fail(CL_INVALID_IMAGE_SIZE, fn, "shape {%zu, %zu, %zu} has a 0 extent before a non-zero one",
                          opts->shape[0], opts->shape[1], opts->shape[2]);
        return err;
    }
    if ((opts->ndim != 0 || (opts->given & CLMEM_GIVEN_NDIM)) && opts->ndim != ndim) {
        err = clmem__fail(CL_INVALID_VALUE, fn, ".ndim is %u but shape {%zu, %zu, %zu} has %u non-zero extents",
                          opts->ndim, opts->shape[0], opts->shape[1], opts->shape[2], ndim);
        return err;
    }
    if (opts->is_array && (ndim == 1 || opts->buffer.mem)) {
        err = clmem__fail(CL_INVALID_VALUE, fn,
                          ".is_array needs a shape of 2 ({width, array_size}) or 3 ({width, height, array_size}) "
                          "dimensions and no .buffer; shape has %u%s",
                          ndim, opts->buffer.mem ? " and .buffer is given" : "");
        return err;
    }
    if (opts->buffer.mem && ndim != 1) {
        err = clmem__fail(CL_INVALID_VALUE, fn, ".buffer makes a 1-D buffer image and needs a 1-dimensional shape; "
                          "shape has %u dimensions", ndim);
        return err;
    }
    if (opts->buffer.mem && opts->hostbuf) {
        err = clmem__fail(CL_INVALID_HOST_PTR, fn, "a 1-D buffer image takes its data from .buffer; .hostbuf must be NULL");
        return err;
    }
    if ((err = clmem__check_format(fn, format)) != CL_SUCCESS) return err;
    if ((err = clmem__image_layout_check(fn, type, w, h, d, n, elem, opts->pitches[0], opts->pitches[1],
                                         opts->hostbuf != NULL,
                                         (opts->given & CLMEM_GIVEN_HOST_SIZE) || opts->host_size ? opts->host_size
                                                                                                  : SIZE_MAX)) != CL_SUCCESS)
        return err;
    if (opts->buffer.mem) {
        size_t need = 0;
        /* a stale copy of a pooled handle: its block may be another owner's now */
        if ((err = clmem__buffer_invalid(fn, ".buffer", opts->buffer)) != CL_SUCCESS) return err;
        if (!clmem__mul_ok(w, elem, &need) || need > opts->buffer.size) {
            err = clmem__fail(CL_INVALID_IMAGE_SIZE, fn,
                              "width %zu x element size %zu is more than the %zu bytes of .buffer", w, elem,
                              opts->buffer.size);
            return err;
        }
        if (opts->buffer.context != context) {
            err = clmem__fail(CL_INVALID_CONTEXT, fn, ".buffer belongs to context %p, not %p",
                              (void *)opts->buffer.context, (void *)context);
            return err;
        }
    }
    if ((err = clmem__check_image_limits(fn, context, type, w, h, d, n)) != CL_SUCCESS) return err;
    if ((err = clmem__format_supported(fn, context, flags, type, format)) != CL_SUCCESS) return err;
    return CL_SUCCESS;
}

CLMEM__UNSET_TABLE(clmem_image_options, CLMEM__IMAGE_UNSET)
CLMEM_API clmem_image (clmem_create_image_opts)(cl_context context, cl_mem_flags flags, clmem_image_format format,
                                             cl_int *errcode_ret, const clmem_image_options *opts) {
    static const char fn[] = "clmem_create_image";
    clmem_image_options local;
    clmem_image img = clmem__image_empty();
    cl_image_desc desc;
    clmem__image_geom g;
    cl_mem_object_type type;
    size_t elem, w, h, d, n;
    cl_int err = CL_SUCCESS;
    opts = CLMEM__OPTIONS_IN(clmem_image_options, opts, &local);
    g = clmem__image_geom_of(opts, format);
    type = g.type, elem = g.elem, w = g.w, h = g.h, d = g.d, n = g.n;
    if (CLMEM__CHECKS && (err = clmem__create_image_check(fn, context, flags, format, opts, &g)) != CL_SUCCESS)
        goto fail;
    memset(&desc, 0, sizeof desc);
    desc.image_type = type;
    desc.image_width = w;
    desc.image_height = (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         type == CL_MEM_OBJECT_IMAGE3D) ? h : 0;
    desc.image_depth = type == CL_MEM_OBJECT_IMAGE3D ? d : 0;
    desc.image_array_size = (type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY) ? n : 0;
    desc.image_row_pitch = opts->pitches[0];
    desc.image_slice_pitch = opts->pitches[1];
    /* a 1-D array's rows are its slices (see transfer_image.c): same pitch for both */
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY && desc.image_slice_pitch) desc.image_row_pitch = desc.image_slice_pitch;
    desc.buffer = opts->buffer.mem; /* 'buffer' is named in every header version */
    if ((err = clmem__quirk_context_images(fn, context)) != CL_SUCCESS) goto fail; /* quirks.c */
    {
        void *packed = NULL; /* quirks.c: padded host rows, on a driver that drops the pitches */
        if (clmem__quirk_image_host_copy(fn, context, flags, type, elem, w, h, d, n, desc.image_row_pitch,
                                         desc.image_slice_pitch, opts->hostbuf, &packed, &err))
            goto fail;
        if (packed) desc.image_row_pitch = desc.image_slice_pitch = 0;
        img.mem = clCreateImage(context, flags, &format, &desc, packed ? packed : opts->hostbuf, &err);
        CLMEM_FREE(packed);
    }
    if (err != CL_SUCCESS || !img.mem) {
        img.mem = NULL;
        err = clmem__cl_fail(err != CL_SUCCESS ? err : CL_OUT_OF_RESOURCES, fn, "clCreateImage");
        goto fail;
    }
    img.context = context;
    img.type = type;
    img.format = format;
    img.width = w;
    img.height = desc.image_height;
    img.depth = desc.image_depth;
    img.array_size = desc.image_array_size;
    img.flags = flags ? flags : CL_MEM_READ_WRITE;
    img.buffer = opts->buffer.mem;
    /* the element size follows from the (checked) format; the driver is asked only for a
       format clmem does not know (CLMEM_NO_VALIDATION), and a failure of that query is
       the image's failure */
    img.element_size = elem;
    if (elem == 0 &&
        (err = clGetImageInfo(img.mem, CL_IMAGE_ELEMENT_SIZE, sizeof img.element_size, &img.element_size, NULL)) !=
            CL_SUCCESS) {
        clReleaseMemObject(img.mem);
        err = clmem__cl_fail(err, fn, "clGetImageInfo(CL_IMAGE_ELEMENT_SIZE)");
        goto fail;
    }
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return img;
fail:
    return clmem__image_failed(errcode_ret, err);
}

static cl_channel_type clmem__normalized_type(cl_channel_type t) {
    switch (t) {
    case CL_SIGNED_INT8: return CL_SNORM_INT8;
    case CL_SIGNED_INT16: return CL_SNORM_INT16;
    case CL_UNSIGNED_INT8: return CL_UNORM_INT8;
    case CL_UNSIGNED_INT16: return CL_UNORM_INT16;
    default: return 0;
    }
}

/* The channel type of clmem_image_from_array's data: the element type, or with
   .half_float CL_HALF_FLOAT, with .norm_int its normalized type. */
static cl_int clmem__array_channel_type(const char *fn, cl_channel_type element_type,
                                        const clmem_image_from_array_options *opts, cl_channel_type *out) {
    cl_channel_type ctype = element_type;
    cl_int err;
    if (opts->half_float) {
        if (element_type != CL_UNSIGNED_INT16 && element_type != CL_SIGNED_INT16) {
            err = clmem__fail(CL_INVALID_VALUE, fn, ".half_float needs 16-bit data (cl_half/uint16_t), not %s",
                              clmem_channel_type_name(element_type) ? clmem_channel_type_name(element_type) : "this type");
            return err;
        }
        ctype = CL_HALF_FLOAT;
    }
    if (opts->norm_int) {
        ctype = opts->half_float ? 0 : clmem__normalized_type(ctype);
        if (ctype == 0) {
            err = clmem__fail(CL_INVALID_VALUE, fn,
                              ".norm_int needs 8- or 16-bit integer data; %s has no normalized channel type",
                              opts->half_float ? "HALF_FLOAT"
                                               : (clmem_channel_type_name(element_type) ? clmem_channel_type_name(element_type)
                                                                                       : "this type"));
            return err;
        }
    }
    *out = ctype;
    return CL_SUCCESS;
}

CLMEM__UNSET_TABLE(clmem_image_from_array_options, CLMEM__IMAGE_FROM_ARRAY_UNSET)
/* the name in parentheses: in C a macro of the same name checks the arguments (clmem/compat.h) */
CLMEM_API clmem_image (clmem_image_from_array_opts)(cl_context context, const void *array, cl_channel_type element_type,
                                                 cl_uint vector_width, size_t ndim, const size_t *shape,
                                                 cl_int *errcode_ret, const clmem_image_from_array_options *opts) {
    static const char fn[] = "clmem_image_from_array";
    clmem_image_from_array_options local;
    clmem_image_options io = CLMEM__OPTIONS_DEFAULTS;
    clmem_image_format format;
    cl_channel_type ctype = element_type;
    cl_uint nch, order;
    size_t img_dims, i, elem, bytes = 0;
    cl_mem_flags flags;
    cl_int err = CL_SUCCESS;
    opts = CLMEM__OPTIONS_IN(clmem_image_from_array_options, opts, &local);
    if (vector_width == 0) vector_width = 1;
    nch = opts->num_channels || (opts->given & CLMEM_GIVEN_NUM_CHANNELS) ? opts->num_channels : vector_width;
    /* checks that are not validation but meaning: done even with CLMEM_NO_VALIDATION */
    if (!array || !shape) {
        err = clmem__fail(CL_INVALID_VALUE, fn, "%s is NULL", !array ? "array" : "shape");
        goto fail;
    }
    if ((err = clmem__check_made(fn, opts->given)) != CL_SUCCESS) goto fail;
    if ((opts->mode != 0 || (opts->given & CLMEM_GIVEN_MODE)) && opts->mode != 'r' && opts->mode != 'w') {
        err = clmem__fail(CL_INVALID_VALUE, fn, "invalid value '%c' (%d) for .mode: use 'r' or 'w'", opts->mode,
                          (int)opts->mode);
        goto fail;
    }
    if (nch == 3) {
        err = clmem__fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, fn,
                          "num_channels 3 would need channel order CL_RGB, which OpenCL allows only with the packed "
                          "types 565/555/101010: use 4 channels (RGBA) and pad the data, or 1 channel with a width 3 "
                          "times larger");
        goto fail;
    }
    if (nch != 1 && nch != 2 && nch != 4) {
        err = clmem__fail(CL_INVALID_VALUE, fn, "num_channels %u is not 1, 2 or 4", nch);
        goto fail;
    }
    if (vector_width > 1 && nch != vector_width) {
        err = clmem__fail(CL_INVALID_VALUE, fn, "num_channels %u differs from the %u channels of the vector element type",
                          nch, vector_width);
        goto fail;
    }
    if (ndim == 0) {
        err = clmem__fail(CL_INVALID_VALUE, fn, "ndim is 0");
        goto fail;
    }
    for (i = 0; i < ndim; ++i)
        if (shape[i] == 0) {
            err = clmem__fail(CL_INVALID_VALUE, fn, "shape[%zu] is 0: images cannot be empty", i);
            goto fail;
        }
    img_dims = ndim;
    if (vector_width == 1 && nch > 1) {
        if (shape[ndim - 1] != nch) {
            err = clmem__fail(CL_INVALID_VALUE, fn, "last dimension %zu of the shape must be equal to num_channels %u",
                              shape[ndim - 1], nch);
            goto fail;
        }
        img_dims = ndim - 1;
    }
    if (img_dims < 1 || img_dims > 3) {
        err = clmem__fail(CL_INVALID_VALUE, fn, "the array has %zu image dimensions (ndim %zu); images have 1 to 3",
                          img_dims, ndim);
        goto fail;
    }
    if ((err = clmem__array_channel_type(fn, element_type, opts, &ctype)) != CL_SUCCESS) goto fail;
    order = nch == 1 ? CL_R : nch == 2 ? CL_RG : CL_RGBA;
    format = clmem_image_format_create(order, ctype);
    elem = clmem_image_format_itemsize(format);
    /* reverse the C shape into image order; pitches are the strides, reversed (packed) */
    for (i = 0; i < img_dims; ++i) io.shape[i] = shape[img_dims - 1 - i];
    if (img_dims >= 2) io.pitches[0] = io.shape[0] * elem;
    if (img_dims == 3) io.pitches[1] = io.pitches[0] * io.shape[1];
    io.hostbuf = clmem__unconst(array); /* COPY_HOST_PTR only reads it */
    io.ndim = (cl_uint)img_dims;
    bytes = elem;
    for (i = 0; i < img_dims; ++i)
        if (!clmem__mul_ok(bytes, io.shape[i], &bytes)) {
            err = clmem__fail(CL_INVALID_IMAGE_SIZE, fn, "the array's size overflows size_t");
            goto fail;
        }
    io.host_size = bytes;
    flags = (opts->mode == 'w' ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY) | CL_MEM_COPY_HOST_PTR;
    {
        clmem_image img = clmem_create_image_opts(context, flags, format, &err, &io);
        if (err != CL_SUCCESS) {
            clmem__refail_as(fn, err); /* the caller called image_from_array */
            goto fail;
        }
        clmem__set_err(errcode_ret, CL_SUCCESS);
        return img;
    }
fail:
    return clmem__image_failed(errcode_ret, err);
}

CLMEM_API clmem_image clmem_image_from_int_ptr(cl_mem mem, bool retain, cl_int *errcode_ret) {
    static const char fn[] = "clmem_image_from_int_ptr";
    clmem_image img = clmem__image_empty();
    const char *query = NULL;
    cl_int err;
    if (!mem) {
        clmem__set_err(errcode_ret, clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem is NULL"));
        return img;
    }
    img.mem = mem;
    err = clmem__image_fill_from_driver(&img, &query);
    if (err != CL_SUCCESS) {
        if (err == CL_INVALID_MEM_OBJECT && !query)
            err = clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem %p is not an image (CL_MEM_TYPE 0x%x)", (void *)mem,
                              (unsigned)img.type);
        else if (err == CL_INVALID_MEM_OBJECT)
            err = clmem__fail(CL_INVALID_MEM_OBJECT, fn, "mem %p is not a valid memory object (%s failed)", (void *)mem,
                              query);
        else /* a failed query keeps its code */
            err = clmem__fail(err, fn, "%s failed with %s (%d)", query, clmem_error_string(err), (int)err);
        return clmem__image_failed(errcode_ret, err);
    }
    if (retain && (err = clRetainMemObject(mem)) != CL_SUCCESS)
        return clmem__image_failed(errcode_ret, clmem__cl_fail(err, fn, "clRetainMemObject"));
    clmem__set_err(errcode_ret, CL_SUCCESS);
    return img;
}

CLMEM_API cl_int clmem_image_release(clmem_image *img) {
    cl_mem mem;
    if (!img || !img->mem) return CL_SUCCESS;
    mem = img->mem;
    *img = clmem__image_empty();
    return clmem__release_mem("clmem_image_release", mem);
}

CLMEM_API cl_int clmem_image_get_info(clmem_image img, clmem_image_info *info) {
    static const char fn[] = "clmem_image_get_info";
    cl_int err;
    if (!info) return clmem__fail(CL_INVALID_VALUE, fn, "info is NULL");
    memset(info, 0, sizeof *info);
    if (!img.mem) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "img is an empty or released handle");
#define CLMEM__IMG_Q(param, field)                                                              \
    if ((err = clGetImageInfo(img.mem, param, sizeof info->field, &info->field, NULL)) != CL_SUCCESS) \
        return clmem__cl_fail(err, fn, "clGetImageInfo(" #param ")");
    CLMEM__IMG_Q(CL_IMAGE_FORMAT, format)
    CLMEM__IMG_Q(CL_IMAGE_ELEMENT_SIZE, element_size)
    CLMEM__IMG_Q(CL_IMAGE_ROW_PITCH, row_pitch)
    CLMEM__IMG_Q(CL_IMAGE_SLICE_PITCH, slice_pitch)
    CLMEM__IMG_Q(CL_IMAGE_WIDTH, width)
    CLMEM__IMG_Q(CL_IMAGE_HEIGHT, height)
    CLMEM__IMG_Q(CL_IMAGE_DEPTH, depth)
    CLMEM__IMG_Q(CL_IMAGE_ARRAY_SIZE, array_size)
    CLMEM__IMG_Q(CL_IMAGE_BUFFER, buffer)
    CLMEM__IMG_Q(CL_IMAGE_NUM_MIP_LEVELS, num_mip_levels)
    CLMEM__IMG_Q(CL_IMAGE_NUM_SAMPLES, num_samples)
#undef CLMEM__IMG_Q
    return CL_SUCCESS;
}

CLMEM_API cl_uint clmem_image_shape(clmem_image img, size_t shape[3]) {
    size_t s[3] = {0, 0, 0};
    cl_uint n = 0;
    if (img.mem) {
        s[0] = img.width;
        switch (img.type) {
        case CL_MEM_OBJECT_IMAGE1D_ARRAY: s[1] = img.array_size; n = 2; break;
        case CL_MEM_OBJECT_IMAGE2D: s[1] = img.height; n = 2; break;
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: s[1] = img.height; s[2] = img.array_size; n = 3; break;
        case CL_MEM_OBJECT_IMAGE3D: s[1] = img.height; s[2] = img.depth; n = 3; break;
        default: n = 1; break;
        }
    }
    if (shape) memcpy(shape, s, sizeof s);
    return n;
}

CLMEM_API void clmem_image_extent(clmem_image img, size_t ext[3]) {
    size_t s[3];
    cl_uint n = clmem_image_shape(img, s), i;
    if (!ext) {
        clmem__fail(CL_INVALID_VALUE, "clmem_image_extent", "ext (where to write the 3 extents) is NULL");
        return;
    }
    ext[0] = ext[1] = ext[2] = 0;
    if (n == 0) return;
    for (i = 0; i < 3; ++i) ext[i] = i < n ? s[i] : 1;
}

/* clmem__image_region(fn, what, img, origin, region_in, region): normalise a region
   (NULL: everything from origin; trailing 0 -> 1; all 0: empty, region[0] == 0) and
   check origin + region fits the image's extent. CL_INVALID_VALUE otherwise. */
static cl_int clmem__image_region(const char *fn, const char *what, const clmem_image *img, const size_t origin[3],
                                  const size_t region_in[3], size_t region[3]) {
    size_t ext[3];
    int i;
    clmem_image_extent(*img, ext);
    for (i = 0; i < 3; ++i) {
        if (origin[i] >= ext[i])
            return clmem__fail(CL_INVALID_VALUE, fn,
                               "%s origin {%zu, %zu, %zu} is outside the %s %s of extent {%zu, %zu, %zu}%s", what,
                               origin[0], origin[1], origin[2], clmem__image_type_name(img->type), "image", ext[0], ext[1],
                               ext[2],
                               (i > 0 && ext[i] == 1) ? " (an unused coordinate must be 0)" : "");
    }
    if (!region_in) {
        for (i = 0; i < 3; ++i) region[i] = ext[i] - origin[i];
        return CL_SUCCESS;
    }
    if (region_in[0] == 0 && region_in[1] == 0 && region_in[2] == 0) { /* written as empty: nothing */
        region[0] = region[1] = region[2] = 0;
        return CL_SUCCESS;
    }
    for (i = 0; i < 3; ++i) region[i] = region_in[i];
    if (region[2] == 0) {
        region[2] = 1;
        if (region[1] == 0) region[1] = 1;
    }
    for (i = 0; i < 3; ++i)
        if (region[i] == 0)
            return clmem__fail(CL_INVALID_VALUE, fn, "%s region {%zu, %zu, %zu} has a 0 before a non-zero component", what,
                               region_in[0], region_in[1], region_in[2]);
    for (i = 0; i < 3; ++i)
        if (!clmem__range_ok(origin[i], region[i], ext[i]))
            return clmem__fail(CL_INVALID_VALUE, fn,
                               "%s origin {%zu, %zu, %zu} + region {%zu, %zu, %zu} is outside the %s image of extent "
                               "{%zu, %zu, %zu}%s",
                               what, origin[0], origin[1], origin[2], region[0], region[1], region[2],
                               clmem__image_type_name(img->type), ext[0], ext[1], ext[2],
                               (i > 0 && ext[i] == 1) ? " (an unused dimension has region 1)" : "");
    return CL_SUCCESS;
}

/* clmem__channel_class(type): 'f' (normalized/half/float), 'i' (signed), 'u' (unsigned). */
static char clmem__channel_class(cl_channel_type t) {
    switch (t) {
    case CL_SIGNED_INT8: case CL_SIGNED_INT16: case CL_SIGNED_INT32: return 'i';
    case CL_UNSIGNED_INT8: case CL_UNSIGNED_INT16: case CL_UNSIGNED_INT32: return 'u';
    default: return 'f';
    }
}

CLMEM_API cl_int clmem_enqueue_fill_image_opts(cl_command_queue queue, clmem_image img, const void *color,
                                               clmem_color_kind kind, const size_t *origin, const size_t *region,
                                               const clmem_enqueue_options *opts) {
    static const char fn[] = "clmem_enqueue_fill_image";
    static const size_t zero[3] = {0, 0, 0};
    size_t reg[3];
    union { cl_int i[4]; cl_uint u[4]; } clamped;
    cl_int err;
    if ((err = clmem__enqueue_opts_made(fn, &opts)) != CL_SUCCESS) return err;
    if (!origin) origin = zero;
    if (CLMEM__CHECKS) {
        static const char *const kinds[] = {"?", "float", "cl_int", "cl_uint"};
        static const char *const wants[] = {"float", "cl_int", "cl_uint"};
        char c, text[64];
        if ((err = clmem__check_queue(fn, queue)) != CL_SUCCESS) return err;
        if (!img.mem) return clmem__fail(CL_INVALID_MEM_OBJECT, fn, "img is an empty or released handle");
        if ((err = clmem__check_wait_list(fn, opts->wait_for, opts->num_wait_for)) != CL_SUCCESS) return err;
        if (!color) return clmem__fail(CL_INVALID_VALUE, fn, "color is NULL");
        c = clmem__channel_class(img.format.image_channel_data_type);
        if ((c == 'f' && kind != CLMEM_COLOR_FLOAT) || (c == 'i' && kind != CLMEM_COLOR_INT) ||
            (c == 'u' && kind != CLMEM_COLOR_UINT))
            return clmem__fail(CL_INVALID_VALUE, fn, "color is %s[4] but format %s needs %s[4]",
                               kinds[(int)kind >= 1 && (int)kind <= 3 ? (int)kind : 0],
                               clmem_image_format_repr(img.format, text, sizeof text),
                               wants[c == 'f' ? 0 : c == 'i' ? 1 : 2]);
        if ((err = clmem__same_context(fn, queue, img.context, "img")) != CL_SUCCESS) return err;
    }
    if ((err = clmem__image_region(fn, "fill", &img, origin, region, reg)) != CL_SUCCESS) return err;
    if (reg[0] == 0) return clmem__nothing_to_do(fn, queue, opts->wait_for, opts->num_wait_for, opts->event);
    if (color) { /* 8- and 16-bit integer channels saturate here: Oclgrind 21.10 truncates instead */
        cl_int lo = 0, hi = 0, i;
        switch (img.format.image_channel_data_type) {
        case CL_SIGNED_INT8: lo = -128, hi = 127; break;
        case CL_SIGNED_INT16: lo = -32768, hi = 32767; break;
        case CL_UNSIGNED_INT8: hi = 255; break;
        case CL_UNSIGNED_INT16: hi = 65535; break;
        default: break;
        }
        if (hi && lo) {
            memcpy(clamped.i, color, sizeof clamped.i);
            for (i = 0; i < 4; ++i) clamped.i[i] = clamped.i[i] < lo ? lo : clamped.i[i] > hi ? hi : clamped.i[i];
            color = clamped.i;
        } else if (hi) {
            memcpy(clamped.u, color, sizeof clamped.u);
            for (i = 0; i < 4; ++i) clamped.u[i] = clamped.u[i] > (cl_uint)hi ? (cl_uint)hi : clamped.u[i];
            color = clamped.u;
        }
    }
    err = clEnqueueFillImage(queue, img.mem, color, origin, reg, opts->num_wait_for, opts->wait_for, opts->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueFillImage");
}

