#!/bin/bash
# make test-gpu over the steps in $ST (builds only those), log per GPU; then, with AB=1, c137's PDL A/B
# (PDL against pre-PDL main from scratch/run/pdl_base). usage: REV=.. ST="v0_single_warp ..." TAG=v0to3 bash c140.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
if [ "${AB:-0}" = 1 ]; then
  mkdir -p /tmp/x && tar --exclude=./build --exclude=./scratch -cf - . | tar -C /tmp/x -xf -
  cp scratch/run/pdl_base/hopper.cu /tmp/x/v7_stream_k/hopper.cu; cp scratch/run/pdl_base/stage_copy.cu /tmp/x/common/stage_copy.cu
  make -j10 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 &
  (cd /tmp/x && make -j6 GIT_REV=main v7 > /tmp/b1.log 2>&1) &
  wait; cp /tmp/x/v7 ./v7b || { tail /tmp/b1.log; exit 1; }
  [ -x v7 ] || { tail /tmp/b.log; exit 1; }
  echo "build $(( $(date +%s) - T0 )) s"
  f=$OUT/${g}_pdl_ab.txt
  for round in 1 2 3; do while read -r s; do
    for b in v7 v7b; do
      x=$(V7_PLAN=1 ./$b $s --check none --baseline best --reps 30 --energy off 2>&1)
      echo "$s | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^time +cuBLAS/{cb=$4} /^ratio/{q=$2} /^clock/{c=$3} END{print t, cb, q, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*.*' | sed 's/pairs share.*on \([0-9]*\) clusters, \([0-9]*\) stream-K.*whole/\1 cl \2 sk/')" >> $f
    done
  done < scratch/run/pdl_shapes.txt; done
  echo "ab $(( $(date +%s) - T0 )) s"
fi
if [ -n "${ST:-}" ]; then
  timeout ${TG_LIMIT:-540} make -j16 test-gpu STEPS="$ST" GIT_REV=${REV:?} > /tmp/tg.log 2>&1; echo "test-gpu rc=$?"
  grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu_${TAG}.txt
  grep -E -A3 "^FAIL" /tmp/tg.log | head -40 >> $OUT/${g}_test_gpu_${TAG}.txt
  cp /tmp/tg.log $OUT/${g}_test_gpu_${TAG}_full.log
fi
echo "all $(( $(date +%s) - T0 )) s"
