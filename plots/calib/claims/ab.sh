#!/bin/bash
# A/B: old v7 (HEAD) against new, interleaved; ratio to cuBLAS best in each process
rm -rf /tmp/o && mkdir /tmp/o && cp -a Makefile common tools tests v7_stream_k /tmp/o/ && cp scratch/old/v7_stream_k/hopper.cu /tmp/o/v7_stream_k/ && cp scratch/old/common/stream_k.h /tmp/o/common/ && (cd /tmp/o && rm -rf build && make -j16 GIT_REV=x v7 > /tmp/o/b.log 2>&1) || { echo old build failed; tail /tmp/o/b.log; }
cp /tmp/o/v7 ./v7old
SH=${SHAPES:-"14104 12288 8520|9171 10096 12076|7136 9416 8984|8192 8192 8192|6144 6144 6144|4096 4096 4096|4888 4136 7160|11744 544 10608|2048 8192 28672|1024 1024 1024|512 512 8192|3744 1080 968"}
IFS='|' read -ra arr <<< "$SH"
for r in 1 2; do
for s in "${arr[@]}"; do
  for b in v7old v7; do
    o=$(./$b $s --check none --baseline best --reps 20 --energy off 2>&1)
    echo "$r | $s | $b | $(echo "$o" | awk '/^time +v7/{t=$3} /^ratio/{q=$2} /^clock/{c=$3} END{print t, q, c}')"
  done
done
done
