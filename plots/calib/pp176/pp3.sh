#!/bin/bash
# bench shapes: v7's pick and 128x176 in ping-pong, each against cuBLASLt's best interleaved in one process; 2 rounds, order alternating.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
B=./v7
f=$OUT/${g}_bench_pp.txt
for r in 1 2; do
  vs="auto 128x176:pp"; [ $r = 2 ] && vs="128x176:pp auto"
  for s in "4096 14336 4096" "8192 8192 8192" "4096 4096 4096" ${EXTRA:-}; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-400} ] && break
    for v in $vs; do
      t=$v; [ $v = auto ] && t=
      x=$(V7_PLAN=1 V7_TILE=$t timeout 60 $B $s --check none --baseline best --reps 30 --energy off 2>&1)
      echo "$s | $v | $(echo "$x" | grep -E '^ratio|^clock|^time' | awk '{$1=$1};1' | tr '\n' ' ')" >> $f
    done
  done
  echo "round $r $(( $(date +%s) - T0 )) s"
done
