// compare.cpp: the two-run comparison table (see compare.hpp).
#include "sim/report/compare.hpp"

#include "isa/diagnostics.hpp"
#include "sim/timing/stats.hpp"

// Boost 1.74's json_parser includes the deprecated <boost/bind.hpp>, which prints a #pragma
// message in every file unless this is defined (Debian 12's Boost; harmless otherwise).
#ifndef BOOST_BIND_GLOBAL_PLACEHOLDERS
#define BOOST_BIND_GLOBAL_PLACEHOLDERS
#endif
#include <boost/property_tree/json_parser.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace simt::report {
namespace {

JsonTree parse(const std::string& name, std::istream& in) {
    JsonTree t;
    try {
        boost::property_tree::read_json(in, t);
    } catch (const boost::property_tree::json_parser_error& e) {
        throw Error(SourceLoc{name, static_cast<uint32_t>(e.line()), 0}, "not valid JSON: " + e.message());
    }
    for (const char* key : {"cycles", "warp_instructions", "stall_reasons"})
        if (!t.get_child_optional(key))
            throw Error(SourceLoc{name, 0, 0}, std::string("not a simt-sim --json report (no \"") + key + "\")");
    return t;
}

double num(const JsonTree& t, const std::string& path) { return t.get<double>(path, 0.0); }

std::string fmt(double v, int decimals) {
    char buf[48];
    if (decimals == 0 && std::fabs(v) >= 1e4) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        std::string s = buf, g;  // thousands separators
        int n = 0;
        for (auto it = s.rbegin(); it != s.rend(); ++it) {
            if (n && n % 3 == 0 && *it != '-') g.insert(g.begin(), ',');
            g.insert(g.begin(), *it);
            ++n;
        }
        return g;
    }
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

void row(std::ostream& out, const std::string& name, double a, double b, int decimals, bool ratio) {
    char line[200];
    std::string change;
    if (ratio) {
        change = a != 0 ? fmt(b / a, 3) + "\xc3\x97" : (b == 0 ? "=" : "new");
    } else {
        const double d = b - a;
        change = (d > 0 ? "+" : "") + fmt(d, decimals);
    }
    std::snprintf(line, sizeof line, "  %-26s %14s %14s   %s\n", name.c_str(), fmt(a, decimals).c_str(),
                  fmt(b, decimals).c_str(), change.c_str());
    out << line;
}

std::string describe(const JsonTree& t) {
    return t.get<std::string>("kernel", "?") + " on " + t.get<std::string>("config", "?") + " (" +
           t.get<std::string>("trace", "?") + ")";
}

}  // namespace

JsonTree load_report_json(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw Error(SourceLoc{path, 0, 0}, "cannot open the report to compare with (write one with --json FILE)");
    return parse(path, in);
}

JsonTree parse_report_json(const std::string& name, const std::string& text) {
    std::istringstream in(text);
    return parse(name, in);
}

void print_comparison(std::ostream& out, const JsonTree& a, const std::string& name_a, const JsonTree& b,
                      const std::string& name_b) {
    out << "\nComparison  (A = " << name_a << ", B = " << name_b << ")\n"
        << "  A  " << describe(a) << "\n  B  " << describe(b) << "\n\n";
    char head[200];
    std::snprintf(head, sizeof head, "  %-26s %14s %14s   %s\n", "metric", "A", "B", "B/A or B-A");
    out << head;
    row(out, "cycles", num(a, "cycles"), num(b, "cycles"), 0, true);
    row(out, "time_us", num(a, "time_us"), num(b, "time_us"), 3, true);
    row(out, "warp_instructions", num(a, "warp_instructions"), num(b, "warp_instructions"), 0, true);
    row(out, "thread_instructions", num(a, "thread_instructions"), num(b, "thread_instructions"), 0, true);
    row(out, "ipc", num(a, "ipc"), num(b, "ipc"), 3, true);
    row(out, "simt_efficiency %", 100 * num(a, "simt_efficiency"), 100 * num(b, "simt_efficiency"), 1, false);
    row(out, "occupancy achieved %", 100 * num(a, "occupancy.achieved"), 100 * num(b, "occupancy.achieved"), 1, false);
    out << "  warp states (cycles per issued instruction)\n";
    for (int r = 0; r < timing::kNumStallReasons; ++r) {
        const std::string key = std::string("stall_reasons.") + timing::stall_name(r);
        const double va = num(a, key), vb = num(b, key);
        if (va != 0 || vb != 0) row(out, std::string("  ") + timing::stall_name(r), va, vb, 2, false);
    }
    out << "  pipes (utilisation %)\n";
    std::vector<std::string> pipes;
    if (auto p = a.get_child_optional("pipes"))
        for (const auto& kv : *p) pipes.push_back(kv.first);
    for (const auto& p : pipes) {
        const double va = 100 * num(a, "pipes." + p), vb = 100 * num(b, "pipes." + p);
        if (va != 0 || vb != 0) row(out, "  " + p, va, vb, 1, false);
    }
    out << "  memory\n";
    row(out, "  requests", num(a, "memory.requests"), num(b, "memory.requests"), 0, true);
    row(out, "  sectors_per_request", num(a, "memory.sectors_per_request"), num(b, "memory.sectors_per_request"), 2, false);
    row(out, "  l1_hit_rate %", 100 * num(a, "memory.l1_hit_rate"), 100 * num(b, "memory.l1_hit_rate"), 1, false);
    row(out, "  l2_hit_rate %", 100 * num(a, "memory.l2_hit_rate"), 100 * num(b, "memory.l2_hit_rate"), 1, false);
    row(out, "  dram_bytes", num(a, "memory.dram_bytes"), num(b, "memory.dram_bytes"), 0, true);
    row(out, "  shared_bank_conflicts", num(a, "memory.shared_bank_conflicts"), num(b, "memory.shared_bank_conflicts"), 0, true);
}

}  // namespace simt::report
