// turnover.cu: which warps the schedulers favour while blocks come and go (issue 6, warp order).
// warporder.cu launches every block at once, so a block's age, its launch order and its slot on
// the SM agree; here small blocks of unequal length retire and are replaced all through the launch
// (as raymarch's one-warp blocks are), so the three part. Block b runs len(b) = 4 + hash(b) % 125
// iterations of 16 FFMA in ILP chains (ILP 1: one dependent chain, 4 cycles apart; 8 warps per
// sub-partition then want twice the issue slots there are) and every warp records clock64 at the
// start and end of its chains, its SM and its %warpid. Grids: 6 waves of the blocks an SM holds.
// Output (stdout, kernel,parameter,value,unit,notes): per mix the event time (median of 3 launches
// after a warm one), the quantiles of each warp's cycles per iteration ((t1 - t0) / len: how much
// of the issue slot it got), the last end after its SM's first start, and the median cycles per
// iteration of the warps in %warpid 0-15 over those in 16-31 (below 1: the low slots are
// favoured). With a file argument, one row per warp of SMs 0-3 there: mix,sm,block,hwwarp,len,t0,t1,
// times from the SM's first t0. dep_1w_half holds 16 blocks per SM (4 warps per sub-partition:
// about as many as the issue slot takes) by shared memory.
// Leaves out: memory, barriers.
#include "common.cuh"

struct TurnRec {
  long long t0, t1;
  unsigned sm, hwwarp, block, len;
};

__host__ __device__ __forceinline__ unsigned block_len(unsigned b) { return 4u + ((b * 40503u) >> 4) % 125u; }

template <int ILP>
__global__ void turnover(float* out, TurnRec* rec) {
  const unsigned len = block_len(blockIdx.x);
  float a[ILP];
#pragma unroll
  for (int k = 0; k < ILP; ++k) a[k] = threadIdx.x + k;
  const long long t0 = clock64();
#pragma unroll 1
  for (unsigned i = 0; i < len; ++i) {
#pragma unroll
    for (int d = 0; d < 16 / ILP; ++d)
#pragma unroll
      for (int k = 0; k < ILP; ++k) a[k] = fmaf(a[k], 0.9999f, 0.01f);
  }
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < ILP; ++k) s += a[k];
  asm volatile("" ::"f"(s));  // the clock read stays after the sum
  const long long t1 = clock64();
  if ((threadIdx.x & 31) == 0)
    rec[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = TurnRec{t0, t1, smid(), hw_warpid(), blockIdx.x, len};
  if (s == 1234.5f) out[threadIdx.x] = s;
}

struct Mix {
  const char* name;
  void (*kernel)(float*, TurnRec*);
  int ilp, blocks_per_sm, threads;
};

static void summary(const Mix& m, const std::vector<TurnRec>& h, double ms, const std::string& n) {
  std::map<unsigned, long long> first, last;
  for (const auto& r : h) {
    if (!first.count(r.sm) || r.t0 < first[r.sm]) first[r.sm] = r.t0;
    if (!last.count(r.sm) || r.t1 > last[r.sm]) last[r.sm] = r.t1;
  }
  std::vector<double> per, lo, hi, ends;
  for (const auto& r : h) {
    const double c = double(r.t1 - r.t0) / r.len;
    per.push_back(c);
    (r.hwwarp < 16 ? lo : hi).push_back(c);
  }
  for (const auto& [sm, f] : first) ends.push_back(double(last[sm] - f));
  const std::string k = std::string("turnover_") + m.name;
  row(k, "us", ms * 1e3, "us", n);
  row(k, "iter_cycles_p10", quantile(per, 0.1), "cycles", n);
  row(k, "iter_cycles_med", quantile(per, 0.5), "cycles", n);
  row(k, "iter_cycles_p90", quantile(per, 0.9), "cycles", n);
  row(k, "iter_cycles_max", quantile(per, 1.0), "cycles", n);
  row(k, "end_max_med_over_sms", quantile(ends, 0.5), "cycles", n);
  if (!lo.empty() && !hi.empty())
    row(k, "low_slots_over_high", quantile(lo, 0.5) / quantile(hi, 0.5), "x", n);
}

int main(int argc, char** argv) {
  cudaDeviceProp p = props();
  const int sms = p.multiProcessorCount, waves = 6;
  fprintf(stderr, "turnover: %s, %d SMs\n", p.name, sms);
  const Mix mixes[] = {
      {"dep_1w", turnover<1>, 1, 32, 32},
      {"ilp4_1w", turnover<4>, 4, 32, 32},
      {"dep_4w", turnover<1>, 1, 8, 128},
      {"dep_1w_half", turnover<1>, 1, 16, 32},
  };
  TurnRec* rec;
  float* out;
  const size_t max_warps = size_t(sms) * 32 * waves;
  CK(cudaMalloc(&rec, max_warps * sizeof(TurnRec)));
  CK(cudaMalloc(&out, 4096 * sizeof(float)));
  FILE* warps = argc > 1 ? fopen(argv[1], "w") : nullptr;
  if (warps) fprintf(warps, "mix,sm,block,hwwarp,len,t0,t1\n");
  for (const Mix& m : mixes) {
    const int grid = m.blocks_per_sm * sms * waves, nw = grid * m.threads / 32;
    // Fewer than 32 blocks per SM at once: each block takes its share of the SM's shared memory.
    const size_t shm = m.blocks_per_sm < 32 && m.threads == 32
                           ? p.sharedMemPerMultiprocessor / m.blocks_per_sm - p.reservedSharedMemPerBlock
                           : 0;
    double ms = time_ms([&] { m.kernel<<<grid, m.threads, shm>>>(out, rec); }, 3, 1);
    m.kernel<<<grid, m.threads, shm>>>(out, rec);
    CK(cudaDeviceSynchronize());
    CKL();
    std::vector<TurnRec> h(nw);
    CK(cudaMemcpy(h.data(), rec, nw * sizeof(TurnRec), cudaMemcpyDeviceToHost));
    summary(m, h, ms,
            fmt("kernel=turnover<%d>;%d x %d threads;%d blocks per SM at once;len = 4 + hash %% 125 iterations of 16 FFMA;"
                "shared %zu B per block;event time median of 3",
                m.ilp, grid, m.threads, m.blocks_per_sm, shm));
    if (!warps) continue;
    std::map<unsigned, long long> first;
    for (const auto& r : h)
      if (!first.count(r.sm) || r.t0 < first[r.sm]) first[r.sm] = r.t0;
    for (const auto& r : h)
      if (r.sm < 4)
        fprintf(warps, "%s,%u,%u,%u,%u,%lld,%lld\n", m.name, r.sm, r.block, r.hwwarp, r.len, r.t0 - first[r.sm],
                r.t1 - first[r.sm]);
  }
  if (warps) fclose(warps);
  return 0;
}
