// mlp.cu: how many cache lines an SM keeps in flight, by the number of lines one warp load touches
// (issue 6: gather_l2 / gather_dram wait in lg_throttle on the H200, where a limit counted in warp
// requests breaks the streams; calib/README.md, fourteenth pass). A gather, as contention.cu's, but
// the 32 lanes form k groups of 32/k lanes, and a group's lanes read consecutive words of one random
// line: one warp load touches k lines (k = 1 .. 32) and 32 / k words of each. Each thread keeps 8
// loads in flight (an LCG step per load, then the 8 values summed), K loads per thread. W warps per
// SM (W = 1 .. 64: 132 * B blocks of 32 * W / B threads), a 16 MiB span (L2 resident) or a 1 GiB
// span (DRAM).
// Rows: mlp_<span>_k<k>_w<W>.{lines_per_clk_sm, batch_cycles_med, batch_cycles_p90}: lines loaded per
// clock per SM (SM's first warp start to its last warp end, clock64, median over SMs), and the
// cycles one thread's batch of 8 loads takes (a warp's span / (K / 8); median and P90 over warps).
// Little's law on the rows: lines in flight per SM = lines_per_clk_sm x (batch_cycles / 8 loads)...
// is bounded by W x 8 x k; where the rate stops growing with W x k, a limit on lines binds.
// `mlp SPAN K_LINES W [store]` runs one point once (for ncu). `mlp 2` runs part 2 (rows mlp2_*): loads
// and stores at 32 warps per SM on 132 / 66 / 33 / 16 SMs (does the limit sit at the SM or at the
// slices?), and stores (mlp_scatter) by lines per warp store and warps per SM.
// Leaves out: stores, L1 hits (every line is random over the span: the L1 misses).
#include "common.cuh"

__device__ __forceinline__ unsigned hash32(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

// gshift = log2(32 / k): lanes tid >> gshift share their LCG, so they load the same line.
extern "C" __global__ void mlp_gather(const unsigned* __restrict__ buf, unsigned mask_lines, int K, int gshift,
                                      unsigned* out, WarpRec* rec) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = 0, h = hash32(tid >> gshift);
  __syncwarp();
  const long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < K; k += 8) {
    unsigned v[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      h = h * 1664525u + 1013904223u;
      v[j] = buf[(size_t)((h >> 8) & mask_lines) * 32 + (tid & 31)];
    }
#pragma unroll
    for (int j = 0; j < 8; ++j) s += v[j];
  }
  __syncwarp();
  const long long t1 = clock64();
  if (s == 0x12345u) out[tid] = s;
  warp_record(rec, t0, t1);
}

// The same walk, stores: 8 stores per batch, lanes of a group writing consecutive words of a line.
extern "C" __global__ void mlp_scatter(unsigned* __restrict__ buf, unsigned mask_lines, int K, int gshift,
                                       WarpRec* rec) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = hash32(tid >> gshift);
  __syncwarp();
  const long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < K; k += 8) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      h = h * 1664525u + 1013904223u;
      buf[(size_t)((h >> 8) & mask_lines) * 32 + (tid & 31)] = h;
    }
  }
  __syncwarp();
  const long long t1 = clock64();
  warp_record(rec, t0, t1);
}

struct Point {
  double lines_per_clk_sm, batch_med, batch_p90;
};

// sms: how many SMs get blocks (grid = sms x blocks per SM: the distributor gives each its own SM
// while fewer blocks than SMs x their limit are launched; rows count only SMs that ran W warps).
static Point run_point(unsigned* buf, unsigned mask, int K, int k, int W, int sms, unsigned* out,
                       WarpRec* rec, int reps, bool store = false) {
  const int tpb = W >= 32 ? 1024 : 32 * W, blocks = sms * (32 * W / tpb);
  int gshift = 0;
  while ((32 >> gshift) > k) ++gshift;
  const int warps = blocks * tpb / 32;
  std::vector<double> rates, batches;
  for (int r = 0; r < reps + 1; ++r) {
    if (store) mlp_scatter<<<blocks, tpb>>>(buf, mask, K, gshift, rec);
    else mlp_gather<<<blocks, tpb>>>(buf, mask, K, gshift, out, rec);
    CKL();
    CK(cudaDeviceSynchronize());
    if (r == 0) continue;  // warm
    std::vector<WarpRec> h(warps);
    CK(cudaMemcpy(h.data(), rec, warps * sizeof(WarpRec), cudaMemcpyDeviceToHost));
    std::map<unsigned, std::pair<long long, long long>> span;
    std::map<unsigned, int> count;
    for (auto& w : h) {
      auto it = span.find(w.sm);
      if (it == span.end()) span[w.sm] = {w.t0, w.t1};
      else it->second = {std::min(it->second.first, w.t0), std::max(it->second.second, w.t1)};
      ++count[w.sm];
      if (r == reps) batches.push_back(double(w.t1 - w.t0) / (K / 8));
    }
    for (auto& kv : span)
      if (count[kv.first] == W) rates.push_back(double(W) * K * k / double(kv.second.second - kv.second.first));
  }
  std::sort(batches.begin(), batches.end());
  return Point{median(rates), median(batches), batches[size_t(0.9 * (batches.size() - 1))]};
}

int main(int argc, char** argv) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  const size_t gib = size_t(1) << 30;
  unsigned *buf, *out;
  WarpRec* rec;
  CK(cudaMalloc(&buf, gib));
  CK(cudaMemset(buf, 1, gib));
  CK(cudaMalloc(&out, size_t(sms) * 2048 * 4));
  CK(cudaMalloc(&rec, size_t(sms) * 64 * sizeof(WarpRec)));
  const unsigned l2_mask = (16u << 20) / 128 - 1, dram_mask = unsigned(gib / 128 - 1);
  if (argc >= 4) {  // one point, for ncu: SPAN K W [store]
    const bool l2 = std::string(argv[1]) == "l2";
    const Point q = run_point(buf, l2 ? l2_mask : dram_mask, 256, atoi(argv[2]), atoi(argv[3]), sms, out, rec, 1, argc > 4);
    printf("%s k=%s W=%s: %.3f lines/clk/SM\n", argv[1], argv[2], argv[3], q.lines_per_clk_sm);
    return 0;
  }
  const int K = 256;
  if (argc == 2) {  // part 2 (mlp2): loads and stores on fewer SMs, and stores by shape and warps
    for (int st = 0; st < 2; ++st)
      for (int k : {1, 4, 32})
        for (int used : {132, 66, 33, 16}) {
          const Point q = run_point(buf, l2_mask, K, k, 32, used, out, rec, 3, st);
          const std::string name = fmt("mlp2_%s_k%d_sms%d", st ? "store" : "load", k, used);
          const std::string n = fmt("kernel=%s;16 MiB span;%d lines per warp instruction;32 warps per SM on %d SMs;K=%d;"
                                    "clock64 per warp;median of 3 after a warm launch", st ? "mlp_scatter" : "mlp_gather", k, used, K);
          row(name, "lines_per_clk_sm", q.lines_per_clk_sm, "1/clk", n);
          row(name, "batch_cycles_med", q.batch_med, "cycles", n);
        }
    for (int l2 = 1; l2 >= 0; --l2)
      for (int k : {1, 2, 4, 8, 32})
        for (int W : {4, 8, 16, 32, 64}) {
          const Point q = run_point(buf, l2 ? l2_mask : dram_mask, K, k, W, sms, out, rec, 3, true);
          const std::string name = fmt("mlp2_store_%s_k%d_w%d", l2 ? "l2" : "dram", k, W);
          const std::string n = fmt("kernel=mlp_scatter;%s span;%d lines per warp store;%d warps per SM;8 stores per batch;K=%d;"
                                    "clock64 per warp;median of 3 after a warm launch", l2 ? "16 MiB" : "1 GiB", k, W, K);
          row(name, "lines_per_clk_sm", q.lines_per_clk_sm, "1/clk", n);
          row(name, "batch_cycles_med", q.batch_med, "cycles", n);
        }
    return 0;
  }
  for (int l2 = 1; l2 >= 0; --l2)
    for (int k : {1, 2, 4, 8, 16, 32})
      for (int W : {1, 2, 4, 8, 16, 32, 64}) {
        const Point q = run_point(buf, l2 ? l2_mask : dram_mask, K, k, W, sms, out, rec, 3);
        const std::string name = fmt("mlp_%s_k%d_w%d", l2 ? "l2" : "dram", k, W);
        const std::string n = fmt("kernel=mlp_gather;%s span;%d lines per warp load (%d lanes per line);%d warps per SM;"
                                  "8 loads in flight per thread;K=%d;clock64 per warp;median of 3 after a warm launch",
                                  l2 ? "16 MiB" : "1 GiB", k, 32 / k, W, K);
        row(name, "lines_per_clk_sm", q.lines_per_clk_sm, "1/clk", n);
        row(name, "batch_cycles_med", q.batch_med, "cycles", n);
        row(name, "batch_cycles_p90", q.batch_p90, "cycles", n);
      }
  return 0;
}
