/* The two descriptors a tcgen05.mma (sm_100a) takes, and tensor-memory
 * addresses, as pure arithmetic shared by host (tests) and device.
 *
 * 1. Shared-memory matrix descriptor (64 bits): where an operand tile sits in
 *    shared memory and how it is laid out. PTX ISA, tcgen05 chapter (9.7.16),
 *    "Shared Memory Descriptor" table (anchor tcgen05-shared-memory-desc-layout):
 *      bits  0-13  start address >> 4 (of the 18-bit shared-window address)
 *      bits 14-15  reserved, 0
 *      bits 16-29  leading-dimension byte offset (LBO) >> 4
 *      bits 30-31  reserved, 0
 *      bits 32-45  stride-dimension byte offset (SBO) >> 4
 *      bits 46-48  fixed constant 0b001
 *      bits 49-51  base offset (0 when the tile starts on its swizzle period)
 *      bit  52     LBO mode: 0 = relative byte offset
 *      bits 53-60  fixed constant 0
 *      bits 61-63  swizzle: 0 none, 1 128B with 32B atom, 2 128B, 4 64B, 6 32B
 *    It differs from sm_90's wgmma descriptor (common/wgmma.cuh) in two places:
 *    bit 46 must be 1, and the swizzle field is 3 bits at 61 instead of 2 at 62
 *    (128B: 2 << 61 == 1 << 62, the same bits). Checked against CUTLASS
 *    include/cute/arch/mma_sm100_desc.hpp (UMMA::SmemDescriptor, "version_ = 1")
 *    and Modular's MMASmemDescriptor table.
 *
 * 2. Instruction descriptor (32 bits) of kind::f16. PTX ISA, same chapter,
 *    "Instruction descriptor" table for .kind::f16 / .kind::tf32:
 *      bits  0-1   sparsity selector, 0      bit  2  dense (0) / sparse (1)
 *      bit   3     saturate, 0               bits 4-5  D type: 0 f16, 1 f32
 *      bit   6     reserved                  bits 7-9  A type: 0 f16, 1 bf16
 *      bits 10-12  B type (same codes)       bit 13 / 14  negate A / negate B
 *      bit  15 / 16  transpose A / B (0 = K-major)
 *      bits 17-22  N >> 3                    bit 23  reserved
 *      bits 24-28  M >> 4                    bit 29  reserved
 *      bits 30-31  max shift (.ws only), 0
 *    Checked against CUTLASS UMMA::InstrDescriptor (same header), whose
 *    make_instr_desc<half_t, half_t, float, 128, 256> gives 0x08400010.
 *
 * 3. A tensor-memory address is (lane << 16) | column (PTX ISA "Tensor
 *    Memory" addressing): 128 lanes x 512 columns of 32 bits per CTA.
 *
 * tests/host_tests.c checks every field above at its bit position. */
#ifndef COMMON_TCGEN05_DESC_H
#define COMMON_TCGEN05_DESC_H

#include <stdint.h>

#ifndef HOST_DEVICE
#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif
#endif

/* Swizzle codes of bits 61-63 of the shared-memory descriptor. */
enum {
    UMMA_SWIZZLE_NONE = 0,
    UMMA_SWIZZLE_128B_BASE32B = 1,
    UMMA_SWIZZLE_128B = 2,
    UMMA_SWIZZLE_64B = 4,
    UMMA_SWIZZLE_32B = 6
};

/* addr: shared-window address of the tile (16-byte aligned; 1024-byte aligned
 * for the 128B swizzle, so the base offset is 0). lbo, sbo: byte offsets. */
static inline HOST_DEVICE uint64_t umma_smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo,
                                                  uint32_t swizzle)
{
    uint64_t d = 0;
    d |= (uint64_t)((addr & 0x3FFFFu) >> 4);       /* bits  0-13: start address >> 4  */
    d |= (uint64_t)((lbo & 0x3FFFFu) >> 4) << 16;  /* bits 16-29: LBO >> 4            */
    d |= (uint64_t)((sbo & 0x3FFFFu) >> 4) << 32;  /* bits 32-45: SBO >> 4            */
    d |= (uint64_t)1 << 46;                        /* bits 46-48: fixed 0b001         */
                                                   /* bits 49-51: base offset 0       */
                                                   /* bit  52:    LBO mode relative   */
    d |= (uint64_t)(swizzle & 7u) << 61;           /* bits 61-63: swizzle mode        */
    return d;
}

/* A K-major fp16 tile [rows][64] in the 128-byte swizzle, as TMA's
 * CU_TENSOR_MAP_SWIZZLE_128B writes it (and v0's cp.async copies it): each row
 * is 64 fp16 = 128 B of K, the 16-byte chunk c of row r sits at c ^ (r % 8).
 * SBO = 1024 B, from one 8-row group to the next; LBO is not used by swizzled
 * K-major layouts (16 B, "1", as CUTLASS writes it). To step along K inside
 * the 128-byte row, add the byte offset to addr: the hardware applies the
 * swizzle to the final address. */
static inline HOST_DEVICE uint64_t umma_desc_k_sw128(uint32_t addr)
{
    return umma_smem_desc(addr, 16, 1024, UMMA_SWIZZLE_128B);
}

/* kind::f16 with fp16 A and B (both K-major), fp32 D, dense, no negation;
 * shape M x N (x K = 16). cta_group::1: M = 64 with N 8..256 in steps of 8,
 * M = 128 with N 16..256 in steps of 16 (CUTLASS's SM100_MMA_F16BF16_SS
 * static_asserts); cta_group::2: M 128 or 256 (see CUTLASS's _2x1SM_SS). */
static inline HOST_DEVICE uint32_t umma_idesc_f16_f32(uint32_t m, uint32_t n)
{
    uint32_t d = 0;
    d |= 1u << 4;                  /* bits  4-5:  D type f32              */
    d |= 0u << 7;                  /* bits  7-9:  A type f16              */
    d |= 0u << 10;                 /* bits 10-12: B type f16              */
    d |= 0u << 15;                 /* bit  15:    A K-major (no transpose) */
    d |= 0u << 16;                 /* bit  16:    B K-major (no transpose) */
    d |= ((n >> 3) & 0x3Fu) << 17; /* bits 17-22: N >> 3                  */
    d |= ((m >> 4) & 0x1Fu) << 24; /* bits 24-28: M >> 4                  */
    return d;
}

/* Tensor-memory address of (lane, column) relative to an allocation's base. */
static inline HOST_DEVICE uint32_t tmem_addr(uint32_t base, uint32_t lane, uint32_t column)
{
    return base + (lane << 16) + column;
}

#endif
