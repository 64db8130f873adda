// blocktimes.cu: when each warp of a held-out kernel starts and ends, and on which SM (issue 6: the
// H100 runs ho_gemm_naive 14 % longer than the model while its sub-partitions issue at the model's
// rate when active: ncu's smsp__issue_active per active cycle 0.44, yet the SMSPs are active only
// 86 % of the kernel. Do some SMs start late, end late, or do a block's warps end far apart?)
// holdout.cu's kernels compiled with HO_ENTER / HO_EXIT stamping, in lane 0 of every warp, %smid,
// %warpid, %globaltimer (ns, one clock for the whole GPU) and clock64 at the start and the end.
// Each kernel runs twice untimed (warm caches, as holdout.cu's event timing), then once stamped.
// Output: CSV rows `KERNEL,param,value,unit,notes` on stdout (the span, the mean warp residency, the
// spread of SM end times; for ho_softmax the mean clocks of each phase between HO_MARKs: phase0 the max
// pass's loads, phase1 its block reduction, phase2 the sum pass, phase3 its reduction, phase4 the scaled
// stores), and every warp's stamps in the file named by argv[1]:
//   kernel,warp,sm,hw_warp,start_ns,end_ns,start_clk,end_clk,mark0_clk..mark3_clk
//   (end 0: the warp returned early; marks 0 where the kernel has none)
// Leaves out: conv3x3 (524,288 warps), hist256 and gather (their warps are many and short).
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kHoMarks = 4;
constexpr int kHoWords = 6 + kHoMarks;
struct HoStamp {
  unsigned long long t0;
  long long c0;
  long long m[kHoMarks];
};
__device__ unsigned long long* ho_stamps;  // kHoWords words per warp

__device__ __forceinline__ unsigned long long ho_globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned ho_linear_tid() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ HoStamp ho_begin() { return HoStamp{ho_globaltimer(), clock64(), {}}; }
__device__ __forceinline__ void ho_end(const HoStamp& s) {
  const long long c1 = clock64();
  const unsigned long long t1 = ho_globaltimer();
  const unsigned tid = ho_linear_tid();
  if (tid % 32) return;
  const unsigned wpb = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned long long* p = ho_stamps + (unsigned long long)kHoWords * (block * wpb + tid / 32);
  unsigned smid, warpid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  p[0] = smid;
  p[1] = warpid;
  p[2] = s.t0;
  p[3] = t1;
  p[4] = (unsigned long long)s.c0;
  p[5] = (unsigned long long)c1;
  for (int i = 0; i < kHoMarks; ++i) p[6 + i] = (unsigned long long)s.m[i];
}
#define HO_ENTER() HoStamp ho_s_ = ho_begin()
#define HO_MARK(i) ho_s_.m[i] = clock64()
#define HO_EXIT() ho_end(ho_s_)
#define main holdout_main
#include "holdout.cu"
#undef main

// Adds one warp's phase lengths (start -> mark0 -> ... -> mark3 -> end, clock64) to sums[0..kHoMarks] and
// counts the warp in sums[kHoMarks + 1].
static void add_phases(const unsigned long long* p, std::vector<double>& sums) {
  long long prev = (long long)p[4];
  for (int i = 0; i <= kHoMarks; ++i) {
    const long long t = (long long)(i < kHoMarks ? p[6 + i] : p[5]);
    sums[i] += double(t - prev);
    prev = t;
  }
  sums[kHoMarks + 1] += 1.0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: blocktimes STAMPS.csv\n");
    return 1;
  }
  FILE* out = fopen(argv[1], "w");
  if (!out) return 1;
  fprintf(out, "kernel,warp,sm,hw_warp,start_ns,end_ns,start_clk,end_clk,mark0_clk,mark1_clk,mark2_clk,mark3_clk\n");
  const size_t max_warps = 1 << 16;
  unsigned long long* d;
  CK(cudaMalloc(&d, max_warps * kHoWords * 8));
  CK(cudaMemcpyToSymbol(ho_stamps, &d, sizeof d));
  float *fa, *fb, *fc;
  CK(cudaMalloc(&fa, size_t(1) << 28));
  CK(cudaMalloc(&fb, size_t(1) << 28));
  CK(cudaMalloc(&fc, size_t(1) << 28));
  CK(cudaMemset(fa, 0, size_t(1) << 28));
  CK(cudaMemset(fb, 0, size_t(1) << 28));
  CK(cudaMemset(fc, 0, size_t(1) << 28));
  const int sms = props().multiProcessorCount, rows = 16384, cols = 1024;
  std::vector<unsigned long long> h(max_warps * kHoWords);
  auto stamp = [&](const char* k, size_t warps, auto launch) {
    CK(cudaMemset(d, 0, max_warps * kHoWords * 8));
    launch();
    launch();
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(d, 0, max_warps * kHoWords * 8));
    launch();
    CKL();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d, warps * kHoWords * 8, cudaMemcpyDeviceToHost));
    unsigned long long first = ~0ull, last = 0;
    double resid = 0;
    size_t ended = 0;
    std::map<unsigned, unsigned long long> sm_end;
    std::vector<double> phase(kHoMarks + 2, 0.0);  // per-phase clock sums, then the count of marked warps
    for (size_t w = 0; w < warps; ++w) {
      const unsigned long long* p = &h[kHoWords * w];
      fprintf(out, "%s,%zu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", k, w, p[0], p[1], p[2], p[3], p[4], p[5],
              p[6], p[7], p[8], p[9]);
      if (!p[3]) continue;
      if (p[6 + kHoMarks - 1]) add_phases(p, phase);
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
    for (int i = 0; i <= kHoMarks && phase[kHoMarks + 1] > 0; ++i)
      row(k, fmt("phase%d_clk", i), phase[i] / phase[kHoMarks + 1], "clk", fmt("mean over %.0f warps", phase[kHoMarks + 1]));
  };
  stamp("ho_gemm_naive", 8192, [&] { ho_gemm_naive<<<dim3(512 / 16, 512 / 16), dim3(16, 16)>>>(fa, fb, fc, 512); });
  stamp("ho_matvec_warp", 16384, [&] { ho_matvec_warp<<<rows * 32 / 256, 256>>>(fa, fb, fc, rows, cols); });
  stamp("ho_softmax", 32768, [&] { ho_softmax<<<4096, 256>>>(fa, fb, 4096); });
  stamp("ho_matvec_thread", 512, [&] { ho_matvec_thread<<<rows / 256, 256>>>(fa, fb, fc, rows, cols); });
  stamp("ho_reduce_atomic", size_t(sms) * 8 * 8, [&] { ho_reduce_atomic<<<sms * 8, 256>>>(fa, fc, 1 << 24); });
  fclose(out);
  return 0;
}
