// report.hpp: printing of a timed run's Stats, apart from counting them.
//
//   print_text  - the human-readable report (stdout of simt-sim)
//   write_json  - the same content for scripts (schema in README.md)
//   write_pc_csv- the per-instruction table (pc, line, text, issued, lanes, stalls...) as CSV
//
// These read Stats, the Program (for source lines) and the GpuConfig; they
// never touch the model.
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"
#include "sim/timing/stats.hpp"

#include <ostream>
#include <string>

namespace simt::report {

struct RunInfo {
    const isa::Program& program;
    const GpuConfig& config;
    std::string trace_path;
    std::string config_path;
};

struct TextOptions {
    int hot_lines = 3;   // how many source lines to list
    bool color = false;  // ANSI colours (on a terminal)
};

void print_text(std::ostream& out, const RunInfo& run, const timing::Stats& s, const TextOptions& opt = {});
void write_json(std::ostream& out, const RunInfo& run, const timing::Stats& s);
void write_pc_csv(std::ostream& out, const RunInfo& run, const timing::Stats& s);

// Nsight Compute's meaning of a warp state, one line (for reports and --help).
const char* stall_meaning(timing::StallReason r);
// What a state usually points at, when it dominates (empty if nothing to say).
const char* stall_hint(timing::StallReason r);

}  // namespace simt::report
