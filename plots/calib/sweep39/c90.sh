#!/bin/bash
# usage (device): REV=.. SEED=.. FROM=1 TO=40 TEST=0|1 AWK=0|1 STEPS="v5_clc v6_cluster v7_stream_k" DEADLINE=540 bash scratch/run/c90.sh
# the random sweep's loop (plots/random.sh, same command line and CSV row), over shapes FROM..TO of
# build/tools/shapes SEED 40 aligned, stopping before a shape once DEADLINE seconds have passed
set -u
T0=$(date +%s)
REV=${REV:?}; SEED=${SEED:?}; FROM=${FROM:-1}; TO=${TO:-40}; DEADLINE=${DEADLINE:-540}
STEPS=${STEPS:-"v5_clc v6_cluster v7_stream_k"}; SET=${SET:-aligned}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/gpu.txt
make -j16 GIT_REV=$REV all build/tools/shapes > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build done $(( $(date +%s) - T0 )) s"
if [ "${TEST:-0}" = 1 ]; then
  make test-gpu STEPS=v7_stream_k GIT_REV=$REV > $OUT/testgpu_v7.log 2>&1; grep "gpu tests:" $OUT/testgpu_v7.log
  echo "test done $(( $(date +%s) - T0 )) s"
fi
csv=$OUT/random_rows_${FROM}.csv; tmp=/tmp/row.csv
build/tools/shapes $SEED 40 $SET | sed -n "${FROM},${TO}p" > /tmp/shapes.txt
i=$FROM; last=0
while read -r M N K; do
  if [ $(( $(date +%s) - T0 )) -gt $DEADLINE ]; then echo "deadline: stopped before shape $i"; break; fi
  for step in $STEPS; do
    rm -f $tmp
    timeout 300 ./${step%%_*} $M $N $K --check none --reps 30 --warmup 10 --energy off --csv $tmp | grep -E '^ratio' | sed "s/^/$step $M $N $K: /"
    echo "$(tail -n 1 $tmp),$SEED,$SET" >> $csv
  done
  last=$i; i=$((i+1))
done < /tmp/shapes.txt
echo "random: shapes $FROM..$last done $(( $(date +%s) - T0 )) s"
if [ "${AWK:-0}" = 1 ]; then
  cp plots/awkward.csv /tmp/before.csv
  make bench-awkward GIT_REV=$REV > $OUT/awkward.log 2>&1; echo awkward rc=$?
  tail -n +$(( $(wc -l < /tmp/before.csv) + 1 )) plots/awkward.csv > $OUT/awkward_new_rows.csv; wc -l < $OUT/awkward_new_rows.csv
  echo "awkward done $(( $(date +%s) - T0 )) s"
fi
