#!/bin/bash
# Next session: does the tile order change how many L2 sectors the SMs ask for at 1024^3 (request
# merging between SMs of a GPC?). v7 built with the group width fixed (-DSWIZZLE=n) against the
# default order and cuBLAS's default, under ncu. usage: REV=.. bash scratch/run/c132.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
M="gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__m_xbar2l1tex_read_bytes.sum,sm__cycles_active.max"
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
cp v7 /tmp/v7_def
for w in 1 8; do # a copy of the tree with the group width fixed
  mkdir -p /tmp/xw$w && tar --exclude=./build --exclude=./scratch -cf - . | tar -C /tmp/xw$w -xf -
  sed -i "1i #define SWIZZLE $w" /tmp/xw$w/v7_stream_k/hopper.cu
  (cd /tmp/xw$w && make -j8 GIT_REV=w$w v7 > /tmp/b$w.log 2>&1 && cp v7 /tmp/v7_w$w) &
done
wait
for b in /tmp/v7_def /tmp/v7_w1 /tmp/v7_w8; do
  [ -x $b ] || continue
  echo "== $b"; timeout 100 ncu --kernel-name regex:matmul_kernel --launch-skip 2 --launch-count 1 --metrics $M $b 1024 1024 1024 --check none --baseline none --reps 3 --warmup 2 --energy off 2>/dev/null | grep -E "^ +[a-z]"
done | tee $OUT/${g}_ncu_order.txt
timeout 100 ncu --kernel-name regex:nvjet --launch-count 1 --metrics $M /tmp/v7_def 1024 1024 1024 --check none --baseline default --reps 2 --warmup 1 --energy off 2>/dev/null | grep -E "^ +[a-z]" | tee -a $OUT/${g}_ncu_order.txt
echo "all $(( $(date +%s) - T0 )) s"
