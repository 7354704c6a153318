#!/bin/bash
# Clusters of 8 where the plan does not pick them: forced (more than one wave, or a wave of 11-13
# clusters) against v7's plan, alternating, 2 rounds, each against cuBLAS in the same process.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
cat > /tmp/list <<'L'
128x112o:dp:AB 12128 400 2184
128x176o:dp:AB 5672 696 1872
128x144o:dp:AB 7320 560 568
128x208o:dp:AB 10352 816 432
128x208o:dp:AB 3104 792 11664
128x128o:dp:AB 1536 2560 2048
128x128o:dp:AB 2304 2560 2048
128x112o:dp:AB 7680 448 2048
128x96o:dp:BA 9000 192 3000
128x160o:dp:AB 2600 640 3000
128x128o:dp:AB 8192 1024 2048
L
for r in 1 2; do while read -r tile M N K; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-400} ] && break
  for v in plan $tile; do
    if [ $v = plan ]; then x=$(V7_PLAN=1 ./v7 $M $N $K --check none --reps 30 --energy off 2>&1)
    else x=$(V7_PLAN=1 V7_TILE=$v ./v7 $M $N $K --check none --reps 30 --energy off 2>&1); fi
    echo "$r | $M $N $K | $v | $(echo "$x" | awk '/^time +v[0-9]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -E '^ratio' | tr -s ' ' | tr '\n' ' ') | $(echo "$x" | grep -o 'v7 plan: .*' | cut -c 10- | sed 's/ (modelled.*//')" >> $OUT/${g}_cl8_more.txt
  done
done < /tmp/list; echo "round $r $(( $(date +%s) - T0 )) s"; done
echo "all $(( $(date +%s) - T0 )) s"
