/* >>transfer_svm (implementation): the SVM rows of clmem_enqueue_copy and
   clmem_enqueue_fill (clEnqueueSVMMemcpy, clEnqueueSVMMemFill) */
#include "transfer.h"

/* clmem__ptr_copy_extent(fn, dst, dst_size, dst_what, src, src_size, src_what, opts,
   &d, &s, &n): the rules of a linear copy between pointers (SVM, USM, host), shared by
   the SVM and USM pairs: non-NULL sides, offsets within the known sizes (0: unknown,
   but CLMEM__SIZE_ZERO for a side known to hold 0 bytes, a pooled block of size 0),
   .byte_count (given: exactly that, within both sides) or else what both sides hold
   after their offsets, and no overlap. *d, *s: the pointers after the offsets. */
static cl_int clmem__ptr_copy_extent(const char *fn, void *dst, size_t dst_size, const char *dst_what, const void *src,
                                     size_t src_size, const char *src_what, const clmem_copy_options *opts, char **d,
                                     const char **s, size_t *count) {
    const size_t dst_known = dst_size, src_known = src_size;
    size_t n;
    *count = 0;
    if (dst_size == CLMEM__SIZE_ZERO) dst_size = 0;
    if (src_size == CLMEM__SIZE_ZERO) src_size = 0;
    if (!dst) return clmem__fail(CL_INVALID_VALUE, fn, "%s is NULL", dst_what);
    if (!src) return clmem__fail(CL_INVALID_VALUE, fn, "%s is NULL", src_what);
    if (dst_known) {
        if (opts->dst_offset > dst_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "dst_offset %zu is beyond the %zu bytes of %s", opts->dst_offset, dst_size,
                               dst_what);
        dst_size -= opts->dst_offset;
    }
    if (src_known) {
        if (opts->src_offset > src_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "src_offset %zu is beyond the %zu bytes of %s", opts->src_offset, src_size,
                               src_what);
        src_size -= opts->src_offset;
    }
    if (opts->byte_count || (opts->given & CLMEM_GIVEN_BYTE_COUNT)) {
        n = opts->byte_count;
        if (dst_known && n > dst_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "byte_count %zu is larger than the %zu bytes of %s after dst_offset %zu",
                               n, dst_size, dst_what, opts->dst_offset);
        if (src_known && n > src_size)
            return clmem__fail(CL_INVALID_VALUE, fn, "byte_count %zu is larger than the %zu bytes of %s after src_offset %zu",
                               n, src_size, src_what, opts->src_offset);
    } else if (dst_known && src_known) {
        n = dst_size < src_size ? dst_size : src_size;
    } else if (dst_known) {
        n = dst_size;
    } else if (src_known) {
        n = src_size;
    } else {
        return clmem__fail(CLMEM_ERROR_SIZE_UNKNOWN, fn,
                           "the size of the copy is unknown: neither %s nor %s has a size and .byte_count is not given",
                           dst_what, src_what);
    }
    *d = (char *)dst + opts->dst_offset;
    *s = (const char *)src + opts->src_offset;
    if (CLMEM__CHECKS && n && (uintptr_t)*d < (uintptr_t)*s + n && (uintptr_t)*s < (uintptr_t)*d + n)
        return clmem__fail(CL_MEM_COPY_OVERLAP, fn, "%s [%p, +%zu) and %s [%p, +%zu) overlap", dst_what, (void *)*d, n,
                           src_what, (const void *)*s, n);
    *count = n;
    return CL_SUCCESS;
}

/* One side of an SVM memcpy: pointer, known size (0: unknown), owner, and its name
   for messages. Host sides are tags whose size is .host_size. */
static cl_int clmem__svm_copy(const char *fn, cl_command_queue queue, clmem_svm dst, const char *dst_what, clmem_svm src,
                              const char *src_what, const clmem_copy_options *opts) {
    size_t n = 0;
    char *d = NULL;
    const char *s = NULL;
    cl_int err;
    clmem_copy_options local;
    if ((err = clmem__copy_opts_made(fn, &opts, &local)) != CL_SUCCESS) return err;
    if ((err = clmem__svm_check_enqueue(fn, queue, opts->wait_for, opts->num_wait_for, dst, dst_what)) != CL_SUCCESS)
        return err;
    if ((err = clmem__svm_check_enqueue(fn, queue, NULL, 0, src, src_what)) != CL_SUCCESS) return err;
    if ((err = clmem__ptr_copy_extent(fn, dst.ptr, CLMEM__KNOWN_SIZE(dst), dst_what, src.ptr, CLMEM__KNOWN_SIZE(src),
                                      src_what, opts, &d, &s, &n)) !=
        CL_SUCCESS)
        return err;
    if (n == 0) return clmem__nothing_to_do(fn, queue, opts->wait_for, opts->num_wait_for, opts->event);
#ifdef CL_VERSION_2_0
    err = clEnqueueSVMMemcpy(queue, clmem__blocking(opts), d, s, n,
                             opts->num_wait_for, opts->wait_for, opts->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueSVMMemcpy");
#else
    return clmem__svm_unsupported(fn);
#endif
}

CLMEM_API cl_int clmem__copy_svm_from_svm(cl_command_queue queue, clmem_svm dst, clmem_svm src,
                                          const clmem_copy_options *opts) {
    return clmem__svm_copy("clmem_enqueue_copy", queue, dst, "dst (SVM)", src, "src (SVM)", opts);
}

CLMEM_API cl_int clmem__copy_svm_from_host(cl_command_queue queue, clmem_svm dst, const void *src,
                                           const clmem_copy_options *opts) {
    clmem_svm host = clmem_svm_tag(clmem__unconst(src), opts ? opts->host_size : 0);
    return clmem__svm_copy("clmem_enqueue_copy", queue, dst, "dst (SVM)", host, "src (host)", opts);
}

CLMEM_API cl_int clmem__copy_host_from_svm(cl_command_queue queue, void *dst, clmem_svm src,
                                           const clmem_copy_options *opts) {
    clmem_svm host = clmem_svm_tag(dst, opts ? opts->host_size : 0);
    return clmem__svm_copy("clmem_enqueue_copy", queue, host, "dst (host)", src, "src (SVM)", opts);
}

CLMEM_API cl_int clmem__fill_svm(cl_command_queue queue, clmem_svm dst, const void *pattern, size_t pattern_size,
                                 size_t size, const clmem_fill_options *opts) {
    static const clmem_fill_options none = CLMEM_OPTIONS_INIT;
    if (!opts) opts = &none;
    return clmem__svm_fill("clmem_enqueue_fill", queue, dst, opts->offset, pattern, pattern_size, size, true,
                           opts->wait_for, opts->num_wait_for, opts->event);
}
