// policy.hpp: the warp-scheduling policy of one scheduler (SM sub-partition).
//
// A policy only chooses; it never sees pipes, scoreboards or memory. The
// sub-partition hands it a read-only view of its resident warps each cycle in
// which at least one of them is eligible and the scheduler can issue.
//
// `warps` holds one entry per warp slot of the scheduler in increasing slot
// order; entries with resident == false are free slots (never eligible).
// pick_mask() is the same choice with eligibility given as a bit mask (bit i:
// warps[i] is eligible; the views' `eligible` fields are then ignored): the
// sub-partition calls it once per issue without touching every view. Its
// `arrived` mask has bit i set when slot i may hold another warp (another age)
// than at the previous call: a policy that keeps state per slot need look at
// no other slot's age (~0: look at all of them, as pick() does).
//
// Contract (tests/test_timing_policy.cpp runs every policy through it):
//   * pick() returns the index in `warps` of an ELIGIBLE warp, or -1 to issue
//     nothing this cycle. It never returns an ineligible or out-of-range index.
//   * pick() is called at most once per cycle, and only with >= 1 eligible warp.
//   * pick_mask(m, warps, c, a) returns what pick() would for the same views with
//     eligible = (bit i of m), and leaves the policy in the same state, for any
//     `a` that covers the slots whose warp changed since the previous call.
//   * Deterministic: the choice depends only on the views and the policy's own
//     past choices (never on host state); `age` identifies a warp uniquely.
//   * No starvation: a warp that stays eligible is picked eventually
//     (two_level: once it is in the active set, which it enters when an active
//     warp leaves it).
#pragma once

#include "sim/config/config.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace simt::timing {

// (32 bytes, two to a cache line: a pick reads several.)
struct WarpView {
    bool resident = false;    // false: a free slot (ignore the other fields)
    bool eligible = false;    // may issue this cycle
    bool long_wait = false;   // waiting on a long-latency event (long scoreboard, barrier, drain)
    bool yielded = false;     // its last issued instruction yields (DecodedInst::yields)
    uint32_t slot = 0;        // warp slot in the SM (views come in increasing slot order)
    uint64_t age = 0;         // dispatch sequence number: unique, smaller = older
    uint64_t block = 0;       // its block's rank: the launch index (blocks are dispatched in that order), or with
                              // scheduler.block_order: slot its block's slot on the SM
    uint64_t last_issue = 0;  // cycle of its last issue + 1 (0 = never issued)
};

class Policy {
public:
    virtual ~Policy() = default;
    virtual int pick(std::span<const WarpView> warps, uint64_t cycle) = 0;
    // Default: copies the views with the mask's eligibility and calls pick().
    virtual int pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t cycle, uint64_t arrived);
    virtual std::string_view name() const = 0;

private:
    std::vector<WarpView> scratch_;  // the default pick_mask's copy (reused, no allocation per pick)
};

std::unique_ptr<Policy> make_lrr_policy();
std::unique_ptr<Policy> make_gto_policy();
std::unique_ptr<Policy> make_two_level_policy(uint32_t active_set);
std::unique_ptr<Policy> make_gty_policy();
std::unique_ptr<Policy> make_gtb_policy();
std::unique_ptr<Policy> make_cgy_policy(uint32_t window, bool yield_demotes, uint32_t starve_cycles, bool greedy = false);
std::unique_ptr<Policy> make_policy(const GpuConfig::Scheduler& spec);

}  // namespace simt::timing
