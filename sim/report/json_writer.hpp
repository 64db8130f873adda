// json_writer.hpp: a minimal streaming JSON writer (objects, arrays, scalars).
//
// Enough for the reports: correct string escaping, commas and indentation
// handled here so printers only say what they write. Numbers that are not
// finite are written as null (JSON has no NaN).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string_view>
#include <vector>

namespace simt::report {

class JsonWriter {
public:
    static constexpr bool kFixedShape = false;  // fields may differ by launch mode (report_fields.hpp)

    explicit JsonWriter(std::ostream& out) : out_(out) {}

    JsonWriter& begin_object(std::string_view key = {}) { return open(key, '{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array(std::string_view key = {}) { return open(key, '['); }
    JsonWriter& end_array() { return close(']'); }

    JsonWriter& field(std::string_view key, std::string_view v) { prefix(key); str(v); return *this; }
    JsonWriter& field(std::string_view key, const char* v) { return field(key, std::string_view(v)); }
    JsonWriter& field(std::string_view key, bool v) { prefix(key); out_ << (v ? "true" : "false"); return *this; }
    JsonWriter& field(std::string_view key, double v) { prefix(key); num(v); return *this; }
    JsonWriter& field(std::string_view key, uint64_t v) { prefix(key); out_ << v; return *this; }
    JsonWriter& field(std::string_view key, uint32_t v) { return field(key, uint64_t(v)); }
    JsonWriter& field(std::string_view key, int v) { prefix(key); out_ << v; return *this; }
    JsonWriter& value(std::string_view v) { return field({}, v); }
    JsonWriter& value(double v) { return field({}, v); }
    JsonWriter& value(uint64_t v) { return field({}, v); }

    void finish() { out_ << '\n'; }

private:
    std::ostream& out_;
    std::vector<bool> first_;  // per open container: nothing written yet

    void newline() {
        out_ << '\n';
        for (size_t i = 0; i < first_.size(); ++i) out_ << "  ";
    }
    void prefix(std::string_view key) {
        if (!first_.empty()) {
            if (!first_.back()) out_ << ',';
            first_.back() = false;
            newline();
        }
        if (!key.empty()) {
            str(key);
            out_ << ": ";
        }
    }
    JsonWriter& open(std::string_view key, char c) {
        prefix(key);
        out_ << c;
        first_.push_back(true);
        return *this;
    }
    JsonWriter& close(char c) {
        bool empty = first_.back();
        first_.pop_back();
        if (!empty) newline();
        out_ << c;
        return *this;
    }
    void num(double v) {
        if (!std::isfinite(v)) { out_ << "null"; return; }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.10g", v);
        out_ << buf;
    }
    void str(std::string_view s) {
        out_ << '"';
        for (char c : s) {
            switch (c) {
                case '"': out_ << "\\\""; break;
                case '\\': out_ << "\\\\"; break;
                case '\n': out_ << "\\n"; break;
                case '\t': out_ << "\\t"; break;
                case '\r': out_ << "\\r"; break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        char buf[8];
                        std::snprintf(buf, sizeof buf, "\\u%04x", c);
                        out_ << buf;
                    } else {
                        out_ << c;
                    }
            }
        }
        out_ << '"';
    }
};

}  // namespace simt::report
