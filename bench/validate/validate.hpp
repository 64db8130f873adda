// validate.hpp: what the parts of `validate` share: the hardware tables, a reusable assembled
// trace, result rows and the run context. Each group of comparisons (base.cpp: the first
// calibration set; extended.cpp: issue 6's loaded, contended and app-like kernels) adds rows.
#pragma once

#include "isa/assembler.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/gpu.hpp"

#include <libfccp/csv.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace validate {


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

// ---------------------------------------------------------------- running traces

// An assembled trace and its memory image, run again under other uniforms or launches.
// Not movable: the memory image refers to the program.
struct Trace {
    explicit Trace(const std::string& path)
        : program(simt::isa::assemble_file(path)),
          memory(program, std::filesystem::path(path).parent_path().string()) {}
    Trace(const Trace&) = delete;
    Trace& operator=(const Trace&) = delete;

    simt::timing::Stats run(const GpuConfig& config, const Uniforms& uniforms = {},
                            simt::timing::Observer* observer = nullptr) {
        for (const auto& u : uniforms) simt::isa::override_uniform(program, u);
        simt::timing::RunOptions options;
        options.observer = observer;
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

struct Row {
    std::string group, name, unit;
    double hw = 0, sim = 0;
    double tol_pct = 5;
    double error_pct() const { return 100.0 * (sim - hw) / hw; }
    bool ok() const { return std::fabs(sim - hw) <= tol_pct / 100.0 * std::fabs(hw) + 1e-12; }
};

// One kernel's warp states against Nsight Compute's (cycles per issued instruction).
struct StateRow {
    std::string label;
    std::string hw_top, sim_top;                 // largest state other than selected
    std::map<std::string, double> hw, sim;       // state -> cycles per issue
    bool top_ok() const { return hw_top == sim_top; }
};

struct Context {
    std::string root;
    HwTable hw, ext;
    GpuConfig h200, one_sm, one_sm_dram, rtx4060;
    std::vector<Row> rows;
    std::vector<StateRow> states;   // warp-state comparisons against Nsight Compute
    std::map<std::string, std::map<std::string, double>> ncu;  // label -> state -> cycles per issue

    std::string trace(const std::string& name) const { return root + "/calib/traces/" + name + ".isa"; }
    void add(const std::string& group, const std::string& kernel, const std::string& param, double sim,
             const std::string& unit) {
        add_row(group, kernel, param, hw.get(kernel, param), sim, unit);
    }
    // A row of the extended set (calib_h200_ext.csv).
    void add_ext(const std::string& group, const std::string& kernel, const std::string& param, double sim,
                 const std::string& unit) {
        add_row(group, kernel, param, ext.get(kernel, param), sim, unit);
    }
    void add_row(const std::string& group, const std::string& kernel, const std::string& param, double hw_value,
                 double sim, const std::string& unit) {
        rows.push_back(Row{group, kernel + "." + param, unit, hw_value, sim});
        const Row& r = rows.back();
        std::fprintf(stderr, "  %-44s hw %10.4f  sim %10.4f  %+7.1f%%\n", r.name.c_str(), r.hw, r.sim, r.error_pct());
    }
};

inline GpuConfig load(const std::string& root, const std::string& file, Uniforms sets, const Uniforms& what_if) {
    sets.insert(sets.end(), what_if.begin(), what_if.end());
    return simt::load_config(root + "/configs/" + file, sets);
}

// The groups (each adds rows to the context).
void base_groups(Context& c);
void extended_groups(Context& c);  // loaded, stores, gathers, atomics, transposes
void app_groups(Context& c);       // apps, warp order and release, local memory (apps.cpp)
// Reads calib/results/ncu_h200_ext_states.csv (label,state,cycles_per_issue) into c.ncu.
void read_ncu_states(Context& c, const std::string& path);
// Compares a run's warp states with the ncu launch `label` (no row when ncu has none).
void compare_states(Context& c, const std::string& label, const simt::timing::Stats& s);

}  // namespace validate
