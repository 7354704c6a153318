/* The copies of matmul_staged (stage.h): operands into aligned scratch, C
 * back out of it. One kernel brings in A and B together and writes the zero
 * columns past K itself; one kernel copies C out. They replace two memsets
 * and three 2D memcpys, each its own operation in the stream, which on a small
 * problem cost more than the matmul (v7 at 84 x 84 x 550: 20 us before, 14
 * after, cuBLAS 7.8; H100, plots/NOTES.md "Staging in two kernels"). */
#include "stage.h"
#include "check.h"
#include "griddep.cuh"
#include <stdint.h>

#define COPY_THREADS 256
#define COPY_WARPS (COPY_THREADS / 32)
#define SEG 256              /* elements of a row a warp copies at a time: 32 lanes x 8 */
#define COPY_MAX_BLOCKS 2048 /* enough to fill any Hopper GPU; the rest is a grid-stride loop */

/* The side of pitch kp is read or written in 16-byte chunks, a lane's 8
 * values; the side of pitch cols, at any 2-byte alignment, value by value,
 * lane by lane (64 contiguous bytes per warp instruction). A warp turns one
 * into the other through its 512 bytes of shared memory, seg[SEG]. With each
 * lane's own 8 values on both sides (2-byte accesses 16 bytes apart across
 * the warp), 2748 x 3358 x 495 ran 16-18 us slower than with the memcpys. */

/* dst[row][c0 .. c0 + SEG) (pitch kp) from src[row][...] (pitch cols); the
 * columns cols .. kp - 1 are zero. */
__device__ __forceinline__ void copy_in_seg(const stage_copy &m, int64_t s, uint16_t *seg)
{
    const int lane = threadIdx.x % 32;
    const int64_t per_row = (m.kp + SEG - 1) / SEG;
    const int64_t row = s / per_row;
    const int c0 = (int)(s - row * per_row) * SEG, c = c0 + lane * 8;
    const uint16_t *src = (const uint16_t *)m.src + row * m.cols;
    uint4 *dst = (uint4 *)((uint16_t *)m.dst + row * m.kp + c);
    if (m.vector) { /* src rows 16-byte aligned, cols % 8 == 0: each chunk all in or all out */
        if (c < m.kp)
            *dst = c < m.cols ? __ldg((const uint4 *)(src + c)) : make_uint4(0, 0, 0, 0);
        return;
    }
#pragma unroll
    for (int j = 0; j < 8; j++) {
        const int cj = c0 + j * 32 + lane;
        seg[j * 32 + lane] = cj < m.cols ? __ldg(src + cj) : (uint16_t)0;
    }
    __syncwarp();
    if (c < m.kp)
        *dst = *(const uint4 *)(seg + lane * 8);
    __syncwarp(); /* seg is rewritten by the next segment */
}

/* Both operands in one launch: the segments of a, then those of b. */
__global__ void __launch_bounds__(COPY_THREADS) stage_in_kernel(stage_copy a, stage_copy b)
{
    __shared__ __align__(16) uint16_t seg[COPY_WARPS][SEG];
    griddepcontrol_launch_dependents(); /* the matmul may launch and set up meanwhile (PDL) */
    const int w = threadIdx.x / 32;
    const int64_t na = a.rows * ((a.kp + SEG - 1) / SEG), n = na + b.rows * ((b.kp + SEG - 1) / SEG);
    for (int64_t i = (int64_t)blockIdx.x * COPY_WARPS + w; i < n; i += (int64_t)gridDim.x * COPY_WARPS) {
        if (i < na)
            copy_in_seg(a, i, seg[w]);
        else
            copy_in_seg(b, i - na, seg[w]);
    }
}

/* dst[row][c0 .. c0 + SEG) (pitch cols; only columns below cols) from
 * src[row][c0 .. c0 + SEG) (pitch kp). */
__global__ void __launch_bounds__(COPY_THREADS) stage_out_kernel(stage_copy m)
{
    __shared__ __align__(16) uint16_t seg[COPY_WARPS][SEG];
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int64_t per_row = (m.cols + SEG - 1) / SEG, n = m.rows * per_row;
    griddepcontrol_wait(); /* launched early (PDL): the matmul's C must be complete */
    for (int64_t i = (int64_t)blockIdx.x * COPY_WARPS + w; i < n; i += (int64_t)gridDim.x * COPY_WARPS) {
        const int64_t row = i / per_row;
        const int c0 = (int)(i - row * per_row) * SEG, c = c0 + lane * 8;
        if (c < m.kp)
            *(uint4 *)(seg[w] + lane * 8) = *(const uint4 *)((const uint16_t *)m.src + row * m.kp + c);
        __syncwarp();
        uint16_t *dst = (uint16_t *)m.dst + row * m.cols;
#pragma unroll
        for (int j = 0; j < 8; j++) {
            const int cj = c0 + j * 32 + lane;
            if (cj < m.cols)
                dst[cj] = seg[w][j * 32 + lane];
        }
        __syncwarp();
    }
}

static unsigned blocks_for(int64_t segs)
{
    const int64_t b = (segs + COPY_WARPS - 1) / COPY_WARPS;
    return (unsigned)(b < 1 ? 1 : b > COPY_MAX_BLOCKS ? COPY_MAX_BLOCKS : b);
}

extern "C" cudaError_t stage_copy_in(stage_copy a, stage_copy b, cudaStream_t stream)
{
    const int64_t n = a.rows * ((a.kp + SEG - 1) / SEG) + b.rows * ((b.kp + SEG - 1) / SEG);
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
    const int64_t n = c.rows * ((c.cols + SEG - 1) / SEG);
    if (n == 0)
        return cudaSuccess;
    /* Launched as the matmul's programmatic dependent: its launch overlaps
     * the matmul's tail where the matmul lets it (griddepcontrol). */
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks_for(n));
    cfg.blockDim = dim3(COPY_THREADS);
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    const cudaError_t err = cudaLaunchKernelEx(&cfg, stage_out_kernel, c);
    if (err != cudaSuccess)
        fprintf(stderr, "error: stage_out_kernel launch: %s\n", cudaGetErrorString(err));
    return err;
}
