#!/usr/bin/env bash
# Usage: plots/plot.sh IN.csv TFLOPS_BASE RATIO_BASE
#   TFLOPS_BASE.png/.svg: clustered bars of TFLOPS, one cluster per shape
#     (MxNxK), one bar per step plus a final "cuBLAS" bar (mean of that shape's
#     cublas_tflops on that GPU).
#   RATIO_BASE.png/.svg: each step's ratio to cuBLAS measured in the same run
#     (the CSV's ratio column), per shape, with a line at 1.0; where the CSV
#     has a ratio_best column (the step against the best cuBLASLt algorithm),
#     it is drawn as a marker on each bar.
# The card is power-limited, so absolute TFLOPS mix clock states across runs;
# the ratio compares two kernels that saw the same clock. Each GPU (the gpu
# column) gets its own panel in both charts: results of different GPUs are
# never averaged together.
# Columns are found by their header names (date, gpu, step, M, N, K, tflops,
# cublas_tflops, ratio; optional ratio_best), so columns added later, at the
# end or elsewhere, do not matter.
set -euo pipefail

die() { echo "plot.sh: $*" >&2; exit 1; }

[[ $# -eq 3 ]] || die "usage: plots/plot.sh IN.csv TFLOPS_BASE RATIO_BASE"
in=$1 out_tflops=$2 out_ratio=$3
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not installed (e.g. apt-get install gnuplot-nox)"
[[ -f $in && -s $in ]] || die "$in: missing or empty"

dir=$(mktemp -d) gp=$(mktemp)
trap 'rm -rf "$dir" "$gp"' EXIT

# Pivot the long CSV into whitespace tables for gnuplot's histogram style,
# one pair per GPU g (1..ngpus, in order of first appearance):
#   $dir/t<g>: shape "step1" ... "stepN" "cuBLAS"           (TFLOPS)
#   $dir/r<g>: shape "step1" ... "stepN" [best1 ... bestN]  (ratios)
# Steps and shapes are the union over all GPUs, in order of first
# appearance, so every panel has the same bars in the same colours. "?"
# marks a missing value (no bar rather than a misleading 0). If a (GPU,
# shape, step) repeats, the last row wins. $dir/titles has one panel title
# per line; stdout carries: ngpus nsteps nshapes ymax_tflops ymax_ratio best.
if ! meta=$(awk -F, -v dir="$dir" '
  function need(c) { if (!(c in col)) { print "column " c " missing from the header" > "/dev/stderr"; bad = 1 } }
  function v(c) { return $(col[c]) }
  { sub(/\r$/, "") }                    # tolerate CRLF files
  NR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    need("gpu"); need("step"); need("M"); need("N"); need("K"); need("tflops")
    need("cublas_tflops"); need("ratio")
    if (bad) exit 4
    best = ("ratio_best" in col)
    for (c in col) if (col[c] > ncol) ncol = col[c]
    next
  }
  NF < ncol { next }                    # blank or truncated lines
  {
    rows++
    g = v("gpu"); s = v("M") "x" v("N") "x" v("K"); t = v("step")
    if (!(g in gi)) { gi[g] = ++ng; gn[ng] = g }
    if (!(s in si)) { si[s] = ++ns; sn[ns] = s }
    if (!(t in ti)) { ti[t] = ++nt; tn[nt] = t }
    k = gi[g] SUBSEP si[s] SUBSEP ti[t]
    if (v("tflops") != "") { tf[k] = v("tflops"); if (tf[k] + 0 > ymax) ymax = tf[k] + 0 }
    if (v("ratio") != "") { ra[k] = v("ratio"); if (ra[k] + 0 > rmax) rmax = ra[k] + 0 }
    if (best && v("ratio_best") != "") { rb[k] = v("ratio_best"); if (rb[k] + 0 > rmax) rmax = rb[k] + 0 }
    if (v("cublas_tflops") != "") { cs[gi[g], si[s]] += v("cublas_tflops"); cn[gi[g], si[s]]++ }
    if (!(g in gd) && "date" in col) gd[g] = substr(v("date"), 1, 10)
  }
  END {
    if (bad) exit 4
    if (!rows) exit 3
    for (g = 1; g <= ng; g++) {
      ft = dir "/t" g; fr = dir "/r" g
      printf "shape" > ft; printf "shape" > fr
      for (t = 1; t <= nt; t++) { printf " \"%s\"", tn[t] > ft; printf " \"%s\"", tn[t] > fr }
      if (best) for (t = 1; t <= nt; t++) printf " \"%s (best)\"", tn[t] > fr
      print " \"cuBLAS\"" > ft; print "" > fr
      for (i = 1; i <= ns; i++) {
        printf "%s", sn[i] > ft; printf "%s", sn[i] > fr
        for (t = 1; t <= nt; t++) {
          k = g SUBSEP i SUBSEP t
          printf " %s", (k in tf ? tf[k] : "?") > ft
          printf " %s", (k in ra ? ra[k] : "?") > fr
        }
        if (best) for (t = 1; t <= nt; t++) { k = g SUBSEP i SUBSEP t; printf " %s", (k in rb ? rb[k] : "?") > fr }
        if (cn[g, i]) { c = cs[g, i] / cn[g, i]; if (c > ymax) ymax = c; printf " %.6g\n", c > ft }
        else print " ?" > ft
        print "" > fr
      }
      close(ft); close(fr)
      print gn[g] (gd[gn[g]] != "" ? " — " gd[gn[g]] : "") > (dir "/titles")
    }
    printf "%d %d %d %g %g %d\n", ng, nt, ns, ymax, rmax, best
  }' "$in"); then
  die "$in: no data rows (or a required column is missing)"
fi
read -r ngpus nsteps nshapes ymax rmax best <<<"$meta"

# Script in a file, values passed as ARGn (gnuplot -c) and the titles read
# from a file, so that quotes in GPU names cannot break gnuplot's syntax.
cat >"$gp" <<'GP'
dir = ARG1; ngpus = int(ARG2); nsteps = int(ARG3); nshapes = int(ARG4)
ymax = real(ARG5); rmax = real(ARG6); best = int(ARG7)
title(g) = system(sprintf("sed -n %dp '%s/titles'", g, dir))
set encoding utf8
set datafile missing "?"
set key autotitle columnhead   # so every plot clause (labels too) skips the header row
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set xrange [-0.6 : nshapes - 0.4]   # autoscale leaves an empty slot on the left
set xtics nomirror noenhanced scale 0
# Shape labels are long ("16384x4096x14336"): tilt them once there are a few.
if (nshapes > 3) { set xtics rotate by 20 right }
set key outside right top vertical noenhanced
# gnuplot's default palette repeats after 8 series; give 10 distinct step colours
# and make cuBLAS (always the last series of the TFLOPS chart) dark grey.
colors = "#4e79a7 #f28e2b #e15759 #76b7b2 #59a14f #edc948 #b07aa1 #ff9da7 #9c755f #bab0ac"
do for [j=1:10] { set linetype j lc rgb word(colors, j) }
set linetype (nsteps + 1) lc rgb "#404040"
# Clustered-histogram geometry: cluster k is centred on x = k, each of the
# nbars bars is 1/(nbars + gap) wide; used to place labels and markers.
gap = 1
xbar(k, i, nbars) = k + (i - 2 - (nbars - 1) / 2.0) / (nbars + gap)
lrot(nbars) = (nshapes * nbars > 24) ? 90 : 0
start(fmt) = fmt eq "png" ? \
    (strstrt(GPVAL_TERMINALS, "pngcairo") ? "set terminal pngcairo size 1200," : "set terminal png size 1200,") : \
    "set terminal svg size 1200,"
do for [fmt in "png svg"] {
  # TFLOPS: one panel per GPU, all on one scale.
  eval start(fmt) . sprintf("%d", 80 + 420 * ngpus)
  set output ARG8 . "." . fmt
  set multiplot layout ngpus, 1 title "fp16 matmul, C = A*B^T: TFLOPS per step and cuBLAS (absolute: clocks differ between runs)" noenhanced
  set ylabel "TFLOPS"
  set yrange [0 : (ymax > 0 ? ymax * 1.12 : 1)]   # headroom for value labels
  nb = nsteps + 1
  do for [g=1:ngpus] {
    set title title(g) noenhanced
    data = sprintf("%s/t%d", dir, g)
    plot for [i=2:nb+1] data using i:xtic(1) title columnhead(i), \
         for [i=2:nb+1] data using (xbar($0, i, nb)):(column(i)):(sprintf("%.0f", column(i))) \
             with labels rotate by lrot(nb) offset 0,(lrot(nb) ? 1.3 : 0.7) font ",8" notitle
  }
  unset multiplot
  unset output

  # Ratio to cuBLAS of the same run: one panel per GPU, a line at 1.0.
  eval start(fmt) . sprintf("%d", 80 + 420 * ngpus)
  set output ARG9 . "." . fmt
  set multiplot layout ngpus, 1 title ("fp16 matmul: step / cuBLAS, same run (> 1: faster than cuBLAS)" . (best ? "; markers: step / best cuBLASLt algorithm" : "")) noenhanced
  set ylabel "ratio to cuBLAS"
  set yrange [0 : (rmax > 1 ? rmax : 1) * 1.15]
  set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb "#404040" front
  nb = nsteps
  do for [g=1:ngpus] {
    set title title(g) noenhanced
    data = sprintf("%s/r%d", dir, g)
    if (best) {
      plot for [i=2:nb+1] data using i:xtic(1) title columnhead(i), \
           for [i=2:nb+1] data using (xbar($0, i, nb)):(column(i)):(sprintf("%.2f", column(i))) \
               with labels rotate by lrot(nb) offset 0,(lrot(nb) ? 1.6 : 0.7) font ",8" notitle, \
           for [i=2:nb+1] data using (xbar($0, i, nb)):(column(i + nb)) \
               with points pt 9 ps 1.3 lc rgb "black" title (i == 2 ? "vs best cuBLASLt" : "")
    } else {
      plot for [i=2:nb+1] data using i:xtic(1) title columnhead(i), \
           for [i=2:nb+1] data using (xbar($0, i, nb)):(column(i)):(sprintf("%.2f", column(i))) \
               with labels rotate by lrot(nb) offset 0,(lrot(nb) ? 1.6 : 0.7) font ",8" notitle
    }
  }
  unset arrow 1
  unset multiplot
  unset output
}
GP
gnuplot -c "$gp" "$dir" "$ngpus" "$nsteps" "$nshapes" "$ymax" "$rmax" "$best" "$out_tflops" "$out_ratio"
