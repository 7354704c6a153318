#!/bin/bash
# ncu (clocks as ncu sets them) of v7's kernel and of the best of cuBLASLt's heuristic candidates (ltalgo.cu)
# on scratch/run/ncu_shapes.txt: duration, clock, tensor pipe, L2 bytes and throughput, DRAM, shared-memory wavefronts.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
(make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1; echo "v7 build rc=$?" >> /tmp/b.log) &
nvcc -O2 -arch=sm_90a -o /tmp/ltalgo scratch/run/ltalgo.cu -lcublasLt || exit 1
/tmp/ltalgo < scratch/run/ncu_shapes.txt > $OUT/${g}_lt.txt 2>&1
grep '\*' $OUT/${g}_lt.txt | awk '{sub(/\*/,"",$4); print $1,$2,$3,$4}' > /tmp/best.txt
MET=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,launch__grid_size,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
BEST=1 timeout 200 ncu --csv --print-units base --metrics $MET /tmp/ltalgo < /tmp/best.txt > $OUT/${g}_ncu_cublas.txt 2>&1
echo "cublas ncu $(( $(date +%s) - T0 )) s"
wait; tail -1 /tmp/b.log
while read -r M N K; do
  V7_PLAN=1 ./v7 $M $N $K --check none --reps 0 --baseline none --energy off 2>&1 | grep '^v7 plan' >> $OUT/${g}_ncu_v7.txt
  timeout 100 ncu --csv --print-units base -k regex:matmul --metrics $MET ./v7 $M $N $K --check none --reps 1 --warmup 0 --baseline none --energy off 2>&1 | grep '^"' >> $OUT/${g}_ncu_v7.txt
done < scratch/run/ncu_shapes.txt
echo "all $(( $(date +%s) - T0 )) s"
