// reduce_shfl.cu: each warp sums its 32 values with shuffles; lane 0 adds the warp's sum to out[0].
extern "C" __global__ void reduce_shfl(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
