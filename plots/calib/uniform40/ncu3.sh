#!/bin/bash
# ncu source-level (SASS) stall sampling at 1712 x 480 x 5408: v7's own pick (128 x 64 quads) and cuBLASLt's best (nvjet 128x64_64x8_2x4).
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
(make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1; echo "v7 build rc=$?" >> /tmp/b.log) &
nvcc -O2 -arch=sm_90a -o /tmp/ltalgo scratch/run/ltalgo.cu -lcublasLt || exit 1
S="--section SourceCounters --section WarpStateStats --section SchedulerStats --section SpeedOfLight"
echo "1712 480 5408 1" | BEST=1 timeout 150 ncu $S -k regex:nvjet -o /tmp/cb /tmp/ltalgo > $OUT/log.txt 2>&1
echo "cublas $(( $(date +%s) - T0 )) s" >> $OUT/log.txt
wait; tail -1 /tmp/b.log >> $OUT/log.txt
timeout 150 ncu $S -k regex:matmul -o /tmp/v7 ./v7 1712 480 5408 --check none --reps 1 --warmup 0 --baseline none --energy off >> $OUT/log.txt 2>&1
echo "v7 $(( $(date +%s) - T0 )) s" >> $OUT/log.txt
for r in cb v7; do
  ncu -i /tmp/$r.ncu-rep --page source --csv --print-source sass > $OUT/${g}_${r}_sass.csv 2>> $OUT/log.txt
  ncu -i /tmp/$r.ncu-rep --page raw --csv > $OUT/${g}_${r}_raw.csv 2>> $OUT/log.txt
  ncu -i /tmp/$r.ncu-rep --page details --print-details all > $OUT/${g}_${r}_details.txt 2>> $OUT/log.txt
done
ls -la $OUT >> $OUT/log.txt
echo "all $(( $(date +%s) - T0 )) s" >> $OUT/log.txt
