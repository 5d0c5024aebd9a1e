/* >>quirks: driver faults that clmem finds by a self-test and routes around, or refuses

   Some drivers return CL_SUCCESS and wrong bytes for calls clmem makes. clmem does not
   trust version strings for this: the first time a call that a known fault would spoil
   is about to run on a device (or a pair of devices of one context), clmem runs a small
   self-test of that call on the same device and context, on a private queue, keeps the
   answer for the rest of the process, and then either takes a route that gives the
   right bytes or refuses with the fault named in the message. A device without the
   fault pays one self-test, on first use, and nothing after.

   The faults, the self-test of each, and what clmem does (PoCL-Remote 6.0, the remote
   driver of PoCL, has every one; tools/remote-repro/ reproduces each in bare OpenCL):

   - rectangular host transfers drop the host pitches (clEnqueueWriteBufferRect and
     clEnqueueReadBufferRect take the host rows as packed; rect.c). Test: a 4x2 write
     and read with host rows 8 bytes apart. Route: a transfer whose host rows or slices
     are not packed goes as one clEnqueueWriteBuffer / clEnqueueReadBuffer per row.
   - image host transfers drop the host pitches (clEnqueueWriteImage, clEnqueueReadImage;
     image_pitch.c). Test: a 2x2 RGBA8 image written and read with host rows 12 bytes
     apart. Route: one packed transfer per row (per layer of a 1-D array).
   - CL_MEM_COPY_HOST_PTR images ignore a padded image_row_pitch (PoCL-Remote 6.0, and
     Oclgrind 21.10). Test: a 2x2 RGBA8 image made from rows 12 bytes apart, read back.
     Route: the image is made from a packed copy of the rows.
   - image maps of a box that is not whole rows are staged packed while the driver
     answers the image's pitches (image_map.c). Test: a read map of the 2x2 box at x 1
     of a 4x2 RGBA8 image. Route: the map covers the whole rows (for 3-D images and 2-D
     arrays of more than one slice, the whole slices) that hold the box, a
     CL_MAP_WRITE_INVALIDATE_REGION map becomes CL_MAP_WRITE (the pixels around the box
     go back as they were), and the pointer handed out is the box's first pixel, with
     the image's pitches; the unmap gives the driver its own pointer.
   - clSetKernelArg checks no argument sizes (arg_size.c). Test: per call, where the
     kernel has no argument information (no -cl-kernel-arg-info) and the value is a
     scalar or vector: clSetKernelArg with size 0 first, which every checking driver
     refuses. Route: clmem's own check of the value against the parameter's type, the
     type read from the program's source; where the source does not tell (a binary, a
     macro or typedef in the signature), refused.
   - images written on one device of a context read wrong on another (PoCL-Remote
     between two servers: the other device reads zeros; image_two_devices.c). Test: a
     4x2 RGBA8 image written on one device and read on the other, for every pair of the
     context's devices. Refused when an image is made in such a context
     (clmem_create_image and what uses it): make a context per server.

   - maps of a CL_MEM_USE_HOST_PTR buffer do not keep its host memory and its bytes in
     step (PoCL-Remote: the server holds its own copy; a map for reading writes the
     server's stale bytes over what the host wrote, and an unmap after a
     CL_MAP_WRITE_INVALIDATE_REGION map does not send the host's bytes). Test: a 64-byte
     buffer over host memory; the host writes, a read map and unmap must leave the
     host's bytes; the host writes again, a CL_MAP_WRITE_INVALIDATE_REGION map and unmap
     must make clEnqueueReadBuffer read them. Route: copies to and from registered host
     memory (clmem_host_registration) take the driver's host transfers, not the
     registration's buffer.

   Refusals are CL_INVALID_OPERATION with "driver fault of device '<name>' (found by
   clmem's self-test)", the fault and what to do instead in the message.

   Thread safety: the answers are kept in a table under a lock; two threads may run the
   same self-test at once (both get the same answer). */
#include "memobj.h"

/* ---- private: what other modules of clmem use of quirks; not API. tools/amalgamate
   puts this section at the head of the implementation. ---- */

/* the faults, as bits */
enum {
    CLMEM__QUIRK_RECT_HOST_PITCH = 1u << 0,
    CLMEM__QUIRK_IMAGE_HOST_PITCH = 1u << 1,
    CLMEM__QUIRK_IMAGE_MAP_BOX = 1u << 2,
    CLMEM__QUIRK_ARG_SIZE = 1u << 3,
    CLMEM__QUIRK_IMAGE_OTHER_DEVICE = 1u << 4,
    CLMEM__QUIRK_IMAGE_CREATE_PITCH = 1u << 5,
    CLMEM__QUIRK_HOST_PTR_SYNC = 1u << 6
};

/* functions (each described where it is defined) */
static cl_int clmem__quirk_context_images(const char *fn, cl_context ctx);
static bool clmem__quirk_image_host_copy(const char *fn, cl_context ctx, cl_mem_flags flags, cl_mem_object_type type,
                                         size_t pixel, size_t w, size_t h, size_t d, size_t n, size_t row, size_t slice,
                                         const void *host, void **copy, cl_int *err);
static void *clmem__quirk_map_image(const char *fn, cl_command_queue queue, cl_mem img, cl_mem_object_type type,
                                    size_t pixel, const size_t dims[3], cl_bool blocking, cl_map_flags flags,
                                    const size_t o[3], const size_t r[3], size_t *row, size_t *slice, cl_uint nwait,
                                    const cl_event *wait, cl_event *ev, cl_int *err);
static void *clmem__quirk_map_ptr(cl_mem mem, void *ptr);
static void clmem__quirk_map_forget(cl_mem mem, void *ptr);
static cl_int clmem__quirk_arg_type(const char *fn, cl_kernel kernel, cl_uint index, size_t size, const void *value,
                                    char *type, size_t tsize, bool *found);
static bool clmem__quirk_queue(cl_command_queue queue, unsigned bit);
static bool clmem__quirk_rect_host(const char *fn, cl_command_queue queue, cl_mem mem, bool write, cl_bool blocking,
                                   const size_t borigin[3], const size_t horigin[3], const size_t region[3], size_t brow,
                                   size_t bslice, size_t hrow, size_t hslice, void *host, const cl_event *wait_for,
                                   cl_uint num_wait_for, cl_event *event, cl_int *err);
static bool clmem__quirk_image_host(const char *fn, cl_command_queue queue, cl_mem img, cl_mem_object_type type,
                                    size_t pixel, bool write, cl_bool blocking, const size_t origin[3],
                                    const size_t region[3], size_t row, size_t slice, void *host,
                                    const cl_event *wait_for, cl_uint num_wait_for, cl_event *event, cl_int *err);
/* ---- end private ---- */
