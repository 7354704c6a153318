#!/bin/bash
# Next session. (1) TG=1: make test-gpu STEPS=v7_stream_k (run it on branch sktax's checkout, with
# MISS=0); (2) unless MISS=0: v7's own pick (q) against V7_TILE=128x256:dp (p) on the shapes where
# v7 ran behind v5 / v6 (miss_ab.txt), with cuBLAS's default, 3 rounds (c139.sh's loop); (3) SK=1:
# the stream-K A/B of sk_ab2_<gpu>.txt (c141.sh, no sweep). (2) and (3) compare against main's
# model: run them on main's checkout. usage: REV=.. [TG=1] [MISS=0] [SK=1] bash c142.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
make -j16 GIT_REV=${REV:?} all build/tools/shapes > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
if [ "${TG:-0}" = 1 ]; then
  make -j16 test-gpu STEPS=v7_stream_k GIT_REV=$REV > /tmp/tg.log 2>&1; grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu_v7.txt
  grep -E -A3 "^FAIL" /tmp/tg.log | head -40 >> $OUT/${g}_test_gpu_v7.txt; cp /tmp/tg.log $OUT/${g}_test_gpu_v7_full.log
  echo "test $(( $(date +%s) - T0 )) s"
fi
if [ "${MISS:-1}" = 1 ]; then
  REV=$REV SHAPES=miss_ab.txt DEADLINE=$(( 330 - ($(date +%s) - T0) )) bash scratch/run/c139.sh > /tmp/miss.log 2>&1
  mv $OUT/${g}_sk_ab.txt $OUT/${g}_miss_ab.txt 2>/dev/null
  echo "miss $(( $(date +%s) - T0 )) s"
fi
[ "${SK:-0}" = 1 ] && REV=$REV ABLIMIT=$(( 540 - ($(date +%s) - T0) )) bash scratch/run/c141.sh
echo "all $(( $(date +%s) - T0 )) s"
