#!/usr/bin/env bash
# Renders README.md's tables of measured figures from the committed CSVs, so
# that no number in them is copied by hand (make readme rewrites README.md in
# place; make test renders a copy and fails where the two differ).
#
# Usage: tools/readme_tables.sh [IN.md [OUT.md]]   (default README.md, in place)
#
# Each table lives between two marker lines, which are kept:
#   <!-- table:ladder -->  ... <!-- /table:ladder -->   8192^3, every step, each GPU
#                                                      (plots/results.csv)
#   <!-- table:random -->  ... <!-- /table:random -->   random shapes, v4-v7: geometric
#                                                      means and worst (plots/random.csv)
#   <!-- table:awkward --> ... <!-- /table:awkward -->  small, skinny, odd shapes
#                                                      (plots/awkward.csv)
#   <!-- table:steps -->   ... <!-- /table:steps -->    the ladder: each row's words are
#                                                      kept from IN.md, the gain at 8192^3
#                                                      (results.csv) and the size of
#                                                      diff -u between neighbouring
#                                                      hopper.cu are rendered
# Blocks absent from IN.md are skipped; an unknown or unclosed marker is an
# error. Every figure comes from the LATEST row (by the date column; a later
# line wins a tie) of its GPU, step and shape, because the CSVs keep every
# earlier run as the lab notebook's record (plots/NOTES.md).
#
# RESULTS_CSV, RANDOM_CSV, AWKWARD_CSV override the CSV paths (the tests point
# them at sample data). Columns are found by header name.
set -eu -o pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
in=${1:-README.md}
out=${2:-$in}
RESULTS_CSV=${RESULTS_CSV:-plots/results.csv}
RANDOM_CSV=${RANDOM_CSV:-plots/random.csv}
AWKWARD_CSV=${AWKWARD_CSV:-plots/awkward.csv}

die() { echo "readme_tables.sh: $*" >&2; exit 1; }
[ -f "$in" ] || die "$in: no such file"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# latest CSV KEYS OUT: for each distinct value of the columns KEYS (comma
# list), the latest row's columns OUT, tab-separated; nothing when the CSV
# is missing or has no data rows. Dies when a column is missing.
latest() {
    [ -s "$1" ] || return 0
    awk -F, -v keys="$2" -v outs="$3" -v file="$1" '
        { sub(/\r$/, "") }
        NR == 1 {
            for (i = 1; i <= NF; i++) col[$i] = i
            nk = split(keys, k, ","); no = split(outs, o, ",")
            for (i = 1; i <= nk; i++) want[k[i]] = 1
            for (i = 1; i <= no; i++) want[o[i]] = 1
            want["date"] = 1
            for (c in want) if (!(c in col)) miss = miss " " c
            if (miss != "") { print file ": column(s)" miss " missing" > "/dev/stderr"; exit 3 }
            next
        }
        NF < 2 { next }
        {
            key = ""
            for (i = 1; i <= nk; i++) key = key SUBSEP $(col[k[i]])
            if (!(key in date) || $(col["date"]) >= date[key]) {
                date[key] = $(col["date"])
                line = $(col[o[1]])
                for (i = 2; i <= no; i++) line = line "\t" $(col[o[i]])
                row[key] = line
                if (!(key in first)) first[key] = NR
                ord[key] = first[key]
            }
        }
        END { for (key in row) print ord[key] "\t" row[key] }
    ' "$1" | sort -n | cut -f2-
}

# Helpers shared by the table programs: insertion sort (mawk has no asort),
# step order by number (v10 after v9), GPU names without the vendor.
AWK_LIB='
function stepnum(s) { return substr(s, 2) + 0 }
function sortv(a, n, bynum,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && (bynum ? stepnum(a[j]) > stepnum(t) : a[j] > t); j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
function gpu_label(g) { sub(/^NVIDIA /, "", g); sub(/ .*/, "", g); return g }  # "H100", "H200"
function short(s) { sub(/_.*/, "", s); return s }
function r3(x) { return x == "" ? "-" : sprintf("%.3f", x) }
'

# ---- table:ladder: 8192^3 ----------------------------------------------------
latest "$RESULTS_CSV" gpu,step,M,N,K gpu,step,M,N,K,ratio,ratio_best,tflops |
    awk -F'\t' '$3 == 8192 && $4 == 8192 && $5 == 8192' >"$tmp/big"
awk -F'\t' "$AWK_LIB"'
    { if (!($1 in seen_g)) { seen_g[$1] = 1; g[++ng] = $1 }
      if (!($2 in seen_s)) { seen_s[$2] = 1; s[++ns] = $2 }
      r[$1, $2] = $6; b[$1, $2] = $7; t[$1, $2] = $8 }
    END {
        if (ns == 0) { print "*No 8192 x 8192 x 8192 rows in plots/results.csv yet: `make bench` writes them.*"; exit }
        sortv(g, ng, 0); sortv(s, ns, 1)
        h = "| step"; l = "|---"
        for (j = 1; j <= ng; j++) {
            h = h " | " gpu_label(g[j]) ": ratio to cuBLAS default | to best cuBLASLt | TFLOPS"
            l = l "|---:|---:|---:"
        }
        print h " |"; print l "|"
        for (i = 1; i <= ns; i++) {
            line = "| " s[i]
            for (j = 1; j <= ng; j++)
                if ((g[j], s[i]) in r) line = line " | " r3(r[g[j], s[i]]) " | " r3(b[g[j], s[i]]) " | " (t[g[j], s[i]] == "" ? "-" : sprintf("%.0f", t[g[j], s[i]]))
                else line = line " | - | - | -"
            print line " |"
        }
    }' "$tmp/big" >"$tmp/ladder"

# ---- table:random: per GPU and shape set, the latest seed --------------------
latest "$RANDOM_CSV" gpu,shape_seed,shape_set,step,M,N,K gpu,shape_set,shape_seed,step,date,ratio,ratio_best >"$tmp/rnd"
awk -F'\t' "$AWK_LIB"'
    { set = $1 SUBSEP $2; seed = set SUBSEP $3
      if (!(seed in newest) || $5 > newest[seed]) newest[seed] = $5
      if (!(set in best_date) || newest[seed] > best_date[set]) { best_date[set] = newest[seed]; pick[set] = $3 }
      n++; G[n] = $1; S[n] = $2; D[n] = $3; T[n] = $4; R[n] = $6; B[n] = $7 }
    END {
        if (n == 0) { print "*Not measured yet: `make bench-random` writes plots/random.csv, and `make readme` puts its summary here.*"; exit }
        for (i = 1; i <= n; i++) {
            if (D[i] != pick[G[i], S[i]]) continue
            k = G[i] SUBSEP S[i] SUBSEP T[i]
            cnt[k]++
            if (R[i] != "") { lr[k] += log(R[i]); nr[k]++ }
            if (B[i] != "") { lb[k] += log(B[i]); nb[k]++; if (!(k in mn) || B[i] + 0 < mn[k]) mn[k] = B[i] + 0 }
        }
        # one row per GPU and shape set, one column per step: geometric mean
        # to the best cuBLASLt algorithm / to the default one, worst to the best
        for (i = 1; i <= n; i++) {
            if (D[i] != pick[G[i], S[i]]) continue
            if (!(T[i] in seen_t)) { seen_t[T[i]] = 1; t[++nt] = T[i] }
            if (!((G[i], S[i]) in seen_r)) { seen_r[G[i], S[i]] = 1; rk[++nr_] = G[i] "\t" S[i] }
        }
        sortv(t, nt, 1); sortv(rk, nr_, 0)
        h = "| GPU | shapes (seed) | count"; l = "|---|---|---:"
        for (j = 1; j <= nt; j++) { h = h " | " short(t[j]); l = l "|---:" }
        print h " |"; print l "|"
        for (i = 1; i <= nr_; i++) {
            split(rk[i], f, "\t")
            most = 0
            for (j = 1; j <= nt; j++) { k = f[1] SUBSEP f[2] SUBSEP t[j]; if ((k in cnt) && cnt[k] > most) most = cnt[k] }
            line = "| " gpu_label(f[1]) " | " f[2] " (" pick[f[1], f[2]] ") | " most
            for (j = 1; j <= nt; j++) {
                k = f[1] SUBSEP f[2] SUBSEP t[j]
                if (!(k in cnt)) { line = line " | -"; continue }
                line = line " | " (nb[k] ? sprintf("%.3f", exp(lb[k] / nb[k])) : "-") " / " \
                    (nr[k] ? sprintf("%.3f", exp(lr[k] / nr[k])) : "-") ", worst " ((k in mn) ? sprintf("%.3f", mn[k]) : "-") \
                    (cnt[k] != most ? " (" cnt[k] " shapes)" : "")
            }
            print line " |"
        }
    }' "$tmp/rnd" >"$tmp/random"

# ---- table:awkward: shape x (step, GPU) --------------------------------------
latest "$AWKWARD_CSV" gpu,step,M,N,K gpu,step,M,N,K,ratio,ratio_best >"$tmp/awk_rows"
awk -F'\t' "$AWK_LIB"'
    { shape = $3 " x " $4 " x " $5
      if (!(shape in seen_x)) { seen_x[shape] = 1; x[++nx] = shape }
      if (!($1 in seen_g)) { seen_g[$1] = 1; g[++ng] = $1 }
      if (!($2 in seen_s)) { seen_s[$2] = 1; s[++ns] = $2 }
      v[shape, $2, $1] = r3($6) " (" r3($7) ")" }
    END {
        if (nx == 0) { print "*Not measured yet: `make bench-awkward` writes plots/awkward.csv.*"; exit }
        sortv(g, ng, 0); sortv(s, ns, 1)
        h = "| shape"; l = "|---"
        for (i = 1; i <= ns; i++) for (j = 1; j <= ng; j++) { h = h " | " short(s[i]) " " gpu_label(g[j]); l = l "|---:" }
        print h " |"; print l "|"
        for (m = 1; m <= nx; m++) {
            line = "| " x[m]
            for (i = 1; i <= ns; i++) for (j = 1; j <= ng; j++)
                line = line " | " (((x[m], s[i], g[j]) in v) ? v[x[m], s[i], g[j]] : "-")
            print line " |"
        }
    }' "$tmp/awk_rows" >"$tmp/awkward"

# ---- table:steps: words from IN.md, gain and diff size rendered --------------
# Steps: the directories vN_name holding a hopper.cu, in number order.
steps=$(for d in v[0-9]*_*/; do [ -f "$d/hopper.cu" ] && echo "${d%/}"; done | awk -F_ '{ print substr($1, 2) "\t" $0 }' | sort -n | cut -f2)
prev=
for s in $steps; do
    if [ -n "$prev" ]; then
        # lines added and removed by the step, as make diff shows them
        d=$(diff -u "$prev/hopper.cu" "$s/hopper.cu" | awk 'NR <= 2 { next } /^\+/ { a++ } /^-/ { r++ } END { printf "+%d -%d", a, r }' || true)
    else
        d="($(grep -c '' "$s/hopper.cu") lines)"
    fi
    printf '%s\t%s\n' "$s" "$d"
    prev=$s
done >"$tmp/diffs"
awk '/^<!-- table:steps -->$/ { on = 1; next } /^<!-- \/table:steps -->$/ { on = 0 } on' "$in" >"$tmp/steps_words"
awk -F'\t' "$AWK_LIB"'
    FILENAME == ARGV[1] { r[$1, $2] = $6; if (!($1 in seen_g)) { seen_g[$1] = 1; g[++ng] = $1 }; next }
    FILENAME == ARGV[2] {   # the words of each row, by the step named in its first cell
        if ($0 !~ /^\| /) next
        n = split($0, c, " \\| ")
        if (n < 5 || !match(c[1], /v[0-9]+/)) next
        id = substr(c[1], RSTART, RLENGTH); cell1[id] = substr(c[1], 3); idea[id] = c[2]; limit[id] = c[3]
        next
    }
    {
        ns++; step[ns] = $1; diff[ns] = $2
    }
    END {
        sortv(g, ng, 0)
        gl = ""; for (j = 1; j <= ng; j++) gl = gl (j > 1 ? " / " : "") gpu_label(g[j])
        print "| step | the one idea | what limited the step before | gain at 8192^3 (" gl ") | diff -u of hopper.cu |"
        print "|---|---|---|---|---:|"
        for (i = 1; i <= ns; i++) {
            id = short(step[i])
            gain = ""
            for (j = 1; j <= ng; j++) {
                a = (i > 1) ? r[g[j], step[i - 1]] : ""; b = r[g[j], step[i]]
                gain = gain (j > 1 ? " / " : "") (a != "" && b != "" ? sprintf("×%.2f", b / a) : "-")
            }
            if (i == 1) gain = "(the baseline)"
            printf "| %s | %s | %s | %s | %s |\n", (id in cell1) ? cell1[id] : step[i], (id in idea) ? idea[id] : "?", (id in limit) ? limit[id] : "?", gain, diff[i]
        }
    }' "$tmp/big" "$tmp/steps_words" "$tmp/diffs" >"$tmp/steps"

# ---- splice the blocks into the README ----------------------------------------
awk -v dir="$tmp" '
    match($0, /^<!-- table:[a-z]+ -->$/) {
        if (name != "") { print FILENAME ":" NR ": <!-- table:" name " --> not closed" > "/dev/stderr"; exit 3 }
        name = substr($0, 12, length($0) - 15)
        if (name !~ /^(ladder|random|awkward|steps)$/) { print FILENAME ":" NR ": unknown table " name > "/dev/stderr"; exit 3 }
        print
        while ((getline line < (dir "/" name)) > 0) print line
        close(dir "/" name)
        next
    }
    /^<!-- \/table:[a-z]+ -->$/ {
        if ($0 != "<!-- /table:" name " -->") { print FILENAME ":" NR ": unexpected " $0 > "/dev/stderr"; exit 3 }
        name = ""; print; next
    }
    name == "" { print }
    END { if (name != "") { print FILENAME ": <!-- table:" name " --> not closed" > "/dev/stderr"; exit 3 } }
' "$in" >"$tmp/out.md" || die "$in: bad table markers"
cp "$tmp/out.md" "$out"
