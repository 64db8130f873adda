// farhit.cu: what an L2 hit costs when another SM brought the line in (issue 6: L2 partitions).
// One thread per SM (132 blocks, each SM's first block takes part). For each SM j in turn: SM 0
// chases a fresh 2 MB ring of 2048 random 128 B lines (ld.global.cg: from DRAM into L2), then SM j
// chases the same ring once. SM j's mean hop time is an L2 hit served where SM 0's read left the
// line: about the plain hit latency when j shares SM 0's L2 partition, more when the line has to
// come from the other partition. Also: SM 0's own second pass (a near hit) and a cold ring (DRAM).
// Rows: farhit_sm<j> cycles per hop; farhit summary: the two clusters' means and sizes (split at
// the widest gap of the sorted means).
// Leaves out: which GPC each SM is in (%smid only), hops by more than one SM at a time.
#include "common.cuh"

__device__ unsigned chase(const unsigned* ring, unsigned start, int hops, long long* cycles) {
  unsigned idx = start;
  long long t0 = clock64();
  for (int h = 0; h < hops; ++h) idx = __ldcg(ring + idx);
  long long t1 = clock64();
  *cycles = t1 - t0;
  return idx;
}

__device__ int vload(volatile int* p) { return *p; }

__global__ void farhit(const unsigned* buf, const unsigned* starts, int rings, int hops, int* owner, int* arrived,
                       volatile int* flag, long long* out, unsigned* sink) {
  if (threadIdx.x != 0) return;
  const int sm = int(smid());
  const bool mine = atomicCAS(owner + sm, 0, int(blockIdx.x) + 1) == 0;
  atomicAdd(arrived, 1);
  while (vload(arrived) < int(gridDim.x)) {}
  if (!mine) return;
  const size_t ring_words = size_t(2) << 20 >> 2;  // 2 MB per ring
  unsigned acc = 0;
  long long c = 0;
  for (int j = 0; j < rings && j < 132; ++j) {
    const unsigned* ring = buf + size_t(j) * ring_words;
    if (vload(owner + j) == 0) continue;  // no block on SM j
    if (sm == 0) {
      acc += chase(ring, starts[j], hops, &c);
      out[132 + j] = c;  // SM 0's cold pass (DRAM)
      __threadfence();
      atomicExch((int*)flag, 2 * j + 1);
    }
    if (sm == j) {
      while (vload((int*)flag) != 2 * j + 1) {}
      acc += chase(ring, starts[j], hops, &c);
      out[j] = c;
      __threadfence();
      atomicExch((int*)flag, 2 * j + 2);
    }
    if (sm == 0)
      while (vload((int*)flag) != 2 * j + 2) {}
  }
  sink[sm] = acc;
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount, rings = std::min(sms, 132), hops = 2048;
  const size_t ring_words = size_t(2) << 20 >> 2, lines = ring_words / 32;
  std::vector<unsigned> h(ring_words * rings, 0), starts(rings);
  unsigned long long s = 0x9e3779b97f4a7c15ull;
  for (int j = 0; j < rings; ++j) {
    std::vector<unsigned> perm(lines);
    for (size_t i = 0; i < lines; ++i) perm[i] = unsigned(i);
    for (size_t i = lines - 1; i > 0; --i) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      std::swap(perm[i], perm[s % (i + 1)]);
    }
    for (size_t i = 0; i < lines; ++i) h[j * ring_words + perm[i] * 32] = unsigned(perm[(i + 1) % lines] * 32);
    starts[j] = perm[0] * 32;
  }
  unsigned *buf, *dstarts, *sink;
  int *owner, *arrived, *flag;
  long long* out;
  CK(cudaMalloc(&buf, h.size() * 4));
  CK(cudaMemcpy(buf, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&dstarts, rings * 4));
  CK(cudaMemcpy(dstarts, starts.data(), rings * 4, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&owner, 256 * 4));
  CK(cudaMalloc(&arrived, 4));
  CK(cudaMalloc(&flag, 4));
  CK(cudaMalloc(&out, 264 * 8));
  CK(cudaMalloc(&sink, 256 * 4));
  // A large buffer read through L2 between the upload and the run, so no ring starts in L2.
  float* junk;
  CK(cudaMalloc(&junk, size_t(512) << 20));
  CK(cudaMemset(junk, 1, size_t(512) << 20));
  CK(cudaMemset(owner, 0, 256 * 4));
  CK(cudaMemset(arrived, 0, 4));
  CK(cudaMemset(flag, 0, 4));
  CK(cudaMemset(out, 0, 264 * 8));
  farhit<<<sms, 32>>>(buf, dstarts, rings, hops, owner, arrived, flag, out, sink);
  CK(cudaDeviceSynchronize());
  std::vector<long long> o(264);
  CK(cudaMemcpy(o.data(), out, 264 * 8, cudaMemcpyDeviceToHost));
  std::vector<double> lat;
  for (int j = 0; j < rings; ++j) {
    if (o[j] == 0) continue;
    double v = double(o[j]) / hops;
    lat.push_back(v);
    row(fmt("farhit_sm%d", j), "cycles_per_hop", v, "cycles",
        fmt("kernel=farhit;SM %d chases a 2 MB ring of 2048 lines that SM 0 read just before;ld.global.cg", j));
  }
  double cold = 0;
  int nc = 0;
  for (int j = 0; j < rings; ++j)
    if (o[132 + j]) cold += double(o[132 + j]) / hops, ++nc;
  row("farhit", "cold_cycles_per_hop", nc ? cold / nc : 0, "cycles", "kernel=farhit;SM 0's first pass over each ring (DRAM)");
  std::vector<double> v = lat;
  std::sort(v.begin(), v.end());
  size_t cut = 1;
  double gap = 0;
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] - v[i - 1] > gap) gap = v[i] - v[i - 1], cut = i;
  auto mean = [](const double* a, size_t n) { double t = 0; for (size_t i = 0; i < n; ++i) t += a[i]; return n ? t / n : 0; };
  row("farhit", "low_cluster_cycles", mean(v.data(), cut), "cycles", fmt("kernel=farhit;%zu SMs", cut));
  row("farhit", "high_cluster_cycles", mean(v.data() + cut, v.size() - cut), "cycles", fmt("kernel=farhit;%zu SMs", v.size() - cut));
  row("farhit", "low_cluster_sms", double(cut), "SMs", "kernel=farhit");
  row("farhit", "high_cluster_sms", double(v.size() - cut), "SMs", "kernel=farhit");
  return 0;
}
