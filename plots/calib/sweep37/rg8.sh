#!/bin/bash
# rg7.sh (sweeps, bench, awkward), then short-K shapes: own pick (odd width) against V7_TILE=128x256, 2 rounds.
set -u
T0=$(date +%s)
bash scratch/run/rg7.sh
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
f=$OUT/${g}_sk64_ab.txt
for r in 1 2; do
  while read -r M N K P; do
    [ $(( $(date +%s) - T0 )) -gt 560 ] && break
    for b in new old; do
      if [ $b = new ]; then x=$(V7_PLAN=1 timeout 30 ./v7 $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
      else x=$(V7_PLAN=1 V7_TILE=$P timeout 30 ./v7 $M $N $K --check none --baseline none --reps 20 --energy off 2>&1); fi
      echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-70)" >> $f
    done
  done < scratch/run/sk64.txt
done
echo "sk64 $(( $(date +%s) - T0 )) s"
