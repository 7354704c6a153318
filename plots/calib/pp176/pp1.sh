#!/bin/bash
# ping-pong 128-row tiles: SASS of the pp loop, checks of forced pp plans, A/B dp vs pp vs auto, ROUNDS rounds (2) on SHAPES.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
B=${BIN:-./v7}
for fn in _Z13matmul_kernelILi128ELi176ELi0ELi2ELi2EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj; do
  cuobjdump -sass -fun $fn $B | sed 's@/\* 0x[0-9a-f]* \*/@@; /^ *$/d' > $OUT/sass_pp176.txt 2>&1
done
c=$OUT/${g}_checks.txt
while read -r M N K P; do
  x=$(V7_PLAN=1 V7_TILE=$P timeout 60 $B $M $N $K --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$M $N $K $P rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-110 | tr '\n' ' ')" >> $c
done < scratch/run/pp_checks.txt
echo "checks $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
for r in $(seq 1 ${ROUNDS:-2}); do
  while read -r M N K; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-500} ] && break
    for v in auto 128x176:dp 128x176:pp 128x128:dp 128x128:pp; do
      t=$v; [ $v = auto ] && t=
      x=$(V7_PLAN=1 V7_TILE=$t timeout 30 $B $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
      echo "$M $N $K | $v | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
    done
  done < ${SHAPES:-scratch/run/pp_shapes.txt}
  echo "round $r $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
