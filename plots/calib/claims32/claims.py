#!/usr/bin/env python3
"""Claims against the deal, from the A/B files here (lines: round | M N K | variant | time ms,
cuBLAS default ms, ratio, SM MHz). usage: python3 claims.py FILE...  prints, per shape, the
k-tiles (ceil(K / 64): every claimed plan has 128-row tiles, k-tiles 64 deep), dealt and claimed
times (mean over rounds) and claimed / dealt; then the geometric mean of dealt / claimed, and for
thresholds T the geometric mean of (time of the rule 'claim iff k-tiles > T') / (faster of the two)."""
import collections, math, sys

def variant(b):
    if 'V7_CLAIMS=0' in b: return 0
    if 'V7_CLAIMS=1' in b: return 1
    return None

d = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sys.argv[1:]:
    for line in open(f):
        r, s, b, v = [x.strip() for x in line.split('|')]
        if variant(b) is not None and v.split():
            d[s][variant(b)].append(float(v.split()[0]))
rows = []
for s, v in d.items():
    a, c = sum(v[0]) / len(v[0]), sum(v[1]) / len(v[1])
    rows.append((math.ceil(int(s.split()[2]) / 64), s, a, c))
rows.sort()
for k, s, a, c in rows:
    print(f"{s:18s} k-tiles {k:4d}  dealt {a * 1e3:8.1f} us  claimed {c * 1e3:8.1f} us  claimed/dealt {c / a:.3f}")
g = [math.log(a / c) for k, s, a, c in rows]
print(f"dealt / claimed: geometric mean {math.exp(sum(g) / len(g)):.3f} over {len(g)} shapes")
for t in (8, 12, 16, 20, 24, 32, 40, 48, 64):
    g = [math.log((c if k > t else a) / min(a, c)) for k, s, a, c in rows]
    print(f"claim iff k-tiles > {t:3d}: {math.exp(sum(g) / len(g)):.4f} of the faster, worst {math.exp(max(g)):.3f}")
