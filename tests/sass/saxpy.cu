// saxpy.cu: y[i] = a * x[i] + y[i] over n elements, one thread per element.
extern "C" __global__ void saxpy_kernel(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
