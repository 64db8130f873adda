// compare.hpp: two runs side by side (simt-sim --compare OTHER.json).
//
// Both runs are read as the JSON report (`--json`, schema in README.md): this
// run's is written to memory and read back, so the two go through one path.
// The table shows, per metric, A (this run), B (OTHER.json), and B/A or B-A:
// time, instructions, IPC, SIMT efficiency, occupancy, the warp states (cycles
// per issued instruction), pipe utilisation and memory.
// Leaves out: per-pc differences (the programs may differ).
#pragma once

#include <boost/property_tree/ptree.hpp>

#include <ostream>
#include <string>

namespace simt::report {

using JsonTree = boost::property_tree::ptree;

// Reads a simt-sim JSON report; throws simt::Error "file:line: error: ..." when the
// file is missing, is not JSON, or is not a simt-sim report.
JsonTree load_report_json(const std::string& path);
// The same from text (this run's report); `name` is used in messages.
JsonTree parse_report_json(const std::string& name, const std::string& text);

void print_comparison(std::ostream& out, const JsonTree& a, const std::string& name_a, const JsonTree& b,
                      const std::string& name_b);

}  // namespace simt::report
