// point.cpp: from a grid index to a configured run and its CSV row.
#include "sim/sweep/point.hpp"

#include "isa/assembler.hpp"
#include "isa/diagnostics.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/report/summary.hpp"
#include "sim/timing/gpu.hpp"

#include <filesystem>
#include <new>

namespace simt::sweep {

namespace {

// What one point asks of the simulator, gathered from its axis values.
struct Run {
    std::string config, trace;              // as written in the spec
    std::vector<std::string> overrides;     // --set
    std::vector<std::string> uniforms;      // --uniform
    std::string max_instructions, max_cycles;
};

Run describe(const Spec& spec, uint64_t index) {
    const std::vector<size_t> d = point_digits(spec, index);
    Run r;
    for (size_t a = 0; a < spec.axes.size(); ++a) {
        const Axis& axis = spec.axes[a];
        const std::string& v = axis.values[d[a]];
        switch (axis.kind) {
            case AxisKind::Config: r.config = v; break;
            case AxisKind::Trace: r.trace = v; break;
            case AxisKind::Set: r.overrides.push_back(axis.name + "=" + v); break;
            case AxisKind::Uniform: r.uniforms.push_back(axis.name + "=" + v); break;
            case AxisKind::Policy: r.overrides.push_back("scheduler.policy=" + v); break;
            case AxisKind::MaxInstructions: r.max_instructions = v; break;
            case AxisKind::MaxCycles: r.max_cycles = v; break;
        }
    }
    return r;
}

std::vector<std::string> simulate(const Spec& spec, const Run& r, unsigned threads) {
    GpuConfig config = load_config(spec.resolve(r.config), r.overrides);
    if (!r.max_instructions.empty()) config.max_warp_instructions = std::stoull(r.max_instructions);  // checked at load
    if (!r.max_cycles.empty()) config.max_cycles = std::stoull(r.max_cycles);
    const std::string trace = spec.resolve(r.trace);
    isa::Program program = isa::assemble_file(trace);
    for (const auto& u : r.uniforms) isa::override_uniform(program, u);
    func::GlobalMemory memory(program, std::filesystem::path(trace).parent_path().string());
    timing::RunOptions options;
    options.threads = threads;
    timing::Simulator sim(config, program, memory, options);
    const timing::Stats stats = sim.run();
    return report::summary_values(report::RunInfo{program, config, r.trace, r.config}, stats);
}

// An error message on one line: each line break becomes " | ".
std::string one_line(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\n') out += " | ";
        else if (c == '\r' || c == '\t') out += ' ';
        else out += c;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '|')) out.pop_back();
    return out;
}

}  // namespace

std::vector<size_t> point_digits(const Spec& spec, uint64_t index) {
    std::vector<size_t> d(spec.axes.size());
    for (size_t a = spec.axes.size(); a-- > 0;) {
        const size_t n = spec.axes[a].values.size();
        d[a] = size_t(index % n);
        index /= n;
    }
    return d;
}

std::string header_line(const Spec& spec) {
    std::string h = "point";
    for (const Axis& a : spec.axes) h += "," + report::csv_field(a.column());
    h += ",error";
    for (const auto& c : report::summary_columns()) h += "," + report::csv_field(c);
    return h;
}

std::string row_prefix(const Spec& spec, uint64_t index) {
    const std::vector<size_t> d = point_digits(spec, index);
    std::string p = std::to_string(index) + ",";
    for (size_t a = 0; a < spec.axes.size(); ++a) p += report::csv_field(spec.axes[a].values[d[a]]) + ",";
    return p;
}

std::string run_point(const Spec& spec, uint64_t index, unsigned threads) {
    std::string error;
    std::vector<std::string> values;
    try {
        values = simulate(spec, describe(spec, index), threads);
    } catch (const Error& e) {
        error = e.what();
    } catch (const std::bad_alloc&) {
        error = "error: out of memory";
    } catch (const std::exception& e) {  // a bug, not bad input: still a row
        error = std::string("internal error: ") + e.what();
    }
    if (!error.empty()) values.assign(report::summary_columns().size(), "");
    std::string row = row_prefix(spec, index) + report::csv_field(one_line(error));
    for (const auto& v : values) row += "," + report::csv_field(v);
    return row;
}

}  // namespace simt::sweep
