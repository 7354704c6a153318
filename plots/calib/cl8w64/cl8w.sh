#!/bin/bash
# Branch cl8w64: 128 x 64 in clusters of 8 (kind 43). --check both on new picks and forced 2 x 4 / 4 x 2 plans, then own pick
# (the new kind) against V7_TILE= the pick without it (same build), 2 rounds.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
grep -c 'spill stores' /tmp/b.log; grep 'spill stores' /tmp/b.log | grep -vc ' 0 bytes spill stores'
echo "build $(( $(date +%s) - T0 )) s"
c=$OUT/${g}_checks.txt
for a in "128x64o:dp:AB 1712 480 5408" "128x64o:dp:BA 1712 480 5408" "128x64o:dp:BA:T 344 2432 8216" "128x64o:split3:BA:T 608 464 3096" \
         "128x64o:split7:AB 240 440 3672" "128x64o:dp:AB 1001 1003 999" "128x64o:split3:BA 480 584 4160" "128x64o:dp:BA 7224 128 456" \
         "128x64o:dp:AB:T 997 1500 777" "128x64o:split5:AB 232 672 4840"; do
  set -- $a
  x=$(V7_PLAN=1 V7_TILE=$1 timeout 60 ./v7 $2 $3 $4 --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$a rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-100 | tr '\n' ' ')" >> $c
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
  done < scratch/run/cl8w_ab.txt
  echo "round $r $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
