// extended.cpp: the extended calibration set of issue 6 (calib/kernels/{loaded,contention,apps}.cu,
// results in calib/results/calib_h200_ext.csv, warp states in ncu_h200_ext_states.csv).
// Every twin runs the whole H200 (132 SMs) with the CUDA launch shape, since these kernels are
// about what SMs share: DRAM, the L2 and its atomic units. Rates come from two runs that differ
// only in the amount of work (loads per warp, keys, stores, bytes), so launch, ramp-up and tail
// cancel; kernel times (apps, reductions) are compared whole, launch overhead included as the
// CUDA events include it. Each run that has an ncu launch of the same shape also compares the
// warp states (cycles per issued instruction; the top state other than selected).
// Leaves out: the CUDA spans of 1-2 GiB (the twins stream 64-256 MB: one cold pass, the same
// per-byte cost), stride 2/4/16 writes, write4/copy1, the shared-memory histograms.
#include "sim/calibrate/comparisons.hpp"
#include "sim/calibrate/lifetimes.hpp"

#include <algorithm>

namespace simt::calib {

using simt::timing::Stats;

double delta(Context& c, Trace& t, const std::string& knob, uint64_t a, uint64_t b, Stats* s2, Uniforms extra) {
    extra.push_back(knob + "=" + std::to_string(a));
    Stats s1 = t.run(c.h200(), extra);
    extra.back() = knob + "=" + std::to_string(b);
    *s2 = t.run(c.h200(), extra);
    return double(s2->cycles) - double(s1.cycles);
}

namespace {

double clock_hz(const Context& c) { return c.h200().clock_mhz * 1e6; }
const double kThreads = 1056.0 * 256;  // the contention.cu launches: 8 blocks of 256 per SM

// ---- loaded latency: cycles per dependent load at W warps per SM, the median over warps of each
// warp's own rate (the CUDA kernel times every warp's loop with clock64()): per warp, the
// difference of its span between M = 16 and 48 steps (the launch is deterministic, so a warp
// id is the same warp in both runs), over 32.
double median_warp_step(Context& c, Trace& t, Stats* s2) {
    Lifetimes l1, l2;
    t.run(c.h200(), {"M=16"}, &l1);
    *s2 = t.run(c.h200(), {"M=48"}, &l2);
    const auto d1 = l1.duration_by_warp(), d2 = l2.duration_by_warp();
    std::vector<double> per;
    for (const auto& [id, d] : d2)
        if (auto it = d1.find(id); it != d1.end()) per.push_back((d - it->second) / 32);
    return Lifetimes::quantile(per, 0.5);
}

void chases(Context& c) {
    for (int f : {0, 16, 64}) {
        std::string k = "chase_f" + std::to_string(f);
        if (!c.wants(k)) continue;
        Trace t(c.trace(k));
        for (int w : {1, 16, 32, 64}) {
            set_launch(t, w == 64 ? 264 : 132, w == 64 ? 1024 : 32 * w);
            Stats s;
            const double d = median_warp_step(c, t, &s);
            c.add("loaded", k, "w" + std::to_string(w) + "_cycles_per_load_med", d, "cycles");
            compare_states(c, k + ".w" + std::to_string(w), s);
        }
    }
}

// ---- streaming reads against warps per SM
void streams(Context& c) {
    if (!c.wants("stream_read")) return;
    Trace t(c.trace("stream_read"));
    // The two launches differ by whole steps of the loop at every W (12 steps of 8 G floats at W = 64,
    // G = 132 x 64 / 8 x 256 threads; the other W's steps divide it), so both end with the same
    // remainder loop, whose loads wait one DRAM latency each, and their tails cancel. (8M and 16M
    // floats left W = 16 with 4 remainder loads against none: +22 % on one row, from the twin.) The
    // 104 MB between them make the rate the steady one: over 35 MB it moved by 5 % with a 24-cycle
    // shift of every warp's start, over 104 MB by 1 % (and within 2 % of 128 MB's).
    const uint64_t step64 = 8 * (132 * 64 / 8 * 256);  // floats
    const uint64_t n1 = 2 * step64, n2 = 14 * step64;    // 17 and 121 MB, the trace's buffer
    const uint64_t kGiBFloats = 1u << 28;
    for (int w : {4, 8, 16, 32, 64}) {
        set_launch(t, uint32_t(132 * w / 8), 256);
        Stats s;
        const double d = delta(c, t, "n", n1, n2, &s);
        // The CUDA times one launch over 1 GiB between two events: the second launch carried on to
        // 2^28 floats at the rate between the two, plus launch.kernel_launch_us (as gathers does).
        const double cycles = double(s.cycles) + double(kGiBFloats - n2) / double(n2 - n1) * d;
        const double gbps = double(kGiBFloats) * 4 / ((cycles / s.clock_mhz + s.kernel_launch_us) * 1e3);
        c.add("loaded", "stream_read", "w" + std::to_string(w) + "_GBps", gbps, "GB/s");
        compare_states(c, "stream_read.w" + std::to_string(w), s);
    }
}

// ---- strided writes: picoseconds per store
void writes(Context& c) {
    if (!c.wants("strided_write")) return;
    Trace t(c.trace("strided_write"));
    const uint64_t span = 33554432;  // floats, the trace's buffer
    for (int stride : {1, 8, 32}) {
        std::string st = "stride=" + std::to_string(stride);
        Stats s;
        uint64_t n1 = span / 2 / stride, n2 = span / stride;
        double d = delta(c, t, "n", n1, n2, &s, {st});
        double ps = d / double(n2 - n1) / clock_hz(c) * 1e12;
        c.add("stores", "strided_write", "stride" + std::to_string(stride) + "_ps_per_store", ps, "ps");
        compare_states(c, "strided_write.stride" + std::to_string(stride), s);
    }
}

// ---- gathers and scatters: sectors (or stores) per clock over the whole GPU, as the CUDA times them
void gathers(Context& c) {
    struct G {
        const char* kernel;
        const char* param;
    };
    const G gs[] = {{"gather_l2", "sectors_per_clk_gpu"}, {"gather_dram", "sectors_per_clk_gpu"},
                    {"scatter_l2", "stores_per_clk_gpu"}, {"scatter_dram", "stores_per_clk_gpu"}};
    for (const G& g : gs) {
        if (!c.wants(g.kernel)) continue;
        Trace t(c.trace(g.kernel));
        Stats s;
        const double d = delta(c, t, "K", 16, 32, &s);
        // The CUDA times K = 64 between two events: the launch, the ramp and the tail included
        // (K = 32's cycles plus 32 more steps, plus launch.kernel_launch_us).
        const double cycles64 = double(s.cycles) + 2 * d + s.kernel_launch_us * s.clock_mhz;
        c.add("stores", g.kernel, g.param, kThreads * 64 / cycles64, "1/clk");
        compare_states(c, g.kernel, s);
    }
}

// ---- atomics: lane operations per clock over the whole GPU
void atomics(Context& c) {
    struct A {
        const char* kernel;
        int mode, k1, k2;
        const char* also;  // the red.global twin of the same pattern, or null
    };
    const A as[] = {{"atom_same", 0, 2, 4, "red_same"}, {"atom_warp", 1, 8, 16, nullptr},
                    {"atom_line", 2, 32, 64, nullptr}, {"atom_spread", 3, 32, 64, "red_spread"}};
    Trace t(c.trace("atom_global"));
    for (const A& a : as) {
        if (!c.wants(a.kernel)) continue;
        Stats s;
        double d = delta(c, t, "K", uint64_t(a.k1), uint64_t(a.k2), &s, {"mode=" + std::to_string(a.mode)});
        double rate = kThreads * (a.k2 - a.k1) / d;
        c.add("atomics", a.kernel, "atomics_per_clk_gpu", rate, "1/clk");
        compare_states(c, a.kernel, s);
        if (a.also) c.add("atomics", a.also, "atomics_per_clk_gpu", rate, "1/clk");
    }
    Trace h(c.trace("hist_global"));
    const char* modes[] = {"uniform", "skewed", "8bins"};
    for (int m = 0; m < 3; ++m) {
        if (!c.wants(std::string("hist_global_") + modes[m])) continue;
        Stats s;
        const uint64_t n1 = 1u << 20, n2 = 2u << 20;  // keys: the rate is steady long before 16M
        double d = delta(c, h, "n", n1, n2, &s, {"mode=" + std::to_string(m)});
        std::string k = std::string("hist_global_") + modes[m];
        c.add("atomics", k, "ps_per_key", d / double(n2 - n1) / clock_hz(c) * 1e12, "ps");
        compare_states(c, k, s);
    }
    // hist_shared from its compiled SASS (ATOMS.POPC.INC, calib/sass/hist_shared.launch.isa): the whole
    // launch of 16M uniform keys, launch overhead included, per key as the CUDA event timed it.
    if (c.wants("hist_shared_uniform")) {
        Trace hs(c.root + "/calib/sass/hist_shared.launch.isa");
        const simt::timing::Stats s = hs.run(c.h200());
        const double us = double(s.cycles) / s.clock_mhz + s.kernel_launch_us;
        c.add("atomics", "hist_shared_uniform", "ps_per_key", us * 1e6 / 16777216.0, "ps");
        compare_states(c, "hist_shared_uniform", s);
    }
    Trace r(c.trace("block_reduce"));
    for (int per_sm : {8, 64}) {
        if (!c.wants("block_reduce")) break;
        set_launch(r, uint32_t(132 * per_sm), 256);
        Stats s = r.run(c.h200());
        c.add("atomics", "block_reduce", "b" + std::to_string(per_sm) + "_ms", s.time_us / 1000, "ms");
        compare_states(c, "block_reduce.b" + std::to_string(per_sm), s);
    }
}

// ---- transposes: GB/s read + written (4096^2 here, 8192^2 on the GPU)
void transposes(Context& c) {
    struct X {
        const char* trace;
        const char* kernel;
        Uniforms u;
    };
    const X xs[] = {{"transpose_naive", "transpose_naive", {}},
                    {"transpose_naive_rd", "transpose_naive_rd", {}},
                    {"transpose_tiled", "transpose_tiled", {"pitch=32"}},
                    {"transpose_tiled", "transpose_tiled_pad", {"pitch=33"}}};
    const double n = 4096;
    for (const X& x : xs) {
        if (!c.wants(x.kernel)) continue;
        Trace t(c.trace(x.trace));
        Stats s = t.run(c.h200(), x.u);
        double gbps = 2 * n * n * 4 / (double(s.cycles) / clock_hz(c)) / 1e9;
        c.add("stores", x.kernel, "GBps_read_plus_write", gbps, "GB/s");
        compare_states(c, x.kernel, s);
    }
}

std::string top_state(const std::map<std::string, double>& m) {
    std::string best;
    double v = -1;
    for (const auto& [k, x] : m)
        if (k != "selected" && x > v) v = x, best = k;
    return best;
}

}  // namespace

void read_ncu_states(Context& c, const std::string& path) {
    if (!std::filesystem::exists(path)) return;
    try {
        io::CSVReader<3, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>> csv(path);
        csv.read_header(io::ignore_extra_column, "label", "state", "cycles_per_issue");
        std::string label, state;
        double v = 0;
        while (csv.read_row(label, state, v)) c.ncu[label][state] = v;
    } catch (const io::error::base& e) {
        throw simt::Error({path, 0, 0}, std::string("malformed CSV: ") + e.what());
    }
}

void compare_states(Context& c, const std::string& label, const Stats& s) {
    auto it = c.ncu.find(label);
    if (it == c.ncu.end()) return;
    StateRow r;
    r.label = label;
    r.hw = it->second;
    for (int i = 0; i < simt::timing::kNumStallReasons; ++i)
        r.sim[simt::timing::stall_name(i)] = s.cycles_per_issue(simt::timing::StallReason(i));
    r.hw_top = top_state(r.hw);
    r.sim_top = top_state(r.sim);
    if (c.hw.has(label, "l1_hit_pct")) {  // calib/results/ncu_l1_hit_rates.csv (calib/ncu_summary.py --hits)
        r.hw_l1_hit = c.hw.get(label, "l1_hit_pct");
        r.sim_l1_hit = 100.0 * s.memory.l1_hit_rate();
    }
    std::fprintf(stderr, "  %-44s ncu top %-18s sim top %-18s %s\n", label.c_str(), r.hw_top.c_str(),
                 r.sim_top.c_str(), r.top_ok() ? "" : "(differs)");
    c.states.push_back(std::move(r));
}

std::vector<Group> extended_groups() {
    return {{"chases", "extended", chases},   {"streams", "extended", streams},
            {"writes", "extended", writes},   {"gathers", "extended", gathers},
            {"atomics", "extended", atomics}, {"transposes", "extended", transposes}};
}

}  // namespace simt::calib
