// loop_trip.cu: each thread loops trips[i] times (a per-lane trip count), with a break.
extern "C" __global__ void loop_trip(const int* trips, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned acc = (unsigned)i;
  int t = trips[i];
  for (int k = 0; k < t; ++k) {
    acc = acc * 1664525u + 1013904223u;
    if (acc == 0xdeadbeefu) break;
  }
  out[i] = acc;
}
