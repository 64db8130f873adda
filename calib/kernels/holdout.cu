// holdout.cu: application-like kernels that no parameter of configs/h200.yaml was fitted to, run on the
// GPU and, from their compiled SASS (calib/sass/holdout.sm_90.sass, calib/sass/ho_*.launch.isa), in
// simt-sim: how close the model gets on kernels it was not tuned on (calib/README.md, "Held-out
// kernels"). Written as a CUDA programmer writes them (size_t indices, __restrict__, shuffles):
//   ho_matvec_warp    y = A x, one warp per row (16384 x 1024 floats, 64 MB: a DRAM stream + shuffles)
//   ho_matvec_thread  y = A x, one thread per row (the same A: each lane walks its own row, 32 lines
//                     per warp load, reused from L1 over the next 31 columns)
//   ho_softmax        one block of 256 per row of 4096 floats (4096 rows): max, sum of exp, scale;
//                     block reductions through shuffles and shared memory, expf
//   ho_conv3x3        3 x 3 convolution of a 4096 x 4096 image, 32 x 8 blocks, no shared memory
//   ho_gemm_naive     C = A B, 512^3, one thread per output, A's row and B's column from L1/L2
//   ho_reduce_atomic  sum of 16M floats: grid-stride, warp shuffle, one float atomicAdd per warp
//   ho_hist256        256-bin histogram of 16M uniform bytes with global atomicAdd
//   ho_gather         y[i] = x[idx[i]], 16M random indices into a 64 MB table
// Output rows: KERNEL,us,<median of 7 event-timed launches after 2 warm ones>,us,notes (the launch
// overhead included, as validate adds launch.kernel_launch_us). With CALIB_NCU set, one launch each.
// Inputs: zeros, except idx (uniform in [0, 16M)) and the histogram's keys (uniform in [0, 256)),
// drawn here by a hash, in simt-sim by `.buffer ... random` (the same distribution, not the values).
#include "common.cuh"

// blocktimes.cu includes this file with HO_ENTER / HO_EXIT stamping each warp's start and end (SM, globaltimer,
// clock64) and HO_MARK(i) the clock64 between a kernel's phases (ho_softmax's passes); here they are empty and
// the kernels compile as before.
#ifndef HO_ENTER
#define HO_ENTER()
#define HO_EXIT()
#endif
#ifndef HO_MARK
#define HO_MARK(i)
#endif

__device__ __forceinline__ unsigned hash32(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

extern "C" __global__ void ho_matvec_warp(const float* __restrict__ A, const float* __restrict__ x,
                                         float* __restrict__ y, int rows, int cols) {
  HO_ENTER();
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float* a = A + (size_t)row * cols;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += a[c] * x[c];
  s = warp_sum(s);
  if (lane == 0) y[row] = s;
  HO_EXIT();
}

extern "C" __global__ void ho_matvec_thread(const float* __restrict__ A, const float* __restrict__ x,
                                           float* __restrict__ y, int rows, int cols) {
  HO_ENTER();
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* a = A + (size_t)row * cols;
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += a[c] * x[c];
  y[row] = s;
  HO_EXIT();
}

// A block's reduction of one value per thread (256 threads): warp shuffles, then warp 0 over 8.
template <bool MAX>
__device__ __forceinline__ float block_reduce(float v, float* sh) {
  v = MAX ? warp_max(v) : warp_sum(v);
  const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) sh[w] = v;
  __syncthreads();
  v = lane < (blockDim.x >> 5) ? sh[lane] : (MAX ? -INFINITY : 0.f);
  if (w == 0) v = MAX ? warp_max(v) : warp_sum(v);
  if (threadIdx.x == 0) sh[8] = v;
  __syncthreads();
  v = sh[8];
  __syncthreads();
  return v;
}

extern "C" __global__ void ho_softmax(const float* __restrict__ in, float* __restrict__ out, int cols) {
  HO_ENTER();
  __shared__ float sh[9];
  const float* r = in + (size_t)blockIdx.x * cols;
  float* o = out + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, r[c]);
  HO_MARK(0);
  m = block_reduce<true>(m, sh);
  HO_MARK(1);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(r[c] - m);
  HO_MARK(2);
  s = block_reduce<false>(s, sh);
  HO_MARK(3);
  const float inv = 1.f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) o[c] = expf(r[c] - m) * inv;
  HO_EXIT();
}

extern "C" __global__ void ho_conv3x3(const float* __restrict__ in, float* __restrict__ out, int N) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= N - 1 || y >= N - 1) return;
  const float* p = in + (size_t)(y - 1) * N + (x - 1);
  const float w[3][3] = {{0.0625f, 0.125f, 0.0625f}, {0.125f, 0.25f, 0.125f}, {0.0625f, 0.125f, 0.0625f}};
  float s = 0.f;
#pragma unroll
  for (int j = 0; j < 3; ++j)
#pragma unroll
    for (int i = 0; i < 3; ++i) s += w[j][i] * p[(size_t)j * N + i];
  out[(size_t)y * N + x] = s;
}

extern "C" __global__ void ho_gemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int N) {
  HO_ENTER();
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0.f;
  for (int k = 0; k < N; ++k) s += A[(size_t)row * N + k] * B[(size_t)k * N + col];
  C[(size_t)row * N + col] = s;
  HO_EXIT();
}

extern "C" __global__ void ho_reduce_atomic(const float* __restrict__ x, float* sum, int n) {
  HO_ENTER();
  float s = 0.f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
    s += x[i];
  s = warp_sum(s);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, s);
  HO_EXIT();
}

extern "C" __global__ void ho_hist256(const unsigned* __restrict__ keys, unsigned* bins, int n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i] & 255u], 1u);
}

extern "C" __global__ void ho_gather(const float* __restrict__ x, const unsigned* __restrict__ idx,
                                    float* __restrict__ y, int n) {
  const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < (size_t)n) y[i] = x[idx[i]];
}

__global__ void fill_keys(unsigned* k, int n, unsigned mod) {
  const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < (size_t)n) k[i] = hash32(unsigned(i) * 2654435761u + 12345u) % mod;
}

int main() {
  cudaDeviceProp p = props();
  const int sms = p.multiProcessorCount;
  fprintf(stderr, "holdout: %s, %d SMs\n", p.name, sms);
  const int REPS = reps_or_1(7), WARM = warm_or_0(2);
  const int n16 = 1 << 24;
  float *fa, *fb, *fc;
  unsigned *keys, *idx, *bins;
  CK(cudaMalloc(&fa, size_t(1) << 28));
  CK(cudaMalloc(&fb, size_t(1) << 28));
  CK(cudaMalloc(&fc, size_t(1) << 28));
  CK(cudaMalloc(&keys, size_t(n16) * 4));
  CK(cudaMalloc(&idx, size_t(n16) * 4));
  CK(cudaMalloc(&bins, 256 * 4));
  CK(cudaMemset(fa, 0, size_t(1) << 28));
  CK(cudaMemset(fb, 0, size_t(1) << 28));
  CK(cudaMemset(fc, 0, size_t(1) << 28));
  CK(cudaMemset(bins, 0, 256 * 4));
  fill_keys<<<n16 / 256, 256>>>(keys, n16, 256u);
  fill_keys<<<n16 / 256, 256>>>(idx, n16, unsigned(n16));
  CKL();
  CK(cudaDeviceSynchronize());
  auto run = [&](const char* k, const std::string& notes, auto launch) {
    const double ms = time_ms(launch, REPS, WARM);
    row(k, "us", ms * 1e3, "us", notes + fmt(";median of %d", REPS));
  };
  const int rows = 16384, cols = 1024;
  run("ho_matvec_warp", "16384 x 1024 floats;2048 blocks of 256 (8 rows each)", [&] {
    ho_matvec_warp<<<rows * 32 / 256, 256>>>(fa, fb, fc, rows, cols);
  });
  run("ho_matvec_thread", "16384 x 1024 floats;64 blocks of 256", [&] {
    ho_matvec_thread<<<rows / 256, 256>>>(fa, fb, fc, rows, cols);
  });
  run("ho_softmax", "4096 rows of 4096 floats;one block of 256 per row", [&] {
    ho_softmax<<<4096, 256>>>(fa, fb, 4096);
  });
  run("ho_conv3x3", "4096 x 4096 floats;32 x 8 blocks", [&] {
    ho_conv3x3<<<dim3(4096 / 32, 4096 / 8), dim3(32, 8)>>>(fa, fb, 4096);
  });
  run("ho_gemm_naive", "512^3;16 x 16 blocks", [&] {
    ho_gemm_naive<<<dim3(512 / 16, 512 / 16), dim3(16, 16)>>>(fa, fb, fc, 512);
  });
  run("ho_reduce_atomic", fmt("16M floats;%d x 256", sms * 8), [&] { ho_reduce_atomic<<<sms * 8, 256>>>(fa, fc, n16); });
  run("ho_hist256", fmt("16M keys uniform in 0..255;%d x 256", sms * 8), [&] { ho_hist256<<<sms * 8, 256>>>(keys, bins, n16); });
  run("ho_gather", "16M random indices into 16M floats;65536 x 256", [&] { ho_gather<<<n16 / 256, 256>>>(fa, idx, fb, n16); });
  return 0;
}
