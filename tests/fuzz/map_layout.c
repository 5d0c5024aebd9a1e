/* tests/fuzz/map_layout.c - fuzzes the pure checks of clmem_enqueue_map_buffer:
   clmem__map_buffer_layout (shape, strides, order, itemsize against the room left in
   the buffer) and clmem__map_check_flags. Model: on success the size is itemsize x
   prod(shape) without wrapping (or the room, with no shape), every element the strides
   reach lies inside it, and C/F order strides are the packed ones; refusals are
   CL_INVALID_VALUE naming the function. Flags: the spec's rules, exactly. */
#define CLMEM_IMPLEMENTATION
#include "../../clmem.h"
#include "fuzz.h"

__extension__ typedef unsigned __int128 u128;

static unsigned long outcome[2];
static void report(void) { printf("map_layout: accepted %lu, refused %lu\n", outcome[0], outcome[1]); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char fn[] = "clmem_enqueue_map_buffer";
    static int once;
    fuzz_in in = {data, size};
    clmem_map_options o;
    clmem_memory_map m;
    size_t itemsize = fuzz_size(&in, 17), avail = fuzz_size(&in, 1 << 20), i, nd;
    cl_map_flags flags = (cl_map_flags)fuzz_u8(&in) & 0x0F;
    cl_int got, want;
    u128 prod;
    bool no_shape = true;
    if (!once++) atexit(report);
    if (fuzz_u8(&in) & 0x80) flags |= (cl_map_flags)1 << (fuzz_u8(&in) % 64);
    memset(&o, 0, sizeof o);
    memset(&m, 0, sizeof m);
    o.ndim = fuzz_u8(&in) % 11; /* 0..10: above CLMEM_MAP_MAX_DIMS too */
    for (i = 0; i < CLMEM_MAP_MAX_DIMS; ++i) o.shape[i] = fuzz_size(&in, 9);
    if (fuzz_u8(&in) & 1)
        for (i = 0; i < CLMEM_MAP_MAX_DIMS; ++i) o.strides[i] = fuzz_size(&in, 300);
    o.order = "\0CFX"[fuzz_u8(&in) % 4];
    for (i = 0; i < CLMEM_MAP_MAX_DIMS; ++i)
        if (o.shape[i]) no_shape = false;
    no_shape = no_shape && o.ndim == 0;

    /* flags: the model */
    got = clmem__map_check_flags(fn, flags);
    want = CL_SUCCESS;
    if (flags == 0 || (flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
        want = CL_INVALID_VALUE;
    if (got != want) fuzz_fail("flags 0x%llx: clmem %d, model %d", (unsigned long long)flags, got, want);

    got = clmem__map_buffer_layout(fn, &o, itemsize, avail, &m);
    outcome[got != CL_SUCCESS]++;
    if (got != CL_SUCCESS) {
        if (got != CL_INVALID_VALUE || strncmp(clmem_last_error_message(), fn, strlen(fn)) != 0)
            fuzz_fail("refusal %d: '%s'", got, clmem_last_error_message());
        if (itemsize != 0 && o.order != 'X' && no_shape &&
            avail % itemsize == 0)
            fuzz_fail("no shape, %zu bytes of %zu-byte items refused: '%s'", avail, itemsize, clmem_last_error_message());
        return 0;
    }
    if (itemsize == 0 || o.order == 'X' || o.ndim > CLMEM_MAP_MAX_DIMS) fuzz_fail("accepted a bad itemsize/order/ndim");
    nd = m.ndim;
    if (nd == 0 || nd > CLMEM_MAP_MAX_DIMS) fuzz_fail("ndim %zu", nd);
    prod = itemsize;
    for (i = 0; i < nd; ++i) prod *= m.shape[i];
    if (prod != m.size) fuzz_fail("size %zu is not itemsize x prod(shape) (%llu)", m.size, (unsigned long long)prod);
    if (no_shape && m.size != avail) fuzz_fail("no shape: size %zu, room %zu", m.size, avail);
    if (m.size) {
        u128 reach = itemsize;
        for (i = 0; i < nd; ++i) reach += (u128)(m.shape[i] - 1) * m.strides[i];
        if (reach > m.size) fuzz_fail("strides reach %llu bytes of a %zu-byte map", (unsigned long long)reach, m.size);
    }
    return 0;
}
