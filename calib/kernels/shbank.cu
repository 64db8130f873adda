// shbank.cu: what a shared-memory bank conflict costs on this GPU (issue 6: transpose_tiled, whose
// column reads are 32-way conflicts, runs 23 % faster in the model than on the H200).
// A W-way conflict: lane l accesses word (l * W) of a 32*W-word row, so W lanes share each bank
// (W = 1, 2, 4, 8, 16, 32; 4 B words, 32 banks).
//  - throughput: 2 blocks of 1024 threads per SM (64 warps), each warp 8 independent ld.shared (or
//    st.shared) per loop step at 8 different words of the same banks, 2048 steps; per SM: warp instructions per clock from clock64()
//    (first block start to last block end on the SM; median over SMs);
//  - latency: one warp per SM, a dependent chain (the loaded word is the next index, the same W-way
//    pattern every time), 4096 steps: clocks per load.
//  - mixed: the transpose's shape, per step 4 pairs of a conflict-free st.shared and a W-way ld.shared.
// Rows: shbank_{lds,sts,mix}_W<W>.{warp_inst_per_clk_per_sm, clk_per_warp_inst}, shbank_chase_W<W>.clk_per_load.
// `shbank lds|sts W` runs one throughput point once (for ncu's warp states).
// Leaves out: 64-bit and 128-bit accesses, broadcast (many lanes on one word), ldmatrix.
#include "common.cuh"

constexpr int kSteps = 2048;
constexpr int kChase = 4096;

enum Kind { kLds = 0, kSts = 1, kMix = 2 };

// Shared words: 32 * 32 rows of 32 words would do; 32 * W words per row, W <= 32: 4 KB per warp
// would be too many for 32 warps per block, so warps share the array (the bank pattern is the same).
__global__ void throughput(int kind, int W, BlockRec* rec, unsigned* out) {
  __shared__ unsigned s[2048];  // 1024 words + 7 x 32 of offsets
  const unsigned lane = threadIdx.x & 31;
  for (unsigned i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = i;
  __syncthreads();
  const unsigned base = (unsigned)__cvta_generic_to_shared(s);
  const unsigned a = base + 4u * ((lane * unsigned(W)) % 1024u);  // W lanes per bank, W words each
  const unsigned b = base + 4u * lane;                            // conflict-free
  unsigned acc = 0, v0 = lane, v1 = lane + 1;
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < kSteps; ++k) {
    // 8 different words in the same banks (+32 words each), each load's result used: ptxas drops a
    // volatile load whose register is overwritten unread (the first two runs of this probe kept 2 of 8)
    if (kind == kLds) {
      unsigned r[8];
      asm volatile(
          "ld.volatile.shared.u32 %0, [%8];\n\tld.volatile.shared.u32 %1, [%8+128];\n\t"
          "ld.volatile.shared.u32 %2, [%8+256];\n\tld.volatile.shared.u32 %3, [%8+384];\n\t"
          "ld.volatile.shared.u32 %4, [%8+512];\n\tld.volatile.shared.u32 %5, [%8+640];\n\t"
          "ld.volatile.shared.u32 %6, [%8+768];\n\tld.volatile.shared.u32 %7, [%8+896];\n\t"
          : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
          : "r"(a));
      acc += (r[0] ^ r[1]) + (r[2] ^ r[3]) + (r[4] ^ r[5]) + (r[6] ^ r[7]);
    } else if (kind == kSts) {
      asm volatile(
          "st.volatile.shared.u32 [%0], %1;\n\tst.volatile.shared.u32 [%0+128], %2;\n\t"
          "st.volatile.shared.u32 [%0+256], %1;\n\tst.volatile.shared.u32 [%0+384], %2;\n\t"
          "st.volatile.shared.u32 [%0+512], %1;\n\tst.volatile.shared.u32 [%0+640], %2;\n\t"
          "st.volatile.shared.u32 [%0+768], %1;\n\tst.volatile.shared.u32 [%0+896], %2;\n\t"
          ::"r"(a), "r"(v0), "r"(v1) : "memory");
    } else {
      unsigned r[4];
      asm volatile(
          "st.volatile.shared.u32 [%4], %5;\n\tld.volatile.shared.u32 %0, [%6];\n\t"
          "st.volatile.shared.u32 [%4+128], %5;\n\tld.volatile.shared.u32 %1, [%6+128];\n\t"
          "st.volatile.shared.u32 [%4+256], %5;\n\tld.volatile.shared.u32 %2, [%6+256];\n\t"
          "st.volatile.shared.u32 [%4+384], %5;\n\tld.volatile.shared.u32 %3, [%6+384];\n\t"
          : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(b), "r"(v1), "r"(a) : "memory");
      v0 = (r[0] ^ r[1]) + (r[2] ^ r[3]);
      acc += v0;
    }
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) rec[blockIdx.x] = BlockRec{t0, t1, smid(), 0};
  if (acc == 0xdeadbeefu) out[0] = acc;
}

// One warp: a = s[a] where word i holds its own shared address, so every load depends on the last
// and keeps the W-way pattern (no arithmetic between loads).
__global__ void chase(int W, long long* cycles, unsigned* out) {
  __shared__ unsigned s[32 * 32];
  const unsigned lane = threadIdx.x & 31;
  const unsigned base = (unsigned)__cvta_generic_to_shared(s);
  for (unsigned i = threadIdx.x; i < 32 * 32; i += blockDim.x) s[i] = base + 4u * i;
  __syncwarp();
  unsigned idx = base + 4u * ((lane * unsigned(W)) % 1024u);
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < kChase; k += 8) {
    asm volatile(REP8("ld.volatile.shared.u32 %0, [%0];\n\t") : "+r"(idx));
  }
  long long t1 = clock64();
  if (lane == 0) cycles[blockIdx.x] = t1 - t0;
  if (idx == 0xdeadbeefu) out[0] = idx;
}

static const char* kKindNames[] = {"lds", "sts", "mix"};

int main(int argc, char** argv) {
  const cudaDeviceProp p = props();
  const int sms = p.multiProcessorCount, blocks = 2 * sms;
  BlockRec* rec;
  long long* cyc;
  unsigned* out;
  CK(cudaMalloc(&rec, blocks * sizeof(BlockRec)));
  CK(cudaMalloc(&cyc, sms * sizeof(long long)));
  CK(cudaMalloc(&out, 4));
  if (argc == 3) {  // one point, for ncu
    const int kind = std::string(argv[1]) == "sts" ? kSts : std::string(argv[1]) == "mix" ? kMix : kLds;
    throughput<<<blocks, 1024>>>(kind, atoi(argv[2]), rec, out);
    CK(cudaDeviceSynchronize());
    printf("%s W=%s done\n", argv[1], argv[2]);
    return 0;
  }
  std::vector<BlockRec> h(blocks);
  for (int kind = 0; kind < 3; ++kind)
    for (int W : {1, 2, 4, 8, 16, 32}) {
      std::vector<double> rates;
      for (int rep = 0; rep < 3; ++rep) {
        throughput<<<blocks, 1024>>>(kind, W, rec, out);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h.data(), rec, blocks * sizeof(BlockRec), cudaMemcpyDeviceToHost));
        const double per_block = 32.0 * kSteps * 8;  // warps x steps x instructions per step (SASS: 8)
        rates.push_back(per_sm_rate(h, per_block, 2).median_rate);
      }
      const double r = median(rates);
      const std::string k = fmt("shbank_%s_W%d", kKindNames[kind], W);
      const std::string n = fmt("kernel=throughput;%s (volatile);%d-way (lane l at word l*%d);2 x 1024 threads per SM;%d steps of 8;clock64 per SM;median of 3 runs",
                                kind == kLds ? "ld.volatile.shared.u32" : kind == kSts ? "st.volatile.shared.u32" : "st.shared conflict-free + ld.shared W-way",
                                W, W, kSteps);
      row(k, "warp_inst_per_clk_per_sm", r, "1/clk", n);
      row(k, "clk_per_warp_inst", 1.0 / r, "clk", n);
    }
  std::vector<long long> hc(sms);
  for (int W : {1, 2, 4, 8, 16, 32}) {
    chase<<<sms, 32>>>(W, cyc, out);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hc.data(), cyc, sms * sizeof(long long), cudaMemcpyDeviceToHost));
    std::vector<double> v(hc.begin(), hc.end());
    row(fmt("shbank_chase_W%d", W), "clk_per_load", median(v) / kChase, "clk",
        fmt("kernel=chase;one warp per SM;dependent ld.shared %d-way;%d steps;median over SMs", W, kChase));
  }
  return 0;
}
