#!/bin/bash
# Epilogue stamps (ep_stamps.py, piece PI) on three large shapes, then make bench-awkward (v6, v7).
# usage (device): REV=.. [PI=2] [AWK=1] bash scratch/run/c148.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
python3 scratch/run/ep_stamps.py v7_stream_k/hopper.cu v7_stream_k/hopper_ph.cu ${PI:-2}
F="-std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -Xcompiler -Wall,-Wextra"
mkdir -p /tmp/ph; nvcc $F -c v7_stream_k/hopper_ph.cu -o /tmp/ph/hopper.o 2> /tmp/ph/ptxas.log &
make -j16 GIT_REV=${REV:?} v7 v6 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
wait
objs=$(ls build/v7_stream_k/*.o build/common/*.o | grep -v "v7_stream_k/hopper.o")
nvcc -o v7ph /tmp/ph/hopper.o $objs -lcublasLt -lcublas -lm || exit 1
echo "build $(( $(date +%s) - T0 )) s"
for s in "4096 14336 4096" "8192 8192 8192" "4096 4096 4096" "2048 8192 28672"; do
  PH=1 V7_PLAN=1 ./v7ph $s --check none --reps 30 --warmup 10 --energy off --baseline none 2>&1 | grep -E "^PH|^time|^clock|^v7 plan" | sed "s/^/$s: /" >> $OUT/${g}_ep_stamps.txt
done
echo "stamps $(( $(date +%s) - T0 )) s"
if [ "${AWK:-0}" = 1 ]; then
  STEPS="v6_cluster v7_stream_k" SHAPES="$(make -s -p -n 2>/dev/null | sed -n "s/^AWKWARD_SHAPES := //p")" bash plots/bench.sh $OUT/${g}_awkward.csv > $OUT/${g}_awkward.log 2>&1
  echo "awkward $(( $(date +%s) - T0 )) s"
fi
echo "all $(( $(date +%s) - T0 )) s"
