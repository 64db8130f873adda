// accounting.hpp: warp-state intervals -> stall counters and observer events.
//
// A warp's state changes only at events; each change closes the interval
// [since, t) of the old (state, pc): its length is added to the per-pc
// counters (whose sums are the stall totals), and (with an observer) the interval is delivered,
// merged with its predecessor when state and pc are equal. Zero-length
// intervals are dropped. No per-cycle work.
//
// A warp that waits only for its own (math or branch) pipe alternates
// between the pipe's throttle reason (while the pipe is busy) and
// not_selected (while it is free and another warp issues) on every issue
// into that pipe. Those flips are not logged one by one: the sub-partition
// records each pipe's busy windows (PipeWindows, pipes.hpp) and the wait is
// settled when it ends: from the busy-cycle counts alone, or, with an
// observer, as exact intervals (the sub-partition then settles every waiter
// at each new window, so at most one window lies in any settled span).
#pragma once

#include "sim/timing/observer.hpp"
#include "sim/timing/pipes.hpp"
#include "sim/timing/stats.hpp"
#include "sim/timing/warp.hpp"

#include <algorithm>

namespace simt::timing {

class StateLog {
public:
    StateLog(Stats& stats, Observer* observer) : stats_(stats), observer_(observer) {}

    // The warp becomes resident at t in state s at pc.
    void open(TWarp& w, StallReason s, uint32_t pc, uint64_t t) {
        w.state = s;
        w.state_pc = pc;
        w.state_since = t;
        w.pend_valid = false;
    }
    // From cycle t on the warp is in state s at pc (t >= the current interval's start).
    void set(TWarp& w, StallReason s, uint32_t pc, uint64_t t) {
        if (s == w.state && pc == w.state_pc) return;
        close_current(w, t);
        w.state = s;
        w.state_pc = pc;
        w.state_since = t;
    }
    // The warp leaves at t: closes its last interval.
    void close(TWarp& w, uint64_t t) {
        close_current(w, t);
        if (observer_ && w.pend_valid) flush(w);
    }

    // With an observer, every wait must be settled at each new busy window of its pipe.
    bool exact() const { return observer_ != nullptr; }

    // From t on the warp waits only for pipe p (its next instruction, at pc,
    // has its operands; `throttle` is that instruction's throttle reason).
    void begin_wait(TWarp& w, uint32_t pc, uint8_t p, StallReason throttle, uint64_t t, const PipeWindows& win) {
        close_current(w, t);
        w.state = StallReason::NotSelected;  // nominal: the wait's split is settled later
        w.state_pc = pc;
        w.state_since = t;
        w.waiting = true;
        w.wait_pipe = p;
        w.wait_throttle = throttle;
        w.wait_busy = win.busy_before(p, t);
    }
    // Accounts the wait up to t (> its start); the warp keeps waiting from t.
    // (Inline: the counts alone are a few additions; the observer's pieces are out of line.)
    [[gnu::always_inline]] void settle_wait(TWarp& w, uint64_t t, const PipeWindows& win) {
        const int p = w.wait_pipe;
        const uint64_t busy_to_t = win.busy_before(p, t);
        if (!observer_) {
            const uint64_t busy = busy_to_t - w.wait_busy;
            const uint64_t len = t - w.state_since;
            StallArray& at_pc = stats_.per_pc[w.state_pc].stall_cycles;
            at_pc[int(w.wait_throttle)] += busy;
            at_pc[int(StallReason::NotSelected)] += len - busy;
        } else {
            settle_pieces(w, t, win);
        }
        w.state_since = t;
        w.wait_busy = busy_to_t;
    }
    // The wait ends at t (the warp was picked).
    void end_wait(TWarp& w, uint64_t t, const PipeWindows& win) {
        if (t != w.state_since) settle_wait(w, t, win);
        w.waiting = false;
    }

private:
    // With an observer, the wait up to t as exact pieces: not_selected, the busy window, not_selected.
    [[gnu::noinline]] void settle_pieces(TWarp& w, uint64_t t, const PipeWindows& win) {
        const int p = w.wait_pipe;
        const uint64_t a = std::clamp(win.pipe[p].start, w.state_since, t);
        const uint64_t b = std::clamp(win.pipe[p].end, a, t);
        piece(w, StallReason::NotSelected, w.state_since, a);
        piece(w, w.wait_throttle, a, b);
        piece(w, StallReason::NotSelected, b, t);
        w.state = StallReason::NotSelected;
    }
    // Per pc only: Stats::stall_cycles is their sum (Gpu::finish).
    void add(StallReason s, uint32_t pc, uint64_t len) { stats_.per_pc[pc].stall_cycles[int(s)] += len; }
    // [start, end) in state s at the current pc (no-op when empty).
    void piece(TWarp& w, StallReason s, uint64_t start, uint64_t end) {
        if (end <= start) return;
        w.state = s;
        w.state_since = start;
        close_current(w, end);
    }
    void close_current(TWarp& w, uint64_t t) {
        if (t <= w.state_since) return;
        uint64_t len = t - w.state_since;
        add(w.state, w.state_pc, len);
        if (observer_) deliver(w, t);
    }
    void deliver(TWarp& w, uint64_t t) {
        if (w.pend_valid && w.pend_state == w.state && w.pend_pc == w.state_pc && w.pend_end == w.state_since) {
            w.pend_end = t;
            return;
        }
        if (w.pend_valid) flush(w);
        w.pend_valid = true;
        w.pend_state = w.state;
        w.pend_pc = w.state_pc;
        w.pend_start = w.state_since;
        w.pend_end = t;
    }
    void flush(TWarp& w) {
        observer_->on_interval(StateInterval{w.id, w.pend_start, w.pend_end, w.pend_state, w.pend_pc});
        w.pend_valid = false;
    }

    Stats& stats_;
    Observer* observer_;
};

}  // namespace simt::timing
