#!/bin/bash
# make test-gpu STEPS=v7_stream_k at REV, with the old v7 (scratch/run/oldpp: HEAD before ping-pong) built beside it;
# then old and new own picks against cuBLASLt's best (interleaved in each process), order rotating; forced plans at 1888 x 4176 x 4600.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
rm -rf /tmp/old && mkdir /tmp/old && cp -r . /tmp/old/ 2>/dev/null
cp scratch/run/oldpp/hopper.cu /tmp/old/v7_stream_k/hopper.cu; cp scratch/run/oldpp/stream_k.h /tmp/old/common/stream_k.h
( cd /tmp/old && nice make -j4 GIT_REV=old v7 > /tmp/bo.log 2>&1 ) &
if [ -z "${SKIP_TG:-}" ]; then
  timeout ${TG_LIM:-430} make -j16 test-gpu STEPS=v7_stream_k GPU_TEST_JOBS=6 GIT_REV=${REV:?} > /tmp/tg.log 2>&1; echo "test-gpu rc=$?"
  grep "gpu tests:" /tmp/tg.log; grep -E "^FAIL" /tmp/tg.log | head; grep "gpu tests:\|^FAIL" /tmp/tg.log > $OUT/${g}_test_gpu.txt; cp /tmp/tg.log $OUT/${g}_test_gpu.log
else
  make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
fi
echo "test-gpu done $(( $(date +%s) - T0 )) s"
wait; [ -x /tmp/old/v7 ] || { tail -20 /tmp/bo.log; exit 1; }
f=$OUT/${g}_ab_pp.txt
for v in 128x240:skw:T 128x176:pp:T 128x176:dp:T; do
  x=$(V7_PLAN=1 V7_TILE=$v timeout 60 ./v7 1888 4176 4600 --check none --baseline best --reps 30 --energy off 2>&1)
  echo "1888 4176 4600 | $v | $(echo "$x" | awk '/^time +v7/{t=$3} /^time +cuBLAS/{c=$4} /^clock/{k=$3} /^ratio/{r=$2} END{print t, c, r, k}')" >> $OUT/${g}_forced.txt
done
for r in 1 2 3; do
  n=0
  while read -r M N K; do
    [ $(( $(date +%s) - T0 )) -gt ${LIM:-560} ] && break
    n=$((n + 1)); o="new old"; [ $(( (n + r) % 2 )) = 1 ] && o="old new"
    for b in $o; do
      bin=./v7; [ $b = old ] && bin=/tmp/old/v7
      x=$(V7_PLAN=1 timeout 60 $bin $M $N $K --check none --baseline best --reps 30 --energy off 2>&1)
      echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v7/{t=$3} /^time +cuBLAS/{c=$4} /^clock/{k=$3} /^ratio/{r=$2} END{print t, c, r, k}') | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
    done
  done < scratch/run/ab_pp.txt
  echo "round $r $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
