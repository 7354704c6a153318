#!/bin/bash
# 2 x 2 quads: --check both on forced plans, racecheck on one, then c124's A/B (v7 against main's v7).
# usage (device): REV=.. SEED=.. bash scratch/run/c128.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
c=$OUT/${g}_checks.txt
for t in "64x64q:dp:AB 672 472 800" "64x64q:dp:AB 248 1328 1848" "64x64q:dp:AB 144 112 1408" "64x64q:dp:AB:T 200 600 1000" \
         "64x128q:dp:AB 632 1064 1896" "64x128q:dp:AB 1024 1024 1024" "64x128q:dp:AB 130 260 77" "128x96q:dp:AB 1024 1024 1024" \
         "128x128q:dp:AB 1000 1000 1000" "128x256q:dp:AB 1536 1536 512" "128x192q:dp:AB:T 700 900 1200" "128x64q:dp:AB 384 384 4096" \
         "64x64q:sk:AB 512 576 824" "64x64q:split3:AB 200 200 3000" "64x128q:skw:AB 4096 4096 256" "128x160q:sk:AB 3000 3000 800" \
         "64x64q:dp 672 472 800" "64x64q:dp:A 672 472 800" "64x128q:dp 1024 1024 1024" "64x64q:split2:A:T 100 300 2000"; do
  set -- $t; tile=$1; shift
  x=$(V7_TILE=$tile V7_PLAN=1 ./v7 $@ --check both --baseline none --reps 2 --energy off 2>&1); rc=$?
  echo "$tile $@ rc=$rc | $(echo "$x" | grep -E '^check|v7 plan' | tr '\n' ' ' | cut -c1-300)" >> $c
done
echo "checks $(( $(date +%s) - T0 )) s"
V7_TILE=64x64q:dp:AB timeout 120 compute-sanitizer --tool racecheck ./v7 200 136 600 --check none --baseline none --reps 1 --warmup 0 --energy off > /tmp/rc.txt 2>&1; echo "racecheck 64x64q:dp:AB 200 136 600 rc=$? $(grep -E 'ERROR SUMMARY|hazard' /tmp/rc.txt | head -3)" >> $c
V7_TILE=64x128q:sk:AB timeout 120 compute-sanitizer --tool synccheck ./v7 300 520 900 --check none --baseline none --reps 1 --warmup 0 --energy off > /tmp/sc.txt 2>&1; echo "synccheck 64x128q:sk:AB 300 520 900 rc=$? $(grep -E 'ERROR SUMMARY' /tmp/sc.txt | head -3)" >> $c
echo "sanitizers $(( $(date +%s) - T0 )) s"
DEADLINE=${DEADLINE:-540} REV=$REV SEED=$SEED bash scratch/run/c129.sh
echo "all $(( $(date +%s) - T0 )) s"
