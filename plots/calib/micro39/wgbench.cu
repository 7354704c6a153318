// Microbenchmark: cycles per 64 of K for wgmma m64nNk16 with A from shared memory (SS) or
// registers (RS), one or two consumer warpgroups, with or without a background stream of
// bulk copies into other shared memory (what TMA does to a k-tile loop). Scratch, not product.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include "../../../common/wgmma.cuh"
#include "../../../common/mbarrier.cuh"
#include "../../../common/tma.cuh"
#include "wg_ops.cuh"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)
constexpr int COPY_BYTES = 16384, RING = 4, SMEM = 200 * 1024;

template <int N, bool RS>
__global__ void __launch_bounds__(384, 1) bench(int iters, int nwg, int copy, const uint8_t *src, size_t src_bytes,
                                                unsigned long long *out, float *sink)
{
    extern __shared__ __align__(1024) uint8_t raw[];
    uint8_t *sm = align1024(raw);
    uint8_t *A = sm, *B = sm + 16384, *ring = sm + 65536;
    uint64_t *bar = (uint64_t *)(sm + 65536 + RING * COPY_BYTES);
    volatile int *done = (volatile int *)(bar + RING);
    const int t = threadIdx.x, wg = t / 128;
    for (int i = t; i < 49152 / 4; i += 384) ((uint32_t *)sm)[i] = 0x3C003C00u ^ (i * 2654435761u & 0x00FF00FFu);
    if (t == 0) { for (int i = 0; i < RING; i++) mbarrier_init(&bar[i], 1); *done = 0; }
    fence_mbarrier_init_release_cluster();
    __syncthreads();
    if (wg < nwg) {
        float d[N / 2];
        for (int i = 0; i < N / 2; i++) d[i] = 0.f;
        uint32_t a[4][4];
        for (int k = 0; k < 4; k++) for (int j = 0; j < 4; j++) a[k][j] = ((uint32_t *)(A + wg * 8192))[(t % 128) * 4 + k * 16 + j];
        const uint64_t da = wgmma_desc_k_sw128(A + wg * 8192), db = wgmma_desc_k_sw128(B);
        asm volatile("bar.sync 1, %0;" :: "r"(nwg * 128));
        const unsigned long long t0 = clock64();
        for (int it = 0; it < iters; it++) {
            wgmma_fence();
#pragma unroll
            for (int ks = 0; ks < 4; ks++) {
                if constexpr (RS) {
                    if constexpr (N == 16) rs16(d, a[ks], db + 2 * ks);
                    if constexpr (N == 32) rs32(d, a[ks], db + 2 * ks);
                    if constexpr (N == 64) rs64(d, a[ks], db + 2 * ks);
                    if constexpr (N == 128) rs128(d, a[ks], db + 2 * ks);
                    if constexpr (N == 256) rs256(d, a[ks], db + 2 * ks);
                } else {
                    if constexpr (N == 16) ss16(d, da + 2 * ks, db + 2 * ks);
                    if constexpr (N == 32) ss32(d, da + 2 * ks, db + 2 * ks);
                    if constexpr (N == 64) ss64(d, da + 2 * ks, db + 2 * ks);
                    if constexpr (N == 128) ss128(d, da + 2 * ks, db + 2 * ks);
                    if constexpr (N == 256) ss256(d, da + 2 * ks, db + 2 * ks);
                }
            }
            wgmma_commit_group();
            wgmma_wait_group<1>();
        }
        wgmma_wait_group<0>();
        const unsigned long long t1 = clock64();
        float s = 0;
        for (int i = 0; i < N / 2; i++) s += d[i];
        sink[blockIdx.x * 384 + t] = s;
        if (t % 128 == 0) { out[blockIdx.x * 4 + wg] = t1 - t0; }
        asm volatile("bar.sync 1, %0;" :: "r"(nwg * 128));
        if (t == 0) *done = 1;
    } else if (t == 256 && copy) {
        const size_t span = src_bytes / COPY_BYTES;
        size_t n = 0, landed = 0;
        const unsigned long long t0 = clock64();
        for (; n < RING; n++) {
            mbarrier_arrive_expect_tx(&bar[n], COPY_BYTES);
            cp_async_bulk_global_to_shared(smem_u32(ring + n * COPY_BYTES), src + ((blockIdx.x * 7 + n) % span) * COPY_BYTES, COPY_BYTES, smem_u32(&bar[n]));
        }
        while (nwg ? !*done : landed < (size_t)iters) {
            const int i = landed % RING;
            mbarrier_wait_parity(&bar[i], (landed / RING) & 1);
            landed++;
            mbarrier_arrive_expect_tx(&bar[i], COPY_BYTES);
            cp_async_bulk_global_to_shared(smem_u32(ring + i * COPY_BYTES), src + ((blockIdx.x * 7 + n) % span) * COPY_BYTES, COPY_BYTES, smem_u32(&bar[i]));
            n++;
        }
        const unsigned long long t1 = clock64();
        for (; landed < n; landed++) mbarrier_wait_parity(&bar[landed % RING], (landed / RING) & 1);
        out[blockIdx.x * 4 + 2] = t1 - t0;
        out[blockIdx.x * 4 + 3] = landed * COPY_BYTES;
    }
}

template <int N, bool RS>
void run(int grid, int nwg, int copy, int iters, const uint8_t *src, size_t sb, unsigned long long *dout, float *sink)
{
    CK(cudaFuncSetAttribute(bench<N, RS>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    std::vector<unsigned long long> h(grid * 4);
    double best = 1e30, cbest = 0; double cyc_copy = 0, bytes = 0;
    for (int rep = 0; rep < 3; rep++) {
        CK(cudaMemset(dout, 0, grid * 4 * 8));
        bench<N, RS><<<grid, 384, SMEM>>>(iters, nwg, copy, src, sb, dout, sink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h.data(), dout, grid * 4 * 8, cudaMemcpyDeviceToHost));
        double mx = 0; for (int b = 0; b < grid; b++) for (int w = 0; w < nwg; w++) mx = std::max(mx, (double)h[b * 4 + w]);
        if (nwg && mx < best) best = mx;
        if (copy) { cyc_copy = h[2]; bytes = h[3]; }
        if (!nwg) { cbest = bytes / cyc_copy; }
    }
    if (nwg)
        printf("N=%3d %s grid=%3d wg=%d copy=%d  cycles/64K %7.1f  (MMA-peak %4d, x%.2f)%s",
               N, RS ? "RS" : "SS", grid, nwg, copy, best / iters, 2 * N * nwg, best / iters / (2 * N * nwg),
               copy ? "" : "\n");
    else
        printf("copy only grid=%3d: %.1f B/clk per SM\n", grid, cbest);
    if (nwg && copy) printf("  copy %.1f B/clk\n", bytes / cyc_copy);
}

int main()
{
    const size_t sb = 64ull << 20; uint8_t *src; unsigned long long *dout; float *sink;
    CK(cudaMalloc(&src, sb)); CK(cudaMemset(src, 0x3C, sb));
    CK(cudaMalloc(&dout, 132 * 4 * 8)); CK(cudaMalloc(&sink, 132 * 384 * 4));
    const int iters = 4000;
    for (int grid : {1, 132}) {
        run<64, false>(grid, 0, 1, iters, src, grid == 1 ? (1 << 20) : sb, dout, sink);
        for (int copy : {0, 1}) for (int nwg : {1, 2}) {
            const size_t s = grid == 1 ? (1 << 20) : (8u << 20);
            run<16, false>(grid, nwg, copy, iters, src, s, dout, sink); run<16, true>(grid, nwg, copy, iters, src, s, dout, sink);
            run<32, false>(grid, nwg, copy, iters, src, s, dout, sink); run<32, true>(grid, nwg, copy, iters, src, s, dout, sink);
            run<64, false>(grid, nwg, copy, iters, src, s, dout, sink); run<64, true>(grid, nwg, copy, iters, src, s, dout, sink);
            run<128, false>(grid, nwg, copy, iters, src, s, dout, sink); run<128, true>(grid, nwg, copy, iters, src, s, dout, sink);
            run<256, false>(grid, nwg, copy, iters, src, s, dout, sink); run<256, true>(grid, nwg, copy, iters, src, s, dout, sink);
        }
    }
    return 0;
}
