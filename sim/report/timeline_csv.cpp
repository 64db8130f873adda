// timeline_csv.cpp: the run-length-encoded timeline writer (see timeline_csv.hpp).
#include "sim/report/timeline_csv.hpp"

#include "isa/diagnostics.hpp"

#include <algorithm>
#include <bit>
#include <charconv>

namespace simt::report {

void LaneMatcher::on_interval(const timing::StateInterval& iv) {
    if (iv.state != timing::StallReason::Selected) return emit_(iv, -1);
    Warp& w = warps_[iv.id.warp];
    w.waiting.push_back(iv);
    if (w.waiting.size() > 1) return;  // behind an earlier one
    while (!w.issues.empty() && w.issues.front().cycle < iv.end) {
        if (w.issues.front().cycle >= iv.start) w.sum += w.issues.front().active, ++w.n;
        w.issues.pop_front();
    }
    if (w.n) emit_front(w);
    if (w.waiting.empty() && w.issues.empty()) warps_.erase(iv.id.warp);
}

void LaneMatcher::on_issue(const timing::IssueEvent& e) {
    Warp& w = warps_[e.id.warp];
    if (w.waiting.empty()) return w.issues.push_back({e.cycle, uint32_t(std::popcount(e.active))});
    const timing::StateInterval& front = w.waiting.front();
    if (e.cycle >= front.start && e.cycle < front.end) {
        w.sum += uint32_t(std::popcount(e.active)), ++w.n;
        emit_front(w);
        if (w.waiting.empty() && w.issues.empty()) warps_.erase(e.id.warp);  // keep only warps with something pending
    } else {
        w.issues.push_back({e.cycle, uint32_t(std::popcount(e.active))});
    }
}

void LaneMatcher::emit_front(Warp& w) {
    emit_(w.waiting.front(), w.n ? int(w.sum / w.n) : -1);
    w.waiting.pop_front();
    w.sum = w.n = 0;
    // Waiting intervals behind it may already have their issues queued.
    while (!w.waiting.empty()) {
        const timing::StateInterval& iv = w.waiting.front();
        while (!w.issues.empty() && w.issues.front().cycle < iv.end) {
            if (w.issues.front().cycle >= iv.start) w.sum += w.issues.front().active, ++w.n;
            w.issues.pop_front();
        }
        if (!w.n) return;
        emit_(iv, int(w.sum / w.n));
        w.waiting.pop_front();
        w.sum = w.n = 0;
    }
}

void LaneMatcher::finish() {
    for (auto& [id, w] : warps_)
        while (!w.waiting.empty()) {
            emit_(w.waiting.front(), w.n ? int(w.sum / w.n) : -1);
            w.waiting.pop_front();
            w.sum = w.n = 0;
        }
    warps_.clear();
}

namespace {

bool in_ranges(const std::vector<std::pair<uint64_t, uint64_t>>& r, uint64_t v) {
    if (r.empty()) return true;
    for (const auto& [lo, hi] : r)
        if (v >= lo && v <= hi) return true;
    return false;
}

// A whole number of `text` or an error located at the option.
uint64_t whole(const std::string& option, const std::string& text, const std::string& part) {
    uint64_t v = 0;
    const char* end = part.data() + part.size();
    auto [p, ec] = std::from_chars(part.data(), end, v);
    if (part.empty() || ec != std::errc() || p != end)
        throw Error(SourceLoc{option + " " + text, 0, 0}, "expected a whole number, found '" + part + "'");
    return v;
}

}  // namespace

bool TimelineFilter::keeps(const timing::StateInterval& iv) const {
    return iv.end > from && iv.start < to && in_ranges(sms, iv.id.sm) && in_ranges(warps, iv.id.warp);
}

std::vector<std::pair<uint64_t, uint64_t>> parse_id_list(const std::string& option, const std::string& text) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        const size_t dash = item.find('-');
        const uint64_t lo = whole(option, text, item.substr(0, dash));
        const uint64_t hi = dash == std::string::npos ? lo : whole(option, text, item.substr(dash + 1));
        if (hi < lo) throw Error(SourceLoc{option + " " + text, 0, 0}, "range " + item + " runs backwards; expected LO-HI with LO <= HI");
        out.emplace_back(lo, hi);
        start = comma + 1;
    }
    return out;
}

void parse_window(const std::string& option, const std::string& text, TimelineFilter& f) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos)
        throw Error(SourceLoc{option + " " + text, 0, 0}, "expected FROM:TO in cycles, e.g. 1000:5000 (TO may be empty)");
    f.from = whole(option, text, text.substr(0, colon));
    f.to = colon + 1 == text.size() ? UINT64_MAX : whole(option, text, text.substr(colon + 1));
    if (f.to <= f.from) throw Error(SourceLoc{option + " " + text, 0, 0}, "expected FROM < TO");
}

TimelineCsvWriter::TimelineCsvWriter(std::ostream& out, TimelineFilter filter)
    : out_(out), filter_(std::move(filter)),
      lanes_([this](const timing::StateInterval& iv, int lanes) { write(iv, lanes); }) {
    out_ << "warp,block,sm,sub_partition,start,end,state,pc,lanes\n";
}

void TimelineCsvWriter::write(const timing::StateInterval& iv, int lanes) {
    if (!filter_.keeps(iv)) return;
    out_ << iv.id.warp << ',' << iv.id.block << ',' << iv.id.sm << ',' << iv.id.sub_partition << ','
         << std::max(iv.start, filter_.from) << ',' << std::min(iv.end, filter_.to) << ','
         << timing::stall_name(iv.state) << ',' << iv.pc << ',';
    if (lanes >= 0) out_ << lanes;
    out_ << '\n';
    ++rows_;
}

}  // namespace simt::report
