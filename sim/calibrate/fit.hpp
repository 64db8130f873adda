// fit.hpp: the config values no single measurement isolates, fitted to the whole calibration set.
//
// Each FitParam is a config key, its range (an integer or real interval, or a list of choices)
// and the comparison groups it moves (ipc for register banks, atomics for the atomic unit, ...).
// Parameters are fitted one after another in a fixed order (coordinate descent: each starts from
// the values fitted before it), each by minimising the mean squared log error log(sim / hw)^2 of
// its groups' rows: choices are enumerated, numbers searched with NLopt's derivative-free Sbplx
// (integers rounded). The same data, the same order and the same budgets give the same config on
// every machine.
// What a fit simulates: only the kernels a key moves (a probe at each bound of a number finds
// them; the others keep the starting value's rows, see fit.cpp's Evaluator), and no kernel twice
// on one config (a RowCache shared by every key, and by the caller's before/after tables).
// k-fold cross-validation: the rows of each parameter's groups are dealt into k folds (row i goes
// to fold i mod k); the parameter is fitted on k-1 folds and its error measured on the held-out one,
// so the report shows whether the fit generalises or memorises. A value whose held-out error is no
// better than the starting value's is not taken (the report names it).
// Keys that `sets` already fix (a measured value) are not fitted: a measurement beats a fit.
// The folds' searches and the full one run concurrently (one cache of simulated values; each
// search sees the same values in the same order, so the result does not depend on the cores).
// Leaves out: joint fits of several parameters at once, and gradient-based methods (the simulator
// is a step function of most parameters).
#pragma once

#include "sim/calibrate/direct.hpp"
#include "sim/calibrate/row_cache.hpp"

#include <functional>
#include <string>
#include <vector>

namespace simt::calib {

struct FitParam {
    enum class Kind { Integer, Real, Choice };
    std::string key;
    Kind kind = Kind::Integer;
    double lo = 0, hi = 0;                 // Integer / Real
    std::vector<std::string> choices;      // Choice
    std::vector<std::string> groups;       // comparison groups (comparisons.hpp) it moves
    std::string why;                       // one line for the report
    bool relative = false;                 // lo, hi are factors of the starting value
    bool full_chip = false;                // its kernels are full-chip simulations (20-60 s a value):
                                           // searched with FitOptions::full_chip_budget
    std::vector<std::string> kernels = {}; // the kernels of its groups it moves (empty: the probes find them)
};

// The parameters `simt-sim calibrate` fits by default (documented in README.md).
std::vector<FitParam> default_fit_params();

struct FitOptions {
    int folds = 3;        // k of the k-fold cross-validation (< 2: none)
    int budget = 12;      // simulated values per numeric parameter and fit
    int full_chip_budget = 6;  // the same for a full_chip parameter: its search's first values (a
                               // search with a smaller budget visits a prefix of the values it
                               // would visit with a larger one, and keeps the best of them)
    int rounds = 2;       // passes of coordinate descent: a pass after the first re-fits the keys
                          // that share a group with a key the previous pass changed
    std::function<void(const std::string&)> log;  // progress lines (may be empty)
    RowCache* cache = nullptr;  // simulated rows shared with the caller's other evaluations (null: the fit's own)
};

struct ParamReport {
    std::string key, before, after;
    double err_before = 0, err_after = 0;  // RMS log error of its groups' rows, in % (in-sample)
    double cv_err = -1;                    // held-out RMS log error over the folds, in % (-1: none)
    std::string rejected;                  // the in-sample best, when held out it was no better
    size_t rows = 0;
};

struct FitResult {
    std::vector<Setting> settings;  // one per parameter whose fitted value differs from the start
    std::vector<ParamReport> params;
};

// Fits `params` on `m`, starting from the config at `base_path` with `sets` (e.g. the direct
// values) applied. `root` holds calib/traces.
FitResult fit(const std::string& root, const Measurements& m, const std::string& base_path, const Uniforms& sets,
              const std::vector<FitParam>& params, const FitOptions& options);

// Rows of the named groups on a config (for before/after tables). `sass`: run the imported SASS of a
// kernel (calib/sass/KERNEL.launch.isa) in place of its hand twin where one exists.
// `failed`: when given, a kernel whose twin cannot run on this config (a located error: a block too
// large for the base GPU's shared memory, ...) adds "kernel: message" there and no rows, instead of
// stopping the evaluation. `cache`: when given, a unit already simulated on the same config is not
// simulated again (row_cache.hpp; one cache per measurements and root).
std::vector<Row> evaluate(const std::string& root, const Measurements& m, const std::string& base_path,
                          const Uniforms& sets, const std::vector<std::string>& groups, bool sass = false,
                          std::vector<std::string>* failed = nullptr, RowCache* cache = nullptr);

// The units (kernels) of p's groups, and which of them the fit simulates: below the start, those
// whose rows at the lower bound differ from the start's; above it, the same with the upper bound
// (a choice: all). The others keep the start's rows.
struct KeyCases {
    std::vector<std::string> kernels;
    std::vector<bool> moves, below, above;  // moves = below or above
};
KeyCases key_cases(const std::string& root, const Measurements& m, const std::string& base_path, const Uniforms& sets,
                   const FitParam& p, RowCache* cache = nullptr);

// RMS of log(sim / hw) over rows, in %: 100 * sqrt(mean(log(sim/hw)^2)).
double rms_log_error_pct(const std::vector<Row>& rows);

}  // namespace simt::calib
