// comparisons.hpp: the simulator against calibration measurements. Each twin of a CUDA kernel of
// calib/kernels/ (calib/traces/*.isa) runs on a config, the quantity the CUDA program reports is
// derived from the simulated run, and a Row pairs it with the measured value. The groups:
// base.cpp (the first calibration set and the RTX 4060 seed), extended.cpp (loaded latency,
// stores, gathers, atomics, transposes), apps.cpp (app-like kernels, warp order, local memory).
// Used by bench/validate (the table) and `simt-sim calibrate` (the fit). Layer: above timing.
#pragma once

#include "isa/assembler.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/gpu.hpp"

#include <libfccp/csv.h>

#include <cmath>
#include <optional>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace simt::calib {


using simt::GpuConfig;
using Uniforms = std::vector<std::string>;

// ---------------------------------------------------------------- hardware numbers

// Measured rows (kernel, parameter) -> value, from one or more calibration CSVs of
// calib/run.sh (kernel,parameter,value,unit,notes). measurements.cpp reads them with located
// errors (missing column, non-number, empty file, duplicate row).
class Measurements {
public:
    struct Value {
        double value = 0;
        std::string file;
        uint32_t line = 0;
    };
    // Reads `path` and adds its rows (a row already read is replaced, with a warning).
    void read(const std::string& path);
    bool has(const std::string& kernel, const std::string& param) const { return rows_.count(key(kernel, param)) > 0; }
    bool has_kernel(const std::string& kernel) const { return kernels_.count(kernel) > 0; }
    const Value* find(const std::string& kernel, const std::string& param) const {
        auto it = rows_.find(key(kernel, param));
        return it == rows_.end() ? nullptr : &it->second;
    }
    double get(const std::string& kernel, const std::string& param) const;
    // The device name the CSV's `device` rows carry in their notes ("" when none).
    const std::string& device() const { return device_; }
    const std::vector<std::string>& files() const { return files_; }
    // Each kernel's first row (for "no twin uses it" warnings).
    std::map<std::string, Value> kernels() const {
        std::map<std::string, Value> out;
        for (const auto& [k, v] : rows_) {
            std::string kernel = k.substr(0, k.find(','));
            auto it = out.find(kernel);
            if (it == out.end() || v.line < it->second.line) out[kernel] = v;
        }
        return out;
    }
    size_t size() const { return rows_.size(); }

private:
    static std::string key(const std::string& k, const std::string& p) { return k + "," + p; }
    std::map<std::string, Value> rows_;
    std::map<std::string, int> kernels_;
    std::vector<std::string> files_;
    std::string device_;
};

// ---------------------------------------------------------------- running traces

// An assembled trace and its memory image, run again under other uniforms or launches.
// Not movable: the memory image refers to the program.
struct Trace {
    explicit Trace(const std::string& path)
        : program(simt::isa::assemble_file(path)),
          memory(program, std::filesystem::path(path).parent_path().string()) {}
    Trace(const Trace&) = delete;
    Trace& operator=(const Trace&) = delete;

    // `warm`: untimed launches first (RunOptions::warm_launches).
    simt::timing::Stats run(const GpuConfig& config, const Uniforms& uniforms = {},
                            simt::timing::Observer* observer = nullptr, uint32_t warm = 0) {
        for (const auto& u : uniforms) simt::isa::override_uniform(program, u);
        simt::timing::RunOptions options;
        options.observer = observer;
        options.warm_launches = warm;
        simt::timing::Simulator sim(config, program, memory, options);
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

// Replaces a compute trace's launch shape (1-D grid and block).
inline void set_launch(Trace& t, uint32_t grid, uint32_t block) {
    t.program.launch.grid = {grid, 1, 1};
    t.program.launch.block = {block, 1, 1};
}

struct Row {
    std::string group, name, unit;
    double hw = 0, sim = 0;
    double tol_pct = 5;
    bool imported = false;   // simulated from an imported SASS kernel (calib/sass/*.launch.isa), not a twin
    double error_pct() const { return 100.0 * (sim - hw) / hw; }
    bool ok() const { return std::fabs(sim - hw) <= tol_pct / 100.0 * std::fabs(hw) + 1e-12; }
};

// One kernel's warp states against Nsight Compute's (cycles per issued instruction).
struct StateRow {
    std::string label;
    std::string hw_top, sim_top;                 // largest state other than selected
    std::map<std::string, double> hw, sim;       // state -> cycles per issue
    double hw_l1_hit = -1, sim_l1_hit = -1;      // L1 hit rate in % (ncu's l1tex__t_sector_hit_rate; -1: not measured)
    bool top_ok() const { return hw_top == sim_top; }
};

// The configs a comparison runs on, all from one file and its overrides: the whole GPU, one
// SM (per-SM rates), one SM with its share of DRAM bandwidth (memory-bound per-SM cases), and the
// RTX 4060 of the seed (only when `seed_config` is set).
struct Configs {
    GpuConfig full, one_sm, one_sm_dram;
    std::optional<GpuConfig> seed;
    static Configs load(const std::string& path, const Uniforms& sets, const std::string& seed_path = "");
};

struct Context {
    std::string root;       // the repository (calib/traces/ holds the twins)
    std::string config_path;   // the config file and its --set values (cfg's), for a group that loads a variant
    Uniforms config_sets;
    Measurements hw;
    Configs cfg;
    std::vector<Row> rows;
    std::vector<StateRow> states;   // warp-state comparisons against Nsight Compute
    std::map<std::string, std::map<std::string, double>> ncu;  // label -> state -> cycles per issue
    std::vector<std::string> missing;  // rows a comparison wanted that the CSV does not have
    bool verbose = true;               // one line per row on stderr

    const GpuConfig& h200() const { return cfg.full; }
    const GpuConfig& one_sm() const { return cfg.one_sm; }
    const GpuConfig& one_sm_dram() const { return cfg.one_sm_dram; }
    bool sass = false;                 // prefer the imported SASS (calib/sass/NAME.launch.isa) to the twin
    bool last_imported = false;        // the latest trace() was an import: the rows added after it are tagged
    std::string trace(const std::string& name) {
        const std::string imported = root + "/calib/sass/" + name + ".launch.isa";
        std::error_code ec;
        last_imported = sass && std::filesystem::is_regular_file(imported, ec);
        if (last_imported) return imported;
        return root + "/calib/traces/" + name + ".isa";
    }
    // Does the CSV hold any row of this kernel? (Groups skip the twins of absent kernels.)
    bool wants(const std::string& kernel) { return hw.has_kernel(kernel) && gate(kernel); }
    // Whether to run the unit of work `name` (a kernel's twins; groups whose rows no CSV kernel
    // gates name their own): always, unless the context runs one unit only (`only`), or records
    // the units a group has (`units` non-null: names them in order and runs none).
    bool gate(const std::string& name) {
        if (units) return units->push_back(name), false;
        return only.empty() || name == only;
    }
    std::string only;
    std::vector<std::string>* units = nullptr;
    // Adds the row kernel.param with the measured value, or lists it as missing.
    void add(const std::string& group, const std::string& kernel, const std::string& param, double sim,
             const std::string& unit, double tol_pct = 5);
};

// Runs `t` on the H200 config at two values of the uniform `knob` (with `extra` set); returns the
// cycle difference, the second run in *s2.
double delta(Context& c, Trace& t, const std::string& knob, uint64_t a, uint64_t b, simt::timing::Stats* s2,
             Uniforms extra = {});

// The H200 config (the context's file and --set values) with an H100 SXM's memory side: a 50 MB L2 of 80
// slices and 3.35 TB/s of HBM3 on 80 channels, for rows measured on an H100 (the same GH100 SM and L2
// slices; holdout.cpp).
GpuConfig h100_memory(const Context& c);

// A group of comparisons: runs its twins and adds rows to the context. `set` is the calibration
// set it belongs to (base, extended, apps).
struct Group {
    const char* name;
    const char* set;
    void (*run)(Context&);
};
std::vector<Group> base_groups();      // latency, throughput, ipc, divergence, trip counts, strides, occupancy, seed
std::vector<Group> extended_groups();  // loaded latency, streams, writes, gathers, atomics, transposes
std::vector<Group> app_groups();       // apps, warp order and release, local memory (apps.cpp)
std::vector<Group> dispatch_groups();  // block dispatch, one-element-per-thread streams, write streams (dispatch.cpp)
std::vector<Group> hotspot_groups();   // hot-line atomics grid, L2 capacity shared / private (hotspots.cpp)
std::vector<Group> probe_groups();     // shared-bank conflicts, mixed random DRAM reads and writes (probes.cpp)
std::vector<Group> holdout_groups();   // held-out app-like kernels, from their compiled SASS only (holdout.cpp)
std::vector<Group> all_groups();       // all of them, in that order
// Throws simt::Error for a name that is neither a group nor a set.
void check_group_names(const std::vector<std::string>& names);
// Runs the groups named in `names` (all when empty); unknown names are an error.
void run_groups(Context& c, const std::vector<std::string>& names);
// Is there a twin for this CSV kernel under root/calib/traces (its own file, or the shared twin
// of a family: occ_r* -> occupancy, atom_* / red_* -> atom_global, hist_global_* -> hist_global,
// transpose_tiled_pad -> transpose_tiled)?
bool has_twin(const std::string& root, const std::string& kernel);
// Reads calib/results/ncu_h200_ext_states.csv (label,state,cycles_per_issue) into c.ncu.
void read_ncu_states(Context& c, const std::string& path);
// Compares a run's warp states with the ncu launch `label` (no row when ncu has none).
void compare_states(Context& c, const std::string& label, const simt::timing::Stats& s);

}  // namespace simt::calib
