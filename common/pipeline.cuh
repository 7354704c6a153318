/* A ring of shared-memory stages guarded by mbarriers, as one reusable piece.
 *
 * Each stage s has full[s] (the producer's data has landed) and empty[s] (the
 * consumers are done with it). Producer and consumers each keep their own
 * pipeline value: the stage they work on next and the parity of the barrier
 * phase they wait for. Both advance through the ring in the same order; the
 * phase flips each time the stage index wraps around.
 *
 * The producer starts at parity 1: waiting for parity 1 on a fresh barrier
 * (still in phase 0) returns at once, so the first pass over the ring does
 * not wait for releases that never happened. */
#ifndef COMMON_PIPELINE_CUH
#define COMMON_PIPELINE_CUH

#include <stdint.h>
#include "mbarrier.cuh"
#include "cluster.cuh"

typedef struct {
    uint64_t *full;  /* [stages] */
    uint64_t *empty; /* [stages] */
    int stages;
    int stage;       /* stage this side works on next   */
    uint32_t phase;  /* parity of the phase it waits for */
} pipeline;

/* One thread initialises the barriers: `producers` arrivals complete a full
 * phase (plus the TMA bytes announced), `consumers` arrivals an empty phase. */
__device__ __forceinline__ void pipeline_init(uint64_t *full, uint64_t *empty, int stages,
                                              int producers, int consumers)
{
    for (int s = 0; s < stages; s++) {
        mbarrier_init(&full[s], producers);
        mbarrier_init(&empty[s], consumers);
    }
    fence_mbarrier_init_release_cluster();
}

__device__ __forceinline__ pipeline pipeline_producer(uint64_t *full, uint64_t *empty, int stages)
{
    pipeline p = {full, empty, stages, 0, 1};
    return p;
}

__device__ __forceinline__ pipeline pipeline_consumer(uint64_t *full, uint64_t *empty, int stages)
{
    pipeline p = {full, empty, stages, 0, 0};
    return p;
}

/* Producer: wait until the current stage is free to refill. */
__device__ __forceinline__ void producer_acquire(pipeline *p)
{
    mbarrier_wait_parity(&p->empty[p->stage], p->phase);
}

/* Consumer: wait until the current stage holds data. */
__device__ __forceinline__ void consumer_acquire(pipeline *p)
{
    mbarrier_wait_parity(&p->full[p->stage], p->phase);
}

/* Consumer: one arrival saying it is done with stage s (which may be behind
 * the current one: a consumer releases a stage once its MMAs are done).
 * -DBROKEN_RELEASE drops the arrival, a deliberate deadlock: the producer
 * waits forever for a stage to refill. Only for the GPU test that the driver
 * gives up on a kernel that never finishes (make build-broken). */
__device__ __forceinline__ void consumer_release(pipeline *p, int s)
{
#ifdef BROKEN_RELEASE
    (void)p;
    (void)s;
#else
    mbarrier_arrive(&p->empty[s]);
#endif
}

/* Cluster forms (v6), for barriers that other CTAs of the cluster arrive on. */

/* As producer_acquire / consumer_acquire, acquiring at cluster scope what
 * threads of other CTAs released (for v6's tile slot, written by CTA 0). */
__device__ __forceinline__ void producer_acquire_cluster(pipeline *p)
{
    mbarrier_wait_parity_acquire_cluster(&p->empty[p->stage], p->phase);
}

__device__ __forceinline__ void consumer_acquire_cluster(pipeline *p)
{
    mbarrier_wait_parity_acquire_cluster(&p->full[p->stage], p->phase);
}

/* Consumer: one arrival at stage s's empty barrier in CTA `cta` of the
 * cluster (when every CTA's producer writes into every CTA's stage s, each
 * must hear from all the consumers). */
__device__ __forceinline__ void consumer_release_cluster(pipeline *p, int s, uint32_t cta)
{
    mbarrier_arrive_shared_cluster(mapa_shared_cluster(&p->empty[s], cta));
}

/* Either side: move to the next stage, flipping the parity on wrap-around. */
__device__ __forceinline__ void pipeline_advance(pipeline *p)
{
    if (++p->stage == p->stages) {
        p->stage = 0;
        p->phase ^= 1;
    }
}

/* A consumer that takes turns with another (v7's ping-pong): move past the
 * n stages of a piece of work the other one consumes, without waiting for
 * them. Safe only because the turns are ordered (v7's turn barriers): this
 * side waits on a stage's full barrier again only once the stage's previous
 * fill has landed, so a parity never stands for a phase two behind. */
__device__ __forceinline__ void pipeline_skip(pipeline *p, int n)
{
    const int s = p->stage + n;
    p->phase ^= (uint32_t)(s / p->stages) & 1;
    p->stage = s % p->stages;
}

#endif
