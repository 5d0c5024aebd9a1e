/* session_counter.c (devices: 2; servers outlive clients) - a buffer written on device 0
   and read on device 1 of one context of two servers' devices (multidev_context's
   write_read_across, migrate_then_copy), after another client used server 0 alone
   (argv[1] "warm": that earlier client, one device). Each pocld numbers its client
   sessions from 1, so the two servers then give this client different session numbers.
   tools/remote --repro runs it on fresh servers (right) and after the earlier client on
   the same servers. The steps are printed as they finish: where the output stops is
   where it hangs. */
#include "repro.h"

enum { N = 1 << 16 };

int main(int argc, char **argv) {
    repro r;
    cl_int err;
    cl_event written;
    unsigned char *in = malloc(N), *out = calloc(N, 1);
    cl_mem buf;
    if (argc > 1 && strcmp(argv[1], "warm") == 0) { /* the earlier client: one device, a context, a buffer */
        repro_open(&r, 1);
        buf = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE, N, NULL, &err);
        REPRO_CL(&r, err);
        REPRO_CL(&r, clEnqueueWriteBuffer(r.q[0], buf, CL_TRUE, 0, N, in, 0, NULL, NULL));
        clReleaseMemObject(buf);
        free(in), free(out);
        return repro_close(&r);
    }
    repro_open(&r, 2);
    repro_pattern(in, N, 5);
    buf = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE, N, NULL, &err);
    REPRO_CL(&r, err);
    REPRO_CL(&r, clEnqueueWriteBuffer(r.q[0], buf, CL_FALSE, 0, N, in, 0, NULL, &written));
    REPRO_CL(&r, clWaitForEvents(1, &written));
    printf("written on device 0\n");
    fflush(stdout);
    REPRO_CL(&r, clEnqueueReadBuffer(r.q[1], buf, CL_TRUE, 0, N, out, 1, &written, NULL));
    printf("read on device 1\n");
    fflush(stdout);
    REPRO_EXPECT(&r, memcmp(in, out, N) == 0, "device 1 read other bytes than device 0 wrote");
    clReleaseEvent(written);
    clReleaseMemObject(buf);
    free(in), free(out);
    return repro_close(&r);
}
