import sys, math, collections
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    p = [x.strip() for x in line.split('|')]
    if len(p) < 4: continue
    shape, b, nums, plan = p[0], p[1], p[2].split(), p[3]
    if len(nums) < 3: continue
    rows[shape][b].append((float(nums[0]), float(nums[2]), plan))
lt = []; lq = []; ch = []; chq = []
for s, d in rows.items():
    if 'v7' not in d or 'v7b' not in d: continue
    tn = sorted(x[0] for x in d['v7'])[len(d['v7'])//2]; to = sorted(x[0] for x in d['v7b'])[len(d['v7b'])//2]
    qn = sorted(x[1] for x in d['v7'])[len(d['v7'])//2]; qo = sorted(x[1] for x in d['v7b'])[len(d['v7b'])//2]
    changed = d['v7'][0][2] != d['v7b'][0][2]
    r = tn / to; rq = qo / qn
    lt.append(math.log(r)); lq.append(math.log(rq))
    if changed: ch.append(math.log(r)); chq.append(math.log(rq))
    print("%-18s t %.4f/%.4f = %.3f  via-ratio %.3f  %s %s" % (s, tn, to, r, rq, '*' if changed else ' ', d['v7'][0][2] if changed else ''))
g = lambda l: math.exp(sum(l)/len(l)) if l else float('nan')
print("all %d: time %.3f via-ratio %.3f; changed %d: time %.3f via-ratio %.3f" % (len(lt), g(lt), g(lq), len(ch), g(ch), g(chq)))
