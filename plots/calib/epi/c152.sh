#!/bin/bash
# make bench-awkward's shapes (v6, v7) into $OUT/<gpu>_awkward.csv
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v6 v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
STEPS="v6_cluster v7_stream_k" SHAPES="$(make -s -p -n 2>/dev/null | sed -n "s/^AWKWARD_SHAPES := //p")" bash plots/bench.sh $OUT/${g}_awkward.csv > $OUT/${g}_awkward.log 2>&1
echo "all $(( $(date +%s) - T0 )) s"
