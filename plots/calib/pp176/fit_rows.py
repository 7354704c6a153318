# rows for fit: for each shape with pp and dp of one tile: dp at the model's time, pp at model_dp * measured (pp/dp)
import collections, subprocess, re, sys
out_csv=sys.argv[1]
ratio=collections.defaultdict(list)   # (shape, variant) -> [t_v7/t_ref]
# interleaved runs: t_v7/t_cb = 1/ratio
for fn in sys.argv[2:]:
    for l in open(fn):
        f=[x.strip() for x in l.split('|')]
        p=f[2].split()
        if fn.endswith('pp4.txt'):
            ratio[(f[0],f[1])].append(1/float(p[2]))
        else:  # standalone: only unthrottled (clock >= 1950)
            if len(p)<2 or int(p[1])<1950: continue
            ratio[(f[0],f[1])].append(float(p[0]))
def mean(x): return sorted(x)[len(x)//2] if len(x)%2 else sum(sorted(x)[len(x)//2-1:len(x)//2+1])/2
with open(out_csv,'w') as o:
    for (s,v) in list(ratio):
        if not v.endswith(':pp'): continue
        dpv=v.replace(':pp',':dp')
        if (s,dpv) not in ratio: continue
        M,N,K=s.split()
        out=subprocess.run(['/work/main/build/tools/plan',M,N,K],capture_output=True,text=True).stdout
        m=re.search(r'candidate '+re.escape(dpv)+r'\s+([\d.]+) us',out); mdp=float(m.group(1))/1000
        r=min(ratio[(s,v)])/min(ratio[(s,dpv)])
        print(s.ljust(16), v.ljust(11), f"{r:.3f}")
        o.write(f"{M},{N},{K},{dpv},{mdp:.5f}\n{M},{N},{K},{v},{mdp*r:.5f}\n")
