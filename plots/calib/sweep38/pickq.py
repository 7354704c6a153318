import subprocess,sys
# shapes of seeds where the model's pick is a 128x64 tile (any cluster) data-parallel with >= 40 k-tiles
# and a split-K candidate is priced within 5%: the next session's A/B list (own pick vs forced split).
out=[]
for seed in range(20265700,20265720):
    sh=subprocess.run(['./build/tools/shapes',str(seed),'100','aligned'],capture_output=True,text=True).stdout.split('\n')
    for s in sh:
        if not s.strip(): continue
        for gpu,extra in (('h100',[]),('h200',['66','62914560','4800'])):
            o=subprocess.run(['./build/tools/plan']+s.split()+extra,capture_output=True,text=True).stdout.splitlines()
            c=sorted(((float(l.split()[2]),l.split()[1]) for l in o if l.startswith('candidate')))
            if not c: continue
            best=c[0]
            if not best[1].startswith('128x64') or ':dp' not in best[1]: continue
            sp=[x for x in c if 'split' in x[1] and x[0] < best[0]*1.05]
            if sp: out.append((gpu,s,best,sp[0]))
for o in out: print(*o)
