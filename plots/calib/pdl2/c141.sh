#!/bin/bash
# A/B: v7's own pick (q) against V7_TILE=ALT (p: the pick with the stream-K phase 8% dearer) on the shapes
# of seeds 20261900-20262090 whose plan that changes (sk_ab2_{h100,h200}.txt, per GPU's model), no cuBLAS,
# alternating, 3 rounds; then the aligned sweep (c90.sh) with SEED. usage: REV=.. SEED=.. bash c141.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} all build/tools/shapes > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_sk_ab2.txt
for round in 1 2 3; do while read -r M N K A; do
  [ $(( $(date +%s) - T0 )) -gt ${ABLIMIT:-300} ] && break
  for b in q p; do
    if [ $b = q ]; then x=$(V7_PLAN=1 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1)
    else x=$(V7_TILE=$A V7_PLAN=1 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1); fi
    echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*.*' | sed 's/pairs share.*on \([0-9]*\) clusters, \([0-9]*\) stream-K.*whole/\1 cl \2 sk/')" >> $f
  done
done < scratch/run/sk_ab2_${g}.txt; done
echo "ab $(( $(date +%s) - T0 )) s"
[ -n "${SEED:-}" ] && REV=$REV SEED=$SEED FROM=1 TO=40 DEADLINE=$(( 545 - ($(date +%s) - T0) )) bash scratch/run/c90.sh > /tmp/sweep.log 2>&1
tail -1 /tmp/sweep.log
echo "all $(( $(date +%s) - T0 )) s"
