#!/usr/bin/env bash
# Usage: plots/plot_random.sh IN.csv OUT_BASE [STEP]
#   OUT_BASE.png/.svg: the step's (default v7_stream_k) ratio to the best
#   cuBLASLt algorithm on each random shape against the problem's GFLOP
#   (2MNK / 1e9, log scale), one colour per GPU, with each GPU's geometric
#   mean in the key. Rows: make bench-random's (plots/random.csv), of the
#   aligned set of each GPU's newest seed (the seed of its latest row), the
#   latest row per shape. Columns are found by their header names.
set -euo pipefail
die() { echo "plot_random.sh: $*" >&2; exit 1; }
[[ $# -ge 2 && $# -le 3 ]] || die "usage: plots/plot_random.sh IN.csv OUT_BASE [STEP]"
in=$1 out=$2 step=${3:-v7_stream_k}
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not installed (e.g. apt-get install gnuplot-nox)"
[[ -f $in && -s $in ]] || die "$in: missing or empty"
dir=$(mktemp -d) gp=$(mktemp)
trap 'rm -rf "$dir" "$gp"' EXIT

# $dir/g<i>: "gflop ratio" per shape of GPU i; $dir/titles: "name (geomean x, n shapes)".
awk -F, -v dir="$dir" -v want="$step" '
  function need(c) { if (!(c in col)) { print "column " c " missing from the header" > "/dev/stderr"; bad = 1 } }
  { sub(/\r$/, "") }
  NR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    need("date"); need("gpu"); need("step"); need("M"); need("N"); need("K"); need("ratio_best")
    need("shape_seed"); need("shape_set")
    if (bad) exit 4
    next
  }
  $(col["step"]) != want || $(col["shape_set"]) != "aligned" || $(col["ratio_best"]) == "" { next }
  {
    g = $(col["gpu"]); d = $(col["date"]); sd = $(col["shape_seed"])
    if (!(g in gi)) { gi[g] = ++ng; gn[ng] = g }
    if (d >= last[g]) { last[g] = d; seed[g] = sd }
    k = g SUBSEP sd SUBSEP $(col["M"]) SUBSEP $(col["N"]) SUBSEP $(col["K"])
    if (!(k in when) || d >= when[k]) {
      when[k] = d; r[k] = $(col["ratio_best"])
      gf[k] = 2 * $(col["M"]) * $(col["N"]) * $(col["K"]) / 1e9
    }
  }
  END {
    if (ng == 0) { print "no " want " rows of the aligned set" > "/dev/stderr"; exit 3 }
    for (k in r) {
      split(k, p, SUBSEP)
      if (p[2] != seed[p[1]]) continue
      i = gi[p[1]]
      printf "%.6g %s\n", gf[k], r[k] > (dir "/g" i)
      n[i]++; lsum[i] += log(r[k])
    }
    for (i = 1; i <= ng; i++)
      printf "%s, seed %s: geometric mean %.3f over %d shapes\n", gn[i], seed[gn[i]], exp(lsum[i] / n[i]), n[i] > (dir "/titles")
    print ng
  }' "$in" >"$dir/ng" || die "$in: cannot read the rows (see above)"
ng=$(cat "$dir/ng")

for fmt in png svg; do
  {
    if [[ $fmt == png ]]; then echo "set terminal pngcairo size 1000,560 font 'sans,10'"
    else echo "set terminal svg size 1000,560 font 'sans,10'"; fi
    echo "set output '$out.$fmt'"
    echo "set title '$step against the best cuBLASLt algorithm on random shapes (make bench-random)' noenhanced"
    echo "set logscale x; set xlabel 'problem size (GFLOP, 2MNK/1e9)'; set ylabel 'ratio to best cuBLASLt (same run)'"
    echo "set grid; set key bottom right; set yrange [0:*]"
    echo "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'"
    printf "plot "
    for ((i = 1; i <= ng; i++)); do
      t=$(sed -n "${i}p" "$dir/titles" | sed "s/'/ /g")
      [[ $i -gt 1 ]] && printf ", "
      printf "'%s' using 1:2 with points pt 7 ps 0.9 title '%s' noenhanced" "$dir/g$i" "$t"
    done
    echo
  } >"$gp"
  gnuplot "$gp" || die "gnuplot failed"
done
cat "$dir/titles"
