#include "baseline.h"

cublasStatus_t cublas_matmul(cublasHandle_t h, const f16 *A, const f16 *B, f16 *C,
                             int M, int N, int K)
{
    const float alpha = 1.0f, beta = 0.0f;
    return cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16F, K, A,
                        CUDA_R_16F, K, &beta, C, CUDA_R_16F, N, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT);
}
