/* Tile order of a 1D grid, shared by host (tests, launch set-up) and device.
 *
 * A linear block index is mapped to (m_block, n_block) in groups of `swizzle`
 * N-columns: group g covers n_block g*swizzle .. g*swizzle + swizzle - 1, and
 * inside a group tiles go row-major: (m 0, n 0), (m 0, n 1), .., (m 1, n 0)..
 * The last group is narrower when n_blocks % swizzle != 0. Blocks that run
 * together then cover a compact patch of C, so the A rows and B columns they
 * read stay in L2 for each other.
 *
 * Divisions by these grid-constant numbers use fast_divmod: a multiply-high
 * and a shift with constants worked out once on the host. */
#ifndef COMMON_TILE_ORDER_H
#define COMMON_TILE_ORDER_H

#include <stdint.h>

#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

/* n / d and n % d for 0 <= n < 2^31, 1 <= d < 2^31, with
 * shift = ceil(log2 d) and mul = floor(2^32 (2^shift - d) / d) + 1:
 * n / d = (umulhi(n, mul) + n) >> shift (Granlund and Montgomery). */
typedef struct {
    uint32_t d, mul, shift;
} fast_divmod;

static inline fast_divmod fast_divmod_make(uint32_t d)
{
    fast_divmod f;
    uint32_t shift = 0;
    while ((1ull << shift) < d) shift++;
    f.d = d;
    f.shift = shift;
    f.mul = (uint32_t)(((1ull << 32) * ((1ull << shift) - d)) / d + 1);
    return f;
}

static inline HOST_DEVICE void fast_divmod_do(fast_divmod f, uint32_t n, uint32_t *q, uint32_t *r)
{
#ifdef __CUDA_ARCH__
    uint32_t hi = __umulhi(n, f.mul);
#else
    uint32_t hi = (uint32_t)(((uint64_t)n * f.mul) >> 32);
#endif
    *q = (hi + n) >> f.shift;
    *r = n - *q * f.d;
}

typedef struct {
    int m_blocks, n_blocks, swizzle;
    fast_divmod per_group; /* m_blocks * swizzle tiles in a full group  */
    fast_divmod full;      /* width of a full group: swizzle            */
    fast_divmod last;      /* width of the last group (== swizzle if full) */
} tile_map;

/* Needs m_blocks * n_blocks < 2^31 (the launch checks) and swizzle >= 1. */
static inline tile_map tile_map_make(int m_blocks, int n_blocks, int swizzle)
{
    tile_map t;
    if (swizzle > n_blocks) swizzle = n_blocks;
    t.m_blocks = m_blocks;
    t.n_blocks = n_blocks;
    t.swizzle = swizzle;
    t.per_group = fast_divmod_make((uint32_t)(m_blocks * swizzle));
    t.full = fast_divmod_make((uint32_t)swizzle);
    t.last = fast_divmod_make((uint32_t)(n_blocks % swizzle ? n_blocks % swizzle : swizzle));
    return t;
}

static inline HOST_DEVICE void tile_map_coord(const tile_map *t, int linear, int *m_block,
                                              int *n_block)
{
    uint32_t group, in_group, m, r;
    fast_divmod_do(t->per_group, (uint32_t)linear, &group, &in_group);
    const int first_n = (int)group * t->swizzle;
    /* Within a group: row-major over [m_blocks][width]. */
    fast_divmod_do(first_n + t->swizzle <= t->n_blocks ? t->full : t->last, in_group, &m, &r);
    *m_block = (int)m;
    *n_block = first_n + (int)r;
}


/* Width of the groups (N-columns of tiles) for a problem with k_size and
 * tiles bn columns wide, on a GPU with l2_bytes of L2. Inside a group the
 * running tiles walk down the rows, and every one of them reads the B
 * panels [bn x K] of the group's columns: they are reused for the group's
 * whole life, so they must stay in L2. As many columns as keep those panels
 * in half of the L2 (the other half for the A panels streaming past and for
 * C), at least 1, at most 16. Wider groups read less from DRAM only as long
 * as that holds; past it every row of the group reads its B panels again
 * (v4 on an H100 at 16384^3: width 16 ran at 0.60 of cuBLAS, 8 at 0.87, 1 and
 * 4 at 0.96-0.97; see the README). */
static inline int tile_order_width(int64_t k_size, int bn, int64_t l2_bytes)
{
    const int64_t panel = (int64_t)bn * k_size * 2; /* fp16 bytes of one B panel */
    int64_t w = l2_bytes / 2 / (panel > 0 ? panel : 1);
    return w < 1 ? 1 : w > 16 ? 16 : (int)w;
}

/* The persistent scheduler's claims (v5, v6). The first `grid` units
 * (tiles, or tile pairs) go to the CTAs (clusters) by their index; the
 * claim-th atomicAdd on the counter (0, 1, ..) gets unit grid + claim, and
 * -1 once all `units` are handed out. Every unit is claimed exactly once,
 * in order, whatever the CTAs' interleaving. */
static inline HOST_DEVICE int sched_claim(int grid, int claim, int units)
{
    return claim < units - grid ? grid + claim : -1;
}

/* The tile of CTA `rank` (0 .. cl - 1) of a cluster of cl CTAs working on
 * `pair`. share_b 1: the pair is cl M-blocks x 1 N-block (they share B),
 * ordered by `pairs` over ((m_blocks + cl - 1) / cl, n_blocks); 0: 1 x cl
 * (they share A), over (m_blocks, (n_blocks + cl - 1) / cl); 2 (cl 4 or 8)
 * and 3 (cl 8): R x S tiles, R = 2 (share_b 2) or cl / 2 (3), S = cl / R,
 * rank R j + i at M-block R pm + i, N-block S pn + j, over ((m_blocks + R -
 * 1) / R, (n_blocks + S - 1) / S). Where the group does not divide
 * the count, the last group's last tiles lie past the edge (m or n >= the
 * block count). */
static inline HOST_DEVICE void tile_map_group_coord(const tile_map *pairs, int pair, int rank, int share_b, int cl,
                                                    int *m_block, int *n_block)
{
    int pm, pn;
    tile_map_coord(pairs, pair, &pm, &pn);
    if (share_b == 2 || (cl == 8 && share_b == 3)) { /* R x S tiles: R = 2 (share_b 2) or cl / 2 (3); */
        const int lr = share_b == 3 && cl == 8 ? 2 : 1; /* log2 R: shifts, not divisions */
        *m_block = (pm << lr) + (rank & ((1 << lr) - 1));
        *n_block = (cl >> lr) * pn + (rank >> lr);
        return;
    }
    *m_block = share_b ? cl * pm + rank : pm;
    *n_block = share_b ? pn : cl * pn + rank;
}

/* v6: a 2-CTA cluster's (rank 0 or 1). */
static inline HOST_DEVICE void tile_map_pair_coord(const tile_map *pairs, int pair, int rank,
                                                   int share_b, int *m_block, int *n_block)
{
    tile_map_group_coord(pairs, pair, rank, share_b, 2, m_block, n_block);
}

#endif
