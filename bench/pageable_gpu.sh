#!/bin/sh
# bench/pageable_gpu.sh - pageable host memory on a GPU machine, in one run (issue 33): the
# tests of registered memory, CUDA's pageable copy (PyTorch, the anchor), bench/pageable_bench
# (the host's copy ceiling, the DMA alone and both at once, the stager, registered host
# memory, raw pageable and pinned), a sweep of stager shapes, bench/pinned_bench, and the
# plot (docs/pinned_bench.png with the ceiling, registered and CUDA pageable lines).
#
# usage: bench/pageable_gpu.sh DIR [STEP ...]
#   DIR    the binaries bench/pageable_build.sh made (build/pageable), built elsewhere
#   STEP   any of: tests cuda main sweep pinned link plot (default: all, in that order;
#          split them over two runs when one is too long, keeping $OUT's files between)
# Everything goes under $OUT (default ./out): *.txt tables, *.dat figures, pinned_bench.png
# (when gnuplot is installed; otherwise the command to draw it elsewhere is printed).
# Environment: SPEC (CLMEM_TEST of the device, default nvidia:0), LINK_SPEC (two devices
# for the device-link panel, default nvidia:0+1; the step is skipped with one device),
# MAX (largest size, default 1G), ROUNDS (default 5), SHAPES (the stager shapes of the
# sweep: "SLOT:SLOTS:THREADS[:h]" words, h = huge pages for the pageable memory).
# The OpenCL driver is made visible by bench/device_env.sh (nvidia.icd, pocl.icd).
set -u
dir=$(cd "${1:?usage: bench/pageable_gpu.sh DIR [STEP ...]}" && pwd)
shift
steps=${*:-tests cuda main sweep pinned link plot}
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-./out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
spec=${SPEC:-nvidia:0}
link_spec=${LINK_SPEC:-nvidia:0+1}
max=${MAX:-1G}
rounds=${ROUNDS:-5}
shapes=${SHAPES:-"16M:2:8 16M:2:16 16M:4:16 16M:4:32 8M:4:16 8M:8:16 32M:2:16 32M:4:16 4M:8:16 4M:16:32 16M:4:16:h 32M:4:32:h"}
. "$here/device_env.sh"
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
{
    echo "== $(date -u) $(uname -n); OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-} SPEC=$spec"
    command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
    echo "CPUs: $(nproc); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null)"
    command -v lscpu > /dev/null && lscpu | grep -i -E "numa node|socket" | head -n 4
    echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
} | tee "$OUT/host.txt"

if has tests; then
    for t in registered_host pinned_stager; do
        echo "== test_$t ($spec)"
        CLMEM_TEST="$spec" timeout 300 "$dir/test_$t"
        echo "-- test_$t: exit $?"
    done 2>&1 | tee "$OUT/tests.txt"
fi
if has cuda; then
    echo "== CUDA anchor (PyTorch)"
    timeout 300 python3 "$here/pageable_cuda.py" --min 64K --max "$max" --rounds "$rounds" --data "$OUT/cuda.dat" 2>&1 |
        tee "$OUT/cuda.txt"
fi
if has main; then
    echo "== pageable_bench ($spec, default stager)"
    CLMEM_TEST="$spec" timeout 420 "$dir/pageable_bench" --min 64K --max "$max" --rounds "$rounds" \
        --data "$OUT/pageable.dat" 2>&1 | tee "$OUT/pageable.txt"
fi
if has sweep; then
    echo "== stager shapes (staged only; pageable memory in base pages unless :h)"
    for s in $shapes; do
        IFS=: read -r slot slots threads huge <<SHAPE
$s
SHAPE
        echo "-- shape $s"
        CLMEM_BENCH_SLOT=$slot CLMEM_BENCH_SLOTS=$slots CLMEM_BENCH_THREADS=$threads \
            CLMEM_BENCH_HUGEPAGES=$([ "${huge:-}" = h ] && echo 1 || echo 0) CLMEM_TEST="$spec" \
            timeout 120 "$dir/pageable_bench" --only staged --min 16M --max "$max" --rounds "$rounds" 2>&1 |
            awk -v s="$s" '/ (write|read) / { printf "%-14s %s\n", s, $0 }'
    done 2>&1 | tee "$OUT/stager_shapes.txt"
fi
if has pinned; then
    echo "== pinned_bench ($spec; the plot's first four curves)"
    CLMEM_TEST="$spec" timeout 300 "$dir/pinned_bench" --data "$OUT/pinned.dat" --max 268435456 2>&1 |
        tee "$OUT/pinned.txt"
fi
if has link && [ -x "$dir/multidev_bench" ]; then
    echo "== multidev_bench ($link_spec; the plot's device panel)"
    CLMEM_TEST="$link_spec" CLMEM_BENCH_LINK_ONLY=1 timeout 300 "$dir/multidev_bench" --data "$OUT/link.dat" \
        64K 256K 1 4 16 64 256 2>&1 | tee "$OUT/link.txt"
    grep -q '^[0-9]' "$OUT/link.dat" 2>/dev/null || rm -f "$OUT/link.dat"
fi
if has plot; then
    # the plot's extra curves: ceiling and registered from pageable.dat, CUDA pageable from
    # cuda.dat (0: not measured); columns 8 and 9: raw pinned, for the summary
    if [ -f "$OUT/pageable.dat" ]; then
        cuda=$OUT/cuda.dat
        [ -f "$cuda" ] || cuda=/dev/null
        awk 'NR == FNR { if ($1 !~ /^#/) { h[$1] = $2; d[$1] = $5 } next }
             $1 !~ /^#/ { ch = 0; cd = 0; if ($1 in h) { ch = h[$1]; cd = d[$1] }
                          print $1, $4, $6, ch, $9, $11, cd, $3, $8 }' \
            "$cuda" "$OUT/pageable.dat" > "$OUT/pageable_plot.dat"
        {
            echo "== registered host memory against raw pinned (goal >= 0.9 from 16 MiB) and CUDA's pageable copy (goal >= 4)"
            printf "%-12s %-5s %10s %10s %10s %8s %8s\n" bytes dir registered pinned cuda_pag reg/pin reg/cuda
            awk '{ for (d = 0; d < 2; ++d) { r = d ? $6 : $3; c = d ? $7 : $4; p = d ? $9 : $8;
                     printf "%-12s %-5s %10.2f %10.2f %10.2f %8s %8s\n", $1, d ? "read" : "write", r, p, c,
                            (p > 0 ? sprintf("%.2f", r / p) : "-"), (c > 0 ? sprintf("%.2f", r / c) : "-") } }' \
                "$OUT/pageable_plot.dat"
        } | tee "$OUT/summary.txt"
        [ -f "$OUT/pinned.dat" ] || echo "(no pinned.dat: run the pinned step for the plot)"
        if [ -f "$OUT/pinned.dat" ]; then
            if command -v gnuplot > /dev/null 2>&1; then
                sh "$here/pinned_plot.sh" $([ -f "$OUT/link.dat" ] && echo "--link $OUT/link.dat") \
                    --pageable "$OUT/pageable_plot.dat" "$OUT/pinned.dat" "$OUT/pinned_bench.png"
            else
                echo "no gnuplot here; draw the plot where it is installed (from the repository root):"
                echo "    sh bench/pinned_plot.sh $([ -f "$OUT/link.dat" ] && echo "--link OUT/link.dat ")--pageable OUT/pageable_plot.dat OUT/pinned.dat docs/pinned_bench.png"
            fi
        fi
    fi
fi
exit 0
