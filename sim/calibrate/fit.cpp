// fit.cpp: coordinate-descent fitting with NLopt and k-fold cross-validation (see fit.hpp).
#include "sim/calibrate/fit.hpp"

#include <nlopt.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace simt::calib {
namespace {

// Which rows a loss covers: all (fold < 0), or fold `fold` of `k` held in or held out.
struct Selection {
    int k = 1, fold = -1;
    bool held_out = false;
    bool takes(size_t i) const {
        if (fold < 0) return true;
        bool in_fold = int(i % size_t(k)) == fold;
        return held_out ? in_fold : !in_fold;
    }
};

double sq_log_sum(const std::vector<Row>& rows, const Selection& sel, size_t* n) {
    double s = 0;
    *n = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!sel.takes(i) || rows[i].hw <= 0 || rows[i].sim <= 0) continue;
        double e = std::log(rows[i].sim / rows[i].hw);
        s += e * e;
        ++*n;
    }
    return s;
}

double loss(const std::vector<Row>& rows, const Selection& sel) {
    size_t n = 0;
    double s = sq_log_sum(rows, sel, &n);
    return n ? s / double(n) : 0.0;
}

std::string value_text(const FitParam& p, double x) {
    if (p.kind == FitParam::Kind::Integer) return std::to_string(int64_t(std::llround(x)));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", x);
    return buf;
}

// The value of `key` in the config file after `sets` (the text of the last set of that key wins).
std::string current_value(const std::string& path, const Uniforms& sets, const std::string& key) {
    std::string v;
    for (const auto& s : sets)
        if (s.compare(0, key.size() + 1, key + "=") == 0) v = s.substr(key.size() + 1);
    if (!v.empty()) return v;
    YAML::Node n = YAML::LoadFile(path);
    size_t start = 0;
    while (true) {
        size_t dot = key.find('.', start);
        n.reset(n[key.substr(start, dot - start)]);
        if (!n) throw simt::Error({path, 0, 0}, "the config has no key '" + key + "' to fit");
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return n.as<std::string>();
}

// The bounds of a numeric parameter's search from its starting value.
std::pair<double, double> bounds(const FitParam& p, const std::string& start) {
    const double x0 = std::strtod(start.c_str(), nullptr);
    return {p.relative ? p.lo * x0 : p.lo, p.relative ? p.hi * x0 : p.hi};
}

bool same_rows(const UnitRows& a, const UnitRows& b) {
    if (a.error || b.error || a.rows.size() != b.rows.size()) return false;
    for (size_t i = 0; i < a.rows.size(); ++i)
        if (a.rows[i].name != b.rows[i].name || a.rows[i].sim != b.rows[i].sim) return false;
    return true;
}

// Simulated rows of one parameter's groups per value (each kernel simulated once per value, also
// when several searches ask for it at the same time: RowCache).
//
// Each value simulates only the units (kernels) the parameter moves on that side of its start.
// find_moving() simulates every unit at the starting value and at both bounds of a number: the
// simulator is a monotone step function of these keys (a kernel's time moves one way only as a
// rate or a cost grows), so a kernel whose rows are the same at the start and at a bound has
// those rows at every value in between: it is frozen on that side, and a value there takes its
// rows from the start instead of simulating it (a DRAM-bound gather does not see a faster L2
// slice, but does see a slower one). The frozen rows stay in the objective, at the positions they
// had, so each value's loss, the folds (row i goes to fold i mod k) and the 0.5 % improvement
// threshold are exactly what simulating every unit would give: the searches visit the same values
// and pick the same one. (Leaving the frozen rows out would give the same argmin of the sum, but
// not the same mean or threshold.) What is frozen depends only on the start and the bounds, never
// on the order the concurrent searches ask in, so the result is the same on any number of cores.
// A probe that fails (a bound the config's checks refuse) freezes nothing on its side; choices are
// enumerated by the search anyway and freeze nothing. The test "a kernel outside a key's cases
// does not move" checks the rows of frozen kernels at values between the bounds.
class Evaluator {
public:
    Evaluator(const std::string& root, const Measurements& m, const std::string& base, const Uniforms& sets,
              const FitParam& p, RowCache& cache)
        : root_(root), m_(m), base_(base), sets_(sets), p_(p), cache_(cache) {}

    // `lo`, `hi`: the bounds of a number ("" for a choice).
    // The start and the bounds are simulated at once (more kernels in flight than one value has).
    void find_moving(const std::string& start, const std::string& lo, const std::string& hi) {
        units_ = list_units(proto(start), p_.groups);
        const std::vector<bool> all(units_.size(), true);
        if (!p_.kernels.empty()) {  // declared: no probe (a whole-group unit is never frozen)
            below_.assign(units_.size(), true);
            for (size_t i = 0; i < units_.size(); ++i)
                below_[i] = units_[i].only.empty() || std::count(p_.kernels.begin(), p_.kernels.end(), units_[i].only);
            above_ = below_;
            x0_ = std::strtod(start.c_str(), nullptr);
            numeric_ = false;
            start_ = simulate(start, all, false);
            for (const UnitRows& u : start_)
                if (u.error) std::rethrow_exception(u.error);
            return;
        }
        auto at = [&](const std::string& v) {  // (reads no start_: it is written meanwhile)
            return std::async(std::launch::async, [this, v, &all] { return simulate(v, all, false); });
        };
        auto s = at(start);
        std::future<std::vector<UnitRows>> l, h;
        if (!lo.empty()) l = at(lo), h = at(hi);
        start_ = s.get();
        for (const UnitRows& u : start_)
            if (u.error) std::rethrow_exception(u.error);
        x0_ = std::strtod(start.c_str(), nullptr);
        numeric_ = !lo.empty();
        below_ = moved(l);
        above_ = moved(h);
    }
    // The rows at `value` that `sel` takes: a unit none of whose rows `sel` takes is not simulated
    // for it (a fold's search reads only its training rows), and keeps the start's rows, which no
    // loss over `sel` reads. A unit some search simulates at a value is simulated once (RowCache).
    std::vector<Row> rows(const std::string& value, const Selection& sel = Selection{}) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            values_.insert(value);
        }
        std::vector<bool> run = moving_at(value);
        for (size_t i = 0, first = 0; i < run.size(); first += start_[i].rows.size(), ++i) {
            bool taken = false;
            for (size_t j = first; j < first + start_[i].rows.size(); ++j) taken |= sel.takes(j);
            run[i] = run[i] && taken;
        }
        std::vector<Row> rows;
        for (const UnitRows& u : simulate(value, run)) {
            if (u.error) std::rethrow_exception(u.error);
            rows.insert(rows.end(), u.rows.begin(), u.rows.end());
        }
        return rows;
    }
    size_t evaluations() {
        std::lock_guard<std::mutex> lock(mutex_);
        return values_.size();
    }
    const std::vector<Unit>& units() const { return units_; }
    std::vector<bool> moving() const {
        std::vector<bool> m(below_.size());
        for (size_t i = 0; i < m.size(); ++i) m[i] = below_[i] || above_[i];
        return m;
    }
    const std::vector<bool>& below() const { return below_; }
    const std::vector<bool>& above() const { return above_; }

private:
    // Which units a bound moves: those whose rows there differ from the start's (all of them for a
    // choice, which has no probe, or when the bound cannot be simulated).
    std::vector<bool> moved(std::future<std::vector<UnitRows>>& probe) {
        std::vector<bool> moves(start_.size(), true);
        if (!probe.valid()) return moves;
        std::vector<UnitRows> at;
        try {
            at = probe.get();
        } catch (const simt::Error&) {
            return moves;
        }
        for (size_t i = 0; i < at.size(); ++i) moves[i] = !same_rows(at[i], start_[i]);
        return moves;
    }
    std::vector<bool> moving_at(const std::string& value) const {
        if (!numeric_) return below_;
        const double x = std::strtod(value.c_str(), nullptr);
        if (x < x0_) return below_;
        if (x > x0_) return above_;
        return std::vector<bool>(below_.size(), false);
    }
    Context proto(const std::string& value) const {
        Uniforms s = sets_;
        s.push_back(p_.key + "=" + value);
        Context c;
        c.root = root_;
        c.hw = m_;
        c.cfg = Configs::load(base_, s);
        c.verbose = false;
        return c;
    }
    // Every unit's rows at `value`: simulated (through the cache) where `run` marks it, the start's
    // elsewhere (at the start and the probes, `run` marks every unit and `after_start` is false:
    // start_ is not read).
    std::vector<UnitRows> simulate(const std::string& value, const std::vector<bool>& run, bool after_start = true) {
        Uniforms s = sets_;
        s.push_back(p_.key + "=" + value);
        std::vector<Unit> todo;
        std::vector<double> seconds;  // the start's simulation times, when known
        for (size_t i = 0; i < units_.size(); ++i)
            if (run[i]) todo.push_back(units_[i]), seconds.push_back(after_start ? start_[i].seconds : 0);
        std::vector<UnitRows> got = run_units(proto(value), todo, &cache_, config_key(base_, s), &seconds);
        std::vector<UnitRows> out;
        for (size_t i = 0, j = 0; i < units_.size(); ++i) out.push_back(run[i] ? got[j++] : start_[i]);
        return out;
    }

    const std::string& root_;
    const Measurements& m_;
    const std::string& base_;
    const Uniforms& sets_;
    const FitParam& p_;
    RowCache& cache_;
    std::vector<Unit> units_;
    std::vector<UnitRows> start_;
    std::vector<bool> below_, above_;  // unit i moves between the lower bound (the upper) and the start
    double x0_ = 0;
    bool numeric_ = false;
    std::mutex mutex_;
    std::set<std::string> values_;  // the values asked for
};

// The best value for the rows `sel` selects (ties: the value tried first, the start first).
std::string best_value(Evaluator& ev, const FitParam& p, const std::string& start, const Selection& sel, int budget) {
    std::string best = start;
    double best_loss = loss(ev.rows(start, sel), sel);
    // A value replaces the best only if it lowers the loss by more than 0.5 % of it (noise in the
    // last digit of a rate is no reason to move a parameter).
    auto consider = [&](const std::string& v) {
        double l = loss(ev.rows(v, sel), sel);
        if (l < best_loss * 0.995 - 1e-12) best_loss = l, best = v;
        return l;
    };
    if (p.kind == FitParam::Kind::Choice) {
        for (const auto& c : p.choices) consider(c);
        return best;
    }
    const double x0 = std::strtod(start.c_str(), nullptr);
    const auto [lo, hi] = bounds(p, start);
    nlopt::opt opt(nlopt::LN_SBPLX, 1);
    opt.set_lower_bounds(lo);
    opt.set_upper_bounds(hi);
    opt.set_maxeval(budget);
    opt.set_initial_step((hi - lo) / 8);
    opt.set_xtol_abs(p.kind == FitParam::Kind::Integer ? 0.5 : 1e-4 * (hi - lo));
    auto f = [&](const std::vector<double>& x) { return consider(value_text(p, x[0])); };
    using F = decltype(f);
    opt.set_min_objective(
        [](unsigned, const double* x, double*, void* d) { return (*static_cast<F*>(d))({x[0]}); }, &f);
    std::vector<double> x{std::clamp(x0, lo, hi)};
    double fx = 0;
    try {
        opt.optimize(x, fx);
    } catch (const std::exception&) {
        // NLopt stops on round-off or its own limits: the best value seen stands.
    }
    return best;
}

// A number's probes are its bounds; choices have none (the search enumerates every one anyway,
// so every unit moves).
std::pair<std::string, std::string> probes(const FitParam& p, const std::string& start) {
    if (p.kind == FitParam::Kind::Choice) return {"", ""};
    const auto [lo, hi] = bounds(p, start);
    return {value_text(p, lo), value_text(p, hi)};
}

ParamReport fit_param(const std::string& root, const Measurements& m, const std::string& base, const Uniforms& sets,
                      const FitParam& p, const FitOptions& o, RowCache& cache) {
    const auto t0 = std::chrono::steady_clock::now();  // for the progress line only
    Evaluator ev(root, m, base, sets, p, cache);
    ParamReport r;
    r.key = p.key;
    r.before = current_value(base, sets, p.key);
    const auto [lo, hi] = probes(p, r.before);
    ev.find_moving(r.before, lo, hi);
    const Selection all;
    r.rows = ev.rows(r.before).size();
    // The full search and each fold's search run at once (each sees the values it asks for in
    // its own order: the same result on any number of cores).
    const int folds = o.folds >= 2 && r.rows >= size_t(o.folds) ? o.folds : 0;
    std::vector<std::string> best(size_t(folds) + 1);
    std::vector<std::future<void>> searches;
    for (int f = 0; f <= folds; ++f)
        searches.push_back(std::async(std::launch::async, [&, f] {
            Selection sel = f == folds ? all : Selection{o.folds, f, false};
            best[size_t(f)] = best_value(ev, p, r.before, sel, p.full_chip ? o.full_chip_budget : o.budget);
        }));
    for (auto& s : searches) s.get();
    r.after = best[size_t(folds)];
    if (folds) {
        double s = 0;
        size_t n = 0;
        for (int f = 0; f < folds; ++f) {
            size_t k = 0;
            const Selection held_out{folds, f, true};
            s += sq_log_sum(ev.rows(best[size_t(f)], held_out), held_out, &k);
            n += k;
        }
        r.cv_err = n ? 100 * std::sqrt(s / double(n)) : -1;
    }
    r.err_before = 100 * std::sqrt(loss(ev.rows(r.before), all));
    r.err_after = 100 * std::sqrt(loss(ev.rows(r.after), all));
    // A fit that does not generalise (held out, it is no better than the start) is not taken.
    if (r.cv_err >= 0 && r.cv_err >= r.err_before * 0.995 && r.after != r.before) {
        r.rejected = r.after;
        r.after = r.before;
        r.err_after = r.err_before;
    }
    if (o.log) {
        std::string moved;
        for (size_t i = 0; i < ev.units().size(); ++i)
            if (ev.moving()[i]) moved += (moved.empty() ? "" : " ") + ev.units()[i].name();
        char took[32];
        std::snprintf(took, sizeof took, "%.0f s",
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        o.log(p.key + ": " + r.before + " -> " + r.after + " (" + std::to_string(ev.evaluations()) + " values, " +
              took + "; kernels it moves: " + (moved.empty() ? "none" : moved) + ")");
    }
    return r;
}

}  // namespace

std::vector<FitParam> default_fit_params() {
    using K = FitParam::Kind;
    // A full-chip key: searched with FitOptions::full_chip_budget values, on the kernels it moves,
    // declared (probing its bounds would cost more than it saves: the slowest L2 slice alone
    // quadruples the gathers' simulated time). A declared list may hold more than moves at one
    // start (atom_warp moves with the sector cost on configs/h200.yaml, not after the H200 run's
    // measured values): simulating a kernel that does not move costs time, never a result. The
    // hidden test "declared kernels" finds them with the probes: each is declared.
    auto full_chip = [](FitParam p, std::vector<std::string> kernels) {
        p.full_chip = true;
        p.kernels = std::move(kernels);
        return p;
    };
    // (hist_shared_uniform: its blocks end with 256 red.global each on the same 256 bins)
    const std::vector<std::string> hist = {"hist_global_uniform", "hist_global_skewed", "hist_global_8bins",
                                           "hist_shared_uniform"};
    auto with_hist = [&](std::vector<std::string> k) {
        k.insert(k.end(), hist.begin(), hist.end());
        return k;
    };
    return {
        {"pipes.branch.latency", K::Integer, 2, 24, {}, {"latency", "trip_counts"},
         "cycles from a taken branch to its target's issue (loop overhead of every chain)"},
        {"regfile.banks", K::Choice, 0, 0, {"2", "4"}, {"ipc"}, "register banks per sub-partition"},
        {"regfile.reads_per_bank", K::Choice, 0, 0, {"1", "2"}, {"ipc"}, "operand reads per bank per cycle"},
        {"regfile.read_queue_cycles", K::Integer, 0, 16, {}, {"ipc"},
         "bank reads that may queue before the scheduler is held"},
        {"scheduler.policy", K::Choice, 0, 0, {"gto", "lrr", "two_level", "gty", "gtb", "cgy"}, {"ipc", "order"},
         "warp issue policy"},
        {"memory.dram_bandwidth_gbs", K::Real, 0.5, 1.5, {}, {"streams"},
         "DRAM pin bandwidth (fitted only without the device's memory clock and bus width)", true},
        {"memory.dram_fetch_bytes", K::Choice, 0, 0, {"32", "64"}, {"strides"}, "DRAM read granularity"},
        {"memory.dram.row_miss_bytes", K::Real, 0, 128, {}, {"strides"}, "cost of opening a DRAM row chunk"},
        full_chip({"memory.l2_slices.sectors_per_cycle", K::Real, 0.2, 4, {}, {"gathers"}, "sectors per L2 slice per cycle"},
                  {"gather_l2", "gather_dram", "scatter_l2", "scatter_dram"}),
        full_chip({"memory.stores.partial_sector_cycles", K::Real, 0, 8, {}, {"gathers"},
                   "extra slice cycles of a byte-masked store sector"},
                  {"scatter_l2", "scatter_dram"}),
        full_chip({"memory.atomics.same_address_cycles", K::Real, 0.25, 8, {}, {"atomics"},
                   "cycles per lane operation on one address"},
                  with_hist({"atom_same", "atom_warp"})),
        full_chip({"memory.atomics.sector_cycles", K::Real, 0.25, 8, {}, {"atomics"}, "atomic unit cycles per 32 B sector"},
                  with_hist({"atom_same", "atom_warp", "atom_line", "atom_spread", "block_reduce"})),
    };
}

// The units run in parallel (row_cache.cpp) and their rows are joined in the groups' order, so
// the result is the same for any number of cores.
std::vector<Row> evaluate(const std::string& root, const Measurements& m, const std::string& base_path,
                          const Uniforms& sets, const std::vector<std::string>& groups, bool sass,
                          std::vector<std::string>* failed, RowCache* cache) {
    check_group_names(groups);
    Context proto;
    proto.root = root;
    proto.sass = sass;
    proto.hw = m;
    proto.cfg = Configs::load(base_path, sets);
    proto.verbose = false;
    const std::vector<Unit> units = list_units(proto, groups);
    const std::vector<UnitRows> got = run_units(proto, units, cache, cache ? config_key(base_path, sets) : "");
    std::vector<Row> rows;
    for (size_t i = 0; i < units.size(); ++i) {
        if (got[i].error && failed) {
            try {
                std::rethrow_exception(got[i].error);
            } catch (const simt::Error& e) {
                failed->push_back(units[i].name() + ": " + e.what());
                continue;
            }
        }
        if (got[i].error) std::rethrow_exception(got[i].error);
        rows.insert(rows.end(), got[i].rows.begin(), got[i].rows.end());
    }
    return rows;
}

KeyCases key_cases(const std::string& root, const Measurements& m, const std::string& base_path, const Uniforms& sets,
                   const FitParam& p, RowCache* cache) {
    RowCache own;
    Evaluator ev(root, m, base_path, sets, p, cache ? *cache : own);
    const std::string start = current_value(base_path, sets, p.key);
    const auto [lo, hi] = probes(p, start);
    ev.find_moving(start, lo, hi);
    KeyCases k;
    for (const Unit& u : ev.units()) k.kernels.push_back(u.name());
    k.moves = ev.moving();
    k.below = ev.below();
    k.above = ev.above();
    return k;
}

double rms_log_error_pct(const std::vector<Row>& rows) { return 100 * std::sqrt(loss(rows, Selection{})); }

namespace {

bool is_set(const Uniforms& sets, const std::string& key) {
    return std::any_of(sets.begin(), sets.end(), [&](const std::string& s) { return s.rfind(key + "=", 0) == 0; });
}

bool shares_group(const FitParam& a, const FitParam& b) {
    for (const auto& g : a.groups)
        if (std::count(b.groups.begin(), b.groups.end(), g)) return true;
    return false;
}

}  // namespace

FitResult fit(const std::string& root, const Measurements& m, const std::string& base_path, const Uniforms& sets,
              const std::vector<FitParam>& params, const FitOptions& options) {
    RowCache own;
    RowCache& cache = options.cache ? *options.cache : own;
    // Keys the measurements fixed are not fitted; the rest start in the first pass.
    std::vector<const FitParam*> todo;
    for (const FitParam& p : params)
        if (!is_set(sets, p.key)) todo.push_back(&p);
        else if (options.log) options.log(p.key + ": measured, not fitted");
    std::map<std::string, ParamReport> reports;
    std::map<std::string, std::string> fitted;  // key -> value differing from the start
    for (int round = 0; round < std::max(1, options.rounds) && !todo.empty(); ++round) {
        std::vector<const FitParam*> changed;
        for (const FitParam* p : todo) {
            Uniforms current = sets;
            for (const auto& [k, v] : fitted) current.push_back(k + "=" + v);
            ParamReport r = fit_param(root, m, base_path, current, *p, options, cache);
            if (r.after != r.before) changed.push_back(p), fitted[p->key] = r.after;
            // The report starts where the first pass started (a key back at its start shows the
            // error of its last pass, before and after: another key moved it).
            if (reports.count(p->key) && reports[p->key].before != r.after) {
                r.before = reports[p->key].before;
                r.err_before = reports[p->key].err_before;
            } else if (reports.count(p->key)) {
                r.before = reports[p->key].before;
                r.err_before = r.err_after;
            }
            reports[p->key] = r;
        }
        todo.clear();
        for (const FitParam& p : params)
            if (!is_set(sets, p.key) &&
                std::any_of(changed.begin(), changed.end(), [&](const FitParam* c) { return c != &p && shares_group(p, *c); }))
                todo.push_back(&p);
    }
    FitResult out;
    for (const FitParam& p : params) {
        if (!reports.count(p.key)) continue;
        const ParamReport& r = reports[p.key];
        if (r.after != r.before) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "fitted: %s rows, RMS log error %.1f%% -> %.1f%%", p.groups.front().c_str(),
                          r.err_before, r.err_after);
            out.settings.push_back(Setting{p.key, r.after, buf});
        }
        out.params.push_back(r);
    }
    return out;
}

}  // namespace simt::calib
