/* tests/badinput_buffer.c - hostile input to the buffer family: clmem_buffer_create,
   clmem_buffer_from_int_ptr, clmem_buffer_get_sub_region, clmem_buffer_slice,
   clmem_enqueue_fill_buffer, clmem_buffer_release. Each case checks the code and that
   the message names the function and the bad values. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "badinput.h"
#include <stdint.h>

static void test_create(clmem_test_context *t) {
    cl_int e;
    clmem_buffer b;
    char host[16];
    BAD(t, (b = clmem_buffer_create(NULL, 0, 64, NULL, &e), e), CL_INVALID_CONTEXT, "clmem_buffer_create", "context");
    BAD(t, (b = clmem_buffer_create(t->context, 0, 0, NULL, &e), e), CL_INVALID_BUFFER_SIZE, "clmem_buffer_create", "0");
    BAD(t, (b = clmem_buffer_create(t->context, 0, SIZE_MAX, NULL, &e), e), CL_INVALID_BUFFER_SIZE, "clmem_buffer_create",
        "18446744073709551615");
    BAD(t, (b = clmem_buffer_create(t->context, 0, (size_t)1 << 50, NULL, &e), e), CL_INVALID_BUFFER_SIZE,
        "clmem_buffer_create", "1125899906842624", "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    BAD(t, (b = clmem_buffer_create(t->context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &e), e), CL_INVALID_VALUE,
        "clmem_buffer_create", "READ_ONLY", "WRITE_ONLY");
    BAD(t, (b = clmem_buffer_create(t->context, (cl_mem_flags)1 << 40, 64, NULL, &e), e), CL_INVALID_VALUE,
        "clmem_buffer_create", "0x10000000000");
    BAD(t, (b = clmem_buffer_create(t->context, CL_MEM_USE_HOST_PTR, 64, NULL, &e), e), CL_INVALID_HOST_PTR,
        "clmem_buffer_create", "USE_HOST_PTR");
    BAD(t, (b = clmem_buffer_create(t->context, 0, 16, host, &e), e), CL_INVALID_HOST_PTR, "clmem_buffer_create", "hostbuf");
    CLMEM_CHECK(t, b.mem == NULL);
}

static void test_from_int_ptr(clmem_test_context *t) {
    cl_int e;
    clmem_buffer b;
    clmem_image img;
    static const clmem_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    BAD(t, (b = clmem_buffer_from_int_ptr(NULL, true, &e), e), CL_INVALID_MEM_OBJECT, "clmem_buffer_from_int_ptr", "NULL");
    CLMEM_CHECK(t, b.mem == NULL);
    img = clmem_create_image(t->context, 0, f, &e, .shape = {4, 4});
    if (e != CL_SUCCESS) {
        clmem_test_skip(t, "no RGBA8 2-D image: %s", clmem_last_error_message());
        return;
    }
    /* wrong kind: an image is not a buffer */
    BAD(t, (b = clmem_buffer_from_int_ptr(img.mem, true, &e), e), CL_INVALID_MEM_OBJECT, "clmem_buffer_from_int_ptr",
        "not a buffer", "0x10f1");
    CLMEM_CHECK(t, b.mem == NULL);
    clmem_image_release(&img);
}

static void test_sub_region(clmem_test_context *t) {
    cl_int e;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 4096, NULL, &e), s, empty;
    CLMEM_CHECK_CL(t, e);
    memset(&empty, 0, sizeof empty);
    BAD(t, (s = clmem_buffer_get_sub_region(empty, 0, 64, 0, &e), e), CL_INVALID_MEM_OBJECT, "clmem_buffer_get_sub_region",
        "empty");
    BAD(t, (s = clmem_buffer_get_sub_region(b, 0, 0, 0, &e), e), CL_INVALID_BUFFER_SIZE, "clmem_buffer_get_sub_region", "0");
    BAD(t, (s = clmem_buffer_get_sub_region(b, 4000, 128, 0, &e), e), CL_INVALID_VALUE, "clmem_buffer_get_sub_region",
        "4000", "128", "4096");
    /* wrapping: origin + size overflows size_t */
    BAD(t, (s = clmem_buffer_get_sub_region(b, SIZE_MAX - 10, 64, 0, &e), e), CL_INVALID_VALUE,
        "clmem_buffer_get_sub_region", "18446744073709551605");
    BAD(t, (s = clmem_buffer_get_sub_region(b, 1, 64, 0, &e), e), CL_MISALIGNED_SUB_BUFFER_OFFSET,
        "clmem_buffer_get_sub_region", "1");
    BAD(t, (s = clmem_buffer_get_sub_region(b, 0, 64, CL_MEM_USE_HOST_PTR, &e), e), CL_INVALID_VALUE,
        "clmem_buffer_get_sub_region", "USE_HOST_PTR");
    BAD(t, (s = clmem_buffer_slice(b, 100, 50, &e), e), CL_INVALID_VALUE, "clmem_buffer_slice", "100", "50");
    /* Python's rule: a stop beyond the end is clamped (the whole buffer); a start beyond
       it leaves nothing, which is an error */
    BAD(t, (s = clmem_buffer_slice(b, PTRDIFF_MAX - 1, PTRDIFF_MAX, &e), e), CL_INVALID_VALUE, "clmem_buffer_slice",
        "9223372036854775806");
    CLMEM_CHECK(t, s.mem == NULL);
    clmem_buffer_release(&b);
    /* released: the handle is emptied */
    BAD(t, (s = clmem_buffer_get_sub_region(b, 0, 64, 0, &e), e), CL_INVALID_MEM_OBJECT, "clmem_buffer_get_sub_region",
        "empty");
}

static void test_fill_buffer(clmem_test_context *t) {
    cl_int e;
    cl_uint v = 1;
    clmem_buffer b = clmem_buffer_create(t->context, 0, 256, NULL, &e), empty;
    cl_context other = badinput_other_context(t);
    cl_command_queue oq = NULL;
    CLMEM_CHECK_CL(t, e);
    memset(&empty, 0, sizeof empty);
    BAD(t, clmem_enqueue_fill_buffer(NULL, b, &v, 4, 0, 16), CL_INVALID_COMMAND_QUEUE, "clmem_enqueue_fill_buffer", "queue");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, empty, &v, 4, 0, 16), CL_INVALID_MEM_OBJECT, "clmem_enqueue_fill_buffer",
        "buf");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, NULL, 4, 0, 16), CL_INVALID_VALUE, "clmem_enqueue_fill_buffer", "pattern");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 3, 0, 12), CL_INVALID_VALUE, "clmem_enqueue_fill_buffer", "3");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 256, 0, 256), CL_INVALID_VALUE, "clmem_enqueue_fill_buffer", "256");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 4, 2, 16), CL_INVALID_VALUE, "clmem_enqueue_fill_buffer", "2", "16");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 4, 252, 8), CL_INVALID_VALUE, "clmem_enqueue_fill_buffer", "252",
        "256");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 4, SIZE_MAX - 3, 8), CL_INVALID_VALUE, "clmem_enqueue_fill_buffer",
        "18446744073709551612");
    BAD(t, clmem_enqueue_fill_buffer(t->queue, b, &v, 4, 0, 16, .num_wait_for = 1), CL_INVALID_EVENT_WAIT_LIST,
        "clmem_enqueue_fill_buffer", "num_wait_for is 1");
    if (other) {
        oq = extra_queue(t, other, &e);
        if (oq)
            BAD(t, clmem_enqueue_fill_buffer(oq, b, &v, 4, 0, 16), CL_INVALID_CONTEXT, "clmem_enqueue_fill_buffer",
                "context");
    }
    if (oq) clReleaseCommandQueue(oq);
    if (other) clReleaseContext(other);
    clmem_buffer_release(&b);
    CLMEM_CHECK_CL(t, clmem_buffer_release(&b)); /* a second release of an emptied handle is a no-op */
    printf("  badinput_buffer: %lu cases so far\n", badinput_cases);
}

static const clmem_test_case cases[] = {{"create", test_create, false},
                                        {"from_int_ptr", test_from_int_ptr, false},
                                        {"sub_region", test_sub_region, false},
                                        {"fill_buffer", test_fill_buffer, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
