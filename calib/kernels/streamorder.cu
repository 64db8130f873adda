// streamorder.cu: how evenly the warps of one SM progress through a memory stream on the H200.
// The grid-stride float write of dispatch.cu (stream_write, 8 stores per iteration) and read of
// loaded.cu (stream_read, 8 loads in flight per thread) over 1 GiB, at 4, 16 and 64 warps per SM,
// each warp reading clock64 at its start, after each quarter of its iterations and at its end.
// When the warps of an SM keep together, the stream's front is narrow and the L2 sees (and
// writes back) its lines in address order; when the scheduler lets some warps run ahead, the
// front spreads over the buffer. Output: one CSV row per warp of SMs 0-3
// (kernel,w,sm,block,warp_in_block,hwwarp,t0,q1,q2,q3,t1; times from the SM's first t0), the
// form of warporder.cu, for simt-sim's timeline (calib/README.md, issue 6, tenth pass).
// Leaves out: float4 streams, copies (dispatch.cu times those).
#include "common.cuh"

using StreamRec = ClockRec<5>;

// Iterations of 8 G elements every thread runs (n a multiple of 8 G here): quarter q ends at
// iteration (q + 1) * iters / 4.
__global__ void order_write(float* __restrict__ a, long long n, StreamRec* rec) {
  long long t[5];
  const long long G = (long long)gridDim.x * blockDim.x;
  const long long iters = n / (8 * G);
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  t[0] = clock64();
  for (int q = 0; q < 4; ++q) {
    const long long end = (q + 1) * iters / 4;
    for (long long it = q * iters / 4; it < end; ++it, i += 8 * G) {
#pragma unroll
      for (int k = 0; k < 8; ++k) a[i + k * G] = float(k);
    }
    t[q + 1] = clock64();
  }
  clock_record(rec, t);
}

__global__ void order_read(const float* __restrict__ a, long long n, float* out, StreamRec* rec) {
  long long t[5];
  const long long G = (long long)gridDim.x * blockDim.x;
  const long long iters = n / (8 * G);
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  float s = 0.f;
  t[0] = clock64();
  for (int q = 0; q < 4; ++q) {
    const long long end = (q + 1) * iters / 4;
    for (long long it = q * iters / 4; it < end; ++it, i += 8 * G) {
      float v[8];
#pragma unroll
      for (int k = 0; k < 8; ++k) v[k] = a[i + k * G];
#pragma unroll
      for (int k = 0; k < 8; ++k) s += v[k];
    }
    asm volatile("" ::"f"(s));  // the quarter's loads are summed before its clock read
    t[q + 1] = clock64();
  }
  clock_record(rec, t);
  if (s == 1234.5f) out[0] = s;
}

static void print_warps(const char* kernel, int w, const std::vector<StreamRec>& h) {
  const std::map<unsigned, long long> first = first_start_by_sm(h);
  for (const auto& r : h) {
    if (r.sm >= 4) continue;
    const long long f = first.at(r.sm);
    printf("%s,%d,%u,%u,%u,%u,%lld,%lld,%lld,%lld,%lld\n", kernel, w, r.sm, r.block, r.warp, r.hwwarp, r.t[0] - f,
           r.t[1] - f, r.t[2] - f, r.t[3] - f, r.t[4] - f);
  }
}

int main() {
  cudaDeviceProp p = props();
  const int sms = p.multiProcessorCount;
  fprintf(stderr, "streamorder: %s, %d SMs\n", p.name, sms);
  const long long n = 1ll << 28;  // 1 GiB of floats
  float *a, *out;
  StreamRec* rec;
  CK(cudaMalloc(&a, n * 4));
  CK(cudaMemset(a, 0, n * 4));
  CK(cudaMalloc(&out, 4));
  CK(cudaMalloc(&rec, size_t(sms) * 64 * sizeof(StreamRec)));
  printf("kernel,w,sm,block,warp_in_block,hwwarp,t0,q1,q2,q3,t1\n");
  for (int kind = 0; kind < 2; ++kind)
    for (int w : {4, 16, 64}) {
      const int threads = w * 32 > 1024 ? 1024 : w * 32, blocks = sms * (w * 32 / threads);
      const int nw = blocks * threads / 32;
      for (int rep = 0; rep < 2; ++rep) {  // a warm launch, then the recorded one
        if (kind == 0) order_write<<<blocks, threads>>>(a, n, rec);
        else order_read<<<blocks, threads>>>(a, n, out, rec);
        CK(cudaDeviceSynchronize());
      }
      CKL();
      std::vector<StreamRec> h(nw);
      CK(cudaMemcpy(h.data(), rec, nw * sizeof(StreamRec), cudaMemcpyDeviceToHost));
      print_warps(kind == 0 ? "stream_write" : "stream_read", w, h);
    }
  return 0;
}
