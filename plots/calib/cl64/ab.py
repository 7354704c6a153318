import collections,math,sys
f=sys.argv[1]; shp=sys.argv[2]
d=collections.defaultdict(lambda: collections.defaultdict(list))
order=[]
for l in open(f):
    a=l.split('|'); s=a[0].strip(); q=a[1].strip(); v=a[2].split()
    if not v: continue
    d[s][q].append(float(v[0]))
    if s not in order: order.append(s)
old=dict((' '.join(l.split()[:3]), l.split()[3]) for l in open(shp))
r=[]
for s in order:
    p=old[s]; tp=min(d[s][p]); o=[(min(v),q) for q,v in d[s].items() if q!=p]
    if not o: continue
    best=min(o)
    r.append(best[0]/tp)
    print(f"{s:18s} old {p:22s} {tp*1000:6.1f} | " + "  ".join(f"{q} {min(v)*1000:6.1f}" for q,v in d[s].items() if q!=p) + f"  best/old {best[0]/tp:.3f}")
print("geomean best-new/old", math.exp(sum(map(math.log,r))/len(r)), len(r))
