#!/bin/bash
# Every candidate of v7 (calib_v7 --all --mix) on the 12 worst shapes (v7 against the best cuBLASLt
# algorithm) of each of the aligned sweeps of seeds 20262220 (H100) and 20262210 (H200), at REV.
# usage (device): REV=.. bash c146.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} build/tools/calib_v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
for i in 1 7 13 19; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-400} ] && { echo "deadline: stopped before shape $i"; break; }
  sed -n "${i},$((i + 5))p" scratch/run/worst24.txt | build/tools/calib_v7 --all --mix >> $OUT/${g}_worst24_all.csv 2>> $OUT/${g}_calib.err
  echo "shapes $i..$((i + 5)) $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
