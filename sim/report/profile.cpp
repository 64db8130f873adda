// profile.cpp: the --profile directory (see profile.hpp).
#include "sim/report/profile.hpp"

#include "isa/diagnostics.hpp"

#include <cstdio>
#include <filesystem>
#include <set>
#include <vector>

namespace simt::report {
namespace fs = std::filesystem;

namespace {
std::string csv_quote(const std::string& t) {
    std::string q = "\"";
    for (char c : t) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
}  // namespace

ProfileDir::ProfileDir(const std::string& dir, const isa::Program& program, const std::string& title) : dir_(dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw Error(SourceLoc{dir, 0, 0}, "cannot create the profile directory" +
                                              (ec ? ": " + ec.message() : std::string(": a file of that name exists")));
    timeline_file_ = open("timeline.csv");
    trace_file_ = open("trace.json");
    timeline_ = std::make_unique<TimelineCsvWriter>(timeline_file_);
    trace_ = std::make_unique<ChromeTraceWriter>(trace_file_, program, title);
}

std::ofstream ProfileDir::open(const std::string& name) const {
    const std::string path = (fs::path(dir_) / name).string();
    std::ofstream f(path);
    if (!f) throw Error(SourceLoc{path, 0, 0}, "cannot open for writing");
    return f;
}

void ProfileDir::add_observers(ObserverFan& fan) {
    fan.add(timeline_.get());
    fan.add(trace_.get());
    fan.add(&masks_);
}

void LaneMaskCollector::write(std::ostream& out) const {
    out << "warp,block,pc,mask\n";
    char hex[16];
    for (const auto& [key, m] : masks_) {
        std::snprintf(hex, sizeof hex, "0x%08x", m.mask);
        out << key.first << ',' << m.block << ',' << key.second << ',' << hex << '\n';
    }
}

void ProfileDir::finish(const RunInfo& run, const timing::Stats& s) {
    timeline_file_.close();
    trace_file_.close();
    {
        auto f = open("report.json");
        write_json(f, run, s);
    }
    {
        auto f = open("report.txt");
        print_text(f, run, s, TextOptions{});
    }
    {
        auto f = open("pc.csv");
        write_pc_csv(f, run, s);
    }
    {
        auto f = open("source.csv");
        write_source_csv(f, run.program);
    }
    {
        auto f = open("lanes.csv");
        masks_.write(f);
    }
    std::error_code ec;
    fs::copy_file(run.trace_path, fs::path(dir_) / "trace.isa", fs::copy_options::overwrite_existing, ec);
    if (ec) throw Error(SourceLoc{(fs::path(dir_) / "trace.isa").string(), 0, 0}, "cannot copy the trace: " + ec.message());
}

void write_source_csv(std::ostream& out, const isa::Program& program) {
    out << "file,line,text\n";
    std::set<std::string> seen;
    for (const auto& in : program.code) {
        if (!seen.insert(in.loc.file).second) continue;
        std::ifstream src(in.loc.file);
        std::string line;
        for (uint32_t n = 1; std::getline(src, line); ++n) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            out << csv_quote(in.loc.file) << ',' << n << ',' << csv_quote(line) << '\n';
        }
    }
}

}  // namespace simt::report
