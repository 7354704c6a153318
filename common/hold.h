/* Holding a stream's queue while the host fills it, for timing.
 *
 * A call shorter than its host-side launch (a small matmul runs in 3-10 us;
 * cuBLASLt's launch takes 5-10 us of host time, v7's about 5) would otherwise
 * start as soon as it is queued: the GPU drains the queue, waits for the next
 * launch, and the events around each call time the host's launch gaps, not
 * the kernel. Queued behind a hold, the calls run back to back once the host
 * lets go, and the events between them measure the GPU alone. Under a tool
 * that runs each launch to its end before the next (ncu, make ncu) the hold
 * waits out its limit: max_s per hold, and the driver's note says so. */
#ifndef COMMON_HOLD_H
#define COMMON_HOLD_H

#include <cuda_runtime_api.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    volatile int *flags; /* host memory the GPU reads: [0] go, [1] the hold gave up */
} queue_hold;

/* Allocates the flags (mapped, pinned host memory). */
cudaError_t hold_open(queue_hold *h);
/* Queues on `stream` a one-thread kernel that waits until hold_release, or
 * until max_s seconds pass (then it lets the queue go itself, so a host that
 * blocks on a full queue cannot wait on it forever). The previous hold on
 * these flags must have finished. */
cudaError_t hold_begin(queue_hold *h, cudaStream_t stream, double max_s);
/* Lets the queued work go. */
void hold_release(queue_hold *h);
/* After the held work finished: true if the hold let go on its own (the
 * host took longer than max_s to queue the work: some launch gaps may lie in
 * the times). */
bool hold_expired(const queue_hold *h);
cudaError_t hold_close(queue_hold *h);

#ifdef __cplusplus
}
#endif

#endif
