#!/bin/bash
# cbox + redux: forced checks (odd and even widths), then make test-gpu STEPS=v7_stream_k.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
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
echo "checks $(( $(date +%s) - T0 )) s; $(grep -c PASS $c) PASS"
timeout $(( 580 - ($(date +%s) - T0) )) make -j16 test-gpu STEPS=v7_stream_k GPU_TEST_JOBS=6 GIT_REV=$REV > /tmp/tg.log 2>&1; echo "test-gpu rc=$?"
grep "gpu tests:" /tmp/tg.log; grep -E "^FAIL" /tmp/tg.log | head; grep "gpu tests:\|^FAIL" /tmp/tg.log > $OUT/${g}_test_gpu.txt; cp /tmp/tg.log $OUT/${g}_test_gpu.log
echo "all $(( $(date +%s) - T0 )) s"
