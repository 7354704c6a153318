#!/bin/bash
# ncu warp-state and scheduler sections: v7 (own pick, 128 x 64 in quads) and cuBLASLt's best (nvjet 128x64_64x8_2x4) at 1712 x 480 x 5408.
set -u
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
(make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1; echo "v7 build rc=$?" >> /tmp/b.log) &
nvcc -O2 -arch=sm_90a -o /tmp/ltalgo scratch/run/ltalgo.cu -lcublasLt || exit 1
S="--section WarpStateStats --section SchedulerStats --section SpeedOfLight --section MemoryWorkloadAnalysis"
echo "1712 480 5408 1" | BEST=1 timeout 120 ncu $S /tmp/ltalgo > $OUT/${g}_ncu2_cublas.txt 2>&1
wait; tail -1 /tmp/b.log
timeout 120 ncu $S -k regex:matmul ./v7 1712 480 5408 --check none --reps 1 --warmup 0 --baseline none --energy off > $OUT/${g}_ncu2_v7.txt 2>&1
echo done
