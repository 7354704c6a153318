/* Warpgroup roles (sm_90a): moving registers between warpgroups, named
 * barriers that synchronize a subset of the CTA's warps, and a warp-wide
 * reduction. One PTX instruction per wrapper. */
#ifndef COMMON_WARPGROUP_CUH
#define COMMON_WARPGROUP_CUH

/* Lowers this warpgroup's per-thread register allocation to N, returning the
 * rest to the SM's pool. N is an immediate (multiple of 8, 24..256). */
template <int N>
__device__ __forceinline__ void setmaxnreg_dec()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" :: "n"(N));
}

/* Raises this warpgroup's per-thread register allocation to N, waiting until
 * the pool (fed by setmaxnreg_dec of other warpgroups) can provide them. */
template <int N>
__device__ __forceinline__ void setmaxnreg_inc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(N));
}

/* Waits until `threads` threads (a multiple of 32) have reached barrier `id`
 * (1..15; 0 is __syncthreads). Lets one role synchronize without the others. */
__device__ __forceinline__ void bar_sync(int id, int threads)
{
    asm volatile("bar.sync %0, %1;\n" :: "r"(id), "r"(threads) : "memory");
}

/* The largest x of the warp's 32 lanes (all of them must call it). v7 passes
 * values that every lane already holds alike: the result lives in a uniform
 * register, so ptxas knows it is the warp's, and builds what follows from it
 * (the wgmma descriptors of a stage) on the uniform datapath, where wgmma
 * reads them, instead of in each thread's registers and moving them over
 * (R2UR) before every wgmma. */
__device__ __forceinline__ uint32_t redux_sync_max_u32(uint32_t x)
{
    uint32_t r;
    asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;\n" : "=r"(r) : "r"(x));
    return r;
}

#endif
