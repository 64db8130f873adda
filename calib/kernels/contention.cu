// contention.cu: atomics, scattered stores and gathers, transposes, local memory (extended set,
// issue 6). Every kernel is timed with events (median); per-op costs are kernel time / ops.
// Atomics are written as inline PTX (atom/red .global/.shared .add.u32) so the compiler does not
// aggregate a warp's same-address adds; the SASS (sass_excerpts.txt) shows what ran.
// 1. atom_*: K atomics per thread, 132 x 8 blocks of 256 threads:
//    same   - every lane of every warp on one address (atom, returns) / red_same (no return),
//    warp   - one address per warp (lanes of a warp agree, warps differ),
//    line   - lane l of every warp on word l of one 128 B line,
//    spread - a distinct word per thread (no contention; contiguous per warp),
//    hist_uniform / hist_skewed / hist_8 - a 256-bin (or 8-bin) histogram of keys from a table:
//             uniform random keys, 50 % of keys = bin 0 (rest uniform), uniform over 8 bins.
//    shared variants (satom_*) on a 256-word shared array, one block's keys.
//    block_reduce - one atomic per block after a shared-memory tree (a reduction's final add).
// 2. gather_l2 / gather_dram: each lane loads one 4 B word from a random line of a 16 MiB (L2
//    resident) or 1 GiB buffer, 8 in flight per thread. scatter_dram: each lane stores one word to a
//    random line of 1 GiB.
// 3. transpose of a 8192 x 8192 float matrix: naive (coalesced reads, column writes), naive_rd
//    (column reads, coalesced writes), tiled (32 x 32 shared tile, 32 x 8 threads), tiled_pad (33).
// 4. local memory: spill (a 64-float per-thread array indexed with data, so it lives in local
//    memory), recurse (a recursive function keeping its frames on the local stack).
// Leaves out: atomics on fp32 / CAS loops, system-scope atomics.
#include "common.cuh"

#define ATOM_G(addr, v) asm volatile("{ .reg .u32 t; atom.global.add.u32 t, [%0], %1; }" ::"l"(addr), "r"(v) : "memory")
#define RED_G(addr, v) asm volatile("red.global.add.u32 [%0], %1;" ::"l"(addr), "r"(v) : "memory")
#define ATOM_S(addr, v) asm volatile("{ .reg .u32 t; atom.shared.add.u32 t, [%0], %1; }" ::"r"(addr), "r"(v) : "memory")

__device__ __forceinline__ unsigned hash32(unsigned h) {
  h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
  return h;
}

// mode: 0 same, 1 warp, 2 line, 3 spread
extern "C" __global__ void atom_global(unsigned* ctr, int K, int mode, int use_red) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = tid >> 5;
  unsigned idx = mode == 0 ? 0 : mode == 1 ? w * 32 : mode == 2 ? lane : tid;
  unsigned* a = ctr + idx;
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    if (use_red) RED_G(a, lane + 1);
    else ATOM_G(a, lane + 1);
  }
}
extern "C" __global__ void hist_global(const unsigned* __restrict__ keys, long long n, unsigned* bins) {
  long long G = (long long)gridDim.x * blockDim.x;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += G) RED_G(bins + keys[i], 1u);
}
extern "C" __global__ void hist_shared(const unsigned* __restrict__ keys, long long n, unsigned* bins) {
  __shared__ unsigned h[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
  __syncthreads();
  long long G = (long long)gridDim.x * blockDim.x;
  unsigned base = (unsigned)__cvta_generic_to_shared(h);
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += G) ATOM_S(base + 4 * keys[i], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) RED_G(bins + i, h[i]);
}
extern "C" __global__ void block_reduce(const float* __restrict__ x, long long n, float* sum) {
  __shared__ float s[256];
  long long G = (long long)gridDim.x * blockDim.x;
  float v = 0.f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += G) v += x[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int o = 128; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, s[0]);
}
extern "C" __global__ void gather(const unsigned* __restrict__ buf, unsigned mask_lines, int K, unsigned* out) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = 0, h = hash32(tid);
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
  if (s == 0x12345u) out[tid] = s;
}
extern "C" __global__ void scatter(unsigned* buf, unsigned mask_lines, int K) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = hash32(tid);
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    h = h * 1664525u + 1013904223u;
    buf[(size_t)((h >> 8) & mask_lines) * 32 + (tid & 31)] = h;
  }
}
extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int N) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(size_t)x * N + y + j] = in[(size_t)(y + j) * N + x];
}
extern "C" __global__ void transpose_naive_rd(const float* __restrict__ in, float* __restrict__ out, int N) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * N + x] = in[(size_t)x * N + y + j];
}
template <int PAD>
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int N) {
  __shared__ float t[32][32 + PAD];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * N + x] = t[threadIdx.x][threadIdx.y + j];
}
extern "C" __global__ void local_spill(const unsigned* __restrict__ seed, int K, unsigned* out) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned arr[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) arr[i] = seed[i] + tid;
  unsigned h = hash32(tid), s = 0;
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    h = h * 1664525u + 1013904223u;
    unsigned i = h >> 26;          // 0..63, differs per lane
    s += arr[i];
    arr[(i + 7) & 63] = s;
  }
  out[tid] = s + arr[tid & 63];
}
__device__ __noinline__ unsigned rec_fn(unsigned n, unsigned x) {
  if (n == 0) return x;
  unsigned a = rec_fn(n - 1, x * 3u + 1u);
  return a ^ (x + n);
}
extern "C" __global__ void recurse(int depth, int K, unsigned* out) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, s = tid;
#pragma unroll 1
  for (int k = 0; k < K; ++k) s = rec_fn(depth + (tid & 1), s);
  out[tid] = s;
}

int main() {
  cudaDeviceProp p = props();
  int sms = p.multiProcessorCount;
  fprintf(stderr, "contention: %s, %d SMs\n", p.name, sms);
  const int REPS = reps_or_1(7), WARM = warm_or_0(2);
  const size_t gib = size_t(1) << 30;
  unsigned *ctr, *keys, *big, *out;
  float *fa, *fb, *sum;
  CK(cudaMalloc(&ctr, size_t(sms) * 2048 * 4 + 4096));
  CK(cudaMalloc(&big, gib));
  CK(cudaMemset(big, 0, gib));
  CK(cudaMalloc(&out, size_t(sms) * 2048 * 4));
  const long long nkeys = 1 << 24;
  CK(cudaMalloc(&keys, nkeys * 4));
  CK(cudaMalloc(&fa, size_t(8192) * 8192 * 4));
  CK(cudaMalloc(&fb, size_t(8192) * 8192 * 4));
  CK(cudaMemset(fa, 0, size_t(8192) * 8192 * 4));
  CK(cudaMalloc(&sum, 4));
  const int blocks = sms * 8, tpb = 256;
  const double threads = double(blocks) * tpb;

  // 1. atomics
  const char* modes[] = {"same", "warp", "line", "spread"};
  for (int mode = 0; mode < 4; ++mode)
    for (int red = 0; red < 2; ++red) {
      if (red && mode != 0 && mode != 3) continue;
      int K = mode == 0 ? 4 : mode == 1 ? 16 : 64;
      CK(cudaMemset(ctr, 0, size_t(sms) * 2048 * 4));
      double ms = time_ms([&] { atom_global<<<blocks, tpb>>>(ctr, K, mode, red); }, REPS, WARM);
      std::string k = std::string(red ? "red_" : "atom_") + modes[mode];
      std::string n = fmt("kernel=atom_global;mode=%s;%s.global.add.u32;K=%d per thread;%d x %d threads;median of %d",
                          modes[mode], red ? "red" : "atom", K, blocks, tpb, REPS);
      row(k, "ms", ms, "ms", n);
      row(k, "ps_per_atomic", ms * 1e9 / (threads * K), "ps", n);
      row(k, "atomics_per_clk_gpu", threads * K / (ms * 1e-3 * 1.98e9), "1/clk", n);
    }
  std::vector<unsigned> hk(nkeys);
  struct H { const char* name; int kind; } hs[] = {{"uniform", 0}, {"skewed", 1}, {"8bins", 2}};
  for (auto& h : hs) {
    Rng r(7 + h.kind);
    for (auto& k : hk) {
      unsigned u = unsigned(r.next() >> 32);
      k = h.kind == 2 ? (u & 7) * 32 : h.kind == 1 ? ((u & 1) ? 0 : (u >> 8) & 255) : (u >> 8) & 255;
    }
    CK(cudaMemcpy(keys, hk.data(), nkeys * 4, cudaMemcpyHostToDevice));
    double ms = time_ms([&] { hist_global<<<blocks, tpb>>>(keys, nkeys, ctr); }, REPS, WARM);
    std::string n = fmt("kernel=hist_global;%lld keys (%s);red.global.add per key;%d x %d threads;median of %d",
                        nkeys, h.name, blocks, tpb, REPS);
    row(std::string("hist_global_") + h.name, "ms", ms, "ms", n);
    row(std::string("hist_global_") + h.name, "ps_per_key", ms * 1e9 / nkeys, "ps", n);
    if (h.kind == 2) continue;
    double ms2 = time_ms([&] { hist_shared<<<blocks, tpb>>>(keys, nkeys, ctr); }, REPS, WARM);
    n = fmt("kernel=hist_shared;%lld keys (%s);atom.shared.add per key + 256 red.global per block;%d x %d threads",
            nkeys, h.name, blocks, tpb);
    row(std::string("hist_shared_") + h.name, "ms", ms2, "ms", n);
    row(std::string("hist_shared_") + h.name, "ps_per_key", ms2 * 1e9 / nkeys, "ps", n);
  }
  {
    const long long n = 1 << 24;  // 64 MB of floats
    for (int bpsm : {8, 64}) {
      double ms = time_ms([&] { block_reduce<<<sms * bpsm, 256>>>(fa, n, sum); }, REPS, WARM);
      row("block_reduce", fmt("b%d_ms", bpsm), ms, "ms",
          fmt("kernel=block_reduce;sum of 16M floats;grid-stride;shared tree;one atomicAdd per block;%d x 256", sms * bpsm));
    }
  }
  // 2. gathers and scatters
  {
    const int K = 64;
    double ms = time_ms([&] { gather<<<blocks, tpb>>>(big, (16u << 20) / 128 - 1, K, out); }, REPS, WARM);
    std::string n = fmt("kernel=gather;16 MiB span (L2 resident);one 4 B word per lane from a random line;8 in flight;K=%d;%d x %d", K, blocks, tpb);
    row("gather_l2", "ms", ms, "ms", n);
    row("gather_l2", "sectors_per_clk_gpu", threads * K / (ms * 1e-3 * 1.98e9), "1/clk", n);
    ms = time_ms([&] { gather<<<blocks, tpb>>>(big, unsigned(gib / 128 - 1), K, out); }, REPS, WARM);
    n = fmt("kernel=gather;1 GiB span;one 4 B word per lane from a random line;8 in flight;K=%d;%d x %d", K, blocks, tpb);
    row("gather_dram", "ms", ms, "ms", n);
    row("gather_dram", "sectors_per_clk_gpu", threads * K / (ms * 1e-3 * 1.98e9), "1/clk", n);
    ms = time_ms([&] { scatter<<<blocks, tpb>>>(big, unsigned(gib / 128 - 1), K); }, REPS, WARM);
    n = fmt("kernel=scatter;1 GiB span;one 4 B store per lane to a random line;K=%d;%d x %d", K, blocks, tpb);
    row("scatter_dram", "ms", ms, "ms", n);
    row("scatter_dram", "stores_per_clk_gpu", threads * K / (ms * 1e-3 * 1.98e9), "1/clk", n);
    ms = time_ms([&] { scatter<<<blocks, tpb>>>(big, (16u << 20) / 128 - 1, K); }, REPS, WARM);
    n = fmt("kernel=scatter;16 MiB span;one 4 B store per lane to a random line;K=%d;%d x %d", K, blocks, tpb);
    row("scatter_l2", "ms", ms, "ms", n);
    row("scatter_l2", "stores_per_clk_gpu", threads * K / (ms * 1e-3 * 1.98e9), "1/clk", n);
  }
  // 3. transposes
  {
    const int N = 8192;
    dim3 g(N / 32, N / 32), b(32, 8);
    struct T { const char* name; void (*k)(const float*, float*, int); } ts[] = {
        {"transpose_naive", transpose_naive}, {"transpose_naive_rd", transpose_naive_rd},
        {"transpose_tiled", transpose_tiled<0>}, {"transpose_tiled_pad", transpose_tiled<1>}};
    for (auto& t : ts) {
      double ms = time_ms([&] { t.k<<<g, b>>>(fa, fb, N); }, REPS, WARM);
      std::string n = fmt("kernel=%s;%d x %d floats;32 x 8 threads per 32 x 32 tile;median of %d", t.name, N, N, REPS);
      row(t.name, "ms", ms, "ms", n);
      row(t.name, "GBps_read_plus_write", 2.0 * N * N * 4 / (ms * 1e6), "GB/s", n);
    }
  }
  // 4. local memory
  {
    const int K = 256;
    double ms = time_ms([&] { local_spill<<<blocks, tpb>>>(big, K, out); }, REPS, WARM);
    std::string n = fmt("kernel=local_spill;64-word per-thread array indexed by a per-lane hash;one local load and store per step;K=%d;%d x %d", K, blocks, tpb);
    row("local_spill", "ms", ms, "ms", n);
    row("local_spill", "ps_per_step", ms * 1e9 / (threads * K), "ps", n);
    // CALIB_LOCAL_KS=16,32,...: the same at other step counts (is the time linear in K?).
    for (int k : env_counts("CALIB_LOCAL_KS")) {
      double msk = time_ms([&] { local_spill<<<blocks, tpb>>>(big, k, out); }, REPS, WARM);
      n = fmt("kernel=local_spill;K=%d;%d x %d", k, blocks, tpb);
      row("local_spill", fmt("ms_K%d", k), msk, "ms", n);
    }
    for (int depth : {8, 32}) {
      const int KR = 16;
      double ms2 = time_ms([&] { recurse<<<blocks, tpb>>>(depth, KR, out); }, REPS, WARM);
      n = fmt("kernel=recurse;recursive call depth %d (odd lanes one deeper: divergent);K=%d;%d x %d", depth, KR, blocks, tpb);
      row("recurse", fmt("d%d_ms", depth), ms2, "ms", n);
      // CALIB_RECURSE_KS=2,4: the same at other call counts (the twin's validate points: what one
      // more call costs, and under ncu what it writes to DRAM; kernels/probe_recurse.sh).
      for (int k : env_counts("CALIB_RECURSE_KS")) {
        double msk = time_ms([&] { recurse<<<blocks, tpb>>>(depth, k, out); }, REPS, WARM);
        n = fmt("kernel=recurse;depth %d;K=%d;%d x %d", depth, k, blocks, tpb);
        row("recurse", fmt("d%d_ms_K%d", depth, k), msk, "ms", n);
      }
    }
  }
  fprintf(stderr, "contention: done\n");
  return 0;
}
