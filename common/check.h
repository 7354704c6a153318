/* Error checks shared by host C and CUDA C++ code.
 * Each macro names the failing call, file and line, then exits non-zero: a
 * tutorial binary that carries on after a failed call only hides the bug. */
#ifndef COMMON_CHECK_H
#define COMMON_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "error: %s failed at %s:%d: %s (%s)\n", #call,      \
                    __FILE__, __LINE__, cudaGetErrorString(err_),               \
                    cudaGetErrorName(err_));                                    \
            exit(EXIT_FAILURE);                                                 \
        }                                                                       \
    } while (0)

#define CUBLAS_CHECK(call)                                                      \
    do {                                                                        \
        cublasStatus_t st_ = (call);                                            \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                     \
            fprintf(stderr, "error: %s failed at %s:%d: %s\n", #call, __FILE__, \
                    __LINE__, cublasGetStatusString(st_));                      \
            exit(EXIT_FAILURE);                                                 \
        }                                                                       \
    } while (0)

/* Inside the library entry point we must not exit: report and hand the error
 * code back to the caller, who decides. */
#define CUDA_TRY(call)                                                          \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "error: %s failed at %s:%d: %s\n", #call, __FILE__, \
                    __LINE__, cudaGetErrorString(err_));                        \
            return err_;                                                        \
        }                                                                       \
    } while (0)

#endif
