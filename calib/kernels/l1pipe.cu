// l1pipe.cu: what an SM's shared memory and its L1 hits share, what S2R and LDC cost, and how long a
// DRAM read waits beside a storm of other SMs' stores (issue 6: transpose_tiled and sgemm_tile run
// faster in the model than on the H200; ncu's short_scoreboard of one-element kernels; l2dirty rmw).
//  - pipe: 2 blocks of 1024 threads per SM (64 warps), each warp per loop step 8 ld.shared with a
//    W-way bank conflict (lane l at word l*W) and/or 8 ld.global.ca that hit L1 (lane l of request k at
//    line (l*L/32 + k*L) of a 64 KB array every SM reads, so each request touches L lines, L = 1 or 32),
//    2048 steps; per SM warp instructions per clock from clock64 (as shbank.cu). A shared data stage
//    would make the mix cost the sum of the parts, separate stages the larger.
//  - lat: one warp per SM, 64 dependent steps: x += S2R (%smid: volatile, never merged), x = LDC of
//    a __constant__ array at index x (a dependent chain), or an IADD chain for the base; clocks per step.
//  - storm: 4 SMs chase random lines of a 1 GB buffer (one warp each, 512 dependent loads, clocks per
//    load) while every other SM's 64 warps do random 4 B reads over 1 GB, random 4 B stores over 64 MB,
//    or random load-then-store over 48 MB, until the chasers finish; or nothing (the idle latency).
// Rows: l1pipe_{lds,ldg,mix}_W<W>_L<L>.warp_inst_per_clk_per_sm; l1pipe_lat_<op>.clk_per_step;
// l1pipe_storm_<kind>.{clk_per_load, storm_accesses_per_ns}.
// `l1pipe pipe KIND W L` runs one pipe point once (for ncu).
// Leaves out: stores in the pipe mix (their rate is the L2's), 8- and 16-byte accesses.
#include "common.cuh"

constexpr int kSteps = 2048;
enum Kind { kLds = 0, kLdg = 1, kMix = 2 };

#define LDS8                                                                                        \
  "ld.volatile.shared.u32 %0, [%16];\n\tld.volatile.shared.u32 %1, [%16+128];\n\t"                  \
  "ld.volatile.shared.u32 %2, [%16+256];\n\tld.volatile.shared.u32 %3, [%16+384];\n\t"              \
  "ld.volatile.shared.u32 %4, [%16+512];\n\tld.volatile.shared.u32 %5, [%16+640];\n\t"              \
  "ld.volatile.shared.u32 %6, [%16+768];\n\tld.volatile.shared.u32 %7, [%16+896];\n\t"
#define LDG8                                                                                        \
  "ld.global.ca.u32 %8, [%17];\n\tld.global.ca.u32 %9, [%17+4096];\n\t"                             \
  "ld.global.ca.u32 %10, [%17+8192];\n\tld.global.ca.u32 %11, [%17+12288];\n\t"                     \
  "ld.global.ca.u32 %12, [%17+16384];\n\tld.global.ca.u32 %13, [%17+20480];\n\t"                    \
  "ld.global.ca.u32 %14, [%17+24576];\n\tld.global.ca.u32 %15, [%17+28672];\n\t"
#define MIX8                                                                                        \
  "ld.volatile.shared.u32 %0, [%16];\n\tld.global.ca.u32 %8, [%17];\n\t"                            \
  "ld.volatile.shared.u32 %1, [%16+128];\n\tld.global.ca.u32 %9, [%17+4096];\n\t"                   \
  "ld.volatile.shared.u32 %2, [%16+256];\n\tld.global.ca.u32 %10, [%17+8192];\n\t"                  \
  "ld.volatile.shared.u32 %3, [%16+384];\n\tld.global.ca.u32 %11, [%17+12288];\n\t"                 \
  "ld.volatile.shared.u32 %4, [%16+512];\n\tld.global.ca.u32 %12, [%17+16384];\n\t"                 \
  "ld.volatile.shared.u32 %5, [%16+640];\n\tld.global.ca.u32 %13, [%17+20480];\n\t"                 \
  "ld.volatile.shared.u32 %6, [%16+768];\n\tld.global.ca.u32 %14, [%17+24576];\n\t"                 \
  "ld.volatile.shared.u32 %7, [%16+896];\n\tld.global.ca.u32 %15, [%17+28672];\n\t"
#define OUTS16                                                                                      \
  "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),   \
      "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]),      \
      "=r"(r[15])

// g: 64 KB read by every SM (L1 hits after the first step). Request k of a step reads the 4 KB
// block k; within it lane l reads line l*L/32 (L = 1: one line, L = 32: 32 lines, one word each).
__global__ void pipe(int kind, int W, int L, const unsigned* g, BlockRec* rec, unsigned* out) {
  __shared__ unsigned s[2048];
  const unsigned lane = threadIdx.x & 31;
  for (unsigned i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = i;
  __syncthreads();
  const unsigned a = (unsigned)__cvta_generic_to_shared(s) + 4u * ((lane * unsigned(W)) % 1024u);
  const unsigned* ga = g + (lane * unsigned(L) / 32u) * 32u + (lane % 32u);
  unsigned acc = 0;
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < kSteps; ++k) {
    unsigned r[16] = {0};
    if (kind == kLds)
      asm volatile(LDS8 : OUTS16 : "r"(a), "l"(ga));
    else if (kind == kLdg)
      asm volatile(LDG8 : OUTS16 : "r"(a), "l"(ga));
    else
      asm volatile(MIX8 : OUTS16 : "r"(a), "l"(ga));
    for (int i = 0; i < 16; i += 2) acc += r[i] ^ r[i + 1];
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) rec[blockIdx.x] = BlockRec{t0, t1, smid(), 0};
  if (acc == 0xdeadbeefu) out[0] = acc;
}

__constant__ unsigned cchain[256];

// One warp per SM, 64 dependent steps of op (0 IADD, 1 S2R %smid + IADD, 2 LDC at index x).
__global__ void lat(int op, long long* cycles, unsigned* out) {
  unsigned x = threadIdx.x & 1;
  long long t0 = clock64();
  if (op == 0) {
    asm volatile(REP64("add.u32 %0, %0, 1;\n\t") : "+r"(x));
  } else if (op == 1) {
    asm volatile("{\n\t.reg .u32 t;\n\t" REP64("mov.u32 t, %%smid;\n\tadd.u32 %0, %0, t;\n\t") "}" : "+r"(x));
  } else {
#pragma unroll
    for (int i = 0; i < 64; ++i) x = cchain[x & 255];
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (x == 0xdeadbeefu) out[0] = x;
}

enum Storm { kNone = 0, kRead = 1, kWrite = 2, kRmw = 3 };
constexpr int kChasers = 4;
constexpr int kChase = 512;

__device__ __forceinline__ unsigned hash32(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}

// Blocks of 1024 threads, 2 per SM. The first block to start on each of SMs 0..kChasers-1 chases
// (warp 0 only) and sets done[0] when its chase ends; every other block storms until all chasers are
// done. chain: a random cyclic permutation of 1 GB of lines (word i*32 holds the next line's word).
__global__ void storm(int kind, unsigned start, const unsigned* chain, unsigned* big, unsigned small_words, unsigned* claim,
                      volatile unsigned* done, long long* lat, unsigned long long* ops, unsigned* out) {
  __shared__ int role;
  const unsigned sm = smid();
  if (threadIdx.x == 0) role = (sm < kChasers && atomicAdd(&claim[sm], 1u) == 0) ? 1 : 0;
  __syncthreads();
  if (role == 1) {
    if (threadIdx.x >= 32) return;
    unsigned idx = ((sm * 7919u + start) & (8u * 1024u * 1024u - 1u)) * 32u;
    long long t0 = clock64();
    for (int k = 0; k < kChase; ++k) idx = chain[idx];
    long long t1 = clock64();
    if (threadIdx.x == 0) {
      lat[sm] = t1 - t0;
      __threadfence();
      atomicAdd((unsigned*)done, 1u);
    }
    if (idx == 0xdeadbeefu) out[0] = idx;
    return;
  }
  if (kind == kNone) return;
  unsigned h = hash32(blockIdx.x * 1024u + threadIdx.x + 1u), acc = 0;
  unsigned long long n = 0;
  while (done[0] < kChasers && n < (1ull << 22)) {
#pragma unroll 4
    for (int i = 0; i < 64; ++i) {
      h = hash32(h);
      if (kind == kRead) acc += big[h & (256u * 1024u * 1024u - 1u)];
      else if (kind == kWrite) big[h % small_words] = h;
      else { unsigned* p = &big[h % small_words]; *p = *p + 1u; }
    }
    n += 64;
  }
  atomicAdd(ops, n);
  if (acc == 0xdeadbeefu) out[0] = acc;
}

static void run_pipe(const cudaDeviceProp& p, int kind, int W, int L, const unsigned* g, BlockRec* rec, unsigned* out,
                     int reps) {
  const int blocks = 2 * p.multiProcessorCount;
  std::vector<BlockRec> h(blocks);
  std::vector<double> rates;
  for (int rep = 0; rep < reps; ++rep) {
    pipe<<<blocks, 1024>>>(kind, W, L, g, rec, out);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), rec, blocks * sizeof(BlockRec), cudaMemcpyDeviceToHost));
    const double per_block = 32.0 * kSteps * (kind == kMix ? 16 : 8);
    rates.push_back(per_sm_rate(h, per_block, 2).median_rate);
  }
  if (reps == 1) return;
  static const char* names[] = {"lds", "ldg", "mix"};
  row(fmt("l1pipe_%s_W%d_L%d", names[kind], W, L), "warp_inst_per_clk_per_sm", median(rates), "1/clk",
      fmt("kernel=pipe;8 ld.volatile.shared %d-way and/or 8 ld.global.ca L1 hits of %d lines per request;64 warps per SM;%d steps;clock64 per SM;median of %d runs",
          W, L, kSteps, reps));
}

static void run_lat(const cudaDeviceProp& p, long long* cyc, unsigned* out) {
  const int sms = p.multiProcessorCount;
  unsigned hc[256];
  for (int i = 0; i < 256; ++i) hc[i] = (unsigned)((i * 97 + 13) & 255);
  CK(cudaMemcpyToSymbol(cchain, hc, sizeof hc));
  static const char* names[] = {"iadd", "s2r_smid", "ldc_chain"};
  std::vector<long long> h(sms);
  for (int op = 0; op < 3; ++op) {
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      lat<<<sms, 32>>>(op, cyc, out);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), cyc, sms * sizeof(long long), cudaMemcpyDeviceToHost));
      for (long long c : h) v.push_back(double(c) / 64.0);
    }
    row(fmt("l1pipe_lat_%s", names[op]), "clk_per_step", median(v), "clk",
        "kernel=lat;one warp per SM;64 dependent steps;clock64;median over SMs x 3 runs (SASS: see the dump)");
  }
}

// fresh = 0: every run chases the same lines (L2-resident after the first run: an L2 hit's latency);
// fresh = 1: each run starts elsewhere on the cycle (DRAM: a miss's latency).
static void run_storm(const cudaDeviceProp& p, unsigned* out, int fresh) {
  const size_t big_words = 256ull * 1024 * 1024;  // 1 GB
  unsigned *chain, *big, *claim, *done;
  long long* lat;
  unsigned long long* ops;
  CK(cudaMalloc(&chain, big_words * 4));
  CK(cudaMalloc(&big, big_words * 4));
  CK(cudaMalloc(&claim, 64 * 4));
  CK(cudaMalloc(&done, 4));
  CK(cudaMalloc(&lat, 64 * sizeof(long long)));
  CK(cudaMalloc(&ops, 8));
  {  // a random cycle over the 8 M lines of the chain buffer: word l*32 holds line next(l)'s word
    const size_t lines = big_words / 32;
    std::vector<unsigned> perm(lines), h(big_words, 0);
    for (size_t i = 0; i < lines; ++i) perm[i] = unsigned(i);
    Rng r(7);
    for (size_t i = lines - 1; i > 0; --i) std::swap(perm[i], perm[r.next() % (i + 1)]);
    for (size_t i = 0; i < lines; ++i) h[size_t(perm[i]) * 32] = perm[(i + 1) % lines] * 32u;
    CK(cudaMemcpy(chain, h.data(), big_words * 4, cudaMemcpyHostToDevice));
  }
  CK(cudaMemset(big, 0, big_words * 4));
  static const char* names[] = {"none", "read", "write64MB", "rmw48MB"};
  const unsigned small_words[] = {0, 0, 16u << 20, 12u << 20};
  for (int kind = 0; kind < 4; ++kind) {
    std::vector<double> v, rate;
    for (int rep = 0; rep < 3; ++rep) {
      CK(cudaMemset(claim, 0, 64 * 4));
      CK(cudaMemset(done, 0, 4));
      CK(cudaMemset(ops, 0, 8));
      cudaEvent_t a, b;
      CK(cudaEventCreate(&a));
      CK(cudaEventCreate(&b));
      CK(cudaEventRecord(a));
      const unsigned start = fresh ? 1000003u * unsigned(1 + rep + 3 * kind) : 0u;
      storm<<<2 * p.multiProcessorCount, 1024>>>(kind, start, chain, big, small_words[kind], claim, done, lat, ops, out);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      CKL();
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, a, b));
      long long hl[kChasers];
      unsigned long long hops = 0;
      CK(cudaMemcpy(hl, lat, sizeof hl, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&hops, ops, 8, cudaMemcpyDeviceToHost));
      for (long long c : hl) v.push_back(double(c) / kChase);
      rate.push_back(double(hops) / (ms * 1e6));
    }
    const std::string n = fmt("kernel=storm;%d SMs chase 1 GB (512 dependent loads%s);the other SMs' 64 warps: %s;median of 3 runs x %d chasers",
                              kChasers, fresh ? ", other lines each run: DRAM" : ", the same lines each run: L2 hits after the first", names[kind], kChasers);
    const char* series = fresh ? "l1pipe_stormdram_%s" : "l1pipe_storm_%s";
    row(fmt(series, names[kind]), "clk_per_load", median(v), "clk", n);
    row(fmt(series, names[kind]), "storm_accesses_per_ns", median(rate), "1/ns", n);
  }
}

int main(int argc, char** argv) {
  const cudaDeviceProp p = props();
  unsigned *g, *out;
  BlockRec* rec;
  long long* cyc;
  CK(cudaMalloc(&g, 64 * 1024));
  CK(cudaMemset(g, 0, 64 * 1024));
  CK(cudaMalloc(&out, 4));
  CK(cudaMalloc(&rec, 2 * p.multiProcessorCount * sizeof(BlockRec)));
  CK(cudaMalloc(&cyc, p.multiProcessorCount * sizeof(long long)));
  if (argc == 5 && std::string(argv[1]) == "pipe") {
    const int kind = std::string(argv[2]) == "lds" ? kLds : std::string(argv[2]) == "ldg" ? kLdg : kMix;
    run_pipe(p, kind, atoi(argv[3]), atoi(argv[4]), g, rec, out, 1);
    printf("pipe %s W=%s L=%s done\n", argv[2], argv[3], argv[4]);
    return 0;
  }
  const int points[][2] = {{1, 1}, {4, 1}, {8, 1}, {32, 1}, {1, 32}, {32, 32}, {8, 8}};
  for (const auto& wl : points)
    for (int kind = 0; kind < 3; ++kind) run_pipe(p, kind, wl[0], wl[1], g, rec, out, 3);
  if (argc == 2 && std::string(argv[1]) == "stormdram") {
    run_storm(p, out, 1);
    return 0;
  }
  run_lat(p, cyc, out);
  run_storm(p, out, 0);
  run_storm(p, out, 1);
  return 0;
}
