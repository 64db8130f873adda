// direct.hpp: config values that one measurement determines on its own.
//
// Each rule names the config key, the calibration CSV row (kernel, parameter) it comes from and how
// the measured number becomes the config value (a unit change, rounding, the loop overhead the
// CUDA kernel's per-op figure includes, a lanes count from a per-SM rate). `direct_values` applies
// every rule whose row the measurements hold and reports the rest as missing, so a partial run
// (an older GPU that skips some kernels) still calibrates what it measured.
// Leaves out: values no single case isolates (register banks, policies, queueing parameters):
// fit.hpp fits those.
#pragma once

#include "sim/calibrate/comparisons.hpp"

#include <string>
#include <vector>

namespace simt::calib {

// A config value to write: the key path, its new text, and where it came from.
struct Setting {
    std::string key;         // "pipes.fma.latency"
    std::string value;       // the YAML scalar text
    std::string provenance;  // "measured: lat_ffma.latency_per_ptx_op, calib.csv"
};

struct DirectResult {
    std::vector<Setting> settings;
    std::vector<std::string> missing;  // "pipes.fma.latency (no row lat_ffma.latency_per_ptx_op)"
};

// `base` supplies what a rule needs besides the row (sub-partitions per SM, the clock).
DirectResult direct_values(const Measurements& m, const GpuConfig& base);

// The structural keys no calibration row measures, with the base's values ("memory.dram.channels
// = 8"): DRAM channels, L2 slices and partitions, the datapath table. Calibrating a base config of
// another GPU keeps them (calibrate warns with this list), and they set the shared-memory-side
// rates and which pipes share a datapath.
std::vector<std::string> unmeasured_structure(const GpuConfig& base);

// The rules as documentation: "key <- kernel.param: how".
std::vector<std::string> direct_rules();

}  // namespace simt::calib
