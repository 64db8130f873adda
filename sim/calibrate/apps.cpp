// apps.cpp: the app-like kernels, local memory and warp-order / warp-release experiments of the
// extended set (calib/kernels/apps.cu and contention.cu's local-memory kernels; results in
// calib_h200_ext.csv). Kernel times are compared whole (the CUDA event time includes the launch,
// as the simulator's time does with launch.kernel_launch_us); twins whose trace samples the grid
// for quick runs are run here on the CUDA launch's whole grid (the distributor's ramp and the tail
// do not scale with a sample).
// Per-warp distributions come from an observer of warp dispatch and retire (the CUDA kernels read
// clock64() at the start and end of each warp's work: the same span up to a few cycles).
#include "sim/calibrate/comparisons.hpp"
#include "sim/calibrate/lifetimes.hpp"

#include <algorithm>

namespace simt::calib {
namespace {

using simt::timing::Stats;
using simt::timing::WarpId;

// Kernel time in µs of a twin that runs 1/fraction of the CUDA grid.
double scaled_us(const Stats& s, double fraction) {
    return double(s.cycles) / s.clock_mhz * fraction + s.kernel_launch_us;
}

// A twin run on the CUDA launch's whole grid (`grid` replaces the trace's, whose default is a
// sample for quick runs): the block distributor's ramp and the slowest warps' tail are part of
// the kernel time, so a sample scaled up would not be.
void app_time(Context& c, const char* kernel, const char* param, simt::isa::Dim3 grid, Uniforms u = {},
              double to_unit = 1.0) {
    if (!c.wants(kernel)) return;
    Trace t(c.trace(kernel));
    t.program.launch.grid = grid;
    Stats s = t.run(c.h200(), u);
    c.add("apps", kernel, param, scaled_us(s, 1) * to_unit, to_unit == 1.0 ? "us" : "ms");
    compare_states(c, kernel, s);
}

// sgemm_tile runs a quarter of the CUDA grid (one wave) over K = 128 and 256 of the 1024 k-steps:
// the full K is the first plus 7 times the difference, and the CUDA grid is 4 such waves.
void sgemm(Context& c) {
    if (!c.wants("sgemm_tile")) return;
    Trace t(c.trace("sgemm_tile"));
    Stats s1 = t.run(c.h200(), {"K=128"});
    Stats s2 = t.run(c.h200(), {"K=256"});
    double cycles = (double(s1.cycles) + 7 * (double(s2.cycles) - double(s1.cycles))) * 4;
    c.add("apps", "sgemm_tile", "us", cycles / s2.clock_mhz + s2.kernel_launch_us, "us");
    compare_states(c, "sgemm_tile", s2);
}

void apps(Context& c) {
    app_time(c, "saxpy", "us", {65536, 1, 1});
    app_time(c, "stencil5", "us", {128, 512, 1});   // the whole 4096 x 4096 image, as the trace
    app_time(c, "scan_block", "us", {16384, 1, 1}); // the trace samples 1024 of the 16384 blocks
    app_time(c, "bitonic_step", "us", {65536, 1, 1});
    sgemm(c);
}

// Per-warp duration quantiles of a run (rows <prefix>dur_med / dur_p90 in cycles).
void warp_rows(Context& c, const char* kernel, const std::string& prefix, const Lifetimes& l) {
    auto d = l.durations();
    c.add("warps", kernel, prefix + "dur_med", Lifetimes::quantile(d, 0.5), "cycles");
    c.add("warps", kernel, prefix + "dur_p90", Lifetimes::quantile(d, 0.9), "cycles");
}

// The rest of the per-warp distribution: the shortest tenth and the longest warp (dur_p10 / dur_max,
// how the schedulers share the slots among warps of unequal length) and the end times after the
// first start on the warp's SM (the CUDA's clock64 is per SM: end_med / end_p90 / end_max, where in
// the launch the warps finish: the tail). Only for a twin that runs its kernel's whole grid.
void spread_rows(Context& c, const char* kernel, const std::string& prefix, const Lifetimes& l) {
    auto d = l.durations();
    c.add("warps", kernel, prefix + "dur_p10", Lifetimes::quantile(d, 0.1), "cycles");
    c.add("warps", kernel, prefix + "dur_max", Lifetimes::quantile(d, 1.0), "cycles");
    std::vector<double> e;
    for (const auto& [sm, v] : l.ends_by_sm())
        for (const auto& w : v) e.push_back(w.second);
    c.add("warps", kernel, prefix + "end_med", Lifetimes::quantile(e, 0.5), "cycles");
    c.add("warps", kernel, prefix + "end_p90", Lifetimes::quantile(e, 0.9), "cycles");
    c.add("warps", kernel, prefix + "end_max", Lifetimes::quantile(e, 1.0), "cycles");
}

void divergent_apps(Context& c) {
    // raymarch runs the whole image (the trace samples every 4th row of tiles: ystep); spmv runs
    // 1/8 of the rows, but its time is its slowest warps' (rows of up to 4096 entries): as is.
    const char* ks[] = {"raymarch", "spmv_powerlaw"};
    for (const char* k : ks) {
        if (!c.wants(k)) continue;
        Trace t(c.trace(k));
        Uniforms u;
        if (std::string(k) == "raymarch") {
            t.program.launch.grid = {128, 256, 1};
            u = {"ystep=1"};
        }
        Lifetimes l;
        Stats s = t.run(c.h200(), u, &l);
        c.add("apps", k, "us", scaled_us(s, 1), "us");
        warp_rows(c, k, "warp_", l);
        if (std::string(k) == "raymarch") spread_rows(c, k, "warp_", l);
        compare_states(c, k, s);
    }
}

// Warp order: one SM's share (the CUDA kernels give every SM the same blocks).
void order(Context& c) {
    for (const char* k : {"order_ffma", "order_dep", "order_mix"}) {
        if (!c.wants(k)) continue;
        Trace t(c.trace(k));
        Lifetimes l;
        Stats s = t.run(c.one_sm(), {}, &l);
        std::vector<double> ratio;
        for (const auto& [sm, v] : l.ends_by_sm()) {
            size_t q = v.size() / 4;
            if (q == 0) continue;
            double lo = 0, hi = 0;
            for (size_t i = 0; i < q; ++i) lo += v[i].second, hi += v[v.size() - 1 - i].second;
            ratio.push_back(lo / hi);
        }
        c.add("warps", k, "end_oldq_over_youngq", Lifetimes::quantile(ratio, 0.5), "x");
        c.add("warps", k, "end_max_over_min", Lifetimes::quantile(l.end_spread_by_sm(), 0.5), "x");
        warp_rows(c, k, "", l);
        compare_states(c, k, s);
    }
    if (!c.wants("release_test")) return;
    Trace t(c.trace("release_test"));
    Lifetimes l;
    Stats s = t.run(c.one_sm(), {}, &l);
    c.add("warps", "release_test", "max_blocks_per_sm", l.max_blocks_per_sm(), "blocks");
    compare_states(c, "release_test", s);
}

// local_spill: picoseconds per thread step from K = 32 and 64 steps; recurse: the CUDA's 16 calls
// from 2 and 4 (the first plus 7 times the difference).
void local_memory(Context& c) {
    if (c.wants("local_spill")) {
        Trace t(c.trace("local_spill"));
        Stats s1 = t.run(c.h200(), {"K=32"});
        Stats s2 = t.run(c.h200(), {"K=64"});
        double ps = (double(s2.cycles) - double(s1.cycles)) / s2.clock_mhz * 1e6 / (1056.0 * 256 * 32);
        c.add("apps", "local_spill", "ps_per_step", ps, "ps");
        compare_states(c, "local_spill", s2);
    }
    if (!c.wants("recurse")) return;
    Trace t(c.trace("recurse"));
    for (int depth : {8, 32}) {
        std::string d = "depth=" + std::to_string(depth);
        Stats s1 = t.run(c.h200(), {d, "K=2"});
        Stats s2 = t.run(c.h200(), {d, "K=4"});
        double cycles = double(s1.cycles) + 7 * (double(s2.cycles) - double(s1.cycles));
        c.add("apps", "recurse", "d" + std::to_string(depth) + "_ms", (cycles / s2.clock_mhz + s2.kernel_launch_us) / 1000,
              "ms");
        compare_states(c, "recurse.d" + std::to_string(depth), s2);
    }
}

// Blocks that come and go (calib/kernels/turnover.cu, measured on the H200 and an H100 alike): the
// whole grid of the CUDA's 6 waves on the whole GPU (the distributor is shared). Per warp the cycles
// per iteration of its chains (between the twin's two %clock64 reads, where the CUDA's are, over
// len), their quantiles, the median over SMs of each SM's last
// end after its first start, and the median of the warps in slots 0-15 over those in 16-31.
// Iterations of turnover.cu's block b (its block_len).
uint32_t turnover_len(uint32_t b) { return 4u + ((b * 40503u) >> 4) % 125u; }

void turnover(Context& c) {
    struct Mix {
        const char* name;
        int ilp;
        uint32_t blocks_per_sm, block, shared;
    };
    const Mix mixes[] = {{"dep_1w", 1, 32, 32, 0},
                         {"ilp4_1w", 4, 32, 32, 0},
                         {"dep_4w", 1, 8, 128, 0},
                         {"dep_1w_half", 1, 16, 32, 13568}};  // 16 blocks per SM, as the CUDA's shared memory
    for (const Mix& m : mixes) {
        const std::string k = std::string("turnover_") + m.name;
        if (!c.wants(k)) continue;
        Trace t(c.trace("turnover"));
        set_launch(t, m.blocks_per_sm * c.h200().sm.count * 6, m.block);
        t.program.shared_bytes = m.shared;
        Lifetimes l(t.program);  // the twin reads %clock64 where the CUDA does
        const Stats s = t.run(c.h200(), {"ilp=" + std::to_string(m.ilp)}, &l);
        std::vector<double> per, lo, hi;
        const uint32_t warps_per_block = m.block / 32;
        for (const auto& [id, w] : l.warps()) {
            const uint32_t b = uint32_t(id / warps_per_block);
            const double cyc = double(w.end() - w.begin()) / double(turnover_len(b));
            per.push_back(cyc);
            (w.slot < 16 ? lo : hi).push_back(cyc);
        }
        std::vector<double> ends;  // each SM's last end after its first begin
        for (const auto& [sm, v] : l.ends_by_sm()) {
            double last = 0;
            for (const auto& e : v) last = std::max(last, e.second);
            ends.push_back(last);
        }
        c.add("warps", k, "iter_cycles_p10", Lifetimes::quantile(per, 0.1), "cycles");
        c.add("warps", k, "iter_cycles_med", Lifetimes::quantile(per, 0.5), "cycles");
        c.add("warps", k, "iter_cycles_p90", Lifetimes::quantile(per, 0.9), "cycles");
        c.add("warps", k, "iter_cycles_max", Lifetimes::quantile(per, 1.0), "cycles");
        c.add("warps", k, "end_max_med_over_sms", Lifetimes::quantile(ends, 0.5), "cycles");
        compare_states(c, k, s);
        if (!lo.empty() && !hi.empty())
            c.add("warps", k, "low_slots_over_high", Lifetimes::quantile(lo, 0.5) / Lifetimes::quantile(hi, 0.5), "x");
    }
}

}  // namespace

std::vector<Group> app_groups() {
    return {{"apps", "apps", apps},
            {"divergent_apps", "apps", divergent_apps},
            {"order", "apps", order},
            {"turnover", "apps", turnover},
            {"local_memory", "apps", local_memory}};
}

}  // namespace simt::calib
