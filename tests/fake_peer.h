/* tests/fake_peer.h: a peer buffer built around an ordinary buffer, for the tests of
   peer memory that run on every device (tests/peer.c, tests/peer_pool.c): one view, for
   t's device, an import whose acquire and release entry points are markers. pooled: a
   peer pool's block (clmem_peer_buffer_release refuses it). Include after clmem.h
   (with CLMEM_IMPLEMENTATION) and common.h. */
#ifndef CLMEM_TESTS_FAKE_PEER_H
#define CLMEM_TESTS_FAKE_PEER_H

static cl_int CL_API_CALL marker(cl_command_queue q, cl_uint n, const cl_mem *m, cl_uint nw, const cl_event *w, cl_event *e) {
    (void)m;
    return n == 1 ? clEnqueueMarkerWithWaitList(q, nw, w, e) : CL_INVALID_VALUE;
}
static const clmem__extmem_fns marker_fns = {marker, marker};

static clmem_peer_buffer *fake_peer(clmem_test_context *t, size_t size, bool pooled) {
    cl_int err;
    clmem_peer_buffer *pb = (clmem_peer_buffer *)calloc(1, sizeof *pb);
    clmem_external_memory *m = (clmem_external_memory *)calloc(1, sizeof *m);
    cl_mem mem = clCreateBuffer(t->context, CL_MEM_READ_WRITE, size, NULL, &err);
    if (!pb || !m || !mem) {
        free(pb);
        free(m);
        if (mem) clReleaseMemObject(mem);
        return NULL;
    }
    m->rec = clmem__external_record_get(t->device);
    m->mem = mem;
    m->device = t->device;
    m->fns = &marker_fns;
    clmem__mutex_init(&m->lock);
    m->buffer.mem = m->buffer.root = mem;
    m->buffer.context = t->context;
    m->buffer.size = size;
    m->buffer.flags = CL_MEM_READ_WRITE;
    m->buffer.pool = m->rec;
    m->rec->object = pb;
    pb->at.context = t->context;
    clRetainContext(t->context);
    pb->at.home = t->device;
    pb->size = size;
    pb->fd = -1;
    pb->pooled = pooled;
    clmem__mutex_init(&pb->lock);
    pb->views[0].device = t->device;
    pb->views[0].m = m;
    if (clmem_enqueue_acquire_external_memory(t->queue, m, &pb->views[0].buf) != CL_SUCCESS) return NULL;
    pb->nviews = 1;
    return pb;
}

#endif
