import csv, math, collections, subprocess, sys
def load(f):
    t=collections.defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r['ms'] in ('','n/a'): continue
        t[(r['M'],r['N'],r['K'])][r['cand']]=float(r['ms'])
    return t
def gm(v): return math.exp(sum(map(math.log,v))/len(v)) if v else float('nan')
bw=int(sys.argv[1])
for f in sys.argv[2:]:
    t=load(f); tw=collections.defaultdict(list); an=[]
    for k,c in t.items():
        for n in c:
            p=n.split(':')
            if p[0] not in ('64x64','128x128'): continue
            if 'A' in p or 'T' in p: continue
            for a,b in ((n, n+':A:T'),):
                if b in c: tw[p[0]].append(c[b]/c[a])
        out=subprocess.run(['build/tools/plan',*k,'66','52428800',str(bw)],capture_output=True,text=True).stdout.splitlines()
        desc=[l for l in out if l.startswith('v7 plan:')][0].split(': ',1)[1].split(' (modelled')[0].split(': ',1)[1]
        cands=[l.split()[1] for l in out if l.startswith('candidate') and l.split('us  ',1)[1].strip()==desc]
        if len(cands)==1 and cands[0] in c: an.append(c['auto']/c[cands[0]])
    print(f.split('/')[-1], 'twin(:A:T / plain) '+' '.join('%s n=%d %.3f'%(k,len(v),gm(v)) for k,v in sorted(tw.items())), '| auto/named n=%d %.3f [%.3f..%.3f]'%(len(an),gm(an),min(an),max(an)))
