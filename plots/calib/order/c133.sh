#!/bin/bash
# test-gpu v7 at REV, then c132's ncu probe (tile order vs L2 requests). usage: REV=.. bash scratch/run/c133.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 build/tools/plan > /tmp/b0.log 2>&1 || { tail -20 /tmp/b0.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
make test-gpu STEPS=v7_stream_k GIT_REV=$REV > /tmp/tg.log 2>&1; grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu.txt
grep -E -A3 "^FAIL" /tmp/tg.log | head -40 >> $OUT/${g}_test_gpu.txt
cp /tmp/tg.log $OUT/${g}_test_gpu_full.log
echo "test $(( $(date +%s) - T0 )) s"
[ "${NCU:-1}" = 1 ] && REV=$REV bash scratch/run/c132.sh
echo "all $(( $(date +%s) - T0 )) s"
