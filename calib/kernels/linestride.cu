// linestride.cu: what a DRAM line read costs by how far apart a stream's lines are (issue 6: the
// model's read stream saturates at 3.9-4.0 TB/s where the H200 reads 4.36, because each 256 B chunk
// pays an opening that stride 32's cost was fitted to; calib/README.md, twenty-second pass).
// Each warp load reads one whole 128 B line (32 floats, or its first 64 B with 16 lanes), the lines
// s apart (s = 1, 2, 3, 4, 8, 16, 32, 64: 128 B .. 8 KB), 2^20 lines (128 MB) a launch, 8 loads in
// flight per thread, 64 warps per SM (SMs x 8 blocks of 256); the L2 is refilled with 256 MB of other
// lines before each timed launch, so every line comes from DRAM. If a line costs the same whatever s,
// DRAM pays per access; if the rate falls as s grows towards a page, a stream's lines share open rows.
// Rows: linestride_s<S>[_half].lines_per_ns and .GBps (bytes the warps asked for, over event time).
// Leaves out: stores (l2write.cu), fewer warps (loaded.cu stream_read).
#include "common.cuh"

template <bool HALF>
__global__ void linestride(const float* __restrict__ a, long long lines, long long s, float* out) {
  const long long w = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
  const long long W = ((long long)gridDim.x * blockDim.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (HALF && lane >= 16) return;
  float acc = 0.f;
  long long i = w;
  for (; i + 7 * W < lines; i += 8 * W) {
    float v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = a[(i + k * W) * s * 32 + lane];
#pragma unroll
    for (int k = 0; k < 8; ++k) acc += v[k];
  }
  for (; i < lines; i += W) acc += a[i * s * 32 + lane];
  if (acc == 1234.5f) out[0] = acc;
}

__global__ void refill(const float4* __restrict__ s, long long n4, float* out) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long G = (long long)gridDim.x * blockDim.x;
  float acc = 0.f;
  for (long long i = t; i < n4; i += G) acc += s[i].x;
  if (acc == 1234.5f) out[0] = acc;
}

int main(int argc, char** argv) {
  const cudaDeviceProp p = props();
  const int sms = p.multiProcessorCount, blocks = sms * 8, tpb = 256;
  const long long lines = 1ll << 20;
  const int only = argc > 1 ? atoi(argv[1]) : 0;  // ncu: one s
  const int REPS = reps_or_1(5), WARM = warm_or_0(1);
  float *a, *out;
  float4* scratch;
  const size_t span = size_t(lines) * 64 * 128, sbytes = size_t(256) << 20;
  CK(cudaMalloc(&a, span));
  CK(cudaMemset(a, 0, span));
  CK(cudaMalloc(&scratch, sbytes));
  CK(cudaMemset(scratch, 0, sbytes));
  CK(cudaMalloc(&out, 4));
  CK(cudaDeviceSynchronize());
  auto prep = [&] { refill<<<blocks, tpb>>>(scratch, (long long)(sbytes / 16), out); };
  for (int half = 0; half < 2; ++half) {
    for (long long s : {1, 2, 3, 4, 8, 16, 32, 64}) {
      if (only && s != only) continue;
      const double ms = time_ms(
          [&] {
            if (half) linestride<true><<<blocks, tpb>>>(a, lines, s, out);
            else linestride<false><<<blocks, tpb>>>(a, lines, s, out);
          },
          REPS, WARM, nullptr, prep);
      const std::string k = fmt("linestride_s%lld%s", s, half ? "_half" : "");
      const std::string n = fmt("kernel=linestride;%lld lines %lld x 128 B apart;%s;%d x %d threads;8 loads in "
                                "flight per thread;L2 refilled before each;median of %d",
                                lines, s, half ? "first 64 B of each line (16 lanes)" : "whole lines", blocks, tpb, REPS);
      row(k, "lines_per_ns", double(lines) / (ms * 1e6), "1/ns", n);
      row(k, "GBps", double(lines) * (half ? 64 : 128) / (ms * 1e6), "GB/s", n);
    }
  }
  return 0;
}
