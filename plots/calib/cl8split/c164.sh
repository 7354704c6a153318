#!/bin/bash
# Clusters of 8 split-K (branch cl8split): (1) --check both of v7's own pick on each shape of
# ab14_<gpu>.txt; (2) A/B: own pick (q: the branch's model) against V7_TILE=OLD (p: main's pick),
# alternating, rounds until DEADLINE; (3) TG=1: make test-gpu STEPS=v7_stream_k.
set -u
T0=$(date +%s); START=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
S=scratch/run/ab14_$g.txt
n=0; while read -r M N K A; do n=$((n+1)); [ $n -gt 30 ] && break
  x=$(V7_PLAN=1 ./v7 $M $N $K --check both --reps 0 --energy off 2>&1); echo "$M $N $K rc=$? $(echo "$x" | grep -iE 'check|fail|mismatch' | tr '\n' ' ')" >> $OUT/${g}_checks.txt
done < $S
echo "checks $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
for round in 1 2 3; do while read -r M N K A; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-540} ] && break
  for b in q p; do
    if [ $b = q ]; then x=$(V7_PLAN=1 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1)
    else x=$(V7_TILE=$A V7_PLAN=1 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1); fi
    echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*.*' | sed 's/pairs share.*on \([0-9]*\) clusters, \([0-9]*\) stream-K.*whole/\1 cl \2 sk/')" >> $f
  done
done < $S; echo "round $round $(( $(date +%s) - T0 )) s"; done
if [ "${TG:-0}" = 1 ]; then
  make -j16 test-gpu STEPS=v7_stream_k GIT_REV=$REV > /tmp/tg.log 2>&1; grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu_v7.txt
  grep -E -A3 "^FAIL" /tmp/tg.log | head -40 >> $OUT/${g}_test_gpu_v7.txt
  echo "test $(( $(date +%s) - T0 )) s"
fi
echo "all $(( $(date +%s) - T0 )) s"
