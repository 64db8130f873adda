// s2r.cu: what reading a special register (S2R) costs its reader, against a fixed-latency op (issue 6:
// ncu gives one-element kernels 3.6-4.4 cycles of short_scoreboard per instruction, from their S2R
// and LDC waits; the twins' `mov r, %tid.x` was an ALU op of fixed latency).
// One warp per SM (132 blocks of 32 threads), 64 dependent steps of
//     setp.ne p, x, 7;  @p <op> t;  add x, x, t
// where <op> is `add t, x, 1` (the base: ISETP, IADD, IADD), or a predicated read of %smid, %tid.x,
// %laneid or %clock. The predicate depends on x, so the read cannot be hoisted out of the chain (a
// plain `x += %smid` chain was: ptxas issued the reads back to back, calib/results/l1pipe/). Clocks per
// step from clock64 around the chain, median over SMs; a read's latency is its step minus the base
// step plus the fixed latency of the IADD it replaces. Check the SASS (cuobjdump) for what ptxas made
// of each: S2R (variable latency, scoreboard) or CS2R (fixed).
// Rows: s2r_step_<op>.clk_per_step (op: iadd, smid, tid, laneid, clock).
// Leaves out: throughput of S2R (see l1pipe.cu lat), LDC.
#include "common.cuh"

#define STEP(op) "setp.ne.u32 p, %0, 7;\n\t@p " op ";\n\tadd.u32 %0, %0, t;\n\t"
#define CHAIN(op) asm volatile("{\n\t.reg .u32 t;\n\t.reg .pred p;\n\tmov.u32 t, 0;\n\t" REP64(STEP(op)) "}" : "+r"(x))

__global__ void step_lat(int op, long long* cycles, unsigned* out) {
  unsigned x = threadIdx.x & 1;
  const long long t0 = clock64();
  switch (op) {
    case 0: CHAIN("add.u32 t, %0, 1"); break;
    case 1: CHAIN("mov.u32 t, %%smid"); break;
    case 2: CHAIN("mov.u32 t, %%tid.x"); break;
    case 3: CHAIN("mov.u32 t, %%laneid"); break;
    default: CHAIN("mov.u32 t, %%clock"); break;
  }
  const long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (x == 0xdeadbeefu) out[0] = x;
}

int main() {
  const cudaDeviceProp p = props();
  const int blocks = p.multiProcessorCount;
  long long* cycles;
  unsigned* out;
  CK(cudaMalloc(&cycles, blocks * sizeof(long long)));
  CK(cudaMalloc(&out, sizeof(unsigned)));
  const char* names[] = {"iadd", "smid", "tid", "laneid", "clock"};
  for (int op = 0; op < 5; ++op) {
    std::vector<double> best(blocks, 1e30);
    for (int rep = 0; rep < 5; ++rep) {  // the first launch warms the instruction cache
      step_lat<<<blocks, 32>>>(op, cycles, out);
      CKL();
      CK(cudaDeviceSynchronize());
      std::vector<long long> c(blocks);
      CK(cudaMemcpy(c.data(), cycles, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
      if (rep == 0) continue;
      for (int b = 0; b < blocks; ++b) best[b] = std::min(best[b], double(c[b]));
    }
    row("s2r_step_" + std::string(names[op]), "clk_per_step", median(best) / 64.0, "clk",
        fmt("64 dependent steps setp / @p op / add;one warp per SM;%d blocks;median over SMs of the fastest of 4", blocks));
  }
  return 0;
}
