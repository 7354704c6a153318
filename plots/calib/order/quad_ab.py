import collections,math,sys,re
d=collections.defaultdict(lambda: collections.defaultdict(list)); plan={}
for line in open(sys.argv[1]):
    p=[x.strip() for x in line.split('|')]
    n=p[2].split()
    if len(n)<3: continue
    d[p[0]][p[1]].append(float(n[0])); plan[(p[0],p[1])]=p[3]
med=lambda l: sorted(l)[len(l)//2]
res=[]
for s,v in d.items():
    if 'q' not in v or 'p' not in v: continue
    r=med(v['q'])/med(v['p'])
    ncl=int(re.search(r'(\d+) cl',plan[(s,'q')]).group(1))
    res.append((ncl,r,s,plan[(s,'q')][:40],plan[(s,'p')][:40]))
res.sort()
for x in res: print('%2d %.3f %-18s %s || %s'%x)
g=collections.defaultdict(list)
for x in res: g['<=24' if x[0]<=24 else '25-26' if x[0]<=26 else x[0]].append(math.log(x[1]))
for k,v in g.items(): print(k,len(v),'%.3f'%math.exp(sum(v)/len(v)))
a=[math.log(x[1]) for x in res]; print('all',len(a),'%.3f'%math.exp(sum(a)/len(a)))
