# lean.py IN OUT FENCE REGS: v7 hopper.cu with one init fence (FENCE) and no setmaxnreg for small tiles (REGS)
import sys
src=open(sys.argv[1]).read(); FENCE=int(sys.argv[3]); REGS=int(sys.argv[4])
def rep(old,new,count=1):
    global src
    assert src.count(old)==count, (old, src.count(old))
    src=src.replace(old,new)
if FENCE:
    rep('''        pipeline_init(full, empty, STAGES, 1, CLUSTER * ROW_WGS);
        for (int c = 0; c < CONSUMERS; c++) {
            mbarrier_init(&turn[c], 1);
            mbarrier_init(&gathered[c], 1);
        }
        pipeline_init(pair_full, pair_empty, 1, 1, 1 + CONSUMERS * 4 + (rank == 0 ? CLUSTER - 1 : 0));''','''        for (int c = 0; c < CONSUMERS; c++) {
            mbarrier_init(&turn[c], 1);
            mbarrier_init(&gathered[c], 1);
        }
        mbarrier_init(pair_full, 1);
        mbarrier_init(pair_empty, 1 + CONSUMERS * 4 + (rank == 0 ? CLUSTER - 1 : 0));
        pipeline_init(full, empty, STAGES, 1, CLUSTER * ROW_WGS); /* its fence covers all of them */''')
if REGS:
    rep('''        setmaxnreg_dec<40>();''','''        if (!(BM == 64 && BN <= 128)) /* the consumers fit the launch's 168 registers */
            setmaxnreg_dec<40>();''')
    rep('''        setmaxnreg_inc<232>();''','''        if (!(BM == 64 && BN <= 128))
            setmaxnreg_inc<232>();''')
open(sys.argv[2],'w').write(src)
