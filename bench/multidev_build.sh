#!/bin/sh
# bench/multidev_build.sh - build, on the build machine, what bench/multidev_bench.sh
# runs elsewhere: build/multidev/{test_multidev_context, test_multidev_subdevices,
# test_testing_spec, test_device_link, multidev_bench, svm_two_gpus, libOpenCL.so.1}. Same x86-64 on both machines.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/multidev"
mkdir -p "$out"
flags="-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I$root -I$root/tests"
for t in multidev_context multidev_subdevices testing_spec device_link; do
    cc $flags "$root/tests/$t.c" -o "$out/test_$t" -lOpenCL -lm
done
cc $flags "$root/bench/multidev_bench.c" -o "$out/multidev_bench" -lOpenCL
cc -std=c11 -O2 -Wall -Wextra -Werror "$root/bench/svm_two_gpus.c" -o "$out/svm_two_gpus" -lOpenCL
cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$out/libOpenCL.so.1" 2>/dev/null || true
ls -la "$out"
