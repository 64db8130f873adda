// sub_partition.cpp: one scheduler (see sub_partition.hpp): set-up, dispatch, the unit candidates
// and the rest; its tick, inline in Sm::tick, is in sub_partition_tick.hpp.
#include "sim/timing/sub_partition.hpp"

#include "sim/timing/sub_partition_tick.hpp"

#include <algorithm>
#include <bit>
#include <sstream>

namespace simt::timing {

SubPartition::SubPartition(Sm& sm, uint32_t index, Context& ctx, const SmShare& share)
    : policy_(make_policy(ctx.cfg.scheduler)), ports_(ctx.cfg.regfile), banks_on_(ctx.banks.enabled()), sm_(sm),
      index_(index), ctx_(ctx), log_(*share.log), banks_(*share.banks),
      code_(ctx.code.data()), lg_arrival_(ctx.cfg.scheduler.lg_arrival_order),
      mio_arrival_(ctx.cfg.scheduler.mio_arrival_order) {
    uint32_t nsp = std::max(ctx.cfg.sm.sub_partitions, 1u);
    uint32_t local = (ctx.cfg.sm.max_warps + nsp - 1) / nsp;
    if (local > kSlots)
        throw Error("config '" + ctx.cfg.name + "': sm.max_warps / sm.sub_partitions = " + std::to_string(local) +
                    " warps per scheduler; the model supports at most " + std::to_string(kSlots));
    wake_.fill(kNever);
}

void SubPartition::add(TWarp* w) {
    uint32_t i = w->lslot;
    warp_[i] = w;
    const uint64_t rank = ctx_.cfg.scheduler.block_by_slot ? w->block_slot : w->id.block;
    view_[i] = WarpView{.resident = true, .slot = w->id.slot, .age = w->age, .block = rank};
    resident_ |= 1ull << i;
    arrived_ |= 1ull << i;
    views_used_ = std::max(views_used_, i + 1);
    block(i, w->wake);
    wake_at(w->wake);
}

// Undoes file_wake(i, wake_[i]) (far_min_ stays a lower bound of the far ones).
inline void SubPartition::unfile_wake(uint32_t i) {
    const uint64_t bit = 1ull << i;
    const uint64_t at = wake_[i];
    early_ &= ~bit;
    far_ &= ~bit;
    if (at > now_ && at - now_ <= kWindow) {
        const uint32_t b = uint32_t(at % kWindow);
        bucket_[b] &= ~bit;
        if (!bucket_[b]) filled_ &= ~(1ull << b);
    }
}

void SubPartition::sync(const TWarp& w) {
    unfile_wake(w.lslot);
    wake_[w.lslot] = w.wake;
    file_wake(w.lslot, w.wake);
    next_wake_ = std::min(next_wake_, w.wake);
    wake_at(w.wake);
}

// Candidates for a unit are eligible, or throttled and then blocked until
// their pipe or unit frees (it only ever frees later, never earlier).
uint64_t SubPartition::check_candidates(uint64_t t) {
    uint64_t eligible = 0;
    for (uint64_t m = candidates_; m; m &= m - 1) {
        uint32_t i = uint32_t(std::countr_zero(m));
        uint64_t free_at;
        if (!sm_.throttled(*next_[i], pipes, t, free_at)) {
            eligible |= 1ull << i;
            continue;
        }
        TWarp& w = *warp_[i];
        log_.set(w, next_[i]->throttle, w.pc, t);
        w.wake = free_at;  // (w.candidate stays true: it only waits for the pipe or unit)
        if (free_at == kLateWake) sm_.wake_late(w);  // (a parallel run: known at the cycle's end)
        candidates_ &= ~(1ull << i);
        not_selected_ &= ~(1ull << i);
        throttled_ |= 1ull << i;
        block(i, free_at);
    }
    return eligible;
}

// scheduler.lg_order / mio_order: arrival: the warps waiting for L1TEX (or for the MIO) are
// served in the order they came to it (the earliest, then the lowest slot): of each unit in
// arrival order only its first stays eligible; the others' candidates stay as they are.
uint64_t SubPartition::first_arrived(uint64_t eligible) const {
    uint64_t others = eligible, first[2] = {0, 0};
    for (uint64_t m = eligible; m; m &= m - 1) {
        const uint32_t i = uint32_t(std::countr_zero(m));
        const Unit u = next_[i]->unit;
        const bool fifo = u == Unit::L1tex ? lg_arrival_ : u == Unit::Mio && mio_arrival_;
        if (!fifo) continue;
        uint64_t& f = first[u == Unit::Mio];
        others &= ~(1ull << i);
        if (!f || since_[i] < since_[std::countr_zero(f)]) f = 1ull << i;
    }
    return others | first[0] | first[1];
}

void SubPartition::not_selected(uint64_t eligible, int chosen, uint64_t t) {
    for (uint64_t m = eligible & ~not_selected_; m; m &= m - 1) {
        uint32_t i = uint32_t(std::countr_zero(m));
        if (int(i) != chosen) log_.set(*warp_[i], StallReason::NotSelected, warp_[i]->pc, t);
    }
    not_selected_ |= eligible;
}

// With an observer: an issue picked at t changed pipe p; if it is busy until pipes.free_at
// (> t + 1), its waiting warps are throttled from t + 1 until then. (Without one, issue_pick
// opens the window alone.)
void SubPartition::open_window(int p, uint64_t t) {
    if (pipes.free_at[p] <= t + 1) return;
    settle_waits(p, t);
    windows_.open(p, t + 1, pipes.free_at[p]);
}

// With an observer: the intervals are exact, so each wait for pipe p is settled before its new window.
void SubPartition::settle_waits(int p, uint64_t t) {
    for (uint64_t m = wait_[p]; m; m &= m - 1) {
        TWarp& w = *warp_[std::countr_zero(m)];
        if (w.state_since <= t) log_.settle_wait(w, t + 1, windows_);
    }
}

void SubPartition::finish_issue(TWarp& w, uint64_t t) {
    after_issue(w.lslot);
    next_event_ = std::min(next_event_, next_after(t, true));
}

std::string SubPartition::describe(uint64_t t) const {
    std::ostringstream os;
    os << "  sub-partition " << index_ << ": " << std::popcount(resident_) << " warps, busy until " << busy_until_
       << ", pipes free at";
    for (int p = 0; p < isa::kNumPipes; ++p)
        os << ' ' << isa::pipe_name(isa::Pipe(p)) << '=' << pipes.free_at[p];
    os << '\n';
    for (uint64_t m = resident_; m; m &= m - 1) {
        const TWarp* w = warp_[std::countr_zero(m)];
        StallReason state = w->state;
        if (w->waiting) state = pipes.free_at[w->wait_pipe] > t ? w->wait_throttle : StallReason::NotSelected;
        os << "    warp " << w->id.warp << " (block " << w->id.block << ", slot " << w->id.slot << "): pc "
           << w->pc << ", state " << stall_name(state) << (w->waiting ? " (waiting for its pipe)" : "")
           << " since " << w->state_since
           << (w->candidate ? ", candidate" : "") << (w->at_barrier ? ", at barrier" : "")
           << (w->draining ? ", draining" : "") << ", wake "
           << (w->wake == kNever ? std::string("never") : std::to_string(w->wake)) << '\n';
    }
    return os.str();
}

}  // namespace simt::timing
