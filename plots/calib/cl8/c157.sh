#!/bin/bash
# A/B: v7 at 1adc1e3 (scratch/run/ab10/old: hopper.cu, stream_k.h, tile_order.h) against the tree's v7
# (clusters of 8), alternating, ROUNDS rounds over ab10/shapes.txt (17 held-out shapes whose plan is a cluster of 8 (H200 DRAM),
# seeds 20262730-20262780, then those of ab9 still in clusters of 8, then 4 unchanged), --baseline none, stopping
# at DEADLINE; then make test-gpu STEPS=v7_stream_k.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
F="-std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xcompiler -Wall,-Wextra"
rm -rf /tmp/old && mkdir -p /tmp/old && cp -r common v7_stream_k /tmp/old/ && cp -r scratch/run/ab10/old/* /tmp/old/
nvcc $F -c /tmp/old/v7_stream_k/hopper.cu -o /tmp/old/old.o 2> /tmp/old/old.log &
make -j16 GIT_REV=${REV:?} all build/tools/shapes build/broken/v4 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
wait
objs=$(ls build/v7_stream_k/*.o build/common/*.o | grep -v "v7_stream_k/hopper.o")
nvcc -o v7old /tmp/old/old.o $objs -lcublasLt -lcublas -lm || { tail /tmp/old/old.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
for r in $(seq 1 ${ROUNDS:-2}); do while read -r M N K; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-300} ] && break
  for b in v7old v7; do
    x=$(V7_PLAN=1 ./$b $M $N $K --check none --baseline none --reps 30 --energy off 2>&1)
    echo "$r | $M $N $K | $b | $(echo "$x" | awk '/^time +v[0-9]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -o 'v7 plan: .*' | cut -c 10- | sed 's/ (modelled.*//')" >> $OUT/${g}_ab.txt
  done
done < scratch/run/ab10/shapes.txt; echo "round $r $(( $(date +%s) - T0 )) s"; done
make test-gpu STEPS=v7_stream_k GIT_REV=$REV > $OUT/${g}_testgpu_v7.log 2>&1; grep "gpu tests:" $OUT/${g}_testgpu_v7.log
echo "all $(( $(date +%s) - T0 )) s"
