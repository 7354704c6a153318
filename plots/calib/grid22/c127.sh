#!/bin/bash
# L2 traffic breakdown, v7 against cuBLAS's default, under ncu. usage: REV=.. bash scratch/run/c127.sh
set -u
T0=$(date +%s)
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,power.limit --format=csv,noheader > $OUT/${g}_gpu.txt
make -j16 GIT_REV=${REV:?} v7 > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
M="gpu__time_duration.sum,sm__cycles_active.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,l1tex__m_xbar2l1tex_read_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,sm__cycles_elapsed.avg.per_second"
for s in "1024 1024 1024" "672 472 800" "248 1328 1848"; do
  t=${s// /x}
  timeout 120 ncu --metrics $M --csv ./v7 $s --check none --baseline default --reps 2 --warmup 1 --energy off > /tmp/n_$t.csv 2>/tmp/n_$t.err
  echo "== $s rc=$? $(V7_PLAN=1 ./v7 $s --check none --baseline none --reps 1 2>&1 | grep 'v7 plan' | cut -c1-160)"
  python3 - /tmp/n_$t.csv <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; ix={k:i for i,k in enumerate(h)}
d=collections.OrderedDict()
for r in rows[1:]:
    key=(r[ix['ID']],r[ix['Kernel Name']][:60])
    d.setdefault(key,{})[r[ix['Metric Name']]]=r[ix['Metric Value']]
agg=collections.defaultdict(list)
for (i,k),m in d.items(): agg[k].append(m)
for k,ms in agg.items():
    m=ms[-1]
    print(k, "n=%d"%len(ms))
    for a,b in sorted(m.items()): print("    %-70s %s"%(a,b))
PY
  echo "ncu $(( $(date +%s) - T0 )) s"
done 2>&1 | tee $OUT/${g}_ncu_l2.txt
