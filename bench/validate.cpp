// validate.cpp: how close simt-sim gets to real hardware. Runs every calibration trace
// (calib/traces/*.isa, each the ISA twin of a CUDA kernel of calib/kernels/) through the
// simulator library, derives the quantity the CUDA side reports (cycles per op, ops/clk/SM,
// IPC per scheduler, time ratios) and prints it next to the H200 measurement of
// calib/results/calib_h200.csv, plus the RTX 4060 seed (calib/traces/seed_stripes.isa).
//
//     validate [--root DIR] [--csv FILE] [--set key.path=value ...]
//
// Run from the repository root (or pass --root). The table is Markdown (calib/README.md,
// "Simulator vs hardware", quotes it); --csv writes it as CSV; --set overrides a value of both
// configs (what-if runs, e.g. --set pipes.branch.latency=10). Exit status 1 on an error
// (a missing CSV row, a trace that does not assemble), 0 otherwise: rows beyond tolerance
// are the documented gaps, not failures.
//
// Method: latency chains are timed at two iteration counts and differenced (entry and exit
// cancel, as with clock64() in the CUDA kernels); per-SM throughputs, IPC, divergence, trip
// counts, strides and occupancy run one SM's share of the CUDA launch on --set sm.count=1
// (memory-bound ones with one SM's share of DRAM bandwidth) and compare rates or ratios.
// Leaves out: what the ISA cannot mirror or the model does not time (precise sinf(),
// copy/read/memcpy bandwidth, launch overheads, the per-SM L2 spread, stride 64).
#include "isa/assembler.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/gpu.hpp"

#include <libfccp/csv.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

using simt::GpuConfig;
using Uniforms = std::vector<std::string>;

// ---------------------------------------------------------------- hardware numbers

// calib_h200.csv: kernel,parameter,value,unit,notes.
class HwTable {
public:
    explicit HwTable(const std::string& path) : path_(path) {
        if (!std::ifstream(path))
            throw simt::Error({path, 0, 0}, "cannot open the calibration results (run from the repository root or "
                                            "pass --root)");
        try {
            io::CSVReader<5, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>> csv(path);
            csv.read_header(io::ignore_extra_column, "kernel", "parameter", "value", "unit", "notes");
            std::string kernel, param, unit, notes;
            double value = 0;
            while (csv.read_row(kernel, param, value, unit, notes)) rows_[kernel + "," + param] = value;
        } catch (const io::error::base& e) {
            uint32_t line = 0;
            if (auto* l = dynamic_cast<const io::error::with_file_line*>(&e))
                line = l->file_line > 0 ? uint32_t(l->file_line) : 0;
            throw simt::Error({path, line, 0}, std::string("malformed CSV: ") + e.what());
        }
    }
    double get(const std::string& kernel, const std::string& param) const {
        auto it = rows_.find(kernel + "," + param);
        if (it == rows_.end()) throw simt::Error({path_, 0, 0}, "no row '" + kernel + "," + param + "'");
        return it->second;
    }

private:
    std::string path_;
    std::map<std::string, double> rows_;
};

// The RTX 4060 seed (/work/shared/seeds/000_*.txt, the chapter on warps and divergence):
// a 1024 x 1024 pass of 200 sines per pixel on each side of an if.
constexpr double kSeedUniformMs = 0.246, kSeedAlternatingMs = 0.479;
constexpr double kSeedVerticalWidth = 4, kSeedHorizontalWidth = 8;  // stripe widths at which the cost stops doubling

// ---------------------------------------------------------------- running traces

// An assembled trace and its memory image, run again under other uniforms or launches.
// Not movable: the memory image refers to the program.
struct Trace {
    explicit Trace(const std::string& path)
        : program(simt::isa::assemble_file(path)),
          memory(program, std::filesystem::path(path).parent_path().string()) {}
    Trace(const Trace&) = delete;
    Trace& operator=(const Trace&) = delete;

    simt::timing::Stats run(const GpuConfig& config, const Uniforms& uniforms = {}) {
        for (const auto& u : uniforms) simt::isa::override_uniform(program, u);
        simt::timing::Simulator sim(config, program, memory, {});
        return sim.run();
    }
    double cycles(const GpuConfig& config, const Uniforms& uniforms = {}) {
        return double(run(config, uniforms).cycles);
    }
    // Cycles per unit of work between two values of the uniform `counter`.
    double per_step(const GpuConfig& config, const std::string& counter, int n1, int n2, Uniforms extra = {}) {
        extra.push_back(counter + "=" + std::to_string(n1));
        double c1 = cycles(config, extra);
        extra.back() = counter + "=" + std::to_string(n2);
        double c2 = cycles(config, extra);
        return (c2 - c1) / double(n2 - n1);
    }

    simt::isa::Program program;
    simt::func::GlobalMemory memory;
};

struct Row {
    std::string group, name, unit;
    double hw = 0, sim = 0;
    double tol_pct = 5;
    double error_pct() const { return 100.0 * (sim - hw) / hw; }
    bool ok() const { return std::fabs(sim - hw) <= tol_pct / 100.0 * std::fabs(hw) + 1e-12; }
};

struct Context {
    std::string root;
    HwTable hw;
    GpuConfig h200, one_sm, one_sm_dram, rtx4060;
    std::vector<Row> rows;

    std::string trace(const std::string& name) const { return root + "/calib/traces/" + name + ".isa"; }
    void add(const std::string& group, const std::string& kernel, const std::string& param, double sim,
             const std::string& unit) {
        rows.push_back(Row{group, kernel + "." + param, unit, hw.get(kernel, param), sim});
        const Row& r = rows.back();
        std::fprintf(stderr, "  %-44s hw %10.4f  sim %10.4f  %+7.1f%%\n", r.name.c_str(), r.hw, r.sim, r.error_pct());
    }
};

GpuConfig load(const std::string& root, const std::string& file, Uniforms sets, const Uniforms& what_if) {
    sets.insert(sets.end(), what_if.begin(), what_if.end());
    return simt::load_config(root + "/configs/" + file, sets);
}

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
        // L2 rings: warmed over more lines than the kernel's 248 KB L1 holds (the CUDA kernel's
        // ld.cg bypasses L1), so the repeated walk misses L1.
        {"lat_l2_2MB", "latency_per_ptx_op", 16, 8, 40, 8192},
        {"lat_l2_16MB", "latency_per_ptx_op", 16, 8, 40, 8192},
        {"lat_l2_48MB", "latency_per_ptx_op", 16, 8, 40, 8192},
        {"lat_dram_128MB", "latency_per_ptx_op", 16, 8, 40, 0},
    };
    for (const Chain& ch : chains) {
        Trace t(c.trace(ch.kernel));
        Uniforms extra;
        if (ch.warm >= 0) extra.push_back("warm=" + std::to_string(ch.warm));
        double per_iter = t.per_step(c.h200, "iters", ch.n1, ch.n2, extra);
        c.add("latency", ch.kernel, ch.param, per_iter / ch.ops_per_iter, "cycles");
    }
}

// ---------------------------------------------------------------- 2. throughput per SM

void throughput(Context& c) {
    const char* kernels[] = {"thr_ffma", "thr_rsqrt", "thr_ex2", "thr_sin", "thr_dfma", "thr_imad", "thr_iadd_xor"};
    for (const char* k : kernels) {
        Trace t(c.trace(k));
        double cycles_per_iter = t.per_step(c.one_sm, "iters", 2, 10);
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
    double cycles_per_iter = t.per_step(c.one_sm, "iters", 2, 10);
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
        Trace t(c.trace(k.kernel));
        std::string L = "L=" + std::to_string(k.L);
        double base = 0.5 * (t.cycles(c.one_sm, {L, "shift=63"}) + t.cycles(c.one_sm, {L, "shift=31"}));
        for (int s = 0; s <= 5; ++s) {
            double ratio = t.cycles(c.one_sm, {L, "shift=" + std::to_string(s)}) / base;
            c.add("divergence", k.kernel, "L" + std::to_string(k.L) + "_" + variants[s] + "_ratio", ratio,
                  "x uniform");
        }
    }
}

void trip_counts(Context& c) {
    const char* modes[] = {"all32", "lane_plus_1", "all16", "32_minus_lane", "lane0_32_others_1", "random_1_32"};
    for (const char* k : {"trip_sin", "trip_ffma"}) {
        Trace t(c.trace(k));
        double base = t.cycles(c.one_sm, {"mode=0"});
        for (int m = 1; m < 6; ++m) {
            double ratio = t.cycles(c.one_sm, {"mode=" + std::to_string(m)}) / base;
            c.add("trip count", k, std::string(modes[m]) + "_ratio", ratio, "x all32");
        }
    }
}

// ---------------------------------------------------------------- 6, 7. memory

void strides(Context& c) {
    Trace t(c.trace("strided_read"));
    const uint32_t floats = 4194304;  // the trace's 16 MB buffer
    auto at = [&](int s) {
        return t.cycles(c.one_sm_dram, {"stride=" + std::to_string(s), "n=" + std::to_string(floats / s)});
    };
    double base = at(1);
    for (int s : {2, 4, 8, 16, 32})
        c.add("memory", "strided_read", "stride" + std::to_string(s) + "_time_vs_coalesced", at(s) / base,
              "x stride 1");
}

void occupancy(Context& c) {
    Trace t(c.trace("occupancy"));
    const char* kernels[] = {"occ_r16", "occ_r32", "occ_r48", "occ_r64", "occ_r80", "occ_r128", "occ_r255"};
    double base = 0;
    for (const char* k : kernels) {
        t.program.regs_per_thread = uint32_t(c.hw.get(k, "regs_per_thread"));
        double cycles = t.cycles(c.one_sm_dram);
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
        double cycles = t.cycles(c.rtx4060, vertical ? Uniforms{"sx=" + s, "sy=31"} : Uniforms{"sx=31", "sy=" + s});
        std::fprintf(stderr, "  seed %s stripes %2d px: %.3f x uniform\n", vertical ? "vertical" : "horizontal",
                     1 << k, cycles / uniform);
        if (cycles / uniform < 1.5) return double(1 << k);
    }
    return 32;
}

void seed(Context& c) {
    Trace t(c.root + "/calib/traces/seed_stripes.isa");
    auto add = [&](const std::string& name, double hw, double sim, const std::string& unit, double tol) {
        c.rows.push_back(Row{"seed rtx4060", "seed_stripes." + name, unit, hw, sim, tol});
        std::fprintf(stderr, "  %-44s hw %10.4f  sim %10.4f\n", name.c_str(), hw, sim);
    };
    add("uniform_ms", kSeedUniformMs, t.run(c.rtx4060, {"sx=31", "sy=31"}).time_us / 1000, "ms", 5);
    add("alternating_ms", kSeedAlternatingMs, t.run(c.rtx4060, {"sx=0", "sy=0"}).time_us / 1000, "ms", 5);
    t.program.launch.width = 512;
    t.program.launch.height = 144;
    double uniform = t.cycles(c.rtx4060, {"sx=31", "sy=31"});
    add("vertical_stripe_px_at_1x", kSeedVerticalWidth, stripe_width(c, t, true, uniform), "px", 0);
    add("horizontal_stripe_px_at_1x", kSeedHorizontalWidth, stripe_width(c, t, false, uniform), "px", 0);
}

// ---------------------------------------------------------------- output

void print_table(const std::vector<Row>& rows) {
    std::printf("| group | case | hardware | simulator | unit | error | status |\n");
    std::printf("|---|---|---:|---:|---|---:|---|\n");
    int ok = 0;
    for (const Row& r : rows) {
        ok += r.ok();
        std::string status = r.ok() ? "ok" : "gap (> " + std::to_string(int(r.tol_pct)) + "%)";
        std::printf("| %s | %s | %.4g | %.4g | %s | %+.1f%% | %s |\n", r.group.c_str(), r.name.c_str(), r.hw, r.sim,
                    r.unit.c_str(), r.error_pct(), status.c_str());
    }
    std::printf("\n%d of %zu within tolerance (5%%; stripe widths exact).\n", ok, rows.size());
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
    std::ofstream out(path);
    if (!out) throw simt::Error({path, 0, 0}, "cannot open for writing");
    out << "group,case,hardware,simulator,unit,error_pct,tolerance_pct,status\n";
    for (const Row& r : rows)
        out << r.group << ',' << r.name << ',' << r.hw << ',' << r.sim << ',' << r.unit << ',' << r.error_pct() << ','
            << r.tol_pct << ',' << (r.ok() ? "ok" : "gap") << '\n';
}

int run(const std::string& root, const std::string& csv, const Uniforms& what_if) {
    // One SM's share of the H200's memory side (configs/h200.yaml): of the 4800 GB/s, as one DRAM
    // channel, and of the 96 L2 slices' throughput (1 sector per cycle each), as one slice.
    const Uniforms mem_share = {"sm.count=1", "memory.dram_bandwidth_gbs=" + std::to_string(4800.0 / 132),
                                "memory.dram.channels=1", "memory.l2_slices.count=1",
                                "memory.l2_slices.sectors_per_cycle=" + std::to_string(96.0 / 132)};
    Context c{root,
              HwTable(root + "/calib/results/calib_h200.csv"),
              load(root, "h200.yaml", {}, what_if),
              load(root, "h200.yaml", {"sm.count=1"}, what_if),
              load(root, "h200.yaml", mem_share, what_if),
              load(root, "rtx4060.yaml", {}, what_if),
              {}};
    void (*groups[])(Context&) = {latency, throughput, ipc, divergence, trip_counts, strides, occupancy, seed};
    for (auto g : groups) g(c);
    print_table(c.rows);
    if (!csv.empty()) write_csv(csv, c.rows);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string root = ".", csv;
    Uniforms what_if;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--root") == 0 && i + 1 < argc) root = argv[++i];
        else if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) csv = argv[++i];
        else if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) what_if.push_back(argv[++i]);
        else {
            std::fprintf(stderr, "usage: validate [--root DIR] [--csv FILE] [--set key.path=value ...]\n");
            return 1;
        }
    }
    try {
        return run(root, csv, what_if);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "validate: %s\n", e.what());
        return 1;
    }
}
