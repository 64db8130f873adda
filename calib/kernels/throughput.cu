// throughput.cu: per-SM issue rates with many warps.
// Part 2: FFMA / MUFU (rsqrt, ex2, sin) / DFMA / IMAD / IADD throughput per SM per clock, 8
//   independent chains per thread, one 1024-thread block per SM (32 warps).
// Part 3: achieved IPC per scheduler (SMSP) of a dependent FFMA chain at 1..16 warps per SMSP:
//   ipc_dep3  each FFMA's three sources are three different registers (r0=r1*r2+r3, rotating),
//   ipc_dep1  x = x*a + b (a, b loop-invariant registers, reusable from the operand reuse cache),
//   ipc_ind4  four independent chains x_k = x_k*a + b per warp,
//   ipc_dep1v / ipc_ind4v  the same with a, b per-thread (three vector-register sources).
// Rates come from clock64() per block, grouped by %smid (see common.cuh per_sm_rate); the SM clock
// is also derived from clock64 cycles / event time.
// Leaves out: tensor cores, half precision, mixed-pipe dual issue.
#include "common.cuh"

#define TBODY(body)                                                                                \
  __syncthreads();                                                                                 \
  long long t0 = clock64();                                                                        \
  _Pragma("unroll 1") for (int i = 0; i < iters; ++i) { body; }                                    \
  __syncthreads();                                                                                 \
  long long t1 = clock64();                                                                        \
  if (threadIdx.x == 0) rec[blockIdx.x] = BlockRec{t0, t1, smid(), 0u};

#define F8 "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3), "+f"(x4), "+f"(x5), "+f"(x6), "+f"(x7)
#define R8 "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x5), "+r"(x6), "+r"(x7)
#define D8 "+d"(x0), "+d"(x1), "+d"(x2), "+d"(x3), "+d"(x4), "+d"(x5), "+d"(x6), "+d"(x7)
#define INIT8(T, base)                                                                             \
  T x0 = (T)(base), x1 = (T)(base) + (T)1, x2 = (T)(base) + (T)2, x3 = (T)(base) + (T)3,            \
    x4 = (T)(base) + (T)4, x5 = (T)(base) + (T)5, x6 = (T)(base) + (T)6, x7 = (T)(base) + (T)7;
#define SUM8 (x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7)
// 8 chains, one op each: "OP %k, %k, ..." for k = 0..7; A and B are operand names 8 and 9.
#define EIGHT(op, tail)                                                                            \
  op " %0, %0" tail ";\n\t" op " %1, %1" tail ";\n\t" op " %2, %2" tail ";\n\t" op " %3, %3" tail \
     ";\n\t" op " %4, %4" tail ";\n\t" op " %5, %5" tail ";\n\t" op " %6, %6" tail ";\n\t" op      \
     " %7, %7" tail ";\n\t"

extern "C" __global__ void __launch_bounds__(1024, 1) thr_ffma(int iters, float a, float b, BlockRec* rec, float* sink) {
  INIT8(float, threadIdx.x * 1e-3f)
  TBODY(asm volatile(REP8(EIGHT("fma.rn.f32", ", %8, %9")) : F8 : "f"(a), "f"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8;
}
extern "C" __global__ void __launch_bounds__(1024, 1) thr_rsqrt(int iters, float a, float b, BlockRec* rec, float* sink) {
  INIT8(float, threadIdx.x + 2.0f)
  TBODY(asm volatile(REP8(EIGHT("rsqrt.approx.ftz.f32", "")) : F8));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8 + a + b;
}
extern "C" __global__ void __launch_bounds__(1024, 1) thr_ex2(int iters, float a, float b, BlockRec* rec, float* sink) {
  INIT8(float, -1.0f - threadIdx.x * 1e-3f)
  TBODY(asm volatile(REP8(EIGHT("ex2.approx.ftz.f32", "")) : F8));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8 + a + b;
}
extern "C" __global__ void __launch_bounds__(1024, 1) thr_sin(int iters, float a, float b, BlockRec* rec, float* sink) {
  INIT8(float, 0.5f + threadIdx.x * 1e-3f)
  TBODY(asm volatile(REP8(EIGHT("sin.approx.ftz.f32", "")) : F8));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8 + a + b;
}
extern "C" __global__ void __launch_bounds__(1024, 1) thr_dfma(int iters, double a, double b, BlockRec* rec, double* sink) {
  INIT8(double, threadIdx.x * 1e-3)
  TBODY(asm volatile(REP8(EIGHT("fma.rn.f64", ", %8, %9")) : D8 : "d"(a), "d"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8;
}
extern "C" __global__ void __launch_bounds__(1024, 1) thr_imad(int iters, unsigned a, unsigned b, BlockRec* rec, unsigned* sink) {
  INIT8(unsigned, threadIdx.x)
  TBODY(asm volatile(REP8(EIGHT("mad.lo.u32", ", %8, %9")) : R8 : "r"(a), "r"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8;
}
extern "C" __global__ void __launch_bounds__(1024, 1) thr_imad_hi(int iters, unsigned a, unsigned b, BlockRec* rec, unsigned* sink) {
  INIT8(unsigned, threadIdx.x + 0x80000000u)
  TBODY(asm volatile(REP8(EIGHT("mad.hi.u32", ", %8, %9")) : R8 : "r"(a), "r"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8;
}
// mad.wide.u32 on 8 chains: x_k = lo(x_k) * a + b64 (one IMAD.WIDE.U32 per op, the high half rewritten).
#define L8 "+l"(x0), "+l"(x1), "+l"(x2), "+l"(x3), "+l"(x4), "+l"(x5), "+l"(x6), "+l"(x7)
#define WIDE1(k) "{ .reg .u32 lo, hi; mov.b64 {lo, hi}, %" #k "; mad.wide.u32 %" #k ", lo, %8, %9; }\n\t"
extern "C" __global__ void __launch_bounds__(1024, 1) thr_imad_wide(int iters, unsigned a, unsigned long long b, BlockRec* rec,
                                                                    unsigned long long* sink) {
  INIT8(unsigned long long, threadIdx.x)
  TBODY(asm volatile(REP8(WIDE1(0) WIDE1(1) WIDE1(2) WIDE1(3) WIDE1(4) WIDE1(5) WIDE1(6) WIDE1(7)) : L8 : "r"(a), "l"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8;
}
extern "C" __global__ void __launch_bounds__(1024, 1) thr_iadd(int iters, unsigned a, unsigned b, BlockRec* rec, unsigned* sink) {
  INIT8(unsigned, threadIdx.x)
  TBODY(asm volatile(REP4(EIGHT("add.u32", ", %8") EIGHT("xor.b32", ", %9")) : R8 : "r"(a), "r"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = SUM8;
}

// Part 3. 256 FFMA per iteration.
extern "C" __global__ void __launch_bounds__(1024, 2) ipc_dep3(int iters, float a, float b, BlockRec* rec, float* sink) {
  float r0 = threadIdx.x * 1e-3f, r1 = a, r2 = b, r3 = 0.25f;
  TBODY(asm volatile(REP64("fma.rn.f32 %0, %1, %2, %3;\n\tfma.rn.f32 %1, %2, %3, %0;\n\t"
                           "fma.rn.f32 %2, %3, %0, %1;\n\tfma.rn.f32 %3, %0, %1, %2;\n\t")
                     : "+f"(r0), "+f"(r1), "+f"(r2), "+f"(r3)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = r0 + r1 + r2 + r3;
}
extern "C" __global__ void __launch_bounds__(1024, 2) ipc_dep1(int iters, float a, float b, BlockRec* rec, float* sink) {
  float x = threadIdx.x * 1e-3f;
  TBODY(asm volatile(REP64(REP4("fma.rn.f32 %0, %0, %1, %2;\n\t")) : "+f"(x) : "f"(a), "f"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void __launch_bounds__(1024, 2) ipc_ind4(int iters, float a, float b, BlockRec* rec, float* sink) {
  float x0 = threadIdx.x * 1e-3f, x1 = x0 + 1.f, x2 = x0 + 2.f, x3 = x0 + 3.f;
  TBODY(asm volatile(REP64("fma.rn.f32 %0, %0, %4, %5;\n\tfma.rn.f32 %1, %1, %4, %5;\n\t"
                           "fma.rn.f32 %2, %2, %4, %5;\n\tfma.rn.f32 %3, %3, %4, %5;\n\t")
                     : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3)
                     : "f"(a), "f"(b)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3;
}

// Same as ipc_dep1 / ipc_ind4, but a and b are per-thread values, so every FFMA reads three vector
// registers (in ipc_dep1/ind4 ptxas puts a in a uniform register).
extern "C" __global__ void __launch_bounds__(1024, 2) ipc_dep1v(int iters, float a, float b, BlockRec* rec, float* sink) {
  float x = threadIdx.x * 1e-3f, av = a + threadIdx.x * 1e-12f, bv = b + threadIdx.x * 1e-12f;
  TBODY(asm volatile(REP64(REP4("fma.rn.f32 %0, %0, %1, %2;\n\t")) : "+f"(x) : "f"(av), "f"(bv)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void __launch_bounds__(1024, 2) ipc_ind4v(int iters, float a, float b, BlockRec* rec, float* sink) {
  float x0 = threadIdx.x * 1e-3f, x1 = x0 + 1.f, x2 = x0 + 2.f, x3 = x0 + 3.f;
  float av = a + threadIdx.x * 1e-12f, bv = b + threadIdx.x * 1e-12f;
  TBODY(asm volatile(REP64("fma.rn.f32 %0, %0, %4, %5;\n\tfma.rn.f32 %1, %1, %4, %5;\n\t"
                           "fma.rn.f32 %2, %2, %4, %5;\n\tfma.rn.f32 %3, %3, %4, %5;\n\t")
                     : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3)
                     : "f"(av), "f"(bv)));
  sink[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3;
}

typedef void (*KF)(int, float, float, BlockRec*, float*);

struct Run {
  SmRate r;
  double ms;
  double clk_mhz;
};

// Launches blocks_per_sm * SMs blocks; work_per_iter thread-ops per thread per iteration.
template <class L>
static Run run_rate(L launch, int sms, int blocks_per_sm, int threads, double work_per_iter, int iters, BlockRec* drec) {
  int blocks = sms * blocks_per_sm;
  double ms = time_ms([&] { launch(blocks, threads, iters); }, 3, 1);
  std::vector<BlockRec> h(blocks);
  CK(cudaMemcpy(h.data(), drec, blocks * sizeof(BlockRec), cudaMemcpyDeviceToHost));
  Run out;
  out.r = per_sm_rate(h, work_per_iter * threads * iters, blocks_per_sm);
  out.ms = ms;
  out.clk_mhz = out.r.median_span / (ms * 1e3);
  return out;
}

int main() {
  cudaDeviceProp p = props();
  int sms = p.multiProcessorCount;
  fprintf(stderr, "throughput: %s, %d SMs\n", p.name, sms);
  BlockRec* drec;
  CK(cudaMalloc(&drec, sizeof(BlockRec) * sms * 64));
  void* sink;
  CK(cudaMalloc(&sink, size_t(sms) * 2048 * 8 * 2));

  struct T {
    const char* name;
    const char* main;
    int iters;
    std::function<void(int, int, int)> f;
  };
  float fa = 1.0000001f, fb = 1e-7f;
  std::vector<T> tests = {
      {"thr_ffma", "FFMA", 4096, [&](int g, int t, int it) { thr_ffma<<<g, t>>>(it, fa, fb, drec, (float*)sink); }},
      {"thr_rsqrt", "MUFU.RSQ", 512, [&](int g, int t, int it) { thr_rsqrt<<<g, t>>>(it, fa, fb, drec, (float*)sink); }},
      {"thr_ex2", "MUFU.EX2", 512, [&](int g, int t, int it) { thr_ex2<<<g, t>>>(it, fa, fb, drec, (float*)sink); }},
      {"thr_sin", "MUFU.SIN", 512, [&](int g, int t, int it) { thr_sin<<<g, t>>>(it, fa, fb, drec, (float*)sink); }},
      {"thr_dfma", "DFMA", 2048, [&](int g, int t, int it) { thr_dfma<<<g, t>>>(it, 1.0000001, 1e-7, drec, (double*)sink); }},
      {"thr_imad", "IMAD", 2048, [&](int g, int t, int it) { thr_imad<<<g, t>>>(it, 3u, 7u, drec, (unsigned*)sink); }},
      {"thr_imad_hi", "IMAD.HI.U32", 2048, [&](int g, int t, int it) { thr_imad_hi<<<g, t>>>(it, 0xFFFFFFF1u, 7u, drec, (unsigned*)sink); }},
      {"thr_imad_wide", "IMAD.WIDE.U32", 2048,
       [&](int g, int t, int it) { thr_imad_wide<<<g, t>>>(it, 3u, 7ull, drec, (unsigned long long*)sink); }},
      {"thr_iadd_xor", "IADD3", 2048, [&](int g, int t, int it) { thr_iadd<<<g, t>>>(it, 3u, 7u, drec, (unsigned*)sink); }},
  };
  for (auto& t : tests) {
    Run r = run_rate(t.f, sms, 1, 1024, 64.0, t.iters, drec);
    std::string n = fmt("kernel=%s;main=%s;1 block x 1024 threads per SM; 8 independent chains/thread; iters=%d; "
                        "SMs used=%d; min=%.2f max=%.2f; kernel %.3f ms; clock64/event=%.0f MHz",
                        t.name, t.main, t.iters, r.r.sms_used, r.r.min_rate, r.r.max_rate, r.ms, r.clk_mhz);
    row(t.name, "thread_ops_per_clk_per_sm", r.r.median_rate, "ops/clk/SM", n);
    row(t.name, "warp_instr_per_clk_per_sm", r.r.median_rate / 32.0, "warp-instr/clk/SM", n);
    row(t.name, "sm_clock_from_clock64", r.clk_mhz, "MHz", n);
  }

  struct I {
    const char* name;
    KF f;
    const char* what;
  };
  I ipcs[] = {{"ipc_dep3", ipc_dep3, "dependent chain; 3 distinct source registers per FFMA (r0=r1*r2+r3 rotating)"},
              {"ipc_dep1", ipc_dep1, "dependent chain x=x*a+b"},
              {"ipc_ind4", ipc_ind4, "4 independent chains x_k=x_k*a+b"},
              {"ipc_dep1v", ipc_dep1v, "dependent chain x=x*a+b with a and b per-thread vector registers"},
              {"ipc_ind4v", ipc_ind4v, "4 independent chains x_k=x_k*a+b with a and b per-thread vector registers"}};
  const int wps[] = {1, 2, 4, 6, 8, 12, 16};
  for (auto& c : ipcs) {
    for (int w : wps) {
      int threads_per_sm = 128 * w;
      int bps = threads_per_sm > 1024 ? 2 : 1;
      int threads = threads_per_sm / bps;
      int iters = 256;
      Run r = run_rate([&](int g, int t, int it) { c.f<<<g, t>>>(it, 1.0000001f, 1e-7f, drec, (float*)sink); }, sms,
                       bps, threads, 256.0, iters, drec);
      double ipc = r.r.median_rate / 32.0 / 4.0;  // warp FFMA per clock per SMSP
      std::string n = fmt("kernel=%s;main=FFMA;%s; %d warps/SMSP (%d block(s) x %d threads per SM); iters=%d x 256 "
                          "FFMA; SMs used=%d; min=%.3f max=%.3f (per SMSP); kernel %.3f ms; clock64/event=%.0f MHz",
                          c.name, c.what, w, bps, threads, iters, r.r.sms_used, r.r.min_rate / 128.0,
                          r.r.max_rate / 128.0, r.ms, r.clk_mhz);
      row(c.name, fmt("ffma_ipc_per_smsp_w%d", w), ipc, "warp-FFMA/clk/SMSP", n);
    }
  }
  fprintf(stderr, "throughput: done\n");
  return 0;
}
