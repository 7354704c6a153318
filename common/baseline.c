#include "baseline.h"
#include "check.h"
#include <string.h>

cublasStatus_t cublas_matmul(cublasHandle_t h, const f16 *A, const f16 *B, f16 *C,
                             int M, int N, int K)
{
    const float alpha = 1.0f, beta = 0.0f;
    return cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16F, K, A,
                        CUDA_R_16F, K, &beta, C, CUDA_R_16F, N, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT);
}

int lt_baseline_init(lt_baseline *b, int M, int N, int K)
{
    memset(b, 0, sizeof *b);
    CUBLAS_CHECK(cublasLtCreate(&b->h));
    CUBLAS_CHECK(cublasLtMatmulDescCreate(&b->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t opT = CUBLAS_OP_T;
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_TRANSA, &opT,
                                                sizeof opT));
    /* Column-major, as cublas_matmul: "A" is row-major B[N,K] seen as K x N
     * (op T), "B" is row-major A[M,K] seen as K x M, C^T is N x M. */
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&b->la, CUDA_R_16F, (uint64_t)K, (uint64_t)N, K));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&b->lb, CUDA_R_16F, (uint64_t)K, (uint64_t)M, K));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&b->lc, CUDA_R_16F, (uint64_t)N, (uint64_t)M, N));

    cublasLtMatmulPreference_t pref;
    CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    const size_t max_ws = LT_MAX_WORKSPACE;
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                      &max_ws, sizeof max_ws));
    int got = 0;
    cublasLtMatmulHeuristicResult_t all[LT_CANDIDATES];
    cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(b->h, b->op, b->la, b->lb, b->lc, b->lc,
                                                       pref, LT_CANDIDATES, all, &got);
    /* NOT_SUPPORTED is the heuristic's "no algorithm for this problem". */
    if (st != CUBLAS_STATUS_NOT_SUPPORTED) CUBLAS_CHECK(st);
    else got = 0;
    CUBLAS_CHECK(cublasLtMatmulPreferenceDestroy(pref));
    for (int i = 0; i < got; i++)
        if (all[i].state == CUBLAS_STATUS_SUCCESS && all[i].workspaceSize <= max_ws)
            b->cand[b->ncand++] = all[i];
    return b->ncand;
}

size_t lt_workspace_needed(const lt_baseline *b)
{
    size_t n = 0;
    for (int i = 0; i < b->ncand; i++)
        if (b->cand[i].workspaceSize > n) n = b->cand[i].workspaceSize;
    return n;
}

cublasStatus_t cublaslt_matmul(const lt_baseline *b, int algo, const f16 *A, const f16 *B,
                               f16 *C, cudaStream_t stream)
{
    const float alpha = 1.0f, beta = 0.0f;
    return cublasLtMatmul(b->h, b->op, &alpha, B, b->la, A, b->lb, &beta, C, b->lc, C, b->lc,
                          &b->cand[algo].algo, b->ws, b->ws_bytes, stream);
}

void lt_baseline_destroy(lt_baseline *b)
{
    if (!b->h) return;
    CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(b->la));
    CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(b->lb));
    CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(b->lc));
    CUBLAS_CHECK(cublasLtMatmulDescDestroy(b->op));
    CUBLAS_CHECK(cublasLtDestroy(b->h));
    b->h = NULL;
}
