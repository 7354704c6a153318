#!/bin/bash
# A/B: v7 built from HEAD's hopper.cu (v7old) against the tree's (v7), alternating, ROUNDS rounds over
# scratch/run/${SHAPES_FILE:-ab_shapes.txt}, --baseline none; then CHECKS (c149's list) on the tree's v7.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
F="-std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -Xcompiler -Wall,-Wextra"
if [ -n "${OLDFILE:-}" ]; then cp $OLDFILE v7_stream_k/hopper_old.cu; else git show ${OLD:-HEAD}:v7_stream_k/hopper.cu > v7_stream_k/hopper_old.cu; fi
mkdir -p /tmp/ab; nvcc $F -c v7_stream_k/hopper_old.cu -o /tmp/ab/old.o 2> /tmp/ab/old.log &
make -j16 GIT_REV=${REV:?} v7 ${EXTRA:-} > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
wait
objs=$(ls build/v7_stream_k/*.o build/common/*.o | grep -v "v7_stream_k/hopper.o")
nvcc -o v7old /tmp/ab/old.o $objs -lcublasLt -lcublas -lm || exit 1
echo "build $(( $(date +%s) - T0 )) s"
for r in $(seq 1 ${ROUNDS:-2}); do while read -r M N K; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-420} ] && break
  for b in v7old v7 ${EXTRA:-}; do
    x=$(V7_PLAN=1 ./$b $M $N $K --check none --baseline none --reps 30 --energy off 2>&1)
    echo "$r | $M $N $K | $b | $(echo "$x" | awk '/^time +v[0-9]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*[^,]*' | head -1)" >> $OUT/${g}_ab.txt
  done
done < scratch/run/${SHAPES_FILE:-ab_shapes.txt}; echo "round $r $(( $(date +%s) - T0 )) s"; done
if [ "${CHECKS:-0}" = 1 ]; then
  sed -n '/^128x256:dp 1000/,/^L$/p' scratch/run/c149.sh | grep -v "^L$" > /tmp/cklist
  echo "128x176:dp 1000 1000 1000" >> /tmp/cklist; echo "128x240:sk 1500 1000 1000" >> /tmp/cklist; echo "64x112:dp 300 500 700" >> /tmp/cklist
  while read -r tile M N K; do
    x=$(V7_TILE=$tile ./v7 $M $N $K --check both --baseline none --reps 3 2>&1); rc=$?
    echo "rc=$rc $tile $M $N $K | $(echo "$x" | grep -iE "^check|mismatch|error" | tr '\n' ' ' | cut -c1-200)" >> $OUT/${g}_checks.txt
  done < /tmp/cklist
  echo "checks $(( $(date +%s) - T0 )) s"
fi
echo "all $(( $(date +%s) - T0 )) s"
