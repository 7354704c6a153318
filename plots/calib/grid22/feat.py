import sys, math, collections, re
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sys.argv[1:]:
    for line in open(f):
        p = [x.strip() for x in line.split('|')]
        if len(p) < 4: continue
        nums = p[2].split()
        rows[p[0]][p[1]].append((float(nums[0]), p[3]))
out = []
for s, d in rows.items():
    if 'v7' not in d or 'v7b' not in d: continue
    if 'clusters of 4' not in d['v7'][0][1] or '64 x 64' not in d['v7'][0][1]: continue
    M, N, K = map(int, s.split())
    tn = sorted(x[0] for x in d['v7'])[len(d['v7'])//2]; to = sorted(x[0] for x in d['v7b'])[len(d['v7b'])//2]
    pn = d['v7'][0][1]; po = d['v7b'][0][1]
    swap = 'swapped' in pn
    if swap: M, N = N, M
    mb, nb = -(-M//64), -(-N//64)
    q = -(-mb//2) * -(-nb//2)
    pad = 4*q/(mb*nb)
    cl_old = int(re.search(r'(\d+) cl', po).group(1)); cl_new = int(re.search(r'(\d+) cl', pn).group(1))
    ncta_old = cl_old*(4 if 'clusters of 4' in po else 2); ncta_new = 4*cl_new
    kt = -(-K//128)
    out.append((tn/to, s, mb, nb, pad, kt, ncta_new, ncta_old, po))
for r in sorted(out):
    print("%.3f %-16s mb %3d nb %3d pad %.2f kt %3d cta %3d/%3d  old: %s" % r)
