// Which feature of v7's consumer keeps ptxas from building wgmma descriptors in uniform registers?
// Compiled only (twelfth session): nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -cubin
// -D{OUTER,BOUNDS_MEM,WGIDX,REDUCE,SHFL,ADV,RING_LD,U32BAR,LIVE}=1.
#include <cstdint>
#include "../../../common/wgmma.cuh"
#include "../../../common/smem.cuh"
#include "../../../common/pipeline.cuh"
#include "../../../common/warpgroup.cuh"
#include "../../../common/mbarrier.cuh"
#include "../../../common/cluster.cuh"
constexpr int STAGES = 6, N = 64, SB = 8192 + N * 128;
__global__ void __launch_bounds__(384, 1) bench(int kt_n, int npieces, const int *bounds, float *out)
{
    extern __shared__ uint8_t raw[];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    __shared__ int slot[4];
    __shared__ uint32_t ring_at[2];
    uint8_t *smem = align1024(raw);
    if (threadIdx.x == 0) { pipeline_init(full, empty, STAGES, 1, 2); ring_at[0] = smem_u32(smem); ring_at[1] = smem_u32(full); }
    __syncthreads();
    const int wg = threadIdx.x / 128, tid = threadIdx.x;
    if (wg == 0) {
        setmaxnreg_dec<40>();
    } else {
        setmaxnreg_inc<232>();
        pipeline pipe = pipeline_consumer(full, empty, STAGES);
        float acc[N / 2];
#pragma unroll
        for (int i = 0; i < N / 2; i++) acc[i] = 0.f;
#if RING_LD
        const uint32_t ring = ring_at[0];
#else
        const uint32_t ring = smem_u32(smem);
#endif
        int prev = 0;
        const uint32_t full_sh = smem_u32(full);
        const uint32_t empty_peer = mapa_shared_cluster(empty, (uint32_t)(tid % 128 % 2));
        const uint64_t desc_a0 = wgmma_desc_k_sw128(ring), desc_b0 = wgmma_desc_k_sw128(ring + 8192);
#if OUTER
#if WGIDX
        for (int piece = wg - 1; piece < npieces; piece += 2) {
#else
        for (int piece = 0; piece < npieces; piece++) {
#endif
#if BOUNDS_MEM
#if REDUCE
        const int kb = (int)__reduce_max_sync(~0u, (unsigned)bounds[2 * piece]), ke = (int)__reduce_max_sync(~0u, (unsigned)bounds[2 * piece + 1]);
        pipe.stage = (int)__reduce_max_sync(~0u, (unsigned)pipe.stage);
        pipe.phase = __reduce_max_sync(~0u, pipe.phase);
#elif SHFL
        const int kb = __shfl_sync(~0u, bounds[2 * piece], 0), ke = __shfl_sync(~0u, bounds[2 * piece + 1], 0);
        pipe.stage = __shfl_sync(~0u, pipe.stage, 0);
        pipe.phase = __shfl_sync(~0u, pipe.phase, 0);
#else
        const int kb = bounds[2 * piece], ke = bounds[2 * piece + 1];
#endif
#else
        const int kb = 0, ke = kt_n;
#endif
#else
        const int kb = 0, ke = kt_n;
#endif
#if LIVE
        const bool live = bounds[100 + blockIdx.x] > 0;
#else
        const bool live = true;
#endif
        for (int kt = kb; kt < ke; kt++) {
            const int s = pipe.stage;
            const uint32_t stage_at = (uint32_t)s * SB;
#if U32BAR
            mbarrier_wait_parity(full_sh + 8 * s, pipe.phase);
#else
            consumer_acquire(&pipe);
#endif
            if (live) {
                wgmma_fence();
#pragma unroll
                for (int k = 0; k < 4; k++) {
#if ADV
                    uint64_t da = wgmma_desc_advance(desc_a0, stage_at + k * 32);
                    uint64_t db = wgmma_desc_advance(desc_b0, stage_at + k * 32);
#else
                    uint64_t da = wgmma_desc_k_sw128(ring + stage_at + k * 32);
                    uint64_t db = wgmma_desc_k_sw128(ring + 8192 + stage_at + k * 32);
#endif
                    wgmma_m64nNk16_f32_f16_f16<N>(acc, da, db, 1);
                }
                wgmma_commit_group();
            }
            wgmma_wait_group<1>();
            if (kt > kb && tid % 128 < 2)
#if U32BAR
                mbarrier_arrive_shared_cluster(empty_peer + 8 * prev);
#else
                consumer_release_cluster(&pipe, prev, tid % 128);
#endif
            prev = s;
            pipeline_advance(&pipe);
        }
        wgmma_wait_group<0>();
#if OUTER
        float sum = 0;
#pragma unroll
        for (int i = 0; i < N / 2; i++) sum += acc[i], acc[i] = 0.f;
        out[(piece * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x] = sum;
        }
#endif
        float sum = 0;
#pragma unroll
        for (int i = 0; i < N / 2; i++) sum += acc[i];
        out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
    }
}
