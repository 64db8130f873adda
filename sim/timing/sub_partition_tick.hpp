// sub_partition_tick.hpp: SubPartition::tick and the steps it runs (the wake, eligibility,
// the pick, the issue and the issued warp's next set), inline in Sm::tick's loop over the SM's
// sub-partitions (sm.cpp), with Sm::issue inline in it (sm_issue.hpp): no call per scheduler
// tick or warp instruction. The rest of SubPartition is in sub_partition.cpp.
#pragma once

#include "sim/timing/sm_issue.hpp"
#include "sim/timing/sub_partition.hpp"

#include <algorithm>
#include <bit>

namespace simt::timing {

namespace sp_detail {

inline bool is_long_wait(StallReason s) {
    return s == StallReason::LongScoreboard || s == StallReason::Barrier || s == StallReason::Drain;
}

// Only its pipe can keep a candidate for this instruction from issuing.
inline bool waits_for_pipe(const DecodedInst& d) { return d.unit == Unit::Math || d.unit == Unit::Branch; }

}  // namespace sp_detail

inline void SubPartition::block(uint32_t i, uint64_t until) {
    blocked_ |= 1ull << i;
    wake_[i] = until;
    next_wake_ = std::min(next_wake_, until);
    file_wake(i, until);
}

// Where blocked warp i waits for its wake (see wake()). A warp is filed once: block() and
// reevaluate() file one that is not blocked or was just taken as due, sync() files again.
inline void SubPartition::file_wake(uint32_t i, uint64_t until) {
    const uint64_t bit = 1ull << i;
    if (until <= now_) {  // (due at the next wake)
        early_ |= bit;
    } else if (until - now_ <= kWindow) {
        const uint32_t b = uint32_t(until % kWindow);
        bucket_[b] |= bit;
        filled_ |= 1ull << b;
    } else {
        far_ |= bit;
        far_min_ = std::min(far_min_, until);
    }
}

// 1: the blocked warps whose wake time has come. A warp that wakes within kWindow
// cycles of the last wake (now_) is filed in the bucket of its wake time (a ring of
// kWindow buckets: each holds one time), a later one with the far ones (far_, the
// earliest at far_min_), which are filed again once that earliest comes within the
// window. So a wake takes the due buckets' warps without looking at the others.
[[gnu::always_inline]] inline void SubPartition::wake(uint64_t t) {
    uint64_t due = early_;
    early_ = 0;
    // The buckets of the times (now_, t].
    uint64_t range = ~0ull;
    if (t - now_ < kWindow) {
        const uint64_t span = (1ull << (t - now_)) - 1;
        range = std::rotl(span, int((now_ + 1) % kWindow));
    }
    for (uint64_t m = filled_ & range; m; m &= m - 1) {
        const int b = std::countr_zero(m);
        due |= bucket_[b];
        bucket_[b] = 0;
    }
    filled_ &= ~range;
    now_ = t;
    if (far_min_ <= t + kWindow) {
        const uint64_t far = far_;
        far_ = 0;
        far_min_ = kNever;
        for (uint64_t m = far; m; m &= m - 1) {
            const uint32_t i = uint32_t(std::countr_zero(m));
            if (wake_[i] <= t) due |= 1ull << i;
            else file_wake(i, wake_[i]);
        }
    }
    for (uint64_t m = due; m; m &= m - 1) {
        uint32_t i = uint32_t(std::countr_zero(m));
        uint64_t bit = 1ull << i;
        if (throttled_ & bit) {
            // Its pipe or unit may be free again; nothing else about it changed.
            throttled_ &= ~bit;
            blocked_ &= ~bit;
            candidates_ |= bit;
            wake_[i] = kNever;
            continue;
        }
        reevaluate(i, t);
    }
    // The earliest filed wake: the first filled bucket after now_, or a far one.
    uint64_t next = far_min_;
    if (filled_) next = std::min(next, now_ + 1 + uint64_t(std::countr_zero(std::rotr(filled_, int((now_ + 1) % kWindow)))));
    if (early_) next = std::min(next, now_);
    next_wake_ = next;
}

// Local slot i's wake time came.
[[gnu::always_inline]] inline void SubPartition::reevaluate(uint32_t i, uint64_t t) {
    TWarp* w = warp_[i];
    uint64_t bit = 1ull << i;
    sm_.reevaluate(*w, t);
    if (!w->resident) {
        warp_[i] = nullptr;
        wake_[i] = kNever;
        view_[i] = WarpView{};
        resident_ &= ~bit;
        blocked_ &= ~bit;
        return;
    }
    if (w->candidate) {
        blocked_ &= ~bit;
        wake_[i] = kNever;
        enter(i, t);
    } else {
        wake_[i] = w->wake;
        file_wake(i, w->wake);
        view_[i].long_wait = sp_detail::is_long_wait(w->state);
    }
}

// Warp i has its operands from cycle t on: it waits for its pipe (math,
// branch) or is a candidate for an SM unit (L1TEX, MIO).
inline void SubPartition::enter(uint32_t i, uint64_t t) {
    TWarp& w = *warp_[i];
    const DecodedInst& d = code_[w.pc];
    uint64_t bit = 1ull << i;
    view_[i].long_wait = false;
    if (sp_detail::waits_for_pipe(d)) {
        int p = int(d.pipe);
        log_.begin_wait(w, w.pc, uint8_t(p), d.throttle, t, windows_);
        wait_[p] |= bit;
        wait_pipes_ |= 1u << p;
        waiting_ |= bit;
    } else {
        candidates_ |= bit;
        not_selected_ &= ~bit;
        next_[i] = &d;
        since_[i] = t;
    }
}

[[gnu::always_inline]] inline void SubPartition::tick(uint64_t t) {
    // 1: wake blocked warps whose time has come.
    if (next_wake_ <= t) wake(t);
    // 2: candidates for a unit are checked one by one; waiting warps by pipe.
    const uint64_t unit_eligible = candidates_ ? check_candidates(t) : 0;
    uint64_t eligible =
        (lg_arrival_ || mio_arrival_) && (unit_eligible & (unit_eligible - 1)) ? first_arrived(unit_eligible) : unit_eligible;
    for (uint32_t pm = wait_pipes_; pm; pm &= pm - 1) {
        int p = std::countr_zero(pm);
        eligible |= wait_[p] & (0 - uint64_t(pipes.free_at[p] <= t));  // (no branch: it is hard to predict)
    }
    // 3: pick and issue; the other eligible candidates are not_selected.
    int chosen = -1;
    if (eligible && busy_until_ <= t) {
        chosen = policy_->pick_mask(eligible, std::span<const WarpView>(view_.data(), views_used_), t, arrived_);
        arrived_ = 0;
    }
    if (unit_eligible) not_selected(unit_eligible, chosen, t);
    if (chosen >= 0) issue_pick(uint32_t(chosen), t);
    // 4: the next cycle anything here can change.
    next_event_ = next_after(t, chosen >= 0);
}

inline uint64_t SubPartition::next_after(uint64_t t, bool issued) const {
    uint64_t next = next_wake_;
    // Candidates try again when the scheduler is free; after an issue also at
    // t + 1, where the pipe or unit it took may throttle them.
    if (candidates_) next = std::min(next, issued ? t + 1 : std::max(t + 1, busy_until_));
    // Waiting warps can issue once their pipe and the scheduler are free.
    if (wait_pipes_) {
        uint64_t free = kNever;
        for (uint32_t pm = wait_pipes_; pm; pm &= pm - 1) free = std::min(free, pipes.free_at[std::countr_zero(pm)]);
        next = std::min(next, std::max({t + 1, busy_until_, free}));
    }
    return next;
}

// The register reads of warp i's instruction picked at t, on the bank ports.
[[gnu::always_inline]] inline void SubPartition::read_operands(uint32_t i, uint64_t t, ReadPorts::Timing& rd) {
    TWarp& w = *warp_[i];
    // The operand reuse cache belongs to the scheduler: it still holds this warp's
    // operands only if this warp issued the scheduler's previous instruction.
    const uint32_t prev = last_warp_ == i ? w.reuse_pc : kNoPc;
    if (banks_on_) {
        const BankReads& reads = banks_.reads(prev, w.pc, rf_);
        if (reads.n) rd = ports_.schedule(reads, *w.sb, std::max(w.last_issue, w.branch_ready), t);
        rf_.bank_conflict_cycles += rd.own;
        rf_.bank_hold_cycles += rd.hold;
    }
    w.reuse_pc = w.pc;
    last_warp_ = i;
}

[[gnu::always_inline]] inline void SubPartition::issue_pick(uint32_t i, uint64_t t) {
    TWarp& w = *warp_[i];
    const uint64_t bit = 1ull << i;
    view_[i].yielded = code_[w.pc].yields;
    if (waiting_ & bit) {
        log_.end_wait(w, t, windows_);
        const int p = w.wait_pipe;
        wait_[p] &= ~bit;
        if (!wait_[p]) wait_pipes_ &= ~(1u << p);
        waiting_ &= ~bit;
    } else {
        candidates_ &= ~bit;
        not_selected_ &= ~bit;
    }
    ReadPorts::Timing rd;
    read_operands(i, t, rd);
    if (rd.hold) log_.set(w, StallReason::DispatchStall, w.pc, t);
    const uint64_t ti = t + rd.hold;
    const uint32_t slots = sm_.issue(w, ti, *this, rd.late);
    busy_until_ = ti + slots;
    if (log_.exact()) {  // its class, and those sharing the datapath it took
        for (uint32_t m = pipes.changed; m; m &= m - 1) open_window(std::countr_zero(m), t);
    } else {
        for (uint32_t m = pipes.changed; m; m &= m - 1) {
            const int q = std::countr_zero(m);
            if (pipes.free_at[q] > t + 1) windows_.open(q, t + 1, pipes.free_at[q]);
        }
    }
    view_[i].last_issue = w.last_issue;
    if (!sm_.issue_pending(w)) after_issue(i);  // (else finish_issue at the cycle's end)
}

// Warp i just issued; it is evaluated again at w.wake (the end of its issue
// slots). Unless it is held (barrier, drain) or its next instruction needs an
// SM unit, the outcome depends only on its own launch, branch and register
// times, which nothing can change before then: it goes to its next set now.
// (Nothing in this scheduler looks at it before w.wake: it is busy until then.)
[[gnu::always_inline]] inline void SubPartition::after_issue(uint32_t i) {
    TWarp& w = *warp_[i];
    const uint64_t at = w.wake;
    if (!w.draining && !w.at_barrier) {
        sm_.reevaluate(w, at);
        if (!w.candidate) {
            view_[i].long_wait = sp_detail::is_long_wait(w.state);
            block(i, w.wake);
            return;
        }
        if (sp_detail::waits_for_pipe(code_[w.pc])) {
            enter(i, at);
            return;
        }
        w.candidate = false;  // its unit is checked when its tick comes
        w.wake = at;
    }
    view_[i].long_wait = false;
    block(i, at);
}

}  // namespace simt::timing
