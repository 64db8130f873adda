// base.cpp: the first calibration set's comparisons (calib/kernels/{latency,throughput,divergence,
// memory,occupancy}.cu and the RTX 4060 seed): latency chains, per-SM throughput, IPC per
// scheduler, divergence and trip counts, strided reads, occupancy, the seed's stripes.
#include "sim/calibrate/comparisons.hpp"

namespace simt::calib {
namespace {

// The RTX 4060 seed (../shared/seeds/000_*.txt, the chapter on warps and divergence):
// a 1024 x 1024 pass of 200 sines per pixel on each side of an if.
constexpr double kSeedUniformMs = 0.246, kSeedAlternatingMs = 0.479;
constexpr double kSeedVerticalWidth = 4, kSeedHorizontalWidth = 8;  // stripe widths at which the cost stops doubling

// ---------------------------------------------------------------- 1. latency chains

struct Chain {
    const char* kernel;
    const char* param;
    int ops_per_iter, n1, n2;
    int warm;  // global chases: --uniform warm (-1: not a chase)
};

void latency(Context& c) {
    const Chain chains[] = {
        {"lat_ffma", "latency_per_ptx_op", 64, 16, 80, -1}, {"lat_fadd", "latency_per_ptx_op", 64, 16, 80, -1},
        {"lat_fmul", "latency_per_ptx_op", 64, 16, 80, -1}, {"lat_imad", "latency_per_ptx_op", 64, 16, 80, -1},
        {"lat_iadd", "latency_per_sass_IADD3", 32, 16, 80, -1}, {"lat_rsqrt", "latency_per_ptx_op", 64, 8, 40, -1},
        {"lat_ex2", "latency_per_ptx_op", 64, 8, 40, -1},    {"lat_sin", "latency_per_ptx_op", 64, 8, 40, -1},
        {"lat_rcp", "latency_per_ptx_op", 32, 8, 40, -1},    {"lat_dfma", "latency_per_ptx_op", 64, 8, 40, -1},
        {"lat_udiv", "latency_per_ptx_op", 16, 4, 20, -1},   {"lat_sdiv", "latency_per_ptx_op", 16, 4, 20, -1},
        {"lat_umod", "latency_per_ptx_op", 16, 4, 20, -1},
        {"lat_udiv_offchain", "latency_per_ptx_op", 16, 4, 20, -1},
        {"lat_shfl", "latency_per_ptx_op", 64, 8, 40, -1},   {"lat_lds", "latency_per_ptx_op", 16, 16, 80, -1},
        {"lat_l1_16KB", "latency_per_ptx_op", 16, 16, 80, 80 * 16},
        {"lat_l1_128KB", "latency_per_ptx_op", 16, 16, 80, 80 * 16},
        {"lat_l2_2MB", "latency_per_ptx_op", 16, 8, 40, 40 * 16},
        {"lat_l2_16MB", "latency_per_ptx_op", 16, 8, 40, 40 * 16},
        {"lat_l2_48MB", "latency_per_ptx_op", 16, 8, 40, 40 * 16},
        {"lat_dram_128MB", "latency_per_ptx_op", 16, 8, 40, 0},
    };
    for (const Chain& ch : chains) {
        if (!c.wants(ch.kernel)) continue;
        Trace t(c.trace(ch.kernel));
        Uniforms extra;
        if (ch.warm >= 0) extra.push_back("warm=" + std::to_string(ch.warm));
        double per_iter = t.per_step(c.h200(), "iters", ch.n1, ch.n2, extra);
        c.add("latency", ch.kernel, ch.param, per_iter / ch.ops_per_iter, "cycles");
    }
}

// ---------------------------------------------------------------- 2. throughput per SM

void throughput(Context& c) {
    const char* kernels[] = {"thr_ffma", "thr_rsqrt", "thr_ex2", "thr_sin", "thr_dfma", "thr_imad", "thr_iadd_xor"};
    for (const char* k : kernels) {
        if (!c.wants(k)) continue;
        Trace t(c.trace(k));
        double cycles_per_iter = t.per_step(c.one_sm(), "iters", 2, 10);
        c.add("throughput", k, "thread_ops_per_clk_per_sm", 64.0 * 1024 / cycles_per_iter, "ops/clk/SM");
    }
}

// ---------------------------------------------------------------- 3. IPC per scheduler

// warp-FFMA per clock per SMSP with w warps per scheduler (the CUDA launch: one block of
// 128 w threads, or two of 64 w for w > 8).
double ffma_ipc(Context& c, Trace& t, int w) {
    uint32_t blocks = w > 8 ? 2 : 1;
    t.program.launch.grid = {blocks, 1, 1};
    t.program.launch.block = {uint32_t(128 * w) / blocks, 1, 1};
    double cycles_per_iter = t.per_step(c.one_sm(), "iters", 2, 10);
    return 256.0 * 4 * w / cycles_per_iter / 4;
}

void ipc(Context& c) {
    struct K {
        const char* kernel;
        std::vector<int> ws;
    };
    const K ks[] = {{"ipc_dep3", {1, 2, 4, 6, 8, 12, 16}}, {"ipc_dep1v", {1, 2, 4, 6, 8, 12, 16}},
                    {"ipc_dep1", {1, 4, 16}},             {"ipc_ind4", {1, 4, 16}},
                    {"ipc_ind4v", {1, 4, 16}}};
    for (const K& k : ks) {
        if (!c.wants(k.kernel)) continue;
        Trace t(c.trace(k.kernel));
        for (int w : k.ws)
            c.add("ipc", k.kernel, "ffma_ipc_per_smsp_w" + std::to_string(w), ffma_ipc(c, t, w), "warp-FFMA/clk/SMSP");
    }
}

// ---------------------------------------------------------------- 4, 5. divergence, trip counts

void divergence(Context& c) {
    struct K {
        const char* kernel;
        int L;
    };
    const K ks[] = {{"div_sin", 64}, {"div_sin", 256}, {"div_ffma", 64}, {"div_ffma", 256}};
    const char* variants[] = {"checker", "stripe2", "stripe4", "stripe8", "stripe16", "stripe32"};
    for (const K& k : ks) {
        if (!c.wants(k.kernel)) continue;
        Trace t(c.trace(k.kernel));
        std::string L = "L=" + std::to_string(k.L);
        double base = 0.5 * (t.cycles(c.one_sm(), {L, "shift=63"}) + t.cycles(c.one_sm(), {L, "shift=31"}));
        for (int s = 0; s <= 5; ++s) {
            double ratio = t.cycles(c.one_sm(), {L, "shift=" + std::to_string(s)}) / base;
            c.add("divergence", k.kernel, "L" + std::to_string(k.L) + "_" + variants[s] + "_ratio", ratio,
                  "x uniform");
        }
    }
}

void trip_counts(Context& c) {
    const char* modes[] = {"all32", "lane_plus_1", "all16", "32_minus_lane", "lane0_32_others_1", "random_1_32"};
    for (const char* k : {"trip_sin", "trip_ffma"}) {
        if (!c.wants(k)) continue;
        Trace t(c.trace(k));
        double base = t.cycles(c.one_sm(), {"mode=0"});
        for (int m = 1; m < 6; ++m) {
            double ratio = t.cycles(c.one_sm(), {"mode=" + std::to_string(m)}) / base;
            c.add("trip count", k, std::string(modes[m]) + "_ratio", ratio, "x all32");
        }
    }
}

// ---------------------------------------------------------------- 6, 7. memory

void strides(Context& c) {
    if (!c.wants("strided_read")) return;
    Trace t(c.trace("strided_read"));
    const uint32_t floats = 4194304;  // the trace's 16 MB buffer
    auto at = [&](int s) {
        return t.cycles(c.one_sm_dram(), {"stride=" + std::to_string(s), "n=" + std::to_string(floats / s)});
    };
    double base = at(1);
    for (int s : {2, 4, 8, 16, 32})
        c.add("memory", "strided_read", "stride" + std::to_string(s) + "_time_vs_coalesced", at(s) / base,
              "x stride 1");
}

void occupancy(Context& c) {
    if (!c.wants("occ_r16")) return;
    Trace t(c.trace("occupancy"));
    const char* kernels[] = {"occ_r16", "occ_r32", "occ_r48", "occ_r64", "occ_r80", "occ_r128", "occ_r255"};
    double base = 0;
    for (const char* k : kernels) {
        if (!c.hw.has(k, "regs_per_thread")) continue;
        t.program.regs_per_thread = uint32_t(c.hw.get(k, "regs_per_thread"));
        double cycles = t.cycles(c.one_sm_dram());
        if (base == 0) base = cycles;
        else c.add("occupancy", k, "time_vs_max_occupancy", cycles / base, "x 64 warps");
    }
}

// ---------------------------------------------------------------- the RTX 4060 seed

// Stripe width 2^k (k = 0..4) at which a stripe pattern stops costing about twice the
// uniform pass, on a 512 x 144 pass (two full waves of fragment warps on the RTX 4060).
double stripe_width(Context& c, Trace& t, bool vertical, double uniform) {
    for (int k = 0; k <= 4; ++k) {
        std::string s = std::to_string(k);
        double cycles = t.cycles(*c.cfg.seed, vertical ? Uniforms{"sx=" + s, "sy=31"} : Uniforms{"sx=31", "sy=" + s});
        std::fprintf(stderr, "  seed %s stripes %2d px: %.3f x uniform\n", vertical ? "vertical" : "horizontal",
                     1 << k, cycles / uniform);
        if (cycles / uniform < 1.5) return double(1 << k);
    }
    return 32;
}

void seed(Context& c) {
    if (!c.cfg.seed || !c.gate("seed_stripes")) return;
    Trace t(c.root + "/calib/traces/seed_stripes.isa");
    auto add = [&](const std::string& name, double hw, double sim, const std::string& unit, double tol) {
        c.rows.push_back(Row{"seed rtx4060", "seed_stripes." + name, unit, hw, sim, tol});
        std::fprintf(stderr, "  %-44s hw %10.4f  sim %10.4f\n", name.c_str(), hw, sim);
    };
    add("uniform_ms", kSeedUniformMs, t.run(*c.cfg.seed, {"sx=31", "sy=31"}).time_us / 1000, "ms", 5);
    add("alternating_ms", kSeedAlternatingMs, t.run(*c.cfg.seed, {"sx=0", "sy=0"}).time_us / 1000, "ms", 5);
    t.program.launch.width = 512;
    t.program.launch.height = 144;
    double uniform = t.cycles(*c.cfg.seed, {"sx=31", "sy=31"});
    add("vertical_stripe_px_at_1x", kSeedVerticalWidth, stripe_width(c, t, true, uniform), "px", 0);
    add("horizontal_stripe_px_at_1x", kSeedHorizontalWidth, stripe_width(c, t, false, uniform), "px", 0);
}

}  // namespace

std::vector<Group> base_groups() {
    return {{"latency", "base", latency},       {"throughput", "base", throughput}, {"ipc", "base", ipc},
            {"divergence", "base", divergence}, {"trip_counts", "base", trip_counts}, {"strides", "base", strides},
            {"occupancy", "base", occupancy},   {"seed", "base", seed}};
}

}  // namespace simt::calib
