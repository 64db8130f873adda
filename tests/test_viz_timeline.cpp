// test_viz_timeline.cpp: the viewer's logic that needs no SFML: reading the
// --timeline CSV (and its error messages), binning intervals to pixel columns,
// issue density, row layout, axis ticks and the one-line diagnosis.
// The drawing itself is checked by the viz_png_* ctests (CMakeLists.txt, viz block).
#include <catch2/catch.hpp>

#include "viz/timeline.hpp"
#include "viz/timeline_view.hpp"

using namespace simt;
using namespace simt::viz;

namespace {

const std::string kHead = "warp,block,sm,sub_partition,start,end,state,pc\n";

// The message of the simt::Error that parsing `text` as "t.csv" throws.
std::string parse_error(const std::string& text) {
    try {
        parse_timeline("t.csv", text);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("viz: a timeline is read into one sorted track per warp", "[viz]") {
    const Timeline tl = parse_timeline("t.csv", kHead +
                                                    "1,0,1,0,5,9,wait,32\n"
                                                    "0,0,0,1,0,3,selected,0\n"
                                                    "1,0,1,0,0,5,long_scoreboard,16\n"
                                                    "2,0,0,0,2,4,not_selected,0\n"
                                                    "0,0,0,1,3,3,barrier,8\n");  // empty: dropped
    REQUIRE(tl.warps.size() == 3);
    // ordered by (sm, sub_partition, block, warp)
    CHECK(tl.warps[0].warp == 2);
    CHECK(tl.warps[1].warp == 0);
    CHECK(tl.warps[1].sub_partition == 1);
    CHECK(tl.warps[2].sm == 1);
    const auto& iv = tl.warps[2].intervals;
    REQUIRE(iv.size() == 2);
    CHECK(iv[0].start == 0);
    CHECK(iv[0].end == 5);
    CHECK(iv[0].state == State::LongScoreboard);
    CHECK(iv[0].pc == 16);
    CHECK(iv[0].line == 4);
    CHECK(iv[1].state == State::Wait);
    CHECK(tl.warps[1].intervals.size() == 1);
    CHECK(tl.first_cycle == 0);
    CHECK(tl.last_cycle == 9);
    CHECK(tl.sms == std::vector<uint32_t>{0, 1});
    CHECK(tl.state_cycles[std::size_t(State::Selected)] == 3);
    CHECK(tl.state_cycles[std::size_t(State::LongScoreboard)] == 5);
    CHECK(tl.state_cycles[std::size_t(State::Barrier)] == 0);
}

TEST_CASE("viz: columns may come in any order, extra columns are ignored, pc may be hex", "[viz]") {
    const Timeline tl = parse_timeline("t.csv",
                                       "state,pc,start,end,warp,block,sm,sub_partition,comment\n"
                                       "drain,0x1f0,10,20,3,1,0,2,done\r\n");
    REQUIRE(tl.warps.size() == 1);
    CHECK(tl.warps[0].warp == 3);
    CHECK(tl.warps[0].block == 1);
    CHECK(tl.warps[0].sub_partition == 2);
    CHECK(tl.warps[0].intervals[0].state == State::Drain);
    CHECK(tl.warps[0].intervals[0].pc == 0x1f0);
}

TEST_CASE("viz: every state name of Nsight Compute is known, in legend order", "[viz]") {
    const char* names[] = {"selected",         "not_selected",   "wait",          "short_scoreboard",
                           "long_scoreboard",  "math_pipe_throttle", "mio_throttle", "lg_throttle",
                           "tex_throttle",     "barrier",        "branch_resolving", "no_instruction",
                           "dispatch_stall",   "membar",         "sleeping",      "drain"};
    for (std::size_t i = 0; i < kStateCount; ++i) {
        REQUIRE(state_from_name(names[i]).has_value());
        CHECK(static_cast<std::size_t>(*state_from_name(names[i])) == i);
        for (std::size_t j = 0; j < i; ++j) CHECK_FALSE(kStates[i].color == kStates[j].color);
    }
    CHECK_FALSE(state_from_name("Selected").has_value());
}

TEST_CASE("viz: CSV problems are errors with the file and line", "[viz]") {
    CHECK(parse_error(kHead + "0,0,0,0,0,4,selected,0\n0,0,0,0,4,1O2,wait,16\n") ==
          "t.csv:3: error: column \"end\": \"1O2\" is not a whole number >= 0");
    CHECK(parse_error(kHead + "0,0,0,0,-1,4,selected,0\n") ==
          "t.csv:2: error: column \"start\": \"-1\" is not a whole number >= 0");
    CHECK(parse_error(kHead + "0,0,0,0,,4,selected,0\n") ==
          "t.csv:2: error: column \"start\": \"\" is not a whole number >= 0");
    CHECK(parse_error(kHead + "0,0,0,0,0,4,selected,99999999999999999999999\n") ==
          "t.csv:2: error: column \"pc\": \"99999999999999999999999\" is too large");
    CHECK(parse_error(kHead + "0,0,0,0,12,8,wait,16\n") ==
          "t.csv:2: error: end 8 is before start 12 (an interval is [start, end) in cycles)");
    CHECK(parse_error(kHead + "0,0,0,0,0,4,selected,0\n0,0,0,0,4,9,wait\n") ==
          "t.csv:3: error: too few columns (expected the header warp,block,sm,sub_partition,start,end,state,pc)");
    CHECK(parse_error(kHead + "0,0,0,0,0,4,selected,0,extra\n") ==
          "t.csv:2: error: too many columns (expected the header warp,block,sm,sub_partition,start,end,state,pc)");
    CHECK(parse_error("warp,block,sm,sub_partition,start,end,state\n0,0,0,0,0,4,selected\n") ==
          "t.csv:1: error: missing column \"pc\" in the header (expected the header "
          "warp,block,sm,sub_partition,start,end,state,pc)");
    CHECK(parse_error("") == "t.csv: error: the file is empty (expected the header "
                             "warp,block,sm,sub_partition,start,end,state,pc)");
    CHECK(parse_error(kHead + "0,0,0,0,0,18446744073709551615,wait,0\n") ==
          "t.csv:2: error: cycle 18446744073709551615 is too large to show (the limit is 2^53)");
    CHECK(parse_error(kHead) == "t.csv: error: no intervals after the header (is this a --timeline file?)");
}

TEST_CASE("viz: an unknown state suggests the nearest name", "[viz]") {
    const std::string msg = parse_error(kHead + "0,0,0,0,0,4,long_scorebord,0\n");
    CHECK(msg.rfind("t.csv:2: error: unknown state \"long_scorebord\" (did you mean \"long_scoreboard\"?)", 0) == 0);
    CHECK(msg.find("mio_throttle") != std::string::npos);
    const std::string far = parse_error(kHead + "0,0,0,0,0,4,busy,0\n");
    CHECK(far.rfind("t.csv:2: error: unknown state \"busy\"; the states are: selected, not_selected,", 0) == 0);
}

TEST_CASE("viz: two intervals of one warp may not overlap", "[viz]") {
    CHECK(parse_error(kHead + "0,0,0,0,0,10,long_scoreboard,16\n1,0,0,0,0,1,selected,0\n0,0,0,0,8,9,selected,32\n") ==
          "t.csv:4: error: warp 0 (block 0, SM 0, sub-partition 0): cycles [8,9) overlap [0,10) from line 2; "
          "a warp is in one state at a time");
    // the same warp number in another block is another warp
    CHECK_NOTHROW(parse_timeline("t.csv", kHead + "0,0,0,0,0,10,wait,0\n0,1,0,0,0,10,wait,0\n"));
}

TEST_CASE("viz: a missing file is an error naming it", "[viz]") {
    try {
        load_timeline("/nonexistent/t.csv");
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) == "/nonexistent/t.csv: error: cannot open the timeline file: No such file or directory");
    }
}

TEST_CASE("viz: a device or a directory is refused, not read forever", "[viz][limits]") {
    CHECK_THROWS_WITH(load_timeline("/dev/zero"),
                      "/dev/zero: error: the timeline file is not a regular file (a device, pipe or socket)");
    CHECK_THROWS_WITH(load_timeline(SIMT_SOURCE_DIR), Catch::Matchers::Contains("the timeline file is a directory"));
}

TEST_CASE("viz: visible_range and interval_at find intervals by cycle", "[viz]") {
    const Timeline tl = parse_timeline("t.csv", kHead + "0,0,0,0,0,4,selected,0\n0,0,0,0,4,10,wait,0\n"
                                                        "0,0,0,0,12,20,barrier,0\n");
    const WarpTrack& w = tl.warps[0];
    CHECK(visible_range(w.intervals, 0, 100) == std::pair<std::size_t, std::size_t>{0, 3});
    CHECK(visible_range(w.intervals, 4, 12) == std::pair<std::size_t, std::size_t>{1, 2});
    CHECK(visible_range(w.intervals, 3.5, 12.5) == std::pair<std::size_t, std::size_t>{0, 3});
    CHECK(visible_range(w.intervals, 20, 30).first == 3);
    REQUIRE(interval_at(w, 3) != nullptr);
    CHECK(interval_at(w, 3)->state == State::Selected);
    CHECK(interval_at(w, 4)->state == State::Wait);
    CHECK(interval_at(w, 11) == nullptr);  // a gap
    CHECK(interval_at(w, 19)->state == State::Barrier);
    CHECK(interval_at(w, 20) == nullptr);
}

TEST_CASE("viz: intervals wider than a pixel become runs, adjacent equal runs merge", "[viz]") {
    const Timeline tl = parse_timeline("t.csv", kHead + "0,0,0,0,0,10,selected,0\n0,0,0,0,10,20,selected,4\n"
                                                        "0,0,0,0,20,50,long_scoreboard,8\n0,0,0,0,60,100,wait,8\n");
    std::vector<Run> runs;
    bin_track(tl.warps[0], XMap{0, 100, 0, 100}, runs);  // 1 cycle per pixel
    CHECK(runs == std::vector<Run>{{0, 20, State::Selected}, {20, 50, State::LongScoreboard}, {60, 100, State::Wait}});
    bin_track(tl.warps[0], XMap{10, 30, 0, 40}, runs);  // zoomed in: 2 px per cycle, clipped
    CHECK(runs == std::vector<Run>{{0, 20, State::Selected}, {20, 40, State::LongScoreboard}});
}

TEST_CASE("viz: a pixel holding several intervals takes the state covering most of it", "[viz]") {
    // 10 cycles per pixel: pixel 0 = 3 selected + 7 wait -> wait; pixel 1 = 6 selected + 4 barrier -> selected;
    // pixel 2 = 2 cycles of barrier only (less than half of it covered) -> empty.
    const Timeline tl = parse_timeline("t.csv", kHead + "0,0,0,0,0,3,selected,0\n0,0,0,0,3,10,wait,0\n"
                                                        "0,0,0,0,10,16,selected,0\n0,0,0,0,16,22,barrier,0\n");
    std::vector<Run> runs;
    bin_track(tl.warps[0], XMap{0, 100, 0, 10}, runs);
    CHECK(runs == std::vector<Run>{{0, 1, State::Wait}, {1, 2, State::Selected}});
}

TEST_CASE("viz: 100k one-cycle intervals bin to at most one run per pixel", "[viz]") {
    std::string csv = kHead;
    for (int c = 0; c < 100000; ++c)
        csv += "0,0,0,0," + std::to_string(c) + "," + std::to_string(c + 1) + "," + (c % 4 ? "wait" : "selected") + ",0\n";
    const Timeline tl = parse_timeline("big.csv", csv);
    REQUIRE(tl.warps[0].intervals.size() == 100000);
    std::vector<Run> runs;
    bin_track(tl.warps[0], XMap{0, 100000, 0, 1000}, runs);
    REQUIRE(runs.size() == 1);  // wait covers 3/4 of every pixel
    CHECK(runs[0] == Run{0, 1000, State::Wait});
}

TEST_CASE("viz: issue density counts selected cycles per bucket of a sub-partition", "[viz]") {
    // two warps of one scheduler: cycles 0-3 issue every cycle, 4-7 half of them, 8-11 none
    const Timeline tl = parse_timeline("t.csv", kHead + "0,0,0,0,0,2,selected,0\n1,0,0,0,2,4,selected,0\n"
                                                        "0,0,0,0,4,5,selected,0\n1,0,0,0,6,7,selected,0\n"
                                                        "0,0,0,0,7,12,wait,0\n");
    const Group g{0, 0, {0, 1}};
    IssueBuckets d;
    issue_density(tl, g, 0, 12, 4, d);
    CHECK(d.first == 0);
    REQUIRE(d.rate.size() == 4);  // the bucket holding cycle 12 too
    CHECK(d.rate[0] == 1.0f);
    CHECK(d.rate[1] == 0.5f);
    CHECK(d.rate[2] == 0.0f);
    issue_density(tl, g, 5, 9, 2, d);  // buckets stay aligned to multiples of 2 cycles
    CHECK(d.first == 2);
    CHECK(d.start(0) == 4);
    CHECK(d.rate == std::vector<float>{0.5f, 0.5f, 0.0f});
    CHECK(bucket_cycles(XMap{0, 1000, 0, 1000}) == 16);  // 1 px per cycle: 12 px need 16 cycles
    CHECK(bucket_cycles(XMap{0, 10, 0, 1000}) == 1);     // 100 px per cycle
}

TEST_CASE("viz: rows are grouped by SM and sub-partition and fill the height", "[viz]") {
    const Timeline tl = parse_timeline("t.csv", kHead + "0,0,0,0,0,4,selected,0\n1,0,0,1,0,4,selected,0\n"
                                                        "2,0,0,0,0,4,wait,0\n0,1,1,0,0,4,wait,0\n");
    const RowMetrics m;
    RowLayout L = layout_rows(tl, {}, 1000, m);
    REQUIRE(L.groups.size() == 3);  // SM0/SP0 (2 warps), SM0/SP1, SM1/SP0
    CHECK(L.groups[0].warps.size() == 2);
    CHECK(L.row_h == m.row_h_max);
    // 2 SM headers + 3 strips + 4 rows
    REQUIRE(L.items.size() == 9);
    CHECK(L.items[0].kind == RowItem::SmHeader);
    CHECK(L.items[1].kind == RowItem::IssueStrip);
    CHECK(L.items[2].kind == RowItem::WarpRow);
    CHECK(L.items[2].y == m.sm_header_h + m.strip_h);
    CHECK(L.content_h == 2 * m.sm_header_h + 3 * (m.strip_h + m.group_gap) + 4 * m.row_h_max);
    const RowItem* hit = item_at(L, L.items[3].y + 1);
    REQUIRE(hit != nullptr);
    CHECK(hit->warp == L.items[3].warp);

    L = layout_rows(tl, {1}, 1000, m);  // only SM 1
    CHECK(L.groups.size() == 1);
    CHECK(L.items.size() == 3);

    const float fixed = 2 * m.sm_header_h + 3 * (m.strip_h + m.group_gap);
    L = layout_rows(tl, {}, fixed + 4 * 7.5f, m);  // room for 7.5 px rows: 7
    CHECK(L.row_h == 7);
    L = layout_rows(tl, {}, 10, m);  // no room: smallest rows, the view scrolls
    CHECK(L.row_h == m.row_h_min);
    CHECK(L.content_h > 10);
}

TEST_CASE("viz: the axis ticks at 1, 2, 5 times a power of ten", "[viz]") {
    double step = 0;
    CHECK(nice_ticks(0, 427, 8, &step) == std::vector<double>{0, 100, 200, 300, 400});
    CHECK(step == 100);
    CHECK(nice_ticks(140, 220, 10, &step) == std::vector<double>{140, 150, 160, 170, 180, 190, 200, 210, 220});
    CHECK(nice_ticks(0, 5, 10, &step) == std::vector<double>{0, 1, 2, 3, 4, 5});  // whole cycles only
    CHECK(nice_ticks(0, 34039, 13, &step).size() == 7);
    CHECK(step == 5000);
    CHECK(format_cycle(750, 50) == "750");
    CHECK(format_cycle(15000, 5000) == "15k");
    CHECK(format_cycle(2500, 500) == "2500");
    CHECK(format_cycle(1250000, 1e6) == "1.25M");
}

TEST_CASE("viz: the diagnosis names the issue rate and the top stall", "[viz]") {
    // one scheduler, 10 cycles: 2 issued, the rest of the warp-cycles waiting on memory
    const Timeline tl = parse_timeline("t.csv", kHead + "0,0,0,0,0,1,selected,0\n0,0,0,0,1,8,long_scoreboard,0\n"
                                                        "0,0,0,0,8,9,selected,0\n0,0,0,0,9,10,wait,0\n"
                                                        "1,0,0,0,0,10,barrier,0\n");
    const RowLayout L = layout_rows(tl, {}, 500);
    const WindowStats st = window_stats(tl, L, 0, 10);
    CHECK(st.warp_cycles == 20);
    CHECK(st.cycles[std::size_t(State::LongScoreboard)] == 7);
    CHECK(st.mean_issue_rate == Approx(0.2));
    CHECK(top_stall(st) == State::Barrier);  // 10 warp-cycles
    CHECK(explain(st) ==
          "Schedulers issue in 20% of cycles. Top stall: barrier (50% of warp-cycles), waiting at a block barrier for "
          "the other warps of its block.");
    const WindowStats part = window_stats(tl, L, 1, 5);  // a window clips the intervals
    CHECK(part.warp_cycles == 8);
    CHECK(part.cycles[std::size_t(State::LongScoreboard)] == 4);
    CHECK(part.mean_issue_rate == 0);

    const Timeline busy = parse_timeline("t.csv", kHead + "0,0,0,0,0,9,selected,0\n0,0,0,0,9,10,wait,0\n");
    const WindowStats bs = window_stats(busy, layout_rows(busy, {}, 500), 0, 10);
    CHECK(explain(bs) == "Schedulers issue in 90% of cycles: issue-bound, fewer instructions is what would help.");
}
