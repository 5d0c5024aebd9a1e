#!/bin/sh
# bench/pageable_build.sh - build, on the build machine, what bench/pageable_gpu.sh runs on
# the GPU machine: build/pageable/{pageable_bench, pinned_bench, multidev_bench,
# test_registered_host, test_pinned_stager, libOpenCL.so.1}. Same x86-64 on both machines.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/pageable"
mkdir -p "$out"
flags="-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I$root -I$root/tests"
cc $flags "$root/bench/pageable_bench.c" -o "$out/pageable_bench" -lOpenCL -lpthread -lm
cc $flags "$root/bench/pinned_bench.c" -o "$out/pinned_bench" -lOpenCL -lpthread -lm
cc $flags "$root/bench/multidev_bench.c" -o "$out/multidev_bench" -lOpenCL -lpthread -lm
for t in registered_host pinned_stager; do
    cc $flags "$root/tests/$t.c" -o "$out/test_$t" -lOpenCL -lpthread -lm
done
cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$out/libOpenCL.so.1" 2>/dev/null || true
ls -la "$out"
