/* tests/fuzz/image_layout.c - fuzzes clmem__image_layout_check (clmem/image.c: the
   extents and host pitches of clmem_create_image) against a model written with
   128-bit arithmetic: no crash (a zero row pitch once divided by zero), no wrap, and
   the spec's code for each refusal (CL_INVALID_IMAGE_SIZE for sizes no size_t holds,
   CL_INVALID_IMAGE_DESCRIPTOR for pitch rules, CL_INVALID_VALUE for a short host_size). */
#define CLMEM_IMPLEMENTATION
#include "../../clmem.h"
#include "fuzz.h"

__extension__ typedef unsigned __int128 u128;
#define CAP ((u128)1 << 100)
static u128 smul(u128 a, u128 b) { return (a && b > CAP / a) ? CAP : (a * b > CAP ? CAP : a * b); }
static u128 sadd(u128 a, u128 b) { return a + b > CAP ? CAP : a + b; }

static unsigned long outcome[4]; /* accepted, IMAGE_SIZE, IMAGE_DESCRIPTOR, INVALID_VALUE */
static void report(void) {
    printf("image_layout: accepted %lu, CL_INVALID_IMAGE_SIZE %lu, CL_INVALID_IMAGE_DESCRIPTOR %lu, CL_INVALID_VALUE %lu\n",
           outcome[0], outcome[1], outcome[2], outcome[3]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const cl_mem_object_type types[6] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                                CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                                CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
    static int once;
    fuzz_in in = {data, size};
    cl_mem_object_type type = types[fuzz_u8(&in) % 6];
    size_t w = fuzz_size(&in, 300), h = fuzz_size(&in, 40), d = fuzz_size(&in, 20), n = fuzz_size(&in, 20);
    size_t elem = (size_t)1 << (fuzz_u8(&in) % 5); /* 1..16 bytes, as formats have */
    size_t row = fuzz_size(&in, 5000), slice = fuzz_size(&in, 200000), host_size = fuzz_size(&in, 4000000);
    bool has_host = fuzz_u8(&in) & 1;
    if (host_size == 0 && (fuzz_u8(&in) & 1)) host_size = SIZE_MAX; /* .host_size left out: unknown */
    bool arr1d = type == CL_MEM_OBJECT_IMAGE1D_ARRAY, no_slices;
    cl_int got, want = CL_SUCCESS;
    u128 layers, row_min, row_eff, min_slice, need, slice_eff;
    if (!once++) atexit(report);
    if (fuzz_u8(&in) & 1) elem = 3 * (1 + fuzz_u8(&in) % 4); /* RGB-like sizes too */
    /* the extents a type has (create_image derives them from the shape so) */
    if (type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER) h = d = n = 1;
    if (arr1d || type == CL_MEM_OBJECT_IMAGE2D) d = 1;
    if (arr1d) h = 1;
    if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE3D) n = 1;
    if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY) d = 1;
    no_slices = type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER || type == CL_MEM_OBJECT_IMAGE2D;

    got = clmem__image_layout_check("clmem_create_image", type, w, h, d, n, elem, row, slice, has_host, host_size);
    if (got != CL_SUCCESS && strncmp(clmem_last_error_message(), "clmem_create_image: ", 20) != 0)
        fuzz_fail("refusal %d without the function's name: '%s'", got, clmem_last_error_message());

    layers = type == CL_MEM_OBJECT_IMAGE3D ? d : n;
    row_min = smul(w, elem);
    if (w == 0 || h == 0 || d == 0 || n == 0)
        want = CL_INVALID_IMAGE_SIZE;
    else if (smul(smul(row_min, arr1d ? 1 : h), layers) > SIZE_MAX)
        want = CL_INVALID_IMAGE_SIZE;
    else if ((row || slice) && !has_host)
        want = CL_INVALID_IMAGE_DESCRIPTOR;
    else if (row && (row < row_min || row % elem))
        want = CL_INVALID_IMAGE_DESCRIPTOR;
    else {
        row_eff = row ? row : row_min;
        min_slice = smul(row_eff, arr1d ? 1 : h);
        if (slice && (no_slices || min_slice > SIZE_MAX || slice < min_slice || slice % row_eff))
            want = CL_INVALID_IMAGE_DESCRIPTOR;
        else if (has_host && host_size != SIZE_MAX) {
            slice_eff = slice ? slice : min_slice;
            need = sadd(sadd(smul(layers - 1, slice_eff), smul(arr1d ? 0 : h - 1, row_eff)), row_min);
            if (need > host_size) want = CL_INVALID_VALUE;
        }
    }
    outcome[want == CL_SUCCESS ? 0 : want == CL_INVALID_IMAGE_SIZE ? 1 : want == CL_INVALID_IMAGE_DESCRIPTOR ? 2 : 3]++;
    if (got != want)
        fuzz_fail("type 0x%x w %zu h %zu d %zu n %zu elem %zu row %zu slice %zu host %d size %zu: clmem %d, model %d (%s)",
                  (unsigned)type, w, h, d, n, elem, row, slice, (int)has_host, host_size, got, want,
                  clmem_last_error_message());
    return 0;
}
