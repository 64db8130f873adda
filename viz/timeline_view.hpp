// timeline_view.hpp: the maths between a Timeline and pixels, with no drawing.
//
// What is on screen is decided here, so tests can check it without SFML:
//   - XMap: cycles <-> x pixels for the current zoom and pan;
//   - RowBinner: a warp's intervals turned into runs of whole pixel columns; where
//     several intervals share one pixel column (zoomed out) the column takes the
//     state that covers most of its cycles, so 100k intervals become at most one
//     quad per pixel column per row;
//   - issue_density: per bucket of a few cycles, the fraction of cycles in which
//     a sub-partition's scheduler issued (selected);
//   - layout_rows: SM header, issue strip and warp rows, top to bottom;
//   - nice_ticks / format_cycle: the time axis;
//   - window_stats / explain: what the warps spent their cycles on in the view,
//     and the one-sentence diagnosis shown above the timeline.
// Leaves out: colours, fonts, windows (render.hpp). Header-only for the same reason
// as timeline.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "viz/timeline.hpp"

namespace simt::viz {

// ---- x: cycles <-> pixels ------------------------------------------------------

struct XMap {
    double from = 0, to = 1;  // visible cycles [from, to)
    double x0 = 0;            // pixel of cycle `from`
    int width = 1;            // pixel columns of the plot

    double scale() const { return width / (to - from); }  // pixels per cycle
    double px(double cycle) const { return x0 + (cycle - from) * scale(); }
    double cycle_at(double x) const { return from + (x - x0) / scale(); }
};

// The intervals of `iv` (sorted, not overlapping) that intersect [from, to): [first, last).
inline std::pair<std::size_t, std::size_t> visible_range(const std::vector<Interval>& iv, double from, double to) {
    auto first = std::partition_point(iv.begin(), iv.end(), [&](const Interval& i) { return i.end <= from; });
    auto last = std::partition_point(first, iv.end(), [&](const Interval& i) { return i.start < to; });
    return {static_cast<std::size_t>(first - iv.begin()), static_cast<std::size_t>(last - iv.begin())};
}

// The interval of a track that contains `cycle`, or nullptr.
inline const Interval* interval_at(const WarpTrack& track, double cycle) {
    const auto& iv = track.intervals;
    auto it = std::partition_point(iv.begin(), iv.end(), [&](const Interval& i) { return i.end <= cycle; });
    if (it == iv.end() || cycle < it->start) return nullptr;
    return &*it;
}

// ---- one row: intervals -> pixel runs ------------------------------------------

struct Run {
    int x0 = 0, x1 = 0;  // pixel columns [x0, x1), relative to the plot's left edge
    State state = State::Selected;
    friend bool operator==(const Run&, const Run&) = default;
};

// Feed intervals left to right with add(); finish() then runs() holds the row.
class RowBinner {
public:
    explicit RowBinner(std::vector<Run>& out) : out_(out) { out_.clear(); }

    // An interval covering plot pixels [a, b) (fractional).
    void add(double a, double b, State s) {
        if (b <= a) return;
        const int p = static_cast<int>(std::floor(a));
        if (p != pend_) flush();
        pend_ = p;
        acc_[idx(s)] += std::min(b, p + 1.0) - a;
        if (b <= p + 1.0) return;
        flush();
        const int q = static_cast<int>(std::floor(b));
        if (q > p + 1) emit(p + 1, q, s);
        if (b > q) {
            pend_ = q;
            acc_[idx(s)] += b - q;
        }
    }
    void finish() { flush(); }

private:
    static std::size_t idx(State s) { return static_cast<std::size_t>(s); }
    void flush() {
        if (pend_ == kNone) return;
        double total = 0;
        std::size_t best = 0;
        for (std::size_t i = 0; i < kStateCount; ++i) {
            total += acc_[i];
            if (acc_[i] > acc_[best]) best = i;
        }
        if (total >= 0.5) emit(pend_, pend_ + 1, static_cast<State>(best));
        acc_.fill(0);
        pend_ = kNone;
    }
    void emit(int x0, int x1, State s) {
        if (!out_.empty() && out_.back().x1 == x0 && out_.back().state == s)
            out_.back().x1 = x1;
        else
            out_.push_back(Run{x0, x1, s});
    }

    static constexpr int kNone = INT32_MIN;
    std::vector<Run>& out_;
    std::array<double, kStateCount> acc_{};
    int pend_ = kNone;
};

// The runs of one warp's row for the visible window (reuses `out`'s storage).
inline void bin_track(const WarpTrack& track, const XMap& xm, std::vector<Run>& out) {
    RowBinner binner(out);
    auto [first, last] = visible_range(track.intervals, xm.from, xm.to);
    const double s = xm.scale();
    for (std::size_t i = first; i < last; ++i) {
        const Interval& iv = track.intervals[i];
        const double a = std::max(0.0, (iv.start - xm.from) * s);
        const double b = std::min<double>(xm.width, (iv.end - xm.from) * s);
        binner.add(a, b, iv.state);
    }
    binner.finish();
}

// ---- a sub-partition: issue density ------------------------------------------

// ---- lanes: active lanes of issued instructions ---------------------------------

// The lane strip's colour for n active lanes of 32: a dark slate at 32 (no divergence),
// brightening to white at 16 (half the warp idle), then to red towards 0, so divergence
// is what catches the eye over any state colour. Integer maths: a probe can expect the exact colour.
inline Rgb lane_color(uint32_t n) {
    n = std::min<uint32_t>(n, 32);
    const Rgb lo{255, 60, 60}, mid{240, 240, 240}, hi{70, 82, 100};  // all 32 lanes: a dark slate
    auto mix = [](Rgb a, Rgb b, uint32_t t, uint32_t d) {
        return Rgb{static_cast<uint8_t>(a.r + (int(b.r) - a.r) * int(t) / int(d)),
                   static_cast<uint8_t>(a.g + (int(b.g) - a.g) * int(t) / int(d)),
                   static_cast<uint8_t>(a.b + (int(b.b) - a.b) * int(t) / int(d))};
    };
    return n <= 16 ? mix(lo, mid, n, 16) : mix(mid, hi, n - 16, 16);
}

// Per pixel column of the plot: the mean active lanes of the instructions issued
// there (weighted by issued cycles), 0 where nothing issued. `out` has xm.width entries.
inline void bin_lanes(const WarpTrack& track, const XMap& xm, std::vector<float>& out) {
    out.assign(static_cast<std::size_t>(xm.width), 0.0f);
    std::vector<float> weight(out.size(), 0.0f);
    auto [first, last] = visible_range(track.intervals, xm.from, xm.to);
    for (std::size_t i = first; i < last; ++i) {
        const Interval& iv = track.intervals[i];
        if (iv.lanes == 0) continue;
        const double a = std::max(0.0, xm.px(std::max<double>(iv.start, xm.from)) - xm.x0);
        const double b = std::min<double>(xm.width, xm.px(std::min<double>(iv.end, xm.to)) - xm.x0);
        for (int p = static_cast<int>(std::floor(a)); p < b && p < xm.width; ++p) {
            const double w = std::max(1e-3, std::min(b, p + 1.0) - std::max(a, double(p)));
            out[p] += static_cast<float>(w * iv.lanes);
            weight[p] += static_cast<float>(w);
        }
    }
    for (std::size_t p = 0; p < out.size(); ++p) out[p] = weight[p] > 0 ? std::round(out[p] / weight[p]) : 0.0f;
}

struct Group {
    uint32_t sm = 0, sub_partition = 0;
    std::vector<std::size_t> warps;  // indices into Timeline::warps
};

// The scheduler's issue density in buckets of `bucket` cycles aligned to multiples
// of `bucket` (so they do not shift while panning): for bucket k, covering cycles
// [(first + k) * bucket, (first + k + 1) * bucket), the fraction of its cycles in
// which the group issued (selected warp-cycles / bucket; one issue per cycle).
struct IssueBuckets {
    uint64_t bucket = 1;     // cycles per bucket
    int64_t first = 0;       // index of the bucket holding cycle `from`
    std::vector<float> rate; // one per bucket up to the one holding `to`
    double start(std::size_t k) const { return double(first + int64_t(k)) * bucket; }
};

// A bucket that is at least `min_px` pixels and `min_cycles` cycles wide (a power of two).
inline uint64_t bucket_cycles(const XMap& xm, double min_px = 12, double min_cycles = 1) {
    uint64_t b = 1;
    while (b < min_cycles || b * xm.scale() < min_px) b *= 2;
    return b;
}

inline void issue_density(const Timeline& tl, const Group& g, double from, double to, uint64_t bucket,
                          IssueBuckets& out) {
    out.bucket = bucket;
    out.first = static_cast<int64_t>(std::floor(from / bucket));
    const auto last = static_cast<int64_t>(std::floor(to / bucket));
    out.rate.assign(static_cast<std::size_t>(last - out.first + 1), 0.0f);
    const double lo = double(out.first) * bucket, hi = double(last + 1) * bucket;
    for (std::size_t w : g.warps) {
        const auto& iv = tl.warps[w].intervals;
        auto [first, end] = visible_range(iv, lo, hi);
        for (std::size_t i = first; i < end; ++i) {
            if (iv[i].state != State::Selected) continue;
            const double a = std::max<double>(iv[i].start, lo), b = std::min<double>(iv[i].end, hi);
            for (auto k = static_cast<int64_t>(a / bucket); k * double(bucket) < b; ++k) {
                const double c0 = std::max(a, double(k) * bucket), c1 = std::min(b, double(k + 1) * bucket);
                out.rate[static_cast<std::size_t>(k - out.first)] += static_cast<float>((c1 - c0) / bucket);
            }
        }
    }
    for (float& r : out.rate) r = std::min(r, 1.0f);
}

// ---- rows, top to bottom ------------------------------------------------------

struct RowMetrics {
    float sm_header_h = 22;  // "SM 3" title band
    float strip_h = 18;      // issue density of one sub-partition
    float group_gap = 6;     // space after each sub-partition's rows
    float row_h_max = 22;
    float row_h_min = 3;
};

struct RowItem {
    enum Kind { SmHeader, IssueStrip, WarpRow } kind = WarpRow;
    float y = 0, h = 0;    // in content coordinates (0 = top of the first SM header)
    uint32_t sm = 0;
    std::size_t group = 0; // IssueStrip and WarpRow: index into RowLayout::groups
    std::size_t warp = 0;  // WarpRow: index into Timeline::warps
};

struct RowLayout {
    std::vector<Group> groups;
    std::vector<RowItem> items;
    float row_h = 0;
    float content_h = 0;
};

inline bool sm_shown(const std::vector<uint32_t>& filter, uint32_t sm) {
    return filter.empty() || std::find(filter.begin(), filter.end(), sm) != filter.end();
}

// Lays out the SMs in `filter` (empty = all) so they fill `avail_h` if they can:
// rows get the largest height in [row_h_min, row_h_max] that fits; if even the
// smallest does not fit, content_h > avail_h and the view scrolls.
inline RowLayout layout_rows(const Timeline& tl, const std::vector<uint32_t>& filter, float avail_h,
                             const RowMetrics& m = {}) {
    RowLayout L;
    std::size_t headers = 0;
    for (std::size_t w = 0; w < tl.warps.size(); ++w) {
        const WarpTrack& t = tl.warps[w];
        if (!sm_shown(filter, t.sm)) continue;
        if (L.groups.empty() || L.groups.back().sm != t.sm || L.groups.back().sub_partition != t.sub_partition) {
            if (L.groups.empty() || L.groups.back().sm != t.sm) ++headers;
            L.groups.push_back(Group{t.sm, t.sub_partition, {}});
        }
        L.groups.back().warps.push_back(w);
    }
    std::size_t rows = 0;
    for (const Group& g : L.groups) rows += g.warps.size();
    const float fixed = headers * m.sm_header_h + L.groups.size() * (m.strip_h + m.group_gap);
    const float fit = rows ? std::floor((avail_h - fixed) / rows) : m.row_h_max;
    L.row_h = std::clamp(fit, m.row_h_min, m.row_h_max);

    float y = 0;
    for (std::size_t gi = 0; gi < L.groups.size(); ++gi) {
        const Group& g = L.groups[gi];
        if (gi == 0 || L.groups[gi - 1].sm != g.sm) {
            L.items.push_back(RowItem{RowItem::SmHeader, y, m.sm_header_h, g.sm, gi, 0});
            y += m.sm_header_h;
        }
        L.items.push_back(RowItem{RowItem::IssueStrip, y, m.strip_h, g.sm, gi, 0});
        y += m.strip_h;
        for (std::size_t w : g.warps) {
            L.items.push_back(RowItem{RowItem::WarpRow, y, L.row_h, g.sm, gi, w});
            y += L.row_h;
        }
        y += m.group_gap;
    }
    L.content_h = y;
    return L;
}

// The item under content-coordinate y, or nullptr.
inline const RowItem* item_at(const RowLayout& L, float y) {
    auto it = std::partition_point(L.items.begin(), L.items.end(), [&](const RowItem& r) { return r.y + r.h <= y; });
    if (it == L.items.end() || y < it->y) return nullptr;
    return &*it;
}

// ---- the time axis ------------------------------------------------------------

// Tick positions at 1, 2 or 5 x 10^k cycles, at most about `max_ticks` of them.
inline std::vector<double> nice_ticks(double from, double to, int max_ticks, double* step_out = nullptr) {
    std::vector<double> ticks;
    if (!(to > from) || max_ticks < 1) return ticks;
    const double raw = (to - from) / max_ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    double step = 10 * mag;
    for (double f : {1.0, 2.0, 5.0})
        if (f * mag >= raw) { step = f * mag; break; }
    step = std::max(step, 1.0);  // cycles are whole
    if (step_out) *step_out = step;
    for (double t = std::ceil(from / step) * step; t <= to + 1e-9; t += step) ticks.push_back(t);
    return ticks;
}

// "750", "12k", "1.25M": short tick labels; `step` decides the unit.
inline std::string format_cycle(double v, double step) {
    char buf[32];
    if (step >= 1e6)
        std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
    else if (step >= 1e3 && v >= 1e4)
        std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

// ---- what the view says -------------------------------------------------------

struct WindowStats {
    std::array<double, kStateCount> cycles{};  // warp-cycles per state in the window
    double warp_cycles = 0;                    // their sum
    std::vector<double> issue_rate;            // per group: issued cycles / cycles of the window
    double mean_issue_rate = 0;                // over the groups
};

inline WindowStats window_stats(const Timeline& tl, const RowLayout& L, double from, double to) {
    WindowStats st;
    const double lo = std::max<double>(from, tl.first_cycle), hi = std::min<double>(to, tl.last_cycle);
    const double span = std::max(0.0, hi - lo);
    for (const Group& g : L.groups) {
        double issued = 0;
        for (std::size_t w : g.warps) {
            const auto& iv = tl.warps[w].intervals;
            auto [first, last] = visible_range(iv, lo, hi);
            for (std::size_t i = first; i < last; ++i) {
                const double c = std::min<double>(iv[i].end, hi) - std::max<double>(iv[i].start, lo);
                st.cycles[static_cast<std::size_t>(iv[i].state)] += c;
                st.warp_cycles += c;
                if (iv[i].state == State::Selected) issued += c;
            }
        }
        st.issue_rate.push_back(span > 0 ? std::min(1.0, issued / span) : 0.0);
        st.mean_issue_rate += st.issue_rate.back();
    }
    if (!L.groups.empty()) st.mean_issue_rate /= L.groups.size();
    return st;
}

// The state, other than selected/not_selected, with the most warp-cycles; or Selected if none.
inline State top_stall(const WindowStats& st) {
    State best = State::Selected;
    double most = 0;
    for (std::size_t i = 0; i < kStateCount; ++i) {
        const auto s = static_cast<State>(i);
        if (s == State::Selected || s == State::NotSelected) continue;
        if (st.cycles[i] > most) { most = st.cycles[i]; best = s; }
    }
    return best;
}

inline std::string percent(double f) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * f);
    return buf;
}

// What the diagnosis is about: the top stall, or Selected when the schedulers are
// busy (issue in 80% of cycles or more) and instructions, not stalls, are the cost.
inline State headline_state(const WindowStats& st) {
    return st.mean_issue_rate >= 0.8 ? State::Selected : top_stall(st);
}

// One sentence: how busy the schedulers are and, if they idle, on what the warps wait.
inline std::string explain(const WindowStats& st) {
    if (st.warp_cycles <= 0) return "No warp is resident in this window.";
    std::string s = "Schedulers issue in " + percent(st.mean_issue_rate) + " of cycles";
    const State top = headline_state(st);
    if (top == State::Selected) return s + ": issue-bound, fewer instructions is what would help.";
    const auto& k = info(top);
    return s + ". Top stall: " + std::string(k.name) + " (" + percent(st.cycles[static_cast<std::size_t>(top)] / st.warp_cycles) +
           " of warp-cycles), " + std::string(k.meaning) + ".";
}

}  // namespace simt::viz
