#!/bin/bash
# v7 (q: its own pick) against V7_TILE=ALT (p: the pick with stream-K 8% dearer) (V7_TILE), alternating, 3 rounds.
# lines of $SHAPES: M N K ALT. usage: REV=.. SHAPES=q_ab.txt bash scratch/run/c135.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_sk_ab.txt
for round in 1 2 3; do while read -r M N K A; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-540} ] && break
  for b in q p; do
    if [ $b = q ]; then x=$(V7_PLAN=1 ./v7 $M $N $K --check none --baseline default --reps 30 --energy off 2>&1)
    else x=$(V7_TILE=$A V7_PLAN=1 ./v7 $M $N $K --check none --baseline default --reps 30 --energy off 2>&1); fi
    echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^time +cuBLAS \(default\)/{cb=$4} /^ratio/{q=$2} /^clock/{c=$3} END{print t, cb, q, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*.*' | sed 's/pairs share.*on \([0-9]*\) clusters, \([0-9]*\) stream-K.*whole/\1 cl \2 sk/')" >> $f
  done
done < scratch/run/${SHAPES:?}; done
echo "all $(( $(date +%s) - T0 )) s"
