import collections,math,os,sys
here=os.path.dirname(os.path.abspath(__file__))
def load(fn):
    d=collections.defaultdict(lambda: collections.defaultdict(list))
    for l in open(fn):
        f=[x.strip() for x in l.split('|')]
        if len(f)<5 or not f[2].split(): continue
        d[(f[0],f[3])][f[1]].append(float(f[2].split()[0]))
    return {k:min(v['new'])/min(v['old']) for k,v in d.items() if 'new' in v and 'old' in v}
multi=[l.split() for l in open(os.path.join(here,'df2_multi.txt'))]
one=[l.split() for l in open(os.path.join(here,'df2_one.txt'))]
g=lambda a: math.exp(sum(map(math.log,a))/len(a)) if a else float('nan')
for fn in sys.argv[1:]:
    r=load(fn)
    def pick(L, f=lambda s: True):
        out=[]
        for x in L:
            k=(' '.join(x[:3]),x[3])
            if k in r and f(x): out.append(r[k])
        return out
    m=pick(multi); o128=pick(one, lambda x: x[0]+' '+x[1]+' '+x[2] not in ('88 104 304','248 392 1176','88 2632 992','1024 1024 1024','512 512 8192')); o64=pick(one, lambda x: x[0]+' '+x[1]+' '+x[2] in ('88 104 304','248 392 1176','88 2632 992','1024 1024 1024','512 512 8192'))
    print(fn, 'multi %d %.3f (%.3f-%.3f)'%(len(m),g(m),min(m),max(m)), 'one128 %d %.3f (%.3f-%.3f)'%(len(o128),g(o128),min(o128),max(o128)), 'other %d %.3f'%(len(o64),g(o64)), 'all %d %.3f'%(len(r),g(list(r.values()))))
