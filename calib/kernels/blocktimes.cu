// blocktimes.cu: when each warp of a held-out kernel starts and ends, and on which SM (issue 6: the
// H100 runs ho_gemm_naive 14 % longer than the model while its sub-partitions issue at the model's
// rate when active: ncu's smsp__issue_active per active cycle 0.44, yet the SMSPs are active only
// 86 % of the kernel. Do some SMs start late, end late, or do a block's warps end far apart?)
// holdout.cu's kernels compiled with HO_ENTER / HO_EXIT stamping, in lane 0 of every warp, %smid,
// %warpid, %globaltimer (ns, one clock for the whole GPU) and clock64 at the start and the end.
// Each kernel runs twice untimed (warm caches, as holdout.cu's event timing), then once stamped.
// Output: CSV rows `KERNEL,param,value,unit,notes` on stdout (the span, the mean warp residency, the
// spread of SM end times), and every warp's stamps in the file named by argv[1]:
//   kernel,warp,sm,hw_warp,start_ns,end_ns,start_clk,end_clk   (end 0: the warp returned early)
// Leaves out: conv3x3 (524,288 warps), hist256 and gather (their warps are many and short).
#include <cuda_runtime.h>

#include <cstdint>

struct HoStamp {
  unsigned long long t0;
  long long c0;
};
__device__ unsigned long long* ho_stamps;  // 6 words per warp

__device__ __forceinline__ unsigned long long ho_globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned ho_linear_tid() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ HoStamp ho_begin() { return HoStamp{ho_globaltimer(), clock64()}; }
__device__ __forceinline__ void ho_end(const HoStamp& s) {
  const long long c1 = clock64();
  const unsigned long long t1 = ho_globaltimer();
  const unsigned tid = ho_linear_tid();
  if (tid % 32) return;
  const unsigned wpb = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned long long* p = ho_stamps + 6ull * (block * wpb + tid / 32);
  unsigned smid, warpid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  p[0] = smid;
  p[1] = warpid;
  p[2] = s.t0;
  p[3] = t1;
  p[4] = (unsigned long long)s.c0;
  p[5] = (unsigned long long)c1;
}
#define HO_ENTER() const HoStamp ho_s_ = ho_begin()
#define HO_EXIT() ho_end(ho_s_)
#define main holdout_main
#include "holdout.cu"
#undef main

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: blocktimes STAMPS.csv\n");
    return 1;
  }
  FILE* out = fopen(argv[1], "w");
  if (!out) return 1;
  fprintf(out, "kernel,warp,sm,hw_warp,start_ns,end_ns,start_clk,end_clk\n");
  const size_t max_warps = 1 << 16;
  unsigned long long* d;
  CK(cudaMalloc(&d, max_warps * 6 * 8));
  CK(cudaMemcpyToSymbol(ho_stamps, &d, sizeof d));
  float *fa, *fb, *fc;
  CK(cudaMalloc(&fa, size_t(1) << 28));
  CK(cudaMalloc(&fb, size_t(1) << 28));
  CK(cudaMalloc(&fc, size_t(1) << 28));
  CK(cudaMemset(fa, 0, size_t(1) << 28));
  CK(cudaMemset(fb, 0, size_t(1) << 28));
  CK(cudaMemset(fc, 0, size_t(1) << 28));
  const int sms = props().multiProcessorCount, rows = 16384, cols = 1024;
  std::vector<unsigned long long> h(max_warps * 6);
  auto stamp = [&](const char* k, size_t warps, auto launch) {
    CK(cudaMemset(d, 0, max_warps * 6 * 8));
    launch();
    launch();
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(d, 0, max_warps * 6 * 8));
    launch();
    CKL();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d, warps * 6 * 8, cudaMemcpyDeviceToHost));
    unsigned long long first = ~0ull, last = 0;
    double resid = 0;
    size_t ended = 0;
    std::map<unsigned, unsigned long long> sm_end;
    for (size_t w = 0; w < warps; ++w) {
      const unsigned long long* p = &h[6 * w];
      fprintf(out, "%s,%zu,%llu,%llu,%llu,%llu,%llu,%llu\n", k, w, p[0], p[1], p[2], p[3], p[4], p[5]);
      if (!p[3]) continue;
      ++ended;
      first = std::min(first, p[2]);
      last = std::max(last, p[3]);
      resid += double(p[3] - p[2]);
      sm_end[unsigned(p[0])] = std::max(sm_end[unsigned(p[0])], p[3]);
    }
    std::vector<double> ends;
    for (auto& e : sm_end) ends.push_back(double(e.second - first));
    std::sort(ends.begin(), ends.end());
    const std::string n = fmt("%zu warps stamped;%zu SMs", ended, sm_end.size());
    row(k, "span_ns", double(last - first), "ns", n);
    row(k, "mean_residency_ns", ended ? resid / double(ended) : 0.0, "ns", n);
    if (!ends.empty()) {
      row(k, "sm_end_min_ns", ends.front(), "ns", n);
      row(k, "sm_end_median_ns", ends[ends.size() / 2], "ns", n);
      row(k, "sm_end_max_ns", ends.back(), "ns", n);
    }
  };
  stamp("ho_gemm_naive", 8192, [&] { ho_gemm_naive<<<dim3(512 / 16, 512 / 16), dim3(16, 16)>>>(fa, fb, fc, 512); });
  stamp("ho_matvec_warp", 16384, [&] { ho_matvec_warp<<<rows * 32 / 256, 256>>>(fa, fb, fc, rows, cols); });
  stamp("ho_softmax", 32768, [&] { ho_softmax<<<4096, 256>>>(fa, fb, 4096); });
  stamp("ho_matvec_thread", 512, [&] { ho_matvec_thread<<<rows / 256, 256>>>(fa, fb, fc, rows, cols); });
  stamp("ho_reduce_atomic", size_t(sms) * 8 * 8, [&] { ho_reduce_atomic<<<sms * 8, 256>>>(fa, fc, 1 << 24); });
  fclose(out);
  return 0;
}
