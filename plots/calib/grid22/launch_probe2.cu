// Launch probe 2: does a small parameter block (tensor maps and plan in global
// memory) make a back-to-back call cheaper than v7's ~690-byte block?
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define CU(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { printf("%s: %d (line %d)\n", #x, (int)e_, __LINE__); exit(1); } } while (0)

template <int PLAN_BYTES> struct Params { CUtensorMap m[4]; alignas(16) int v[PLAN_BYTES / 4]; };
typedef Params<176> P688;

__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

// MODE 0: params by value (__grid_constant__); 1: in global, no fence; 2: in global, fence.proxy.tensormap acquire
template <int MODE, typename PP>
__device__ __forceinline__ void body(const PP *P, int *out)
{
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (threadIdx.x == 0) {
        for (int i = 0; i < 4; i++) {
            if (MODE == 2) asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(&P->m[i]) : "memory");
            asm volatile("prefetch.tensormap [%0];" :: "l"(&P->m[i]) : "memory");
        }
        int row = (P->v[blockIdx.x % 44] + blockIdx.x * 64) % 1024;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(&bar)), "r"(8192) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(sa(smem)), "l"(&P->m[0]), "r"(0), "r"(row), "r"(sa(&bar)) : "memory");
        uint32_t done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(sa(&bar)), "r"(0) : "memory");
        out[blockIdx.x] = smem[5] + P->v[(blockIdx.x + 3) % 44];
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__global__ void __launch_bounds__(384, 1) k_gc(const __grid_constant__ P688 P, int *out) { body<0>(&P, out); }
template <int MODE> __global__ void __launch_bounds__(384, 1) k_gl(const P688 *P, int *out) { body<MODE>(P, out); }
template <int BYTES> struct Pad { alignas(64) unsigned char b[BYTES]; };
template <int BYTES> __global__ void __launch_bounds__(384, 1) k_pad(const __grid_constant__ Pad<BYTES> p, int *out)
{ if (threadIdx.x == 0) out[blockIdx.x] = p.b[blockIdx.x % BYTES]; }

__global__ void spin(unsigned long long ns) {
    unsigned long long t0, t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}

static P688 hP; static P688 *dP; static int *dout;
static cudaLaunchConfig_t cfg(cudaStream_t s, cudaLaunchAttribute *at) {
    cudaLaunchConfig_t c = {};
    at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    c.gridDim = dim3(132); c.blockDim = dim3(384); c.dynamicSmemBytes = 200 * 1024; c.stream = s; c.attrs = at; c.numAttrs = 1;
    return c;
}
typedef void (*launcher)(cudaStream_t);
static void L_gc(cudaStream_t s) { cudaLaunchAttribute at[1]; cudaLaunchConfig_t c = cfg(s, at); CK(cudaLaunchKernelEx(&c, k_gc, hP, dout)); }
template <int MODE> static void L_gl(cudaStream_t s) { cudaLaunchAttribute at[1]; cudaLaunchConfig_t c = cfg(s, at); CK(cudaLaunchKernelEx(&c, k_gl<MODE>, (const P688 *)dP, dout)); }
template <int BYTES> static void L_pad(cudaStream_t s) { cudaLaunchAttribute at[1]; cudaLaunchConfig_t c = cfg(s, at); c.dynamicSmemBytes = 0; Pad<BYTES> p = {}; CK(cudaLaunchKernelEx(&c, k_pad<BYTES>, p, dout)); }
static cublasHandle_t hb; static __half *ga, *gb, *gc; static int gm = 128;
static void L_cublas(cudaStream_t s) {
    float one = 1, zero = 0;
    cublasStatus_t st = cublasGemmEx(hb, CUBLAS_OP_T, CUBLAS_OP_N, gm, gm, gm, &one, gb, CUDA_R_16F, gm, ga, CUDA_R_16F, gm, &zero, gc, CUDA_R_16F, gm, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st) { printf("cublas %d\n", (int)st); exit(1); }
}

static double run(const char *name, launcher L, cudaStream_t s, int events) {
    const int n = 64; cudaEvent_t ev[n + 1];
    for (int i = 0; i <= n; i++) CK(cudaEventCreate(&ev[i]));
    double best = 1e9, sum = 0;
    for (int rep = 0; rep < 7; rep++) {
        spin<<<1, 1, 0, s>>>(3000000);
        CK(cudaEventRecord(ev[0], s));
        for (int i = 0; i < n; i++) { L(s); if (events || i == n - 1) CK(cudaEventRecord(ev[i + 1], s)); }
        CK(cudaStreamSynchronize(s));
        float ms; CK(cudaEventElapsedTime(&ms, ev[0], ev[n]));
        double us = ms * 1e3 / n; if (us < best) best = us; if (rep >= 2) sum += us;
    }
    printf("%-52s %s  best %6.2f  mean(5) %6.2f us per call\n", name, events ? "events" : "none  ", best, sum / 5);
    for (int i = 0; i <= n; i++) CK(cudaEventDestroy(ev[i]));
    return best;
}

int main() {
    CK(cudaSetDevice(0)); CU(cuInit(0));
    cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaMalloc(&dout, 4096)); CK(cudaMemset(dout, 0, 4096));
    __half *mat; CK(cudaMalloc(&mat, 1024 * 1024 * 2)); CK(cudaMemset(mat, 0, 1024 * 1024 * 2));
    for (int i = 0; i < 4; i++) {
        cuuint64_t dim[2] = {1024, 1024}, stride[1] = {2048}; cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
        CU(cuTensorMapEncodeTiled(&hP.m[i], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, mat, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    }
    for (int i = 0; i < 44; i++) hP.v[i] = i * 7;
    CK(cudaMalloc(&dP, sizeof hP)); CK(cudaMemcpy(dP, &hP, sizeof hP, cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(k_gc, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(k_gl<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(k_gl<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    if (cublasCreate(&hb)) { printf("cublasCreate\n"); return 1; }
    cublasSetStream(hb, s);
    CK(cudaMalloc(&ga, 4096 * 4096 * 2)); CK(cudaMalloc(&gb, 4096 * 4096 * 2)); CK(cudaMalloc(&gc, 4096 * 4096 * 2));
    CK(cudaMemset(ga, 0, 4096 * 4096 * 2)); CK(cudaMemset(gb, 0, 4096 * 4096 * 2));
    printf("sizeof params: grid-constant %zu, global %zu\n", sizeof(P688) + 8, sizeof(void *) * 2);
    for (int round = 0; round < 2; round++)
        for (int ev = 1; ev >= 0; ev--) {
            run("TMA body, 688 B by value (__grid_constant__)", L_gc, s, ev);
            run("TMA body, 16 B: maps and plan in global", L_gl<1>, s, ev);
            run("TMA body, 16 B, + fence.proxy.tensormap acquire", L_gl<2>, s, ev);
            run("pad 64 B", L_pad<64>, s, ev);
            run("pad 256 B", L_pad<256>, s, ev);
            run("pad 512 B", L_pad<512>, s, ev);
            run("pad 704 B", L_pad<704>, s, ev);
            run("pad 1024 B", L_pad<1024>, s, ev);
            gm = 64;  run("cublasGemmEx 64^3", L_cublas, s, ev);
            gm = 256; run("cublasGemmEx 256^3", L_cublas, s, ev);
            gm = 1024; run("cublasGemmEx 1024^3", L_cublas, s, ev);
        }
    int h[132]; CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    printf("out[1] = %d\ndone\n", h[1]);
    return 0;
}
