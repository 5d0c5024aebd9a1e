// The C++ face of external memory, semaphores, peer memory and free device memory: the
// named-option forms compile and refuse as in C (PoCL: the extensions are missing).
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "cxx_common.h"

static void test_forms(clmem_test_context *t) {
    clmem_buffer b;
    clmem_semaphore s = {NULL, NULL};
    clmem_memory_info info;
    cl_event e = NULL;
    cl_int err = 0;
    CLMEM_CHECK_ERR(t, clmem_enqueue_acquire_external_memory(t->queue, nullptr, &b), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_acquire_external_memory(t->queue, nullptr, &b, OPT(event, &e)), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_release_external_memory(t->queue, nullptr), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_wait_semaphore(t->queue, s), CL_INVALID_VALUE);
    CLMEM_CHECK_ERR(t, clmem_enqueue_signal_semaphore(t->queue, s, OPT(event, &e)), CL_INVALID_VALUE);
    CLMEM_CHECK(t, e == NULL);
    CLMEM_CHECK(t, clmem_peer_buffer_create(t->context, nullptr, 64, &err) == nullptr && err == CL_INVALID_DEVICE);
    CLMEM_CHECK_CL(t, clmem_device_memory_info(t->device, &info));
    CLMEM_CHECK(t, info.free_bytes <= info.total_bytes);
}

static const clmem_test_case cases[] = {{"forms", test_forms, false}};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
