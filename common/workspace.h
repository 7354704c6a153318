/* Workspaces for kernels that meet through global memory (v7's stream-K
 * fixup): flags, then scratch, kept per device and reused.
 *
 * Allocating and clearing one per call put an allocation and a memset in the
 * stream before every kernel that needs one (v7 at 512 x 512 x 8192 on an
 * H100: 21.8 us a call with them, 20.5 us without, in runs minutes apart).
 * So a workspace's flags are zeroed once, when it is made; after that a flag
 * counts as raised when it holds the generation number of the call using the
 * workspace, one more per use, so no call has to clear them. A workspace is
 * reused by a call on the stream that used it last (stream order puts the new
 * kernel after the old one) or, on another stream, once the event recorded
 * after its last kernel has completed: calls on different streams never share
 * one. A call being captured into a CUDA graph gets a stream-ordered
 * allocation of its own instead, its flags zeroed in the stream (in the
 * graph), as does a call that finds all WORKSPACE_POOL of its device busy.
 *
 * v5 and v6 keep their scheduler's counters here too: two ints, the call of
 * generation g counting on counter g % 2, zeroed by the call before it, and
 * zeroing the other one for the call after it.
 *
 * Not exercised by any test: after 2^32 uses a workspace's generation wraps
 * and its flags are zeroed again in the stream; and kept workspaces are never
 * freed, so a program that calls cudaDeviceReset() between calls would leave
 * them dangling.
 *
 *     workspace_use u;
 *     CUDA_TRY(workspace_begin(bytes, flag_bytes, stream, &u));
 *     err = launch the kernel with u.ws and u.gen on stream;
 *     err2 = workspace_end(&u, stream, err);   (always, even after a failed launch)
 */
#ifndef COMMON_WORKSPACE_H
#define COMMON_WORKSPACE_H

#include <stdint.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WORKSPACE_POOL 8 /* workspaces kept per device */

typedef struct {
    uint8_t *ws;   /* flag_bytes of flags, then the scratch (not cleared)          */
    uint32_t gen;  /* this use's generation: a flag is raised when it holds gen   */
    void *kept;    /* the pool entry (its lock held until workspace_end), or NULL */
} workspace_use;

/* A workspace of at least `bytes`, its first `flag_bytes` holding no flag of
 * generation u->gen, for one kernel on `stream`. On success the caller must
 * call workspace_end, whether its launch worked or not. */
cudaError_t workspace_begin(size_t bytes, size_t flag_bytes, cudaStream_t stream, workspace_use *u);

/* After the launch (`launched`: its result): a kept workspace is marked busy
 * until the kernel ends (an event) and its lock released, or, when the launch
 * failed, given its generation back (so generation g + 1 always follows a
 * kernel that ran as g); a call's own is freed in stream order. Returns the
 * first error of its own calls. */
cudaError_t workspace_end(workspace_use *u, cudaStream_t stream, cudaError_t launched);

#ifdef __cplusplus
}
#endif

#endif
