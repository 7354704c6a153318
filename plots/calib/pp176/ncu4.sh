#!/bin/bash
# ncu at 4096 x 14336 x 4096: cuBLASLt's best, v7's pick, v7 128x176 in ping-pong; SASS of the 64x64 and 128x176 ping-pong loops.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
B=./v7
for fn in _Z13matmul_kernelILi64ELi64ELi0ELi0ELi2EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj _Z13matmul_kernelILi128ELi176ELi0ELi2ELi2EEv14CUtensorMap_stS0_S0_S0_Ptiii8tile_map7sk_planPiPjPfj; do
  cuobjdump -sass -fun $fn $B | sed 's@/\* 0x[0-9a-f]* \*/@@; /^ *$/d' > $OUT/sass_$(echo $fn | cut -c20-40).txt 2>&1
done
nvcc -O2 -arch=sm_90a -o /tmp/ltalgo scratch/run/ltalgo.cu -lcublasLt || exit 1
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats"
echo "4096 14336 4096" | /tmp/ltalgo > $OUT/${g}_lt.txt 2>&1
bi=$(grep -o '^4096 14336 4096 \*[0-9]*' $OUT/${g}_lt.txt | sed 's/.*\*//')
echo "4096 14336 4096 ${bi:-0}" | BEST=1 timeout 150 ncu $S -k regex:nvjet -o /tmp/cb /tmp/ltalgo > $OUT/log.txt 2>&1
echo "cublas $(( $(date +%s) - T0 )) s" >> $OUT/log.txt
timeout 100 ncu $S -k regex:matmul -o /tmp/auto $B 4096 14336 4096 --check none --reps 1 --warmup 0 --baseline none --energy off >> $OUT/log.txt 2>&1
V7_TILE=128x176:pp timeout 150 ncu $S --section SourceCounters -k regex:matmul -o /tmp/pp $B 4096 14336 4096 --check none --reps 1 --warmup 0 --baseline none --energy off >> $OUT/log.txt 2>&1
echo "v7 $(( $(date +%s) - T0 )) s" >> $OUT/log.txt
for r in cb auto pp; do
  ncu -i /tmp/$r.ncu-rep --page details --print-details all > $OUT/${g}_${r}_details.txt 2>> $OUT/log.txt
done
ncu -i /tmp/pp.ncu-rep --page source --csv --print-source sass > $OUT/${g}_pp_sass.csv 2>> $OUT/log.txt
echo "all $(( $(date +%s) - T0 )) s" >> $OUT/log.txt
