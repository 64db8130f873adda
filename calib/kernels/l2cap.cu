// l2cap.cu: the L2 capacity a whole-GPU access pattern sees (issue 6, gap "local memory": the
// H200 misses L2 on most sectors of a 69 MB local-memory footprint that a 50 MB L2 should mostly
// hold). Every SM (8 blocks x 256 threads each) reads a buffer of F MB again and again, after one
// untimed pass that leaves it in L2 as far as it fits:
//  - stream: coalesced 16 B per lane (__ldcg, grid stride over the buffer);
//  - random: 4 B per lane at a hashed 32 B sector of the buffer (32 sectors per instruction,
//    4 independent loads in flight per thread): the shape of scattered reads shared by all SMs;
//  - private: the same, but SM s reads only part s of 132: every sector is read by one SM (spilled
//    locals); the two differ if an L2 partition keeps copies of what its SMs read.
// Rows per F: bytes_per_clk (GPU, 1.98 GHz) for stream, sectors_per_clk for random, and ms.
// The capacity shows where the rate falls from the L2's to DRAM's. `l2cap MODE MB` runs one
// point once (for ncu's lts__t_sector_hit_rate).
// Leaves out: writes (dirty lines), the L2 persisting carve-out (not set: 0).
#include "common.cuh"

__device__ __forceinline__ unsigned mix(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

__global__ void stream_read(const float4* __restrict__ buf, size_t n4, int passes, float* out) {
  float s = 0.f;
  size_t G = size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += G) {
      float4 v = __ldcg(buf + i);
      s += v.x + v.y + v.z + v.w;
    }
  if (s == 1234.5f) out[0] = s;
}

// private: SM s reads only the s-th of `parts` equal parts of the buffer (each sector read by one
// SM), else every sector is read by threads on any SM.
__global__ void random_read(const float* __restrict__ buf, unsigned sectors, int per_thread, unsigned salt, int priv,
                            unsigned parts, float* out) {
  float s = 0.f;
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned span = priv ? sectors / parts : sectors, first = priv ? (smid() % parts) * span : 0;
#pragma unroll 1
  for (int k = 0; k < per_thread; k += 4) {
    unsigned h = mix(tid * 4u + unsigned(k) * 0x9e3779b9u + salt);
    float a = __ldcg(buf + size_t(first + h % span) * 8);
    float b = __ldcg(buf + size_t(first + mix(h + 1) % span) * 8);
    float c = __ldcg(buf + size_t(first + mix(h + 2) % span) * 8);
    float d = __ldcg(buf + size_t(first + mix(h + 3) % span) * 8);
    s += a + b + c + d;
  }
  if (s == 1234.5f) out[0] = s;
}

struct Point {
  double ms, rate;
};

static Point run_stream(const float* buf, size_t bytes, int blocks, float* out, int reps) {
  size_t n4 = bytes / 16;
  stream_read<<<blocks, 256>>>(reinterpret_cast<const float4*>(buf), n4, 1, out);  // leaves it in L2
  int passes = int(std::max<size_t>(2, (size_t(512) << 20) / bytes));
  double ms = time_ms([&] { stream_read<<<blocks, 256>>>(reinterpret_cast<const float4*>(buf), n4, passes, out); }, reps, 1);
  return {ms / passes, double(bytes) * passes / (ms * 1e-3 * 1.98e9)};
}

static Point run_random(const float* buf, size_t bytes, int blocks, float* out, int reps, int priv = 0) {
  unsigned sectors = unsigned(bytes / 32), parts = unsigned(blocks / 8);
  const int per_thread = 64;
  random_read<<<blocks, 256>>>(buf, sectors, per_thread, 7u, priv, parts, out);  // warm: the same addresses
  double ms = time_ms([&] { random_read<<<blocks, 256>>>(buf, sectors, per_thread, 7u, priv, parts, out); }, reps, 1);
  return {ms, double(blocks) * 256.0 * per_thread / (ms * 1e-3 * 1.98e9)};
}

int main(int argc, char** argv) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int blocks = p.multiProcessorCount * 8;
  const size_t max_bytes = size_t(512) << 20;
  float *buf, *out;
  CK(cudaMalloc(&buf, max_bytes));
  CK(cudaMemset(buf, 0, max_bytes));
  CK(cudaMalloc(&out, 4));
  if (argc == 3) {  // one point, for ncu
    size_t bytes = size_t(atoi(argv[2])) << 20;
    std::string m = argv[1];
    Point r = m == "stream" ? run_stream(buf, bytes, blocks, out, 1) : run_random(buf, bytes, blocks, out, 1, m == "private");
    printf("%s %s MB: %.4f ms rate %.3f\n", argv[1], argv[2], r.ms, r.rate);
    return 0;
  }
  const int mbs[] = {4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 56, 64, 80, 96, 128, 256, 512};
  for (int mb : mbs) {
    size_t bytes = size_t(mb) << 20;
    Point s = run_stream(buf, bytes, blocks, out, 5);
    std::string n = fmt("kernel=stream_read;%d MB;%d x 256 threads;ld.global.cg.v4.f32 grid stride;per pass after a warm pass;median of 5", mb, blocks);
    row(fmt("l2cap_stream_%dMB", mb), "ms_per_pass", s.ms, "ms", n);
    row(fmt("l2cap_stream_%dMB", mb), "bytes_per_clk", s.rate, "B/clk", n);
    Point r = run_random(buf, bytes, blocks, out, 5);
    n = fmt("kernel=random_read;%d MB;%d x 256 threads;64 ld.global.cg.f32 per thread at hashed 32 B sectors;after a warm launch;median of 5", mb, blocks);
    row(fmt("l2cap_random_%dMB", mb), "ms", r.ms, "ms", n);
    row(fmt("l2cap_random_%dMB", mb), "sectors_per_clk", r.rate, "1/clk", n);
    Point q = run_random(buf, bytes, blocks, out, 5, 1);
    n = fmt("kernel=random_read private;%d MB in %d parts, SM s reads part s mod parts;%d x 256 threads;64 ld.global.cg.f32 per thread;median of 5",
            mb, blocks / 8, blocks);
    row(fmt("l2cap_private_%dMB", mb), "ms", q.ms, "ms", n);
    row(fmt("l2cap_private_%dMB", mb), "sectors_per_clk", q.rate, "1/clk", n);
  }
  return 0;
}
