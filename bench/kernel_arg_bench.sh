#!/bin/sh
# kernel_arg_bench.sh BINARY - instructions per clmem_set_kernel_arg call against raw
# clSetKernelArg (callgrind; stable where wall time is not), for a kernel built with
# -cl-kernel-arg-info (checked) and without (not available). BINARY is a build of
# bench/kernel_arg_bench.c (-O2 -g); nothing is built here. Needs valgrind.
set -eu
bin=$1
out=$(mktemp -d "${TMPDIR:-/tmp}/kab.XXXXXX")
trap 'rm -rf "$out"' EXIT
printf '%-12s %-18s %10s %10s %7s\n' mode argument raw_Ir clmem_Ir ratio
for mode in checked unchecked; do
    for pair in "buffer raw_buffer clmem_buffer_arg" "float raw_float clmem_float" "local raw_local clmem_local"; do
        set -- $pair
        for f in "$2" "$3"; do
            valgrind --tool=callgrind --callgrind-out-file="$out/$f" --toggle-collect="$f" "$bin" "$mode" 20000 > /dev/null 2>&1
        done
        raw=$(callgrind_annotate "$out/$2" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
        ours=$(callgrind_annotate "$out/$3" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
        awk -v m="$mode" -v a="$1" -v r="$raw" -v o="$ours" \
            'BEGIN { printf "%-12s %-18s %10.0f %10.0f %7.2f\n", m, a, r / 20000, o / 20000, o / r }'
    done
done
