// spec.hpp: a sweep specification (SPEC.yaml of `simt-sim sweep`), validated at load.
//
// A sweep is a grid: every combination of one value per axis is one run (a
// point). The axes, outermost first, in the order the grid enumerates them:
//
//   configs:           [a.yaml, b.yaml]          config files        (required)
//   traces:            [x.isa, y.isa]            trace files         (required)
//   set:               {sm.sub_partitions: [2, 4], memory.l1.hit_latency: 30}
//                                                 --set overrides, one axis per key, in file order
//   uniform:           {sx: [0, 1, 2]}            --uniform values, one axis per name, in file order
//   policy:            [lrr, gto]                 --policy
//   max_instructions:  1000000                    --max-instructions
//   max_cycles:        [100000, 200000]           --max-cycles
//   output:            results.csv                the CSV (when no -o is given)
//
// Every value may be a scalar (one value for every point) or a list of
// scalars (an axis). Paths are relative to the spec's directory and are
// reported as written, so the CSV does not depend on the working directory.
// Values are passed on as typed (a --set value goes through the config's
// validation when its point runs: a bad value is that point's error row).
//
// Load errors (file:line:col: error: ...): YAML syntax, an unknown key (with a
// suggestion), a missing configs/traces, a value that is not a scalar or a list
// of scalars, an empty list, a key or value repeated, a file that cannot be
// read, a budget that is not a whole number from 1 to 10^13, policy given both
// as `policy` and under `set`, and a grid of more than kMaxPoints points.
// Left out: ranges (`start:stop:step`) and zipped axes; write the list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::sweep {

inline constexpr uint64_t kMaxPoints = 1'000'000;

enum class AxisKind { Config, Trace, Set, Uniform, Policy, MaxInstructions, MaxCycles };

struct Axis {
    AxisKind kind;
    std::string name;                 // the --set key or uniform name; "" for the others
    std::vector<std::string> values;  // as written in the spec
    // Its CSV column: "sweep.config", "sweep.trace", "set.sm.sub_partitions", "uniform.sx",
    // "sweep.policy", "sweep.max_instructions", "sweep.max_cycles" (apart from the report's names).
    std::string column() const;
};

struct Spec {
    std::string file;          // the spec's path, as given
    std::string dir;           // its directory: base of relative paths
    std::vector<Axis> axes;    // grid order, outermost first; Config and Trace always present
    std::string output;        // "output:" resolved against dir, or ""

    uint64_t points() const;   // product of the axes' sizes
    // A path of the spec (a config or trace) as the simulator opens it.
    std::string resolve(const std::string& path) const;
};

// Reads and validates SPEC.yaml. Throws simt::Error located in the spec.
Spec load_spec(const std::string& path);
// Same from text (tests); `name` is the file name used in messages and `dir` the base of paths.
Spec load_spec_text(const std::string& text, const std::string& name, const std::string& dir);

}  // namespace simt::sweep
