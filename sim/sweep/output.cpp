// output.cpp: resume checks and ordered writing of the sweep CSV.
#include "sim/sweep/output.hpp"

#include "isa/diagnostics.hpp"
#include "sim/sweep/point.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace simt::sweep {

namespace {

namespace fs = std::filesystem;

// Fields of one CSV line (quoted fields may hold commas and doubled quotes).
size_t count_fields(const std::string& line) {
    size_t n = 1;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) ++n;
    }
    return n;
}

[[noreturn]] void fail(const std::string& path, uint32_t line, const std::string& what) {
    throw Error(SourceLoc{path, line, 0}, what);
}

std::string read_existing(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, 0, std::string("cannot read the sweep output to resume it: ") + std::strerror(errno));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Checks the rows of an existing output; returns the number of complete rows
// and the byte length of the header and those rows.
uint64_t check_rows(const Spec& spec, const std::string& path, const std::string& text, size_t& keep) {
    const std::string header = header_line(spec);
    const size_t columns = count_fields(header);
    size_t pos = text.find('\n');
    if (pos == std::string::npos || text.compare(0, pos, header) != 0)
        fail(path, 1, "the header is not this sweep's (another spec, or another simt-sim version, wrote the file): "
                      "delete it or choose another output");
    keep = pos + 1;
    uint64_t rows = 0;
    for (uint32_t line = 2;; ++line) {
        const size_t end = text.find('\n', keep);
        if (end == std::string::npos) break;  // none left, or a partial line from an interrupted write: dropped
        const std::string row = text.substr(keep, end - keep);
        if (rows >= spec.points()) fail(path, line, "more rows than the sweep's " + std::to_string(spec.points()) + " points");
        const std::string prefix = row_prefix(spec, rows);
        if (row.compare(0, prefix.size(), prefix) != 0)
            fail(path, line, "expected point " + std::to_string(rows) + " (" + prefix.substr(0, prefix.size() - 1) +
                                 "): the file holds another sweep's rows or was edited; delete it or choose another output");
        if (count_fields(row) != columns)
            fail(path, line, std::to_string(count_fields(row)) + " fields, the header has " + std::to_string(columns));
        keep = end + 1;
        ++rows;
    }
    return rows;
}

}  // namespace

std::ofstream open_output(const Spec& spec, const std::string& path, uint64_t& first) {
    std::error_code ec;
    const bool exists = fs::exists(path, ec) && fs::file_size(path, ec) > 0 && !ec;
    if (exists && !fs::is_regular_file(path)) fail(path, 0, "the sweep output is not a regular file");
    first = 0;
    if (exists) {
        const std::string text = read_existing(path);
        size_t keep = 0;
        first = check_rows(spec, path, text, keep);
        if (keep < text.size()) fs::resize_file(path, keep, ec);  // the partial last line
        if (ec) fail(path, 0, "cannot drop the partial last line: " + ec.message());
    }
    std::ofstream out(path, std::ios::binary | std::ios::app);
    if (!out) fail(path, 0, std::string("cannot open for writing: ") + std::strerror(errno));
    if (!exists) out << header_line(spec) << '\n' << std::flush;
    return out;
}

OrderedRows::OrderedRows(std::ostream& out, uint64_t first, std::function<void(uint64_t, uint64_t)> on_row)
    : out_(out), next_(first), on_row_(std::move(on_row)) {}

void OrderedRows::put(uint64_t index, std::string row, bool failed) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    failed_ += failed;
    waiting_.emplace(index, std::move(row));
    for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_; it = waiting_.erase(it), ++next_)
        out_ << it->second << '\n' << std::flush;
    if (on_row_) on_row_(done_, failed_);
}

uint64_t OrderedRows::written() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return next_;
}

uint64_t OrderedRows::failed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return failed_;
}

bool row_failed(const Spec& spec, const std::string& row) {
    // The error column follows `point` and the axes; it is empty exactly when the row has ",," there.
    size_t field = 0, i = 0;
    bool quoted = false;
    const size_t error_field = 1 + spec.axes.size();
    for (; i < row.size() && field < error_field; ++i) {
        if (row[i] == '"') quoted = !quoted;
        else if (row[i] == ',' && !quoted) ++field;
    }
    return i < row.size() && row[i] != ',';
}

}  // namespace simt::sweep
