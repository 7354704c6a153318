#!/bin/bash
# PDL (branch pdl) against main's v7 and staging copies, alternating, 3 rounds, then make test-gpu STEPS=v7_stream_k
# on the new build. usage: REV=.. bash scratch/run/c137.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
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
make -j16 GIT_REV=$REV all > /tmp/b2.log 2>&1 || { tail -20 /tmp/b2.log; exit 1; }
make test-gpu STEPS=v7_stream_k GIT_REV=$REV > /tmp/tg.log 2>&1; grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu.txt
grep -E -A3 "^FAIL" /tmp/tg.log | head -40 >> $OUT/${g}_test_gpu.txt
cp /tmp/tg.log $OUT/${g}_test_gpu_full.log
echo "all $(( $(date +%s) - T0 )) s"
