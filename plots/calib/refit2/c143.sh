#!/bin/bash
# Every candidate of v7 timed again with today's kernels (calib_v7 --all --mix), for a refit of the
# model's scalars together (plots/NOTES.md, twenty-sixth session, next 5): the 80 fit shapes, then
# the 80 held-out ones (the shapes of plots/calib/all/), 10 shapes a chunk, stopping before a chunk
# once DEADLINE seconds have passed. usage (device): REV=.. [SET=fit|heldout] [FROM=1] bash c143.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} build/tools/calib_v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
set_=${SET:-fit}; from=${FROM:-1}
for ((i = from; i <= 80; i += 10)); do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-480} ] && { echo "deadline: stopped before shape $i"; break; }
  sed -n "${i},$((i + 9))p" scratch/run/c143/${set_}.txt | build/tools/calib_v7 --all --mix >> $OUT/${g}_${set_}_all.csv 2>> $OUT/${g}_calib.err
  echo "shapes $i..$((i + 9)) $(( $(date +%s) - T0 )) s"
done
echo "all $(( $(date +%s) - T0 )) s"
