#!/bin/bash
# make test-gpu STEPS=v7_stream_k at REV, then the awkward set (c152). usage (device): REV=.. bash scratch/run/c160.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
make -j16 GIT_REV=${REV:?} all build/tools/shapes build/broken/v4 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
make test-gpu STEPS=v7_stream_k GIT_REV=$REV > $OUT/${g}_testgpu_v7.log 2>&1; grep "gpu tests:" $OUT/${g}_testgpu_v7.log
echo "test $(( $(date +%s) - T0 )) s"
bash scratch/run/c152.sh
echo "c160 all $(( $(date +%s) - T0 )) s"
