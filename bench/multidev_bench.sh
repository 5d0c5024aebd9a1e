#!/bin/sh
# bench/multidev_bench.sh - the multi-device tests and bench/multidev_bench.c on a
# machine with two GPUs, from prebuilt binaries (it builds nothing).
#
# usage: bench/multidev_bench.sh DIR [SPEC] [SIZE ...]
#   DIR   holds test_multidev_context, test_multidev_subdevices, test_testing_spec and
#         multidev_bench (built on the build machine, see bench/multidev_build.sh), and
#         optionally libOpenCL.so.1 (used when the machine has no ICD loader)
#   SPEC  the CLMEM_TEST of the 2-device context (default nvidia:0+1)
#   SIZE  buffer sizes for the bench, MiB or KiB as 256K (default 16 256 1024)
# The OpenCL driver is made visible by bench/device_env.sh (nvidia.icd, pocl.icd).
set -u
dir=$(cd "${1:?usage: bench/multidev_bench.sh DIR [SPEC] [SIZE ...]}" && pwd)
spec=${2:-nvidia:0+1}
[ $# -ge 2 ] && shift 2 || shift $#
sizes=${*:-16 256 1024}

. "$(dirname "$0")/device_env.sh"
echo "== OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-/etc/OpenCL/vendors} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
command -v nvidia-smi > /dev/null && nvidia-smi topo -m 2>/dev/null | head -n 4

rc=0
step() { # step NAME ENV... -- COMMAND...: run, report the exit code (77 = skipped)
    name=$1; shift
    echo "== $name"
    env "$@"
    r=$?
    echo "-- $name: exit $r"
    [ $r -ne 0 ] && [ $r -ne 77 ] && rc=1
    return 0
}
step "runner: queues per device ($spec)" CLMEM_TEST="$spec" "$dir/test_testing_spec" runner
step "multidev cases ($spec)" CLMEM_TEST="$spec" "$dir/test_multidev_context"
step "device links ($spec)" CLMEM_TEST="$spec" "$dir/test_device_link"
step "coarse-grain SVM on two devices, bare calls" "$dir/svm_two_gpus"
step "multidev cases on sub-devices of $spec's platform" CLMEM_TEST="${spec%%:*}" "$dir/test_multidev_subdevices"
# PoCL 3.x calls its CPU driver pthread; later PoCL also knows it as cpu
saved=$rc
step "multidev cases, PoCL pthread x2" POCL_DEVICES="pthread pthread" CLMEM_TEST="portable:0+1" "$dir/test_multidev_context"
if [ "$r" -ne 0 ]; then
    rc=$saved
    step "multidev cases, PoCL cpu x2" POCL_DEVICES="cpu cpu" CLMEM_TEST="portable:0+1" "$dir/test_multidev_context"
fi
step "multidev cases, PoCL sub-devices" CLMEM_TEST="portable:0" "$dir/test_multidev_subdevices"
step "bench: device 0 -> device 1 ($spec)" CLMEM_TEST="$spec" "$dir/multidev_bench" $sizes
# the links' other way of staging: every piece by clEnqueueCopyBuffer through the slots'
# buffers (compare its device-link rows, plain and no-host-access, with the run above)
step "bench: device links by copies ($spec)" CLMEM_TEST="$spec" CLMEM_BENCH_LINK_STAGING=copies \
    CLMEM_BENCH_LINK_ONLY=1 "$dir/multidev_bench" $sizes
exit $rc
