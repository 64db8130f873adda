// memory.cu: DRAM bandwidth under coalesced and strided float loads, plus peak copy/read bandwidth.
// Strided: a 2 GiB float buffer (34x the 60 MiB L2); thread t of a grid-stride loop reads
// a[t*stride] for every index < 2 GiB/4/stride, 8 loads in flight per thread. Reported: kernel time,
// useful GB/s (4 B per load) and the 32 B-sector traffic that the coalescing rules imply
// (whole buffer when 4*stride <= 32, else one sector per load). If DRAM moves more than a sector
// per access, stride 16 (64 B) costs as much as stride 8: compare the times, not only the GB/s.
// Peak: float4 copy 1 GiB -> 1 GiB (bytes read + written), float4 read-only sum over 2 GiB, and
// cudaMemcpy device-to-device.
// Leaves out: writes with strides, L2-resident bandwidth, TMA/bulk copies.
#include "common.cuh"

extern "C" __global__ void strided_read(const float* __restrict__ a, long long n_loads, int stride, float* out) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long G = (long long)gridDim.x * blockDim.x;
  float s = 0.f;
  long long i = t;
  for (; i + 7 * G < n_loads; i += 8 * G) {
    float v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = a[(i + k * G) * stride];
#pragma unroll
    for (int k = 0; k < 8; ++k) s += v[k];
  }
  for (; i < n_loads; i += G) s += a[i * stride];
  if (s == 1234.5f) out[t] = s;
}
extern "C" __global__ void copy4(const float4* __restrict__ src, float4* __restrict__ dst, long long n4) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long G = (long long)gridDim.x * blockDim.x;
  long long i = t;
  for (; i + 3 * G < n4; i += 4 * G) {
    float4 v0 = src[i], v1 = src[i + G], v2 = src[i + 2 * G], v3 = src[i + 3 * G];
    dst[i] = v0;
    dst[i + G] = v1;
    dst[i + 2 * G] = v2;
    dst[i + 3 * G] = v3;
  }
  for (; i < n4; i += G) dst[i] = src[i];
}
extern "C" __global__ void read4(const float4* __restrict__ src, long long n4, float* out) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long G = (long long)gridDim.x * blockDim.x;
  float s = 0.f;
  long long i = t;
  for (; i + 3 * G < n4; i += 4 * G) {
    float4 v0 = src[i], v1 = src[i + G], v2 = src[i + 2 * G], v3 = src[i + 3 * G];
    s += v0.x + v0.y + v0.z + v0.w + v1.x + v1.y + v1.z + v1.w + v2.x + v2.y + v2.z + v2.w + v3.x + v3.y + v3.z +
         v3.w;
  }
  for (; i < n4; i += G) s += src[i].x + src[i].y + src[i].z + src[i].w;
  if (s == 1234.5f) out[t] = s;
}
__global__ void fill(float* a, long long n) {
  long long G = (long long)gridDim.x * blockDim.x;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += G) a[i] = float(i & 1023) * 1e-3f;
}

int main() {
  cudaDeviceProp p = props();
  int sms = p.multiProcessorCount;
  fprintf(stderr, "memory: %s, %d SMs, L2 %d B\n", p.name, sms, p.l2CacheSize);
  const size_t bytes = size_t(2) << 30;
  const long long nf = bytes / 4;
  float *a, *b, *out;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes / 2));
  CK(cudaMalloc(&out, size_t(sms) * 2048 * 4 * 4));
  fill<<<sms * 8, 256>>>(a, nf);
  fill<<<sms * 8, 256>>>(b, nf / 2);
  CKL();
  CK(cudaDeviceSynchronize());
  const int REPS = 10;
  const int blocks = sms * 8, tpb = 256;  // 2048 threads per SM

  const int strides[] = {1, 2, 4, 8, 16, 32, 64};
  double base = 0;
  for (int s : strides) {
    long long n_loads = nf / s;
    double ms = time_ms([&] { strided_read<<<blocks, tpb>>>(a, n_loads, s, out); }, REPS, 2);
    double useful = n_loads * 4.0;
    double sector = (4 * s <= 32) ? double(bytes) : n_loads * 32.0;
    if (s == 1) base = ms;
    std::string n = fmt("kernel=strided_read;2 GiB buffer; %lld float loads; %d x %d threads; median of %d; "
                        "sector bytes=%.0f MB",
                        n_loads, blocks, tpb, REPS, sector / 1e6);
    row("strided_read", fmt("stride%d_ms", s), ms, "ms", n);
    row("strided_read", fmt("stride%d_useful_GBps", s), useful / (ms * 1e6), "GB/s", n);
    row("strided_read", fmt("stride%d_sector_GBps", s), sector / (ms * 1e6), "GB/s", n);
    row("strided_read", fmt("stride%d_time_vs_coalesced", s), ms / base, "x", n);
    row("strided_read", fmt("stride%d_ps_per_load", s), ms * 1e9 / n_loads, "ps", n);
  }
  {
    long long n4 = (bytes / 2) / 16;
    double ms = time_ms([&] { copy4<<<blocks, tpb>>>((const float4*)a, (float4*)b, n4); }, REPS, 2);
    row("copy4", "GBps_read_plus_write", 2.0 * (bytes / 2) / (ms * 1e6), "GB/s",
        fmt("kernel=copy4;float4 copy 1 GiB -> 1 GiB; %d x %d threads; %.3f ms; median of %d", blocks, tpb, ms, REPS));
    for (int bm : {16, 32}) {
      double ms2 = time_ms([&] { copy4<<<sms * bm, tpb>>>((const float4*)a, (float4*)b, n4); }, REPS, 2);
      row("copy4", fmt("GBps_read_plus_write_%dblk_per_sm", bm), 2.0 * (bytes / 2) / (ms2 * 1e6), "GB/s",
          fmt("kernel=copy4;float4 copy 1 GiB -> 1 GiB; %d x %d threads; %.3f ms", sms * bm, tpb, ms2));
    }
  }
  {
    long long n4 = bytes / 16;
    double ms = time_ms([&] { read4<<<blocks, tpb>>>((const float4*)a, n4, out); }, REPS, 2);
    row("read4", "GBps_read", bytes / (ms * 1e6), "GB/s",
        fmt("kernel=read4;float4 read of 2 GiB; %d x %d threads; %.3f ms; median of %d", blocks, tpb, ms, REPS));
  }
  {
    double ms = time_ms([&] { CK(cudaMemcpyAsync(b, a, bytes / 2, cudaMemcpyDeviceToDevice)); }, REPS, 2);
    row("memcpy_d2d", "GBps_read_plus_write", 2.0 * (bytes / 2) / (ms * 1e6), "GB/s",
        fmt("cudaMemcpy device-to-device 1 GiB; %.3f ms; median of %d", ms, REPS));
  }
  fprintf(stderr, "memory: done\n");
  return 0;
}
