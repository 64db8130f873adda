// timeline.hpp: the warp-state timeline the viewer shows, and its CSV reader.
//
// The simulator's `--timeline FILE` writes one row per interval [start, end)
// of cycles that one warp spent in one Nsight Compute warp state at one pc:
//     warp,block,sm,sub_partition,start,end,state,pc
// This file defines the states (name, colour, what they mean: the one table the
// legend, the tooltip and --help all read), the in-memory Timeline (one track
// per warp, intervals sorted by cycle) and load_timeline(), which turns every
// problem in the file into a simt::Error "file:line: error: ..." (exit 1, no crash).
//
// Leaves out: drawing (render.hpp), layout maths (timeline_view.hpp). It is
// header-only and free of SFML so that tests/test_viz_*.cpp can check it inside
// the core test binary, which must not link SFML.
#pragma once

#include <libfccp/csv.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

#include "isa/diagnostics.hpp"

namespace simt::viz {

// ---- the states ---------------------------------------------------------------

struct Rgb {
    uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

enum class State : uint8_t {
    Selected, NotSelected, Wait, ShortScoreboard, LongScoreboard, MathPipeThrottle,
    MioThrottle, LgThrottle, TexThrottle, Barrier, BranchResolving, NoInstruction,
    DispatchStall, Membar, Sleeping, Drain,
};
inline constexpr std::size_t kStateCount = 16;

struct StateInfo {
    std::string_view name;     // exactly as in the CSV (Nsight Compute's name)
    Rgb color;
    std::string_view color_name;  // for --help, where the colour cannot be seen
    std::string_view meaning;  // one line for the tooltip and --help
};

// Legend order: issuing first, then the stalls from "waits on a result" to
// "waits on a unit" to "waits on other warps", then the end of a warp's life.
inline constexpr std::array<StateInfo, kStateCount> kStates = {{
    {"selected",           {64, 222, 90},   "bright green", "issued an instruction this cycle (useful work)"},
    {"not_selected",       {158, 214, 150}, "pale green",   "ready, but the scheduler issued another warp (enough parallelism)"},
    {"wait",               {196, 198, 204}, "light grey",   "fixed-latency dependency: the previous ALU/FMA result is not ready yet"},
    {"short_scoreboard",   {244, 208, 63},  "yellow",       "waiting for shared memory, a special function (sin, rsqrt) or a shuffle (MIO)"},
    {"long_scoreboard",    {240, 104, 48},  "orange-red",   "waiting for global, local or texture memory data (L1TEX): memory latency"},
    {"math_pipe_throttle", {166, 98, 226},  "purple",       "the math pipe it needs (FMA, ALU, FP64) is busy with other warps"},
    {"mio_throttle",       {228, 112, 188}, "pink",         "the MIO queue (shared memory, special functions: a busy MUFU) is full"},
    {"lg_throttle",        {178, 104, 58},  "brown",        "the local/global memory queue is full: too many memory instructions"},
    {"tex_throttle",       {184, 178, 86},  "olive",        "the texture unit queue is full"},
    {"barrier",            {72, 128, 240},  "blue",         "waiting at a block barrier for the other warps of its block"},
    {"branch_resolving",   {64, 210, 226},  "cyan",         "waiting for a branch target or the divergence mask to be computed"},
    {"no_instruction",     {120, 150, 168}, "slate grey",   "no instruction fetched yet (instruction cache miss or after a jump)"},
    {"dispatch_stall",     {224, 62, 98},   "crimson",      "picked, but the dispatcher could not send it (pipeline or register conflict)"},
    {"membar",             {150, 168, 250}, "lavender",     "waiting for a memory barrier (fence) to complete"},
    {"sleeping",           {56, 66, 140},   "navy",         "all threads sleeping or yielded (nanosleep)"},
    {"drain",              {104, 106, 114}, "dark grey",    "exited; waiting for its last memory writes to drain"},
}};

inline const StateInfo& info(State s) { return kStates[static_cast<std::size_t>(s)]; }

inline std::optional<State> state_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kStateCount; ++i)
        if (kStates[i].name == name) return static_cast<State>(i);
    return std::nullopt;
}

// ---- the data -----------------------------------------------------------------

// Cycles are drawn through doubles, exact up to 2^53: a larger cycle is an input error.
inline constexpr uint64_t kMaxCycle = uint64_t(1) << 53;

struct Interval {
    uint64_t start = 0, end = 0;  // cycles [start, end)
    uint64_t pc = 0;
    uint32_t line = 0;            // CSV line, for messages
    State state = State::Selected;
    uint8_t lanes = 0;            // selected: active lanes (1..32) of what it issued; 0 = not known
};

// One warp's life, intervals sorted by start and not overlapping.
struct WarpTrack {
    uint32_t sm = 0, sub_partition = 0, block = 0, warp = 0;
    std::vector<Interval> intervals;
};

struct Timeline {
    std::string file;
    std::vector<WarpTrack> warps;  // sorted by (sm, sub_partition, block, warp)
    uint64_t first_cycle = 0, last_cycle = 0;  // span of all intervals
    std::array<uint64_t, kStateCount> state_cycles{};  // warp-cycles per state, whole file
    std::vector<uint32_t> sms;     // SM ids present, ascending
    bool has_lanes = false;        // the file has the optional `lanes` column
};

// ---- reading ------------------------------------------------------------------

namespace detail {

inline constexpr const char* kHeader = "warp,block,sm,sub_partition,start,end,state,pc";

// A whole non-negative decimal number (pc may also be 0x hex) or a message.
template <class T>
T parse_number(const char* text, std::string_view column, const SourceLoc& loc, bool allow_hex = false) {
    std::string_view s = text ? text : "";
    int base = 10;
    if (allow_hex && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.remove_prefix(2);
        base = 16;
    }
    T value{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) {
        std::string why = ec == std::errc::result_out_of_range ? "is too large" : "is not a whole number >= 0";
        throw Error(loc, "column \"" + std::string(column) + "\": \"" + std::string(text ? text : "") + "\" " + why);
    }
    return value;
}

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

inline State parse_state(const char* text, const SourceLoc& loc) {
    std::string_view s = text ? text : "";
    if (auto st = state_from_name(s)) return *st;
    std::string msg = "unknown state \"" + std::string(s) + "\"";
    std::size_t best = 0;
    for (std::size_t i = 1; i < kStateCount; ++i)
        if (edit_distance(s, kStates[i].name) < edit_distance(s, kStates[best].name)) best = i;
    if (edit_distance(s, kStates[best].name) <= 3)
        msg += " (did you mean \"" + std::string(kStates[best].name) + "\"?)";
    msg += "; the states are:";
    for (std::size_t i = 0; i < kStateCount; ++i) msg += (i ? ", " : " ") + std::string(kStates[i].name);
    throw Error(loc, msg);
}

// Translates the CSV library's exceptions into our file:line messages.
inline Error csv_error(const std::string& file, unsigned line, const io::error::base& e) {
    const std::string expected = std::string(" (expected the header ") + kHeader + ")";
    if (auto* c = dynamic_cast<const io::error::can_not_open_file*>(&e))
        return Error(SourceLoc{file, 0, 0}, std::string("cannot open the timeline file") +
                                                (c->errno_value ? std::string(": ") + std::strerror(c->errno_value) : ""));
    if (dynamic_cast<const io::error::header_missing*>(&e))
        return Error(SourceLoc{file, 0, 0}, "the file is empty" + expected);
    if (auto* m = dynamic_cast<const io::error::missing_column_in_header*>(&e))
        return Error(SourceLoc{file, 1, 0}, "missing column \"" + std::string(m->column_name) + "\" in the header" + expected);
    if (auto* d = dynamic_cast<const io::error::duplicated_column_in_header*>(&e))
        return Error(SourceLoc{file, 1, 0}, "column \"" + std::string(d->column_name) + "\" appears twice in the header");
    if (dynamic_cast<const io::error::too_few_columns*>(&e))
        return Error(SourceLoc{file, line, 0}, "too few columns" + expected);
    if (dynamic_cast<const io::error::too_many_columns*>(&e))
        return Error(SourceLoc{file, line, 0}, "too many columns" + expected);
    if (dynamic_cast<const io::error::line_length_limit_exceeded*>(&e))
        return Error(SourceLoc{file, line, 0}, "line too long");
    return Error(SourceLoc{file, line, 0}, e.what());
}

using TrackKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;  // sm, sp, block, warp

inline std::string warp_name(const WarpTrack& w) {
    return "warp " + std::to_string(w.warp) + " (block " + std::to_string(w.block) + ", SM " +
           std::to_string(w.sm) + ", sub-partition " + std::to_string(w.sub_partition) + ")";
}

// Sorts each track and rejects two intervals of one warp that overlap in time.
inline void finish(Timeline& tl, std::map<TrackKey, WarpTrack>& tracks) {
    tl.first_cycle = UINT64_MAX;
    for (auto& [key, track] : tracks) {
        auto& iv = track.intervals;
        if (iv.empty()) continue;  // only empty intervals: nothing to show
        std::stable_sort(iv.begin(), iv.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
        for (std::size_t i = 1; i < iv.size(); ++i)
            if (iv[i].start < iv[i - 1].end) {
                const Interval& a = iv[i - 1].line < iv[i].line ? iv[i - 1] : iv[i];
                const Interval& b = iv[i - 1].line < iv[i].line ? iv[i] : iv[i - 1];
                throw Error(SourceLoc{tl.file, b.line, 0},
                            warp_name(track) + ": cycles [" + std::to_string(b.start) + "," + std::to_string(b.end) +
                                ") overlap [" + std::to_string(a.start) + "," + std::to_string(a.end) + ") from line " +
                                std::to_string(a.line) + "; a warp is in one state at a time");
            }
        for (const Interval& i : iv) tl.state_cycles[static_cast<std::size_t>(i.state)] += i.end - i.start;
        tl.first_cycle = std::min(tl.first_cycle, iv.front().start);
        tl.last_cycle = std::max(tl.last_cycle, iv.back().end);
        if (tl.sms.empty() || tl.sms.back() != track.sm) tl.sms.push_back(track.sm);
        tl.warps.push_back(std::move(track));
    }
    if (tl.warps.empty()) throw Error(SourceLoc{tl.file, 0, 0}, "no intervals after the header (is this a --timeline file?)");
}

template <class... Source>
Timeline read_timeline(const std::string& file, Source&&... source) {
    Timeline tl;
    tl.file = file;
    std::map<TrackKey, WarpTrack> tracks;
    std::unique_ptr<io::CSVReader<9>> in;
    try {
        in = std::make_unique<io::CSVReader<9>>(file, std::forward<Source>(source)...);
        in->read_header(io::ignore_extra_column | io::ignore_missing_column, "warp", "block", "sm", "sub_partition",
                        "start", "end", "state", "pc", "lanes");
        for (const char* col : {"warp", "block", "sm", "sub_partition", "start", "end", "state", "pc"})
            if (!in->has_column(col))
                throw Error(SourceLoc{file, 1, 0}, "missing column \"" + std::string(col) + "\" in the header (expected the header " +
                                                       kHeader + ")");
        tl.has_lanes = in->has_column("lanes");
        char *warp = nullptr, *block = nullptr, *sm = nullptr, *sp = nullptr, *start = nullptr, *end = nullptr,
             *state = nullptr, *pc = nullptr, *lanes = nullptr;
        while (in->read_row(warp, block, sm, sp, start, end, state, pc, lanes)) {
            const SourceLoc loc{file, in->get_file_line(), 0};
            Interval iv;
            iv.line = loc.line;
            iv.start = parse_number<uint64_t>(start, "start", loc);
            iv.end = parse_number<uint64_t>(end, "end", loc);
            if (iv.end > kMaxCycle)
                throw Error(loc, "cycle " + std::to_string(iv.end) + " is too large to show (the limit is 2^53)");
            if (iv.end < iv.start)
                throw Error(loc, "end " + std::to_string(iv.end) + " is before start " + std::to_string(iv.start) +
                                     " (an interval is [start, end) in cycles)");
            iv.state = parse_state(state, loc);
            iv.pc = parse_number<uint64_t>(pc, "pc", loc, true);
            if (tl.has_lanes && lanes && *lanes) {
                const auto n = parse_number<uint32_t>(lanes, "lanes", loc);
                if (n > 32) throw Error(loc, "column \"lanes\": " + std::to_string(n) + " is more than the 32 lanes of a warp");
                iv.lanes = static_cast<uint8_t>(n);
            }
            TrackKey key{parse_number<uint32_t>(sm, "sm", loc), parse_number<uint32_t>(sp, "sub_partition", loc),
                         parse_number<uint32_t>(block, "block", loc), parse_number<uint32_t>(warp, "warp", loc)};
            auto [it, fresh] = tracks.try_emplace(key);
            if (fresh) std::tie(it->second.sm, it->second.sub_partition, it->second.block, it->second.warp) = key;
            if (iv.end > iv.start) it->second.intervals.push_back(iv);  // an empty interval draws nothing
        }
    } catch (const io::error::base& e) {
        throw csv_error(file, in ? std::max(1u, in->get_file_line()) : 0u, e);
    }
    finish(tl, tracks);
    return tl;
}

}  // namespace detail

// The largest timeline file read (README.md § Limits): about 25 M intervals.
constexpr std::uint64_t kMaxTimelineBytes = 1ull << 30;

namespace detail {
// A device, a FIFO or a directory would be read forever or not at all; a huge
// file would take all memory: each is refused before reading.
inline void check_timeline_file(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) return;  // the CSV reader says "cannot open" with the reason
    if (fs::is_directory(st)) throw Error(SourceLoc{path, 0, 0}, "the timeline file is a directory");
    if (!fs::is_regular_file(st))
        throw Error(SourceLoc{path, 0, 0}, "the timeline file is not a regular file (a device, pipe or socket)");
    const std::uint64_t size = fs::file_size(path, ec);
    if (!ec && size > kMaxTimelineBytes)
        throw Error(SourceLoc{path, 0, 0}, "the timeline file has " + std::to_string(size) +
                                               " bytes, more than the limit of 1 GiB");
}
}  // namespace detail

// Reads a --timeline CSV file. Throws simt::Error "file:line: error: ..." on any problem.
inline Timeline load_timeline(const std::string& path) {
    detail::check_timeline_file(path);
    return detail::read_timeline(path);
}

// The same from text in memory (tests); `name` is used in messages.
inline Timeline parse_timeline(const std::string& name, std::string_view text) {
    return detail::read_timeline(name, text.data(), text.data() + text.size());
}

}  // namespace simt::viz
