#!/bin/sh
# bench/peer_gpu.sh - peer memory, external memory and free memory on a host with NVIDIA
# GPUs, in one command, from binaries built elsewhere (same x86-64):
#
#   sh bench/peer_gpu.sh build     on the build machine: build/peer/ (the tests, the bench,
#                                  a fake libcuda for test_vendor_fake, libOpenCL.so.1); carry it
#   sh bench/peer_gpu.sh [run]     on the GPU host: everything under $OUT (default ./peer-out):
#     gpus.txt        nvidia-smi and its topology
#     memory.txt      clmem_device_memory_info against nvidia-smi, idle and while a child holds 40 GiB
#     peer_bench.txt  peer buffers in a loop, made each time against a peer pool's (64 MiB);
#                     clmem's peer device-link copies against cuMemcpy, every ordered pair,
#                     64 and 256 MiB, and rings of 2 and 4 copies at once (each part a process)
#     tests.txt       the tests of this work on nvidia:0, and on GPUs 0+1 (and all GPUs) in one context
#     probe.txt       imports NVIDIA's driver survives: each configuration in its own process
#                     (a segmentation fault reads "exit 139"; each one's last line after it)
#     summary.txt     one line per part
# The OpenCL driver is made visible by bench/device_env.sh. Every part has a time limit,
# and the whole run stops starting parts after PEER_GPU_BUDGET seconds (default 540; a
# part skipped for time says so in summary.txt); it takes about 3-5 minutes.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/build/peer"
tests="peer peer_pool pool_keep_free external device_memory vendor_absent vendor_fake loader device_link usm_absent transfer_copy"

if [ "${1:-run}" = build ]; then
    set -e
    mkdir -p "$dir"
    flags="-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I$root -I$root/tests"
    for t in $tests; do
        extra=""
        [ "$t" = vendor_fake ] && extra='-DCLMEM_LIBCUDA=\"libclmem_fake_cuda.so\" -DCLMEM_LIBNVML=\"libclmem_fake_cuda.so\" -Wl,-rpath,\$ORIGIN'
        eval cc $flags $extra "$root/tests/$t.c" -o "$dir/test_$t" -lOpenCL -lm -ldl -lpthread
    done
    cc -std=c11 -O2 -shared -fPIC "$root/tests/fake_cuda/fake_cuda.c" -o "$dir/libclmem_fake_cuda.so"
    cc $flags "$root/bench/peer_bench.c" -o "$dir/peer_bench" -lOpenCL -ldl
    # the same bench with no import limit, for the probe of what the driver survives
    cc $flags "-DCLMEM_PEER_IMPORT_LIMIT=((cl_ulong)1 << 40)" "-DCLMEM_PEER_BUFFER_MAX=((size_t)1 << 40)" "$root/bench/peer_bench.c" -o "$dir/peer_probe" -lOpenCL -ldl
    cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$dir/libOpenCL.so.1" 2>/dev/null || true
    ls -la "$dir"
    exit 0
fi

[ -x "$dir/peer_bench" ] || { echo "peer_gpu.sh: no $dir/peer_bench: run 'sh bench/peer_gpu.sh build' on the build machine and carry build/peer"; exit 1; }
OUT=${OUT:-$root/peer-out}
mkdir -p "$OUT"
. "$root/bench/device_env.sh"
summary="$OUT/summary.txt"
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }
start=$(date +%s)
budget=${PEER_GPU_BUDGET:-540}
limit() { # limit SECONDS: the part's limit, cut to what is left of the budget (0: no time left)
    left=$((budget - ($(date +%s) - start)))
    [ "$left" -lt 15 ] && { echo 0; return; }
    [ "$1" -lt "$left" ] && echo "$1" || echo "$left"
}

{ nvidia-smi; nvidia-smi topo -m; } > "$OUT/gpus.txt" 2>&1
G=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
note "GPUs: $G ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1))"

# 1. the bench: the pool loop, pairs and rings at 64 and 256 MiB (CLMEM_PEER_BUFFER_MAX), each part in a
#    process of its own (a crash loses that part only)
: > "$OUT/peer_bench.txt"
parts="pool:64 pairs:64 pairs:256"
[ "$G" -ge 2 ] && parts="$parts ring2:64 ring2:256"
[ "$G" -ge 4 ] && parts="$parts ring4:64 ring4:256"
for part in $parts; do
    what=${part%%:*} size=${part#*:}
    case $what in pairs) args="pairs $size" ;; pool) args="pool $size" ;; *) args="ring ${what#ring} $size" ;; esac
    l=$(limit 60)
    [ "$l" = 0 ] && { note "peer_bench $args: not run: out of time"; continue; }
    echo "---- peer_bench $args" >> "$OUT/peer_bench.txt"
    timeout "$l" "$dir/peer_bench" $args >> "$OUT/peer_bench.txt" 2>&1
    note "peer_bench $args: exit $? ($(tail -n 1 "$OUT/peer_bench.txt"))"
done

# 2. the tests, on one GPU and on GPUs together
specs="nvidia:0"
[ "$G" -ge 2 ] && specs="$specs nvidia:0+1"
[ "$G" -ge 4 ] && specs="$specs nvidia:0+1+2+3"
: > "$OUT/tests.txt"
for spec in $specs; do
    pass=0 skip=0 fail=0 failed=""
    for t in $tests; do
        l=$(limit 60)
        [ "$l" = 0 ] && { note "tests on $spec: test_$t and later not run: out of time"; break; }
        out=$(CLMEM_TEST="$spec" timeout "$l" "$dir/test_$t" 2>&1)
        r=$?
        { echo "---- $spec test_$t: exit $r"; echo "$out"; } >> "$OUT/tests.txt"
        case $r in
            0) pass=$((pass + 1)) ;;
            77) skip=$((skip + 1)) ;;
            *) fail=$((fail + 1)); failed="$failed $t" ;;
        esac
    done
    note "tests on $spec: $pass passed, $skip skipped, $fail failed${failed:+ ($failed )}"
done

# 3. what NVIDIA's driver survives: BUFFERS peer buffers of SIZE MiB (one per GPU in turn),
#    each imported for VIEWS devices, in a process of its own (exit 139: it crashed)
{
    echo "size_MiB buffers views imports total_MiB exit"
    for size in ${PEER_PROBE_SIZES:-256 320 384 448 512}; do
        for cfg in "1 1" "$G $G"; do
            set -- $cfg
            l=$(limit 40)
            [ "$l" = 0 ] && { echo "$size $1 $2 - - not run: out of time"; continue; }
            log=$(timeout "$l" "$dir/peer_probe" probe "$size" "$1" "$2" 2>&1)
            r=$?
            echo "$size $1 $2 $(($1 * $2)) $(($1 * $2 * size)) $r  $(echo "$log" | tail -n 1)"
        done
    done
} > "$OUT/probe.txt" 2>&1
note "probe: $(awk 'NR > 1 && $6 != 0 && $6 != "-" { n++ } END { print n + 0 }' "$OUT/probe.txt") of $(($(wc -l < "$OUT/probe.txt") - 1)) configurations failed (probe.txt; exit 139: the driver crashed)"

# 4. free memory (last; the child holding 40 GiB is peer_bench itself, in 'hog' mode)
l=$(limit 120)
if [ "$l" = 0 ]; then note "memory: not run: out of time"; else
    timeout "$l" "$dir/peer_bench" memory 40 > "$OUT/memory.txt" 2>&1
    note "memory: exit $? (0: every GPU within 64 MiB of nvidia-smi, idle and with 40 GiB held; 124: out of time)"
fi
