/* tests/fuzz/rect_copy.c - fuzzes the checks of a rectangular buffer-to-buffer copy
   (clmem__region + clmem__copy_rect_check in clmem/transfer.c) against a byte-level
   model of the spec: pitch and bounds rules, one object with different pitches, and
   overlap computed by marking every byte the source touches. Both directions count:
   the model's refusals must be refused with its code, its acceptances accepted.
   Handles are fake (no driver is called: the checks are pure). */
#define CLMEM_IMPLEMENTATION
#include "../../clmem.h"
#include "fuzz.h"

__extension__ typedef unsigned __int128 u128;

#define ROOT_MAX 4096

typedef struct side {
    size_t origin[3], pitches[2], size;
} side;

/* saturating arithmetic: everything above 2^80 stays 2^80 (far beyond any size_t) */
#define CAP ((u128)1 << 80)
static u128 smul(u128 a, u128 b) { return (a && b > CAP / a) ? CAP : (a * b > CAP ? CAP : a * b); }
static u128 sadd(u128 a, u128 b) { return a + b > CAP ? CAP : a + b; }

/* model_side: CL_SUCCESS and the touched bytes' linear start/row/slice, or CL_INVALID_VALUE */
static cl_int model_side(const side *s, const size_t region[3], u128 *start, u128 *row, u128 *slice) {
    u128 rx = region[0], ry = region[1], rz = region[2], end;
    *row = s->pitches[0] ? s->pitches[0] : rx;
    if (*row < rx) return CL_INVALID_VALUE;
    *slice = s->pitches[1] ? (u128)s->pitches[1] : smul(ry, *row);
    if (*slice < smul(ry, *row) || *slice % *row) return CL_INVALID_VALUE;
    *start = sadd(sadd(smul(s->origin[2], *slice), smul(s->origin[1], *row)), s->origin[0]);
    end = sadd(sadd(sadd(*start, smul(rz - 1, *slice)), smul(ry - 1, *row)), rx);
    if (end > s->size) return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

static void mark(unsigned char *bytes, size_t base, u128 start, u128 row, u128 slice, const size_t region[3],
                 unsigned char bit) {
    size_t x, y, z;
    for (z = 0; z < region[2]; ++z)
        for (y = 0; y < region[1]; ++y)
            for (x = 0; x < region[0]; ++x) bytes[base + (size_t)(start + z * slice + y * row) + x] |= bit;
}

/* bounded(in, n): a value in [0, n) (handles must be well formed: the fuzzing is in the copy) */
static size_t bounded(fuzz_in *in, size_t n) {
    size_t v = (size_t)fuzz_u8(in) << 8;
    v |= fuzz_u8(in);
    return n ? v % n : 0;
}

/* prints (at exit) what the corpus covers: outcomes per relation */
static unsigned long counts[4][3]; /* [relation][accepted, CL_MEM_COPY_OVERLAP, CL_INVALID_VALUE] */
static void report(void) {
    static const char *const rel[4] = {"one object", "siblings", "parent/sub", "two roots"};
    int r;
    for (r = 0; r < 4; ++r)
        printf("rect_copy: %-10s accepted %lu, overlap %lu, invalid %lu\n", rel[r], counts[r][0], counts[r][1],
               counts[r][2]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned char bytes[ROOT_MAX];
    fuzz_in in = {data, size};
    clmem_buffer src, dst;
    clmem_copy_options o;
    side s, d;
    size_t region[3], i, root_size;
    unsigned relation = fuzz_u8(&in) % 4; /* 0: one object, 1: siblings, 2: parent and sub-buffer, 3: two roots */
    cl_int got, want = CL_SUCCESS, err;
    bool rect;
    clmem__rect sr, dr;
    u128 ss = 0, srow = 0, sslice = 0, ds = 0, drow = 0, dslice = 0;
    memset(&src, 0, sizeof src);
    memset(&dst, 0, sizeof dst);
    memset(&o, 0, sizeof o);
    memset(&s, 0, sizeof s);
    memset(&d, 0, sizeof d);
    root_size = 1 + bounded(&in, (fuzz_u8(&in) & 1) ? 256 : ROOT_MAX);
    for (i = 0; i < 3; ++i) region[i] = fuzz_size(&in, i == 0 ? 64 : 12);
    for (i = 0; i < 3; ++i) s.origin[i] = fuzz_size(&in, i == 0 ? 128 : 16);
    for (i = 0; i < 3; ++i) d.origin[i] = fuzz_size(&in, i == 0 ? 128 : 16);
    for (i = 0; i < 2; ++i) s.pitches[i] = fuzz_size(&in, i == 0 ? 160 : 1200);
    for (i = 0; i < 2; ++i) d.pitches[i] = fuzz_size(&in, i == 0 ? 160 : 1200);
    /* the two buffers: fake handles in one or two allocations */
    src.context = dst.context = (cl_context)(uintptr_t)0x100;
    src.mem = (cl_mem)(uintptr_t)0x1000;
    src.root = (cl_mem)(uintptr_t)0x2000;
    src.origin = bounded(&in, root_size);
    src.size = root_size - src.origin - bounded(&in, root_size - src.origin); /* >= 1 */
    dst = src;
    if (relation == 0) {
        dst = src;
    } else if (relation == 1) {
        dst.mem = (cl_mem)(uintptr_t)0x3000;
        dst.origin = bounded(&in, root_size);
        dst.size = root_size - dst.origin - bounded(&in, root_size - dst.origin);
    } else if (relation == 2) {
        dst.mem = dst.root = src.root;
        dst.origin = 0;
        dst.size = root_size;
        if (fuzz_u8(&in) & 1) { /* swap: the parent is the source */
            clmem_buffer t = src;
            src = dst;
            dst = t;
        }
    } else {
        dst.mem = dst.root = (cl_mem)(uintptr_t)0x4000;
        dst.origin = 0;
        dst.size = 1 + bounded(&in, ROOT_MAX);
    }
    s.size = src.size;
    d.size = dst.size;
    memcpy(o.region, region, sizeof region);
    memcpy(o.src_origin, s.origin, sizeof s.origin);
    memcpy(o.dst_origin, d.origin, sizeof d.origin);
    memcpy(o.src_pitches, s.pitches, sizeof s.pitches);
    memcpy(o.dst_pitches, d.pitches, sizeof d.pitches);

    /* clmem */
    rect = clmem__region("fuzz", false, o.region, region, &err);
    if (!rect) return 0; /* no region: a linear copy, not this target's */
    got = err != CL_SUCCESS ? err : clmem__copy_rect_check(dst, src, region, &o, &dr, &sr);
    if (got != CL_SUCCESS && strncmp(clmem_last_error_message(), "clmem_enqueue_copy: ", 20) != 0 &&
        strncmp(clmem_last_error_message(), "fuzz: ", 6) != 0)
        fuzz_fail("refusal %d without a message naming the function: '%s'", got, clmem_last_error_message());

    /* the model */
    if (o.region[0] == 0 || (o.region[1] == 0 && o.region[2] != 0)) want = CL_INVALID_VALUE;
    if (want == CL_SUCCESS) want = model_side(&s, region, &ss, &srow, &sslice);
    if (want == CL_SUCCESS) want = model_side(&d, region, &ds, &drow, &dslice);
    if (want == CL_SUCCESS && src.root == dst.root) {
        if (src.mem == dst.mem && (srow != drow || sslice != dslice)) {
            want = CL_INVALID_VALUE;
        } else {
            size_t k;
            memset(bytes, 0, root_size);
            mark(bytes, src.origin, ss, srow, sslice, region, 1);
            mark(bytes, dst.origin, ds, drow, dslice, region, 2);
            for (k = 0; k < root_size; ++k)
                if (bytes[k] == 3) {
                    want = CL_MEM_COPY_OVERLAP;
                    break;
                }
        }
    }
    {
        static int once;
        if (!once++) atexit(report);
        counts[relation][want == CL_SUCCESS ? 0 : want == CL_MEM_COPY_OVERLAP ? 1 : 2]++;
    }
    if (got != want)
        fuzz_fail("relation %u root %zu src [%zu +%zu] dst [%zu +%zu] region {%zu,%zu,%zu} src origin {%zu,%zu,%zu} "
                  "pitches {%zu,%zu} dst origin {%zu,%zu,%zu} pitches {%zu,%zu}: clmem %d, model %d (%s)",
                  relation, root_size, src.origin, src.size, dst.origin, dst.size, o.region[0], o.region[1], o.region[2],
                  s.origin[0], s.origin[1], s.origin[2], s.pitches[0], s.pitches[1], d.origin[0], d.origin[1],
                  d.origin[2], d.pitches[0], d.pitches[1], got, want, clmem_last_error_message());
    return 0;
}
