// warp.hpp: the timing state of one resident warp (its functional state is
// the func::Warp it points to).
//
// A warp is either a *candidate* (nothing but a pipe, a unit or the
// scheduler's choice keeps it from issuing; evaluated every cycle its
// scheduler ticks) or *blocked* until `wake`, the next cycle its state can
// change (launch, branch resolution, a register becoming ready, the end of a
// barrier or of the drain). Blocked warps cost nothing per cycle.
#pragma once

#include "sim/functional/executor.hpp"
#include "sim/timing/observer.hpp"
#include "sim/timing/regfile.hpp"
#include "sim/timing/scoreboard.hpp"

#include <cstdint>
#include <limits>

namespace simt::timing {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// Lanes in a mask. (std::popcount becomes a library call without -mpopcnt.)
inline uint32_t lane_count(uint32_t m) {
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

struct TWarp {
    // ---- scheduling (read every tick)
    bool resident = false;
    bool candidate = false;
    bool at_barrier = false;
    bool draining = false;
    uint64_t wake = 0;           // blocked: cycle of the next re-evaluation
    uint32_t pc = 0;             // next instruction (the exit's pc once draining)
    uint32_t hold_pc = 0;        // pc reported for barrier / drain intervals
    uint64_t launch_ready = 0;   // block launch: no_instruction until then
    uint64_t branch_ready = 0;   // branch_resolving until then
    uint64_t operand_ready = 0;  // scoreboard: operand_why until then
    StallReason operand_why = StallReason::Wait;
    uint64_t mem_done = 0;       // completion of its latest memory request
    uint64_t age = 0;            // dispatch sequence number (policies)
    uint64_t last_issue = 0;     // cycle of the last issue + 1 (0 = never)

    // ---- state accounting
    StallReason state = StallReason::NoInstruction;
    uint32_t state_pc = 0;
    uint64_t state_since = 0;
    // The last closed interval not yet handed to the observer (merged with the
    // next one when equal); only used when there is an observer.
    bool pend_valid = false;
    StallReason pend_state = StallReason::NoInstruction;
    uint32_t pend_pc = 0;
    uint64_t pend_start = 0, pend_end = 0;

    // ---- identity and functional state
    WarpId id;
    uint32_t block_slot = 0;     // index of its block in the SM's block table
    uint32_t lslot = 0;          // slot within its sub-partition: id.slot / sub_partitions
    func::Block* fblock = nullptr;
    func::Warp* fwarp = nullptr;

    ReuseCache reuse{};
    Scoreboard* sb = nullptr;    // the SM keeps the scoreboards apart, so the
                                 // fields above stay in few cache lines
};

}  // namespace simt::timing
