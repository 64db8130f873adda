// calibrate_cmd.cpp: `simt-sim calibrate`, a config for your own GPU from a calibration run.
//
//   simt-sim calibrate BASE.yaml RESULTS.csv [MORE.csv ...] -o OUT.yaml [options]
//
// Reads the CSV(s) that calib/run.sh wrote, sets every config value one measurement determines
// (sim/calibrate/direct.hpp), fits the values no single case isolates (fit.hpp, NLopt, with
// k-fold cross-validation), prints the before/after table, and writes OUT.yaml: the base file's
// layout and comments, each changed value rewritten in place with its provenance, and a header
// naming the CSV, the device and the date. Every user error is located and ends with status 1.
#include "sim/calibrate/fit.hpp"
#include "sim/calibrate/yaml_edit.hpp"
#include "sim/config/config.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace simt::cli {
namespace {

using namespace simt::calib;

const char* kCalibrateUsage = R"(simt-sim calibrate: a config for your GPU from one run of the calibration set.

usage: simt-sim calibrate BASE.yaml RESULTS.csv [MORE.csv ...] -o OUT.yaml [options]

  bash calib/run.sh                      # on a machine with a CUDA GPU: calib/results/local/
  simt-sim calibrate configs/rtx4060.yaml calib/results/local/calib.csv -o configs/my-gpu.yaml

Every value that one measurement fixes (clock, SM count and limits, pipe latencies and rates,
cache and DRAM latencies, DRAM bandwidth, launch overhead) is set from its CSV row; the values
no single case isolates (branch latency, register banks and read queue, scheduler policy,
DRAM fetch size and row opening, L2 slice rate, partial stores, atomic costs) are fitted to the
twins of the calibration set (calib/traces/) with NLopt, one after another (a second pass
re-fits the keys that share cases with a key the first pass moved), with k-fold
cross-validation so you see whether the fit generalises. A key the CSV measures is not
fitted. The output keeps BASE's layout and comments; each changed value's comment says where
it came from. Run from the repository root (or pass --root): the twins are calib/traces/*.isa.

How long: the base set (calib_h200.csv) about 30 s on 2 cores; a whole run.sh CSV, whose
contention and atomic kernels are full-chip simulations, about 480 s of CPU: 4 min 20 s on
2 cores (see README.md).
Simulations run on all cores; the result does not depend on their number.

options)";

struct CalOptions {
    std::string base, out, root = ".", date;
    bool sass = false;
    std::vector<std::string> csvs, groups, only_fit;
    bool dry_run = false, no_fit = false;
    int folds = 3, budget = 12, full_chip_budget = 6, rounds = 2;
};

bool parse(int argc, char** argv, CalOptions& o) {
    po::options_description desc(kCalibrateUsage);
    desc.add_options()
        ("help,h", "show this help")
        ("output,o", po::value(&o.out), "write the calibrated config to FILE")
        ("dry-run", po::bool_switch(&o.dry_run), "print the values and the before/after table, write nothing")
        ("no-fit", po::bool_switch(&o.no_fit), "set the measured values only (no fitting: seconds, not minutes)")
        ("fit", po::value(&o.only_fit)->composing(), "fit only this key (repeatable; default: every fitted key)")
        ("folds", po::value(&o.folds)->default_value(3), "k of the k-fold cross-validation (0: none)")
        ("budget", po::value(&o.budget)->default_value(12), "simulated values per numeric parameter and fit")
        ("full-chip-budget", po::value(&o.full_chip_budget)->default_value(6),
         "the same for the keys fitted on full-chip gathers, scatters and atomics (L2 slice rate, partial stores, atomic costs: 20-60 s a value)")
        ("rounds", po::value(&o.rounds)->default_value(2), "passes of the fit (a pass after the first re-fits the keys sharing cases with a key the last pass moved)")
        ("table", po::value(&o.groups)->composing(),
         "comparison set or group for the before/after table (repeatable; default: base)")
        ("sass", po::bool_switch(&o.sass), "in the table, run each kernel's imported SASS (calib/sass/KERNEL.launch.isa) in place of its hand twin where one exists")
        ("root", po::value(&o.root)->default_value("."), "the repository root (calib/traces/ holds the twins)")
        ("date", po::value(&o.date), "the date written in the header (default: today, UTC)");
    po::options_description hidden;
    hidden.add_options()("base", po::value(&o.base))("csv", po::value(&o.csvs)->composing());
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("base", 1).add("csv", -1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw simt::Error(std::string(e.what()) + " (see simt-sim calibrate --help)");
    }
    if (vm.count("help") || argc == 1) {
        std::cout << desc << "\n";
        return false;
    }
    if (o.base.empty() || o.csvs.empty())
        throw simt::Error("calibrate: expected a base config and a results CSV (see simt-sim calibrate --help)");
    if (o.out.empty() && !o.dry_run) throw simt::Error("calibrate: expected -o OUT.yaml (or --dry-run)");
    if (o.folds < 0 || o.folds == 1 || o.folds > 20) throw simt::Error("--folds must be 0 or 2..20");
    if (o.budget < 2 || o.budget > 200) throw simt::Error("--budget must be 2..200");
    if (o.full_chip_budget < 2 || o.full_chip_budget > 200) throw simt::Error("--full-chip-budget must be 2..200");
    if (o.rounds < 1 || o.rounds > 10) throw simt::Error("--rounds must be 1..10");
    if (o.groups.empty()) o.groups = {"base"};
    return true;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw simt::Error({path, 0, 0}, "cannot open");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Uniforms as_sets(const std::vector<Setting>& settings) {
    Uniforms u;
    for (const auto& s : settings) u.push_back(s.key + "=" + s.value);
    return u;
}

std::string today() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
    return buf;
}

// Rows by name: a case the base config cannot run shows "-" in its columns and is left out of
// both RMS figures, so they compare the same cases.
void print_table(const std::vector<Row>& before, const std::vector<Row>& after) {
    std::map<std::string, const Row*> base;
    for (const Row& r : before) base[r.name] = &r;
    std::printf("\n%-46s %12s %12s %8s %12s %8s\n", "case", "measured", "base", "error", "calibrated", "error");
    std::vector<Row> both_before, both_after;
    for (const Row& a : after) {
        auto it = base.find(a.name);
        if (it == base.end()) {
            std::printf("%-46s %12.4g %12s %8s %12.4g %+7.1f%%\n", a.name.c_str(), a.hw, "-", "-", a.sim, a.error_pct());
            continue;
        }
        const Row& b = *it->second;
        std::printf("%-46s %12.4g %12.4g %+7.1f%% %12.4g %+7.1f%%\n", a.name.c_str(), a.hw, b.sim, b.error_pct(), a.sim,
                    a.error_pct());
        both_before.push_back(b);
        both_after.push_back(a);
    }
    std::printf("RMS log error: base %.1f%%, calibrated %.1f%% over the %zu cases both run\n",
                rms_log_error_pct(both_before), rms_log_error_pct(both_after), both_before.size());
}

void print_fit(const FitResult& f) {
    std::printf("\nfitted (in-sample RMS log error of the key's own cases; held-out = %s):\n",
                "k-fold cross-validated, fitted without the fold it is measured on");
    for (const auto& p : f.params) {
        std::printf("  %-28s %10s -> %-10s %3zu cases  %6.1f%% -> %6.1f%%", p.key.c_str(), p.before.c_str(),
                    p.after.c_str(), p.rows, p.err_before, p.err_after);
        if (p.cv_err >= 0) std::printf("  held-out %6.1f%%", p.cv_err);
        if (!p.rejected.empty()) std::printf("  (kept: %s did not generalise)", p.rejected.c_str());
        std::printf("\n");
    }
}

// Kernels of the CSV that no rule and no comparison group reads (a newer calibration set, a typo).
void warn_unused(const std::string& root, const Measurements& m) {
    std::set<std::string> used;
    for (const auto& r : direct_rules()) used.insert(r.substr(r.find("<- ") + 3, r.find('.', r.find("<- ")) - r.find("<- ") - 3));
    for (const auto& [kernel, v] : m.kernels())
        if (!used.count(kernel) && !has_twin(root, kernel))
            std::fprintf(stderr, "%s:%u: warning: no twin or rule uses kernel '%s' (ignored)\n", v.file.c_str(), v.line,
                         kernel.c_str());
}

int run_calibrate(const CalOptions& o) {
    Measurements m;
    for (const auto& c : o.csvs) m.read(c);
    GpuConfig base = simt::load_config(o.base);
    if (!m.device().empty() && base.name.find(m.device()) == std::string::npos &&
        m.device().find(base.name) == std::string::npos)
    {
        std::fprintf(stderr, "%s: warning: the measurements are of '%s', the base config describes '%s'\n",
                     o.csvs.front().c_str(), m.device().c_str(), base.name.c_str());
        std::fprintf(stderr, "%s: warning: no row measures these structural keys; they stay %s's (start from the "
                             "shipped config closest to your GPU, or --set them in the base first):\n",
                     o.csvs.front().c_str(), o.base.c_str());
        for (const auto& k : unmeasured_structure(base)) std::fprintf(stderr, "  %s\n", k.c_str());
    }
    DirectResult d = direct_values(m, base);
    std::printf("measured values (%zu):\n", d.settings.size());
    for (const auto& s : d.settings) std::printf("  %-30s %-12s %s\n", s.key.c_str(), s.value.c_str(), s.provenance.c_str());
    for (const auto& s : d.missing) std::printf("  kept from %s: %s\n", o.base.c_str(), s.c_str());
    simt::load_config(o.base, as_sets(d.settings));  // every measured value passes the config's checks

    std::vector<Setting> all = d.settings;
    RowCache cache;  // the fit's and the tables' simulations: none twice on one config
    if (!o.no_fit) {
        std::vector<FitParam> params;
        for (const auto& p : default_fit_params())
            if (o.only_fit.empty() || std::count(o.only_fit.begin(), o.only_fit.end(), p.key)) params.push_back(p);
        FitOptions fo;
        fo.folds = o.folds;
        fo.budget = o.budget;
        fo.full_chip_budget = o.full_chip_budget;
        fo.rounds = o.rounds;
        fo.log = [](const std::string& s) { std::fprintf(stderr, "calibrate: %s\n", s.c_str()); };
        fo.cache = &cache;
        FitResult f = fit(o.root, m, o.base, as_sets(d.settings), params, fo);
        print_fit(f);
        all.insert(all.end(), f.settings.begin(), f.settings.end());
    }
    std::fflush(stdout);
    std::vector<std::string> failed;
    std::vector<Row> before = evaluate(o.root, m, o.base, {}, o.groups, o.sass, &failed, &cache);
    for (const auto& f : failed) std::fprintf(stderr, "calibrate: the base config cannot run %s\n", f.c_str());
    print_table(before, evaluate(o.root, m, o.base, as_sets(all), o.groups, o.sass, nullptr, &cache));
    std::fprintf(stderr, "calibrate: %zu kernel runs simulated, %zu taken from earlier runs on the same config\n",
                 cache.simulated(), cache.hits());
    warn_unused(o.root, m);
    if (o.dry_run) return 0;

    std::string csvs;
    for (const auto& c : o.csvs) csvs += (csvs.empty() ? "" : ", ") + c;
    std::string text = prepend_header(
        set_values(read_file(o.base), o.base, all),
        {"Calibrated by simt-sim calibrate on " + (o.date.empty() ? today() : o.date) + " from " + csvs +
             (m.device().empty() ? "" : " (" + m.device() + ")") + ", base " + o.base + ".",
         "Values whose comment starts 'measured:' or 'fitted:' came from that run; the rest are the base's."});
    simt::load_config_text(text, o.out);  // the output loads with the same validation
    std::ofstream out(o.out);
    if (!out || !(out << text)) throw simt::Error({o.out, 0, 0}, "cannot write the calibrated config");
    std::printf("\nwrote %s (%zu values changed)\n", o.out.c_str(), all.size());
    return 0;
}

}  // namespace

int calibrate_main(int argc, char** argv) {
    CalOptions o;
    if (!parse(argc, argv, o)) return 0;
    return run_calibrate(o);
}

}  // namespace simt::cli
