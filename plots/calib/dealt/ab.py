# Time of the new build over the old, per shape (median of the rounds' per-call medians), and the
# geometric mean over the shapes given; reads the A/B files of this directory.
# usage: python3 ab.py FILE OLD NEW [shape ...]   (shape as "M N K")
import sys, math, collections
f, old, new = sys.argv[1:4]; want = sys.argv[4:]
t = collections.defaultdict(lambda: collections.defaultdict(list))
for l in open(f):
    p = [x.strip() for x in l.split('|')]
    if len(p) < 4 or not p[3]: continue
    t[p[1]][p[2]].append(float(p[3].split()[0]))
med = lambda v: sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v)//2-1:len(v)//2+1]) / 2
r = {}
for s, d in t.items():
    if old in d and new in d and (not want or s in want):
        r[s] = med(d[new]) / med(d[old])
        print('%-18s %s %.4f  %s %.4f  new/old %.3f' % (s, old, med(d[old]), new, med(d[new]), r[s]))
print('geometric mean new/old over %d shapes: %.3f' % (len(r), math.exp(sum(map(math.log, r.values())) / len(r))))
