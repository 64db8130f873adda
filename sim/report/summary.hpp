// summary.hpp: a run's report as one flat CSV row (for sweeps).
//
// The columns are the run-level fields of the JSON report (report_fields.hpp),
// nested keys joined with '.', array elements numbered (`launch.grid.0`); the
// per-pc table is left out. Every run gets the same columns in the same order,
// whatever its launch mode, so rows of many runs share one header. Numbers are
// written as in the JSON report (%.10g for reals); a non-finite real is empty.
#pragma once

#include "sim/report/report.hpp"

#include <string>
#include <vector>

namespace simt::report {

// The column names, the same for every run.
std::vector<std::string> summary_columns();
// One run's values, in summary_columns() order, not yet CSV-quoted.
std::vector<std::string> summary_values(const RunInfo& run, const timing::Stats& s);

// A CSV field: quoted (with doubled quotes) when it holds a comma, a quote or a
// line break; anything else as is.
std::string csv_field(const std::string& text);

}  // namespace simt::report
