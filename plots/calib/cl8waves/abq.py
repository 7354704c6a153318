import sys,math,collections
t=collections.defaultdict(lambda: collections.defaultdict(list)); tile={}
for l in open(sys.argv[1]):
    p=[x.strip() for x in l.split('|')]
    if len(p)<3: continue
    sh=p[0]; b=p[1]; v=p[2].split()
    if not v: continue
    t[sh][b].append(float(v[0])); tile[(sh,b)]=p[3] if len(p)>3 else ''
out=[]
for sh in t:
    if 'q' not in t[sh] or 'p' not in t[sh]: continue
    o=min(t[sh]['p']); n=min(t[sh]['q']); out.append((n/o,sh,o,n,len(t[sh]['q']),tile[(sh,'q')][:70],tile[(sh,'p')][:50]))
for r,sh,o,n,k,tq,tp in sorted(out): print(f"{sh:>18} old {o:.4f} new {n:.4f} {r:.3f} x{k} {tq} || {tp}")
l=[math.log(x[0]) for x in out]; print("geomean new/old %.3f over %d, min %.3f max %.3f"%(math.exp(sum(l)/len(l)),len(l),min(x[0] for x in out),max(x[0] for x in out)))
