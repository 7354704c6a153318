#!/bin/bash
# (1) AB=file: v7's own pick (q: the branch's model) against V7_TILE=OLD (p: main's pick), lines
# "M N K OLD", no cuBLAS, alternating, 3 rounds, until DEADLINE s; (2) TG=1: make test-gpu
# STEPS=v7_stream_k; (3) MISS=1: c139.sh over miss_ab.txt (v7's pick against 128x256:dp, cuBLAS's
# default in the same process). usage (device, branch sktax's tree): REV=.. [AB=f] [TG=1] [MISS=1] bash c144.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
if [ -n "${AB:-}" ]; then
  f=$OUT/${g}_ab.txt
  for round in 1 2 3; do while read -r M N K A; do
    [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-540} ] && break
    for b in q p; do
      if [ $b = q ]; then x=$(V7_PLAN=1 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1)
      else x=$(V7_TILE=$A V7_PLAN=1 ./v7 $M $N $K --check none --baseline none --reps 30 --energy off 2>&1); fi
      echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*.*' | sed 's/pairs share.*on \([0-9]*\) clusters, \([0-9]*\) stream-K.*whole/\1 cl \2 sk/')" >> $f
    done
  done < scratch/run/${AB//@/$g}; echo "round $round $(( $(date +%s) - T0 )) s"; done
fi
if [ "${TG:-0}" = 1 ]; then
  make -j16 test-gpu STEPS=v7_stream_k GIT_REV=$REV > /tmp/tg.log 2>&1; grep "gpu tests:" /tmp/tg.log | tee $OUT/${g}_test_gpu_v7.txt
  grep -E -A3 "^FAIL" /tmp/tg.log | head -40 >> $OUT/${g}_test_gpu_v7.txt; cp /tmp/tg.log $OUT/${g}_test_gpu_v7_full.log
  echo "test $(( $(date +%s) - T0 )) s"
fi
if [ "${MISS:-0}" = 1 ]; then
  REV=$REV SHAPES=miss_ab.txt DEADLINE=$(( ${DEADLINE:-540} - ($(date +%s) - T0) )) bash scratch/run/c139.sh > /tmp/miss.log 2>&1
  mv $OUT/${g}_sk_ab.txt $OUT/${g}_miss_ab.txt 2>/dev/null
  echo "miss $(( $(date +%s) - T0 )) s"
fi
echo "all $(( $(date +%s) - T0 )) s"
