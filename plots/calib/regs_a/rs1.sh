#!/bin/bash
# A from registers past 256 columns: checks, then old (HEAD) vs new on 128 x 288 plans, and 128 x 320 against 128 x 256.
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
rm -rf /tmp/old && mkdir /tmp/old && cp -r . /tmp/old/ 2>/dev/null
cp scratch/run/old5/hopper.cu /tmp/old/v7_stream_k/hopper.cu; cp scratch/run/old5/stream_k.h /tmp/old/common/stream_k.h
( cd /tmp/old && make -j8 GIT_REV=old v7 > /tmp/bo.log 2>&1 ) &
make -j8 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -30 /tmp/b.log; exit 1; }
wait; [ -x /tmp/old/v7 ] || { tail -30 /tmp/bo.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
grep -A2 "Li128ELi\(288\|320\)E" build/v7_stream_k/hopper.ptxas.log | grep -o "matmul_kernel[^v]*\|[0-9]* bytes spill stores\|Used [0-9]* registers" | paste - - - > $OUT/${g}_ptxas.txt
grep -i serializ build/v7_stream_k/hopper.ptxas.log >> $OUT/${g}_ptxas.txt
c=$OUT/${g}_checks.txt
for a in "128x288:dp 3856 1064 3624" "128x288:dp:T 9296 456 2632" "128x288:sk 3000 2000 1000" "128x288:sk:T 1000 3001 1500" \
         "128x288:split3 500 600 3000" "128x320:dp:T 2000 1500 700" "128x320:dp 2000 1500 700" "128x320:sk:T 3000 2000 1000" \
         "128x320:sk 1001 999 1000" "128x320:split3:T 600 500 3000" "128x320:dp:T 333 1777 1234" "128x288:dp 1777 333 1234"; do
  set -- $a
  x=$(V7_PLAN=1 V7_TILE=$1 timeout 60 ./v7 $2 $3 $4 --check both --reps 0 --energy off --baseline none 2>&1)
  echo "$a rc=$? | $(echo "$x" | grep -E '^v7 plan|^check|FAIL|error' | cut -c1-120 | tr '\n' ' ')" >> $c
done
echo "checks $(( $(date +%s) - T0 )) s"
f=$OUT/${g}_ab.txt
ab() { while read -r M N K W P; do
  [ $(( $(date +%s) - T0 )) -gt ${LIM:-400} ] && break
  bins="new old"; [ $W = new ] && bins=new
  for b in $bins; do
    bin=./v7; [ $b = old ] && bin=/tmp/old/v7
    if [ "$P" = "-" ]; then x=$(V7_PLAN=1 timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1)
    else x=$(V7_PLAN=1 V7_TILE=$P timeout 30 $bin $M $N $K --check none --baseline none --reps 20 --energy off 2>&1); fi
    echo "$M $N $K | $b | $(echo "$x" | awk '/^time +v[67]/{t=$3} /^clock/{c=$3} END{print t, c}') | $P | $(echo "$x" | grep '^v7 plan' | sed 's/.*: tiles //' | cut -c1-60)" >> $f
  done
done < $1; }
for r in 1 2; do ab scratch/run/rs_ab.txt; echo "round $r $(( $(date +%s) - T0 )) s"; done
for s in "4096 14336 4096" "8192 8192 8192"; do
  for P in - 128x320:dp:T; do
    [ $(( $(date +%s) - T0 )) -gt 520 ] && break
    if [ $P = - ]; then x=$(./v7 $s --check none --reps 30 --warmup 10 --energy off --baseline best 2>&1)
    else x=$(V7_TILE=$P ./v7 $s --check none --reps 30 --warmup 10 --energy off --baseline best 2>&1); fi
    echo "$x" | grep -E "^time|^ratio|^clock" | sed "s/^/$s $P: /" >> $OUT/${g}_bench.txt
  done
done
echo "all $(( $(date +%s) - T0 )) s"
