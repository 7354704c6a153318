/* Workspaces kept per device for reuse (see workspace.h). */
#include "workspace.h"
#include "check.h"
#include <pthread.h>
#include <stdio.h>

#define MAX_DEVICES 64

typedef struct {
    uint8_t *ws;               /* flags, then scratch; NULL: not made yet     */
    size_t bytes;
    uint32_t gen;              /* generation of its latest use                */
    unsigned long long stream; /* ID of the stream of its latest use          */
    cudaEvent_t done;          /* recorded after its latest kernel            */
} workspace;

static workspace pool[MAX_DEVICES][WORKSPACE_POOL];
/* Held from a kept workspace's choice until its kernel's event is recorded
 * (workspace_begin .. workspace_end), so no other call sees it free in
 * between. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

/* Under pool_lock: a workspace of at least `bytes` for a kernel on `stream`,
 * its generation advanced (*w = NULL: none free, and no room for another). */
static cudaError_t take(size_t bytes, size_t flag_bytes, cudaStream_t stream, workspace **w)
{
    int dev;
    unsigned long long id;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaStreamGetId(stream, &id));
    *w = NULL;
    if (dev >= MAX_DEVICES)
        return cudaSuccess; /* no pool for this device: the caller allocates */
    workspace *empty = NULL;
    for (int i = 0; i < WORKSPACE_POOL && !*w; i++) {
        workspace *p = &pool[dev][i];
        if (!p->ws) {
            if (!empty) empty = p;
            continue;
        }
        if (p->bytes < bytes)
            continue;
        if (p->stream == id) {
            *w = p;
            break;
        }
        const cudaError_t q = cudaEventQuery(p->done);
        if (q == cudaSuccess)
            *w = p;
        else if (q != cudaErrorNotReady) {
            fprintf(stderr, "error: cudaEventQuery of a kept workspace: %s\n", cudaGetErrorString(q));
            return q;
        }
    }
    if (!*w && empty) { /* a new one, flags zeroed in this stream before its first kernel */
        const size_t size = (bytes + (1 << 20) - 1) >> 20 << 20;
        CUDA_TRY(cudaMalloc((void **)&empty->ws, size));
        CUDA_TRY(cudaMemsetAsync(empty->ws, 0, flag_bytes, stream));
        CUDA_TRY(cudaEventCreateWithFlags(&empty->done, cudaEventDisableTiming));
        empty->bytes = size;
        empty->gen = 0;
        *w = empty;
    }
    if (*w) {
        if (++(*w)->gen == 0) { /* wrapped: start again from zeroed flags */
            CUDA_TRY(cudaMemsetAsync((*w)->ws, 0, flag_bytes, stream));
            (*w)->gen = 1;
        }
        (*w)->stream = id;
    }
    return cudaSuccess;
}

cudaError_t workspace_begin(size_t bytes, size_t flag_bytes, cudaStream_t stream, workspace_use *u)
{
    u->ws = NULL;
    u->gen = 0;
    u->kept = NULL;
    enum cudaStreamCaptureStatus capture;
    CUDA_TRY(cudaStreamIsCapturing(stream, &capture));
    if (capture == cudaStreamCaptureStatusNone) {
        pthread_mutex_lock(&pool_lock);
        workspace *w = NULL;
        const cudaError_t err = take(bytes, flag_bytes, stream, &w);
        if (err == cudaSuccess && w) {
            u->ws = w->ws;
            u->gen = w->gen;
            u->kept = w;
            return cudaSuccess; /* the lock stays held until workspace_end */
        }
        pthread_mutex_unlock(&pool_lock);
        if (err != cudaSuccess)
            return err;
    }
    /* Being captured into a graph, or every workspace busy: one of this call's
     * own, stream-ordered, its flags zeroed (generation 1). */
    CUDA_TRY(cudaMallocAsync((void **)&u->ws, bytes, stream));
    const cudaError_t err = cudaMemsetAsync(u->ws, 0, flag_bytes, stream);
    if (err != cudaSuccess) {
        fprintf(stderr, "error: cudaMemsetAsync of a workspace's flags: %s\n", cudaGetErrorString(err));
        cudaFreeAsync(u->ws, stream);
        return err;
    }
    u->gen = 1;
    return cudaSuccess;
}

cudaError_t workspace_end(workspace_use *u, cudaStream_t stream, cudaError_t launched)
{
    if (u->kept) {
        workspace *w = (workspace *)u->kept;
        cudaError_t err = cudaSuccess;
        if (launched != cudaSuccess)
            w->gen--; /* no kernel ran: its generation is given back (the lock is still held) */
        else if ((err = cudaEventRecord(w->done, stream)) != cudaSuccess)
            fprintf(stderr, "error: cudaEventRecord after a kernel on a kept workspace: %s\n",
                    cudaGetErrorString(err));
        pthread_mutex_unlock(&pool_lock);
        return err;
    }
    CUDA_TRY(cudaFreeAsync(u->ws, stream)); /* stream-ordered: after the kernel */
    return cudaSuccess;
}
