// sub_partition.hpp: one warp scheduler (SMSP) and its pipes.
//
// Each tick (one cycle), in this order:
//   1. blocked warps whose wake time has come are re-evaluated (they may
//      become candidates, move to their next blocked state, or retire);
//   2. every candidate is checked against its pipe and the SM's units ->
//      eligible, or throttled (a throttle reason) and then blocked until the
//      pipe or unit frees (it can only free later, never earlier);
//   3. if the scheduler is not still dispatching an earlier instruction, the
//      policy picks one eligible warp; its register-bank conflicts delay its
//      dispatch (dispatch_stall), then it issues (selected) through Sm::issue;
//      the other eligible warps are not_selected;
//   4. next_event() becomes the earliest cycle at which anything here can
//      change (a wake, a pipe or unit freeing, the next issue slot).
// The SM also ticks a sub-partition that has candidates when another one
// took a shared unit (see Sm::tick).
// A tick at a cycle before next_event() changes nothing; the top loop skips
// such cycles (event skipping) and the Stats are the same either way.
#pragma once

#include "sim/timing/context.hpp"
#include "sim/timing/pipes.hpp"
#include "sim/timing/scheduler/policy.hpp"
#include "sim/timing/warp.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace simt::timing {

class Sm;

class SubPartition {
public:
    SubPartition(Sm& sm, uint32_t index, Context& ctx);

    void add(TWarp* w);                  // a warp dispatched here
    void tick(uint64_t t);
    uint64_t next_event() const { return next_event_; }
    void wake_at(uint64_t t) { if (t < next_event_) next_event_ = t; }
    // The SM changed w.wake from outside a tick (barrier release).
    void sync(const TWarp& w) {
        wake_[w.lslot] = w.wake;
        wake_at(w.wake);
    }
    bool empty() const { return resident_ == 0; }
    bool has_candidates() const { return candidates_ != 0; }

    PipeState pipes;                     // read and written by Sm::issue
    std::string describe(uint64_t t) const;

private:
    void reevaluate(uint32_t i, uint64_t t);
    void issue_pick(uint32_t i, uint64_t t);

    Sm& sm_;
    uint32_t index_;
    Context& ctx_;
    std::unique_ptr<Policy> policy_;
    // Per local slot i = SM slot / sub_partitions (fixed while the warp is
    // resident), compact so that a tick touches few cache lines:
    std::vector<TWarp*> warp_;           // nullptr when the local slot is free
    std::vector<uint64_t> wake_;         // mirror of TWarp::wake (kNever when free)
    std::vector<WarpView> view_;         // what the policy sees (kept up to date)
    std::vector<const DecodedInst*> next_;  // a candidate's next instruction
    uint64_t resident_ = 0;              // bit i: local slot i holds a warp
    uint64_t candidates_ = 0;            // bit i: that warp is a candidate
    uint64_t throttled_ = 0;             // bit i: candidate blocked only by its pipe or unit (wake_ = free)
    uint64_t not_selected_ = 0;          // bit i: candidate whose state is already not_selected
    uint32_t views_used_ = 0;            // 1 + highest local slot ever used
    uint64_t busy_until_ = 0;            // first cycle the scheduler can issue again
    uint64_t next_event_ = kNever;
};

}  // namespace simt::timing
