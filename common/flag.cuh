/* Flags in global memory between CTAs of one grid (v7's stream-K fixup).
 * One PTX instruction per wrapper.
 *
 * The writer's st.release.gpu orders everything it (and, through a barrier
 * it took part in, its warpgroup) wrote before it, at GPU scope: a reader
 * whose ld.acquire.gpu sees the flag also sees those writes. */
#ifndef COMMON_FLAG_CUH
#define COMMON_FLAG_CUH

#include <stdint.h>

__device__ __forceinline__ void st_release_gpu_u32(uint32_t *p, uint32_t v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;\n" :: "l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t ld_acquire_gpu_u32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
    return v;
}

#endif
