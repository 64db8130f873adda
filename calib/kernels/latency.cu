// latency.cu: dependent-chain latencies on one warp (32 lanes running the same chain), timed with
// clock64() around an unrolled asm chain. Each chain is run at two iteration counts and the
// difference is taken, so clock reads, loop entry and the tail of the last op cancel; what is left
// per op includes the loop's own overhead instructions (counted from the SASS by sass_loops.py).
// Covers ALU/FMA/MUFU/FP64/integer division/shuffle chains and pointer chases in shared memory,
// L1 (ld.ca and plain loads), L2 (ld.cg; also one warp on every SM at once, for the per-SM
// spread) and DRAM (random ring, L2 flushed by a 512 MB memset).
// Leaves out: per-SM variation (one SM measured), texture/constant caches, TLB sweeps.
#include "common.cuh"
#include <functional>
#include <map>

#define TIMED_LOOP(body)                                                                           \
  long long t0 = clock64();                                                                        \
  _Pragma("unroll 1") for (int i = 0; i < iters; ++i) { body; }                                    \
  long long t1 = clock64();                                                                        \
  if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;

extern "C" __global__ void lat_ffma(int iters, float a, float b, long long* cyc, float* sink) {
  float x = threadIdx.x * 1e-3f;
  TIMED_LOOP(asm volatile(REP64("fma.rn.f32 %0, %0, %1, %2;\n\t") : "+f"(x) : "f"(a), "f"(b)));
  sink[threadIdx.x] = x;
}
extern "C" __global__ void lat_fadd(int iters, float a, float b, long long* cyc, float* sink) {
  float x = threadIdx.x * 1e-3f;
  TIMED_LOOP(asm volatile(REP64("add.rn.f32 %0, %0, %1;\n\t") : "+f"(x) : "f"(a)));
  sink[threadIdx.x] = x + b;
}
extern "C" __global__ void lat_fmul(int iters, float a, float b, long long* cyc, float* sink) {
  float x = threadIdx.x * 1e-3f + 1.0f;
  TIMED_LOOP(asm volatile(REP64("mul.rn.f32 %0, %0, %1;\n\t") : "+f"(x) : "f"(a)));
  sink[threadIdx.x] = x + b;
}
extern "C" __global__ void lat_imad(int iters, unsigned a, unsigned b, long long* cyc, unsigned* sink) {
  unsigned x = threadIdx.x;
  TIMED_LOOP(asm volatile(REP64("mad.lo.u32 %0, %0, %1, %2;\n\t") : "+r"(x) : "r"(a), "r"(b)));
  sink[threadIdx.x] = x;
}
// 64-bit integer forms (issue 6: the compiled division's IMAD.HI / IMAD.WIDE chain, index math).
extern "C" __global__ void lat_imad_hi(int iters, unsigned a, unsigned b, long long* cyc, unsigned* sink) {
  unsigned x = threadIdx.x + 0x80000000u;
  TIMED_LOOP(asm volatile(REP64("mad.hi.u32 %0, %0, %1, %2;\n\t") : "+r"(x) : "r"(a), "r"(b)));
  sink[threadIdx.x] = x;
}
extern "C" __global__ void lat_imad_wide(int iters, unsigned a, unsigned b, long long* cyc, unsigned long long* sink) {
  unsigned long long x = threadIdx.x + b;
  TIMED_LOOP(asm volatile(REP64("{ .reg .u32 lo, hi; mov.b64 {lo, hi}, %0; mad.wide.u32 %0, lo, %1, %0; }\n\t")
                          : "+l"(x) : "r"(a)));
  sink[threadIdx.x] = x;
}
extern "C" __global__ void lat_iadd64(int iters, unsigned long long a, unsigned b, long long* cyc,
                                      unsigned long long* sink) {
  unsigned long long x = threadIdx.x + b;
  TIMED_LOOP(asm volatile(REP64("add.u64 %0, %0, %1;\n\t") : "+l"(x) : "l"(a)));
  sink[threadIdx.x] = x;
}
// Alternating operands: ptxas may fuse pairs into IADD3 (counted in the SASS).
extern "C" __global__ void lat_iadd(int iters, unsigned a, unsigned b, long long* cyc, unsigned* sink) {
  unsigned x = threadIdx.x;
  TIMED_LOOP(asm volatile(REP32("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;\n\t") : "+r"(x) : "r"(a), "r"(b)));
  sink[threadIdx.x] = x;
}
extern "C" __global__ void lat_rsqrt(int iters, float a, float b, long long* cyc, float* sink) {
  float x = 2.0f + threadIdx.x;
  TIMED_LOOP(asm volatile(REP64("rsqrt.approx.ftz.f32 %0, %0;\n\t") : "+f"(x)));
  sink[threadIdx.x] = x + a + b;
}
// rcp(rcp(x)) is folded by ptxas, so each rcp is followed by an FADD (subtract the FADD latency).
extern "C" __global__ void lat_rcp(int iters, float a, float b, long long* cyc, float* sink) {
  float x = 2.0f + threadIdx.x;
  TIMED_LOOP(asm volatile(REP32("rcp.approx.ftz.f32 %0, %0;\n\tadd.ftz.f32 %0, %0, %1;\n\t") : "+f"(x) : "f"(a)));
  sink[threadIdx.x] = x + b;
}
extern "C" __global__ void lat_ex2(int iters, float a, float b, long long* cyc, float* sink) {
  float x = -1.0f - threadIdx.x;
  TIMED_LOOP(asm volatile(REP64("ex2.approx.ftz.f32 %0, %0;\n\t") : "+f"(x)));
  sink[threadIdx.x] = x + a + b;
}
extern "C" __global__ void lat_sin(int iters, float a, float b, long long* cyc, float* sink) {
  float x = 0.5f + threadIdx.x * 1e-3f;
  TIMED_LOOP(asm volatile(REP64("sin.approx.ftz.f32 %0, %0;\n\t") : "+f"(x)));
  sink[threadIdx.x] = x + a + b;
}
extern "C" __global__ void lat_dfma(int iters, double a, double b, long long* cyc, double* sink) {
  double x = threadIdx.x * 1e-3;
  TIMED_LOOP(asm volatile(REP64("fma.rn.f64 %0, %0, %1, %2;\n\t") : "+d"(x) : "d"(a), "d"(b)));
  sink[threadIdx.x] = x;
}
// Divisor and dividend both on the chain: x = M / x alternates 3 <-> M/3 (never 0).
extern "C" __global__ void lat_udiv(int iters, unsigned m, unsigned x0, long long* cyc, unsigned* sink) {
  unsigned x = x0;
  TIMED_LOOP(asm volatile(REP16("div.u32 %0, %1, %0;\n\t") : "+r"(x) : "r"(m)));
  sink[threadIdx.x] = x;
}
extern "C" __global__ void lat_sdiv(int iters, int m, int x0, long long* cyc, int* sink) {
  int x = x0;
  TIMED_LOOP(asm volatile(REP16("div.s32 %0, %1, %0;\n\t") : "+r"(x) : "r"(m)));
  sink[threadIdx.x] = x;
}
// x = (M % x) + 3: the divisor is on the chain (M % 3 = 0, so x stays 3; ptxas cannot know).
extern "C" __global__ void lat_umod(int iters, unsigned m, unsigned x0, long long* cyc, unsigned* sink) {
  unsigned x = x0;
  TIMED_LOOP(asm volatile(REP16("rem.u32 %0, %1, %0;\n\tadd.u32 %0, %0, 3;\n\t") : "+r"(x) : "r"(m)));
  sink[threadIdx.x] = x;
}
// Only the dividend is on the chain; 16 distinct divisors per iteration come from the loop counter,
// so their reciprocals can be computed off the chain: x = x / d_k + M.
#define DIVADD(k) "div.u32 %0, %0, %" #k ";\n\tadd.u32 %0, %0, %17;\n\t"
extern "C" __global__ void lat_udiv_offchain(int iters, unsigned m, unsigned x0, long long* cyc, unsigned* sink) {
  unsigned x = x0;
  TIMED_LOOP({
    unsigned d = (unsigned)i * 40u + 3u;
    asm volatile(DIVADD(1) DIVADD(2) DIVADD(3) DIVADD(4) DIVADD(5) DIVADD(6) DIVADD(7) DIVADD(8)
                 DIVADD(9) DIVADD(10) DIVADD(11) DIVADD(12) DIVADD(13) DIVADD(14) DIVADD(15) DIVADD(16)
                 : "+r"(x)
                 : "r"(d), "r"(d + 2), "r"(d + 4), "r"(d + 6), "r"(d + 8), "r"(d + 10), "r"(d + 12),
                   "r"(d + 14), "r"(d + 16), "r"(d + 18), "r"(d + 20), "r"(d + 22), "r"(d + 24),
                   "r"(d + 26), "r"(d + 28), "r"(d + 30), "r"(m));
  });
  sink[threadIdx.x] = x;
}
extern "C" __global__ void lat_shfl(int iters, unsigned a, unsigned b, long long* cyc, unsigned* sink) {
  unsigned x = threadIdx.x + a;
  TIMED_LOOP(asm volatile(REP64("shfl.sync.down.b32 %0, %0, 1, 0x1f, 0xffffffff;\n\t") : "+r"(x)));
  sink[threadIdx.x] = x + b;
}
// Shared memory: a ring of 32-bit shared addresses; each LDS loads the next address.
extern "C" __global__ void lat_lds(int iters, unsigned a, unsigned b, long long* cyc, unsigned* sink) {
  __shared__ unsigned s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    s[i] = (unsigned)__cvta_generic_to_shared(&s[(i + 33 + a) & 1023]);
  __syncthreads();
  unsigned p = (unsigned)__cvta_generic_to_shared(&s[b & 1023]);
  TIMED_LOOP(asm volatile(REP16("ld.shared.u32 %0, [%0];\n\t") : "+r"(p)::"memory"));
  sink[threadIdx.x] = p;
}
// Global pointer chases over a ring built by ring_setup. warm hops run first (untimed) so the
// ring sits in L1/L2; L1 is not kept across launches, so the warming is inside the kernel.
extern "C" __global__ void lat_ldg_ca(const unsigned long long* start, int warm, int iters, long long* cyc,
                                      unsigned long long* sink) {
  unsigned long long p = (unsigned long long)start;
  for (int i = 0; i < warm; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
  TIMED_LOOP(asm volatile(REP16("ld.global.ca.u64 %0, [%0];\n\t") : "+l"(p)::"memory"));
  sink[threadIdx.x] = p;
}
extern "C" __global__ void lat_ldg_cg(const unsigned long long* start, int warm, int iters, long long* cyc,
                                      unsigned long long* sink) {
  unsigned long long p = (unsigned long long)start;
  for (int i = 0; i < warm; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
  TIMED_LOOP(asm volatile(REP16("ld.global.cg.u64 %0, [%0];\n\t") : "+l"(p)::"memory"));
  sink[threadIdx.x] = p;
}
// Plain C++ chase (no cache operator): what ordinary code gets.
extern "C" __global__ void lat_ldg_plain(const unsigned long long* start, int warm, int iters, long long* cyc,
                                         unsigned long long* sink) {
  const unsigned long long* p = start;
  for (int i = 0; i < warm; ++i) p = (const unsigned long long*)*p;
  TIMED_LOOP(_Pragma("unroll") for (int k = 0; k < 16; ++k) p = (const unsigned long long*)*p);
  sink[threadIdx.x] = (unsigned long long)p;
}
__device__ unsigned dev_smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
// One warp per SM chasing the same L2-resident ring: per-SM L2 hit latency (near/far partition).
extern "C" __global__ void lat_l2_per_sm(const unsigned long long* start, int warm, int iters, long long* cyc,
                                         unsigned* sm) {
  unsigned long long p = (unsigned long long)start;
  for (int i = 0; i < warm; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
  TIMED_LOOP(asm volatile(REP16("ld.global.cg.u64 %0, [%0];\n\t") : "+l"(p)::"memory"));
  if (threadIdx.x == 0) sm[blockIdx.x] = dev_smid() + (p == 1 ? 1000u : 0u);
}
__global__ void ring_setup(unsigned long long* buf, const unsigned long long* pos,
                           const unsigned long long* nxt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[pos[i] / 8] = (unsigned long long)buf + nxt[i];
}

// Builds a ring of `nodes` 128 B-aligned nodes, one per equal stratum of `span` bytes, visited in
// a random order. Returns the device address of the first node.
static unsigned long long* build_ring(unsigned long long* dbuf, size_t span, size_t nodes, uint64_t seed) {
  Rng rng(seed);
  size_t stratum = (span / nodes) / 128 * 128;
  if (stratum < 128) stratum = 128;
  std::vector<unsigned long long> where(nodes), order(nodes), pos(nodes), nxt(nodes);
  for (size_t k = 0; k < nodes; ++k) where[k] = k * stratum + (rng.next() % (stratum / 128)) * 128;
  for (size_t k = 0; k < nodes; ++k) order[k] = k;
  for (size_t k = nodes - 1; k > 0; --k) std::swap(order[k], order[rng.next() % (k + 1)]);
  for (size_t j = 0; j < nodes; ++j) {
    pos[j] = where[order[j]];
    nxt[j] = where[order[(j + 1) % nodes]];
  }
  unsigned long long *dp, *dn;
  CK(cudaMalloc(&dp, nodes * 8));
  CK(cudaMalloc(&dn, nodes * 8));
  CK(cudaMemcpy(dp, pos.data(), nodes * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dn, nxt.data(), nodes * 8, cudaMemcpyHostToDevice));
  ring_setup<<<(unsigned)((nodes + 255) / 256), 256>>>(dbuf, dp, dn, (int)nodes);
  CKL();
  CK(cudaDeviceSynchronize());
  CK(cudaFree(dp));
  CK(cudaFree(dn));
  return dbuf + where[order[0]] / 8;
}

static long long* g_cyc;
static void* g_sink;

static long long read_cyc() {
  CKL();
  CK(cudaDeviceSynchronize());
  long long c;
  CK(cudaMemcpy(&c, g_cyc, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

// Min over 3 launches at each of two iteration counts; returns cycles per loop iteration.
static double diff_per_iter(const std::function<void(int)>& launch, int i1, int i2, double* c1o, double* c2o) {
  long long c1 = -1, c2 = -1;
  launch(i1);  // warm the instruction cache
  read_cyc();
  for (int r = 0; r < 3; ++r) {
    launch(i1);
    long long a = read_cyc();
    launch(i2);
    long long b = read_cyc();
    c1 = (c1 < 0 || a < c1) ? a : c1;
    c2 = (c2 < 0 || b < c2) ? b : c2;
  }
  *c1o = double(c1);
  *c2o = double(c2);
  return double(c2 - c1) / double(i2 - i1);
}

static void report(const char* name, const char* main_op, int ops_per_iter, const std::function<void(int)>& launch,
                   int i1, int i2, const char* what) {
  double c1, c2;
  double per_iter = diff_per_iter(launch, i1, i2, &c1, &c2);
  std::string notes = fmt("kernel=%s;main=%s;ops_per_iter=%d;iters=%d/%d;cycles=%.0f/%.0f;%s", name, main_op,
                          ops_per_iter, i1, i2, c1, c2, what);
  row(name, "cycles_per_iter", per_iter, "cycles", notes);
  row(name, "latency_per_ptx_op", per_iter / ops_per_iter, "cycles", notes);
}

int main() {
  cudaDeviceProp p = props();
  fprintf(stderr, "latency: %s, %d SMs\n", p.name, p.multiProcessorCount);
  CK(cudaMalloc(&g_cyc, 64));
  CK(cudaMalloc(&g_sink, 4096));
  float* fs = (float*)g_sink;
  unsigned* us = (unsigned*)g_sink;
  double* ds = (double*)g_sink;
  int* is = (int*)g_sink;
  unsigned long long* ls = (unsigned long long*)g_sink;
  const float fa = 1.0000001f, fb = 1e-7f;

  report("lat_ffma", "FFMA", 64, [&](int it) { lat_ffma<<<1, 32>>>(it, fa, fb, g_cyc, fs); }, 16, 1040,
         "fma.rn.f32 x=x*a+b");
  report("lat_fadd", "FADD", 64, [&](int it) { lat_fadd<<<1, 32>>>(it, fb, fb, g_cyc, fs); }, 16, 1040,
         "add.rn.f32 x=x+a");
  report("lat_fmul", "FMUL", 64, [&](int it) { lat_fmul<<<1, 32>>>(it, fa, fb, g_cyc, fs); }, 16, 1040,
         "mul.rn.f32 x=x*a");
  report("lat_imad", "IMAD", 64, [&](int it) { lat_imad<<<1, 32>>>(it, 3u, 7u, g_cyc, us); }, 16, 1040,
         "mad.lo.u32 x=x*a+b");
  report("lat_imad_hi", "IMAD.HI.U32", 64, [&](int it) { lat_imad_hi<<<1, 32>>>(it, 0xFFFFFFF1u, 7u, g_cyc, us); }, 16,
         1040, "mad.hi.u32 x=hi(x*a)+b");
  report("lat_imad_wide", "IMAD.WIDE.U32", 64, [&](int it) { lat_imad_wide<<<1, 32>>>(it, 3u, 7u, g_cyc, ls); }, 16,
         1040, "mad.wide.u32 x64=lo(x64)*a+x64");
  report("lat_iadd64", "IADD3+IADD3.X", 64, [&](int it) { lat_iadd64<<<1, 32>>>(it, 0x100000003ull, 7u, g_cyc, ls); },
         16, 1040, "add.u64 x=x+a (a low add and a carry add per op)");
  report("lat_iadd", "IADD3", 64, [&](int it) { lat_iadd<<<1, 32>>>(it, 3u, 7u, g_cyc, us); }, 16, 1040,
         "add.u32 alternating a/b (ptxas may fuse pairs: see SASS count)");
  report("lat_rsqrt", "MUFU.RSQ", 64, [&](int it) { lat_rsqrt<<<1, 32>>>(it, fa, fb, g_cyc, fs); }, 8, 264,
         "rsqrt.approx.ftz.f32");
  {
    double c1, c2, c3, c4;
    double fadd = diff_per_iter([&](int it) { lat_fadd<<<1, 32>>>(it, fb, fb, g_cyc, fs); }, 16, 1040, &c1, &c2) / 64;
    report("lat_rcp", "MUFU.RCP", 32, [&](int it) { lat_rcp<<<1, 32>>>(it, fb, fb, g_cyc, fs); }, 8, 264,
           "rcp.approx.ftz.f32 + add.ftz.f32 pairs (per op = per pair)");
    double pair = diff_per_iter([&](int it) { lat_rcp<<<1, 32>>>(it, fb, fb, g_cyc, fs); }, 8, 264, &c3, &c4) / 32;
    row("lat_rcp", "latency_minus_fadd", pair - fadd, "cycles",
        fmt("kernel=lat_rcp;per rcp+fadd pair %.4f minus FADD latency %.4f (loop overhead split over 32 pairs)", pair,
            fadd));
  }
  report("lat_ex2", "MUFU.EX2", 64, [&](int it) { lat_ex2<<<1, 32>>>(it, fa, fb, g_cyc, fs); }, 8, 264,
         "ex2.approx.ftz.f32");
  report("lat_sin", "MUFU.SIN", 64, [&](int it) { lat_sin<<<1, 32>>>(it, fa, fb, g_cyc, fs); }, 8, 264,
         "sin.approx.ftz.f32 (FMUL.RZ + MUFU.SIN per op)");
  report("lat_dfma", "DFMA", 64, [&](int it) { lat_dfma<<<1, 32>>>(it, 1.0000001, 1e-7, g_cyc, ds); }, 8, 520,
         "fma.rn.f64");
  report("lat_udiv", "MUFU.RCP", 16, [&](int it) { lat_udiv<<<1, 32>>>(it, 0xFFFFFFFFu, 3u, g_cyc, us); }, 4, 132,
         "div.u32 x=M/x; divisor and dividend on the chain");
  report("lat_sdiv", "MUFU.RCP", 16, [&](int it) { lat_sdiv<<<1, 32>>>(it, 0x7FFFFFFF, -3, g_cyc, is); }, 4, 132,
         "div.s32 x=M/x; divisor and dividend on the chain");
  report("lat_umod", "MUFU.RCP", 16, [&](int it) { lat_umod<<<1, 32>>>(it, 0xFFFFFFFFu, 3u, g_cyc, us); }, 4, 132,
         "rem.u32 x=(M%x)+3 per op (includes one add)");
  report("lat_udiv_offchain", "MUFU.RCP", 16,
         [&](int it) { lat_udiv_offchain<<<1, 32>>>(it, 0x7FFF0000u, 12345u, g_cyc, us); }, 4, 132,
         "div.u32 x=x/d_k+M; 16 distinct divisors per iter off the chain; per op includes one add");
  report("lat_shfl", "SHFL.DOWN", 64, [&](int it) { lat_shfl<<<1, 32>>>(it, 1u, 2u, g_cyc, us); }, 8, 264,
         "shfl.sync.down.b32 delta 1");
  report("lat_lds", "LDS", 16, [&](int it) { lat_lds<<<1, 32>>>(it, 0u, 0u, g_cyc, us); }, 16, 1040,
         "ld.shared.u32 chase of 32-bit shared addresses");

  // Global chases.
  size_t big = size_t(4) << 30;
  unsigned long long* dbuf;
  CK(cudaMalloc(&dbuf, big));
  void* flush;
  size_t flush_bytes = size_t(512) << 20;
  CK(cudaMalloc(&flush, flush_bytes));

  {  // L1: 16 KB ring of 128 lines
    unsigned long long* st = build_ring(dbuf, 16 << 10, 128, 11);
    report("lat_l1_16KB", "LDG", 16, [&](int it) { lat_ldg_ca<<<1, 32>>>(st, 256, it, g_cyc, ls); }, 16, 1040,
           "ld.global.ca.u64 chase; 128 lines over 16 KB; random order; warmed in-kernel");
  }
  {  // same 16 KB ring, plain C++ loads
    unsigned long long* st = build_ring(dbuf, 16 << 10, 128, 11);
    report("lat_l1_16KB_plain", "LDG", 16, [&](int it) { lat_ldg_plain<<<1, 32>>>(st, 256, it, g_cyc, ls); }, 16,
           1040, "plain C++ pointer chase (*p); 128 lines over 16 KB; warmed in-kernel");
  }
  {  // L1 bigger: 128 KB
    unsigned long long* st = build_ring(dbuf, 128 << 10, 1024, 12);
    report("lat_l1_128KB", "LDG", 16, [&](int it) { lat_ldg_ca<<<1, 32>>>(st, 2048, it, g_cyc, ls); }, 16, 1040,
           "ld.global.ca.u64 chase; 1024 lines over 128 KB; L1 or L2 depending on carve-out");
  }
  const size_t l2spans[] = {size_t(2) << 20, size_t(16) << 20, size_t(48) << 20};
  for (size_t span : l2spans) {
    unsigned long long* st = build_ring(dbuf, span, 16384, 13 + span);
    std::string name = fmt("lat_l2_%zuMB", span >> 20);
    report(name.c_str(), "LDG", 16, [&](int it) { lat_ldg_cg<<<1, 32>>>(st, 16384, it, g_cyc, ls); }, 8, 264,
           "ld.global.cg.u64 chase; 16384 lines spread over the span; random order; warmed in-kernel");
  }
  {  // per-SM L2 latency: one warp on each SM, same 16 MB ring, 3 launches, min per block
    int sms = p.multiProcessorCount;
    unsigned long long* st = build_ring(dbuf, size_t(16) << 20, 16384, 29);
    long long* pc;
    unsigned* psm;
    CK(cudaMalloc(&pc, sms * 2 * sizeof(long long)));
    CK(cudaMalloc(&psm, sms * sizeof(unsigned)));
    std::vector<long long> a(sms), b(sms);
    std::vector<unsigned> smv(sms);
    std::vector<double> per;
    const int i1 = 8, i2 = 136;
    lat_l2_per_sm<<<sms, 32>>>(st, 16384, i1, pc, psm);
    CKL();
    CK(cudaDeviceSynchronize());
    std::map<unsigned, double> by_sm;
    for (int r = 0; r < 3; ++r) {
      lat_l2_per_sm<<<sms, 32>>>(st, 16384, i1, pc, psm);
      CKL();
      CK(cudaMemcpy(a.data(), pc, sms * sizeof(long long), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(smv.data(), psm, sms * sizeof(unsigned), cudaMemcpyDeviceToHost));
      std::vector<unsigned> sm1 = smv;
      lat_l2_per_sm<<<sms, 32>>>(st, 16384, i2, pc, psm);
      CKL();
      CK(cudaMemcpy(b.data(), pc, sms * sizeof(long long), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(smv.data(), psm, sms * sizeof(unsigned), cudaMemcpyDeviceToHost));
      // blocks may land on other SMs between launches: pair by SM id
      std::map<unsigned, long long> first;
      for (int k = 0; k < sms; ++k) first[sm1[k]] = a[k];
      for (int k = 0; k < sms; ++k) {
        auto it = first.find(smv[k]);
        if (it == first.end()) continue;
        double v = double(b[k] - it->second) / ((i2 - i1) * 16.0);
        auto f = by_sm.find(smv[k]);
        if (f == by_sm.end() || v < f->second) by_sm[smv[k]] = v;
      }
    }
    for (auto& kv : by_sm) per.push_back(kv.second);
    std::sort(per.begin(), per.end());
    if (!per.empty()) {
      std::string n = fmt("kernel=lat_l2_per_sm;one warp per SM (%zu SMs) chasing one 16 MB ring with ld.cg at once; "
                          "per SM min of 3; p10=%.1f p90=%.1f",
                          per.size(), per[per.size() / 10], per[per.size() * 9 / 10]);
      row("lat_l2_per_sm", "min", per.front(), "cycles", n);
      row("lat_l2_per_sm", "median", median(per), "cycles", n);
      row("lat_l2_per_sm", "max", per.back(), "cycles", n);
      std::string all;
      for (auto& kv : by_sm) all += fmt("%u:%.0f ", kv.first, kv.second);
      fprintf(stderr, "lat_l2_per_sm by SM: %s\n", all.c_str());
    }
    CK(cudaFree(pc));
    CK(cudaFree(psm));
  }
  const size_t dspans[] = {size_t(128) << 20, size_t(1) << 30, size_t(4) << 30};
  for (size_t span : dspans) {
    const int iters = 512, nodes = iters * 16 + 1;
    std::vector<double> per;
    for (int rep = 0; rep < 3; ++rep) {
      unsigned long long* st = build_ring(dbuf, span, nodes, 101 + span + rep);
      CK(cudaMemset(flush, rep + 1, flush_bytes));  // evict the ring from L2
      CK(cudaDeviceSynchronize());
      lat_ldg_cg<<<1, 32>>>(st, 0, iters, g_cyc, ls);
      per.push_back(double(read_cyc()) / (iters * 16.0));
    }
    std::string name = fmt("lat_dram_%zuMB", span >> 20);
    row(name, "latency_per_ptx_op", median(per), "cycles",
        fmt("kernel=lat_ldg_cg;main=LDG;one cold pass of %d hops over %d random 128B lines in %zu MB after a 512 MB "
            "memset; median of 3 rings (%.1f/%.1f/%.1f)",
            iters * 16, nodes, span >> 20, per[0], per[1], per[2]));
  }
  CK(cudaFree(dbuf));
  CK(cudaFree(flush));
  fprintf(stderr, "latency: done\n");
  return 0;
}
