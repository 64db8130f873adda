// ldgform.cu: how many L1-hit global loads an SM takes per clock by the load's form (issue 6: the
// held-out ho_gemm_naive's LDG.E.CONSTANT loads run 0.54-0.56 requests per clock per SM on an H100,
// above the 0.5 that l1pipe.cu measured with ld.global.ca).
// 2 blocks of 1024 threads per SM (64 warps), each warp per loop step 8 loads that hit L1: request k
// of a step reads 4 KB block k of a 64 KB array every SM reads, lane l at word l (one line, 4 sectors:
// "line"), every lane at word 0 (one sector: "bcast"), lanes 0-15 and 16-31 at word 0 of two lines 2 KB
// apart (one bank: "bank2", ho_gemm_naive's A loads), lane l at line 32 l (4 KB apart, one bank:
// "bank32", ho_matvec_thread's) or lane l at word l of line l (32 lines, 32 banks: "spread32");
// 1024 steps; per SM warp loads per clock
// from clock64 (common.cuh per_sm_rate). Forms (PTX -> SASS, see the dump):
//   ca    ld.global.ca.u32     nc    ld.global.nc.u32      plain ld.global.u32 (weak)
//   nc64  ld.global.nc.v2.u32  nc128 ld.global.nc.v4.u32   cg    ld.global.cg.u32 (L2 hits, no L1)
// Rows: ldgform_<form>_<shape>.warp_loads_per_clk_per_sm.
// `ldgform FORM SHAPE` runs one point once (for ncu).
// Leaves out: stores, shared memory (l1pipe.cu), misses.
#include "common.cuh"

constexpr int kSteps = 1024;
enum Form { kCa, kNc, kPlain, kNc64, kNc128, kCg, kForms };
static const char* kFormName[] = {"ca", "nc", "plain", "nc64", "nc128", "cg"};

#define OFF8(op, dst)                                                                               \
  op " " dst "0, [%8];\n\t" op " " dst "1, [%8+4096];\n\t" op " " dst "2, [%8+8192];\n\t"          \
  op " " dst "3, [%8+12288];\n\t" op " " dst "4, [%8+16384];\n\t" op " " dst "5, [%8+20480];\n\t"   \
  op " " dst "6, [%8+24576];\n\t" op " " dst "7, [%8+28672];\n\t"
#define OUTS8 "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])

template <int FORM>
__device__ __forceinline__ unsigned load8(const unsigned* a) {
  unsigned r[8];
  if (FORM == kCa) asm volatile(OFF8("ld.global.ca.u32", "%") : OUTS8 : "l"(a));
  if (FORM == kNc) asm volatile(OFF8("ld.global.nc.u32", "%") : OUTS8 : "l"(a));
  if (FORM == kPlain) asm volatile(OFF8("ld.global.u32", "%") : OUTS8 : "l"(a));
  if (FORM == kCg) asm volatile(OFF8("ld.global.cg.u32", "%") : OUTS8 : "l"(a));
  if (FORM == kNc64) {
    asm volatile("{ .reg .u32 t0, t1, t2, t3, t4, t5, t6, t7;\n\t"
                 "ld.global.nc.v2.u32 {%0, t0}, [%8];\n\tld.global.nc.v2.u32 {%1, t1}, [%8+4096];\n\t"
                 "ld.global.nc.v2.u32 {%2, t2}, [%8+8192];\n\tld.global.nc.v2.u32 {%3, t3}, [%8+12288];\n\t"
                 "ld.global.nc.v2.u32 {%4, t4}, [%8+16384];\n\tld.global.nc.v2.u32 {%5, t5}, [%8+20480];\n\t"
                 "ld.global.nc.v2.u32 {%6, t6}, [%8+24576];\n\tld.global.nc.v2.u32 {%7, t7}, [%8+28672];\n\t}"
                 : OUTS8 : "l"(a));
  }
  if (FORM == kNc128)
    asm volatile("{ .reg .u32 t<24>;\n\t"
                 "ld.global.nc.v4.u32 {%0, t0, t1, t2}, [%8];\n\tld.global.nc.v4.u32 {%1, t3, t4, t5}, [%8+4096];\n\t"
                 "ld.global.nc.v4.u32 {%2, t6, t7, t8}, [%8+8192];\n\tld.global.nc.v4.u32 {%3, t9, t10, t11}, [%8+12288];\n\t"
                 "ld.global.nc.v4.u32 {%4, t12, t13, t14}, [%8+16384];\n\tld.global.nc.v4.u32 {%5, t15, t16, t17}, [%8+20480];\n\t"
                 "ld.global.nc.v4.u32 {%6, t18, t19, t20}, [%8+24576];\n\tld.global.nc.v4.u32 {%7, t21, t22, t23}, [%8+28672];\n\t}"
                 : OUTS8 : "l"(a));
  unsigned acc = 0;
  for (int i = 0; i < 8; ++i) acc ^= r[i];
  return acc;
}

// g: 256 KB read by every SM; lane l starts at lane_word (the shapes above); the vector forms read
// 8 / 16 B per lane, so a line request covers 2 / 4 lines.
enum Shape { kLine, kBcast, kBank2, kBank32, kSpread32, kShapes };
static const char* kShapeName[] = {"line", "bcast", "bank2", "bank32", "spread32"};
__device__ __forceinline__ unsigned lane_word(int shape, unsigned lane, unsigned words) {
  if (shape == kBcast) return 0u;
  if (shape == kBank2) return lane < 16 ? 0u : 512u;
  if (shape == kBank32) return lane * 1024u;
  if (shape == kSpread32) return lane * 33u;
  return lane * words;
}

template <int FORM>
__global__ void ldg(int shape, const unsigned* g, BlockRec* rec, unsigned* out) {
  const unsigned lane = threadIdx.x & 31, words = FORM == kNc64 ? 2u : FORM == kNc128 ? 4u : 1u;
  const unsigned* ga = g + lane_word(shape, lane, words);
  unsigned acc = load8<FORM>(ga);  // warms the L1
  __syncthreads();
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < kSteps; ++k) acc += load8<FORM>(ga + (acc & 0x80000000u));  // acc's top bit is 0: same lines
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) rec[blockIdx.x] = BlockRec{t0, t1, smid(), 0};
  if (acc == 0xdeadbeefu) out[0] = acc;
}

template <int FORM>
void point(int shape, int sms, const unsigned* g, BlockRec* drec, unsigned* out, bool print) {
  std::vector<double> all;
  const int blocks = 2 * sms;
  double ms = time_ms([&] { ldg<FORM><<<blocks, 1024>>>(shape, g, drec, out); }, reps_or_1(3), warm_or_0(1), &all);
  if (!print) return;
  std::vector<BlockRec> recs(blocks);
  CK(cudaMemcpy(recs.data(), drec, sizeof(BlockRec) * blocks, cudaMemcpyDeviceToHost));
  SmRate r = per_sm_rate(recs, 32.0 * kSteps * 8, 2);
  std::string k = fmt("ldgform_%s_%s", kFormName[FORM], kShapeName[shape]);
  std::string n = fmt("kernel=ldg<%s>;2 blocks x 1024 per SM;8 loads per step;%d steps;%s;SMs used %d;min %.3f max %.3f;"
                      "kernel %.3f ms", kFormName[FORM], kSteps, kShapeName[shape],
                      r.sms_used, r.min_rate, r.max_rate, ms);
  row(k, "warp_loads_per_clk_per_sm", r.median_rate, "1/clk/SM", n);
}

template <int FORM>
void shapes(int only, int n, int sms, const unsigned* g, BlockRec* drec, unsigned* out) {
  for (int b = 0; b < n; ++b)
    if (only < 0 || only == b) point<FORM>(b, sms, g, drec, out, true);
}

int main(int argc, char** argv) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  unsigned *g, *out;
  BlockRec* drec;
  CK(cudaMalloc(&g, 262144));
  CK(cudaMemset(g, 0, 262144));
  CK(cudaMalloc(&out, 64));
  CK(cudaMalloc(&drec, sizeof(BlockRec) * 2 * sms));
  int form = -1, bc = -1;
  if (argc == 3) {
    for (int f = 0; f < kForms; ++f)
      if (!strcmp(argv[1], kFormName[f])) form = f;
    for (int k = 0; k < kShapes; ++k)
      if (!strcmp(argv[2], kShapeName[k])) bc = k;
  }
  if (form < 0 || form == kCa) shapes<kCa>(bc, kShapes, sms, g, drec, out);
  if (form < 0 || form == kNc) shapes<kNc>(bc, kShapes, sms, g, drec, out);
  if (form < 0 || form == kPlain) shapes<kPlain>(bc, 2, sms, g, drec, out);
  if (form < 0 || form == kNc64) shapes<kNc64>(bc, 2, sms, g, drec, out);
  if (form < 0 || form == kNc128) shapes<kNc128>(bc, 2, sms, g, drec, out);
  if (form < 0 || form == kCg) shapes<kCg>(bc, 2, sms, g, drec, out);
  return 0;
}
