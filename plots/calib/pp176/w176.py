import csv, subprocess, re, collections, math, sys
rows=collections.defaultdict(dict)
for fn in sys.argv[1:]:
    for r in csv.reader(open(fn)):
        if r[0]=='M' or len(r)<5 or not r[4] or r[4]=='n/a': continue
        try: rows[(int(r[0]),int(r[1]),int(r[2]))][r[3]]=float(r[4])
        except: pass
out=[]
for (M,N,K),c in rows.items():
    def best(prefix):
        v=[(t,k) for k,t in c.items() if k.startswith(prefix+':') and ':T' not in k and ':A' not in k and ('dp' in k or k.endswith(':sk') or 'skw' in k)]
        return min(v) if v else None
    a=best('128x176'); b=best('128x256')
    if not a or not b: continue
    pl=subprocess.run(['/tmp/head/plan',str(M),str(N),str(K)],capture_output=True,text=True).stdout
    def mt(name):
        m=re.search(r'candidate '+re.escape(name)+r'\s+([\d.]+) us',pl); return float(m.group(1)) if m else None
    ma=mt(a[1]); mb=mt(b[1])
    if not ma or not mb: continue
    kt=(K+63)//64
    out.append((kt,M,N,K,a[0]/b[0],ma/mb,a[1],b[1]))
out.sort()
for kt,M,N,K,rm,rmod,ca,cb in out:
    print(f"{M:6d} {N:6d} {K:6d} kt {kt:4d}  meas 176/256 {rm:.3f}  model {rmod:.3f}  err {rm/rmod:.3f}  {ca} {cb}")
for lo,hi in ((0,16),(16,48),(48,1000)):
    e=[math.log(x[4]/x[5]) for x in out if lo<=x[0]<hi]
    if e: print(lo,hi,len(e),'geomean meas/model',round(math.exp(sum(e)/len(e)),3))
