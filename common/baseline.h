/* cuBLAS computing the same C = A * B^T, the figure every step is held to:
 * cublasGemmEx with its default algorithm, and cuBLASLt with the fastest of
 * the algorithms its heuristic proposes for the shape (the driver times them). */
#ifndef COMMON_BASELINE_H
#define COMMON_BASELINE_H

#include <cublasLt.h>
#include <cublas_v2.h>
#include "matmul.h"

/* cuBLAS is column-major: row-major C[M,N] is column-major C^T[N,M] = B * A^T,
 * where row-major B[N,K] read column-major is B^T (so op T) and row-major
 * A[M,K] read column-major is already A^T (op N). fp32 compute, fp16 out. */
cublasStatus_t cublas_matmul(cublasHandle_t h, const f16 *A, const f16 *B, f16 *C,
                             int M, int N, int K);

#define LT_CANDIDATES 8                 /* algorithms asked of the heuristic     */
#define LT_MAX_WORKSPACE (64u << 20)    /* the most workspace a candidate may use */

/* One shape's cuBLASLt problem (same transposition as cublas_matmul) and the
 * heuristic's candidates for it; `chosen` indexes the one cublaslt_matmul runs. */
typedef struct {
    cublasLtHandle_t h;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulHeuristicResult_t cand[LT_CANDIDATES];
    int ncand, chosen;
    void *ws;        /* device workspace, allocated by the caller ... */
    size_t ws_bytes; /* ... of at least lt_workspace_needed() bytes   */
} lt_baseline;

/* Creates the handle and descriptors and asks the heuristic for up to
 * LT_CANDIDATES algorithms (exits naming the call if cuBLASLt fails). Returns
 * the number of usable candidates, 0 if the heuristic has none. */
int lt_baseline_init(lt_baseline *b, int M, int N, int K);

/* The largest workspace any candidate needs (<= LT_MAX_WORKSPACE). */
size_t lt_workspace_needed(const lt_baseline *b);

/* C = A * B^T with candidate `algo` on `stream`. */
cublasStatus_t cublaslt_matmul(const lt_baseline *b, int algo, const f16 *A, const f16 *B,
                               f16 *C, cudaStream_t stream);

void lt_baseline_destroy(lt_baseline *b);

#endif
