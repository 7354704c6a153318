/* Shared-memory address helpers used by every step's kernel. */
#ifndef COMMON_SMEM_CUH
#define COMMON_SMEM_CUH

#include <stdint.h>

/* PTX addresses shared memory with 32-bit offsets in the shared window. */
__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* The 128-byte swizzle repeats every 8 rows x 128 B = 1024 B, and both TMA and
 * the wgmma descriptors assume a tile starts on that period: round up. */
__device__ __forceinline__ uint8_t *align1024(uint8_t *p)
{
    uint32_t a = smem_u32(p);
    return p + (((a + 1023u) & ~1023u) - a);
}

#endif
