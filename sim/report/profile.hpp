// profile.hpp: `simt-sim --profile DIR`, everything simt-viz needs about one run,
// in one directory (the format is defined in README.md, "Profile directory"):
//
//   timeline.csv  every warp's state over time, with lanes (TimelineCsvWriter)
//   pc.csv        the per-instruction table (write_pc_csv)
//   report.json   the JSON report (write_json), with the launch shape
//   report.txt    the text report, without colours
//   trace.json    the Chrome trace event file (ChromeTraceWriter)
//   source.csv    file,line,text: every line of every source file the program's
//                 instructions come from (the trace and its .includes), for the source view
//   trace.isa     a copy of the main trace file
//   lanes.csv     warp,block,pc,mask: per warp and pc, the OR of the active-lane masks
//                 (bit i = lane i, hex) of its issues there: which lanes took which path
//
// Same inputs, same bytes: nothing in it depends on the clock or the host.
#pragma once

#include "sim/report/report.hpp"
#include "sim/report/timeline_csv.hpp"
#include "sim/report/trace_json.hpp"

#include <fstream>
#include <map>
#include <memory>
#include <string>

namespace simt::report {

// Collects lanes.csv: per (warp, pc), the union of the active masks issued there.
class LaneMaskCollector : public timing::Observer {
public:
    void on_issue(const timing::IssueEvent& e) override {
        auto& m = masks_[{e.id.warp, e.pc}];
        m.block = e.id.block;
        m.mask |= e.active;
    }
    void write(std::ostream& out) const;  // sorted by warp, then pc

private:
    struct Mask {
        uint64_t block = 0;
        uint32_t mask = 0;
    };
    std::map<std::pair<uint64_t, uint32_t>, Mask> masks_;
};

class ProfileDir {
public:
    // Creates DIR (and its parents) and opens the streamed files; throws simt::Error.
    // `title` names the run in trace.json (as --trace-json does).
    ProfileDir(const std::string& dir, const isa::Program& program, const std::string& title);
    void add_observers(ObserverFan& fan);
    // After the run: writes the reports and the sources.
    void finish(const RunInfo& run, const timing::Stats& s);

private:
    std::ofstream open(const std::string& name) const;
    std::string dir_;
    std::ofstream timeline_file_, trace_file_;
    std::unique_ptr<TimelineCsvWriter> timeline_;
    std::unique_ptr<ChromeTraceWriter> trace_;
    LaneMaskCollector masks_;
};

// source.csv for a program: each distinct file of its instructions, in first-use order.
void write_source_csv(std::ostream& out, const isa::Program& program);

}  // namespace simt::report
