#!/bin/bash
# make test-gpu STEPS=v7_stream_k, then v7 on the three bench shapes against both cuBLAS baselines.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 test-gpu STEPS=v7_stream_k GIT_REV=${REV:?} > /tmp/tg.log 2>&1; grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu_v7.txt
grep -E -A3 "^FAIL" /tmp/tg.log | head -40 >> $OUT/${g}_test_gpu_v7.txt; grep -v "^nvcc\|^/opt\|^ptxas\|^    [0-9]* bytes" /tmp/tg.log > $OUT/${g}_test_gpu_v7_full.log
echo "test $(( $(date +%s) - T0 )) s"
if [ "${BENCH:-1}" = 1 ]; then for s in "4096 4096 4096" "4096 14336 4096" "8192 8192 8192"; do
  ./v7 $s --check none --reps 30 --warmup 10 --energy off 2>&1 | grep -E "^time|^ratio|^clock|^v7 plan" | sed "s/^/$s: /" >> $OUT/${g}_bench.txt
done; fi
echo "all $(( $(date +%s) - T0 )) s"
