// apps.cu: application-like kernels and warp-order / warp-release experiments (extended set,
// issue 6). Kernel times are event medians; per-warp records (clock64 at start and end, %smid,
// %warpid) give the distribution of warp durations and end times where the notes say so.
// Apps: saxpy (16M), stencil5 (2D 5-point, 4096^2), sgemm_tile (16 x 16 shared tiles, 1024^3),
// raymarch (sphere tracing an SDF scene, 1024^2 pixels, at most 96 steps: divergent, data-
// dependent loop), scan_block (1024-element Hillis-Steele scan per block in shared memory),
// bitonic_step (one global compare-exchange step over 16M keys), spmv_powerlaw (CSR, one thread per
// row, power-law row lengths: warps of very unequal work; block starts give the residency).
// Warp order: order_ffma (8 warps per SMSP, 8 independent FFMA chains each: issue bound),
// order_dep (16 warps per SMSP, one dependent FFMA chain each: latency bound), order_mix (half
// the warps chase DRAM, half run FFMA): per-warp end times against the warp's index.
// Warp release: release_test (blocks of 8 warps; warp 0 runs 64x longer than the others):
// the most blocks one SM held at once tells whether a finished warp's slot comes back alone.
// Leaves out: tensor cores, cooperative groups, TMA.
#include "common.cuh"

__global__ void saxpy(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void stencil5(const float* __restrict__ in, float* __restrict__ out, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= N - 1 || y >= N - 1) return;
  size_t i = (size_t)y * N + x;
  out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - N] + in[i + N]);
}
__global__ void sgemm_tile(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < N; k0 += 16) {
    As[ty][tx] = A[(size_t)row * N + k0 + tx];
    Bs[ty][tx] = B[(size_t)(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  C[(size_t)row * N + col] = acc;
}
__device__ __forceinline__ float sdf(float x, float y, float z) {
  float d1 = sqrtf(x * x + y * y + (z - 3.f) * (z - 3.f)) - 1.0f;
  float dx = x - 1.2f, dz = z - 4.f;
  float d2 = sqrtf(dx * dx + (y + 0.6f) * (y + 0.6f) + dz * dz) - 0.4f;
  float d3 = y + 1.0f;
  return fminf(fminf(d1, d2), d3);
}
__global__ void raymarch(float* img, int W, int H, WarpRec* rec) {
  int px = blockIdx.x * 8 + (threadIdx.x & 7), py = blockIdx.y * 4 + (threadIdx.x >> 3);
  long long t0 = clock64();
  float dx = (px - W * 0.5f) / H, dy = (py - H * 0.5f) / H, dz = 1.f;
  float inv = rsqrtf(dx * dx + dy * dy + dz * dz);
  dx *= inv; dy *= inv; dz *= inv;
  float t = 0.f;
  int i = 0;
  for (; i < 96; ++i) {
    float d = sdf(t * dx, t * dy, t * dz);
    if (d < 1e-3f || t > 20.f) break;
    t += d;
  }
  img[py * W + px] = t + i;
  long long t1 = clock64();
  if ((threadIdx.x & 31) == 0) {
    unsigned w = (blockIdx.y * gridDim.x + blockIdx.x);
    rec[w] = WarpRec{t0, t1, smid(), hw_warpid()};
  }
}
__global__ void scan_block(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float s[2][1024];
  int t = threadIdx.x, b = blockIdx.x;
  s[0][t] = in[b * 1024 + t];
  __syncthreads();
  int src = 0;
  for (int o = 1; o < 1024; o <<= 1) {
    float v = s[src][t];
    if (t >= o) v += s[src][t - o];
    s[1 - src][t] = v;
    src = 1 - src;
    __syncthreads();
  }
  out[b * 1024 + t] = s[src][t];
}
__global__ void bitonic_step(unsigned* keys, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, p = i ^ j;
  if (p > i) {
    unsigned a = keys[i], b = keys[p];
    bool up = (i & k) == 0;
    if ((a > b) == up) { keys[i] = b; keys[p] = a; }
  }
}
__global__ void spmv_powerlaw(const int* __restrict__ rowptr, const int* __restrict__ col, const float* __restrict__ val,
                              const float* __restrict__ x, float* __restrict__ y, int rows, WarpRec* rec) {
  long long t0 = clock64();
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.f;
    for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) s += val[e] * x[col[e]];
    y[r] = s;
  }
  long long t1 = clock64();
  warp_record(rec, t0, t1);
}
// Warp order.
__global__ void order_ffma(int iters, float* out, WarpRec* rec) {
  float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
  const float m = 0.9999f, c = 0.01f;
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      a0 = fmaf(a0, m, c); a1 = fmaf(a1, m, c); a2 = fmaf(a2, m, c); a3 = fmaf(a3, m, c);
      a4 = fmaf(a4, m, c); a5 = fmaf(a5, m, c); a6 = fmaf(a6, m, c); a7 = fmaf(a7, m, c);
    }
  }
  long long t1 = clock64();
  warp_record(rec, t0, t1);
  float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  if (s == 1234.5f) out[threadIdx.x] = s;
}
__global__ void order_dep(int iters, float* out, WarpRec* rec) {
  float a = threadIdx.x;
  const float m = 0.9999f, c = 0.01f;
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) a = fmaf(a, m, c);
  }
  long long t1 = clock64();
  warp_record(rec, t0, t1);
  if (a == 1234.5f) out[threadIdx.x] = a;
}
__global__ void order_mix(const unsigned* __restrict__ buf, unsigned mask, int iters, unsigned salt, float* out, WarpRec* rec) {
  unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  float a = lane;
  unsigned line = ((gw + salt) * 2654435761u) & mask;  // new lines per launch: cold in L2
  long long t0 = clock64();
  if ((threadIdx.x >> 5) & 1) {
#pragma unroll 1
    for (int i = 0; i < iters; ++i) {
      unsigned v = buf[(size_t)line * 32 + lane];
      line = (line * 1664525u + 1013904223u + (v >> 31)) & mask;
    }
  } else {
#pragma unroll 1
    for (int i = 0; i < iters * 16; ++i) {
#pragma unroll
      for (int k = 0; k < 16; ++k) a = fmaf(a, 0.9999f, 0.01f);
    }
  }
  long long t1 = clock64();
  warp_record(rec, t0, t1);
  if (a == 1234.5f || line == 0xFFFFFFFFu) out[threadIdx.x] = a;
}
struct BlockStart { long long t0, t1; unsigned sm, pad; };
__global__ void release_test(int long_iters, int short_iters, float* out, BlockStart* rec) {
  long long t0 = clock64();
  int n = (threadIdx.x >> 5) == 0 ? long_iters : short_iters;
  float a = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) a = fmaf(a, 0.9999f, 0.01f);
  }
  if (a == 1234.5f) out[threadIdx.x] = a;
  long long t1 = clock64();
  if (threadIdx.x == 0) rec[blockIdx.x] = BlockStart{t0, t0, smid(), 0};
  if (threadIdx.x == 0) rec[blockIdx.x].t1 = t1;  // warp 0 is the long one: its end is the block's end
}

// Most blocks resident at once on one SM, from [t0, t1] intervals (median over SMs).
static double max_concurrent(const std::vector<BlockStart>& r) {
  std::map<unsigned, std::vector<std::pair<long long, int>>> ev;
  for (auto& b : r) { ev[b.sm].push_back({b.t0, 1}); ev[b.sm].push_back({b.t1, -1}); }
  std::vector<double> m;
  for (auto& kv : ev) {
    auto& e = kv.second;
    std::sort(e.begin(), e.end(), [](auto& a, auto& b) { return a.first != b.first ? a.first < b.first : a.second < b.second; });
    int c = 0, best = 0;
    for (auto& x : e) best = std::max(best, c += x.second);
    m.push_back(best);
  }
  return median(m);
}

static void dist_rows(const char* k, const std::string& p, WarpRec* d_rec, int nw, const std::string& n) {
  std::vector<WarpRec> h(nw);
  CK(cudaMemcpy(h.data(), d_rec, nw * sizeof(WarpRec), cudaMemcpyDeviceToHost));
  warp_rows(k, p, warp_dist(h), 1.0, n);
}
// End time against the warp's slot: mean end of the first and of the last quarter of each SM's
// warps (by %warpid), as a ratio: > 1 when the old warps finish later (the young ones are favoured).
static void order_rows(const char* k, WarpRec* d_rec, int nw, const std::string& n) {
  std::vector<WarpRec> h(nw);
  CK(cudaMemcpy(h.data(), d_rec, nw * sizeof(WarpRec), cudaMemcpyDeviceToHost));
  std::map<unsigned, std::vector<WarpRec>> by;
  for (auto& r : h) by[r.sm].push_back(r);
  std::vector<double> ratio, spread;
  for (auto& kv : by) {
    auto v = kv.second;
    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.hwwarp < b.hwwarp; });
    long long first = v[0].t0;
    for (auto& r : v) first = std::min(first, r.t0);
    size_t q = v.size() / 4;
    if (q == 0) continue;
    double lo = 0, hi = 0, mx = 0, mn = 1e30;
    for (size_t i = 0; i < q; ++i) lo += v[i].t1 - first, hi += v[v.size() - 1 - i].t1 - first;
    for (auto& r : v) mx = std::max(mx, double(r.t1 - first)), mn = std::min(mn, double(r.t1 - first));
    ratio.push_back(lo / hi);
    spread.push_back(mx / mn);
  }
  row(k, "end_oldq_over_youngq", median(ratio), "x", n);
  row(k, "end_max_over_min", median(spread), "x", n);
  warp_rows(k, "", warp_dist(h), 1.0, n);
}

int main() {
  cudaDeviceProp p = props();
  int sms = p.multiProcessorCount;
  fprintf(stderr, "apps: %s, %d SMs\n", p.name, sms);
  const int REPS = reps_or_1(7), WARM = warm_or_0(2);
  float *fa, *fb, *fc, *out;
  WarpRec* rec;
  CK(cudaMalloc(&fa, size_t(1) << 28));
  CK(cudaMalloc(&fb, size_t(1) << 28));
  CK(cudaMalloc(&fc, size_t(1) << 28));
  CK(cudaMemset(fa, 0, size_t(1) << 28));
  CK(cudaMemset(fb, 0, size_t(1) << 28));
  CK(cudaMalloc(&out, size_t(1) << 24));
  CK(cudaMalloc(&rec, size_t(1) << 24));
  {
    int n = 1 << 24;
    double ms = time_ms([&] { saxpy<<<n / 256, 256>>>(fa, fb, 2.f, n); }, REPS, WARM);
    row("saxpy", "us", ms * 1e3, "us", fmt("kernel=saxpy;16M floats;%d x 256;median of %d", n / 256, REPS));
  }
  {
    int N = 4096;
    dim3 b(32, 8), g(N / 32, N / 8);
    double ms = time_ms([&] { stencil5<<<g, b>>>(fa, fb, N); }, REPS, WARM);
    row("stencil5", "us", ms * 1e3, "us", fmt("kernel=stencil5;4096 x 4096 floats;32 x 8 blocks;median of %d", REPS));
  }
  {
    int N = 1024;
    dim3 b(16, 16), g(N / 16, N / 16);
    double ms = time_ms([&] { sgemm_tile<<<g, b>>>(fa, fb, fc, N); }, REPS, WARM);
    row("sgemm_tile", "us", ms * 1e3, "us", fmt("kernel=sgemm_tile;1024^3;16 x 16 shared tiles;median of %d", REPS));
  }
  {
    int W = 1024, H = 1024;
    dim3 g(W / 8, H / 4);
    double ms = time_ms([&] { raymarch<<<g, 32>>>(out, W, H, rec); }, REPS, WARM);
    std::string n = fmt("kernel=raymarch;1024 x 1024 pixels;8 x 4 pixel warps (one warp per block);<= 96 steps;median of %d", REPS);
    row("raymarch", "us", ms * 1e3, "us", n);
    dist_rows("raymarch", "warp_", rec, (W / 8) * (H / 4), n);
  }
  {
    int blocks = 16384;
    double ms = time_ms([&] { scan_block<<<blocks, 1024>>>(fa, fb); }, REPS, WARM);
    row("scan_block", "us", ms * 1e3, "us", fmt("kernel=scan_block;16384 blocks of 1024-element Hillis-Steele scans;median of %d", REPS));
  }
  {
    int n = 1 << 24;
    double ms = time_ms([&] { bitonic_step<<<n / 256, 256>>>((unsigned*)fa, 1024, 4096); }, REPS, WARM);
    row("bitonic_step", "us", ms * 1e3, "us", fmt("kernel=bitonic_step;16M keys;j=1024 k=4096;median of %d", REPS));
  }
  {
    const int rows = 1 << 20;
    std::vector<int> rp(rows + 1);
    Rng r(11);
    rp[0] = 0;
    for (int i = 0; i < rows; ++i) {
      double u = ((r.next() >> 11) + 0.5) / 9007199254740992.0;
      int len = std::min(4096, int(2.0 / std::pow(u, 0.8)));  // power law, heavy tail
      rp[i + 1] = rp[i] + len;
    }
    int nnz = rp[rows];
    std::vector<int> col(nnz);
    for (auto& c : col) c = int(r.next() % rows);
    int *d_rp, *d_col;
    float* d_val;
    CK(cudaMalloc(&d_rp, (rows + 1) * 4));
    CK(cudaMalloc(&d_col, size_t(nnz) * 4));
    CK(cudaMalloc(&d_val, size_t(nnz) * 4));
    CK(cudaMemcpy(d_rp, rp.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_col, col.data(), size_t(nnz) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_val, 0, size_t(nnz) * 4));
    double ms = time_ms([&] { spmv_powerlaw<<<rows / 256, 256>>>(d_rp, d_col, d_val, fa, fb, rows, rec); }, REPS, WARM);
    std::string n = fmt("kernel=spmv_powerlaw;%d rows;nnz=%d;len=min(4096;2/u^0.8);one thread per row;%d x 256", rows, nnz, rows / 256);
    row("spmv_powerlaw", "us", ms * 1e3, "us", n);
    row("spmv_powerlaw", "nnz", nnz, "", n);
    dist_rows("spmv_powerlaw", "warp_", rec, rows / 32, n);
  }
  // Warp order: one block of 1024 (order_ffma: 8 warps per SMSP) or 2 x 1024 (order_dep) per SM.
  {
    int iters = 64;
    std::string n = fmt("kernel=order_ffma;one 1024-thread block per SM (8 warps per SMSP);8 independent FFMA chains;%d x 64 FFMA per warp", iters);
    time_ms([&] { order_ffma<<<sms, 1024>>>(iters, out, rec); }, 1, WARM);
    order_rows("order_ffma", rec, sms * 32, n);
    n = fmt("kernel=order_dep;two 1024-thread blocks per SM (16 warps per SMSP);one dependent FFMA chain;%d x 16 FFMA per warp", iters);
    time_ms([&] { order_dep<<<2 * sms, 1024>>>(iters, out, rec); }, 1, WARM);
    order_rows("order_dep", rec, 2 * sms * 32, n);
    unsigned salt = 1;
    n = "kernel=order_mix;one 1024-thread block per SM;odd warps: 32 dependent DRAM loads;even warps: 32 x 256 dependent FFMA";
    time_ms([&] { order_mix<<<sms, 1024>>>((const unsigned*)fc, (1u << 28) / 128 - 1, 32, salt += 100003, out, rec); }, 1, WARM);
    order_rows("order_mix", rec, sms * 32, n);
  }
  {
    BlockStart* br;
    int blocks = sms * 32;
    CK(cudaMalloc(&br, blocks * sizeof(BlockStart)));
    double ms = time_ms([&] { release_test<<<blocks, 256>>>(4096, 64, out, (BlockStart*)br); }, REPS, WARM);
    std::vector<BlockStart> h(blocks);
    CK(cudaMemcpy(h.data(), br, blocks * sizeof(BlockStart), cudaMemcpyDeviceToHost));
    std::string n = fmt("kernel=release_test;%d blocks of 8 warps;warp 0: 4096 x 8 dependent FFMA;warps 1-7: 64 x 8", blocks);
    row("release_test", "us", ms * 1e3, "us", n);
    row("release_test", "max_blocks_per_sm", max_concurrent(h), "blocks", n);
  }
  fprintf(stderr, "apps: done\n");
  return 0;
}
