#!/bin/bash
# Known shapes whose plan the 2/3 rule changed: own pick against V7_TILE= the old pick, 2 rounds; then make test-gpu STEPS=v7_stream_k.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_extra_ab.txt
for r in 1 2; do
  while read -r M N K P; do
    for b in new old; do
      if [ $b = new ]; then x=$(V7_PLAN=1 timeout 30 ./v7 $M $N $K --check both --baseline none --reps 20 --energy off 2>&1)
      else x=$(V7_PLAN=1 V7_TILE=$P timeout 30 ./v7 $M $N $K --check none --baseline none --reps 20 --energy off 2>&1); fi
      echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-70) | $(echo "$x" | grep -c PASS) PASS" >> $f
    done
  done < scratch/run/extra_${g}.txt
done
echo "ab $(( $(date +%s) - T0 )) s"
timeout $(( 580 - ($(date +%s) - T0) )) make -j16 test-gpu STEPS=v7_stream_k GPU_TEST_JOBS=6 GIT_REV=$REV > /tmp/tg.log 2>&1; echo "test-gpu rc=$?"
grep "gpu tests:" /tmp/tg.log; grep -E "^FAIL" /tmp/tg.log | head; grep "gpu tests:\|^FAIL" /tmp/tg.log > $OUT/${g}_test_gpu.txt; cp /tmp/tg.log $OUT/${g}_test_gpu.log
echo "all $(( $(date +%s) - T0 )) s"
