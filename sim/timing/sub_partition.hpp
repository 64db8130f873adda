// sub_partition.hpp: one warp scheduler (SMSP) and its pipes.
//
// Each resident warp is in one of three sets: blocked until a wake time;
// waiting only for its math or branch pipe (`waiting`); or a candidate for
// the SM's L1TEX or MIO unit. Each tick (one cycle), in this order:
//   1. if the earliest wake time has come, those blocked warps are
//      re-evaluated (they may become waiting or candidates, move to their next
//      blocked state, or retire);
//   2. every candidate is checked against its pipe and the SM's units ->
//      eligible, or throttled (a throttle reason) and then blocked until the
//      pipe or unit frees (it can only free later, never earlier); a waiting
//      warp is eligible when its pipe is free (one test per pipe, not per warp);
//   3. if the scheduler is not still dispatching an earlier instruction, the
//      policy picks one eligible warp; its register reads are scheduled on the
//      bank ports (read_ports.hpp): a conflict delays its operands, and what
//      exceeds the read queue holds the scheduler (dispatch_stall); then it
//      issues (selected) through Sm::issue;
//      the other eligible candidates are not_selected (waiting warps are
//      settled lazily: throttled while their pipe is busy, not_selected
//      otherwise, see accounting.hpp). The issued warp's next state is known
//      at once (it depends only on its own registers, branch and launch
//      times), so it goes straight to its next set;
//   4. next_event() becomes the earliest cycle at which anything here can
//      change (a wake, a pipe or unit freeing, the next issue slot).
// The SM also ticks a sub-partition that has candidates when another one
// took a shared unit (see Sm::tick).
// A tick at a cycle before next_event() changes nothing; the top loop skips
// such cycles (event skipping) and the Stats are the same either way.
#pragma once

#include "sim/timing/context.hpp"
#include "sim/timing/parallel/sm_share.hpp"
#include "sim/timing/pipes.hpp"
#include "sim/timing/read_ports.hpp"
#include "sim/timing/scheduler/policy.hpp"
#include "sim/timing/warp.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace simt::timing {

class Sm;

class alignas(64) SubPartition {
private:
    // The per-tick state first, then the pipes' free times, so that a tick touches few
    // cache lines (the first five: prefetch()).
    uint64_t next_wake_ = kNever;        // earliest wake_ of a blocked warp
    uint64_t next_event_ = kNever;
    uint64_t busy_until_ = 0;            // first cycle the scheduler can issue again
    uint32_t last_warp_ = ~0u;           // warp slot of the scheduler's previous issue (reuse cache owner)
    uint64_t blocked_ = 0;               // bit i: blocked until wake_[i]
    uint64_t candidates_ = 0;            // bit i: candidate for an L1TEX/MIO instruction
    uint64_t waiting_ = 0;               // bit i: waiting only for its math or branch pipe
    uint32_t wait_pipes_ = 0;            // bit p: wait_[p] != 0
    uint32_t views_used_ = 0;            // 1 + highest local slot ever used
    std::unique_ptr<Policy> policy_;
    std::array<uint64_t, isa::kNumPipes> wait_{};  // waiting warps by pipe
    uint64_t resident_ = 0;              // bit i: local slot i holds a warp
    uint64_t throttled_ = 0;             // bit i: such a candidate blocked only by its pipe or unit (wake_ = free)
    uint64_t not_selected_ = 0;          // bit i: candidate whose state is already not_selected
    uint64_t arrived_ = 0;               // bit i: a warp came to slot i since the policy's last pick
    // The blocked warps by wake time (wake()): the buckets of the next kWindow cycles after now_
    // (bucket_[c % kWindow]: the warps that wake at c; filled_: the non-empty ones), the later
    // ones (far_, the earliest at far_min_ or later), and those due at the next wake (early_).
    static constexpr uint64_t kWindow = 64;
    uint64_t now_ = 0;                   // the last wake's cycle
    uint64_t filled_ = 0;                // bit b: bucket_[b] != 0
    uint64_t early_ = 0;
    uint64_t far_ = 0;
    uint64_t far_min_ = kNever;
    uint64_t outward_ = 0;               // bit i: its warp is outward (TWarp::outward)

public:
    PipeState pipes;                     // read and written by Sm::issue (free_at first)

    SubPartition(Sm& sm, uint32_t index, Context& ctx, const SmShare& share);

    void add(TWarp* w);                  // a warp dispatched here
    void tick(uint64_t t);
    uint64_t next_event() const { return next_event_; }
    void wake_at(uint64_t t) { if (t < next_event_) next_event_ = t; }
    // The SM changed w.wake from outside a tick (barrier release).
    void sync(const TWarp& w);
    bool empty() const { return resident_ == 0; }
    void add_regfile(RegFileStats& s) const {
        s.operand_reads += rf_.operand_reads;
        s.reuse_hits += rf_.reuse_hits;
        s.bank_conflict_cycles += rf_.bank_conflict_cycles;
        s.bank_hold_cycles += rf_.bank_hold_cycles;
    }
    // A parallel run: the rest of the issue at t of w, whose L1TEX request the
    // SM completed at the end of the cycle (its registers and memory done are
    // set): what after_issue does, and next_event() as if done in the tick.
    void finish_issue(TWarp& w, uint64_t t);
    // Has warps whose eligibility depends on the SM's shared units (L1TEX, MIO).
    bool has_candidates() const { return candidates_ != 0; }
    // Local slot i's warp is outward or not (Sm::note_outward, run_ahead.hpp).
    void mark_outward(uint32_t i, bool out) {
        outward_ = out ? outward_ | 1ull << i : outward_ & ~(1ull << i);
    }
    // Can no outward warp act here (issue, retire) at cycle t? (A blocked one acts at its wake time.)
    bool outward_quiet_at(uint64_t t) const {
        if (outward_ & ~blocked_) return false;
        for (uint64_t m = outward_; m; m &= m - 1)
            if (wake_[std::countr_zero(m)] <= t) return false;
        return true;
    }

    std::string describe(uint64_t t) const;
    // Asks for the cache lines a tick reads first (a hint; see Sm::prefetch).
    void prefetch() const {
        const char* p = reinterpret_cast<const char*>(this);
        for (int line = 0; line < 5; ++line) __builtin_prefetch(p + 64 * line);
    }

private:
    void wake(uint64_t t);
    void reevaluate(uint32_t i, uint64_t t);
    void enter(uint32_t i, uint64_t t);      // w became a candidate at t: waiting or candidate
    void block(uint32_t i, uint64_t until);
    void file_wake(uint32_t i, uint64_t until);
    void unfile_wake(uint32_t i);
    uint64_t check_candidates(uint64_t t);  // the eligible ones
    uint64_t first_arrived(uint64_t eligible) const;  // of the eligible L1TEX (MIO) candidates, the one waiting longest
    void not_selected(uint64_t eligible, int chosen, uint64_t t);
    void issue_pick(uint32_t i, uint64_t t);
    void read_operands(uint32_t i, uint64_t t, ReadPorts::Timing& rd);  // (an out-parameter: no packing of the result)
    void after_issue(uint32_t i);
    [[gnu::noinline]] void open_window(int pipe, uint64_t t);  // (with an observer)
    [[gnu::noinline]] void settle_waits(int pipe, uint64_t t);
    uint64_t next_after(uint64_t t, bool issued) const;

    PipeWindows windows_;                // busy windows of the pipes (lazy accounting)
    ReadPorts ports_;                    // the register banks' read ports
    bool banks_on_;                      // regfile.model_banks (and banks > 0)
    RegFileStats rf_;                    // its register-file counters (Stats::regfile sums them at the end)
    Sm& sm_;
    uint32_t index_;
    Context& ctx_;
    StateLog& log_;                      // the SM's (SmShare::log)
    BankModel& banks_;                   // the SM's (SmShare::banks)
    const DecodedInst* code_;            // ctx_.code
    // Per local slot i = SM slot / sub_partitions (fixed while the warp is resident):
    static constexpr uint32_t kSlots = 64;  // the most warps one scheduler holds
    std::array<TWarp*, kSlots> warp_{};     // nullptr when the local slot is free
    std::array<uint64_t, kSlots> wake_{};   // a blocked warp's TWarp::wake
    std::array<uint64_t, kWindow> bucket_{};  // (wake())
    std::array<WarpView, kSlots> view_{};   // what the policy sees (eligible: given as a mask)
    std::array<const DecodedInst*, kSlots> next_{};  // a candidate's next instruction
    std::array<uint64_t, kSlots> since_{};  // a candidate's cycle of becoming one (scheduler.lg_order, mio_order: arrival)
    bool lg_arrival_;                       // scheduler.lg_order: arrival
    bool mio_arrival_;                      // scheduler.mio_order: arrival
};

}  // namespace simt::timing
