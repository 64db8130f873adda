// latdist.cu: the distribution of single load latencies, and what a warp waiting for 32 lines pays.
// One warp on one SM chases a random ring (buf[i] = next index, a random permutation of lines):
//  - single: lane 0 loads one line per hop; clock64() around each hop (load + first use) gives the
//    latency of every access: percentiles, mean.
//  - gatherN (N = 2 .. 32): lanes 0..N-1 chase their own ring positions (N distinct random lines per
//    hop); each hop waits for the slowest lane: against single's mean, the cost of N lines.
// Spans: 16 MB warmed in L2 (ld.cg), 1 GB cold lines (each line visited once: DRAM).
// Leaves out: load from other SMs (an idle GPU: this is the unloaded spread).
// `latdist loaded`: W = 1 .. 32 warps on one SM chase at once (each from its own ring position,
// 1 or 32 lanes per hop, 256 hops), cold lines (DRAM, after a 256 MB flush) then the same hops warm
// (L2): the mean cycles per hop against W tells whether one warp's 32-line request pays its second
// miss pass (latdist's +130 cycles) when other warps' requests share the SM's miss path
// (calib/README.md, twenty-seventh pass; calib/kernels/probe_latload.sh runs it).
#include "common.cuh"

#include <cstring>

__global__ void chase_dist(const unsigned* __restrict__ buf, unsigned start, int hops, int lanes, long long* out) {
  volatile __shared__ unsigned sink[32];
  unsigned lane = threadIdx.x;
  unsigned idx = start + lane * 7919u * 32u;
  idx = buf[(size_t)(idx % (1u << 30) / 4) & ~31u] & ~31u;  // a first step to spread the lanes
  for (int h = 0; h < hops; ++h) {
    long long t0 = clock64();
    unsigned v = idx;
    if (lane < (unsigned)lanes) v = __ldcg(buf + idx);
    sink[lane] = v;  // a store of the loaded value: the warp waits for every lane's load
    long long t1 = clock64();
    if (lane == 0) out[h] = t1 - t0;
    idx = v & ~31u;
  }
}

// Every warp of the block chases its own ring positions; out[warp * hops + h] = cycles of hop h.
__global__ void chase_loaded(const unsigned* __restrict__ buf, unsigned start, int hops, int lanes, long long* out) {
  volatile __shared__ unsigned sink[1024];
  unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  unsigned idx = start + (warp * 32u + lane) * 7919u * 32u;
  idx = buf[(size_t)(idx % (1u << 30) / 4) & ~31u] & ~31u;
  for (int h = 0; h < hops; ++h) {
    long long t0 = clock64();
    unsigned v = idx;
    if (lane < (unsigned)lanes) v = __ldcg(buf + idx);
    sink[threadIdx.x] = v;
    long long t1 = clock64();
    if (lane == 0) out[(size_t)warp * hops + h] = t1 - t0;
    idx = v & ~31u;
  }
}

static void stats(const char* name, const char* span, std::vector<long long> v, int lanes) {
  std::sort(v.begin(), v.end());
  double mean = 0;
  for (auto x : v) mean += double(x);
  mean /= double(v.size());
  auto q = [&](double p) { return double(v[std::min(v.size() - 1, size_t(p * (v.size() - 1)))]); };
  const char* ps[] = {"p10", "p25", "p50", "p75", "p90", "p99"};
  const double qs[] = {0.10, 0.25, 0.50, 0.75, 0.90, 0.99};
  for (int i = 0; i < 6; ++i)
    row(name, fmt("%s_%s", span, ps[i]), q(qs[i]), "cycles",
        fmt("kernel=chase_dist;%d lane(s) per hop;%zu hops;clock64 around load + use", lanes, v.size()));
  row(name, fmt("%s_mean", span), mean, "cycles", fmt("kernel=chase_dist;%d lane(s) per hop", lanes));
}

static void loaded(const unsigned* buf, const std::vector<unsigned>& perm) {
  const int hops = 256;
  long long* out;
  unsigned char* flush;
  const size_t flush_bytes = size_t(256) << 20;
  CK(cudaMalloc(&out, 32 * hops * sizeof(long long)));
  CK(cudaMalloc(&flush, flush_bytes));
  std::vector<long long> r(32 * hops);
  int config = 0;
  for (int lanes : {1, 32}) {
    for (int w : {1, 2, 4, 8, 16, 32}) {
      const unsigned start = unsigned(perm[(size_t(++config) * 1000003u) % perm.size()] * 32);
      for (int warm = 0; warm < 2; ++warm) {
        if (!warm) CK(cudaMemset(flush, config, flush_bytes));  // the L2 holds the flush, not earlier hops
        chase_loaded<<<1, 32 * w>>>(buf, start, hops, lanes, out);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(r.data(), out, size_t(w) * hops * sizeof(long long), cudaMemcpyDeviceToHost));
        double mean = 0;
        for (int i = 0; i < w * hops; ++i) mean += double(r[i]);
        mean /= double(w * hops);
        std::vector<long long> v(r.begin(), r.begin() + w * hops);
        std::sort(v.begin(), v.end());
        row("lat_loaded", fmt("%s_l%d_w%d_mean", warm ? "l2warm" : "dram1GB", lanes, w), mean, "cycles",
            fmt("kernel=chase_loaded;%d warps on one SM;%d lane(s) per hop;%d hops each", w, lanes, hops));
        row("lat_loaded", fmt("%s_l%d_w%d_p90", warm ? "l2warm" : "dram1GB", lanes, w), double(v[v.size() * 9 / 10]),
            "cycles", fmt("kernel=chase_loaded;%d warps on one SM;%d lane(s) per hop", w, lanes));
      }
    }
  }
  CK(cudaFree(out));
  CK(cudaFree(flush));
}

int main(int argc, char** argv) {
  const size_t bytes = size_t(1) << 30;
  const size_t n = bytes / 4;
  std::vector<unsigned> h(n);
  // A random permutation of the 2^23 lines of 1 GB; buf[line*32 + k] = next line * 32 (any k).
  const size_t lines = n / 32;
  std::vector<unsigned> perm(lines);
  for (size_t i = 0; i < lines; ++i) perm[i] = unsigned(i);
  unsigned long long s = 88172645463325252ull;
  for (size_t i = lines - 1; i > 0; --i) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    std::swap(perm[i], perm[s % (i + 1)]);
  }
  for (size_t i = 0; i < lines; ++i) {
    unsigned nxt = perm[(i + 1) % lines];
    for (int k = 0; k < 32; ++k) h[perm[i] * 32 + k] = nxt * 32;
  }
  unsigned* buf;
  long long* out;
  const int hops = 4096;
  CK(cudaMalloc(&buf, bytes));
  CK(cudaMalloc(&out, hops * sizeof(long long)));
  CK(cudaMemcpy(buf, h.data(), bytes, cudaMemcpyHostToDevice));
  if (argc > 1 && !std::strcmp(argv[1], "loaded")) {
    loaded(buf, perm);
    return 0;
  }
  std::vector<long long> r(hops);
  for (int lanes : {1, 2, 4, 8, 16, 32}) {
    std::string nm = lanes == 1 ? std::string("lat_single") : fmt("lat_gather%d", lanes);
    const char* name = nm.c_str();
    // DRAM: a fresh part of the ring each time (cold lines).
    chase_dist<<<1, 32>>>(buf, unsigned(perm[12345] * 32), hops, lanes, out);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(r.data(), out, hops * sizeof(long long), cudaMemcpyDeviceToHost));
    stats(name, "dram1GB", r, lanes);
    // L2: the same hops again (those lines are now in L2).
    chase_dist<<<1, 32>>>(buf, unsigned(perm[12345] * 32), hops, lanes, out);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(r.data(), out, hops * sizeof(long long), cudaMemcpyDeviceToHost));
    stats(name, "l2warm", r, lanes);
  }
  return 0;
}
