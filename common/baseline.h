/* cuBLAS computing the same C = A * B^T, the figure every step is held to. */
#ifndef COMMON_BASELINE_H
#define COMMON_BASELINE_H

#include <cublas_v2.h>
#include "matmul.h"

/* cuBLAS is column-major: row-major C[M,N] is column-major C^T[N,M] = B * A^T,
 * where row-major B[N,K] read column-major is B^T (so op T) and row-major
 * A[M,K] read column-major is already A^T (op N). fp32 compute, fp16 out. */
cublasStatus_t cublas_matmul(cublasHandle_t h, const f16 *A, const f16 *B, f16 *C,
                             int M, int N, int K);

#endif
