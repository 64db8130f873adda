// rawlat.cu: what a load costs right after the same thread stored to the same address (issue 6,
// gap "local memory": local_spill waits three times longer per load on the H200 than the model).
// One warp, a dependent chain through memory: each step stores v and loads it back (+1), so the
// load must see the store. Variants: the load alone (the chain through a register only: ld of a
// fixed word), store + load of the same word, store to another line + load; for global memory
// (default caching: L1 and L2) and for local memory (a per-thread array indexed with data).
// Rows: cycles per step (clock64 around 1024 steps, one warp, lane 0's count).
// Leaves out: stores by other warps, partial sectors (each lane stores a whole word of its own).
#include "common.cuh"

__global__ void raw_global(unsigned* buf, int steps, int mode, long long* out) {
  const unsigned lane = threadIdx.x;
  unsigned* a = buf + lane;              // lane's word of line 0
  unsigned* b = buf + 4096 * 32 + lane;  // another line, far away
  unsigned v = lane;
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < steps; ++i) {
    if (mode == 1) *(volatile unsigned*)a = v;
    if (mode == 2) *(volatile unsigned*)b = v;
    v = *(volatile unsigned*)a + 1u;
  }
  long long t1 = clock64();
  if (lane == 0) out[0] = t1 - t0;
  if (v == 12345u) buf[0] = v;
}

__global__ void raw_local(int steps, int mode, unsigned seed, long long* out, unsigned* sink) {
  unsigned arr[64];
  const unsigned lane = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 64; ++i) arr[i] = seed + i + lane;
  unsigned v = lane, j = seed & 63;  // data-dependent index: the array lives in local memory
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < steps; ++i) {
    if (mode == 1) arr[j] = v;
    if (mode == 2) arr[(j + 32) & 63] = v;
    v = arr[j] + 1u;
    j = (j + (v >> 31)) & 63;  // the same word (v stays small), through a dependence on v
  }
  long long t1 = clock64();
  if (lane == 0) out[0] = t1 - t0;
  sink[lane] = v + arr[(v + j) & 63];
}

int main() {
  unsigned *buf, *sink;
  long long* out;
  CK(cudaMalloc(&buf, size_t(8192) * 128));
  CK(cudaMemset(buf, 0, size_t(8192) * 128));
  CK(cudaMalloc(&sink, 32 * 4));
  CK(cudaMalloc(&out, 8));
  const int steps = 1024;
  const char* names[] = {"load_only", "store_same_then_load", "store_other_then_load"};
  for (int space = 0; space < 2; ++space)
    for (int mode = 0; mode < 3; ++mode) {
      std::vector<double> v;
      for (int rep = 0; rep < 5; ++rep) {
        if (space == 0) raw_global<<<1, 32>>>(buf, steps, mode, out);
        else raw_local<<<1, 32>>>(steps, mode, 7u, out, sink);
        CK(cudaDeviceSynchronize());
        long long c = 0;
        CK(cudaMemcpy(&c, out, 8, cudaMemcpyDeviceToHost));
        v.push_back(double(c) / steps);
      }
      row(fmt("rawlat_%s_%s", space ? "local" : "global", names[mode]), "cycles_per_step", median(v), "cycles",
          fmt("kernel=raw_%s;one warp;%d dependent steps;median of 5", space ? "local" : "global", steps));
    }
  return 0;
}
