// sub_partition.cpp: one scheduler's cycle (see sub_partition.hpp).
#include "sim/timing/sub_partition.hpp"

#include "sim/timing/sm.hpp"

#include <algorithm>
#include <bit>
#include <sstream>

namespace simt::timing {

namespace {

bool is_long_wait(StallReason s) {
    return s == StallReason::LongScoreboard || s == StallReason::Barrier || s == StallReason::Drain;
}

}  // namespace

SubPartition::SubPartition(Sm& sm, uint32_t index, Context& ctx)
    : sm_(sm), index_(index), ctx_(ctx), policy_(make_policy(ctx.cfg.scheduler)) {
    uint32_t nsp = std::max(ctx.cfg.sm.sub_partitions, 1u);
    uint32_t local = (ctx.cfg.sm.max_warps + nsp - 1) / nsp;
    if (local > 64)
        throw Error("config '" + ctx.cfg.name + "': sm.max_warps / sm.sub_partitions = " + std::to_string(local) +
                    " warps per scheduler; the model supports at most 64");
    warp_.assign(local, nullptr);
    wake_.assign(local, kNever);
    view_.assign(local, WarpView{});
    next_.assign(local, nullptr);
}

void SubPartition::add(TWarp* w) {
    uint32_t i = w->lslot;
    warp_[i] = w;
    wake_[i] = w->wake;
    view_[i] = WarpView{true, w->id.slot, w->age, 0, false, false};
    resident_ |= 1ull << i;
    views_used_ = std::max(views_used_, i + 1);
    wake_at(w->wake);
}

// Local slot i's wake time came.
void SubPartition::reevaluate(uint32_t i, uint64_t t) {
    TWarp* w = warp_[i];
    sm_.reevaluate(*w, t);
    if (!w->resident) {
        warp_[i] = nullptr;
        wake_[i] = kNever;
        view_[i] = WarpView{};
        resident_ &= ~(1ull << i);
        return;
    }
    if (w->candidate) {
        candidates_ |= 1ull << i;
        not_selected_ &= ~(1ull << i);
        wake_[i] = 0;
        next_[i] = &ctx_.code[w->pc];
        view_[i].long_wait = false;
    } else {
        wake_[i] = w->wake;
        view_[i].long_wait = is_long_wait(w->state);
    }
}

void SubPartition::tick(uint64_t t) {
    // 1: wake blocked warps whose time has come.
    for (uint64_t m = resident_ & ~candidates_; m; m &= m - 1) {
        uint32_t i = uint32_t(std::countr_zero(m));
        if (wake_[i] > t) continue;
        if (throttled_ >> i & 1) {
            // Its pipe or unit may be free again; nothing else about it changed.
            throttled_ &= ~(1ull << i);
            candidates_ |= 1ull << i;
            wake_[i] = 0;
        } else {
            reevaluate(i, t);
        }
    }
    // 2: candidates are eligible, or throttled and then blocked until their
    // pipe or unit frees (it only ever frees later, never earlier).
    uint64_t eligible = 0;
    for (uint64_t m = candidates_; m; m &= m - 1) {
        uint32_t i = uint32_t(std::countr_zero(m));
        uint64_t free_at;
        if (!sm_.throttled(*next_[i], pipes, t, free_at)) {
            eligible |= 1ull << i;
            view_[i].eligible = true;
            continue;
        }
        TWarp& w = *warp_[i];
        ctx_.log.set(w, next_[i]->throttle, w.pc, t);
        w.wake = free_at;  // (w.candidate stays true: it only waits for the pipe or unit)
        wake_[i] = free_at;
        view_[i].eligible = false;
        candidates_ &= ~(1ull << i);
        not_selected_ &= ~(1ull << i);
        throttled_ |= 1ull << i;
    }
    // 3: pick and issue; the other eligible warps are not_selected.
    uint64_t next = kNever;
    if (eligible) {
        int chosen = -1;
        if (busy_until_ <= t) chosen = policy_->pick(std::span<const WarpView>(view_.data(), views_used_), t);
        for (uint64_t m = eligible & ~not_selected_; m; m &= m - 1) {
            uint32_t i = uint32_t(std::countr_zero(m));
            if (int(i) != chosen) ctx_.log.set(*warp_[i], StallReason::NotSelected, warp_[i]->pc, t);
        }
        not_selected_ |= eligible;
        for (uint64_t m = eligible; m; m &= m - 1) view_[std::countr_zero(m)].eligible = false;
        if (chosen >= 0) issue_pick(uint32_t(chosen), t);
        // The others try again when the scheduler is free; after an issue also at
        // t + 1, where the pipe it took may throttle them.
        if (candidates_) next = chosen >= 0 ? t + 1 : std::max(t + 1, busy_until_);
    }
    // 4: the next cycle anything here can change.
    for (uint64_t m = resident_ & ~candidates_; m; m &= m - 1) next = std::min(next, wake_[std::countr_zero(m)]);
    next_event_ = next;
}

void SubPartition::issue_pick(uint32_t i, uint64_t t) {
    TWarp& w = *warp_[i];
    const DecodedInst& d = ctx_.code[w.pc];
    uint32_t extra = bank_conflict_cycles(d, w.reuse, ctx_.cfg.regfile, ctx_.stats.regfile);
    if (extra) ctx_.log.set(w, StallReason::DispatchStall, w.pc, t);
    uint64_t ti = t + extra;
    uint32_t slots = sm_.issue(w, ti, *this);
    busy_until_ = ti + slots;
    ctx_.stats.issue_slots += slots;
    candidates_ &= ~(1ull << i);
    not_selected_ &= ~(1ull << i);
    wake_[i] = w.wake;
    view_[i].last_issue = w.last_issue;
    view_[i].long_wait = false;
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
        os << "    warp " << w->id.warp << " (block " << w->id.block << ", slot " << w->id.slot << "): pc "
           << w->pc << ", state " << stall_name(w->state) << " since " << w->state_since
           << (w->candidate ? ", candidate" : "") << (w->at_barrier ? ", at barrier" : "")
           << (w->draining ? ", draining" : "") << ", wake "
           << (w->wake == kNever ? std::string("never") : std::to_string(w->wake)) << '\n';
    }
    (void)t;
    return os.str();
}

}  // namespace simt::timing
