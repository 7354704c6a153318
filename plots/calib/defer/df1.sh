#!/bin/bash
# Deferred epilogue: old (scratch/run/old4) vs new v7 kernels, same plans, alternating, 2 rounds; checks; optional test-gpu.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
rm -rf /tmp/old && mkdir /tmp/old && cp -r . /tmp/old/ 2>/dev/null; cp scratch/run/old4/hopper.cu /tmp/old/v7_stream_k/hopper.cu
( cd /tmp/old && make -j8 GIT_REV=old v7 > /tmp/bo.log 2>&1 ) &
make -j8 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
wait; [ -x /tmp/old/v7 ] || { tail -30 /tmp/bo.log; exit 1; }
echo "any spill: $(grep -cE "[1-9][0-9]* bytes (stack frame|spill)" build/v7_stream_k/hopper.ptxas.log)" > $OUT/${g}_ptxas.txt
echo "build $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
for round in 1 2; do while read -r M N K P; do
  [ $(( $(date +%s) - T0 )) -gt ${LIM:-400} ] && break
  for b in new old; do
    bin=./v7; [ $b = old ] && bin=/tmp/old/v7
    if [ "$P" = "-" ]; then x=$(V7_PLAN=1 timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
    else x=$(V7_PLAN=1 V7_TILE=$P timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1); fi
    echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
  done
done < ${S:-scratch/run/df_shapes.txt}; echo "round $round $(( $(date +%s) - T0 )) s"; done
C=$OUT/${g}_checks.txt
for sh in "9208 15384 360" "1000 3000 520" "3333 1111 1000" "2008 1760 5440" "6800 9192 384" "12896 392 264" "2999 5001 777" "1264 4888 568"; do
  x=$(V7_PLAN=1 timeout 60 ./v7 $sh --check both --reps 0 --energy off 2>&1); echo "$sh rc=$? $(echo "$x" | grep -iE '^check|error|fail|v7 plan' | cut -c1-160 | tr '\n' ' ')" >> $C
done
for sh in "128x256:dp 2000 3000 1000" "128x224:dp:T 3001 2999 640" "128x176:dp 1500 2500 900" "128x240:dp:A 2100 1900 512" "128x96:dp 3000 700 1000" "128x256:dp:T 3001 2999 640" "128x256:dp 4000 4000 128" "128x224:dp:T 5000 3000 192" "128x208:dp 4100 3900 64" "128x256:dp:T 4100 3900 200"; do
  set -- $sh; x=$(V7_PLAN=1 V7_TILE=$1 timeout 60 ./v7 $2 $3 $4 --check both --reps 0 --energy off 2>&1); echo "$sh rc=$? $(echo "$x" | grep -iE '^check|error|fail|v7 plan' | cut -c1-160 | tr '\n' ' ')" >> $C
done
echo "checks $(( $(date +%s) - T0 )) s"
[ -n "${NOTG:-}" ] || timeout $(( 575 - ($(date +%s) - T0) )) make -j16 test-gpu STEPS=v7_stream_k GIT_REV=$REV > /tmp/tg.log 2>&1; echo "test-gpu rc=$?"
grep "gpu tests:" /tmp/tg.log; grep -E "^FAIL" /tmp/tg.log | head; cp /tmp/tg.log $OUT/${g}_test_gpu.log 2>/dev/null
echo "all $(( $(date +%s) - T0 )) s"
