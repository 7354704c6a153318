# patch2.py IN OUT: on h_10 (stamps), stamps inside the first stage's issue (17: empty wait passed,
# 18: expect_tx, 19..22: after each TMA) and an optional early touch of the parameters (TOUCH)
import sys
src=open(sys.argv[1]).read(); TOUCH=int(sys.argv[3])
def rep(old,new,count=1):
    global src
    assert src.count(old)==count, (old[:90], src.count(old))
    src=src.replace(old,new)
# move g_ts before load_stage
rep('__device__ long long g_ts[32];\n','')
rep('template <int BM, int BN>\n__device__ __forceinline__ void load_stage(','__device__ long long g_ts[32];\n#define TSX(i) do { if (st) g_ts[i] = clock64(); } while (0)\ntemplate <int BM, int BN>\n__device__ __forceinline__ void load_stage(')
rep('''                                           int a_rows)
{
    mbarrier_arrive_expect_tx(full, (uint32_t)(a_rows * BK * 2 + TILE_B_BYTES));''','''                                           int a_rows, bool st = false)
{
    mbarrier_arrive_expect_tx(full, (uint32_t)(a_rows * BK * 2 + TILE_B_BYTES));
    TSX(18);''')
rep('''            if (rank == 0)
                cp_async_bulk_tensor_2d_global_to_shared_multicast(a, tmap_a, k, m0, full, (1 << CLUSTER) - 1);
            cp_async_bulk_tensor_2d_global_to_shared(b, tmap_b, k, n0, full);
        } else if (share_b) {
            cp_async_bulk_tensor_2d_global_to_shared(a, tmap_a, k, m0, full);
            cp_async_bulk_tensor_2d_global_to_shared_multicast(b + rank * BN / 2 * BOX_K * 2, tmap_b, k,
                                                               n0 + rank * BN / 2, full, (1 << CLUSTER) - 1);
        } else {
            cp_async_bulk_tensor_2d_global_to_shared_multicast(a + rank * BM / 2 * BOX_K * 2, tmap_a, k,
                                                               m0 + rank * BM / 2, full, (1 << CLUSTER) - 1);
            cp_async_bulk_tensor_2d_global_to_shared(b, tmap_b, k, n0, full);
        }''','''            if (rank == 0)
                cp_async_bulk_tensor_2d_global_to_shared_multicast(a, tmap_a, k, m0, full, (1 << CLUSTER) - 1);
            TSX(19 + 2 * j);
            cp_async_bulk_tensor_2d_global_to_shared(b, tmap_b, k, n0, full);
            TSX(20 + 2 * j);
        } else if (share_b) {
            cp_async_bulk_tensor_2d_global_to_shared(a, tmap_a, k, m0, full);
            TSX(19 + 2 * j);
            cp_async_bulk_tensor_2d_global_to_shared_multicast(b + rank * BN / 2 * BOX_K * 2, tmap_b, k,
                                                               n0 + rank * BN / 2, full, (1 << CLUSTER) - 1);
            TSX(20 + 2 * j);
        } else {
            cp_async_bulk_tensor_2d_global_to_shared_multicast(a + rank * BM / 2 * BOX_K * 2, tmap_a, k,
                                                               m0 + rank * BM / 2, full, (1 << CLUSTER) - 1);
            TSX(19 + 2 * j);
            cp_async_bulk_tensor_2d_global_to_shared(b, tmap_b, k, n0, full);
            TSX(20 + 2 * j);
        }''')
rep('''                    mbarrier_wait_parity(empty_sh + 8 * pipe.stage, pipe.phase);
''','''                    mbarrier_wait_parity(empty_sh + 8 * pipe.stage, pipe.phase);
                    if (i == 0 && kt == w.kb) TS(17);
''')
rep('''                                   plan.a_rows);
                    if (i == 0 && kt == w.kb) TS(6);''','''                                   plan.a_rows, stamp_me && i == 0 && kt == w.kb);
                    if (i == 0 && kt == w.kb) TS(6);''')
rep('for (int q = 0; q < 17; q++)','for (int q = 0; q < 24; q++)')
if TOUCH:
    # warp 2 touches every 4-byte word of the parameters at the start (the constant cache's lines)
    rep('''    if (tid == 0) TS(0);''','''    if (tid == 0) TS(0);
    if (tid / 32 == 2) {
        const uint32_t *pp = (const uint32_t *)&plan, *pq = (const uint32_t *)&pairs;
        uint32_t x = 0;
        for (int q = tid % 32; q < (int)(sizeof plan / 4); q += 32) x ^= pp[q];
        for (int q = tid % 32; q < (int)(sizeof pairs / 4); q += 32) x ^= pq[q];
        if (x == 0x9e3779b9u) g_ts[31] = x; /* keeps the loads */
    }''')
open(sys.argv[2],'w').write(src)
