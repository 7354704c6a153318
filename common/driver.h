/* The whole command-line program around one step's matmul(): parse, check the
 * GPU, verify against cuBLAS and fp64, time interleaved with cuBLAS, report. */
#ifndef COMMON_DRIVER_H
#define COMMON_DRIVER_H

#include "matmul.h"

typedef cudaError_t (*matmul_fn)(const f16 *A, const f16 *B, f16 *C, int M, int N, int K,
                                 cudaStream_t stream);

/* Exit status: 0 success, 1 failed check or CUDA error, 2 bad command line. */
int driver_main(int argc, char **argv, const char *step, matmul_fn fn);

#endif
