/* For each shape "M N K" on stdin: cuBLASLt's heuristic candidates for v7's problem
 * (C[M,N] = A[M,K] B[N,K]^T, fp16, fp32 accumulate), each timed, with its config.
 * cuBLAS is column-major: its m is our N, its n is our M (the tile is m x n of C^T).
 * BEST=1: run only each shape's fastest once more (for ncu's kernel names). */
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdio.h>
#include <stdlib.h>
#include "lt_names.h"
#define CK(x) do { int e_ = (int)(x); if (e_) { fprintf(stderr, "%s:%d %s = %d\n", __FILE__, __LINE__, #x, e_); exit(1); } } while (0)
static unsigned attr(const cublasLtMatmulAlgo_t *a, cublasLtMatmulAlgoConfigAttributes_t k)
{ unsigned v = 0; size_t w; cublasLtMatmulAlgoConfigGetAttribute(a, k, &v, sizeof v, &w); return v; }
int main(void)
{
    const size_t maxe = (size_t)16384 * 16384;
    __half *A, *B, *C; void *ws; size_t wsb = 64u << 20;
    CK(cudaMalloc(&A, maxe * 2)); CK(cudaMalloc(&B, maxe * 2)); CK(cudaMalloc(&C, maxe * 2)); CK(cudaMalloc(&ws, wsb));
    __half *h = (__half *)malloc(maxe * 2);
    for (size_t i = 0; i < maxe; i++) h[i] = __float2half((float)(rand() % 2001 - 1000) / 1000.5f);
    CK(cudaMemcpy(A, h, maxe * 2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, h, maxe * 2, cudaMemcpyHostToDevice));
    cublasLtHandle_t lt; CK(cublasLtCreate(&lt));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    const int best_only = getenv("BEST") != NULL;
    int M, N, K;
    int want = -1;
    while (scanf("%d %d %d", &M, &N, &K) == 3 && (!best_only || scanf("%d", &want) == 1)) {
        cublasLtMatmulDesc_t op; cublasLtMatrixLayout_t la, lb, lc;
        CK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        cublasOperation_t t = CUBLAS_OP_T;
        CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
        CK(cublasLtMatrixLayoutCreate(&la, CUDA_R_16F, K, N, K));
        CK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16F, K, M, K));
        CK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16F, N, M, N));
        cublasLtMatmulPreference_t pref; CK(cublasLtMatmulPreferenceCreate(&pref));
        CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof wsb));
        cublasLtMatmulHeuristicResult_t r[8]; int got = 0;
        CK(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 8, r, &got));
        const float al = 1, be = 0;
        float ms[8]; int bi = 0;
        for (int i = 0; i < got && !best_only; i++) {
            ms[i] = 1e30f;
            if (r[i].state) continue;
            for (int w = 0; w < 5; w++) CK(cublasLtMatmul(lt, op, &al, B, la, A, lb, &be, C, lc, C, lc, &r[i].algo, ws, wsb, 0));
            float best = 1e30f;
            for (int rep = 0; rep < 5; rep++) {
                CK(cudaEventRecord(e0, 0));
                for (int j = 0; j < 10; j++) CK(cublasLtMatmul(lt, op, &al, B, la, A, lb, &be, C, lc, C, lc, &r[i].algo, ws, wsb, 0));
                CK(cudaEventRecord(e1, 0)); CK(cudaEventSynchronize(e1));
                float x; CK(cudaEventElapsedTime(&x, e0, e1)); x /= 10; if (x < best) best = x;
            }
            ms[i] = best; if (best < ms[bi]) bi = i;
        }
        if (best_only) {
            CK(cudaDeviceSynchronize());
            printf("BEST %d %d %d\n", M, N, K); fflush(stdout);
            CK(cublasLtMatmul(lt, op, &al, B, la, A, lb, &be, C, lc, C, lc, &r[want].algo, ws, wsb, 0));
            CK(cudaDeviceSynchronize());
        } else for (int i = 0; i < got; i++) {
            const cublasLtMatmulAlgo_t *a = &r[i].algo;
            unsigned tl = attr(a, CUBLASLT_ALGO_CONFIG_TILE_ID), cs = attr(a, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID),
                     st = attr(a, CUBLASLT_ALGO_CONFIG_STAGES_ID);
            printf("%d %d %d %s%d %.2f us id=%u tile=%s cluster=%s stages=%s splitk=%u red=%u swz=%u custom=%u inner=%u ws=%zu\n",
                   M, N, K, i == bi ? "*" : " ", i, ms[i] * 1e3, attr(a, CUBLASLT_ALGO_CONFIG_ID),
                   tl < tile_names_N ? tile_names[tl] : "?", cs < cluster_names_N ? cluster_names[cs] : "?",
                   st < stage_names_N ? stage_names[st] : "?", attr(a, CUBLASLT_ALGO_CONFIG_SPLITK_NUM),
                   attr(a, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME), attr(a, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING),
                   attr(a, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION), attr(a, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID), r[i].workspaceSize);
        }
        fflush(stdout);
        cublasLtMatmulPreferenceDestroy(pref); cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb);
        cublasLtMatrixLayoutDestroy(lc); cublasLtMatmulDescDestroy(op);
    }
    return 0;
}
