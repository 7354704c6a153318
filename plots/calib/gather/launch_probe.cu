// Launch-overhead probe: what a back-to-back call costs with nothing in it.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

struct Big { alignas(64) unsigned char b[4 * 128 + 256]; };

__global__ void spin(unsigned long long ns) {
    unsigned long long t0, t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}
__global__ void empty_k(int) {}
__global__ void big_k(const __grid_constant__ Big b) { if (b.b[threadIdx.x % 64] == 77 && threadIdx.x == 9999) printf("x"); }
template <int BODY, int PDL>
__global__ void body_k(const __grid_constant__ Big b, int *out) {
    __shared__ uint64_t bar[8];
    if (PDL) asm volatile("griddepcontrol.launch_dependents;");
    if (BODY >= 1) {
        if (threadIdx.x == 0) {
            for (int i = 0; i < 8; i++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&bar[i])));
            asm volatile("fence.mbarrier_init.release.cluster;");
        }
        asm volatile("barrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    if (PDL) asm volatile("griddepcontrol.wait;" ::: "memory");
    if (BODY >= 2 && threadIdx.x == 0) { // one dependent global round trip, then a store
        int v = ((volatile int *)out)[blockIdx.x + 1];
        out[blockIdx.x + 1] = v + 1;
    }
    if (b.b[threadIdx.x % 64] == 77 && threadIdx.x == 9999) printf("x");
}

typedef void (*launcher)(cudaStream_t, int *);
static Big gb;
static int g_grid = 132, g_smem = 0, g_cluster = 2, g_pdl = 0, g_threads = 384;
template <int BODY, int PDL> static void launch_body(cudaStream_t s, int *out) {
    cudaLaunchConfig_t cfg = {}; cudaLaunchAttribute at[2]; int na = 0;
    if (g_cluster > 1) { at[na].id = cudaLaunchAttributeClusterDimension; at[na].val.clusterDim.x = g_cluster; at[na].val.clusterDim.y = 1; at[na].val.clusterDim.z = 1; na++; }
    if (g_pdl) { at[na].id = cudaLaunchAttributeProgrammaticStreamSerialization; at[na].val.programmaticStreamSerializationAllowed = 1; na++; }
    cfg.gridDim = dim3(g_grid); cfg.blockDim = dim3(g_threads); cfg.dynamicSmemBytes = g_smem; cfg.stream = s; cfg.attrs = at; cfg.numAttrs = na;
    CK(cudaLaunchKernelEx(&cfg, body_k<BODY, PDL>, gb, out));
}
__global__ void small_k(int *out) { if (out == (int *)1 && threadIdx.x == 9999) printf("x"); }
static void launch_small(cudaStream_t s, int *out) {
    cudaLaunchConfig_t cfg = {}; cudaLaunchAttribute at[2]; int na = 0;
    if (g_cluster > 1) { at[na].id = cudaLaunchAttributeClusterDimension; at[na].val.clusterDim.x = g_cluster; at[na].val.clusterDim.y = 1; at[na].val.clusterDim.z = 1; na++; }
    cfg.gridDim = dim3(g_grid); cfg.blockDim = dim3(g_threads); cfg.dynamicSmemBytes = 0; cfg.stream = s; cfg.attrs = at; cfg.numAttrs = na;
    CK(cudaLaunchKernelEx(&cfg, small_k, out));
}
static void launch_empty(cudaStream_t s, int *) { empty_k<<<1, 128, 0, s>>>(0); CK(cudaGetLastError()); }
static void launch_empty132(cudaStream_t s, int *) { empty_k<<<132, 384, 0, s>>>(0); CK(cudaGetLastError()); }

static cudaEvent_t g_dt;
static double run(const char *name, launcher L, cudaStream_t s, int *out, int events) {
    const int n = 64;
    cudaEvent_t ev[n + 1];
    for (int i = 0; i <= n; i++) CK(cudaEventCreate(&ev[i]));
    double best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        spin<<<1, 1, 0, s>>>(3000000); // 3 ms: time to queue everything behind it
        CK(cudaEventRecord(ev[0], s));
        for (int i = 0; i < n; i++) { L(s, out); if (events & 1 || i == n - 1) CK(cudaEventRecord(ev[i + 1], s)); if (events & 2) CK(cudaEventRecord(g_dt, s)); }
        CK(cudaStreamSynchronize(s));
        float ms; CK(cudaEventElapsedTime(&ms, ev[0], ev[n]));
        double us = ms * 1e3 / n; if (us < best) best = us;
    }
    printf("%-58s %s  %6.2f us per call\n", name, events == 3 ? "ev+dt " : events == 2 ? "dt    " : events ? "events" : "none  ", best);
    for (int i = 0; i <= n; i++) CK(cudaEventDestroy(ev[i]));
    return best;
}

int main() {
    cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *out; CK(cudaMalloc(&out, 4096)); CK(cudaMemset(out, 0, 4096));
    CK(cudaFuncSetAttribute(body_k<0,0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
    CK(cudaFuncSetAttribute(body_k<1,0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
    CK(cudaFuncSetAttribute(body_k<2,0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
    CK(cudaFuncSetAttribute(body_k<2,1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
    CK(cudaEventCreateWithFlags(&g_dt, cudaEventDisableTiming));
    for (int ev = 3; ev >= 0; ev--) {
        g_cluster = 1; g_grid = 132;
        run("Ex 132x384 no cluster, small params", launch_small, s, out, ev);
        g_cluster = 2;
        run("Ex 132x384 cluster2, small params", launch_small, s, out, ev);
        run("empty <<<1,128>>>", launch_empty, s, out, ev);
        run("empty <<<132,384>>>", launch_empty132, s, out, ev);
        g_cluster = 1; g_smem = 0; g_pdl = 0;
        run("Ex 132x384 no cluster, big params", launch_body<0,0>, s, out, ev);
        g_cluster = 2;
        run("Ex 132x384 cluster2, big params", launch_body<0,0>, s, out, ev);
        g_smem = 220 * 1024;
        run("  + 220 KB smem", launch_body<0,0>, s, out, ev);
        run("  + mbarrier init, cluster sync", launch_body<1,0>, s, out, ev);
        run("  + one global load/store round trip", launch_body<2,0>, s, out, ev);
        g_grid = 2;
        run("  same, 2 CTAs (1 cluster)", launch_body<2,0>, s, out, ev);
        g_grid = 132; g_cluster = 1;
        run("  same, 132 CTAs no cluster", launch_body<2,0>, s, out, ev);
        g_cluster = 2; g_pdl = 1;
        run("  cluster2, PDL attribute + griddepcontrol", launch_body<2,1>, s, out, ev);
        g_grid = 2;
        run("  same, 2 CTAs", launch_body<2,1>, s, out, ev);
        g_grid = 132; g_pdl = 0;
    }
    printf("done\n");
    return 0;
}
