#!/bin/bash
# v7 plans against cuBLASLt's best, interleaved in one process (--baseline best), variants rotated round to round.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
B=${BIN:-./v7}
f=$OUT/${g}_${TAG:-pp4}.txt
V=(${VARIANTS:-auto 128x176:pp 128x176:dp 128x128:pp})
for r in $(seq 1 ${ROUNDS:-2}); do
  while read -r M N K; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-400} ] && break
    n=${#V[@]}
    for j in $(seq 0 $((n - 1))); do
      v=${V[$(( (j + r + M) % n ))]}
      t=$v; [ $v = auto ] && t=
      x=$(V7_PLAN=1 V7_TILE=$t timeout 60 $B $M $N $K --check none --baseline best --reps ${REPS:-30} --energy off 2>&1)
      echo "$M $N $K | $v | $(echo "$x" | awk '/^time +v7/{t=$3} /^time +cuBLAS/{c=$4} /^clock/{k=$3} /^ratio/{r=$2} END{print t, c, r, k}') | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-50)" >> $f
    done
  done < ${SHAPES:-scratch/run/pp_long.txt}
  echo "round $r $(( $(date +%s) - T0 )) s"
done
