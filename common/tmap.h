/* TMA tensor maps for 2D fp16 row-major matrices, encoded on the host.
 *
 * tmap_desc_make() is pure arithmetic (tested on the host, no GPU needed);
 * tmap_desc_check() states the driver's documented limits so a bad map fails
 * with a readable reason; tmap_encode() calls cuTensorMapEncodeTiled through
 * the runtime's driver entry point, so nothing links against libcuda. */
#ifndef COMMON_TMAP_H
#define COMMON_TMAP_H

#include <stdint.h>
#include <cuda.h>
#include "matmul.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    void *base;
    uint64_t dim[2];      /* {columns (contiguous), rows}  in elements */
    uint64_t stride_row;  /* bytes between rows                         */
    uint32_t box[2];      /* {box columns, box rows}       in elements */
    CUtensorMapSwizzle swizzle;
    CUtensorMapL2promotion promotion; /* L2 fill on a miss: see tmap_desc_make */
} tmap_desc;

/* A [rows, cols] matrix with row pitch `ld` elements, read or written in
 * boxes of [box_rows, box_cols] with the given shared-memory swizzle.
 * L2 promotion: 256 bytes where rows start on 32-byte sectors, 128 where
 * they do not (ld % 16 == 8): there 256-byte fills cost v7 12-14% in
 * sustained runs, 128-byte ones nothing (H100, 4096 x 4096 x 4104: 0.86 of
 * cuBLAS against 0.98), while on aligned rows 128-byte fills cost v4 up to
 * 3.5% (16384^3: 0.902 against 0.935; see the README's "Row pitches"). */
tmap_desc tmap_desc_make(const void *base, int rows, int cols, int ld,
                         int box_rows, int box_cols, CUtensorMapSwizzle swizzle);

/* The promotion for rows `stride_row` bytes apart (tmap_desc_make's rule). */
static inline CUtensorMapL2promotion tmap_promotion(uint64_t stride_row)
{
    return stride_row % 32 == 0 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}

/* v7's rule: that promotion where the operand streams from DRAM (a 256-byte
 * fill brings the next k-tile's bytes of the row), else 128 bytes, a box
 * row's own, for operands read from L2 again and again (common/stream_k.h,
 * sk_streams_dram, says which and why). */
static inline CUtensorMapL2promotion tmap_promotion_streamed(uint64_t stride_row, int streams)
{
    return streams ? tmap_promotion(stride_row) : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}

/* NULL if the driver will accept d, else a one-line reason. */
const char *tmap_desc_check(const tmap_desc *d);

/* Encodes d into *map; prints the failing call or reason and returns an error. */
cudaError_t tmap_encode(CUtensorMap *map, const tmap_desc *d);

#ifdef __cplusplus
}
#endif
#endif
