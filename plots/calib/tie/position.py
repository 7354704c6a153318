# For every shape of the all-candidate files: the time of "auto" against its plan timed under its
# own name, split by whether the named call follows the same kernel (tile shape and T) in the
# calls' order or another. Run from the repository root after make build/tools/plan.
import subprocess, csv, math, collections, sys
def inst(name):
    if name=='auto': return None
    p=name.split(':'); return (p[0], 'T' in p[1:])
for f, bw in (('plots/calib/seed10/h100_seed10_all.csv',3352),('plots/calib/seed10/h200_seed10_all.csv',4800),('plots/calib/all/h100_random_fit_all.csv',3352),('plots/calib/all/h200_random_fit_all.csv',4800),('plots/calib/all/h100_random_heldout_all.csv',3352),('plots/calib/all/h200_random_heldout_all.csv',4800)):
    order=collections.defaultdict(list); t=collections.defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r['ms'] in ('','n/a'): continue
        k=(r['M'],r['N'],r['K']); order[k].append(r['cand']); t[k][r['cand']]=float(r['ms'])
    res=collections.defaultdict(list)
    for k, names in order.items():
        out = subprocess.run(['build/tools/plan',*k,'66','52428800',str(bw)],capture_output=True,text=True).stdout.splitlines()
        desc = [l for l in out if l.startswith('v7 plan:')][0].split(': ',1)[1].split(' (modelled')[0].split(': ',1)[1]
        cands = [l.split()[1] for l in out if l.startswith('candidate') and l.split('us  ',1)[1].strip() == desc]
        if len(cands)!=1 or cands[0] not in t[k]: continue
        nm=cands[0]; i=names.index(nm); prev=names[i-1] if i>0 else names[-1]
        sw = inst(prev)!=inst(nm)
        res[sw].append(math.log(t[k]['auto']/t[k][nm]))
    print(f.split('/')[-1], ' '.join('named-after-%s: n=%d auto/named %.3f' % ('other kernel' if s else 'same kernel', len(v), math.exp(sum(v)/len(v))) for s,v in sorted(res.items())))
