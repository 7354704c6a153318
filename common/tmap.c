#include "tmap.h"
#include "check.h"
#include <cudaTypedefs.h>

tmap_desc tmap_desc_make(const void *base, int rows, int cols, int ld,
                         int box_rows, int box_cols, CUtensorMapSwizzle swizzle)
{
    tmap_desc d;
    d.base = (void *)base;
    d.dim[0] = (uint64_t)cols;
    d.dim[1] = (uint64_t)rows;
    d.stride_row = (uint64_t)ld * sizeof(f16);
    d.box[0] = (uint32_t)box_cols;
    d.box[1] = (uint32_t)box_rows;
    d.swizzle = swizzle;
    d.promotion = tmap_promotion(d.stride_row);
    return d;
}

static uint32_t swizzle_bytes(CUtensorMapSwizzle s)
{
    switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    case CU_TENSOR_MAP_SWIZZLE_128B: return 128;
    default: return 0;
    }
}

const char *tmap_desc_check(const tmap_desc *d)
{
    if (((uintptr_t)d->base & 15u) != 0) return "global address not 16-byte aligned";
    if (d->dim[0] < 1 || d->dim[1] < 1) return "a dimension is zero";
    if (d->dim[0] > (1ull << 32) || d->dim[1] > (1ull << 32)) return "a dimension exceeds 2^32";
    if (d->stride_row % 16 != 0) return "row stride not a multiple of 16 bytes";
    if (d->stride_row >= (1ull << 40)) return "row stride not below 2^40 bytes";
    if (d->stride_row < d->dim[0] * sizeof(f16)) return "row stride shorter than a row";
    if (d->box[0] < 1 || d->box[0] > 256 || d->box[1] < 1 || d->box[1] > 256)
        return "box extent outside 1..256";
    if ((d->box[0] * sizeof(f16)) % 16 != 0) return "box row not a multiple of 16 bytes";
    uint32_t sw = swizzle_bytes(d->swizzle);
    if (sw && d->box[0] * sizeof(f16) > sw) return "box row wider than the swizzle span";
    return NULL;
}

cudaError_t tmap_encode(CUtensorMap *map, const tmap_desc *d)
{
    const char *why = tmap_desc_check(d);
    if (why) {
        fprintf(stderr, "error: tensor map [%llu x %llu], box [%u x %u]: %s\n",
                (unsigned long long)d->dim[1], (unsigned long long)d->dim[0],
                d->box[1], d->box[0], why);
        return cudaErrorInvalidValue;
    }
    /* Looked up once; the runtime hands out the driver's own function. */
    static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    if (!encode) {
        enum cudaDriverEntryPointQueryResult q;
        CUDA_TRY(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode,
                                                  12000, cudaEnableDefault, &q));
        if (q != cudaDriverEntryPointSuccess || !encode) {
            fprintf(stderr, "error: cuTensorMapEncodeTiled not found in the driver\n");
            encode = NULL;
            return cudaErrorNotSupported;
        }
    }
    cuuint64_t dims[2] = {d->dim[0], d->dim[1]};
    cuuint64_t strides[1] = {d->stride_row};
    cuuint32_t box[2] = {d->box[0], d->box[1]};
    cuuint32_t elem_strides[2] = {1, 1};
    /* Out-of-bounds elements of a load are filled with zeros (FLOAT_OOB_FILL_NONE
     * means "no NaN fill"), and out-of-bounds elements of a store are dropped:
     * this is what makes partial tiles free. L2 promotion: the desc's. */
    CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, d->base, dims, strides,
                        box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, d->swizzle,
                        d->promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "error: cuTensorMapEncodeTiled([%llu x %llu], box [%u x %u]) "
                        "failed with CUresult %d\n",
                (unsigned long long)d->dim[1], (unsigned long long)d->dim[0],
                d->box[1], d->box[0], (int)r);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}
