#!/usr/bin/env bash
# Usage: plots/plot.sh IN.csv OUTBASE   ->  OUTBASE.png, OUTBASE.svg
# Clustered bar chart of TFLOPS: one cluster per shape (MxNxK), one bar per
# step, plus a final "cuBLAS" bar (mean of that shape's cublas_tflops).
# CSV columns: date,git_rev,gpu,sm_clock_mhz,power_w,step,M,N,K,ms,tflops,
#              cublas_ms,cublas_tflops,ratio,check   (header line first), read
#              by position; later drivers append more columns (best_ms, ...,
#              energy), which this script ignores. cublas_* is cuBLAS's
#              default algorithm; rows without it (--baseline best) add no bar.
set -euo pipefail

die() { echo "plot.sh: $*" >&2; exit 1; }

[[ $# -eq 2 ]] || die "usage: plots/plot.sh IN.csv OUTBASE"
in=$1 out=$2
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not installed (e.g. apt-get install gnuplot-nox)"
[[ -f $in && -s $in ]] || die "$in: missing or empty"

tab=$(mktemp) gp=$(mktemp)
trap 'rm -f "$tab" "$gp"' EXIT

# Pivot long CSV -> wide whitespace table for gnuplot's histogram style:
#   shape "step1" ... "stepN" "cuBLAS"
# "?" marks a missing step (declared missing to gnuplot, so no bar is drawn
# rather than a misleading 0). If a (shape, step) pair repeats, the last row
# wins. stdout carries the metadata gnuplot needs: ncols, nshapes, ymax, title.
if ! meta=$(awk -F, -v tab="$tab" '
  { sub(/\r$/, "") }                    # tolerate CRLF files
  NR == 1 || NF < 13 { next }           # header, blank or truncated lines
  {
    rows++
    s = $7 "x" $8 "x" $9
    if (!(s in si)) { si[s] = ++ns; sn[ns] = s }
    if (!($6 in ti)) { ti[$6] = ++nt; tn[nt] = $6 }
    if ($11 != "") { v[si[s], ti[$6]] = $11; if ($11 + 0 > ymax) ymax = $11 + 0 }
    if ($13 != "") { cs[s] += $13; cn[s]++ }
    if (!($3 in gs)) { gs[$3] = 1; gpus = gpus (gpus == "" ? "" : " / ") $3 }
    if (date == "") date = substr($1, 1, 10)
  }
  END {
    if (!rows) exit 3
    printf "shape" > tab
    for (t = 1; t <= nt; t++) printf " \"%s\"", tn[t] > tab
    print " \"cuBLAS\"" > tab
    for (i = 1; i <= ns; i++) {
      s = sn[i]; printf "%s", s > tab
      for (t = 1; t <= nt; t++) printf " %s", ((i, t) in v ? v[i, t] : "?") > tab
      if (cn[s]) { c = cs[s] / cn[s]; if (c > ymax) ymax = c; printf " %.6g\n", c > tab }
      else print " ?" > tab
    }
    printf "%d\t%d\t%g\tfp16 matmul, C = A*B^T — %s — %s\n", nt + 2, ns, ymax, gpus, date
  }' "$in"); then
  die "$in: no data rows"
fi
IFS=$'\t' read -r ncols nshapes ymax title <<<"$meta"

# Script goes in a file and values are passed as ARGn (gnuplot -c) so that
# quotes in GPU names cannot break gnuplot's syntax.
cat >"$gp" <<'GP'
data = ARG1; out = ARG2; ncols = int(ARG3); nshapes = int(ARG4); ymax = real(ARG5)
set encoding utf8
set datafile missing "?"
set key autotitle columnhead   # so every plot clause (labels too) skips the header row
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set title ARG6 noenhanced
set ylabel "TFLOPS"
set yrange [0 : (ymax > 0 ? ymax * 1.12 : 1)]   # headroom for value labels
set grid ytics
set xrange [-0.6 : nshapes - 0.4]   # autoscale leaves an empty slot on the left
set xtics nomirror noenhanced scale 0
# Shape labels are long ("16384x4096x14336"): tilt them once there are a few.
if (nshapes > 3) { set xtics rotate by 20 right }
set key outside right top vertical noenhanced
# gnuplot's default palette repeats after 8 series; give 10 distinct step colours
# and make cuBLAS (always the last series) dark grey so it reads as the baseline.
colors = "#4e79a7 #f28e2b #e15759 #76b7b2 #59a14f #edc948 #b07aa1 #ff9da7 #9c755f #bab0ac"
do for [j=1:10] { set linetype j lc rgb word(colors, j) }
set linetype (ncols - 1) lc rgb "#404040"
# Clustered-histogram geometry: cluster k is centred on x = k, each of the
# nbars bars is 1/(nbars + gap) wide; used to place the value labels.
nbars = ncols - 1; gap = 1
xbar(k, i) = k + (i - 2 - (nbars - 1) / 2.0) / (nbars + gap)
lrot = (nshapes * nbars > 24) ? 90 : 0
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    if (strstrt(GPVAL_TERMINALS, "pngcairo")) { set terminal pngcairo size 1200,600 } \
    else { set terminal png size 1200,600 }
  } else { set terminal svg size 1200,600 }
  set output out . "." . fmt
  plot for [i=2:ncols] data using i:xtic(1) title columnhead(i), \
       for [i=2:ncols] data using (xbar($0, i)):(column(i)):(sprintf("%.0f", column(i))) \
           with labels rotate by lrot offset 0,(lrot ? 1.3 : 0.7) font ",8" notitle
  unset output
}
GP
gnuplot -c "$gp" "$tab" "$out" "$ncols" "$nshapes" "$ymax" "$title"
