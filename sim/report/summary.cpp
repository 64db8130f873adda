// summary.cpp: the JSON report's run-level fields flattened into one row.
#include "sim/report/summary.hpp"

#include "sim/report/report_fields.hpp"

#include <cmath>
#include <cstdio>

namespace simt::report {

namespace {

// JsonWriter's interface, collecting dotted names and text values.
class FlatRow {
public:
    static constexpr bool kFixedShape = true;

    FlatRow& begin_object(std::string_view key = {}) { return open(key); }
    FlatRow& end_object() { return close(); }
    FlatRow& begin_array(std::string_view key = {}) { return open(key); }
    FlatRow& end_array() { return close(); }

    FlatRow& field(std::string_view key, std::string_view v) { return put(key, std::string(v)); }
    FlatRow& field(std::string_view key, const char* v) { return put(key, v); }
    FlatRow& field(std::string_view key, bool v) { return put(key, v ? "true" : "false"); }
    FlatRow& field(std::string_view key, double v) { return put(key, real(v)); }
    FlatRow& field(std::string_view key, uint64_t v) { return put(key, std::to_string(v)); }
    FlatRow& field(std::string_view key, uint32_t v) { return put(key, std::to_string(v)); }
    FlatRow& field(std::string_view key, int v) { return put(key, std::to_string(v)); }
    FlatRow& value(std::string_view v) { return field({}, v); }
    FlatRow& value(double v) { return field({}, v); }
    FlatRow& value(uint64_t v) { return field({}, v); }

    std::vector<std::string> names, values;

private:
    struct Level {
        std::string prefix;
        size_t next_index = 0;  // for array elements
    };
    std::vector<Level> levels_;

    std::string name(std::string_view key) {
        if (levels_.empty()) return std::string(key);
        Level& l = levels_.back();
        const std::string leaf = key.empty() ? std::to_string(l.next_index++) : std::string(key);
        return l.prefix.empty() ? leaf : l.prefix + "." + leaf;
    }
    FlatRow& open(std::string_view key) {
        levels_.push_back({name(key)});
        return *this;
    }
    FlatRow& close() {
        levels_.pop_back();
        return *this;
    }
    FlatRow& put(std::string_view key, std::string v) {
        names.push_back(name(key));
        values.push_back(std::move(v));
        return *this;
    }
    static std::string real(double v) {
        if (!std::isfinite(v)) return "";
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.10g", v);
        return buf;
    }
};

FlatRow flatten(const RunInfo& run, const timing::Stats& s) {
    FlatRow row;
    row.begin_object();  // the top level: no prefix
    write_report_fields(row, run, s);
    row.end_object();
    return row;
}

}  // namespace

std::vector<std::string> summary_columns() {
    const isa::Program program;
    const GpuConfig config;
    const timing::Stats stats;
    return flatten(RunInfo{program, config, "", ""}, stats).names;
}

std::vector<std::string> summary_values(const RunInfo& run, const timing::Stats& s) {
    return flatten(run, s).values;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string q = "\"";
    for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace simt::report
