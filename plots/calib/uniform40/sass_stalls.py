import csv,sys
f=sys.argv[1]
rows=list(csv.reader(open(f)))
hdr=rows[1]; data=rows[2:]
ix={h:i for i,h in enumerate(hdr)}
stalls=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot_s=sum(int(r[ix['Warp Stall Sampling (All Samples)']] or 0) for r in data)
tot_e=sum(int(r[ix['Instructions Executed']] or 0) for r in data)
print(f, 'samples',tot_s,'warp insts executed',tot_e)
agg={s:sum(int(r[ix[s]] or 0) for r in data) for s in stalls}
for s,v in sorted(agg.items(),key=lambda x:-x[1])[:10]: print('  %-28s %6d %5.1f%%'%(s,v,100*v/tot_s))
thr=float(sys.argv[2]) if len(sys.argv)>2 else 0.005
for k,r in enumerate(data):
    smp=int(r[ix['Warp Stall Sampling (All Samples)']] or 0); ex=int(r[ix['Instructions Executed']] or 0)
    if smp>thr*tot_s or ex>thr*tot_e:
        top=sorted(((int(r[ix[s]] or 0),s[6:]) for s in stalls),reverse=True)[:3]
        print('%5d %-60s smp %5d ex %8d  %s'%(k,r[ix['Source']].strip()[:60],smp,ex,' '.join('%s:%d'%(n,v) for v,n in top if v)))
