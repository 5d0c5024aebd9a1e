#!/bin/sh
# bench/pool_count.sh - instructions per allocate + release pair of a held block, for the
# buffer, SVM and pinned pools, and glibc's malloc(4096) + free beside them, under
# callgrind (the calling thread; stable where wall time is not). The least of 3 runs of
# 10000 pairs each, counted in pool_bench's loop_KIND_pairs (the loop pool_bench times).
# usage: sh bench/pool_count.sh [path/to/pool_bench]
#   build it first: cc -std=c11 -O2 -I. bench/pool_bench.c -o build/pool_bench -lOpenCL -lpthread
set -eu
bin=${1:-./build/pool_bench}
n=10000
for kind in buffer svm pinned malloc; do
    best=""
    for _ in 1 2 3; do
        out=$(mktemp)
        if ! valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="loop_${kind}_pairs" "$bin" loop "$kind" $n \
            > /dev/null 2>&1; then
            rm -f "$out"
            best="(failed)"
            break
        fi
        total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
        rm -f "$out"
        per=$(((total + n / 2) / n))
        if [ -z "$best" ] || [ "$per" -lt "$best" ]; then best=$per; fi
    done
    case $kind in malloc) what="malloc + free" ;; *) what="$kind pool" ;; esac
    echo "$what: $best instructions per pair"
done
