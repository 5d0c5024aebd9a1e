#!/usr/bin/env python3
"""PyOpenCL side of bench/pool_bench.c: the median time of one
pool.allocate(size).release() pair on MemoryPool(ImmediateAllocator(queue)), for a
block the pool already holds. The device is --platform P --device D (indices
into get_platforms() and its get_devices(), set by pool_bench). Prints one line: "pyopencl_pool_ns <median>"."""
import argparse
import statistics
import time

import pyopencl as cl
import pyopencl.tools as cltools


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--platform", type=int, default=0)
    ap.add_argument("--device", type=int, default=0)
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
    pool.stop_holding()
    print("pyopencl_pool_ns %.1f" % statistics.median(results))


if __name__ == "__main__":
    main()
