#!/bin/bash
# The random sweep (c90.sh) over SEED's 40 shapes of SET, then 4096^3, 4096 x 14336 x 4096 and 8192^3
# against both cuBLAS baselines (v7, 30 reps, after the sweep). usage (device): REV=.. SEED=.. [SET=aligned] bash c145.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
REV=${REV:?} SEED=${SEED:?} SET=${SET:-aligned} FROM=1 TO=40 DEADLINE=${DEADLINE:-420} bash scratch/run/c90.sh > $OUT/${g}_sweep.log 2>&1
mv $OUT/random_rows_1.csv $OUT/${g}_random_${SET:-aligned}_${SEED}.csv; mv $OUT/gpu.txt $OUT/${g}_gpu.txt
tail -2 $OUT/${g}_sweep.log
for s in "4096 4096 4096" "4096 14336 4096" "8192 8192 8192"; do
  ./v7 $s --check none --reps 30 --warmup 10 --energy off 2>&1 | grep -E "^time|^ratio|^clock|^v7 plan" | sed "s/^/$s: /" >> $OUT/${g}_bench.txt
done
echo "all $(( $(date +%s) - T0 )) s"
