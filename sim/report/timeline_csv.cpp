// timeline_csv.cpp: the run-length-encoded timeline writer (see timeline_csv.hpp).
#include "sim/report/timeline_csv.hpp"

#include <bit>

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

TimelineCsvWriter::TimelineCsvWriter(std::ostream& out)
    : out_(out), lanes_([this](const timing::StateInterval& iv, int lanes) { write(iv, lanes); }) {
    out_ << "warp,block,sm,sub_partition,start,end,state,pc,lanes\n";
}

void TimelineCsvWriter::write(const timing::StateInterval& iv, int lanes) {
    out_ << iv.id.warp << ',' << iv.id.block << ',' << iv.id.sm << ',' << iv.id.sub_partition << ','
         << iv.start << ',' << iv.end << ',' << timing::stall_name(iv.state) << ',' << iv.pc << ',';
    if (lanes >= 0) out_ << lanes;
    out_ << '\n';
    ++rows_;
}

}  // namespace simt::report
