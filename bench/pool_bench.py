#!/usr/bin/env python3
"""PyOpenCL side of bench/pool_bench.c: the median time of one
pool.allocate(size).release() pair on MemoryPool(ImmediateAllocator(queue)), for a
block the pool already holds, in one thread and in N Python threads sharing the pool
(each thread timing its own pairs). The device is --platform P --device D (indices
into get_platforms() and its get_devices(), set by pool_bench). Prints
"pyopencl_pool_ns <median>" and one "pyopencl_threads <N> <median>" per N."""
import argparse
import statistics
import threading
import time

import pyopencl as cl
import pyopencl.tools as cltools


def pairs(pool, size, batches, per, out, go):
    pool.allocate(size).release()
    go.wait()
    alloc = pool.allocate
    for _ in range(batches):
        t0 = time.perf_counter_ns()
        for _ in range(per):
            alloc(size).release()
        out.append((time.perf_counter_ns() - t0) / per)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--platform", type=int, default=0)
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--threads", default="")
    args = ap.parse_args()

    dev = cl.get_platforms()[args.platform].get_devices()[args.device]
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)
    pool = cltools.MemoryPool(cltools.ImmediateAllocator(queue))
    pool.allocate(args.size).release()  # the held block
    batches, per = (15, 20000) if args.quick else (41, 50000)
    alloc = pool.allocate
    size = args.size
    results = []
    for _ in range(batches):
        t0 = time.perf_counter_ns()
        for _ in range(per):
            alloc(size).release()
        results.append((time.perf_counter_ns() - t0) / per)
    assert pool.held_blocks == 1 and pool.active_blocks == 0
    print("pyopencl_pool_ns %.1f" % statistics.median(results), flush=True)

    for n in [int(x) for x in args.threads.split(",") if x]:
        go = threading.Event()
        outs = [[] for _ in range(n)]
        tb, tp = (5, 5000) if args.quick else (11, 20000)
        ths = [threading.Thread(target=pairs, args=(pool, size, tb, tp, outs[i], go)) for i in range(n)]
        for t in ths:
            t.start()
        go.set()
        for t in ths:
            t.join()
        allv = [v for o in outs for v in o]
        assert pool.active_blocks == 0
        print("pyopencl_threads %d %.1f" % (n, statistics.median(allv)), flush=True)
    pool.stop_holding()


if __name__ == "__main__":
    main()
