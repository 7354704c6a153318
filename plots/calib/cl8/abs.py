import sys,math,collections
t=collections.defaultdict(lambda: collections.defaultdict(list)); tile={}
for l in open(sys.argv[1]):
    p=[x.strip() for x in l.split('|')]
    if len(p)<4: continue
    sh=p[1]; b=p[2]; v=p[3].split()
    if not v: continue
    t[sh][b].append(float(v[0])); tile[(sh,b)]=p[4] if len(p)>4 else ''
logs=[];out=[]
for sh in t:
    o=min(t[sh]['v7old']); n=min(t[sh]['v7']); r=n/o; logs.append(math.log(r))
    ch = tile[(sh,'v7old')]!=tile[(sh,'v7')]
    out.append((r,sh,o,n,ch,tile[(sh,'v7')][:60]))
for r,sh,o,n,ch,tl in sorted(out): print(f"{sh:>18} {o:.4f} {n:.4f} {r:.3f} {'CHANGED' if ch else '       '} {tl}")
print("geomean new/old", math.exp(sum(logs)/len(logs)), len(logs))
c=[math.log(r) for r,sh,o,n,ch,tl in out if ch]; print("changed geomean", math.exp(sum(c)/len(c)) if c else None, len(c))
