// point.hpp: one point of a sweep grid, run through the Simulator, as one CSV row.
//
// A point's index counts through the grid with the last axis fastest (the
// order of spec.hpp). Its row: `point`, one column per axis (the value as
// written in the spec), `error` (empty on success), then every run-level field
// of the JSON report (sim/report/summary.hpp). A point that fails (a config
// value the validation refuses, a trace that does not assemble, a run-time
// fault, a budget) is a row too: its error message on one line, its report
// fields empty. The row depends only on the spec and the index, never on which
// thread or rank ran it.
#pragma once

#include "sim/sweep/spec.hpp"

#include <string>
#include <vector>

namespace simt::sweep {

// The value index of each axis for point `index` (< spec.points()).
std::vector<size_t> point_digits(const Spec& spec, uint64_t index);

// The CSV header line (no newline).
std::string header_line(const Spec& spec);
// The start of point `index`'s row: its index and axis values, each followed by ','.
std::string row_prefix(const Spec& spec, uint64_t index);
// Runs point `index` and returns its whole row (no newline). Never throws simt::Error.
// `threads`: the Simulator's RunOptions::threads (the same row for any count).
std::string run_point(const Spec& spec, uint64_t index, unsigned threads = 1);

}  // namespace simt::sweep
