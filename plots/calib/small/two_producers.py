# twoprod.py IN OUT: v7 hopper.cu with two producer threads, one per operand
import sys
src=open(sys.argv[1]).read()
def rep(old,new,count=1):
    global src
    assert src.count(old)==count, (old[:80], src.count(old))
    src=src.replace(old,new)
# load_stage: only the operand of this producer (role 0: A, 1: B), its own bytes announced
rep('''                                           int kt, int m0, int n0, uint32_t rank, int share_b,
                                           int a_rows)
{
    mbarrier_arrive_expect_tx(full, (uint32_t)(a_rows * BK * 2 + TILE_B_BYTES));
#pragma unroll
    for (int j = 0; j < BK / BOX_K; j++) { /* box j: k = kt * BK + 64 j .. + 63 */
        const int k = kt * BK + j * BOX_K;
        const uint32_t a = stage + j * BM * BOX_K * 2, b = stage + TILE_A_BYTES + j * BN * BOX_K * 2;
        if (a_rows < BM) { /* C is one block row (the pair shares A); the rest of the A
                            * tile is never written: the MMAs' rows there lie past C,
                            * and no store writes them */
            if (rank == 0)
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
        }
    }
}''','''                                           int kt, int m0, int n0, uint32_t rank, int share_b,
                                           int a_rows, int role)
{
    mbarrier_arrive_expect_tx(full, (uint32_t)(role == 0 ? a_rows * BK * 2 : TILE_B_BYTES));
#pragma unroll
    for (int j = 0; j < BK / BOX_K; j++) { /* box j: k = kt * BK + 64 j .. + 63 */
        const int k = kt * BK + j * BOX_K;
        const uint32_t a = stage + j * BM * BOX_K * 2, b = stage + TILE_A_BYTES + j * BN * BOX_K * 2;
        if (role == 0) {
            if (a_rows < BM) { /* C is one block row (the pair shares A); the rest of the A
                                * tile is never written: the MMAs' rows there lie past C,
                                * and no store writes them */
                if (rank == 0)
                    cp_async_bulk_tensor_2d_global_to_shared_multicast(a, tmap_a, k, m0, full, (1 << CLUSTER) - 1);
            } else if (share_b) {
                cp_async_bulk_tensor_2d_global_to_shared(a, tmap_a, k, m0, full);
            } else {
                cp_async_bulk_tensor_2d_global_to_shared_multicast(a + rank * BM / 2 * BOX_K * 2, tmap_a, k,
                                                                   m0 + rank * BM / 2, full, (1 << CLUSTER) - 1);
            }
        } else {
            if (a_rows < BM || !share_b)
                cp_async_bulk_tensor_2d_global_to_shared(b, tmap_b, k, n0, full);
            else
                cp_async_bulk_tensor_2d_global_to_shared_multicast(b + rank * BN / 2 * BOX_K * 2, tmap_b, k,
                                                                   n0 + rank * BN / 2, full, (1 << CLUSTER) - 1);
        }
    }
}''')
rep('''        pipeline_init(full, empty, STAGES, 1, CLUSTER * ROW_WGS);''','''        pipeline_init(full, empty, STAGES, PRODUCERS, CLUSTER * ROW_WGS);''')
rep('''        pipeline_init(pair_full, pair_empty, 1, 1, 1 + CONSUMERS * 4 + (rank == 0 ? CLUSTER - 1 : 0));''',
    '''        pipeline_init(pair_full, pair_empty, 1, 1, PRODUCERS + CONSUMERS * 4 + (rank == 0 ? CLUSTER - 1 : 0));''')
rep('''        setmaxnreg_dec<40>();
        if (tid == 0) {''','''        setmaxnreg_dec<40>();
        if (tid % 64 == 0) { /* tid 0 loads A, tid 64 B */
            const int role = tid / 64;''')
rep('''                                   plan.a_rows);
                    pipeline_advance(&pipe);''','''                                   plan.a_rows, role);
                    pipeline_advance(&pipe);''')
rep('''#define CONSUMERS 2                   /* consumer warpgroups                          */''','''#define CONSUMERS 2                   /* consumer warpgroups                          */
#define PRODUCERS 2                   /* threads that fill the ring: one per operand  */''')
open(sys.argv[2],'w').write(src)
