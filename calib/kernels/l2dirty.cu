// l2dirty.cu: what the L2 holds of data that SMs write, and how an SM's L1TEX handles requests
// that touch many lines (issue 6, "local memory": a 69 MB spilled stack misses L2 on ~half its
// sectors on the H200; l2cap.cu measured reads only).
// Part 1, private footprint of F MB, SM s using only part s of 132 (the shape of spilled locals),
// 8 blocks x 256 threads per SM, 4 B per lane at hashed 32 B sectors (32 sectors per instruction):
//  - read:  64 __ldcg loads per thread (4 independent in flight), as l2cap's private mode;
//  - rmw:   per step 4 loads and 4 stores to other hashed sectors (a spilled array's load and store);
//  - write: 64 stores per thread.
// Rows per F: accesses_per_clk (GPU, 1.98 GHz) and ms, after one warm launch of the same
// addresses (median of 5). `l2dirty MODE MB` runs one point once (for ncu's hit rate and DRAM bytes).
// Part 2, lines per request: every warp loads 32 words spread over N lines (N = 1..32; lane l
// reads line (l % N) of a hashed group) from an L2-resident 8 MB span (__ldcg: no L1), 4
// independent requests in flight per thread, 8 blocks of 256 per SM: requests_per_clk_per_sm and
// lines_per_clk_per_sm show whether an SM's miss path or the slices bind.
// Leaves out: shared (non-private) writes, L1-resident data.
#include "common.cuh"

__device__ __forceinline__ unsigned mix(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

enum Mode { kRead = 0, kRmw = 1, kWrite = 2 };

__global__ void private_access(float* buf, unsigned sectors, int per_thread, int mode, unsigned parts, float* out) {
  float s = 0.f;
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned span = sectors / parts, first = (smid() % parts) * span;
#pragma unroll 1
  for (int k = 0; k < per_thread; k += 4) {
    const unsigned h = mix(tid * 4u + unsigned(k) * 0x9e3779b9u + 7u);
    float* p0 = buf + size_t(first + h % span) * 8;
    float* p1 = buf + size_t(first + mix(h + 1) % span) * 8;
    float* p2 = buf + size_t(first + mix(h + 2) % span) * 8;
    float* p3 = buf + size_t(first + mix(h + 3) % span) * 8;
    if (mode == kWrite) {
      __stcg(p0, s); __stcg(p1, s + 1.f); __stcg(p2, s + 2.f); __stcg(p3, s + 3.f);
      s += 1.f;
      continue;
    }
    const float a = __ldcg(p0), b = __ldcg(p1), c = __ldcg(p2), d = __ldcg(p3);
    s += a + b + c + d;
    if (mode == kRmw) {
      const unsigned g = mix(h ^ 0x5bd1e995u);
      __stcg(buf + size_t(first + g % span) * 8, a + 1.f);
      __stcg(buf + size_t(first + mix(g + 1) % span) * 8, b + 1.f);
      __stcg(buf + size_t(first + mix(g + 2) % span) * 8, c + 1.f);
      __stcg(buf + size_t(first + mix(g + 3) % span) * 8, d + 1.f);
    }
  }
  if (s == 1234.5f) out[0] = s;
}

// Lane l of a warp reads word (l / N) of line (l % N) of a hashed group of N lines.
template <bool kCg>
__device__ __forceinline__ float load(const float* p) { return kCg ? __ldcg(p) : __ldca(p); }

template <bool kCg>
__global__ void lines_per_request(const float* __restrict__ buf, unsigned groups, int N, int per_thread, float* out) {
  float s = 0.f;
  const unsigned lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned line = lane % unsigned(N), word = lane / unsigned(N);
#pragma unroll 1
  for (int k = 0; k < per_thread; k += 4) {
    const unsigned h = mix(warp * 4u + unsigned(k) * 0x9e3779b9u);
    const size_t g0 = h % groups, g1 = mix(h + 1) % groups, g2 = mix(h + 2) % groups, g3 = mix(h + 3) % groups;
    const size_t off = size_t(line) * 32 + word;  // 32 floats per 128 B line
    s += load<kCg>(buf + g0 * N * 32 + off) + load<kCg>(buf + g1 * N * 32 + off) +
         load<kCg>(buf + g2 * N * 32 + off) + load<kCg>(buf + g3 * N * 32 + off);
  }
  if (s == 1234.5f) out[0] = s;
}

static const char* kModeNames[] = {"read", "rmw", "write"};

static double run_private(float* buf, size_t bytes, int blocks, int mode, float* out, int reps) {
  const unsigned sectors = unsigned(bytes / 32), parts = unsigned(blocks / 8);
  const int per_thread = 64;
  private_access<<<blocks, 256>>>(buf, sectors, per_thread, mode, parts, out);  // warm: the same addresses
  return time_ms([&] { private_access<<<blocks, 256>>>(buf, sectors, per_thread, mode, parts, out); }, reps, 1);
}

int main(int argc, char** argv) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int blocks = p.multiProcessorCount * 8;
  const size_t max_bytes = size_t(256) << 20;
  float *buf, *out;
  CK(cudaMalloc(&buf, max_bytes));
  CK(cudaMemset(buf, 0, max_bytes));
  CK(cudaMalloc(&out, 4));
  const double accesses = double(blocks) * 256.0 * 64;
  if (argc == 3) {  // one point, for ncu
    const std::string m = argv[1];
    const int mode = m == "rmw" ? kRmw : m == "write" ? kWrite : kRead;
    const double ms = run_private(buf, size_t(atoi(argv[2])) << 20, blocks, mode, out, 1);
    printf("%s %s MB: %.4f ms\n", argv[1], argv[2], ms);
    return 0;
  }
  const int mbs[] = {16, 24, 32, 40, 48, 56, 64, 80, 96, 128, 192};
  for (int mb : mbs)
    for (int mode = 0; mode < 3; ++mode) {
      const double ms = run_private(buf, size_t(mb) << 20, blocks, mode, out, 5);
      const double n_acc = mode == kRmw ? 2 * accesses : accesses;
      const std::string k = fmt("l2dirty_%s_%dMB", kModeNames[mode], mb);
      const std::string n = fmt("kernel=private_access %s;%d MB in %d parts (SM s uses part s);%d x 256 threads;64 %s per thread at hashed 32 B sectors;after a warm launch;median of 5",
                                kModeNames[mode], mb, blocks / 8, blocks,
                                mode == kRead ? "ld.global.cg" : mode == kWrite ? "st.global.cg" : "(ld.cg + st.cg)");
      row(k, "ms", ms, "ms", n);
      row(k, "accesses_per_clk", n_acc / (ms * 1e-3 * 1.98e9), "1/clk", n);
    }
  const unsigned span_lines = (8u << 20) / 128;
  for (int cg = 1; cg >= 0; --cg)
    for (int N : {1, 2, 4, 8, 16, 32}) {
      const unsigned groups = span_lines / unsigned(N);
      const int per_thread = 64;
      auto launch = [&] {
        if (cg) lines_per_request<true><<<blocks, 256>>>(buf, groups, N, per_thread, out);
        else lines_per_request<false><<<blocks, 256>>>(buf, groups, N, per_thread, out);
      };
      launch();  // leaves the span in L2
      const double ms = time_ms(launch, 5, 1);
      const double requests = double(blocks) * 8 * per_thread;  // warps x loads
      const double per_sm_clk = ms * 1e-3 * 1.98e9 * p.multiProcessorCount;
      const std::string k = fmt("l1lines_%s_N%d", cg ? "cg" : "ca", N);
      const std::string n = fmt("kernel=lines_per_request;32 words over %d lines per warp load;8 MB L2-resident span;ld.global.%s;%d x 256 threads;64 loads per thread;median of 5",
                                N, cg ? "cg" : "ca", blocks);
      row(k, "ms", ms, "ms", n);
      row(k, "requests_per_clk_per_sm", requests / per_sm_clk, "1/clk", n);
      row(k, "lines_per_clk_per_sm", requests * N / per_sm_clk, "1/clk", n);
    }
  return 0;
}
