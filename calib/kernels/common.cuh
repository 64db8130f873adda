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

// Times `launch()` with a pair of events per repetition; returns the median in ms. `prep()` runs
// (and is waited for) before each repetition, untimed: e.g. a read that leaves the L2 clean.
struct NoPrep {
  void operator()() const {}
};
template <class F, class P = NoPrep>
double time_ms(F launch, int reps, int warm = 2, std::vector<double>* all = nullptr, P prep = {}) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < warm; ++i) launch();
  CKL();
  CK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    prep();
    CK(cudaDeviceSynchronize());
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

// ---------------------------------------------------------------- per-warp records (extended set)

// One record per warp: its SM, hardware warp slot (%warpid), and clock64() at start and end.
struct WarpRec {
  long long t0, t1;
  unsigned sm, hwwarp;
};
__device__ __forceinline__ unsigned hw_warpid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void warp_record(WarpRec* rec, long long t0, long long t1) {
  if ((threadIdx.x & 31) == 0) {
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    rec[w] = WarpRec{t0, t1, smid(), hw_warpid()};
  }
}

// One record per warp with clock64() at N points of its work (warporder.cu, streamorder.cu): where it
// ran (SM, %warpid) and which warp of which block it is.
template <int N>
struct ClockRec {
  long long t[N];
  unsigned sm, hwwarp, block, warp;
};
template <int N>
__device__ __forceinline__ void clock_record(ClockRec<N>* rec, const long long* t) {
  if ((threadIdx.x & 31) != 0) return;
  ClockRec<N> r;
  for (int i = 0; i < N; ++i) r.t[i] = t[i];
  r.sm = smid();
  r.hwwarp = hw_warpid();
  r.block = blockIdx.x;
  r.warp = threadIdx.x >> 5;
  rec[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = r;
}
// The first t[0] of each SM's records (clock64 is per SM: times are compared within one SM).
template <int N>
std::map<unsigned, long long> first_start_by_sm(const std::vector<ClockRec<N>>& recs) {
  std::map<unsigned, long long> first;
  for (const auto& r : recs) {
    auto it = first.find(r.sm);
    if (it == first.end() || r.t[0] < it->second) first[r.sm] = r.t[0];
  }
  return first;
}

inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  double pos = q * (v.size() - 1);
  size_t i = size_t(pos);
  double f = pos - i;
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

// Distribution of per-warp durations (t1 - t0) and of end times relative to the first start on
// the same SM (clock64 is per SM): median, p10, p90, min, max.
struct WarpDist {
  double dur_med, dur_p10, dur_p90, dur_min, dur_max;
  double end_med, end_p10, end_p90, end_max;
};
inline WarpDist warp_dist(const std::vector<WarpRec>& recs) {
  std::map<unsigned, long long> first;
  for (auto& r : recs) {
    auto it = first.find(r.sm);
    if (it == first.end() || r.t0 < it->second) first[r.sm] = r.t0;
  }
  std::vector<double> dur, end;
  for (auto& r : recs) {
    dur.push_back(double(r.t1 - r.t0));
    end.push_back(double(r.t1 - first[r.sm]));
  }
  WarpDist d;
  d.dur_med = quantile(dur, 0.5); d.dur_p10 = quantile(dur, 0.1); d.dur_p90 = quantile(dur, 0.9);
  d.dur_min = quantile(dur, 0.0); d.dur_max = quantile(dur, 1.0);
  d.end_med = quantile(end, 0.5); d.end_p10 = quantile(end, 0.1); d.end_p90 = quantile(end, 0.9);
  d.end_max = quantile(end, 1.0);
  return d;
}
// Rows for a distribution: <prefix>_dur_med ... in cycles.
inline void warp_rows(const std::string& kernel, const std::string& prefix, const WarpDist& d, double per,
                      const std::string& notes) {
  row(kernel, prefix + "dur_med", d.dur_med / per, "cycles", notes);
  row(kernel, prefix + "dur_p10", d.dur_p10 / per, "cycles", notes);
  row(kernel, prefix + "dur_p90", d.dur_p90 / per, "cycles", notes);
  row(kernel, prefix + "dur_min", d.dur_min / per, "cycles", notes);
  row(kernel, prefix + "dur_max", d.dur_max / per, "cycles", notes);
  row(kernel, prefix + "end_med", d.end_med / per, "cycles", notes);
  row(kernel, prefix + "end_p90", d.end_p90 / per, "cycles", notes);
  row(kernel, prefix + "end_max", d.end_max / per, "cycles", notes);
}
// A comma-separated list of positive counts in environment variable `name` ("16,32,64"), up to the
// first that is not one; none when unset.
inline std::vector<int> env_counts(const char* name) {
  std::vector<int> out;
  const char* s = getenv(name);
  for (const char* c = s ? s : ""; *c; c += *c == ',') {
    const int k = int(strtol(c, const_cast<char**>(&c), 10));
    if (k <= 0) break;
    out.push_back(k);
  }
  return out;
}
// CALIB_NCU=1: every kernel launched once (no warm-up, one repetition), for Nsight Compute.
inline bool ncu_mode() { return getenv("CALIB_NCU") != nullptr; }
inline int reps_or_1(int reps) { return ncu_mode() ? 1 : reps; }
inline int warm_or_0(int warm) { return ncu_mode() ? 0 : warm; }
