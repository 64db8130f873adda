// trace_json.hpp: an Observer that writes the timeline in the Chrome trace event
// format (the JSON that Perfetto, chrome://tracing and speedscope open).
//
//   {"displayTimeUnit": "ns", "otherData": {...}, "traceEvents": [ one event per line ]}
//
//   * process = one SM ("SM 3", pid 3), sorted by SM;
//   * thread  = one warp (tid = global warp id + 1), named "SP 1 · w5 b2 (warp 21)",
//     sorted by sub-partition then warp, so a process lists its SPs' warps in blocks;
//   * one complete slice ("ph":"X") per state interval: name = the state, ts/dur in
//     cycles (a viewer shows them as µs: 1 cycle = 1 µs), args {pc, line ("file:line"), text,
//     lanes (selected only)};
//   * one counter track per SM, "issue rate": warp instructions issued per cycle,
//     averaged over buckets of `kIssueBucket` cycles ("ph":"C", written at the end).
// Events come in the order the model delivers them; metadata when a warp is dispatched.
// Left out: block events, memory requests (no observer event carries them).
#pragma once

#include "isa/isa.hpp"
#include "sim/report/timeline_csv.hpp"

#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace simt::report {

class ChromeTraceWriter : public timing::Observer {
public:
    static constexpr uint64_t kIssueBucket = 64;
    // `out` and `program` must outlive the writer; the document is closed by on_finish.
    ChromeTraceWriter(std::ostream& out, const isa::Program& program, const std::string& title);
    void on_warp_dispatched(uint64_t cycle, const timing::WarpId& w) override;
    void on_interval(const timing::StateInterval& iv) override;
    void on_issue(const timing::IssueEvent& e) override;
    void on_finish(const timing::Stats& s) override;
    uint64_t slices() const { return slices_; }

private:
    void begin_event();
    void write(const timing::StateInterval& iv, int lanes);
    std::ostream& out_;
    std::vector<std::string> pc_args_;             // per pc: ,"line":"f:l","text":"..."
    std::set<uint32_t> sms_;                       // SMs named so far
    std::map<std::pair<uint32_t, uint64_t>, uint32_t> issues_;  // (sm, bucket) -> warp instructions
    uint64_t slices_ = 0;
    bool first_ = true;
    LaneMatcher lanes_;
};

// A string as a JSON string literal (quotes included).
std::string json_quote(const std::string& s);

}  // namespace simt::report
