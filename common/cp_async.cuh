/* cp.async (sm_80+): per-thread asynchronous 16-byte copies global -> shared.
 * One PTX instruction per wrapper. */
#ifndef COMMON_CP_ASYNC_CUH
#define COMMON_CP_ASYNC_CUH

#include <stdint.h>

/* Copies src_bytes (0 or 16) from src and zero-fills the rest of the 16 bytes:
 * with src_bytes = 0 an out-of-bounds chunk becomes zeros without a branch. */
__device__ __forceinline__ void cp_async_cg_shared_global_16(uint32_t dst, const void *src,
                                                             uint32_t src_bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                 :: "r"(dst), "l"(src), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void cp_async_commit_group()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/* Waits until this thread's copies of all committed groups have landed. */
__device__ __forceinline__ void cp_async_wait_all()
{
    asm volatile("cp.async.wait_all;\n" ::: "memory");
}

#endif
