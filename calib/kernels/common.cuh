// common.cuh: shared helpers for the simt-sim calibration kernels (CSV rows, CUDA error checks,
// event timing with medians, per-SM aggregation of clock64() records, SASS-friendly repeat macros).
// Leaves out: anything device specific; every program reads the device it runs on.
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#define CK(call)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "CUDA error '%s' at %s:%d in %s\n", cudaGetErrorString(e_), __FILE__,       \
              __LINE__, #call);                                                                    \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)
#define CKL() CK(cudaGetLastError())

// Textual repetition: the repeated asm goes into one asm volatile statement, so the order is fixed.
#define REP2(x) x x
#define REP4(x) REP2(x) REP2(x)
#define REP8(x) REP4(x) REP4(x)
#define REP16(x) REP8(x) REP8(x)
#define REP32(x) REP16(x) REP16(x)
#define REP64(x) REP32(x) REP32(x)

inline std::string fmt(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

// One CSV row: kernel,parameter,value,unit,notes (notes must not hold commas).
inline void row(const std::string& kernel, const std::string& param, double value,
                const std::string& unit, const std::string& notes = "") {
  std::string n = notes;
  std::replace(n.begin(), n.end(), ',', ';');
  printf("%s,%s,%.4f,%s,%s\n", kernel.c_str(), param.c_str(), value, unit.c_str(), n.c_str());
  fflush(stdout);
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Times `launch()` with a pair of events per repetition; returns the median in ms.
template <class F>
double time_ms(F launch, int reps, int warm = 2, std::vector<double>* all = nullptr) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < warm; ++i) launch();
  CKL();
  CK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CKL();
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  if (all) *all = t;
  return median(t);
}

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

// One record per block: the SM it ran on and its first/last clock64() (read by thread 0 after a
// barrier, so they bracket the whole block's work).
struct BlockRec {
  long long t0, t1;
  unsigned sm, pad;
};

// Per-SM rate: for each SM, (sum of the work of its blocks) / (last t1 - first t0). clock64() is
// per SM, so only records of one SM are compared. Only SMs that ran exactly `want_blocks` blocks
// count (others were under- or over-loaded by the block distributor).
struct SmRate {
  double median_rate = 0, min_rate = 0, max_rate = 0, median_span = 0;
  int sms_used = 0;
};
inline SmRate per_sm_rate(const std::vector<BlockRec>& recs, double work_per_block, int want_blocks) {
  std::map<unsigned, std::vector<const BlockRec*>> by;
  for (auto& r : recs) by[r.sm].push_back(&r);
  std::vector<double> rates, spans;
  for (auto& kv : by) {
    if ((int)kv.second.size() != want_blocks) continue;
    long long lo = kv.second[0]->t0, hi = kv.second[0]->t1;
    for (auto* r : kv.second) {
      lo = std::min(lo, r->t0);
      hi = std::max(hi, r->t1);
    }
    spans.push_back(double(hi - lo));
    rates.push_back(work_per_block * want_blocks / double(hi - lo));
  }
  SmRate s;
  s.sms_used = (int)rates.size();
  if (!rates.empty()) {
    s.median_rate = median(rates);
    s.min_rate = *std::min_element(rates.begin(), rates.end());
    s.max_rate = *std::max_element(rates.begin(), rates.end());
    s.median_span = median(spans);
  }
  return s;
}

inline cudaDeviceProp props() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  return p;
}

// Deterministic xorshift64* generator for host-side layouts.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed ? seed : 0x9E3779B97F4A7C15ull) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
};
