#!/bin/sh
# bench/pinned_bench.sh - run a prebuilt pinned_bench and draw its plot (issue 14).
#
# usage: bench/pinned_bench.sh BIN OUTDIR [pinned_bench options...]
#   BIN     the pinned_bench binary, built elsewhere:
#           cc -std=c11 -O2 -I. bench/pinned_bench.c -o pinned_bench -lOpenCL -lpthread -lm
#   OUTDIR  gets pinned_bench.txt (the table), pinned_bench.dat (the figures) and,
#           where gnuplot is installed, pinned_bench.png; elsewhere draw the plot from
#           the .dat file later with bench/pinned_plot.sh (it builds and installs nothing).
# The device: the first one CLMEM_TEST selects (e.g. CLMEM_TEST=nvidia).
# Then (unless SWEEP=0) a sweep of stager shapes at 64 MiB, both directions, into
# OUTDIR/pinned_sweep.txt: slot size x slots x threads against raw pageable, to choose
# the defaults (CLMEM_STAGER_DEFAULT_*).
# Where the NVIDIA driver is installed without its ICD file (the GPU machine), the
# script makes an ICD folder with nvidia.icd (and PoCL's, when present) and points
# OCL_ICD_VENDORS at it. A libOpenCL.so.1 next to BIN is used when the system has none.
set -eu
[ $# -ge 2 ] || { sed -n '2,14p' "$0"; exit 2; }
bin=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

if [ -z "${OCL_ICD_VENDORS:-}" ] && [ ! -e /etc/OpenCL/vendors/nvidia.icd ] &&
    { ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl.so.1'; }; then
    icd=$(mktemp -d "${TMPDIR:-/tmp}/pinned_icd.XXXXXX")
    echo libnvidia-opencl.so.1 > "$icd/nvidia.icd"
    [ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$icd/"
    OCL_ICD_VENDORS=$icd
    export OCL_ICD_VENDORS
    echo "pinned_bench.sh: OCL_ICD_VENDORS=$icd (nvidia.icd made)"
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL.so.1' && [ -e "$(dirname "$bin")/libOpenCL.so.1" ]; then
    LD_LIBRARY_PATH=$(cd "$(dirname "$bin")" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
fi

"$bin" --data "$out/pinned_bench.dat" "$@" | tee "$out/pinned_bench.txt"

if [ "${SWEEP:-1}" != 0 ]; then
    {
        echo "stager shapes at 64 MiB (medians, GB/s; stg/pag = staged / raw pageable)"
        for slot in 1M 4M 16M; do
            for slots in 2 3; do
                for threads in 2 4 8; do
                    "$bin" --min 64M --max 64M --slot $slot --slots $slots --threads $threads --time 0.3 |
                        awk -v c="slot $slot slots $slots threads $threads" \
                            '/^64 MiB/ { printf "%-32s %-5s pageable %7s  staged %7s  stg/pag %s\n", c, $3, $4, $7, $10 }'
                done
            done
        done
    } | tee "$out/pinned_sweep.txt"
fi

if command -v gnuplot > /dev/null 2>&1; then
    sh "$here/pinned_plot.sh" "$out/pinned_bench.dat" "$out/pinned_bench.png"
else
    echo "pinned_bench.sh: no gnuplot here; draw the plot where it is installed:"
    echo "    sh bench/pinned_plot.sh $out/pinned_bench.dat pinned_bench.png"
fi
