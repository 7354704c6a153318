import sys, collections, statistics as st
shape=None; data=collections.OrderedDict()
for line in open(sys.argv[1]):
    if line.startswith('== '): shape=line[3:].strip(); data[shape]=[]; continue
    if line.startswith('CT '):
        f=line.split(); data[shape].append(tuple(int(x) for x in f[1:]))
for shape, rows in data.items():
    nclu = max(r[0] for r in rows)+1; per = 2*nclu
    launches=[rows[i:i+per] for i in range(0,len(rows)-per+1,per)]
    print(shape, 'clusters', nclu, 'launches', len(launches))
    spans=[];imb=[];
    slow=collections.defaultdict(list)
    for L in launches[-12:]:
        t0=min(r[3] for r in L); ends=[r[4]-t0 for r in L]; span=max(ends)
        starts=[r[3]-t0 for r in L]
        spans.append(span); imb.append((span-st.mean(ends))/span)
        for r in L:
            if r[5]: slow[r[2]].append((r[4]-r[3])/r[6])
    print('  span us %.1f  (max end - mean end)/span %.3f  min end/span %.3f  max start us %.2f'%(st.median(spans)/1e3, st.median(imb), min(min(r[4]-min(x[3] for x in L) for r in L)/max(r[4]-min(x[3] for x in L) for r in L) for L in launches[-12:]), max(starts)/1e3))
    L=launches[-1]; t0=min(r[3] for r in L)
    ks=sorted(set(r[6] for r in L)); print('  k-tiles per cluster:', ks)
    # per-SM ns per k-tile, averaged over launches
    v=sorted((st.mean(x),sm) for sm,x in slow.items())
    print('  ns per k-tile by SM: fastest %.0f (sm %d) median %.0f slowest %.0f (sm %d)'%(v[0][0],v[0][1],v[len(v)//2][0],v[-1][0],v[-1][1]))
    print('  slowest 8 SMs:', ' '.join('%d:%.0f'%(sm,t) for t,sm in v[-8:]))
