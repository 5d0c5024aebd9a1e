/* Pipes: argument checks on every runtime (packet size 0, properties, flags), the
   clear CL_INVALID_OPERATION where the device has no pipes (PoCL, NVIDIA), and, where
   it has, creation, pipe_info, int_ptr and release (reliability checklist case 42). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

static bool device_has_pipes(clmem_test_context *t) {
    cl_bool support = CL_FALSE;
    char v[512] = {0}; /* PoCL appends build hashes: PoCL-Remote's runs past 128 bytes */
    int major = 0, minor = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_VERSION, sizeof v - 1, v, NULL);
    if (sscanf(v, "OpenCL %d.%d", &major, &minor) != 2 || major < 2) return false;
    if (major >= 3) clGetDeviceInfo(t->device, CL_DEVICE_PIPE_SUPPORT, sizeof support, &support, NULL);
    else support = CL_TRUE;
    return support != CL_FALSE;
}

#define EXPECT_FAIL(t, call, code)                                                             \
    do {                                                                                       \
        cl_int e_ = 12345;                                                                     \
        clmem_pipe p_;                                                                         \
        clmem_clear_error();                                                                   \
        p_ = call;                                                                             \
        if (p_.mem) clmem_pipe_release(&p_);                                                   \
        CLMEM_CHECK_EQ(t, e_, code);                                                           \
        CLMEM_CHECK(t, p_.mem == NULL);                                                        \
        CLMEM_CHECK(t, strncmp(clmem_last_error_message(), "clmem_pipe_create: ", 19) == 0 ||  \
                           strncmp(clmem_last_error_message(), "clmem_pipe_from_int_ptr: ", 25) == 0); \
    } while (0)

static void test_pipe_argument_checks(clmem_test_context *t) {
    const intptr_t props[] = {0x1234, 1, 0}, empty_props[] = {0};
    EXPECT_FAIL(t, clmem_pipe_create(t->context, 0, 0, 16, NULL, &e_), CL_INVALID_PIPE_SIZE);
    EXPECT_FAIL(t, clmem_pipe_create(t->context, 0, 4, 0, NULL, &e_), CL_INVALID_PIPE_SIZE);
    EXPECT_FAIL(t, clmem_pipe_create(t->context, 0, 4, 16, props, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_pipe_create(t->context, CL_MEM_READ_ONLY, 4, 16, NULL, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_pipe_create(t->context, CL_MEM_USE_HOST_PTR, 4, 16, NULL, &e_), CL_INVALID_VALUE);
    EXPECT_FAIL(t, clmem_pipe_create(NULL, 0, 4, 16, NULL, &e_), CL_INVALID_CONTEXT);
    EXPECT_FAIL(t, clmem_pipe_from_int_ptr(NULL, true, &e_), CL_INVALID_MEM_OBJECT);
    {   /* a buffer is not a pipe */
        cl_int err;
        clmem_buffer b = clmem_buffer_create(t->context, 0, 64, NULL, &err);
        CLMEM_CHECK_CL(t, err);
        EXPECT_FAIL(t, clmem_pipe_from_int_ptr(b.mem, true, &e_), CL_INVALID_MEM_OBJECT);
        clmem_buffer_release(&b);
    }
    {
        clmem_pipe empty;
        clmem_pipe_info info;
        memset(&empty, 0, sizeof empty);
        CLMEM_CHECK_ERR(t, clmem_pipe_get_info(empty, &info), CL_INVALID_MEM_OBJECT);
        CLMEM_CHECK_ERR(t, clmem_set_kernel_arg((cl_kernel)NULL, 0, empty), CL_INVALID_KERNEL);
        CLMEM_CHECK_CL(t, clmem_pipe_release(&empty));
    }
    /* an empty properties list is accepted (PyOpenCL's properties=()) */
    if (!device_has_pipes(t)) {
        EXPECT_FAIL(t, clmem_pipe_create(t->context, 0, 4, 16, empty_props, &e_), CL_INVALID_OPERATION);
    } else {
        cl_int err;
        clmem_pipe p = clmem_pipe_create(t->context, 0, 4, 16, empty_props, &err);
        CLMEM_CHECK_CL(t, err);
        clmem_pipe_release(&p);
    }
}

static void test_no_pipes_message(clmem_test_context *t) {
    cl_int err = 0;
    clmem_pipe p;
    if (device_has_pipes(t)) {
        clmem_test_skip(t, "the device supports pipes (this case covers devices without)");
        return;
    }
    clmem_clear_error();
    p = clmem_pipe_create(t->context, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 16, 64, NULL, &err);
    CLMEM_CHECK_EQ(t, err, CL_INVALID_OPERATION);
    CLMEM_CHECK(t, p.mem == NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "CL_DEVICE_PIPE_SUPPORT") != NULL);
}

static void test_pipe_create_info(clmem_test_context *t) {
    cl_int err;
    clmem_pipe p, again;
    clmem_pipe_info info;
    clmem_mem_info mi;
    if (!device_has_pipes(t)) {
        clmem_test_skip(t, "no pipes on this device (CL_DEVICE_PIPE_SUPPORT is false)");
        return;
    }
    p = clmem_pipe_create(t->context, 0, 16, 64, NULL, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK_CL(t, clmem_pipe_get_info(p, &info));
    CLMEM_CHECK_EQ(t, info.packet_size, 16);
    CLMEM_CHECK_EQ(t, info.max_packets, 64);
    CLMEM_CHECK_CL(t, clmem_memory_object_get_info(p, &mi));
    CLMEM_CHECK_EQ(t, mi.type, CL_MEM_OBJECT_PIPE);
    again = clmem_pipe_from_int_ptr(clmem_pipe_int_ptr(p), true, &err);
    CLMEM_CHECK_CL(t, err);
    CLMEM_CHECK(t, clmem_memory_object_equal(again, p));
    CLMEM_CHECK(t, again.packet_size == 16 && again.max_packets == 64);
    clmem_pipe_release(&again);
    clmem_release(&p);
    CLMEM_CHECK(t, p.mem == NULL);
}

static const clmem_test_case cases[] = {
    {"pipe_argument_checks", test_pipe_argument_checks, false},
    {"no_pipes_message", test_no_pipes_message, false},
    {"pipe_create_info", test_pipe_create_info, false},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
