#!/bin/bash
# v7 (working tree) against v7 at bdb30cf (scratch/run/h_base.cu + stream_k_base.h), alternating, on the shapes of
# build/tools/shapes SEED 40 aligned (and extra named ones); usage (device): REV=.. SEED=.. bash scratch/run/c115.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
mkdir -p /tmp/x && tar --exclude=./build --exclude=./scratch -cf - . | tar -C /tmp/x -xf -
cp scratch/run/h_base.cu /tmp/x/v7_stream_k/hopper.cu; cp scratch/run/stream_k_base.h /tmp/x/common/stream_k.h
make -j8 GIT_REV=${REV:?} v7 build/tools/shapes > /tmp/b.log 2>&1 &
(cd /tmp/x && make -j8 GIT_REV=base v7 > /tmp/b1.log 2>&1) &
wait; cp /tmp/x/v7 ./v7b || exit 1
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab_l2.txt
{ for s in "672 472 800" "248 1328 1848" "512 576 824" "632 1064 1896" "144 112 1408" "1024 1024 1024" "728 328 2160" "112 552 792" "1880 1304 3528" "368 1704 2760"; do echo "$s"; done; build/tools/shapes $SEED 40 aligned; echo "4096 4096 4096"; echo "8192 8192 8192"; } > /tmp/s.txt
while read -r s; do
  [ $(( $(date +%s) - T0 )) -gt ${DEADLINE:-560} ] && break
  for b in v7 v7b; do
    x=$(V7_PLAN=1 ./$b $s --check none --baseline default --reps 30 --energy off 2>&1)
    echo "$s | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^time +cuBLAS \(default\)/{cb=$4} /^ratio/{q=$2} /^clock/{c=$3} END{print t, cb, q, c}') | $(echo "$x" | grep -o 'tiles [0-9]* x [0-9]*.*' | sed 's/pairs share.*on \([0-9]*\) clusters, \([0-9]*\) stream-K.*whole/\1 cl \2 sk/')" >> $f
  done
done < /tmp/s.txt
echo "all $(( $(date +%s) - T0 )) s"
