/* The copies behind matmul_staged (matmul.h), on the GPU: common/stage_copy.cu. */
#ifndef COMMON_STAGE_H
#define COMMON_STAGE_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One matrix of fp16: `rows` rows of `cols` values at pitch `cols` on one
 * side, at pitch `kp` (a multiple of 8, >= cols; 16-byte aligned rows) on
 * the other. */
typedef struct {
    const void *src;
    void *dst;
    int64_t rows;
    int cols, kp;
    int vector; /* stage_copy_in: src rows 16-byte aligned (stage_plan's wide_a, wide_b) */
} stage_copy;

/* Into scratch: src (pitch cols) -> dst (pitch kp), columns cols .. kp - 1
 * zeroed, for a and b in one kernel (rows = 0: nothing to copy). */
cudaError_t stage_copy_in(stage_copy a, stage_copy b, cudaStream_t stream);
/* Out of scratch: src (pitch kp) -> dst (pitch cols), the first cols columns. */
cudaError_t stage_copy_out(stage_copy c, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
