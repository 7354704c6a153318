#!/bin/bash
# Stamped builds A (scratch/run/old_ph.cu) and B (new_ph.cu), placed as v7_stream_k/hopper_X.cu and
# linked with this tree's other objects; stamps, then A/B timing alternating, 3 rounds.
# usage (device): REV=.. [SHAPES="M N K;..."] bash scratch/run/c149.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
F="-std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -Xcompiler -Wall,-Wextra"
mkdir -p /tmp/ph
for x in old new; do cp scratch/run/${x}_ph.cu v7_stream_k/hopper_$x.cu; nvcc $F -c v7_stream_k/hopper_$x.cu -o /tmp/ph/$x.o 2> /tmp/ph/$x.log & done
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
wait
objs=$(ls build/v7_stream_k/*.o build/common/*.o | grep -v "v7_stream_k/hopper.o")
for x in old new; do nvcc -o v7$x /tmp/ph/$x.o $objs -lcublasLt -lcublas -lm || exit 1; done
echo "build $(( $(date +%s) - T0 )) s"
IFS=';' read -r -a shapes <<<"${SHAPES:-4096 14336 4096;8192 8192 8192;4096 4096 4096;2048 8192 28672;1024 1024 1024;456 240 1184}"
for s in "${shapes[@]}"; do for x in old new; do
  PH=1 V7_PLAN=1 ./v7$x $s --check none --reps 30 --warmup 10 --energy off --baseline none 2>&1 | grep -E "^PH|^v7 plan" | sed "s/^/$s $x: /" >> $OUT/${g}_stamps.txt
done; done
echo "stamps $(( $(date +%s) - T0 )) s"
for r in 1 2 3; do for s in "${shapes[@]}"; do for x in old new; do
  ./v7$x $s --check none --reps 50 --warmup 10 --energy off 2>&1 | awk -v s="$s" -v x=$x -v r=$r '/^time +v7/{t=$3} /^ratio/{sub(/^ratio +/,""); c=$0} /^clock/{k=$3} END{print r" | "s" | "x" | "t" | "k" | "c}' >> $OUT/${g}_ab.txt
done; done; done
for x in old new; do ./v7$x 1000 1000 1000 --check both > /tmp/ck 2>&1; echo "$x check rc=$? $(grep -ciE 'PASS' /tmp/ck)" >> $OUT/${g}_ab.txt; done
echo "all $(( $(date +%s) - T0 )) s"
# CHECKS=1: the tree's own v7 (unstamped) under --check both on forced plans, then racecheck/synccheck
if [ "${CHECKS:-0}" = 1 ]; then
  while read -r tile M N K; do
    x=$(V7_TILE=$tile ./v7 $M $N $K --check both --baseline none --reps 3 2>&1); rc=$?
    echo "rc=$rc $tile $M $N $K | $(echo "$x" | grep -iE "^check|mismatch|error" | tr '\n' ' ' | cut -c1-200)" >> $OUT/${g}_checks.txt
  done <<'L'
128x256:dp 1000 1000 1000
128x256:sk 3000 2000 1500
128x256:split3 300 500 4000
128x256:dp:T 700 1300 600
128x144:dp 1000 1000 520
128x144:dp:T 1000 1000 520
128x176:sk 2100 1900 900
64x64:dp 333 444 555
64x64:dp:T 333 444 555
64x80:dp 250 700 900
64x80:dp:T 250 700 900
64x112:split2 100 300 2000
64x64q:dp:AB 456 240 1184
128x192:sk:A 600 3000 1000
128x256q:dp 2000 3000 700
64x256:dp 2048 3072 328
L
  for tool in racecheck synccheck; do for t in "128x144:dp:T 700 300 400" "64x80:dp 250 700 900" "128x256:sk 1500 1000 700"; do
    set -- $t; V7_TILE=$1 compute-sanitizer --tool $tool ./v7 $2 $3 $4 --check both --baseline none --reps 1 > /tmp/cs 2>&1
    echo "$tool rc=$? $t | $(grep -E "ERROR SUMMARY|hazard" /tmp/cs | tail -2 | tr '\n' ' ')" >> $OUT/${g}_checks.txt
  done; done
  echo "checks $(( $(date +%s) - T0 )) s"
fi
