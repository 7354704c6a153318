# generates wg_ops.cuh: wgmma m64nNk16 SS and RS wrappers for the microbenchmark
Ns=[16,32,64,128,256]
out=['#pragma once','#include <stdint.h>']
pre='{.reg .pred p; setp.ne.b32 p, 1, 0; '
for N in Ns:
    R=N//2
    regs=', '.join('%%%d'%i for i in range(R))
    cons=', '.join('"+f"(d[%d])'%i for i in range(R))
    ss='wgmma.mma_async.sync.aligned.m64n%dk16.f32.f16.f16 {%s}, %%%d, %%%d, p, 1, 1, 0, 0;}\\n'%(N,regs,R,R+1)
    rs='wgmma.mma_async.sync.aligned.m64n%dk16.f32.f16.f16 {%s}, {%%%d, %%%d, %%%d, %%%d}, %%%d, p, 1, 1, 0;}\\n'%(N,regs,R,R+1,R+2,R+3,R+4)
    out.append('__device__ __forceinline__ void ss%d(float (&d)[%d], uint64_t da, uint64_t db) {'%(N,R))
    out.append('  asm volatile("%s%s" : %s : "l"(da), "l"(db) : "memory");}'%(pre,ss,cons))
    out.append('__device__ __forceinline__ void rs%d(float (&d)[%d], const uint32_t (&a)[4], uint64_t db) {'%(N,R))
    out.append('  asm volatile("%s%s" : %s : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db) : "memory");}'%(pre,rs,cons))
open('wg_ops.cuh','w').write('\n'.join(out)+'\n')
