// accounting.hpp: warp-state intervals -> stall counters and observer events.
//
// A warp's state changes only at events; each change closes the interval
// [since, t) of the old (state, pc): its length is added to the stall totals
// and the per-pc counters, and (with an observer) the interval is delivered,
// merged with its predecessor when state and pc are equal. Zero-length
// intervals are dropped. No per-cycle work.
#pragma once

#include "sim/timing/observer.hpp"
#include "sim/timing/stats.hpp"
#include "sim/timing/warp.hpp"

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

private:
    void close_current(TWarp& w, uint64_t t) {
        if (t <= w.state_since) return;
        uint64_t len = t - w.state_since;
        stats_.stall_cycles[int(w.state)] += len;
        stats_.per_pc[w.state_pc].stall_cycles[int(w.state)] += len;
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
