// occupancy.cu: time of a latency-bound kernel against resident warps per SM, where residency is set
// by the kernel's register count. Each warp walks a dependent chain of 128 B lines (one coalesced
// 4 B load per lane) over a 4 GiB buffer: every word of line l holds h(l) (a 31-bit hash), and the
// next line is (h(l) + salt_w) mod #lines with a per-warp salt, so warps walk independent random
// paths and nearly every load misses L2; one FFMA per load is the "little math". The register
// count is raised by PAD values loaded (from a small L2-resident region) before the loop and used
// on a never-taken path inside it, so they stay live across the loop. numRegs and the occupancy
// calculator's blocks/SM are reported.
// Leaves out: shared-memory-limited occupancy, block-size effects.
#include "common.cuh"

template <int PAD>
__device__ __forceinline__ void occ_body(const unsigned* __restrict__ buf, const unsigned* __restrict__ padsrc, unsigned mask, int M, float* out) {
  unsigned pad[PAD > 0 ? PAD : 1];
  unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
#pragma unroll
  for (int k = 0; k < PAD; ++k) pad[k] = padsrc[k * 32 + lane];
  const unsigned salt = gw * 2654435761u;
  unsigned line = salt & mask;
  float acc = 0.f;
#pragma unroll 1
  for (int i = 0; i < M; ++i) {
    unsigned v = buf[(size_t)line * 32 + lane];
    acc = fmaf(acc, 0.999f, __uint_as_float((v & 0x007fffffu) | 0x3f800000u));
    line = (v + salt) & mask;
    if (v == 0xFFFFFFFFu) {  // never true (v < 2^31): keeps every pad live inside the loop
      float r = acc;
#pragma unroll
      for (int k = 0; k < PAD; ++k) r = fmaf(r, __uint_as_float((pad[k] & 0x007fffffu) | 0x3f800000u), 1.0f);
      out[gw * 32 + lane] = r;
    }
  }
  if (acc == 1234.5f) out[gw * 32 + lane] = acc;
}

#define OCC(name, PAD)                                                                             \
  extern "C" __global__ void __launch_bounds__(256) name(const unsigned* buf, const unsigned* padsrc, unsigned mask, int M, float* out) { \
    occ_body<PAD>(buf, padsrc, mask, M, out);                                                              \
  }
// PAD chosen from ptxas -v (regs = PAD + 14 with nvcc 13.0): 16, 32, 48, 64, 80, 128, 246 registers.
OCC(occ_r16, 0)
OCC(occ_r32, 18)
OCC(occ_r48, 34)
OCC(occ_r64, 50)
OCC(occ_r80, 66)
OCC(occ_r128, 114)
OCC(occ_r255, 232)

__device__ __forceinline__ unsigned fmix32(unsigned h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}
__global__ void hash_fill(unsigned* buf, unsigned nlines) {
  size_t G = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)nlines * 32; i += G)
    buf[i] = fmix32((unsigned)(i >> 5)) & 0x7fffffffu;
}

typedef void (*OK)(const unsigned*, const unsigned*, unsigned, int, float*);

int main() {
  cudaDeviceProp p = props();
  int sms = p.multiProcessorCount;
  fprintf(stderr, "occupancy: %s, %d SMs\n", p.name, sms);
  const unsigned nlines = 1u << 25;  // 32M lines x 128 B = 4 GiB
  unsigned* buf;
  float* out;
  CK(cudaMalloc(&buf, size_t(nlines) * 128));
  hash_fill<<<sms * 8, 256>>>(buf, nlines);
  CKL();
  const int TPB = 256, M = 64;
  const int blocks = sms * 120;  // a whole number of waves at 1, 2, 3, 4, 5 and 8 blocks per SM
  CK(cudaMalloc(&out, size_t(blocks) * TPB * 4));
  CK(cudaDeviceSynchronize());
  struct V {
    const char* name;
    OK k;
  } vs[] = {{"occ_r16", occ_r16}, {"occ_r32", occ_r32}, {"occ_r48", occ_r48}, {"occ_r64", occ_r64},
            {"occ_r80", occ_r80}, {"occ_r128", occ_r128}, {"occ_r255", occ_r255}};
  double base = 0;
  for (auto& v : vs) {
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, v.k));
    int bpsm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bpsm, v.k, TPB, 0));
    int warps = bpsm * TPB / 32;
    double ms = time_ms([&] { v.k<<<blocks, TPB>>>(buf, buf, nlines - 1, M, out); }, 10, 2);
    if (base == 0) base = ms;
    double loads = double(blocks) * TPB / 32 * M;  // warp-level 128 B line loads
    std::string n = fmt("kernel=%s;regs=%d; blocks/SM=%d; %d x %d threads; %d dependent 128B line loads per warp "
                        "over 4 GiB; median of 10; local=%zu B",
                        v.name, fa.numRegs, bpsm, blocks, TPB, M, (size_t)fa.localSizeBytes);
    row(v.name, "regs_per_thread", fa.numRegs, "regs", n);
    row(v.name, "resident_warps_per_sm", warps, "warps", n);
    row(v.name, "time_ms", ms, "ms", n);
    row(v.name, "time_vs_max_occupancy", ms / base, "x", n);
    row(v.name, "line_GBps", loads * 128.0 / (ms * 1e6), "GB/s", n);
    // Little's law: average latency seen by a warp = resident warps * SMs * time / loads.
    row(v.name, "implied_cycles_per_load_at_1980MHz", warps * double(sms) * ms * 1e-3 * 1.98e9 / loads, "cycles", n);
  }
  fprintf(stderr, "occupancy: done\n");
  return 0;
}
