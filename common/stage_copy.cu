/* The copies of matmul_staged (stage.h): operands into aligned scratch, C
 * back out of it. One kernel brings in A and B together and writes the zero
 * columns past K itself; one kernel copies C out. They replace two memsets
 * and three 2D memcpys, each its own operation in the stream: on a small
 * problem those cost more than the matmul (84 x 84 x 550: 28-36 us against
 * cuBLAS's 8-13, plots/NOTES.md). */
#include "stage.h"
#include "check.h"
#include <stdint.h>

#define COPY_THREADS 256
#define COPY_MAX_BLOCKS 2048 /* enough to fill any Hopper GPU; the rest is a grid-stride loop */

/* Eight fp16 values: one 16-byte load or store. */
union half8 {
    uint4 u;
    uint16_t v[8];
};

/* dst[row][c .. c + 7] (pitch kp, 16-byte aligned) from src[row][...] (pitch
 * cols, any 2-byte alignment); columns cols .. kp - 1 are zero. */
__device__ __forceinline__ void copy_in_chunk(const stage_copy &m, int64_t chunk)
{
    const int64_t per_row = m.kp / 8;
    const int64_t row = chunk / per_row;
    const int c = (int)(chunk - row * per_row) * 8;
    const uint16_t *s = (const uint16_t *)m.src + row * m.cols;
    half8 h;
    if (m.vector) /* source rows 16-byte aligned, cols % 8 == 0: each chunk all in or all out */
        h.u = c < m.cols ? __ldg((const uint4 *)(s + c)) : make_uint4(0, 0, 0, 0);
    else {
#pragma unroll
        for (int j = 0; j < 8; j++) h.v[j] = c + j < m.cols ? __ldg(s + c + j) : (uint16_t)0;
    }
    *(uint4 *)((uint16_t *)m.dst + row * m.kp + c) = h.u;
}

/* Both operands in one launch: the chunks of a, then those of b. */
__global__ void __launch_bounds__(COPY_THREADS) stage_in_kernel(stage_copy a, stage_copy b)
{
    const int64_t na = a.rows * (a.kp / 8), n = na + b.rows * (b.kp / 8);
    for (int64_t i = (int64_t)blockIdx.x * COPY_THREADS + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * COPY_THREADS) {
        if (i < na)
            copy_in_chunk(a, i);
        else
            copy_in_chunk(b, i - na);
    }
}

/* dst[row][c .. c + 7] (pitch cols, any 2-byte alignment; the last chunk of a
 * row may be short) from src[row][c .. c + 7] (pitch kp, 16-byte aligned). */
__global__ void __launch_bounds__(COPY_THREADS) stage_out_kernel(stage_copy m)
{
    const int64_t per_row = (m.cols + 7) / 8, n = m.rows * per_row;
    for (int64_t i = (int64_t)blockIdx.x * COPY_THREADS + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * COPY_THREADS) {
        const int64_t row = i / per_row;
        const int c = (int)(i - row * per_row) * 8;
        half8 h;
        h.u = *(const uint4 *)((const uint16_t *)m.src + row * m.kp + c);
        uint16_t *d = (uint16_t *)m.dst + row * m.cols + c;
#pragma unroll
        for (int j = 0; j < 8; j++)
            if (c + j < m.cols) d[j] = h.v[j];
    }
}

static unsigned blocks_for(int64_t chunks)
{
    const int64_t b = (chunks + COPY_THREADS - 1) / COPY_THREADS;
    return (unsigned)(b < 1 ? 1 : b > COPY_MAX_BLOCKS ? COPY_MAX_BLOCKS : b);
}

extern "C" cudaError_t stage_copy_in(stage_copy a, stage_copy b, cudaStream_t stream)
{
    const int64_t n = a.rows * (a.kp / 8) + b.rows * (b.kp / 8);
    if (n == 0)
        return cudaSuccess;
    stage_in_kernel<<<blocks_for(n), COPY_THREADS, 0, stream>>>(a, b);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        fprintf(stderr, "error: stage_in_kernel launch: %s\n", cudaGetErrorString(err));
    return err;
}

extern "C" cudaError_t stage_copy_out(stage_copy c, cudaStream_t stream)
{
    const int64_t n = c.rows * ((c.cols + 7) / 8);
    if (n == 0)
        return cudaSuccess;
    stage_out_kernel<<<blocks_for(n), COPY_THREADS, 0, stream>>>(c);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        fprintf(stderr, "error: stage_out_kernel launch: %s\n", cudaGetErrorString(err));
    return err;
}
