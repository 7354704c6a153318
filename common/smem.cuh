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

/* stmatrix.sync.aligned.m8n8.x4.trans.shared.b16: the warp stores four 8 x 8
 * matrices of 16-bit values, each transposed. Register i holds matrix i in
 * the mma fragment layout (lane l: row l/4, columns 2(l%4) and 2(l%4) + 1, low
 * half first); lane 8i + j gives the address of the 16 bytes that receive
 * column j of matrix i (8 values, row 0 first), 16-byte aligned. */
__device__ __forceinline__ void stmatrix_m8n8_x4_trans_b16(void *row, uint32_t r0, uint32_t r1, uint32_t r2,
                                                           uint32_t r3)
{
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(smem_u32(row)), "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                 : "memory");
}

#endif
