#!/bin/bash
# Where a small staged call's time goes: v7 at shapes that stage A and B, C, both or nothing, against
# cuBLAS's best, 3 rounds; then ncu's kernel durations of one v7 call at 79 x 156 x 306. usage: REV=.. bash c136.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_staged_small.txt
for round in 1 2 3; do for s in "79 156 306" "80 160 312" "80 156 312" "80 160 306" "80 156 306" "264 464 1000" "264 464 1001" "264 462 1000"; do
  x=$(V7_PLAN=1 ./v7 $s --check none --baseline best --reps 30 --energy off 2>&1)
  echo "$s | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^time +cuBLAS/{cb=$NF; cb=$4} /^ratio/{q=$2} /^clock/{c=$3} END{print t, cb, q, c}') | $(echo "$x" | grep -i -o 'stag[^.]*' | head -2 | tr '\n' ';')" >> $f
done; done
echo "$x" > $OUT/${g}_last_output.txt
for s in "79 156 306" "80 160 312"; do
  echo "== $s"; timeout 100 ncu --metrics gpu__time_duration.sum ./v7 $s --check random --baseline none --reps 0 --energy off 2>/dev/null | grep -E "^  [a-zA-Z_]|gpu__time" | cut -c1-150
done > $OUT/${g}_ncu_staged.txt
echo "all $(( $(date +%s) - T0 )) s"
