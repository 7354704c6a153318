#!/bin/bash
# Experiment: 8-CTA clusters sharing both operands (branch cl8). Overlays scratch/run/cl8/ onto the tree,
# builds v7, checks each forced plan (--check both), then times v7's own plan and the forced 8-CTA plan,
# alternating, ROUNDS rounds, each against cuBLAS's default and best in the same process.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
cp scratch/run/cl8/hopper.cu v7_stream_k/hopper.cu; cp scratch/run/cl8/stream_k.h scratch/run/cl8/tile_order.h common/
make -j16 GIT_REV=cl8 v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
cat > /tmp/list <<'L'
128x112o:dp:AB 3664 416 3936
128x80o:dp:AB 3600 264 1584
128x160o:dp:BA:T 2272 864 7400
128x96o:dp:BA 7152 176 1448
128x128o:dp:AB 1040 1512 1192
128x128o:dp:AB 2344 456 2712
128x96o:dp:BA 2872 168 2808
128x128o:dp:AB 1024 1024 1024
128x160o:dp:AB 1840 544 1248
L
for x in "128x128o:dp:AB 4096 4096 1024" "128x128o:dp:BA 4096 4096 1024" "128x96o:dp:AB:T 1000 3000 700"; do echo "$x" >> /tmp/ck; done
cat /tmp/list >> /tmp/ck
while read -r tile M N K; do
  x=$(V7_PLAN=1 V7_TILE=$tile ./v7 $M $N $K --check both --baseline none --reps 3 2>&1); rc=$?
  echo "rc=$rc $tile $M $N $K | $(echo "$x" | grep -iE "^check|mismatch|error|v7 plan" | tr '\n' ' ' | cut -c1-400)" >> $OUT/${g}_checks.txt
done < /tmp/ck
echo "checks $(( $(date +%s) - T0 )) s"
for r in $(seq 1 ${ROUNDS:-2}); do while read -r tile M N K; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-500} ] && break
  for v in plan $tile; do
    if [ $v = plan ]; then x=$(V7_PLAN=1 ./v7 $M $N $K --check none --reps 30 --energy off 2>&1)
    else x=$(V7_PLAN=1 V7_TILE=$v ./v7 $M $N $K --check none --reps 30 --energy off 2>&1); fi
    echo "$r | $M $N $K | $v | $(echo "$x" | awk '/^time +v[0-9]/{t=$3} /^clock/{c=$3} END{print t, c}') | $(echo "$x" | grep -E '^ratio' | tr -s ' ' | tr '\n' ' ') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*[^(]*' | head -1)" >> $OUT/${g}_cl8.txt
  done
done < /tmp/list; echo "round $r $(( $(date +%s) - T0 )) s"; done
echo "all $(( $(date +%s) - T0 )) s"
