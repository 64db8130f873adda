// run_ahead.hpp: an SM ticks ahead of the others while nothing it does can reach them.
//
// The serial top loop ticks the SMs due at cycle t in order, then those due at the next
// cycle, and so on: every SM's warps (their registers, scoreboards, timing state) leave
// the host's caches between two of its ticks. Most ticks touch nothing another SM sees:
// an SM shares with the others only the memory side (L1TEX requests into the L2 and DRAM,
// global memory's data) and the Gpu's dispatch (a retirement lets blocks in; a block goes
// to an SM that fits it). So once an SM has ticked at t in its place, it goes on ticking
// at its own next events, up to `kWindow` cycles ahead, while those ticks are *local*:
//   * no outward warp can act at their cycle, and no held store leaves the LSU queue then
//     (Sm::local_at). A warp is outward while it drains (a drain ends in a retirement) or
//     while its next instruction accesses memory or an SM unit (L1TEX, MIO:
//     IssueCost::outward); a blocked one does nothing before its wake time (a barrier's
//     release can only move it to the cycle after a tick, which the next look sees), any
//     other may issue at once. So each such tick issues only instructions whose timing and
//     data are the SM's own (registers, pipes, barriers among its blocks);
//   * no block can come to it in the meantime: every block has been dispatched, or it
//     does not fit one (it frees resources only by a retirement, which is not local);
//   * the cycle budget (max_cycles) is not passed, and the instruction budget is far
//     (below: the executor counts steps in the order they run).
// Such a tick reads nothing that another SM's tick at an earlier cycle writes, and writes
// only the SM's own state and counters that are sums (per-pc counts and stall cycles, the
// bank-read memo, whose entries are functions of (previous pc, pc)); so ticking it early
// gives it the state it has in the serial order, and the other SMs see the same memory
// side as before. An SM's ticks depend only on its own events (event skipping: a tick
// before the next event changes nothing), so where the top loop's cycles fall does not
// matter. Errors keep their order: a tick ahead that throws is kept with its cycle, which
// becomes the SM's next event, and rethrown when the top loop ticks the SM there, after
// whatever the SMs before it at that cycle (or any SM earlier) throw. The deadlock report
// names the latest cycle any SM ticked, as the serial loop's last visited cycle does.
// The instruction budget: with at most `kWindow` cycles of instructions ticked ahead on
// each SM (sub_partitions per cycle each), a run that stays `margin` below the budget
// cannot cross it among the instructions ticked ahead, so the error (when it comes) is
// raised at the same step, after the others have been covered in order. (On several
// threads the count is the steps settled before the cycle: a cycle adds at most
// sms * sub_partitions * (kWindow + 1) to it, half the margin.)
//
// On several threads (sim/timing/parallel/) an SM runs ahead as a task on a worker while the
// top loop goes on (ahead_tasks.hpp): its ticks ahead write only its own state (`Lane` here is
// its own too), it goes out only when its tick left nothing for the settle (Sm::has_pending()),
// and publish() tells the top loop how far it has come: the top loop never visits a cycle the
// SM has not passed, so its first non-local cycle is still ahead when it comes back.
//
// Left out: running ahead with an observer (its events would come out of order) or without
// event skipping.
#pragma once

#include "sim/timing/sm.hpp"

#include <algorithm>
#include <exception>
#include <vector>

namespace simt::timing {

class RunAhead {
public:
    static constexpr uint64_t kWindow = 4096;  // cycles an SM may tick ahead of the top loop

    RunAhead(bool on, uint32_t sms, uint32_t sub_partitions, uint64_t max_cycles)
        : on_(on), max_cycles_(max_cycles), lanes_(sms),
          margin_(2 * uint64_t(sms) * std::max(sub_partitions, 1u) * (kWindow + 1)) {}

    bool on() const { return on_; }
    // Is the instruction budget far enough from `done` warp instructions to tick ahead?
    bool budget_far(uint64_t done, uint64_t budget) const { return done < budget && budget - done > margin_; }
    // The SM `sm` (index i) has ticked at t; may_receive(): a block may still come to it;
    // budget_far(): as above, for the steps counted so far. Ticks it at its next events
    // before t + kWindow while it stays local; returns its next event (the cycle of a kept
    // error: fault()). publish(p) after each tick: every cycle before p is ticked, and the
    // next event is p or later; it returns false to stop there (any tick may be the last).
    // Touches only sm and its lane: SMs may run ahead on several threads.
    template <class MayReceive, class BudgetFar, class Publish>
    uint64_t run(Sm& sm, uint32_t i, uint64_t t, MayReceive may_receive, BudgetFar budget_far, Publish publish) {
        uint64_t next = sm.next_event(), last = 0;
        const uint64_t end = t + kWindow <= max_cycles_ ? t + kWindow : max_cycles_ + 1;
        bool open = false;  // may_receive() has said no (local ticks do not change that)
        for (uint64_t at = t; budget_far(); ) {
            at = std::max(next, at + 1);
            if (at >= end || !sm.local_at(at)) break;
            if (!open && may_receive()) break;
            open = true;
            try {
                sm.tick(at, false);
            } catch (...) {
                lanes_[i].fault = std::current_exception();
                next = at;
                break;
            }
            last = at;
            next = sm.next_event();
            if (!publish(next)) break;  // (its next event is then local: the top loop ticks it there)
        }
        if (last > lanes_[i].last) lanes_[i].last = last;
        return next;
    }
    // Would run() tick sm (index i) at all, after its tick at t? (The same first look.)
    template <class MayReceive>
    bool starts(const Sm& sm, uint64_t t, MayReceive may_receive) const {
        const uint64_t at = std::max(sm.next_event(), t + 1);
        const uint64_t end = t + kWindow <= max_cycles_ ? t + kWindow : max_cycles_ + 1;
        return at < end && sm.local_at(at) && !may_receive();
    }
    // The error SM i's tick ahead raised (null: none); the top loop ticks it at that cycle now.
    const std::exception_ptr& fault(uint32_t i) const { return lanes_[i].fault; }
    void rethrow_if_faulted(uint32_t i) const {
        if (lanes_[i].fault) std::rethrow_exception(lanes_[i].fault);
    }
    // The latest cycle ticked ahead (0: none).
    uint64_t last_tick() const {
        uint64_t m = 0;
        for (const Lane& l : lanes_) m = std::max(m, l.last);
        return m;
    }

private:
    struct Lane {  // one SM's
        std::exception_ptr fault;
        uint64_t last = 0;  // the latest cycle it ticked ahead
    };

    bool on_;
    uint64_t max_cycles_;
    std::vector<Lane> lanes_;
    uint64_t margin_;
};

}  // namespace simt::timing
