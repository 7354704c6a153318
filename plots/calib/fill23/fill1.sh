#!/bin/bash
# Clusters of 8 (128-row tiles) on 2/3 of the SMs, not 4/5: own pick against V7_TILE= the old pick, one build, 2 rounds; checks of new picks.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
L=scratch/run/fill_${g}.txt
c=$OUT/${g}_checks.txt
head -${NCHK:-10} $L | while read -r M N K P; do
  x=$(V7_PLAN=1 timeout 60 ./v7 $M $N $K --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$M $N $K rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-110 | tr '\n' ' ')" >> $c
done
echo "checks $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
for r in 1 2; do
  while read -r M N K P; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-400} ] && break
    for b in new old; do
      if [ $b = new ]; then x=$(V7_PLAN=1 timeout 30 ./v7 $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
      else x=$(V7_PLAN=1 V7_TILE=$P timeout 30 ./v7 $M $N $K --check none --baseline none --reps 20 --energy off 2>&1); fi
      echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-70)" >> $f
    done
  done < $L
  echo "round $r $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
