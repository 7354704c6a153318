#!/bin/bash
# the wgmma microbenchmark (scratch/wgb), then the aligned sweep of SEED + bench, the any-size sweep of SEED2 (20) and the awkward set.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -o /tmp/wgbench scratch/wgb/wgbench.cu > $OUT/${g}_wgbench.txt 2>&1 && timeout 60 /tmp/wgbench >> $OUT/${g}_wgbench.txt 2>&1
echo "wgbench $(( $(date +%s) - T0 )) s"
REV=${REV:?} SEED=${SEED:?} DEADLINE=${D1:-300} bash scratch/run/c145.sh
echo "aligned $(( $(date +%s) - T0 )) s"
REV=$REV SEED=${SEED2:?} SET=any FROM=1 TO=20 AWK=1 DEADLINE=$(( ${D2:-450} - ($(date +%s) - T0) )) bash scratch/run/c90.sh > $OUT/any.log 2>&1; tail -4 $OUT/any.log
cat $OUT/awkward.log >> $OUT/any.log; rm -f $OUT/awkward.log $OUT/gpu.txt
echo "all $(( $(date +%s) - T0 )) s"
