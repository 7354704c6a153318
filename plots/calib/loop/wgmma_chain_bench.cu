// Microbenchmark: cycles per k-tile (4 x wgmma m64nNk16) for one or two
// warpgroups, with NACC independent accumulators taken in turn.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_fp16.h>
__device__ int g_fill;
__device__ __forceinline__ float fillv(int i)
{
    if (g_fill == 0) return 0.0f;
    unsigned h = (unsigned)i * 2654435761u; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    if (g_fill == 1) { __half2 v = __floats2half2_rn((h & 0xffff) / 65536.0f - 0.5f, (h >> 16) / 65536.0f - 0.5f); return *(float *)&v; }
    return __uint_as_float(h);
}
#include "../../common/wgmma.cuh"
#include "../../common/smem.cuh"

template <int N, int NACC, int WAIT0>
__global__ void __launch_bounds__(256) bench(int kt_n, long long *cyc, float *out)
{
    extern __shared__ uint8_t raw[];
    uint8_t *smem = align1024(raw);
    for (int i = threadIdx.x; i < (8192 + 32768) / 4; i += blockDim.x)
        ((float *)smem)[i] = fillv(i);
    __syncthreads();
    const int wg = threadIdx.x / 128;
    uint8_t *ta = smem, *tb = smem + 8192;
    float acc[NACC][N / 2];
#pragma unroll
    for (int a = 0; a < NACC; a++)
#pragma unroll
        for (int i = 0; i < N / 2; i++) acc[a][i] = 0.f;
    long long t0 = clock64();
    for (int kt = 0; kt < kt_n; kt++) {
        wgmma_fence();
#pragma unroll
        for (int k = 0; k < 4; k++) {
            uint64_t da = wgmma_desc_k_sw128(ta + k * 32);
            uint64_t db = wgmma_desc_k_sw128(tb + k * 32);
            wgmma_m64nNk16_f32_f16_f16<N>(acc[k % NACC], da, db, 1);
        }
        wgmma_commit_group();
        if (WAIT0) wgmma_wait_group<0>(); else wgmma_wait_group<1>();
    }
    wgmma_wait_group<0>();
    long long t1 = clock64();
    float s = 0;
#pragma unroll
    for (int a = 0; a < NACC; a++)
#pragma unroll
        for (int i = 0; i < N / 2; i++) s += acc[a][i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x % 128 == 0) cyc[blockIdx.x * 2 + wg] = t1 - t0;
}

template <int N, int NACC, int WAIT0>
void run(int wgs, int grid)
{
    long long *cyc; float *out;
    cudaMalloc(&cyc, 264 * 8); cudaMalloc(&out, 132 * 256 * 4);
    auto k = bench<N, NACC, WAIT0>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024);
    const int kt = 256;
    for (int rep = 0; rep < 3; rep++) {
        k<<<grid, 128 * wgs, 48 * 1024>>>(kt, cyc, out);
    }
    cudaError_t e = cudaDeviceSynchronize();
    long long h[2];
    cudaMemcpy(h, cyc, 16, cudaMemcpyDeviceToHost);
    printf("N=%3d nacc=%d wait0=%d wgs=%d grid=%3d: %6.1f cycles/k-tile (%5.1f per wgmma) %s\n", N, NACC, WAIT0, wgs, grid,
           (double)h[0] / kt, (double)h[0] / kt / 4, e ? cudaGetErrorString(e) : "");
    cudaFree(cyc); cudaFree(out);
}

int main(int argc, char **argv)
{
    int fill = argc > 1 ? atoi(argv[1]) : 0;
    cudaMemcpyToSymbol(g_fill, &fill, sizeof fill);
    printf("fill %d\n", fill);
    for (int g : {1, 132})
        for (int w : {1, 2}) {
            run<64, 1, 0>(w, g); run<64, 2, 0>(w, g); run<64, 4, 0>(w, g); run<64, 1, 1>(w, g); run<64, 4, 1>(w, g);
            run<128, 1, 0>(w, g); run<128, 2, 0>(w, g); run<128, 1, 1>(w, g);
            run<256, 1, 0>(w, g); run<256, 1, 1>(w, g);
        }
}
