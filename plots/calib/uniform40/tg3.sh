#!/bin/bash
# make test-gpu STEPS=v7_stream_k at REV.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
timeout 580 make -j16 test-gpu STEPS=v7_stream_k GPU_TEST_JOBS=6 GIT_REV=${REV:?} > /tmp/tg.log 2>&1; echo "test-gpu rc=$?"
grep "gpu tests:" /tmp/tg.log; grep -E "^FAIL" /tmp/tg.log | head; grep "gpu tests:\|^FAIL" /tmp/tg.log > $OUT/${g}_test_gpu.txt; cp /tmp/tg.log $OUT/${g}_test_gpu.log
echo "all $(( $(date +%s) - T0 )) s"
