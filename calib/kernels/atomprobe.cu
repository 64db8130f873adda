// atomprobe.cu: one atomic pattern per run, so Nsight Compute profiles exactly one kernel (issue 6,
// "atomics spread over many lines": the model reaches the atomic units' full rate where the H200
// reaches 55-65 % of it). The kernels are atomgrid.cu's atom_pattern and contention.cu's
// atom_global, with the same launch shapes:
//   atomprobe [ncu] grid SENDERS HOT LPR WORDS OP K
//     SENDERS sm1 | sm16 | all (1, 16 or 2 x SMs blocks of 1024), HOT a line count or `spread`
//     (1 Mi lines), LPR lines per request, WORDS distinct | same | random, OP red | atom
//   atomprobe [ncu] global MODE OP K      MODE same | warp | line | spread (1056 x 256 threads)
// Without `ncu` it warms up once and prints CSV rows (median of 5 launches, rates at 1.98 GHz);
// with `ncu` it launches once and prints nothing but errors.
// Leaves out: fp32 / CAS atomics, shared memory (contention.cu has those).
#include "common.cuh"

#include <cstring>

#include "atom_pattern.cuh"

// contention.cu's kernel. mode: 0 same, 1 warp (one word per warp), 2 line, 3 spread (a word per thread).
__global__ void atom_global(unsigned* ctr, int K, int mode, int use_red) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = tid >> 5;
  unsigned idx = mode == 0 ? 0 : mode == 1 ? w * 32 : mode == 2 ? lane : tid;
  unsigned* a = ctr + idx;
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    if (use_red) asm volatile("red.global.add.u32 [%0], %1;" ::"l"(a), "r"(lane + 1) : "memory");
    else asm volatile("{ .reg .u32 t; atom.global.add.u32 t, [%0], %1; }" ::"l"(a), "r"(lane + 1) : "memory");
  }
}

namespace {

int index_of(const char* s, std::initializer_list<const char*> names) {
  int i = 0;
  for (const char* n : names) {
    if (!strcmp(s, n)) return i;
    ++i;
  }
  fprintf(stderr, "atomprobe: unknown value '%s'\n", s);
  exit(1);
}

struct Case {
  std::string name;
  int blocks = 0, threads = 0, K = 0, lpr = 1, words = 0, mode = 0, red = 1;
  unsigned hot = 1;
  bool grid = true;
  double atomics() const { return double(blocks) * threads * K; }
};

Case parse(int argc, char** argv, int sms) {
  const int n = argc;
  Case c;
  if (n == 8 && !strcmp(argv[1], "grid")) {
    const int s = index_of(argv[2], {"sm1", "sm16", "all"});
    c.blocks = s == 0 ? 1 : s == 1 ? 16 : 2 * sms;
    c.threads = 1024;
    c.hot = !strcmp(argv[3], "spread") ? 1u << 20 : unsigned(atoi(argv[3]));
    c.lpr = atoi(argv[4]);
    c.words = index_of(argv[5], {"distinct", "same", "random"});
    c.red = index_of(argv[6], {"atom", "red"});
    c.K = atoi(argv[7]);
    c.name = fmt("atomprobe_%s_%s_%s_lpr%d_%s", argv[6], argv[2], argv[3], c.lpr, argv[5]);
  } else if (n == 5 && !strcmp(argv[1], "global")) {
    c.grid = false;
    c.mode = index_of(argv[2], {"same", "warp", "line", "spread"});
    c.red = index_of(argv[3], {"atom", "red"});
    c.K = atoi(argv[4]);
    c.blocks = 8 * sms;
    c.threads = 256;
    c.name = fmt("atomprobe_%s_%s", argv[3], argv[2]);
  } else {
    fprintf(stderr, "usage: atomprobe [ncu] grid SENDERS HOT LPR WORDS OP K | atomprobe [ncu] global MODE OP K\n");
    exit(1);
  }
  if (c.hot == 0 || c.lpr < 1 || c.lpr > 32 || c.K < 1 || unsigned(c.lpr) > c.hot) {
    fprintf(stderr, "atomprobe: bad HOT / LPR / K\n");
    exit(1);
  }
  return c;
}

void launch(const Case& c, unsigned* base) {
  if (c.grid) atom_pattern<<<c.blocks, c.threads>>>(base, c.K, c.lpr, c.words, c.hot, c.red);
  else atom_global<<<c.blocks, c.threads>>>(base, c.K, c.mode, c.red);
}

}  // namespace

int main(int argc, char** argv) {
  const bool ncu = argc > 1 && !strcmp(argv[1], "ncu");
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const Case c = parse(argc - ncu, argv + ncu, p.multiProcessorCount);
  const size_t bytes = size_t(1u << 20) * 128;  // atomgrid's 128 MB of lines (covers atom_global too)
  unsigned* base;
  CK(cudaMalloc(&base, bytes));
  CK(cudaMemset(base, 0, bytes));
  CK(cudaDeviceSynchronize());
  if (ncu) {
    launch(c, base);
    CKL();
    CK(cudaDeviceSynchronize());
    return 0;
  }
  const double ms = time_ms([&] { launch(c, base); }, 5, 1);
  const double cycles = ms * 1e-3 * 1.98e9;
  const std::string n = fmt("%d blocks x %d;K=%d;lpr %d;hot %u;median of 5", c.blocks, c.threads, c.K, c.lpr, c.hot);
  row(c.name, "ms", ms, "ms", n);
  row(c.name, "atomics_per_clk", c.atomics() / cycles, "1/clk", n);
  return 0;
}
