// atomgrid.cu: what a global atomic costs at the L2 as a function of how a warp's request spreads
// over lines and words, how many lines are hot, and how many SMs send (issue 6, gap "global
// histograms": hist_global is 3-5x slower per key on the H200 than atom_line's rate predicts).
// Each warp runs K red.global.add.u32 (or atom.global.add.u32) in a loop; in one instruction the
// 32 lanes spread over `lpr` lines (32 / lpr lanes per line) and, within a line, hit
//   distinct: 32 / lpr different words, same: one word, random: a hashed word of the 32.
// The lines of instruction k of warp w are (w * lpr + k * lpr * 7 + lane % lpr) mod `hot`, so with
// hot = lpr every instruction touches every hot line (hot 8, lpr 8: the 256-bin histogram's shape).
// Senders: 1 SM (one block of 1024 threads), 16 SMs (16 blocks), 132 SMs (264 blocks of 1024).
// K adapts so a launch lasts about 1 ms; rates are per GPU clock at 1.98 GHz (the clock under load).
// Rows: atomics_per_clk, line_requests_per_clk (lane groups of one line in one instruction),
// clk_per_request_per_line (hot lines busy in parallel: hot * cycles / requests, for hot <= 64).
// Leaves out: fp32 / CAS atomics, system scope, shared memory (contention.cu has those).
#include "common.cuh"

#include "atom_pattern.cuh"

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  const unsigned max_hot = 1u << 20;  // 128 MB of lines for the spread case
  unsigned* base;
  CK(cudaMalloc(&base, size_t(max_hot) * 128));
  CK(cudaMemset(base, 0, size_t(max_hot) * 128));
  const char* wname[] = {"distinct", "same", "random"};
  struct S { const char* name; int blocks; } senders[] = {{"sm1", 1}, {"sm16", 16}, {"all", 2 * sms}};
  const unsigned hots[] = {1, 8, 64, max_hot};
  const int lprs[] = {1, 2, 4, 8, 32};
  for (auto& s : senders)
    for (int red = 1; red >= 0; --red)
      for (unsigned hot : hots)
        for (int lpr : lprs)
          for (int wm = 0; wm < 3; ++wm) {
            if (unsigned(lpr) > hot) continue;
            if (!red && (s.blocks != 2 * sms || (lpr != 1 && lpr != 8))) continue;  // atom: a subset
            if (lpr == 32 && wm != 0) continue;  // one lane per line: the word mode does not matter
            int K = 16;
            double ms = time_ms([&] { atom_pattern<<<s.blocks, 1024>>>(base, K, lpr, wm, hot, red); }, 1, 1);
            K = int(std::min(8192.0, std::max(4.0, 16.0 * 1.0 / std::max(ms, 1e-4))));
            ms = time_ms([&] { atom_pattern<<<s.blocks, 1024>>>(base, K, lpr, wm, hot, red); }, 5, 1);
            const double warps = s.blocks * 32.0, cycles = ms * 1e-3 * 1.98e9;
            const double atomics = warps * 32.0 * K, requests = warps * K * lpr;
            std::string hname = hot == max_hot ? std::string("spread") : fmt("hot%u", hot);
            std::string k = fmt("atomgrid_%s_%s_%s_lpr%d_%s", red ? "red" : "atom", s.name, hname.c_str(), lpr, wname[wm]);
            std::string n = fmt("kernel=atom_pattern;%s.global.add.u32;%d blocks x 1024;K=%d;lines per request %d;"
                                "words %s;hot lines %u;median of 5",
                                red ? "red" : "atom", s.blocks, K, lpr, wname[wm], hot);
            row(k, "ms", ms, "ms", n);
            row(k, "atomics_per_clk", atomics / cycles, "1/clk", n);
            row(k, "line_requests_per_clk", requests / cycles, "1/clk", n);
            if (hot <= 64) row(k, "clk_per_request_per_line", cycles * std::min<double>(hot, warps * lpr) / requests, "clk", n);
          }
  return 0;
}
