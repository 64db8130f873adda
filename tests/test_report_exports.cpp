// test_report_exports.cpp: the profile exports of issue 11 through the observer stream:
// the timeline CSV's lanes column (issue and interval events in either order), the
// Chrome trace writer, source.csv and the --compare table. Whole runs are checked by
// the cli.* and profile.* ctests.
#include <catch2/catch.hpp>

#include <sstream>

#include "sim/report/compare.hpp"
#include "sim/report/timeline_csv.hpp"
#include "sim/report/trace_json.hpp"
#include "test_timing_util.hpp"

using namespace simt;
using namespace simt::timing;
using namespace simt::timing::test;

namespace {

StateInterval iv(uint64_t warp, uint64_t start, uint64_t end, StallReason s, uint32_t pc) {
    StateInterval i;
    i.id.warp = i.id.block = warp;
    i.start = start, i.end = end, i.state = s, i.pc = pc;
    return i;
}

IssueEvent issue(uint64_t warp, uint64_t cycle, uint32_t mask) {
    IssueEvent e;
    e.id.warp = e.id.block = warp;
    e.cycle = cycle;
    e.active = mask;
    return e;
}

}  // namespace

TEST_CASE("report: the lanes of an issued interval, whichever event comes first", "[report]") {
    std::ostringstream csv;
    report::TimelineCsvWriter w(csv);
    w.on_issue(issue(0, 0, 0xffffffffu));                      // issue before its interval
    w.on_interval(iv(0, 0, 1, StallReason::Selected, 0));
    w.on_interval(iv(0, 1, 3, StallReason::Wait, 1));
    w.on_interval(iv(0, 3, 4, StallReason::Selected, 1));      // interval before its issue: waits
    w.on_interval(iv(1, 0, 2, StallReason::Barrier, 7));        // another warp passes
    w.on_issue(issue(0, 3, 0x0000ffffu));
    w.on_interval(iv(0, 4, 5, StallReason::Selected, 2));      // never issued: written at finish
    w.on_finish(Stats{});
    CHECK(csv.str() ==
          "warp,block,sm,sub_partition,start,end,state,pc,lanes\n"
          "0,0,0,0,0,1,selected,0,32\n"
          "0,0,0,0,1,3,wait,1,\n"
          "1,1,0,0,0,2,barrier,7,\n"
          "0,0,0,0,3,4,selected,1,16\n"
          "0,0,0,0,4,5,selected,2,\n");
    CHECK(w.rows() == 5);
}

TEST_CASE("report: a run's Chrome trace has a slice per interval and counters", "[report]") {
    GpuConfig c = small_config();
    const std::string src = ".kernel t\n.grid 1\n.block 64\n.regs 4\nffma r0, r1, r2, r0\nexit\n";
    const isa::Program prog = isa::assemble_text(src, "test.isa");  // as run() assembles it
    std::ostringstream json, csv;
    report::ChromeTraceWriter trace(json, prog, "t");
    report::TimelineCsvWriter timeline(csv);
    report::ObserverFan fan;
    fan.add(&trace);
    fan.add(&timeline);
    run(src, c, {true, &fan, {}});
    const std::string s = json.str();
    CHECK(trace.slices() == timeline.rows());
    CHECK(s.find("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"SM 0\"}}") != std::string::npos);
    CHECK(s.find("\"name\":\"SP 0 \xc2\xb7 warp 0 (block 0)\"") != std::string::npos);
    CHECK(s.find("{\"ph\":\"X\",\"cat\":\"warp_state\",\"name\":\"selected\",\"pid\":0,\"tid\":1,\"ts\":") != std::string::npos);
    CHECK(s.find("\"args\":{\"pc\":0,\"line\":\"test.isa:5\",\"text\":\"ffma r0, r1, r2, r0\",\"lanes\":32}") !=
          std::string::npos);
    CHECK(s.find("{\"ph\":\"C\",\"name\":\"issue rate\",\"pid\":0,\"ts\":0,\"args\":{\"warp instructions per cycle\":") !=
          std::string::npos);
    CHECK(s.rfind("\n],\n\"cycles\":") != std::string::npos);
}

TEST_CASE("report: --compare reads a JSON report and names bad ones", "[report]") {
    const std::string a = "{\"kernel\": \"k\", \"cycles\": 100, \"warp_instructions\": 10, \"ipc\": 0.5,\n"
                          " \"stall_reasons\": {\"selected\": 1, \"wait\": 2}, \"pipes\": {\"fma\": 0.5}}";
    const std::string b = "{\"kernel\": \"k\", \"cycles\": 150, \"warp_instructions\": 10, \"ipc\": 0.25,\n"
                          " \"stall_reasons\": {\"selected\": 1, \"wait\": 4}, \"pipes\": {\"fma\": 0.25}}";
    std::ostringstream out;
    report::print_comparison(out, report::parse_report_json("a", a), "a", report::parse_report_json("b", b), "b");
    CHECK(out.str().find("  cycles                                100            150   1.500\xc3\x97\n") != std::string::npos);
    CHECK(out.str().find("    wait                               2.00           4.00   +2.00\n") != std::string::npos);
    CHECK(out.str().find("    fma                                50.0           25.0   -25.0\n") != std::string::npos);
    auto error = [](const std::string& text) {
        try {
            report::parse_report_json("r.json", text);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    CHECK(error("{\n\"cycles\": 1,\n\"x\": }") .find("r.json:3: error: not valid JSON") == 0);
    CHECK(error("{\"cycles\": 1}") == "r.json: error: not a simt-sim --json report (no \"warp_instructions\")");
}

TEST_CASE("report: the timeline filter keeps SMs, warps and a window, clipping rows to it", "[report]") {
    report::TimelineFilter f;
    f.sms = report::parse_id_list("--timeline-sm", "0,2-3");
    f.warps = report::parse_id_list("--timeline-warps", "1-2");
    report::parse_window("--timeline-window", "10:20", f);
    CHECK(f.sms == std::vector<std::pair<uint64_t, uint64_t>>{{0, 0}, {2, 3}});
    std::ostringstream out;
    report::TimelineCsvWriter w(out, f);
    StateInterval a = iv(1, 5, 15, StallReason::Wait, 3);          // clipped to [10, 15)
    StateInterval b = iv(2, 19, 30, StallReason::LongScoreboard, 4);  // clipped to [19, 20)
    StateInterval c = iv(2, 20, 25, StallReason::Wait, 5);          // after the window
    StateInterval d = iv(0, 12, 14, StallReason::Wait, 6);          // another warp
    StateInterval e = iv(1, 12, 14, StallReason::Wait, 7);
    e.id.sm = 1;                                                    // another SM
    for (const StateInterval& i : {a, b, c, d, e}) w.on_interval(i);
    w.on_finish(Stats{});
    CHECK(out.str() == "warp,block,sm,sub_partition,start,end,state,pc,lanes\n"
                       "1,1,0,0,10,15,wait,3,\n"
                       "2,2,0,0,19,20,long_scoreboard,4,\n");
    CHECK(w.rows() == 2);
    report::TimelineFilter g;
    report::parse_window("--timeline-window", "100:", g);
    CHECK(g.from == 100);
    CHECK(g.to == UINT64_MAX);
    CHECK_THROWS_WITH(report::parse_id_list("--timeline-sm", "1,,2"), Catch::Contains("--timeline-sm 1,,2: error: expected a whole number, found ''"));
}
