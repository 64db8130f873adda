// dispatch.cpp: block dispatch and launch-shape comparisons (calib/kernels/dispatch.cu; results in
// calib/results/dispatch/calib_h200_dispatch.csv, warp states in ncu_h200_dispatch_states.csv).
// - blk_empty / blk_ffma16: the slope of the kernel time between 33792 and 67584 blocks is the
//   cost of one block (the GPU-wide distributor for small blocks, the SM's slots for 1024 threads).
// - read1, copy_1, write1, saxpy (one element per thread, 65536 blocks) and saxpy_gs (grid-stride,
//   1056 blocks): whole kernels after an L2 clean (the model starts with a clean L2), compared
//   with the simulated time plus launch.kernel_launch_us.
// - stream_write: float stores at W warps per SM, bandwidth between two spans larger than the L2
//   (so the write-backs, not the L2, set the rate).
// - stream_order: how evenly one SM's warps go through those streams (calib/kernels/streamorder.cu,
//   calib/results/streamorder/): the latest warp end over the earliest, median over SMs.
#include "sim/calibrate/comparisons.hpp"
#include "sim/calibrate/lifetimes.hpp"

namespace simt::calib {
namespace {

using simt::timing::Stats;

double clock_hz(const Context& c) { return c.h200().clock_mhz * 1e6; }

void block_costs(Context& c) {
    const std::pair<const char*, std::vector<uint32_t>> ks[] = {{"blk_empty", {32, 128, 1024}},
                                                                 {"blk_ffma16", {128, 1024}}};
    const uint32_t g1 = 33792, g2 = 67584;
    for (const auto& [k, sizes] : ks) {
        if (!c.wants(k)) continue;
        Trace t(c.trace(k));
        for (uint32_t b : sizes) {
            set_launch(t, g1, b);
            const double c1 = double(t.run(c.h200()).cycles);
            set_launch(t, g2, b);
            const double c2 = double(t.run(c.h200()).cycles);
            const double ns = (c2 - c1) / double(g2 - g1) / clock_hz(c) * 1e9;
            c.add("dispatch", k, "b" + std::to_string(b) + "_g" + std::to_string(g2) + "_ns_per_block", ns, "ns");
        }
    }
}

void clean_streams(Context& c) {
    const std::pair<const char*, const char*> ks[] = {
        {"read1", "read1"}, {"copy_1", "copy_1"}, {"write1", "write1"}, {"saxpy_1", "saxpy"}, {"saxpy_gs", "saxpy_gs"}};
    for (const auto& [kernel, trace] : ks) {
        if (!c.wants(kernel)) continue;
        Trace t(c.trace(trace));
        Stats s = t.run(c.h200());
        c.add("dispatch", kernel, "clean_us", double(s.cycles) / s.clock_mhz + s.kernel_launch_us, "us");
        compare_states(c, kernel, s);
    }
}

void write_streams(Context& c) {
    if (!c.wants("stream_write")) return;
    Trace t(c.trace("stream_write"));
    const uint64_t n1 = 32u << 20, n2 = 64u << 20;  // floats: 128 and 256 MB, beyond the 60 MB L2
    for (int w : {4, 16, 64}) {
        const uint32_t threads = w * 32 > 1024 ? 1024 : uint32_t(w * 32);
        set_launch(t, uint32_t(132 * (w * 32 / threads)), threads);
        const double c1 = double(t.run(c.h200(), {"n=" + std::to_string(n1)}).cycles);
        const double c2 = double(t.run(c.h200(), {"n=" + std::to_string(n2)}).cycles);
        const double gbps = double(n2 - n1) * 4 / ((c2 - c1) / clock_hz(c)) / 1e9;
        c.add("dispatch", "stream_write", "w" + std::to_string(w) + "_GBps", gbps, "GB/s");
    }
}

// The CUDA launches 4 and 16 warps as one block per SM and 64 as two of 1024 threads; ptxas gives
// the write 40 registers (one block of 1024 resident at a time) and the read 32 (both at once).
void stream_order(Context& c) {
    const struct {
        const char* kernel;
        uint32_t regs;
        uint64_t n;  // floats: 128 MB and 64 MB (the twins' buffers), the spread does not need 1 GiB
    } ks[] = {{"stream_write", 40, 32u << 20}, {"stream_read", 32, 16u << 20}};
    for (const auto& k : ks) {
        if (!c.wants(k.kernel)) continue;
        Trace t(c.trace(k.kernel));
        t.program.regs_per_thread = k.regs;
        for (uint32_t w : {4u, 16u, 64u}) {
            const uint32_t threads = std::min(w * 32, 1024u);
            set_launch(t, 132 * (w * 32 / threads), threads);
            Lifetimes l;
            t.run(c.h200(), {"n=" + std::to_string(k.n)}, &l);
            c.add("warps", k.kernel, "w" + std::to_string(w) + "_end_max_over_min",
                  Lifetimes::quantile(l.end_spread_by_sm(), 0.5), "x");
        }
    }
}

}  // namespace

std::vector<Group> dispatch_groups() {
    return {{"block_costs", "dispatch", block_costs},
            {"clean_streams", "dispatch", clean_streams},
            {"write_streams", "dispatch", write_streams},
            {"stream_order", "dispatch", stream_order}};
}

}  // namespace simt::calib
