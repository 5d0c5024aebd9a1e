#!/bin/sh
# bench/pool_bench.sh - run a prebuilt pool_bench on every OpenCL platform of a machine
# whose ICD files may be missing (the GPU machine: NVIDIA and PoCL), with threads up to
# the number of cores. Builds nothing.
# usage: sh bench/pool_bench.sh [path/to/pool_bench] [extra pool_bench arguments]
#   build it first (here): cc -std=c11 -O2 -I. bench/pool_bench.c -o build/pool_bench -lOpenCL -lpthread
#   LIBOPENCL_DIR=dir   a folder with libOpenCL.so.1 to use when the machine has none
set -eu
bin=${1:-./build/pool_bench}
[ $# -gt 0 ] && shift
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
threads=1
n=2
while [ "$n" -le "$cores" ] && [ "$n" -le 64 ]; do threads="$threads,$n"; n=$((n * 2)); done
[ "$n" -le 64 ] && threads="$threads,$n" # one step past the cores, reported as such
if [ -z "${OCL_ICD_VENDORS:-}" ]; then
    icd=$(mktemp -d)
    for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$icd/"; done
    if [ ! -e "$icd/nvidia.icd" ] && ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib64/libnvidia-opencl.so.1 \
        >/dev/null 2>&1; then
        echo libnvidia-opencl.so.1 > "$icd/nvidia.icd"
    fi
    export OCL_ICD_VENDORS="$icd"
fi
if [ -n "${LIBOPENCL_DIR:-}" ]; then
    export LD_LIBRARY_PATH="$LIBOPENCL_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
py=--no-py
if /usr/bin/python3 -c "import pyopencl" >/dev/null 2>&1; then py=; fi
echo "pool_bench.sh: $(uname -n), $cores cores, threads $threads, ICDs: $(ls "$OCL_ICD_VENDORS" | tr '\n' ' ')"
for plat in nvidia portable; do
    if CLMEM_TEST=$plat "$bin" --threads "$threads" $py "$@"; then :; else echo "(no $plat platform here)"; fi
done
