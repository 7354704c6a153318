// Microbenchmark: shared-memory ingress rate of bulk copies (cp.async.bulk global->shared, L2-resident
// source) against bytes in flight: ring depth x copy size, 1 CTA or every SM. Scratch, not product.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include "../../../common/mbarrier.cuh"
#include "../../../common/tma.cuh"
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)
constexpr int SMEM = 220 * 1024;

__global__ void __launch_bounds__(128, 1) cp(int depth, int bytes, int n_total, int per_stage, const uint8_t *src, size_t span,
                                             unsigned long long *out)
{
    extern __shared__ __align__(1024) uint8_t raw[];
    uint8_t *ring = raw + 1024;
    uint64_t *bar = (uint64_t *)raw;
    const int t = threadIdx.x;
    if (t == 0) for (int i = 0; i < depth; i++) mbarrier_init(&bar[i], 1);
    fence_mbarrier_init_release_cluster();
    __syncthreads();
    if (t != 0) return;
    const int stage = bytes * per_stage;
    const size_t chunks = span / stage;
    size_t n = 0, landed = 0;
    const unsigned long long t0 = clock64();
    for (; n < (size_t)depth && n < (size_t)n_total; n++) {
        mbarrier_arrive_expect_tx(&bar[n], stage);
        for (int j = 0; j < per_stage; j++)
            cp_async_bulk_global_to_shared(smem_u32(ring + n * stage + j * bytes), src + ((blockIdx.x * 13 + n) % chunks) * stage + j * bytes, bytes, smem_u32(&bar[n]));
    }
    while (landed < (size_t)n_total) {
        const int i = landed % depth;
        mbarrier_wait_parity(&bar[i], (landed / depth) & 1);
        landed++;
        if (n < (size_t)n_total) {
            mbarrier_arrive_expect_tx(&bar[i], stage);
            for (int j = 0; j < per_stage; j++)
                cp_async_bulk_global_to_shared(smem_u32(ring + i * stage + j * bytes), src + ((blockIdx.x * 13 + n) % chunks) * stage + j * bytes, bytes, smem_u32(&bar[i]));
            n++;
        }
    }
    out[blockIdx.x] = clock64() - t0;
}

int main()
{
    const size_t span = 16u << 20; uint8_t *src; unsigned long long *dout;
    CK(cudaMalloc(&src, span)); CK(cudaMemset(src, 0x3C, span)); CK(cudaMalloc(&dout, 264 * 8));
    CK(cudaFuncSetAttribute(cp, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    std::vector<unsigned long long> h(264);
    for (int grid : {1, 16, 132})
        for (int bytes : {4096, 8192, 16384, 32768})
            for (int per : {1, 4})
                for (int depth : {1, 2, 4, 6, 8, 12}) {
                    const long stage = (long)bytes * per;
                    if (stage * depth > 200 * 1024) continue;
                    const int n_total = (int)std::max(64L, (long)(64ll << 20) / stage / 132 * (grid == 1 ? 4 : 1));
                    double best = 1e30;
                    for (int rep = 0; rep < 3; rep++) {
                        cp<<<grid, 128, SMEM>>>(depth, bytes, n_total, per, src, span, dout);
                        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
                        CK(cudaMemcpy(h.data(), dout, grid * 8, cudaMemcpyDeviceToHost));
                        double mx = 0; for (int b = 0; b < grid; b++) mx = std::max(mx, (double)h[b]);
                        best = std::min(best, mx);
                    }
                    printf("grid %3d copy %5d x %d per stage, depth %2d (%6ld B in flight): %6.1f B/clk per SM, %6.0f cycles per stage\n",
                           grid, bytes, per, depth, stage * depth, (double)n_total * stage / best, best / n_total);
                }
    return 0;
}
