// mixrw.cu: random DRAM reads and writes mixed in one kernel (issue 6: l2dirty rmw and local_spill
// move ~0.93 TB/s on the H200 where the model moves twice that; gather_dram (reads alone) and
// scatter_dram (partial stores alone) agree). Is a mix slower than its reads and its writes apart?
// Each thread runs 64 accesses in groups of 4: R loads from buffer A and 4 - R stores to buffer B
// (R = 4, 3, 2, 1, 0), all at hashed addresses over 2 GB each (far beyond the 60 MB L2), 8 blocks of
// 256 threads per SM. Two shapes:
//  - word:   each lane its own random 32 B sector, 4 B (a store is a partial sector: ECC
//            read-modify-write in DRAM), 32 sectors per warp access;
//  - sector: 8 lanes fill one random sector (whole 32 B writes), 4 sectors per warp access.
// Rows: mixrw_<shape>_r<R>w<W>.{ms, sectors_per_clk} (sector accesses GPU-wide per clock at the
// measured 1980 MHz), median of 5 after 2 warm launches. `mixrw SHAPE R` runs one point once (ncu).
// Leaves out: reads and writes to the same rows, streams (copy1 measures those).
#include "mixed_access.cuh"

constexpr int kPerThread = 64;

int main(int argc, char** argv) {
  const cudaDeviceProp p = props();
  const int blocks = p.multiProcessorCount * 8;
  const size_t bytes = size_t(2) << 30;
  const unsigned sectors = unsigned(bytes / 32);
  const MixBuffers m = mix_buffers(bytes);
  float *a = m.a, *b = m.b, *out = m.out;
  auto launch = [&](int reads, int lps) { mixed<kPerThread><<<blocks, 256>>>(a, b, sectors, reads, lps, out); };
  if (argc == 3) {  // one point, for ncu
    const int lps = std::string(argv[1]) == "sector" ? 8 : 1;
    launch(atoi(argv[2]), lps);
    CK(cudaDeviceSynchronize());
    printf("%s R=%s done\n", argv[1], argv[2]);
    return 0;
  }
  for (int lps : {1, 8})
    for (int reads = 4; reads >= 0; --reads) {
      const double ms = time_ms([&] { launch(reads, lps); }, 5, 2);
      // sector accesses: every lane's access is one sector access (word), or 8 lanes share one (sector)
      const double accesses = double(blocks) * 256 * kPerThread / lps;
      const char* shape = lps == 1 ? "word" : "sector";
      const std::string k = fmt("mixrw_%s_r%dw%d", shape, reads, 4 - reads);
      const std::string n = fmt("kernel=mixed;%d ld.global.cg + %d st.global.cg per group of 4;%s;2 GB buffers at hashed 32 B sectors;%d x 256 threads;64 accesses per thread;median of 5",
                                reads, 4 - reads, lps == 1 ? "4 B per lane at its own sector" : "8 lanes per whole sector", blocks);
      row(k, "ms", ms, "ms", n);
      row(k, "sectors_per_clk", accesses / (ms * 1e-3 * 1.98e9), "1/clk", n);
    }
  return 0;
}
