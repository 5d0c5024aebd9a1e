/* >>image: image formats, images, image_from_array, fill_image (PyOpenCL's ImageFormat,
   Image, create_image, image_from_array, enqueue_fill_image) */
#include "base.h"
#include "memobj.h"
#include "buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------
   IMAGE FORMATS

   clmem_image_format IS OpenCL's cl_image_format (PyOpenCL's ImageFormat), so it
   passes to OpenCL unchanged. PyOpenCL's attribute names map to the fields:
     channel_order      ->  .image_channel_order      (CL_R, CL_RGBA, ...)
     channel_data_type  ->  .image_channel_data_type  (CL_FLOAT, CL_UNORM_INT8, ...)
   Make one with clmem_image_format_create(CL_RGBA, CL_FLOAT) or a compound literal
   such as (clmem_image_format){CL_RGBA, CL_FLOAT}, also as an argument of
   clmem_create_image.
   --------------------------------------------------------------------------------- */
typedef cl_image_format clmem_image_format;

/** clmem_image_format_create(order, type): PyOpenCL's ImageFormat(order, type).
    No check is made here; the functions below and clmem_create_image check. */
static inline clmem_image_format clmem_image_format_create(cl_channel_order order, cl_channel_type type) {
    clmem_image_format f;
    f.image_channel_order = order;
    f.image_channel_data_type = type;
    return f;
}

/** clmem_image_format_channel_count(f): channels of the order (PyOpenCL's
    channel_count), for every order of the OpenCL 3.0 headers:
    1: R, A, INTENSITY, LUMINANCE, DEPTH, DEPTH_STENCIL, Rx;  2: RG, RA, RGx;
    3: RGB, RGBx, sRGB, sRGBx;  4: RGBA, BGRA, ARGB, ABGR, sRGBA, sBGRA.
    The x orders count their meaningful channels (the CTS's convention); their bytes
    per pixel come from clmem_image_format_itemsize. 0 for an unknown order
    (PyOpenCL raises "unrecognized channel order"). Thread safety: pure. */
CLMEM_API cl_uint clmem_image_format_channel_count(clmem_image_format f);

/** clmem_image_format_dtype_size(f): bytes of one channel (PyOpenCL's dtype_size):
    1 for the 8-bit types, 2 for the 16-bit types and HALF_FLOAT, 4 for the 32-bit
    types and FLOAT. For the packed types, whose channels share one word, it is the
    size of that word: UNORM_SHORT_565/555 2, UNORM_INT_101010(_2) and UNORM_INT24 4.
    0 for an unknown type. Thread safety: pure. */
CLMEM_API size_t clmem_image_format_dtype_size(clmem_image_format f);

/** clmem_image_format_itemsize(f): bytes of one pixel (PyOpenCL's itemsize, fixed):
    channel_count x dtype_size for the plain types, but the word size for packed
    types (RGB + UNORM_SHORT_565 is 2 bytes, not PyOpenCL's 6), 4 for DEPTH_STENCIL
    with UNORM_INT24 and 8 with FLOAT. The x orders (Rx, RGx, RGBx, sRGBx) store their
    padding channel: Rx + UNORM_INT8 is 2 bytes. 0 when the order or type is unknown.
    Thread safety: pure. */
CLMEM_API size_t clmem_image_format_itemsize(clmem_image_format f);

/** clmem_channel_order_name(order): "RGBA", "R", "sRGBA", ... (the name without CL_),
    NULL when unknown. clmem_channel_type_name(type): "FLOAT", "UNORM_INT8", ... */
CLMEM_API const char *clmem_channel_order_name(cl_channel_order order);
CLMEM_API const char *clmem_channel_type_name(cl_channel_type type);

/** clmem_image_format_repr(f, buf, size): PyOpenCL's repr, "ImageFormat(RGBA, FLOAT)";
    unknown parts are written "<unknown channel order 0x10ff>" /
    "<unknown channel data type 0x10ff>". Writes at most size bytes (always
    terminated when size > 0) and returns buf.
    Example: char s[64]; puts(clmem_image_format_repr(img.format, s, sizeof s)); */
CLMEM_API const char *clmem_image_format_repr(clmem_image_format f, char *buf, size_t size);

/** clmem_image_format_equal(a, b): same order and type (PyOpenCL's ==). */
static inline bool clmem_image_format_equal(clmem_image_format a, clmem_image_format b) {
    return a.image_channel_order == b.image_channel_order && a.image_channel_data_type == b.image_channel_data_type;
}
/** clmem_image_format_hash(f): a hash consistent with clmem_image_format_equal. */
static inline size_t clmem_image_format_hash(clmem_image_format f) {
    return (size_t)f.image_channel_order * 40503u ^ (size_t)f.image_channel_data_type;
}

/** clmem_get_supported_image_formats(context, flags, image_type, out, capacity, &count):
    the formats the context supports for images of image_type (CL_MEM_OBJECT_IMAGE2D,
    ...) created with flags (0 means CL_MEM_READ_WRITE), as
    clGetSupportedImageFormats reports them. out may be NULL with capacity 0 to
    count; at most capacity formats are stored; *count (may be NULL) is set to the
    number supported. Errors: CL_INVALID_CONTEXT (NULL), CL_INVALID_VALUE (image_type
    not an image type, out NULL with capacity > 0, unknown flag bits), or the driver's
    code. Thread safety: any thread.
    Example: clmem_image_format f[128]; cl_uint n;
             clmem_get_supported_image_formats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, f, 128, &n); */
CLMEM_API cl_int clmem_get_supported_image_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                                   clmem_image_format *out, cl_uint capacity, cl_uint *count);

/* ---------------------------------------------------------------------------------
   IMAGES

   Coordinates. An image is indexed (x, y, z): x varies fastest in memory. Host data
   laid out as a C array  float a[D][H][W]  is the image with width W, height H and
   depth D, and  a[z][y][x]  is the pixel at (x, y, z): the indices of read_imagef
   are the C indices in reverse order. A 2-D host array a[H][W] is the image
   (x, y) = (column, row):

        x ->  0      1      2   ...  W-1
     y  0   a[0][0] a[0][1] a[0][2]   a[0][W-1]
     |  1   a[1][0] a[1][1] ...
     v H-1  a[H-1][0] ...             a[H-1][W-1]

   Shapes, regions and origins are given in image order ({width, height, depth}),
   except clmem_image_from_array, which takes the C (numpy) shape {H, W} and reverses
   it as PyOpenCL does.
   --------------------------------------------------------------------------------- */

/** An image handle, passed by value (PyOpenCL's Image). Treat fields as read-only;
    they are stable (other modules rely on them):
      mem           the OpenCL image; NULL for an empty or released handle
      context       its context (not retained separately)
      type          CL_MEM_OBJECT_IMAGE1D, _IMAGE1D_BUFFER, _IMAGE1D_ARRAY, _IMAGE2D,
                    _IMAGE2D_ARRAY or _IMAGE3D
      format        its clmem_image_format (== cl_image_format)
      width         pixels in x
      height        pixels in y; 0 for 1-D types (as CL_IMAGE_HEIGHT reports)
      depth         pixels in z of a 3-D image; 0 otherwise (as CL_IMAGE_DEPTH)
      array_size    images of a 1-D or 2-D array; 0 otherwise (as CL_IMAGE_ARRAY_SIZE)
      flags         CL_MEM_FLAGS as created (0 given is stored as CL_MEM_READ_WRITE)
      element_size  bytes per pixel (CL_IMAGE_ELEMENT_SIZE)
      buffer        the buffer of a 1-D buffer image, else NULL (not retained)
    clmem_image_extent gives the extents in region coordinates. */
typedef struct clmem_image {
    cl_mem mem;
    cl_context context;
    cl_mem_object_type type;
    cl_image_format format;
    size_t width, height, depth, array_size;
    cl_mem_flags flags;
    size_t element_size;
    cl_mem buffer;
} clmem_image;

/** clmem_image_int_ptr(img): the raw cl_mem (PyOpenCL's int_ptr). */
static inline cl_mem clmem_image_int_ptr(clmem_image img) { return img.mem; }

/** Options of clmem_create_image (PyOpenCL's create_image keywords). */
/* Fields (see the names in the documentation of clmem_create_image):
     given      CLMEM_GIVEN_* bits: filled by the macros
     shape      image order: {width}, {width, height}, {width, height, depth}, with
                .is_array {width, array_size} or {width, height, array_size}. The
                dimension count is the number of leading non-zero entries: a computed
                0 shortens the shape (give .ndim to have it refused instead)
     ndim       optional: the dimension count you mean (1-3); checked against .shape
     pitches    row pitch, slice pitch in bytes (0: packed); only with .hostbuf
     hostbuf    host data for CL_MEM_USE_HOST_PTR / CL_MEM_COPY_HOST_PTR
     host_size  optional: bytes behind hostbuf, checked against what the image reads
     is_array   a 1-D array (2 dims) or 2-D array (3 dims)
     buffer     a 1-D buffer image over this buffer (1 dim) */
#define CLMEM__IMAGE_FIELDS \
    CLMEM__GIVEN_FIELD \
    size_t shape[3] CLMEM__DEFAULT;        \
    cl_uint ndim CLMEM__DEFAULT;           \
    size_t pitches[2] CLMEM__DEFAULT;      \
    void *hostbuf CLMEM__DEFAULT;          \
    size_t host_size CLMEM__DEFAULT;       \
    bool is_array CLMEM__DEFAULT;          \
    clmem_buffer buffer CLMEM__DEFAULT;
typedef struct CLMEM__OPTIONS_TYPE clmem_image_options {
    CLMEM__IMAGE_FIELDS
} clmem_image_options;
/* The options of clmem_image_options with a CLMEM_GIVEN_* bit (CLMEM__UNSET_INIT in base.h). */
#define CLMEM__IMAGE_UNSET(X, T)                                \
    X(T, shape, [0], CLMEM__UNSET_SIZE, CLMEM_GIVEN_SHAPE)       \
    X(T, ndim, , CLMEM__UNSET_UINT, CLMEM_GIVEN_NDIM)            \
    X(T, host_size, , CLMEM__UNSET_SIZE, CLMEM_GIVEN_HOST_SIZE)
/** CLMEM_IMAGE_OPTIONS_INIT: the initializer of a clmem_image_options built by hand:
    every option left out; a field then set means its value (NAMED OPTIONS in base.h). */
#define CLMEM_IMAGE_OPTIONS_INIT CLMEM__UNSET_INIT(clmem_image_options, CLMEM__IMAGE_UNSET)

/** clmem_create_image(context, flags, format, &err, .shape = {...}, ...): a new image
    (PyOpenCL's create_image; clmem_image_create is the same call).

    - flags: cl_mem_flags (0 means CL_MEM_READ_WRITE); CL_MEM_KERNEL_READ_AND_WRITE allowed.
    - format: a clmem_image_format the context supports for that image type and flags.
    - errcode_ret: may be NULL; it comes before the named options.
    - .shape picks the type: 1 dim: IMAGE1D, or IMAGE1D_BUFFER with .buffer;
      2 dims: IMAGE2D, or IMAGE1D_ARRAY with .is_array (array size = shape[1]: PyOpenCL
      wrongly used 1); 3 dims: IMAGE3D, or IMAGE2D_ARRAY with .is_array.
    - .pitches, .hostbuf, .host_size, .ndim: see clmem_image_options.
    Returns the handle; on failure an empty handle (mem == NULL) and *errcode_ret:
      CL_INVALID_CONTEXT             NULL context
      CL_INVALID_VALUE               bad flags (as clmem_buffer_create), .is_array with
                                     1 dim or with .buffer, .buffer with 2 or 3 dims,
                                     .ndim not matching .shape, .host_size too small
      CL_INVALID_HOST_PTR            hostbuf missing with USE/COPY_HOST_PTR, given without
                                     them, or given with .buffer
      CL_INVALID_IMAGE_FORMAT_DESCRIPTOR  unknown order or type, or a combination OpenCL
                                     forbids (RGB with FLOAT, 565 with RGBA, ...)
      CL_IMAGE_FORMAT_NOT_SUPPORTED  valid, but not in clmem_get_supported_image_formats
      CL_INVALID_IMAGE_SIZE          no shape, a 0 extent before a non-zero one, an extent
                                     above the device limits (CL_DEVICE_IMAGE2D_MAX_WIDTH,
                                     ..., CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
                                     CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) of every device, or a
                                     1-D buffer image larger than its buffer
      CL_INVALID_IMAGE_DESCRIPTOR    pitches without hostbuf; a row pitch below
                                     width x element size or not a multiple of it; a slice
                                     pitch for an image without slices, below
                                     row pitch x height (row pitch for 1-D arrays) or not a
                                     multiple of the row pitch
      CL_INVALID_OPERATION           no device of the context supports images
      or the driver's code. Thread safety: any thread.
    Example:
      clmem_image img = clmem_create_image(ctx, CL_MEM_READ_ONLY,
          clmem_image_format_create(CL_RGBA, CL_FLOAT), &err, .shape = {640, 480}); */
/** The function behind clmem_create_image (for C++ and function pointers); opts may be NULL. */
CLMEM_API clmem_image clmem_create_image_opts(cl_context context, cl_mem_flags flags, clmem_image_format format,
                                             cl_int *errcode_ret, const clmem_image_options *opts);
#ifndef __cplusplus
typedef struct clmem__create_image_args {
    clmem_image_format format;
    cl_int *errcode_ret;
    CLMEM__OPTIONS(clmem_image_options, CLMEM__IMAGE_FIELDS)
} clmem__create_image_args;
static inline clmem_image clmem__create_image_call(cl_context context, cl_mem_flags flags, const clmem__create_image_args *a) {
    return clmem_create_image_opts(context, flags, a->format, a->errcode_ret, &a->opts);
}
#define clmem_create_image(context, flags, ...) \
    clmem__create_image_call(context, flags, &(clmem__create_image_args){__VA_ARGS__, .given = CLMEM__GIVEN(__VA_ARGS__)})
#define clmem_image_create clmem_create_image
#endif

/** Options of clmem_image_from_array. */
/* Fields:
     given          CLMEM_GIVEN_* bits: filled by the macros
     num_channels   1, 2 or 4; left out: 1 for scalar element types, the vector width for
                    cl_float4 and the like. With more than 1 the last extent of the shape
                    must equal it. 3 is rejected: OpenCL has no RGB format for 8/16/32-bit
                    or float channels.
     mode           'r' (default): CL_MEM_READ_ONLY; 'w': CL_MEM_WRITE_ONLY
     norm_int       integer data read as normalized floats (UNORM/SNORM 8 and 16 bit)
     half_float     the 16-bit data are halfs (cl_half/uint16_t): CL_HALF_FLOAT */
#define CLMEM__IMAGE_FROM_ARRAY_FIELDS \
    CLMEM__GIVEN_FIELD \
    cl_uint num_channels CLMEM__DEFAULT;              \
    char mode CLMEM__DEFAULT;                         \
    bool norm_int CLMEM__DEFAULT;                     \
    bool half_float CLMEM__DEFAULT;
typedef struct CLMEM__OPTIONS_TYPE clmem_image_from_array_options {
    CLMEM__IMAGE_FROM_ARRAY_FIELDS
} clmem_image_from_array_options;
/* The options of clmem_image_from_array_options with a CLMEM_GIVEN_* bit (CLMEM__UNSET_INIT in base.h). */
#define CLMEM__IMAGE_FROM_ARRAY_UNSET(X, T)                          \
    X(T, num_channels, , CLMEM__UNSET_UINT, CLMEM_GIVEN_NUM_CHANNELS) \
    X(T, mode, , CLMEM__UNSET_CHAR, CLMEM_GIVEN_MODE)
/** CLMEM_IMAGE_FROM_ARRAY_OPTIONS_INIT: the initializer of a clmem_image_from_array_options
    built by hand: every option left out; a field then set means its value (NAMED OPTIONS in base.h). */
#define CLMEM_IMAGE_FROM_ARRAY_OPTIONS_INIT CLMEM__UNSET_INIT(clmem_image_from_array_options, CLMEM__IMAGE_FROM_ARRAY_UNSET)

/** clmem_image_from_array(context, array, ndim, shape, &err, ...): an image holding a
    copy of a C array (PyOpenCL's image_from_array), created READ_ONLY (or WRITE_ONLY
    with .mode = 'w') | COPY_HOST_PTR.
    - array: a typed pointer; its element type picks the channel type at compile time:
        float: FLOAT; int8_t/int16_t/int32_t: SIGNED_INT8/16/32; uint8_t/uint16_t/uint32_t:
        UNSIGNED_INT8/16/32; with .norm_int the 8/16-bit ones become SNORM_INT8/16 or
        UNORM_INT8/16; uint16_t with .half_float: HALF_FLOAT. cl_float2/4, cl_int2/4,
        cl_uint2/4, cl_char2/4, cl_uchar2/4, cl_short2/4, cl_ushort2/4 give 2 or 4
        channels of the element type. Other pointer types do not compile.
    - ndim, shape: the C (numpy) shape of the array, outermost first: a[H][W] is
        ndim 2, shape {H, W}; a[D][H][W] with 4 channels is ndim 4, shape {D, H, W, 4}.
        It is reversed into image order: {H, W} gives a W x H IMAGE2D, {D, H, W} a
        W x H x D IMAGE3D, {W} an IMAGE1D. Host a[z][y][x] is pixel (x, y, z).
    Errors: those of clmem_create_image, and CL_INVALID_VALUE (NULL array or shape,
    ndim 0 or above 3 image dimensions, a 0 extent, last extent != num_channels,
    num_channels other than 1/2/4 or not the vector width, .mode other than 'r'/'w',
    .norm_int with float/32-bit/half data, .half_float with other than 16-bit data),
    CL_INVALID_IMAGE_FORMAT_DESCRIPTOR (num_channels 3, which would need CL_RGB: "use
    4 channels (RGBA) and pad the data, or 1 channel with a width 3 times larger").
    Example: static float a[512][1024];
             clmem_image img = clmem_image_from_array(ctx, &a[0][0], 2, (const size_t[]){512, 1024}, &err); */
#ifndef __cplusplus
typedef struct clmem__image_from_array_args {
    size_t ndim;
    const size_t *shape;
    cl_int *errcode_ret;
    CLMEM__OPTIONS(clmem_image_from_array_options, CLMEM__IMAGE_FROM_ARRAY_FIELDS)
} clmem__image_from_array_args;
#define clmem_image_from_array(context, array, ...)                                                             \
    clmem__image_from_array_call(context, array, CLMEM__ARRAY_CHANNEL_TYPE(array), CLMEM__ARRAY_VECTOR_WIDTH(array), \
                                 &(clmem__image_from_array_args){__VA_ARGS__, .given = CLMEM__GIVEN(__VA_ARGS__)})
#endif
/* The element types of clmem_image_from_array (C: _Generic; C++: clmem/cxx.h). */
#define CLMEM__ARRAY_TYPES(X)                                                                                  \
    X(float, CL_FLOAT, 1) X(int8_t, CL_SIGNED_INT8, 1) X(uint8_t, CL_UNSIGNED_INT8, 1)                          \
    X(int16_t, CL_SIGNED_INT16, 1) X(uint16_t, CL_UNSIGNED_INT16, 1) X(int32_t, CL_SIGNED_INT32, 1)              \
    X(uint32_t, CL_UNSIGNED_INT32, 1) X(cl_float2, CL_FLOAT, 2) X(cl_float4, CL_FLOAT, 4)                       \
    X(cl_char2, CL_SIGNED_INT8, 2) X(cl_char4, CL_SIGNED_INT8, 4) X(cl_uchar2, CL_UNSIGNED_INT8, 2)             \
    X(cl_uchar4, CL_UNSIGNED_INT8, 4) X(cl_short2, CL_SIGNED_INT16, 2) X(cl_short4, CL_SIGNED_INT16, 4)         \
    X(cl_ushort2, CL_UNSIGNED_INT16, 2) X(cl_ushort4, CL_UNSIGNED_INT16, 4) X(cl_int2, CL_SIGNED_INT32, 2)       \
    X(cl_int4, CL_SIGNED_INT32, 4) X(cl_uint2, CL_UNSIGNED_INT32, 2) X(cl_uint4, CL_UNSIGNED_INT32, 4)
#ifndef __cplusplus
#define CLMEM__ARRAY_TYPE_CASE(T, ct, n) T *: (cl_channel_type)ct, const T *: (cl_channel_type)ct,
#define CLMEM__ARRAY_WIDTH_CASE(T, ct, n) T *: (cl_uint)n, const T *: (cl_uint)n,
#define CLMEM__ARRAY_CHANNEL_TYPE(a) _Generic((a), CLMEM__ARRAY_TYPES(CLMEM__ARRAY_TYPE_CASE) struct clmem__never *: (cl_channel_type)0)
#define CLMEM__ARRAY_VECTOR_WIDTH(a) _Generic((a), CLMEM__ARRAY_TYPES(CLMEM__ARRAY_WIDTH_CASE) struct clmem__never *: (cl_uint)0)
#endif
/** The function behind clmem_image_from_array: element_type is the un-normalized
    channel type of the data (CL_FLOAT, CL_SIGNED_INT8, ..., CL_UNSIGNED_INT32) and
    vector_width the channels per element of the pointer type (1 for scalars). */
CLMEM_API clmem_image clmem_image_from_array_opts(cl_context context, const void *array, cl_channel_type element_type,
                                                 cl_uint vector_width, size_t ndim, const size_t *shape,
                                                 cl_int *errcode_ret, const clmem_image_from_array_options *opts);
#ifndef __cplusplus
static inline clmem_image clmem__image_from_array_call(cl_context context, const void *array, cl_channel_type element_type,
                                                       cl_uint vector_width, const clmem__image_from_array_args *a) {
    return clmem_image_from_array_opts(context, array, element_type, vector_width, a->ndim, a->shape, a->errcode_ret,
                                       &a->opts);
}
#endif

/** clmem_image_from_int_ptr(mem, retain, &err): wrap a raw image cl_mem, reading its
    type, format, extents, flags and context from the driver. retain: call
    clRetainMemObject (true) or take over your reference (false). Errors:
    CL_INVALID_MEM_OBJECT (NULL, not valid, or not an image). Thread safety: any. */
CLMEM_API clmem_image clmem_image_from_int_ptr(cl_mem mem, bool retain, cl_int *errcode_ret);

/** clmem_image_release(&img): release the image and empty the handle (mem = NULL); a
    second release of the same handle is a no-op. Returns CL_SUCCESS or the driver's
    code. Thread safety: do not release one handle from two threads. */
CLMEM_API cl_int clmem_image_release(clmem_image *img);

/** Everything clGetImageInfo knows (PyOpenCL's get_image_info for every image_info). */
typedef struct clmem_image_info {
    clmem_image_format format;    /* CL_IMAGE_FORMAT */
    size_t element_size;          /* CL_IMAGE_ELEMENT_SIZE */
    size_t row_pitch;             /* CL_IMAGE_ROW_PITCH */
    size_t slice_pitch;           /* CL_IMAGE_SLICE_PITCH */
    size_t width, height, depth;  /* CL_IMAGE_WIDTH, _HEIGHT, _DEPTH */
    size_t array_size;            /* CL_IMAGE_ARRAY_SIZE */
    cl_mem buffer;                /* CL_IMAGE_BUFFER (NULL unless a 1-D buffer image) */
    cl_uint num_mip_levels;       /* CL_IMAGE_NUM_MIP_LEVELS */
    cl_uint num_samples;          /* CL_IMAGE_NUM_SAMPLES */
} clmem_image_info;

/** clmem_image_get_info(img, &info): every image_info, from the driver. Errors:
    CL_INVALID_MEM_OBJECT (empty handle), CL_INVALID_VALUE (info NULL), or the
    driver's code. The generic clmem_memory_object_get_info gives the mem_info. */
CLMEM_API cl_int clmem_image_get_info(clmem_image img, clmem_image_info *info);

/** clmem_image_shape(img, shape): PyOpenCL's Image.shape, for every image type (PyOpenCL
    refuses all but 2-D and 3-D): writes the extents in image order and returns how
    many: IMAGE1D/1D_BUFFER (w) 1, IMAGE1D_ARRAY (w, n) 2, IMAGE2D (w, h) 2,
    IMAGE2D_ARRAY (w, h, n) 3, IMAGE3D (w, h, d) 3; 0 for an empty handle. Unused
    entries are set to 0. shape may be NULL: then only the count is returned. From the
    handle; no driver call. */
CLMEM_API cl_uint clmem_image_shape(clmem_image img, size_t shape[3]);

/** clmem_image_extent(img, ext): extents in region coordinates, what a copy's
    origin + region must fit in: 1-D {w,1,1}, 1-D array {w,n,1}, 2-D {w,h,1},
    2-D array {w,h,n}, 3-D {w,h,d}; {0,0,0} for an empty handle. ext NULL: nothing is
    written and the last error message says so (CL_INVALID_VALUE, logged). */
CLMEM_API void clmem_image_extent(clmem_image img, size_t ext[3]);

/** How a fill color is to be read (chosen from the color pointer's type). */
typedef enum clmem_color_kind {
    CLMEM_COLOR_FLOAT = 1,   /* const float[4]: normalized, HALF_FLOAT and FLOAT formats */
    CLMEM_COLOR_INT = 2,     /* const cl_int[4]: SIGNED_INT8/16/32 formats */
    CLMEM_COLOR_UINT = 3     /* const cl_uint[4]: UNSIGNED_INT8/16/32 formats */
} clmem_color_kind;

/** clmem_enqueue_fill_image(queue, img, color, origin, region, ...): fill a region of
    an image with one color (PyOpenCL's enqueue_fill_image; clEnqueueFillImage).
    - color: 4 components, float[4], cl_int[4] or cl_uint[4]; the pointer's type must
      match the format's class (float for normalized/half/float formats, cl_int for
      SIGNED_INT*, cl_uint for UNSIGNED_INT*). Integer formats saturate.
    - origin, region: const size_t[3] in region coordinates (see clmem_image_extent);
      NULL origin is {0,0,0}; NULL region is everything from origin on. Trailing 0
      components of region count as 1.
    Options: .wait_for, .num_wait_for, .event. Errors: CL_INVALID_COMMAND_QUEUE,
    CL_INVALID_MEM_OBJECT (empty handle), CL_INVALID_CONTEXT, CL_INVALID_EVENT_WAIT_LIST,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (an event of the wait list has already
    failed: nothing is enqueued, no .event made), CL_INVALID_VALUE (NULL color, color
    type not matching the format, region outside the image, 0 before a non-zero region
    component), or the driver's code.
    Example: float red[4] = {1, 0, 0, 1}; clmem_enqueue_fill_image(q, img, red, NULL, NULL); */
#ifndef __cplusplus
#define clmem_enqueue_fill_image(...) clmem__fill_image_(__VA_ARGS__, )
#define clmem__fill_image_(queue, img, color, origin, region, ...)                                           \
    clmem_enqueue_fill_image_opts(queue, img, color, CLMEM__COLOR_KIND(color), origin, region,             \
                                  CLMEM__NAMED(clmem_enqueue_options, __VA_ARGS__))
#define CLMEM__COLOR_KIND(c)                                                                                   \
    _Generic((c), float *: CLMEM_COLOR_FLOAT, const float *: CLMEM_COLOR_FLOAT, cl_int *: CLMEM_COLOR_INT,   \
             const cl_int *: CLMEM_COLOR_INT, cl_uint *: CLMEM_COLOR_UINT, const cl_uint *: CLMEM_COLOR_UINT)
#endif
/** The function behind clmem_enqueue_fill_image; opts may be NULL. */
CLMEM_API cl_int clmem_enqueue_fill_image_opts(cl_command_queue queue, clmem_image img, const void *color,
                                               clmem_color_kind kind, const size_t *origin, const size_t *region,
                                               const clmem_enqueue_options *opts);

#ifdef __cplusplus
}
#endif

/* ---- private: what other modules of clmem use of image; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* functions (each described where it is defined) */
static bool clmem__is_image_type(cl_mem_object_type t);
static const char *clmem__image_type_name(cl_mem_object_type t);
static cl_int clmem__image_region(const char *fn, const char *what, const clmem_image *img, const size_t origin[3],
                                  const size_t region_in[3], size_t region[3]);
/* ---- end private ---- */
