// validate.cpp: how close simt-sim gets to real hardware. Runs every calibration trace
// (calib/traces/*.isa, each the ISA twin of a CUDA kernel of calib/kernels/) through the
// simulator library, derives the quantity the CUDA side reports (cycles per op, ops/clk/SM,
// IPC per scheduler, time ratios) and prints it next to the H200 measurement of
// calib/results/calib_h200.csv, plus the RTX 4060 seed (calib/traces/seed_stripes.isa), and the
// extended set of issue 6 (calib_h200_ext.csv: loaded latency, streams, stores, atomics,
// transposes, app-like kernels) with Nsight Compute's warp states per kernel. The groups are in
// sim/calibrate/ (base.cpp, extended.cpp, apps.cpp); --only runs a set (base, extended, apps) or
// a group (latency, ipc, atomics, ...: sim/calibrate/*.cpp), and may be given more than once.
//
//     validate [--root DIR] [--config FILE.yaml] [--measured FILE.csv ...] [--csv OUT] [--plot OUT.png]
//              [--only SET|GROUP ...] [--set key.path=value ...] [--sass]
//
// --sass runs every kernel that has a launch file of its compiled SASS (calib/sass/KERNEL.launch.isa,
// the import of isa/sass/) a second time from that, in place of its hand twin, and prints both
// errors side by side (calib/README.md, "Hand twin or the compiled kernel").
//
// --config and --measured check any config against any calibration run (default: configs/h200.yaml
// and the committed H200 results, plus the RTX 4060 seed); comparisons whose rows the CSV lacks
// are listed, not run. --plot draws the simulated-vs-measured scatter (tools/plot_validation.py).
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
#include "sim/calibrate/comparisons.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace simt::calib {
namespace {

// ---------------------------------------------------------------- output

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5))];
}

void print_table(const std::vector<Row>& rows) {
    std::printf("| group | case | hardware | simulator | unit | error | status |\n");
    std::printf("|---|---|---:|---:|---|---:|---|\n");
    int ok = 0;
    std::vector<double> err;
    for (const Row& r : rows) {
        ok += r.ok();
        if (r.tol_pct > 0) err.push_back(std::fabs(r.error_pct()));
        std::string status = r.ok() ? "ok" : "gap (> " + std::to_string(int(r.tol_pct)) + "%)";
        std::printf("| %s | %s | %.4g | %.4g | %s | %+.1f%% | %s |\n", r.group.c_str(), r.name.c_str(), r.hw, r.sim,
                    r.unit.c_str(), r.error_pct(), status.c_str());
    }
    std::printf("\n%d of %zu within tolerance (5%%; stripe widths exact). |error|: median %.1f%%, P90 %.1f%%, "
                "max %.1f%%.\n", ok, rows.size(), quantile(err, 0.5), quantile(err, 0.9), quantile(err, 1.0));
}

// --sass: each row beside the same row run from the imported SASS of its kernel (calib/sass/*.launch.isa)
// where one exists; the summary compares the two on the rows that have both.
void print_side_by_side(const std::vector<Row>& twins, const std::vector<Row>& imported) {
    std::printf("| group | case | hardware | hand twin | error | imported SASS | error |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|\n");
    std::vector<double> et, es;
    int ok_t = 0, ok_s = 0;
    for (size_t i = 0; i < twins.size() && i < imported.size(); ++i) {
        const Row& t = twins[i];
        const Row& s = imported[i];
        std::printf("| %s | %s | %.4g | %.4g | %+.1f%% |", t.group.c_str(), t.name.c_str(), t.hw, t.sim, t.error_pct());
        if (!s.imported || s.name != t.name) {
            std::printf(" (twin) | |\n");
            continue;
        }
        std::printf(" %.4g | %+.1f%% |\n", s.sim, s.error_pct());
        et.push_back(std::fabs(t.error_pct()));
        es.push_back(std::fabs(s.error_pct()));
        ok_t += t.ok();
        ok_s += s.ok();
    }
    std::printf("\n%zu rows run from an imported kernel. Within tolerance: hand twin %d, imported SASS %d. "
                "|error|: median %.1f%% / %.1f%%, P90 %.1f%% / %.1f%%, max %.1f%% / %.1f%% (twin / SASS).\n",
                es.size(), ok_t, ok_s, quantile(et, 0.5), quantile(es, 0.5), quantile(et, 0.9), quantile(es, 0.9),
                quantile(et, 1.0), quantile(es, 1.0));
}

// The L1 hit rates (loads' and stores' sector look-ups) beside Nsight Compute's, in percentage points.
void print_l1_hits(const std::vector<StateRow>& states) {
    std::vector<double> diff;
    std::string table;
    for (const StateRow& s : states) {
        if (s.hw_l1_hit < 0) continue;
        diff.push_back(std::fabs(s.sim_l1_hit - s.hw_l1_hit));
        char buf[256];
        std::snprintf(buf, sizeof buf, "| %s | %.1f | %.1f | %+.1f |\n", s.label.c_str(), s.hw_l1_hit, s.sim_l1_hit,
                      s.sim_l1_hit - s.hw_l1_hit);
        table += buf;
    }
    if (diff.empty()) return;
    std::printf("\n| kernel | ncu L1 hit %% | simulator L1 hit %% | points |\n|---|---:|---:|---:|\n%s", table.c_str());
    const size_t within = size_t(std::count_if(diff.begin(), diff.end(), [](double d) { return d <= 5.0; }));
    std::printf("\nL1 hit rate within 5 points of ncu's on %zu of %zu kernels; |difference| median %.1f, max %.1f points.\n",
                within, diff.size(), quantile(diff, 0.5), quantile(diff, 1.0));
}

void print_states(const std::vector<StateRow>& states) {
    if (states.empty()) return;
    std::printf("\n| kernel | ncu top state | simulator top state | match | ncu / sim cycles per issue (top 3 of ncu) |\n");
    std::printf("|---|---|---|---|---|\n");
    int ok = 0;
    for (const StateRow& s : states) {
        ok += s.top_ok();
        std::vector<std::pair<double, std::string>> top;
        for (const auto& [k, v] : s.hw)
            if (k != "selected") top.push_back({v, k});
        std::sort(top.rbegin(), top.rend());
        std::string detail;
        for (size_t i = 0; i < top.size() && i < 3; ++i) {
            char buf[128];
            auto it = s.sim.find(top[i].second);
            std::snprintf(buf, sizeof buf, "%s%s %.1f / %.1f", i ? "; " : "", top[i].second.c_str(), top[i].first,
                          it == s.sim.end() ? 0.0 : it->second);
            detail += buf;
        }
        std::printf("| %s | %s | %s | %s | %s |\n", s.label.c_str(), s.hw_top.c_str(), s.sim_top.c_str(),
                    s.top_ok() ? "yes" : "no", detail.c_str());
    }
    std::printf("\nTop warp state (other than selected) as ncu's on %d of %zu kernels.\n", ok, states.size());
    print_l1_hits(states);
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
    std::ofstream out(path);
    if (!out) throw simt::Error({path, 0, 0}, "cannot open for writing");
    out << "group,case,hardware,simulator,unit,error_pct,tolerance_pct,status\n";
    for (const Row& r : rows)
        out << r.group << ',' << r.name << ',' << r.hw << ',' << r.sim << ',' << r.unit << ',' << r.error_pct() << ','
            << r.tol_pct << ',' << (r.ok() ? "ok" : "gap") << '\n';
}

// The scatter plot (tools/plot_validation.py, matplotlib) of the rows, through their CSV.
int plot(const std::string& root, const std::string& csv, const std::string& png, const std::vector<Row>& rows,
         bool write) {
    if (write) write_csv(csv, rows);
    auto quote = [](const std::string& s) {
        std::string q = "'";
        for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
        return q + "'";
    };
    std::string cmd = "python3 " + quote(root + "/tools/plot_validation.py") + " " + quote(csv) + " -o " + quote(png);
    if (std::system(cmd.c_str()) != 0) {
        std::fprintf(stderr, "validate: the plot failed (%s; python3-matplotlib is installed by scripts/setup.sh)\n",
                     cmd.c_str());
        return 1;
    }
    std::printf("\nplot: %s\n", png.c_str());
    return 0;
}

struct Options {
    std::string root = ".", csv, plot;
    std::vector<std::string> only;      // groups or sets (base, extended, apps) to run; default all
    std::string config;                 // default: <root>/configs/h200.yaml (and the RTX 4060 seed)
    std::vector<std::string> measured;  // default: <root>/calib/results/calib_h200{,_ext}.csv
    Uniforms what_if;
    bool sass = false;                  // also run the imported SASS of each kernel that has one, side by side
};

int run(Options o) {
    const std::string& root = o.root;
    const bool h200 = o.config.empty();
    if (h200) o.config = root + "/configs/h200.yaml";
    if (o.measured.empty())
        o.measured = {root + "/calib/results/calib_h200.csv", root + "/calib/results/calib_h200_ext.csv",
                      root + "/calib/results/dispatch/calib_h200_dispatch.csv",
                      root + "/calib/results/l2atom/calib_h200_l2atom.csv",
                      root + "/calib/results/l2dirty/calib_h200_l2dirty.csv",
                      root + "/calib/results/streamorder/calib_h200_streamorder.csv",
                      root + "/calib/results/shbank_mixrw/calib_h200_shbank.csv",
                      root + "/calib/results/shbank_mixrw/calib_h200_mixrw.csv",
                      root + "/calib/results/l1pipe/calib_h100_l1pipe.csv",
                      root + "/calib/results/l2write/calib_h200_l2write.csv",
                      root + "/calib/results/mlp/calib_h200_mlp.csv",
                      root + "/calib/results/turnover/calib_h200_turnover.csv",
                      root + "/calib/results/wbmix/calib_h200_wbmix.csv",
                      root + "/calib/results/holdout/calib_h200_holdout.csv",
                      root + "/calib/results/atomtype/calib_h100_atomtype.csv",
                      root + "/calib/results/blocktimes/calib_h200_blocktimes_run1.csv",
                      root + "/calib/results/ncu_l1_hit_rates.csv"};
    Context c;
    c.root = root;
    c.config_path = o.config;
    c.config_sets = o.what_if;
    for (const auto& m : o.measured) c.hw.read(m);
    c.cfg = Configs::load(o.config, o.what_if, h200 ? root + "/configs/rtx4060.yaml" : "");
    if (!c.hw.device().empty() && c.cfg.full.name.find(c.hw.device()) == std::string::npos &&
        c.hw.device().find(c.cfg.full.name) == std::string::npos)
        std::fprintf(stderr, "validate: warning: the measurements are of '%s', the config is '%s'\n",
                     c.hw.device().c_str(), c.cfg.full.name.c_str());
    read_ncu_states(c, root + "/calib/results/ncu_h200_ext_states.csv");
    read_ncu_states(c, root + "/calib/results/dispatch/ncu_h200_dispatch_states.csv");
    read_ncu_states(c, root + "/calib/results/turnover/ncu_h200_turnover_states.csv");
    read_ncu_states(c, root + "/calib/results/holdout/ncu_h200_holdout_states.csv");
    run_groups(c, o.only);
    if (o.sass) {
        Context imported;
        imported.root = root;
        imported.config_path = c.config_path;
        imported.config_sets = c.config_sets;
        imported.hw = c.hw;
        imported.cfg = c.cfg;
        imported.sass = true;
        run_groups(imported, o.only);
        print_side_by_side(c.rows, imported.rows);
        return 0;
    }
    print_table(c.rows);
    print_states(c.states);
    if (!c.missing.empty()) {
        std::printf("\n%zu comparisons had no measured row (not in %s):", c.missing.size(), o.measured.front().c_str());
        for (const auto& m : c.missing) std::printf(" %s", m.c_str());
        std::printf("\n");
    }
    if (!o.csv.empty()) write_csv(o.csv, c.rows);
    if (!o.plot.empty()) return plot(root, o.csv.empty() ? o.plot + ".csv" : o.csv, o.plot, c.rows, o.csv.empty());
    return 0;
}

}  // namespace
}  // namespace simt::calib

int main(int argc, char** argv) {
    simt::calib::Options o;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--root") == 0 && i + 1 < argc) o.root = argv[++i];
        else if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) o.csv = argv[++i];
        else if (std::strcmp(argv[i], "--plot") == 0 && i + 1 < argc) o.plot = argv[++i];
        else if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) o.what_if.push_back(argv[++i]);
        else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) o.only.push_back(argv[++i]);
        else if (std::strcmp(argv[i], "--config") == 0 && i + 1 < argc) o.config = argv[++i];
        else if (std::strcmp(argv[i], "--measured") == 0 && i + 1 < argc) o.measured.push_back(argv[++i]);
        else if (std::strcmp(argv[i], "--sass") == 0) o.sass = true;
        else {
            std::fprintf(stderr, "usage: validate [--root DIR] [--config FILE.yaml] [--measured FILE.csv ...] [--csv OUT] [--plot OUT.png] "
                                 "[--only SET|GROUP ...] [--set key.path=value ...] [--sass]\n");
            return 1;
        }
    }
    try {
        return simt::calib::run(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "validate: %s\n", e.what());
        return 1;
    }
}
