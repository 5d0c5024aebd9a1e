/* tests/fuzz/flags_layout.c - fuzzes three more pure checks against models of the spec:
   clmem__check_mem_flags and clmem__check_host_ptr (clmem/buffer.c: memory flags and
   host pointers of every memory object) and clmem__image_host_layout
   (clmem/transfer_image.c: host pitches and extent of an image <-> host transfer, with
   128-bit arithmetic in the model). */
#define CLMEM_IMPLEMENTATION
#include "../../clmem.h"
#include "fuzz.h"

__extension__ typedef unsigned __int128 u128;
#define CAP ((u128)1 << 100)
static u128 smul(u128 a, u128 b) { return (a && b > CAP / a) ? CAP : (a * b > CAP ? CAP : a * b); }
static u128 sadd(u128 a, u128 b) { return a + b > CAP ? CAP : a + b; }

static unsigned long outcome[3][2]; /* [check][accepted, refused] */
static void report(void) {
    printf("flags_layout: mem flags %lu/%lu, host ptr %lu/%lu, image host layout %lu/%lu (accepted/refused)\n",
           outcome[0][0], outcome[0][1], outcome[1][0], outcome[1][1], outcome[2][0], outcome[2][1]);
}

static unsigned bits(cl_mem_flags f) {
    unsigned n = 0;
    for (; f; f &= f - 1) ++n;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const cl_mem_object_type types[6] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                                CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                                CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
    static int once;
    fuzz_in in = {data, size};
    cl_mem_flags flags = 0;
    const void *host = (fuzz_u8(&in) & 1) ? (const void *)&in : NULL;
    cl_int got, want;
    clmem_image img;
    size_t region[3], pitches[2], host_size, row = 0, slice = 0, i;
    u128 row_eff, slice_eff, extent;
    bool arr1d, no_slices;
    if (!once++) atexit(report);
    for (i = 0; i < 2; ++i) flags = flags << 8 | fuzz_u8(&in);
    if (fuzz_u8(&in) & 0x80) flags |= (cl_mem_flags)1 << (fuzz_u8(&in) % 64);

    /* memory flags: the spec's conflicts, known bits of a buffer */
    got = clmem__check_mem_flags("fuzz", flags, CLMEM__BUFFER_FLAGS);
    want = CL_SUCCESS;
    if ((flags & ~CLMEM__BUFFER_FLAGS) || bits(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) > 1 ||
        bits(flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) > 1 ||
        ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR))))
        want = CL_INVALID_VALUE;
    if (got != want) fuzz_fail("flags 0x%llx: clmem %d, model %d", (unsigned long long)flags, got, want);
    outcome[0][got != CL_SUCCESS]++;
    got = clmem__check_host_ptr("fuzz", flags, host);
    want = (((flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0) != (host != NULL)) ? CL_INVALID_HOST_PTR
                                                                                             : CL_SUCCESS;
    if (got != want) fuzz_fail("flags 0x%llx host %p: clmem %d, model %d", (unsigned long long)flags, host, got, want);
    outcome[1][got != CL_SUCCESS]++;

    /* image <-> host layout (regions as clmem__image_region resolves them: >= 1) */
    memset(&img, 0, sizeof img);
    img.type = types[fuzz_u8(&in) % 6];
    img.element_size = (size_t)1 << (fuzz_u8(&in) % 5);
    for (i = 0; i < 3; ++i) region[i] = 1 + fuzz_size(&in, i == 0 ? 200 : 30);
    for (i = 0; i < 3; ++i)
        if (region[i] == 0) region[i] = 1; /* 1 + SIZE_MAX */
    arr1d = img.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    no_slices = img.type == CL_MEM_OBJECT_IMAGE1D || img.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                img.type == CL_MEM_OBJECT_IMAGE2D;
    if (img.type == CL_MEM_OBJECT_IMAGE1D || img.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) region[1] = region[2] = 1;
    if (arr1d || img.type == CL_MEM_OBJECT_IMAGE2D) region[2] = 1;
    pitches[0] = fuzz_size(&in, 4000);
    pitches[1] = fuzz_size(&in, 200000);
    host_size = fuzz_size(&in, 1000000);
    got = clmem__image_host_layout("pair", &img, region, pitches, host_size ? host_size : SIZE_MAX, &row, &slice);
    want = CL_SUCCESS;
    row_eff = smul(region[0], img.element_size);
    if (row_eff > SIZE_MAX || (pitches[0] && pitches[0] < row_eff)) want = CL_INVALID_VALUE;
    if (pitches[0]) row_eff = pitches[0];
    if (want == CL_SUCCESS && pitches[1] && no_slices) want = CL_INVALID_VALUE;
    slice_eff = arr1d ? row_eff : smul(row_eff, region[1]);
    if (want == CL_SUCCESS && (slice_eff > SIZE_MAX || (pitches[1] && pitches[1] < slice_eff))) want = CL_INVALID_VALUE;
    if (pitches[1]) slice_eff = pitches[1];
    extent = arr1d ? sadd(smul(region[1] - 1, slice_eff), smul(region[0], img.element_size))
                   : sadd(sadd(smul(region[2] - 1, slice_eff), smul(region[1] - 1, row_eff)),
                          smul(region[0], img.element_size));
    if (want == CL_SUCCESS && (extent > SIZE_MAX || (host_size && extent > host_size))) want = CL_INVALID_VALUE;
    if (got != want)
        fuzz_fail("type 0x%x elem %zu region {%zu,%zu,%zu} pitches {%zu,%zu} host %zu: clmem %d, model %d (%s)",
                  (unsigned)img.type, img.element_size, region[0], region[1], region[2], pitches[0], pitches[1],
                  host_size, got, want, clmem_last_error_message());
    /* what goes to the driver: the caller's pitches (0: packed); a 1-D array's rows are
       its slices, so its slice pitch goes as the row pitch too */
    if (got == CL_SUCCESS && (row != (arr1d && pitches[1] ? pitches[1] : pitches[0]) || slice != pitches[1]))
        fuzz_fail("pitches out %zu, %zu for {%zu, %zu}", row, slice, pitches[0], pitches[1]);
    outcome[2][got != CL_SUCCESS]++;
    return 0;
}
