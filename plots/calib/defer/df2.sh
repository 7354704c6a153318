#!/bin/bash
# Deferred epilogue, second GPU: old vs new, one-wave set 4 rounds, multi-wave set 2 rounds; sanitizers on two deferred plans.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
rm -rf /tmp/old && mkdir /tmp/old && cp -r . /tmp/old/ 2>/dev/null; cp scratch/run/old4/hopper.cu /tmp/old/v7_stream_k/hopper.cu
( cd /tmp/old && make -j8 GIT_REV=old v7 > /tmp/bo.log 2>&1 ) &
make -j8 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
wait; [ -x /tmp/old/v7 ] || { tail -30 /tmp/bo.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab2.txt
ab() { while read -r M N K P; do
  [ $(( $(date +%s) - T0 )) -gt ${LIM:-330} ] && break
  for b in new old; do
    bin=./v7; [ $b = old ] && bin=/tmp/old/v7
    if [ "$P" = "-" ]; then x=$(V7_PLAN=1 timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
    else x=$(V7_PLAN=1 V7_TILE=$P timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1); fi
    echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
  done
done < $1; }
for r in 1 2; do ab scratch/run/df2_multi.txt; ab scratch/run/df2_one.txt; ab scratch/run/df2_one.txt; echo "round $r $(( $(date +%s) - T0 )) s"; done
s=$OUT/${g}_sanitizer.txt
for a in "racecheck 128x128:dp 2048 2048 192" "synccheck 128x256:dp:T 3072 2048 128" "memcheck 128x224:dp 4000 3000 320"; do
  [ $(( $(date +%s) - T0 )) -gt 370 ] && break
  set -- $a
  x=$(V7_TILE=$2 timeout 60 compute-sanitizer --tool $1 ./v7 $3 $4 $5 --check both --reps 1 --warmup 0 --energy off --baseline none 2>&1)
  echo "$a rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|SUMMARY' | cut -c1-140 | tr '\n' ' ')" >> $s
done
echo "all $(( $(date +%s) - T0 )) s"
