#!/bin/sh
# bench/copy_bench.sh - instructions per 4-KiB blocking write and read under callgrind,
# clmem_enqueue_copy against the raw call, then the throughput table.
# usage: bench/copy_bench.sh [path/to/copy_bench]   (built with -O2, see copy_bench.c)
set -eu
bin=${1:-./build/copy_bench}
n=2000
count() { # count MODE FUNCTION: instructions inside FUNCTION per call, the least of 3 runs
    # (PoCL's worker threads make the calling thread spin a varying number of times while
    # it waits; the least count is the call's own cost)
    best=""
    for _ in 1 2 3; do
        valgrind --tool=callgrind --callgrind-out-file=/tmp/copy_bench.cg.$$ --toggle-collect="$2" "$bin" loop "$1" $n \
            > /dev/null 2>&1
        total=$(callgrind_annotate /tmp/copy_bench.cg.$$ 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
        rm -f /tmp/copy_bench.cg.$$
        per=$((total / n))
        if [ -z "$best" ] || [ "$per" -lt "$best" ]; then best=$per; fi
    done
    echo "$best"
}
rw=$(count raw-write loop_raw_write); cw=$(count clmem-write loop_clmem_write)
rr=$(count raw-read loop_raw_read); cr=$(count clmem-read loop_clmem_read)
echo "instructions per blocking 4-KiB call (calling thread, callgrind, $n calls):"
printf "  write: raw %s, clmem %s, ratio %s\n" "$rw" "$cw" "$(awk "BEGIN{printf \"%.4f\", $cw/$rw}")"
printf "  read:  raw %s, clmem %s, ratio %s\n" "$rr" "$cr" "$(awk "BEGIN{printf \"%.4f\", $cr/$rr}")"
echo "goal: <= 1.02"
"$bin"
