// output.hpp: the sweep's CSV file: resuming it, and writing rows in grid order.
//
// Rows are written in grid order, each flushed whole, so an interrupted sweep
// leaves a header and a prefix of the grid's rows (and at most one partial
// line). open_output() reads such a file back: it checks the header is this
// spec's and that row k is point k with point k's axis values, drops a partial
// last line, and returns where to continue; the finished file is then the same
// bytes as an uninterrupted run's. Anything else in the file (another spec's
// rows, rows out of order) is an error at its line, never silently mixed.
#pragma once

#include "sim/sweep/spec.hpp"

#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace simt::sweep {

// Opens (creates or resumes) the CSV at `path` for spec; `first` becomes the
// first point still to run (spec.points() when the file is complete).
// Throws simt::Error located in the file.
std::ofstream open_output(const Spec& spec, const std::string& path, uint64_t& first);

// Takes finished rows in any order, from any thread, and writes them in grid
// order from `first` on. `on_row(done, failed)` is called after each put (under
// the lock), e.g. for a progress bar.
class OrderedRows {
public:
    OrderedRows(std::ostream& out, uint64_t first, std::function<void(uint64_t, uint64_t)> on_row = {});
    void put(uint64_t index, std::string row, bool failed);
    uint64_t written() const;
    uint64_t failed() const;

private:
    std::ostream& out_;
    uint64_t next_;
    uint64_t done_ = 0, failed_ = 0;
    std::map<uint64_t, std::string> waiting_;
    std::function<void(uint64_t, uint64_t)> on_row_;
    mutable std::mutex mutex_;
};

// True when a row's error column is not empty (its report fields are then empty).
bool row_failed(const Spec& spec, const std::string& row);

}  // namespace simt::sweep
