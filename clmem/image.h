/* >>image: image formats, images, image_from_array (PyOpenCL's ImageFormat, Image) */

#ifdef __cplusplus
extern "C" {
#endif

/** An image handle, passed by value (PyOpenCL's Image). Treat fields as read-only. */
typedef struct clmem_image {
    cl_mem mem;                  /* the OpenCL image; NULL for an empty handle */
    cl_context context;
    cl_mem_object_type type;     /* CL_MEM_OBJECT_IMAGE2D, ... */
    cl_image_format format;
    size_t width, height, depth, array_size;
    cl_mem_flags flags;
} clmem_image;

static inline cl_mem clmem_image_int_ptr(clmem_image img) { return img.mem; }

#ifdef __cplusplus
}
#endif
