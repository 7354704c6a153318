#!/bin/bash
# v7 with the group width from V7_W (scratch/run/h_env.cu), widths VARS, alternating per shape, 3 rounds
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
cp scratch/run/h_env.cu v7_stream_k/hopper.cu
make -j16 GIT_REV=${REV:?}w v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_order.txt
for round in 1 2 3; do while read -r s; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-540} ] && break
  for w in ${VARS:-0 1 2 4}; do
    x=$(V7_W=$w V7_PLAN=1 ./v7 $s --check none --baseline default --reps 30 --energy off 2>&1)
    echo "$s | w$w | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^time +cuBLAS \(default\)/{cb=$4} /^ratio/{q=$2} /^clock/{c=$3} END{print t, cb, q, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*.*' | sed 's/pairs share.*on \([0-9]*\) clusters, \([0-9]*\) stream-K.*whole/\1 cl \2 sk/')" >> $f
  done
done < scratch/run/${SHAPES:-ord_shapes.txt}; done
echo "all $(( $(date +%s) - T0 )) s"
