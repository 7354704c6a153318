// probe (not built by make; nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a probe.cu ../../../common/hold.cu): the GPU-side cost of a launch's configuration, back to back (held queue)
#include <cstdio>
#include <cuda_runtime.h>
#include "../../../common/hold.h"
__global__ void k_plain(int *p) { if (threadIdx.x == 0 && p) p[blockIdx.x] = 1; }
__global__ void k_smem(int *p) { extern __shared__ int s[]; if (threadIdx.x == 0 && p) { s[0] = 1; p[blockIdx.x] = s[0]; } }
__global__ void k_clbar(int *p) {
  extern __shared__ int s[];
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
  if (threadIdx.x == 0 && p) { s[0] = 1; p[blockIdx.x] = s[0]; } }
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
static cudaError_t launch(int which, int grid, size_t smem, int cluster, cudaStream_t st, int *p) {
  cudaLaunchConfig_t cfg = {}; cudaLaunchAttribute at[1];
  cfg.gridDim = dim3(grid); cfg.blockDim = dim3(384); cfg.dynamicSmemBytes = smem; cfg.stream = st;
  at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = cluster; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
  cfg.attrs = at; cfg.numAttrs = cluster > 1 ? 1 : 0;
  void (*k)(int *) = which == 0 ? k_plain : which == 1 ? k_smem : k_clbar;
  return cudaLaunchKernelEx(&cfg, k, p);
}
int main() {
  int *p; CK(cudaMalloc(&p, 4096 * 4));
  const size_t big = 227 * 1024;
  CK(cudaFuncSetAttribute(k_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big));
  CK(cudaFuncSetAttribute(k_clbar, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big));
  cudaStream_t st; CK(cudaStreamCreate(&st));
  queue_hold h; CK(hold_open(&h));
  struct { const char *name; int which, grid; size_t smem; int cl; } cf[] = {
    {"plain 10 CTAs, no smem", 0, 10, 0, 1}, {"plain 132 CTAs", 0, 132, 0, 1},
    {"10 CTAs, 227 KB smem", 1, 10, big, 1}, {"132 CTAs, 227 KB", 1, 132, big, 1},
    {"10 CTAs, 227 KB, cluster 2", 1, 10, big, 2}, {"132 CTAs, 227 KB, cluster 2", 1, 132, big, 2},
    {"10 CTAs, 227 KB, cluster 2, cluster barrier", 2, 10, big, 2}, {"132 CTAs, 227 KB, cl 2, barrier", 2, 132, big, 2},
    {"10 CTAs, 100 KB, cluster 2", 1, 10, 100 * 1024, 2},
  };
  const int n = sizeof cf / sizeof cf[0], R = 60;
  cudaEvent_t ev[R + 1]; for (int i = 0; i <= R; i++) CK(cudaEventCreate(&ev[i]));
  for (int a = 0; a < n; a++) for (int alt = -1; alt < n; alt += (alt < 0 ? a + 1 : n)) {
    // alone (alt = -1), or alternating with config 0 / with 'plain 132' ... keep simple: alone, and alternating with config 3
    int b = alt < 0 ? -1 : 3;
    for (int w = 0; w < 5; w++) CK(launch(cf[a].which, cf[a].grid, cf[a].smem, cf[a].cl, st, p));
    CK(cudaStreamSynchronize(st));
    CK(hold_begin(&h, st, 2.0));
    CK(cudaEventRecord(ev[0], st));
    for (int i = 0; i < R; i++) {
      if (b >= 0) CK(launch(cf[b].which, cf[b].grid, cf[b].smem, cf[b].cl, st, p));
      CK(launch(cf[a].which, cf[a].grid, cf[a].smem, cf[a].cl, st, p));
      CK(cudaEventRecord(ev[i + 1], st));
    }
    hold_release(&h); CK(cudaStreamSynchronize(st));
    float ms; CK(cudaEventElapsedTime(&ms, ev[1], ev[R]));
    printf("%-48s %s: %.2f us per %s\n", cf[a].name, b < 0 ? "alone        " : "after cfg 3's", ms * 1e3 / (R - 1), b < 0 ? "call" : "pair");
    if (alt >= 0) break;
  }
  return 0;
}
