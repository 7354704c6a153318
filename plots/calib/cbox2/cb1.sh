#!/bin/bash
# cbox + stmatrix (non-trans) for every slice of a tile of C + redux on plan.pairs: checks of forced plans (odd and even widths), then old (HEAD) vs new, own picks, 2 rounds.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
rm -rf /tmp/old && mkdir /tmp/old && cp -r . /tmp/old/ 2>/dev/null; cp scratch/run/old6/hopper.cu /tmp/old/v7_stream_k/hopper.cu
( cd /tmp/old && make -j8 GIT_REV=old v7 > /tmp/bo.log 2>&1 ) &
make -j8 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
wait; [ -x /tmp/old/v7 ] || { tail -30 /tmp/bo.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
c=$OUT/${g}_checks.txt
for a in "128x240:dp 1000 1001 500" "128x208:sk 3000 2000 1000" "64x112:dp 500 1000 300" "64x80o:dp:AB 200 1704 3792" \
         "128x144:split3 600 700 3000" "128x288:dp 3856 1064 3624" "64x96:split2 300 500 4000" "128x80o:dp:AB 3304 272 4528" \
         "128x176:sk 1001 1003 999" "128x224:dp 2000 1999 640" "64x80:sk 700 333 2000" "128x160q:dp 1500 700 900" \
         "128x256:dp 1000 1001 500" "128x192:sk 777 1000 900" "64x64:dp 100 70 300" "128x128:split3 500 600 3000" \
         "128x64:sk 3001 997 1500" "128x256:skw 2000 3000 1000" "128x288:sk 1500 900 3000" "128x128q:sk 900 2000 1200" "128x128o:dp:AB 900 2000 1200"; do
  set -- $a
  x=$(V7_PLAN=1 V7_TILE=$1 timeout 60 ./v7 $2 $3 $4 --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$a rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-100 | tr '\n' ' ')" >> $c
done
echo "checks $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
for r in 1 2; do
  while read -r M N K P; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-520} ] && break
    for b in new old; do
      bin=./v7; [ $b = old ] && bin=/tmp/old/v7
      x=$(V7_PLAN=1 timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
      echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
    done
  done < ${ABL:-scratch/run/cb_ab.txt}
  echo "round $r $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
