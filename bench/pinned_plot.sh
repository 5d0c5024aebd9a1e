#!/bin/sh
# bench/pinned_plot.sh - bandwidth-vs-size plot (PNG) from pinned_bench's data file.
#
# usage: bench/pinned_plot.sh [--link LINKDATA] [--pageable PAGEDATA] DATA PNG [TITLE]
#   DATA   the file `pinned_bench --data DATA` wrote (bench/pinned_bench.sh writes
#          OUTDIR/pinned_bench.dat); its first line names the device.
#   PNG    the picture to write: two panels, host -> device and device -> host, GB/s
#          against transfer size (log scale), one curve per kind (raw pageable, raw
#          pinned, clmem pinned, clmem staged).
#   LINKDATA  the file `multidev_bench --data LINKDATA` wrote: a third panel, device
#          -> device, with the driver's copy, one device-link copy, streamed link
#          copies and pinned host -> device 1 (the bound) against size.
#   PAGEDATA  the merged file bench/pageable_gpu.sh writes (OUT/pageable_plot.dat):
#          three more curves in the two host panels: the host's copy ceiling, clmem
#          registered host memory and CUDA's pageable copy (PyTorch) of the same size.
#   TITLE  default: the device line of DATA.
# Needs gnuplot (Debian: apt-get install gnuplot-nox).
set -eu
link=
page=
while :; do
    case "${1:-}" in
        --link) link=$2; shift 2 ;;
        --pageable) page=$2; shift 2 ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || { sed -n '2,18p' "$0"; exit 2; }
data=$1
png=$2
command -v gnuplot > /dev/null 2>&1 || { echo "pinned_plot.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 1; }
title=${3:-$(sed -n '1s/^# pinned_bench: //p' "$data" | sed 's/"/\\"/g')}
gnuplot <<GP
set terminal pngcairo size $([ -n "$link" ] && echo 2000 || echo 1400),560 font "sans,11" noenhanced
set output "$png"
set multiplot layout 1,$([ -n "$link" ] && echo 3 || echo 2) title "$title"
set logscale x 2
set xtics ("4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, \\
           "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set xlabel "transfer size (log scale)"
set ylabel "GB/s (1e9 bytes/s, median)"
set grid
set key top left
set yrange [0:*]
set offsets graph 0.02, graph 0.02, 0, 0
set title "host -> device (write)"
plot "$data" using 1:2 with linespoints lw 2 pt 7 title "raw pageable", \
     "" using 1:3 with linespoints lw 2 pt 5 title "raw pinned", \
     "" using 1:4 with linespoints lw 2 pt 4 dt 2 title "clmem pinned", \
     "" using 1:5 with linespoints lw 2 pt 9 title "clmem staged"$([ -n "$page" ] && cat <<PAGE
, \\
     "$page" using 1:2 with lines lw 2 dt 3 lc rgb "gray40" title "host copy ceiling (memcpy into pinned slots)", \\
     "" using 1:3 with linespoints lw 2 pt 13 lc rgb "dark-green" title "clmem registered host memory", \\
     "" using 1:(\$4 > 0 ? \$4 : 1/0) with linespoints lw 2 pt 3 lc rgb "black" title "CUDA pageable (PyTorch)"
PAGE
)
set title "device -> host (read)"
plot "$data" using 1:6 with linespoints lw 2 pt 7 title "raw pageable", \
     "" using 1:7 with linespoints lw 2 pt 5 title "raw pinned", \
     "" using 1:8 with linespoints lw 2 pt 4 dt 2 title "clmem pinned", \
     "" using 1:9 with linespoints lw 2 pt 9 title "clmem staged"$([ -n "$page" ] && cat <<PAGE
, \\
     "$page" using 1:5 with lines lw 2 dt 3 lc rgb "gray40" title "host copy ceiling (memcpy out of pinned slots)", \\
     "" using 1:6 with linespoints lw 2 pt 13 lc rgb "dark-green" title "clmem registered host memory", \\
     "" using 1:(\$7 > 0 ? \$7 : 1/0) with linespoints lw 2 pt 3 lc rgb "black" title "CUDA pageable (PyTorch)"
PAGE
)
$([ -n "$link" ] && cat <<LINK
set title "device 0 -> device 1 (one context)"
plot "$link" using 1:2 with linespoints lw 2 pt 7 title "driver copy (clEnqueueCopyBuffer)", \\
     "" using 1:4 with linespoints lw 2 pt 9 title "clmem device link, one copy", \\
     "" using 1:5 with linespoints lw 2 pt 4 dt 2 title "clmem device link, streamed", \\
     "" using 1:6 with linespoints lw 2 pt 5 title "pinned host -> device 1 (bound)"
LINK
)
unset multiplot
GP
echo "pinned_plot.sh: wrote $png"
