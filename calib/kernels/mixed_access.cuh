// mixed_access.cuh: the kernel that mixes random DRAM reads and stores in one loop, shared by
// mixrw.cu (4 B partial stores, 64 accesses per thread) and wbmix.cu (whole sectors, 256).
// Per group of 4 warp accesses the first `reads` load from buffer a and the others store to b, at
// hashed 32 B sectors of `sectors` (a power of two); lane l works on word l % lanes_per_sector of
// sector group l / lanes_per_sector (1: a partial sector per lane, 8: 4 whole sectors a warp).
#pragma once
#include "common.cuh"

__device__ __forceinline__ unsigned mix(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

// The two zeroed buffers a mix reads and writes, and the one-word sink its kernels never write.
struct MixBuffers {
  float *a, *b, *out;
};
inline MixBuffers mix_buffers(size_t bytes) {
  MixBuffers m;
  CK(cudaMalloc(&m.a, bytes));
  CK(cudaMalloc(&m.b, bytes));
  CK(cudaMalloc(&m.out, 4));
  CK(cudaMemset(m.a, 0, bytes));
  CK(cudaMemset(m.b, 0, bytes));
  return m;
}

template <int kPerThread>
__global__ void mixed(const float* __restrict__ a, float* b, unsigned sectors, int reads, int lanes_per_sector,
                      float* out) {
  const unsigned lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned group = lane / unsigned(lanes_per_sector), word = lane % unsigned(lanes_per_sector);
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < kPerThread; k += 4) {
    const unsigned h = mix(warp * 0x9e3779b9u + unsigned(k) * 0x85ebca6bu + group * 0xc2b2ae35u);
    size_t p[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) p[j] = size_t(mix(h + unsigned(j)) & (sectors - 1)) * 8 + word;
    float v[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (j < reads) v[j] = __ldcg(a + p[j]);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (j >= reads) __stcg(b + p[j], s + float(j));
    s += v[0] + v[1] + v[2] + v[3];
  }
  if (s == 1234.5f) out[0] = s;
}
