import csv, gzip, sys, collections
for f in sys.argv[1:]:
    rows=list(csv.reader(gzip.open(f,'rt')))
    hdr=rows[1]; data=[r for r in rows[2:] if len(r)==len(hdr)]
    ix={h:i for i,h in enumerate(hdr)}
    stalls=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
    tot=sum(int(r[ix['Warp Stall Sampling (All Samples)']] or 0) for r in data)
    print(f, 'instructions', len(data), 'samples', tot, 'exec', sum(int(r[ix['Instructions Executed']] or 0) for r in data))
    agg=collections.Counter()
    for r in data:
        for s in stalls: agg[s]+=int(r[ix[s]] or 0)
    print('  by reason:', ', '.join('%s %.1f%%'%(k[6:],100*v/tot) for k,v in agg.most_common(10)))
    top=sorted(range(len(data)), key=lambda i:-int(data[i][ix['Warp Stall Sampling (All Samples)']] or 0))[:25]
    for i in sorted(top):
        r=data[i]; n=int(r[ix['Warp Stall Sampling (All Samples)']]);
        br=sorted(((int(r[ix[s]] or 0),s[6:]) for s in stalls), reverse=True)[:2]
        print('  %5d %5.1f%% exec %8s  %-60s %s'%(i, 100*n/tot, r[ix['Instructions Executed']], r[ix['Source']].strip()[:60], br))
