import collections,math,sys
d=collections.defaultdict(lambda: collections.defaultdict(list)); plan={}
for l in open(sys.argv[1]):
    p=[x.strip() for x in l.split('|')]
    if len(p)<3 or not p[2].split(): continue
    d[p[0]][p[1]].append(float(p[2].split()[0])); plan[p[0]]=p[3][:40] if len(p)>3 else ''
lg=[]
for k,v in d.items():
    if 'new' in v and 'old' in v:
        r=min(v['new'])/min(v['old']); lg.append(math.log(r))
        print('%-18s new %8.4f old %8.4f  %.3f  %s'%(k,min(v['new']),min(v['old']),r,plan[k]))
print('geomean new/old %.4f over %d'%(math.exp(sum(lg)/len(lg)),len(lg)))
