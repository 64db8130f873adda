// atom_pattern.cuh: the reduction kernel of atomgrid.cu and atomprobe.cu. Each warp runs K
// red.global.add.u32 (or atom.global.add.u32); in one instruction the 32 lanes spread over `lpr`
// lines (32 / lpr lanes per line) and, within a line, hit distinct (words 0), one (1) or hashed (2)
// words. The lines of instruction k of warp w are (w * lpr + k * lpr * 7 + lane % lpr) mod hot.
#pragma once

__device__ __forceinline__ unsigned mix(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

__global__ void atom_pattern(unsigned* base, int K, int lpr, int words, unsigned hot, int use_red) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = tid >> 5;
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    unsigned line = (w * lpr + unsigned(k) * lpr * 7u + lane % lpr) % hot;
    unsigned word = words == 0 ? lane / lpr : words == 1 ? 0u : mix(lane * 977u + unsigned(k) * 131u + w) & 31u;
    unsigned* a = base + size_t(line) * 32u + word;
    if (use_red) asm volatile("red.global.add.u32 [%0], %1;" ::"l"(a), "r"(1u) : "memory");
    else asm volatile("{ .reg .u32 t; atom.global.add.u32 t, [%0], %1; }" ::"l"(a), "r"(1u) : "memory");
  }
}
