#!/bin/bash
# Two aligned random sweeps at REV (c90 via c145): SEED1 (the one measured at 1adc1e3 this session), then SEED2 (fresh)
set -u
T0=$(date +%s)
REV=${REV:?} SEED=${SEED1:?} DEADLINE=230 bash scratch/run/c145.sh
mv $OUT/*_bench.txt /tmp/ 2>/dev/null
REV=$REV SEED=${SEED2:?} DEADLINE=200 bash scratch/run/c145.sh
echo "c158 all $(( $(date +%s) - T0 )) s"
