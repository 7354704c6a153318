#!/bin/bash
# 128 x 64 tiles with k-tiles 128 deep (SK_DEPTH): checks of forced 128 x 64 plans, old (HEAD's stream_k.h) vs new on the
# same forced plans, 2 rounds, then make test-gpu STEPS=v7_stream_k.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
rm -rf /tmp/old && mkdir /tmp/old && cp -r . /tmp/old/ 2>/dev/null; cp scratch/run/old7/stream_k.h /tmp/old/common/stream_k.h
( cd /tmp/old && make -j8 GIT_REV=old v7 > /tmp/bo.log 2>&1 ) &
make -j8 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
wait; [ -x /tmp/old/v7 ] || { tail -30 /tmp/bo.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
c=$OUT/${g}_checks.txt
while read -r M N K P; do
  x=$(V7_PLAN=1 V7_TILE=$P timeout 60 ./v7 $M $N $K --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$M $N $K $P rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-100 | tr '\n' ' ')" >> $c
done < scratch/run/dk_ab.txt
echo "checks $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
for r in 1 2; do
  while read -r M N K P; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-300} ] && break
    for b in new old; do
      bin=./v7; [ $b = old ] && bin=/tmp/old/v7
      x=$(V7_PLAN=1 V7_TILE=$P timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
      echo "$M $N $K $P | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
    done
  done < scratch/run/dk_ab.txt
  echo "round $r $(( $(date +%s) - T0 )) s"
done
timeout $(( 590 - ($(date +%s) - T0) )) make -j16 test-gpu STEPS=v7_stream_k GPU_TEST_JOBS=6 GIT_REV=$REV > /tmp/tg.log 2>&1; echo "test-gpu rc=$?"
grep "gpu tests:" /tmp/tg.log; grep -E "^FAIL" /tmp/tg.log | head; grep "gpu tests:\|^FAIL" /tmp/tg.log > $OUT/${g}_test_gpu.txt; cp /tmp/tg.log $OUT/${g}_test_gpu.log
echo "all $(( $(date +%s) - T0 )) s"
