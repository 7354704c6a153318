# ksplit.py IN OUT: 64-row tiles, one piece per cluster: both consumers on it, alternate k-tiles,
# consumer 1's sums handed to consumer 0 through the (idle) end of the ring
import sys
src=open(sys.argv[1]).read()
def rep(old,new,count=1):
    global src
    assert src.count(old)==count, (old[:90], src.count(old))
    src=src.replace(old,new)
rep('''        const int first = ROW_WGS == 1 ? c : 0, every = ROW_WGS == 1 ? CONSUMERS : 1;''',
'''        /* ksplit: a 64-row tile and one piece for the cluster: both consumers
         * work on it, consumer c on its k-tiles kb + c, kb + c + 2, ..; consumer 1
         * then hands its sums to consumer 0, which goes on alone. */
        const bool ksplit = ROW_WGS == 1 && sk_work_of(&plan, p, 1).pair < 0 && sk_work_of(&plan, p, 0).pair >= 0 &&
                            (!plan.ways || CONSUMERS * GATHER_BYTES <= HAND_AT); /* 64 x 256 split-K: no room */
        const int first = ROW_WGS == 1 && !ksplit ? c : 0, every = ROW_WGS == 1 ? CONSUMERS : 1;''')
rep('''            int prev = 0; /* stage of k-tile kt - 1 */
            for (int kt = w.kb; kt < w.ke; kt++) {
                const int s = (int)redux_sync_max_u32((uint32_t)pipe.stage); /* see above */''',
'''            int prev = -1; /* stage of this consumer's k-tile before */
            for (int kt = w.kb; kt < w.ke; kt++) {
                if (ksplit && ((kt - w.kb) & 1) != c) { /* the other consumer's */
                    pipeline_advance(&pipe);
                    continue;
                }
                const int s = (int)redux_sync_max_u32((uint32_t)pipe.stage); /* see above */''')
rep('''                wgmma_wait_group<1>();
                if (kt > w.kb && tid % 128 < CLUSTER)
                    mbarrier_arrive_shared_cluster(empty_peer + 8 * prev); /* consumer_release_cluster */
                prev = s;
                pipeline_advance(&pipe);
            }
            wgmma_wait_group<0>();
            if (tid % 128 < CLUSTER)
                mbarrier_arrive_shared_cluster(empty_peer + 8 * prev); /* the piece's last stage */
''','''                wgmma_wait_group<1>();
                if (prev >= 0 && tid % 128 < CLUSTER)
                    mbarrier_arrive_shared_cluster(empty_peer + 8 * prev); /* consumer_release_cluster */
                prev = s;
                pipeline_advance(&pipe);
            }
            wgmma_wait_group<0>();
            if (prev >= 0 && tid % 128 < CLUSTER)
                mbarrier_arrive_shared_cluster(empty_peer + 8 * prev); /* the piece's last stage */
            if (ksplit) {
                /* [BN / 8][128] float4 at the ring's end: every stage of the piece
                 * has landed and been read, and no copy fills the ring again */
                float4 *hand = (float4 *)(smem + HAND_AT);
                if (c == 1 && live)
#pragma unroll
                    for (int i = 0; i < BN / 8; i++)
                        hand[i * 128 + t] = make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]);
                bar_sync(1, CONSUMERS * 128);
                if (c == 1)
                    break;
                if (live)
#pragma unroll
                    for (int i = 0; i < BN / 8; i++) {
                        const float4 v = hand[i * 128 + t];
                        acc[4 * i] += v.x, acc[4 * i + 1] += v.y, acc[4 * i + 2] += v.z, acc[4 * i + 3] += v.w;
                    }
            }
''')
rep('''#define GATHER_BYTES ((PARTIAL_FLOATS / 4 + SK_WAYS_MAX) * 16)''','''#define GATHER_BYTES ((PARTIAL_FLOATS / 4 + SK_WAYS_MAX) * 16)
#define HAND_AT (STAGES * STAGE_BYTES - PARTIAL_FLOATS * 4) /* ksplit's hand-over, after the gathers */''')
rep('''    static_assert(CONSUMERS * GATHER_BYTES <= STAGES * STAGE_BYTES, "the split-K gathers exceed the ring");''',
'''    static_assert(CONSUMERS * GATHER_BYTES <= STAGES * STAGE_BYTES, "the split-K gathers exceed the ring");
    static_assert(BM == 128 || PARTIAL_FLOATS * 4 <= STAGES * STAGE_BYTES, "no room for the hand-over");''')
open(sys.argv[2],'w').write(src)
