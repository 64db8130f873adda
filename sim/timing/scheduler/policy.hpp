// policy.hpp: the warp-scheduling policy of one scheduler (SM sub-partition).
//
// A policy only chooses; it never sees pipes, scoreboards or memory. The
// sub-partition hands it a read-only view of its resident warps each cycle in
// which at least one of them is eligible and the scheduler can issue.
//
// `warps` holds one entry per warp slot of the scheduler in increasing slot
// order; entries with resident == false are free slots (never eligible).
//
// Contract (tests/test_timing_policy.cpp runs every policy through it):
//   * pick() returns the index in `warps` of an ELIGIBLE warp, or -1 to issue
//     nothing this cycle. It never returns an ineligible or out-of-range index.
//   * pick() is called at most once per cycle, and only with >= 1 eligible warp.
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

namespace simt::timing {

struct WarpView {
    bool resident = false;    // false: a free slot (ignore the other fields)
    uint32_t slot = 0;        // warp slot in the SM (views come in increasing slot order)
    uint64_t age = 0;         // dispatch sequence number: unique, smaller = older
    uint64_t last_issue = 0;  // cycle of its last issue + 1 (0 = never issued)
    bool eligible = false;    // may issue this cycle
    bool long_wait = false;   // waiting on a long-latency event (long scoreboard, barrier, drain)
};

class Policy {
public:
    virtual ~Policy() = default;
    virtual int pick(std::span<const WarpView> warps, uint64_t cycle) = 0;
    virtual std::string_view name() const = 0;
};

std::unique_ptr<Policy> make_lrr_policy();
std::unique_ptr<Policy> make_gto_policy();
std::unique_ptr<Policy> make_two_level_policy(uint32_t active_set);
std::unique_ptr<Policy> make_policy(const GpuConfig::Scheduler& spec);

}  // namespace simt::timing
