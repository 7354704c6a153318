#!/bin/bash
# A/B: v7 at main's HEAD (scratch/run/ab8/old: hopper.cu, stream_k.h, tile_order.h) against branch cl8
# (ab8/new: clusters of 8), both built here whatever the tree holds; alternating, ROUNDS rounds over
# ab8/shapes.txt, --baseline none. Then --check both of the new build's plan on each shape and of forced
# clusters of 8, then racecheck / synccheck on two.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
F="-std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xcompiler -Wall,-Wextra"
rm -rf /tmp/old && mkdir -p /tmp/old && cp -r common v7_stream_k /tmp/old/ && cp -r scratch/run/ab8/old/* /tmp/old/
cp scratch/run/ab8/new/v7_stream_k/hopper.cu v7_stream_k/; cp scratch/run/ab8/new/common/*.h common/
nvcc $F -c /tmp/old/v7_stream_k/hopper.cu -o /tmp/old/old.o 2> /tmp/old/old.log &
make -j16 GIT_REV=${REV:-cl8} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
wait
objs=$(ls build/v7_stream_k/*.o build/common/*.o | grep -v "v7_stream_k/hopper.o")
nvcc -o v7old /tmp/old/old.o $objs -lcublasLt -lcublas -lm || { tail /tmp/old/old.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
for r in $(seq 1 ${ROUNDS:-2}); do while read -r M N K; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-420} ] && break
  for b in v7old v7; do
    x=$(V7_PLAN=1 ./$b $M $N $K --check none --baseline none --reps 30 --energy off 2>&1)
    echo "$r | $M $N $K | $b | $(echo "$x" | awk '/^time +v[0-9]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*[^(]*' | head -1)" >> $OUT/${g}_ab.txt
  done
done < scratch/run/ab8/shapes.txt; echo "round $r $(( $(date +%s) - T0 )) s"; done
while read -r M N K; do
  x=$(V7_PLAN=1 ./v7 $M $N $K --check both --baseline none --reps 3 2>&1); rc=$?
  echo "rc=$rc plan $M $N $K | $(echo "$x" | grep -iE "^check|mismatch|error" | tr '\n' ' ' | cut -c1-160) | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*[^(]*' | head -1)" >> $OUT/${g}_checks.txt
done < scratch/run/ab8/shapes.txt
for x in "128x256o:dp:AB 1000 2048 700" "128x64o:dp:BA:T 300 1800 900" "128x208o:dp:AB:T 1500 300 500" "128x144o:dp:AB 250 4000 333" "128x224o:dp:BA 2000 448 1000"; do
  set -- $x; y=$(V7_PLAN=1 V7_TILE=$1 ./v7 $2 $3 $4 --check both --baseline none --reps 3 2>&1); rc=$?
  echo "rc=$rc $x | $(echo "$y" | grep -iE "^check|mismatch|error" | tr '\n' ' ' | cut -c1-160) | $(echo "$y" | grep -o 'tiles [0-9]* x [0-9]*[^(]*' | head -1)" >> $OUT/${g}_checks.txt
done
echo "checks $(( $(date +%s) - T0 )) s"
for tool in racecheck synccheck; do for x in "128x112o:dp:AB 1000 800 500" "128x96o:dp:BA:T 300 1500 400"; do
  set -- $x; y=$(V7_TILE=$1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./v7 $2 $3 $4 --check random --baseline none --reps 0 2>&1); rc=$?
  echo "rc=$rc $tool $x | $(echo "$y" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" | head -3 | tr '\n' ' ')" >> $OUT/${g}_checks.txt
done; done
echo "all $(( $(date +%s) - T0 )) s"
