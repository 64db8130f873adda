// divergence.cu: branch-divergence and varying-trip-count validation targets.
// Part 4: N threads each run an if/else whose two paths are the same chain of L sine ops; the
//   condition is (threadIdx.x >> s) & 1: uniform (s = 31), checkerboard of lane parity (s = 0)
//   and stripes of 2/4/8/16/32 threads (s = 1..5). Bodies: sin.approx (__sinf: FMUL.RZ + MUFU.SIN;
//   the else path uses cos.approx, FMUL.RZ + MUFU.COS), precise sinf() (libdevice, FMA-pipe heavy;
//   x = sinf(x)*a+b vs sinf(x)*b+a) and a dependent FFMA chain (operands swapped on the else path).
//   shift 31 = uniform else path (uniformB), shift 63 = uniform then path (uniformA); ratios are
//   to the mean of the two uniform times.
// Part 5: a loop whose trip count varies per lane (lane i does i+1 iterations) against all
//   lanes doing 32 (and 16, reversed, one long lane, random 1..32).
// Kernel time: cudaEvent, median of REPS launches. Per-warp cycles: clock64() around the branch,
//   averaged over all warps.
// Leaves out: nested divergence, divergence inside loops with break, independent thread scheduling
//   effects (__syncwarp).
#include "common.cuh"

// Path B differs from path A at the SASS level too (cos for sin, swapped FFMA operands), at equal cost,
// so that no compiler stage can merge the two loops.
#define SIN16(tag) asm volatile(REP16("sin.approx.ftz.f32 %0, %0;\n\t") "// " tag : "+f"(x))
#define COS16(tag) asm volatile(REP16("cos.approx.ftz.f32 %0, %0;\n\t") "// " tag : "+f"(x))
#define FMA16(tag) asm volatile(REP16("fma.rn.f32 %0, %0, %1, %2;\n\t") "// " tag : "+f"(x) : "f"(a), "f"(b))
#define FMA16B(tag) asm volatile(REP16("fma.rn.f32 %0, %0, %2, %1;\n\t") "// " tag : "+f"(x) : "f"(a), "f"(b))

#define DIV_PROLOGUE                                                                               \
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                                            \
  float x = 0.25f + (tid & 1023) * 1e-4f;                                                          \
  bool c = (((threadIdx.x >> (shift & 31)) & 1) ^ (shift >> 5)) & 1;                                                             \
  long long t0 = clock64();
#define DIV_EPILOGUE                                                                               \
  long long t1 = clock64();                                                                        \
  if ((threadIdx.x & 31) == 0) wcyc[tid >> 5] = t1 - t0;                                          \
  if (x == 1234.5f) out[tid] = x;

extern "C" __global__ void div_sin(int shift, int L, float a, float b, long long* wcyc, float* out) {
  DIV_PROLOGUE
  if (c) {
#pragma unroll 1
    for (int i = 0; i < L; i += 16) SIN16("pathA");
  } else {
#pragma unroll 1
    for (int i = 0; i < L; i += 16) COS16("pathB");
  }
  DIV_EPILOGUE
}
extern "C" __global__ void div_ffma(int shift, int L, float a, float b, long long* wcyc, float* out) {
  DIV_PROLOGUE
  if (c) {
#pragma unroll 1
    for (int i = 0; i < L; i += 16) FMA16("pathA");
  } else {
#pragma unroll 1
    for (int i = 0; i < L; i += 16) FMA16B("pathB");
  }
  DIV_EPILOGUE
}
extern "C" __global__ void div_sinf(int shift, int L, float a, float b, long long* wcyc, float* out) {
  DIV_PROLOGUE
  if (c) {
#pragma unroll 1
    for (int i = 0; i < L; ++i) {
      x = sinf(x) * a + b;
      asm volatile("// pathA" : "+f"(x));
    }
  } else {
#pragma unroll 1
    for (int i = 0; i < L; ++i) {
      x = sinf(x) * b + a;
      asm volatile("// pathB" : "+f"(x));
    }
  }
  DIV_EPILOGUE
}

// Part 5: trip count per lane by mode: 0 all 32; 1 lane+1; 2 all 16; 3 32-lane; 4 lane 0 does 32,
// others 1; 5 pseudo-random 1..32. Body: 4 dependent ops.
__device__ __forceinline__ int trips_for(int mode, unsigned lane, unsigned tid) {
  switch (mode) {
    case 0: return 32;
    case 1: return lane + 1;
    case 2: return 16;
    case 3: return 32 - lane;
    case 4: return lane == 0 ? 32 : 1;
    default: return 1 + ((tid * 2654435761u) >> 27);
  }
}
extern "C" __global__ void trip_sin(int mode, int unused, float a, float b, long long* wcyc, float* out) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.25f + (tid & 1023) * 1e-4f;
  int n = trips_for(mode, threadIdx.x & 31, tid);
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < n; ++i) asm volatile(REP4("sin.approx.ftz.f32 %0, %0;\n\t") : "+f"(x));
  long long t1 = clock64();
  if ((threadIdx.x & 31) == 0) wcyc[tid >> 5] = t1 - t0;
  if (x == 1234.5f) out[tid] = x + a + b;
}
extern "C" __global__ void trip_ffma(int mode, int unused, float a, float b, long long* wcyc, float* out) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.25f + (tid & 1023) * 1e-4f;
  int n = trips_for(mode, threadIdx.x & 31, tid);
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < n; ++i) asm volatile(REP4("fma.rn.f32 %0, %0, %1, %2;\n\t") : "+f"(x) : "f"(a), "f"(b));
  long long t1 = clock64();
  if ((threadIdx.x & 31) == 0) wcyc[tid >> 5] = t1 - t0;
  if (x == 1234.5f) out[tid] = x;
}

typedef void (*DK)(int, int, float, float, long long*, float*);

int main() {
  cudaDeviceProp p = props();
  fprintf(stderr, "divergence: %s, %d SMs\n", p.name, p.multiProcessorCount);
  const unsigned N = 1u << 24, TPB = 256, BLOCKS = N / TPB, WARPS = N / 32;
  const int REPS = 15;
  long long* wcyc;
  float* out;
  CK(cudaMalloc(&wcyc, WARPS * sizeof(long long)));
  CK(cudaMalloc(&out, N * sizeof(float)));
  std::vector<long long> h(WARPS);
  auto mean_wcyc = [&]() {
    CK(cudaMemcpy(h.data(), wcyc, WARPS * sizeof(long long), cudaMemcpyDeviceToHost));
    double s = 0;
    for (long long v : h) s += double(v);
    return s / WARPS;
  };

  struct B {
    const char* name;
    DK k;
    const char* what;
    float a, b;
    std::vector<int> Ls;
  };
  // The FFMA body is short per warp, so it also runs at L=2048 where block turnover matters less.
  B bodies[] = {{"div_sin", div_sin, "sin.approx.ftz (__sinf) chain / cos.approx on the else path", 0.f, 0.f, {64, 256}},
                {"div_sinf", div_sinf, "precise sinf() chain x=sinf(x)*a+b / sinf(x)*b+a", 0.999f, 0.01f, {64, 256}},
                {"div_ffma", div_ffma, "dependent FFMA chain", 1.0000001f, 1e-7f, {64, 256, 2048}}};
  const int shifts[] = {63, 31, 0, 1, 2, 3, 4, 5};
  for (auto& bd : bodies) {
    for (int L : bd.Ls) {
      std::vector<double> mss;
      std::vector<std::string> names, notes;
      for (int s : shifts) {
        double ms = time_ms([&] { bd.k<<<BLOCKS, TPB>>>(s, L, bd.a, bd.b, wcyc, out); }, REPS, 2);
        double wc = mean_wcyc();
        std::string variant = s == 63   ? std::string("uniformA")
                              : s == 31 ? std::string("uniformB")
                              : s == 0  ? std::string("checker")
                                        : fmt("stripe%d", 1 << s);
        std::string n = fmt("kernel=%s;%s; L=%d; N=%u threads x %u/block; cond=shift %d; median of %d; mean warp "
                            "cycles %.0f",
                            bd.name, bd.what, L, N, TPB, s, REPS, wc);
        row(bd.name, fmt("L%d_%s_ms", L, variant.c_str()), ms, "ms", n);
        row(bd.name, fmt("L%d_%s_warp_cycles", L, variant.c_str()), wc, "cycles", n);
        mss.push_back(ms);
        names.push_back(variant);
        notes.push_back(n);
      }
      double base = 0.5 * (mss[0] + mss[1]);  // mean of uniformA and uniformB
      for (size_t i = 0; i < mss.size(); ++i)
        row(bd.name, fmt("L%d_%s_ratio", L, names[i].c_str()), mss[i] / base, "x mean uniform", notes[i]);
    }
  }

  const char* modes[] = {"all32", "lane_plus_1", "all16", "32_minus_lane", "lane0_32_others_1", "random_1_32"};
  B tb[] = {{"trip_sin", trip_sin, "4 sin.approx per iteration", 0.f, 0.f, {}},
            {"trip_ffma", trip_ffma, "4 dependent FFMA per iteration", 1.0000001f, 1e-7f, {}}};
  for (auto& bd : tb) {
    double base = 0;
    for (int m = 0; m < 6; ++m) {
      double ms = time_ms([&] { bd.k<<<BLOCKS, TPB>>>(m, 0, bd.a, bd.b, wcyc, out); }, REPS, 2);
      double wc = mean_wcyc();
      if (m == 0) base = ms;
      std::string n = fmt("kernel=%s;%s; N=%u threads; trips=%s; median of %d; mean warp cycles %.0f", bd.name,
                          bd.what, N, modes[m], REPS, wc);
      row(bd.name, fmt("%s_ms", modes[m]), ms, "ms", n);
      row(bd.name, fmt("%s_ratio", modes[m]), ms / base, "x all32", n);
      row(bd.name, fmt("%s_warp_cycles", modes[m]), wc, "cycles", n);
    }
  }
  fprintf(stderr, "divergence: done\n");
  return 0;
}
