#!/bin/bash
# c130 (A/B on SHAPES, 3 rounds) then make test-gpu STEPS=v7_stream_k. usage: SHAPES=.. REV=.. bash scratch/run/c131.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
DEADLINE=${DEADLINE:-330} SHAPES=$SHAPES REV=$REV bash scratch/run/c130.sh
echo "ab $(( $(date +%s) - T0 )) s"
make -j16 GIT_REV=${REV:?} all > /tmp/b0.log 2>&1 || { tail -20 /tmp/b0.log; exit 1; }
make test-gpu STEPS=v7_stream_k GIT_REV=$REV > /tmp/tg.log 2>&1; grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu.txt
grep -E "^FAIL" /tmp/tg.log | head >> $OUT/${g}_test_gpu.txt
echo "all $(( $(date +%s) - T0 )) s"
