// warporder.cu: which warp the H200's schedulers pick when more are eligible than can issue.
// Every warp runs 64 iterations of 64 FFMA (4096 FFMA) in ILP independent chains (ILP 1: one
// dependent chain, latency bound; ILP 8: a warp could issue every cycle) and reads clock64 at
// the start, after each quarter of its iterations and at the end. The launches (mixes) vary the
// chains, the number of blocks per SM and their size; grids are a multiple of the SM count, so
// every SM gets the same blocks. Output: one CSV row per warp of SMs 0-3
// (mix,sm,block,warp_in_block,hwwarp,t0,q1,q2,q3,t1,tail; times from the SM's first t0 in the
// mix; tail: after the chains' sum, the warp's last instructions),
// for the scheduler-policy comparison of simt-sim (calib/README.md, issue 6 item 6).
// With an argument, only the mixes whose name contains it (`warporder x32`: the one-warp blocks).
// The mixes of small blocks (32 one-warp blocks, 16 of two warps, 8 of four per SM, all resident at
// once) ask where the block seniority of the big blocks starts: turnover.cu's one-warp blocks share
// the issue slots about evenly (calib/README.md, twenty-fifth pass).
// Leaves out: memory; the mixes with loads are apps.cu's order_mix.
#include "common.cuh"

#include <cstring>

using OrderRec = ClockRec<6>;

template <int ILP>
__device__ __forceinline__ float chains(int iters, long long* t) {
  float a[ILP];
#pragma unroll
  for (int k = 0; k < ILP; ++k) a[k] = threadIdx.x + k;
  t[0] = clock64();
#pragma unroll
  for (int q = 0; q < 4; ++q) {
#pragma unroll 1
    for (int i = 0; i < iters / 4; ++i) {
#pragma unroll
      for (int d = 0; d < 64 / ILP; ++d)
#pragma unroll
        for (int k = 0; k < ILP; ++k) a[k] = fmaf(a[k], 0.9999f, 0.01f);
    }
    t[q + 1] = clock64();
  }
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < ILP; ++k) s += a[k];
  return s;
}

__device__ __forceinline__ void record(OrderRec* rec, long long* t, float s) {
  asm volatile("" ::"f"(s));  // the clock read stays after the sum
  t[5] = clock64();
  clock_record(rec, t);
}

// ILP_EVEN chains in the even warps of a block, ILP_ODD in the odd ones; with SPLIT 4 the warps
// w with (w / 4) odd take ILP_ODD, so that each sub-partition (w % 4) holds both kinds.
template <int ILP_EVEN, int ILP_ODD, int SPLIT = 1>
__global__ void order_chains(int iters, float* out, OrderRec* rec) {
  long long t[6];
  float s = (((threadIdx.x >> 5) / SPLIT) & 1) ? chains<ILP_ODD>(iters, t) : chains<ILP_EVEN>(iters, t);
  record(rec, t, s);
  if (s == 1234.5f) out[threadIdx.x] = s;
}

struct Mix {
  const char* name;
  void (*kernel)(int, float*, OrderRec*);
  int blocks_per_sm, threads;
};

static void print_warps(const char* mix, const std::vector<OrderRec>& h) {
  const std::map<unsigned, long long> first = first_start_by_sm(h);
  for (const auto& r : h) {
    if (r.sm >= 4) continue;
    long long f = first.at(r.sm);
    printf("%s,%u,%u,%u,%u,%lld,%lld,%lld,%lld,%lld,%lld\n", mix, r.sm, r.block, r.warp, r.hwwarp, r.t[0] - f,
           r.t[1] - f, r.t[2] - f, r.t[3] - f, r.t[4] - f, r.t[5] - f);
  }
}

int main(int argc, char** argv) {
  const char* only = argc > 1 ? argv[1] : nullptr;
  cudaDeviceProp p = props();
  const int sms = p.multiProcessorCount, iters = 64;
  fprintf(stderr, "warporder: %s, %d SMs\n", p.name, sms);
  const Mix mixes[] = {
      {"dep_1x1024", order_chains<1, 1>, 1, 1024},  {"dep_2x1024", order_chains<1, 1>, 2, 1024},
      {"dep_1x512", order_chains<1, 1>, 1, 512},    {"dep_4x256", order_chains<1, 1>, 4, 256},
      {"dep_8x128", order_chains<1, 1>, 8, 128},    {"ilp2_1x1024", order_chains<2, 2>, 1, 1024},
      {"ilp4_1x1024", order_chains<4, 4>, 1, 1024}, {"ilp8_1x1024", order_chains<8, 8>, 1, 1024},
      {"ilp8_2x512", order_chains<8, 8>, 2, 512},   {"ilp8_4x256", order_chains<8, 8>, 4, 256},
      {"ilp8_2x1024", order_chains<8, 8>, 2, 1024}, {"mix_dep_ilp8_1x1024", order_chains<1, 8>, 1, 1024},
      {"smsp_dep_ilp8_1x1024", order_chains<1, 8, 4>, 1, 1024},
      {"smsp_ilp8_dep_1x1024", order_chains<8, 1, 4>, 1, 1024},
      {"smsp_dep_ilp8_2x1024", order_chains<1, 8, 4>, 2, 1024},
      {"smsp_ilp2_ilp8_1x1024", order_chains<2, 8, 4>, 1, 1024},
      {"dep_32x32", order_chains<1, 1>, 32, 32},    {"ilp4_32x32", order_chains<4, 4>, 32, 32},
      {"ilp8_32x32", order_chains<8, 8>, 32, 32},   {"ilp4_16x64", order_chains<4, 4>, 16, 64},
      {"ilp8_16x64", order_chains<8, 8>, 16, 64},   {"ilp4_8x128", order_chains<4, 4>, 8, 128},
  };
  OrderRec* rec;
  float* out;
  CK(cudaMalloc(&rec, size_t(sms) * 64 * sizeof(OrderRec)));
  CK(cudaMalloc(&out, 4096 * sizeof(float)));
  printf("mix,sm,block,warp_in_block,hwwarp,t0,q1,q2,q3,t1,tail\n");
  for (const Mix& m : mixes) {
    if (only && !strstr(m.name, only)) continue;
    const int grid = m.blocks_per_sm * sms, nw = grid * m.threads / 32;
    m.kernel<<<grid, m.threads>>>(iters, out, rec);  // warm-up
    CK(cudaDeviceSynchronize());
    m.kernel<<<grid, m.threads>>>(iters, out, rec);
    CK(cudaDeviceSynchronize());
    CKL();
    std::vector<OrderRec> h(nw);
    CK(cudaMemcpy(h.data(), rec, nw * sizeof(OrderRec), cudaMemcpyDeviceToHost));
    print_warps(m.name, h);
  }
  return 0;
}
