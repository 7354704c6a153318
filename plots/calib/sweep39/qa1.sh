#!/bin/bash
# Split-K at depth: own pick (128 x 64 data-parallel) against V7_TILE= a split candidate; --check both on each forced plan first; 3 rounds.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
S=scratch/run/qa_list.txt
while read -r M N K P; do
  x=$(V7_TILE=$P timeout 30 ./v7 $M $N $K --check both --reps 0 --energy off 2>&1); echo "$M $N $K $P rc=$? $(echo "$x" | grep -iE '^check|error|fail|v7 plan' | cut -c1-150 | tr '\n' ' ')" >> $OUT/${g}_checks.txt
done < $S
echo "checks $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
for round in 1 2 3; do while read -r M N K P; do
  [ $(( $(date +%s) - T0 )) -gt ${LIM:-400} ] && break
  for b in new old; do
    if [ $b = new ]; then x=$(V7_PLAN=1 timeout 30 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1)
    else x=$(V7_PLAN=1 V7_TILE=$P timeout 30 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1); fi
    echo "$M $N $K $P | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-70)" >> $f
  done
done < $S; echo "round $round $(( $(date +%s) - T0 )) s"; done
echo "all $(( $(date +%s) - T0 )) s"
