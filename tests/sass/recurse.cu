// recurse.cu: a recursive device function (a real CALL/RET with a stack in local memory).
__device__ __noinline__ unsigned fib(unsigned k) {
  return k < 2 ? k : fib(k - 1) + fib(k - 2);
}
extern "C" __global__ void recurse(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fib(in[i] & 7u);
}
