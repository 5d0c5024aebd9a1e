#!/bin/sh
# bench/device_suite.sh - run prebuilt test binaries (tools/test's build/gcc, or any folder of
# test_* executables) on a machine with GPUs, one binary at a time with a time limit, on
# each CLMEM_TEST spec given; prints one line per binary and a summary per spec.
#
# usage: bench/device_suite.sh DIR SPEC...     e.g. bench/device_suite.sh build/gcc nvidia:0 portable
# The OpenCL driver is made visible by bench/device_env.sh (nvidia.icd, pocl.icd).
set -u
dir=$(cd "${1:?usage: bench/device_suite.sh DIR SPEC...}" && pwd)
shift
. "$(dirname "$0")/device_env.sh"
rc=0
for spec in "$@"; do
    pass=0 skip=0 fail=0 failed=""
    for t in "$dir"/test_* "$dir"/cxx_*; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        out=$(CLMEM_TEST="$spec" timeout 60 "$t" 2>&1)
        r=$?
        case $r in
            0) pass=$((pass + 1)) ;;
            77) skip=$((skip + 1)) ;;
            *) fail=$((fail + 1)); failed="$failed $name"; rc=1
               echo "---- $spec $name: exit $r"; echo "$out" | grep -v "^ok " | tail -n 15 ;;
        esac
    done
    echo "== $spec: $pass passed, $skip skipped, $fail failed${failed:+ ($failed )}"
done
exit $rc
