// launch.cu: kernel launch overhead and block launch cost.
//  - empty kernel, 1000 back-to-back launches between two events: us per launch (1 block and one
//    block per SM), and the same 1000 launches replayed from a CUDA graph;
//  - one launch + cudaStreamSynchronize round trip, host steady_clock, median of 200;
//  - a tiny kernel (128 threads per block, 16 dependent FFMA per thread) at 1 .. 128*SMs blocks,
//    200 launches back to back between two events (per-kernel time once launches pipeline; the
//    slope over blocks is the GPU-wide block dispatch cost), and each launch timed alone with
//    events (median of 100).
// Leaves out: cluster launches, dynamic parallelism, multi-stream concurrency.
#include "common.cuh"
#include <chrono>

extern "C" __global__ void empty_kernel() {}
extern "C" __global__ void tiny_kernel(float a, float b, float* out) {
  float x = threadIdx.x * 1e-3f;
  asm volatile(REP16("fma.rn.f32 %0, %0, %1, %2;\n\t") : "+f"(x) : "f"(a), "f"(b));
  if (x == 1234.5f) out[threadIdx.x] = x;
}

int main() {
  cudaDeviceProp p = props();
  int sms = p.multiProcessorCount;
  fprintf(stderr, "launch: %s, %d SMs\n", p.name, sms);
  float* out;
  CK(cudaMalloc(&out, 4096));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const int NL = 1000;

  for (int g : {1, sms}) {
    for (int i = 0; i < 100; ++i) empty_kernel<<<g, 32, 0, st>>>();  // warm-up
    CKL();
    CK(cudaStreamSynchronize(st));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<double> t;
    for (int r = 0; r < 7; ++r) {
      CK(cudaEventRecord(a, st));
      for (int i = 0; i < NL; ++i) empty_kernel<<<g, 32, 0, st>>>();
      CK(cudaEventRecord(b, st));
      CK(cudaEventSynchronize(b));
      CKL();
      float m;
      CK(cudaEventElapsedTime(&m, a, b));
      t.push_back(m);
    }
    row("empty_kernel", fmt("back_to_back_us_per_launch_%dblk", g), median(t) * 1e3 / NL, "us",
        fmt("kernel=empty_kernel;%d launches of <<<%d;32>>> between two events on one stream; median of 7", NL, g));

    // Graph of NL launches.
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < NL; ++i) empty_kernel<<<g, 32, 0, st>>>();
    CK(cudaStreamEndCapture(st, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    CK(cudaGraphLaunch(exec, st));
    CK(cudaStreamSynchronize(st));
    t.clear();
    for (int r = 0; r < 7; ++r) {
      CK(cudaEventRecord(a, st));
      CK(cudaGraphLaunch(exec, st));
      CK(cudaEventRecord(b, st));
      CK(cudaEventSynchronize(b));
      float m;
      CK(cudaEventElapsedTime(&m, a, b));
      t.push_back(m);
    }
    row("empty_kernel", fmt("graph_us_per_kernel_%dblk", g), median(t) * 1e3 / NL, "us",
        fmt("kernel=empty_kernel;CUDA graph of %d empty <<<%d;32>>> kernels; median of 7", NL, g));
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
  }
  {
    std::vector<double> t;
    for (int r = 0; r < 220; ++r) {
      auto h0 = std::chrono::steady_clock::now();
      empty_kernel<<<1, 32, 0, st>>>();
      CK(cudaStreamSynchronize(st));
      auto h1 = std::chrono::steady_clock::now();
      if (r >= 20) t.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
    }
    row("empty_kernel", "launch_plus_sync_roundtrip_us", median(t), "us",
        "kernel=empty_kernel;host steady_clock around launch + cudaStreamSynchronize; median of 200");
  }
  {  // back-to-back: 200 launches between two events; per-kernel time once launches pipeline
    const int mult[] = {0, 1, 2, 4, 8, 16, 32, 64, 128};  // 0 means a single block
    double t1 = 0;
    for (int m : mult) {
      int g = m == 0 ? 1 : m * sms;
      double ms = time_ms(
          [&] {
            for (int i = 0; i < 200; ++i) tiny_kernel<<<g, 128>>>(1.0000001f, 1e-7f, out);
          },
          9, 1);
      double us = ms * 1e3 / 200;
      if (m == 0) t1 = us;
      row("tiny_kernel", fmt("b2b_blocks%d_us_per_kernel", g), us, "us",
          fmt("kernel=tiny_kernel;200 back-to-back <<<%d;128>>> launches between two events; median of 9", g));
      if (m > 0)
        row("tiny_kernel", fmt("b2b_blocks%d_extra_ns_per_block", g), (us - t1) * 1e3 / (g - 1), "ns",
            fmt("(b2b time(%d blocks) - b2b time(1 block)) / (%d - 1): GPU-wide block dispatch cost", g, g));
    }
  }
  {
    const int mult[] = {0, 1, 2, 4, 8, 16, 32, 64};  // 0 means a single block
    double t1 = 0;
    for (int m : mult) {
      int g = m == 0 ? 1 : m * sms;
      std::vector<double> all;
      double ms = time_ms([&] { tiny_kernel<<<g, 128>>>(1.0000001f, 1e-7f, out); }, 100, 5, &all);
      if (m == 0) t1 = ms;
      row("tiny_kernel", fmt("blocks%d_us", g), ms * 1e3, "us",
          fmt("kernel=tiny_kernel;<<<%d;128>>> 16 dependent FFMA per thread; one launch between events; median of 100; "
              "min %.2f us",
              g, *std::min_element(all.begin(), all.end()) * 1e3));
      if (m > 0)
        row("tiny_kernel", fmt("blocks%d_extra_ns_per_block", g), (ms - t1) * 1e6 / (g - 1), "ns",
            fmt("(time(%d blocks) - time(1 block)) / (%d - 1)", g, g));
    }
  }
  fprintf(stderr, "launch: done\n");
  return 0;
}
