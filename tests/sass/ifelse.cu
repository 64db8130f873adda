// ifelse.cu: a divergent if/else on the lane's parity, then a common tail.
extern "C" __global__ void ifelse(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  float r;
  if (i & 1) r = v * 3.0f + 1.0f;
  else r = v * 0.5f - 2.0f;
  out[i] = r + (float)i;
}
