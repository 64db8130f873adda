// atomtype.cu: what a global atomic costs at the L2 by its operation and width (issue 6; atomgrid.cu
// measured red/atom.add.u32 only, and the held-out ho_reduce_atomic, whose 8448 warps end with one
// red.add.f32 on one word, ends about 14 us after its SMs go idle on an H100).
// Each warp runs K atomics in a loop (#pragma unroll 1), op one of
//   red.add.u32, red.add.f32, red.add.u64, red.add.f64, red.min.u32, red.or.b32,
//   atom.add.u32, atom.add.f32, atom.add.f64, atom.cas.b32, atom.exch.b32,
// in a pattern:
//   same   - every lane of every warp on one address (the unit's read-modify-write chain),
//   lane0  - one lane per warp, every warp on one address (a reduction's final add per warp),
//   hot8   - 32 lanes on hashed words of 8 hot lines (a 256-bin histogram's shape),
//   spread - a distinct word per thread, contiguous per warp, over 128 MB (no contention).
// Senders: 132 x 8 blocks of 256 threads. K adapts so a launch lasts about 1 ms.
// Rows: atomtype_<op>_<pattern>.atomics_per_clk (lane operations per GPU clock at 1.98 GHz) and .ms;
// tail_<op>.us: 132 x 8 blocks of 256, each warp's lane 0 does one atomic on one word and exits,
// against the same kernel without the atomic (tail_none): the drain of a reduction's last adds.
// Leaves out: system scope, shared memory (contention.cu), 16-bit and vector atomics.
#include "common.cuh"

enum Op { kRedU32, kRedF32, kRedU64, kRedF64, kRedMin, kRedOr, kAtomU32, kAtomF32, kAtomF64, kCas, kExch, kNone };
static const char* kOpName[] = {"red_add_u32", "red_add_f32", "red_add_u64", "red_add_f64", "red_min_u32", "red_or_b32",
                                "atom_add_u32", "atom_add_f32", "atom_add_f64", "atom_cas_b32", "atom_exch_b32", "none"};
template <int OP>
__host__ __device__ constexpr int op_bytes() { return OP == kRedU64 || OP == kRedF64 || OP == kAtomF64 ? 8 : 4; }
enum Pattern { kSame, kLane0, kHot8, kSpread };
static const char* kPatName[] = {"same", "lane0", "hot8", "spread"};

__device__ __forceinline__ unsigned mixh(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

template <int OP>
__device__ __forceinline__ unsigned do_atomic(char* a, unsigned v) {
  unsigned r = 0;
  if (OP == kRedU32) asm volatile("red.global.add.u32 [%0], %1;" ::"l"(a), "r"(v) : "memory");
  if (OP == kRedF32) asm volatile("red.global.add.f32 [%0], %1;" ::"l"(a), "f"(1.0f) : "memory");
  if (OP == kRedU64) asm volatile("red.global.add.u64 [%0], %1;" ::"l"(a), "l"((unsigned long long)v) : "memory");
  if (OP == kRedF64) asm volatile("red.global.add.f64 [%0], %1;" ::"l"(a), "d"(1.0) : "memory");
  if (OP == kRedMin) asm volatile("red.global.min.u32 [%0], %1;" ::"l"(a), "r"(v) : "memory");
  if (OP == kRedOr) asm volatile("red.global.or.b32 [%0], %1;" ::"l"(a), "r"(v) : "memory");
  if (OP == kAtomU32) asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(v) : "memory");
  if (OP == kAtomF32) {
    float f;
    asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(f) : "l"(a), "f"(1.0f) : "memory");
    r = __float_as_uint(f);
  }
  if (OP == kAtomF64) {
    double d;
    asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(d) : "l"(a), "d"(1.0) : "memory");
    r = unsigned(__double_as_longlong(d));
  }
  if (OP == kCas) asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(a), "r"(v), "r"(v + 1) : "memory");
  if (OP == kExch) asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(v) : "memory");
  return r;
}

// The address of thread (warp w, lane) at step k: words of `bytes` bytes.
__device__ __forceinline__ size_t offset(int pat, unsigned w, unsigned lane, unsigned k, unsigned tid, int bytes) {
  if (pat == kSame || pat == kLane0) return 0;
  if (pat == kHot8) return size_t((lane + w * 8u + k * 56u) % 8u) * 128u + (mixh(lane * 977u + k * 131u + w) & 31u) * 4u / bytes * bytes;
  return (size_t(tid) * bytes + size_t(k) * 4096u) % (size_t(128) << 20);
}

template <int OP>
__global__ void atom_type(char* base, int K, int pat, unsigned* sink) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = tid >> 5;
  if (pat == kLane0 && lane != 0) return;
  unsigned acc = 0;
#pragma unroll 1
  for (int k = 0; k < K; ++k) acc += do_atomic<OP>(base + offset(pat, w, lane, unsigned(k), tid, op_bytes<OP>()), lane + 1);
  if (acc == 0x7fffffffu) sink[0] = acc;  // keeps the returned values live
}

// One atomic by lane 0 of every warp, after a little work every warp does alike.
template <int OP>
__global__ void tail(char* base, unsigned* sink) {
  const unsigned lane = threadIdx.x & 31;
  unsigned x = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < 16; ++i) x = x * 1664525u + 1013904223u;
  if (x == 0x12345u) sink[1] = x;
  if (OP != kNone && lane == 0) {
    unsigned r = do_atomic<OP>(base, x);
    if (r == 0x7fffffffu) sink[0] = r;
  }
}

template <int OP>
void run_op(char* base, unsigned* sink, int sms) {
  const int blocks = sms * 8, threads = 256;
  for (int pat = kSame; pat <= kSpread; ++pat) {
    int K = 8;
    double ms = time_ms([&] { atom_type<OP><<<blocks, threads>>>(base, K, pat, sink); }, 1, 1);
    K = ncu_mode() ? 8 : int(std::min(4096.0, std::max(2.0, 8.0 * 1.0 / std::max(ms, 1e-4))));
    ms = time_ms([&] { atom_type<OP><<<blocks, threads>>>(base, K, pat, sink); }, reps_or_1(5), warm_or_0(1));
    const double lanes = pat == kLane0 ? blocks * threads / 32.0 : double(blocks) * threads;
    const double cycles = ms * 1e-3 * 1.98e9;
    std::string k = fmt("atomtype_%s_%s", kOpName[OP], kPatName[pat]);
    std::string n = fmt("kernel=atom_type;%s;%d blocks x %d;K=%d;pattern %s;median of 5", kOpName[OP], blocks, threads, K,
                        kPatName[pat]);
    row(k, "ms", ms, "ms", n);
    row(k, "atomics_per_clk", lanes * K / cycles, "1/clk", n);
  }
  const double ms = time_ms([&] { tail<OP><<<blocks, threads>>>(base, sink); }, reps_or_1(9), warm_or_0(2));
  row(fmt("tail_%s", kOpName[OP]), "us", ms * 1e3, "us",
      fmt("kernel=tail;%d blocks x %d;lane 0 of each of %d warps: one atomic on one word;median of 9", blocks, threads,
          blocks * threads / 32));
}

template <int... OPS>
void run_ops(char* base, unsigned* sink, int sms) {
  (run_op<OPS>(base, sink, sms), ...);
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  char* base;
  unsigned* sink;
  CK(cudaMalloc(&base, size_t(128) << 20));
  CK(cudaMemset(base, 0, size_t(128) << 20));
  CK(cudaMalloc(&sink, 64));
  run_ops<kNone, kRedU32, kRedF32, kRedU64, kRedF64, kRedMin, kRedOr, kAtomU32, kAtomF32, kAtomF64, kCas, kExch>(base, sink,
                                                                                                      sms);
  return 0;
}
