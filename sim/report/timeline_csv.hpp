// timeline_csv.hpp: an Observer that writes the run-length-encoded warp timeline.
//
// One CSV row per interval a warp spends in one state at one pc:
//     warp,block,sm,sub_partition,start,end,state,pc,lanes
// start/end are cycles, [start, end); state is the ncu name (stall_name).
// lanes (since the profile format of issue 11) is the number of active lanes
// (SIMT-stack top, of 32) of the instruction(s) issued in a `selected` interval
// (their mean, rounded down, if one interval holds several issues), and empty
// for every other state. It is the last column, so readers of the first eight
// (simt-viz before it, scripts that name columns) read the file as before.
// Rows come in the order intervals close (so warps interleave; sort by
// warp,start for a per-warp view). The timing model already merges
// consecutive cycles of equal (state, pc); this writer merges nothing else.
//
// A TimelineFilter keeps the file small: only some SMs, some warps, a window
// of cycles (intervals overlapping it are clipped to it); rows keep the format.
//
// Left out: block events (other observers can add them).
#pragma once

#include "sim/timing/observer.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <functional>
#include <map>
#include <ostream>
#include <vector>

namespace simt::report {

// Gives each `selected` interval the active lanes of the issue event(s) inside it.
// The two arrive in either order (the accounting may close an interval before the
// model reports the issue, or after), so each waits for the other per warp:
// an interval is passed on as soon as one issue inside it is known (with the mean
// of the issues known by then: one, in practice) or at finish. Other states pass
// straight through with lanes -1. Same events, same output order.
class LaneMatcher {
public:
    using Emit = std::function<void(const timing::StateInterval&, int lanes)>;  // lanes -1: none
    explicit LaneMatcher(Emit emit) : emit_(std::move(emit)) {}
    void on_interval(const timing::StateInterval& iv);
    void on_issue(const timing::IssueEvent& e);
    void finish();  // passes on what still waits, in warp order

private:
    struct Issue {
        uint64_t cycle;
        uint32_t active;
    };
    struct Warp {
        std::deque<Issue> issues;                   // issued, interval not seen yet
        std::deque<timing::StateInterval> waiting;  // selected intervals still missing an issue
        uint64_t sum = 0, n = 0;                    // lanes of the front waiting interval so far
    };
    void emit_front(Warp& w);
    Emit emit_;
    std::map<uint64_t, Warp> warps_;
};

// Which rows the timeline keeps (--timeline-sm, --timeline-warps, --timeline-window).
struct TimelineFilter {
    std::vector<std::pair<uint64_t, uint64_t>> sms, warps;  // inclusive ranges; empty: all
    uint64_t from = 0, to = UINT64_MAX;                      // the window [from, to)
    bool keeps(const timing::StateInterval& iv) const;
};

// Parses "0,3-5,9" (ids and inclusive ranges) for `option`; throws simt::Error.
std::vector<std::pair<uint64_t, uint64_t>> parse_id_list(const std::string& option, const std::string& text);
// Parses "FROM:TO" (FROM < TO; TO may be empty: to the end) into the filter's window.
void parse_window(const std::string& option, const std::string& text, TimelineFilter& f);

class TimelineCsvWriter : public timing::Observer {
public:
    // Writes the header at once; `out` must outlive the writer.
    explicit TimelineCsvWriter(std::ostream& out, TimelineFilter filter = {});
    void on_interval(const timing::StateInterval& iv) override { lanes_.on_interval(iv); }
    void on_issue(const timing::IssueEvent& e) override { lanes_.on_issue(e); }
    void on_finish(const timing::Stats&) override { lanes_.finish(); }
    uint64_t rows() const { return rows_; }

private:
    void write(const timing::StateInterval& iv, int lanes);
    std::ostream& out_;
    uint64_t rows_ = 0;
    TimelineFilter filter_;
    LaneMatcher lanes_;
};

// Passes every event to each of several observers, in the order added.
class ObserverFan : public timing::Observer {
public:
    void add(timing::Observer* o) { if (o) list_.push_back(o); }
    bool empty() const { return list_.empty(); }
    void on_block_dispatched(uint64_t c, uint64_t b, uint32_t sm) override { for (auto* o : list_) o->on_block_dispatched(c, b, sm); }
    void on_block_retired(uint64_t c, uint64_t b, uint32_t sm) override { for (auto* o : list_) o->on_block_retired(c, b, sm); }
    void on_warp_dispatched(uint64_t c, const timing::WarpId& w) override { for (auto* o : list_) o->on_warp_dispatched(c, w); }
    void on_warp_launched(uint64_t c, const timing::WarpId& w) override { for (auto* o : list_) o->on_warp_launched(c, w); }
    void on_warp_retired(uint64_t c, const timing::WarpId& w) override { for (auto* o : list_) o->on_warp_retired(c, w); }
    void on_interval(const timing::StateInterval& iv) override { for (auto* o : list_) o->on_interval(iv); }
    void on_issue(const timing::IssueEvent& e) override { for (auto* o : list_) o->on_issue(e); }
    void on_finish(const timing::Stats& s) override { for (auto* o : list_) o->on_finish(s); }

private:
    std::vector<timing::Observer*> list_;
};

}  // namespace simt::report
