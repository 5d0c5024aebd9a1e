/* >>transfer_usm (implementation): the USM rows of clmem_enqueue_copy and
   clmem_enqueue_fill (clEnqueueMemcpyINTEL, clEnqueueMemFillINTEL) */
#include "transfer.h"

/* A USM memcpy between two sides; host sides are tags (no owner, no context) whose
   size is .host_size. The extent rules are the SVM copies' (clmem__ptr_copy_extent). */
static cl_int clmem__usm_copy(cl_command_queue queue, clmem_usm dst, const char *dst_what, clmem_usm src,
                              const char *src_what, const clmem_copy_options *opts) {
    static const char fn[] = "clmem_enqueue_copy";
    const clmem__usm_fns *fns = NULL;
    size_t n = 0;
    char *d = NULL;
    const char *s = NULL;
    cl_int err;
    clmem_copy_options local;
    if ((err = clmem__copy_opts_made(fn, &opts, &local)) != CL_SUCCESS) return err;
    if ((err = clmem__usm_check_enqueue(fn, queue, opts->wait_for, opts->num_wait_for, dst, dst_what)) != CL_SUCCESS ||
        (err = clmem__usm_check_enqueue(fn, queue, NULL, 0, src, src_what)) != CL_SUCCESS ||
        (err = clmem__ptr_copy_extent(fn, dst.ptr, CLMEM__KNOWN_SIZE(dst), dst_what, src.ptr, CLMEM__KNOWN_SIZE(src),
                                      src_what, opts, &d, &s, &n)) !=
            CL_SUCCESS)
        return err;
    if ((err = clmem__usm_fns_of_queue(fn, queue, &fns)) != CL_SUCCESS) return err;
    if (n == 0) return clmem__nothing_to_do(fn, queue, opts->wait_for, opts->num_wait_for, opts->event);
    err = fns->memcpy(queue, clmem__blocking(opts), d, s, n, opts->num_wait_for, opts->wait_for, opts->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueMemcpyINTEL");
}

CLMEM_API cl_int clmem__copy_usm_from_usm(cl_command_queue queue, clmem_usm dst, clmem_usm src,
                                          const clmem_copy_options *opts) {
    return clmem__usm_copy(queue, dst, "dst (USM)", src, "src (USM)", opts);
}

CLMEM_API cl_int clmem__copy_usm_from_host(cl_command_queue queue, clmem_usm dst, const void *src,
                                           const clmem_copy_options *opts) {
    clmem_usm host = clmem_usm_tag(NULL, clmem__unconst(src), opts ? opts->host_size : 0, 0);
    return clmem__usm_copy(queue, dst, "dst (USM)", host, "src (host)", opts);
}

CLMEM_API cl_int clmem__copy_host_from_usm(cl_command_queue queue, void *dst, clmem_usm src,
                                           const clmem_copy_options *opts) {
    clmem_usm host = clmem_usm_tag(NULL, dst, opts ? opts->host_size : 0, 0);
    return clmem__usm_copy(queue, host, "dst (host)", src, "src (USM)", opts);
}

CLMEM_API cl_int clmem__fill_usm(cl_command_queue queue, clmem_usm dst, const void *pattern, size_t pattern_size,
                                 size_t size, const clmem_fill_options *opts) {
    static const char fn[] = "clmem_enqueue_fill";
    static const clmem_fill_options none = CLMEM_OPTIONS_INIT;
    const clmem__usm_fns *fns = NULL;
    size_t n = 0;
    cl_int err;
    if (!opts) opts = &none;
    if ((err = clmem__usm_check_enqueue(fn, queue, opts->wait_for, opts->num_wait_for, dst, "dst")) != CL_SUCCESS ||
        (err = clmem__ptr_fill_extent(fn, dst.ptr, CLMEM__KNOWN_SIZE(dst), opts->offset, pattern, pattern_size, size, true, &n)) !=
            CL_SUCCESS ||
        (err = clmem__usm_fns_of_queue(fn, queue, &fns)) != CL_SUCCESS)
        return err;
    if (n == 0) return clmem__nothing_to_do(fn, queue, opts->wait_for, opts->num_wait_for, opts->event);
    err = fns->fill(queue, (char *)dst.ptr + opts->offset, pattern, pattern_size, n, opts->num_wait_for, opts->wait_for,
                    opts->event);
    return err == CL_SUCCESS ? CL_SUCCESS : clmem__cl_fail(err, fn, "clEnqueueMemFillINTEL");
}
