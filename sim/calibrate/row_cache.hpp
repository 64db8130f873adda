// row_cache.hpp: evaluate()'s units of work and a memo of their rows, so that one calibration run
// never simulates the same twin on the same config twice.
//
// A unit is one comparison group restricted to one of its kernels (or the whole group, when its
// kernels' rows do not come together). A unit's rows depend only on the config it runs on, the
// measurements (which rows exist) and whether imported SASS replaces the twins; the simulator is
// deterministic, so a unit simulated once on a config gives the same rows every time. RowCache keys
// them by the config's serialized values (the base file's YAML tree with the overrides applied,
// dumped: two override lists that give the same tree share an entry) plus the unit's name. The
// fit's searches ask for values concurrently: the first request simulates, the others wait for it.
// Leaves out: eviction (a run keeps a few thousand rows), and sharing across processes.
#pragma once

#include "sim/calibrate/comparisons.hpp"

#include <exception>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace simt::calib {

struct Unit {
    Group group;
    std::string only;  // the kernel it runs ("" : the whole group)
    std::string name() const { return only.empty() ? std::string(group.name) : only; }
};

// What a unit gave on one config: its rows, or the error that stopped it.
struct UnitRows {
    std::vector<Row> rows;
    std::exception_ptr error;
    double seconds = 0;  // how long its simulation took (orders later runs' work; never a result)
};

// Contract: one cache serves one set of measurements and one root (the key leaves them out).
class RowCache {
public:
    // The unit's rows on the config `config` (config_key()), from `run` the first time.
    UnitRows get(const std::string& config, const Unit& unit, bool sass, const std::function<UnitRows()>& run);
    size_t simulated() const;  // units simulated so far
    size_t hits() const;       // requests answered from the memo

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_future<UnitRows>> memo_;
    size_t hits_ = 0;
};

// The config file at `path` with `sets` applied, serialized (the cache's key).
std::string config_key(const std::string& path, const Uniforms& sets);

// The units of the named groups and sets (all when empty), in the groups' order.
std::vector<Unit> list_units(const Context& proto, const std::vector<std::string>& groups);

// Runs `units` on proto's config, all cores, through `cache` when given (`config` is the cache key).
// `seconds`, when given, is each unit's earlier simulation time: the longest start first, so that
// the last to finish is a short one (the rows do not depend on it). The result is in the units'
// order whatever the number of cores and the order they ran in.
std::vector<UnitRows> run_units(const Context& proto, const std::vector<Unit>& units, RowCache* cache,
                                const std::string& config, const std::vector<double>* seconds = nullptr);

}  // namespace simt::calib
