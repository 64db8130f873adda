// warp.hpp: the timing state of one resident warp (its functional state is
// the func::Warp it points to).
//
// A warp is either a *candidate* (nothing but a pipe, a unit or the
// scheduler's choice keeps it from issuing) or *blocked* until `wake`, the
// next cycle its state can change (launch, branch resolution, a register
// becoming ready, the end of a barrier or of the drain). Blocked warps cost
// nothing per cycle, and neither do candidates that wait only for their
// math or branch pipe (`waiting`: their state is settled lazily, see
// accounting.hpp); candidates for the SM's L1TEX or MIO unit are evaluated
// every cycle their scheduler ticks.
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
// Lanes in two masks at once: a -> high word, b -> low word of the result.
inline void lane_counts(uint32_t a, uint32_t b, uint32_t& na, uint32_t& nb) {
    if ((a & b) == 0xffffffffu) {  // the common case: a full warp
        na = nb = 32;
        return;
    }
    uint64_t m = uint64_t(a) << 32 | b;
    m = m - ((m >> 1) & 0x5555555555555555ull);
    m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    m += m >> 8;
    m += m >> 16;
    na = uint32_t(m >> 32) & 0x3f;
    nb = uint32_t(m) & 0x3f;
}

// Fields in the order the hot path uses them: the first two cache lines hold
// everything a tick and an issue touch; identity and observer state come last.
struct alignas(64) TWarp {
    // ---- scheduling
    bool resident = false;
    bool candidate = false;
    bool at_barrier = false;
    bool draining = false;
    // Waiting only for pipe wait_pipe since state_since (StateLog::begin_wait);
    // wait_busy: that pipe's busy cycles before state_since.
    bool waiting = false;
    uint8_t wait_pipe = 0;
    StallReason wait_throttle = StallReason::MathPipeThrottle;
    StallReason operand_why = StallReason::Wait;
    uint32_t pc = 0;             // next instruction (the exit's pc once draining)
    uint32_t hold_pc = 0;        // pc reported for barrier / drain intervals
    uint64_t wake = 0;           // blocked: cycle of the next re-evaluation
    uint64_t launch_ready = 0;   // block launch: no_instruction until then
    uint64_t branch_ready = 0;   // branch_resolving until then
    uint64_t sleep_until = 0;    // nanosleep: sleeping until then
    uint64_t operand_ready = 0;  // scoreboard: operand_why until then
    uint64_t staged_until = 0;   // the latest of the three above (Sm::reevaluate's one test for them)
    uint64_t mem_done = 0;       // completion of its latest memory request
    uint32_t held_stores = 0;    // its stores held in the LSU queue, completion not yet known (l1.hpp)
    bool outward = false;        // draining, or its next instruction is IssueCost::outward (Sm::note_outward)
    uint64_t fixed_done = 0;     // latest result of its fixed-latency instructions (stall_counts.hpp)
    uint64_t last_issue = 0;     // cycle of the last issue + 1 (0 = never)

    // ---- state accounting
    StallReason state = StallReason::NoInstruction;
    uint32_t state_pc = 0;
    uint64_t state_since = 0;
    uint64_t wait_busy = 0;

    // ---- functional state, registers
    func::Block* fblock = nullptr;
    func::Warp* fwarp = nullptr;
    Scoreboard* sb = nullptr;    // the SM keeps the scoreboards apart, so the
                                 // fields above stay in few cache lines
    uint32_t reuse_pc = kNoPc;   // its previous instruction: what its operand reuse cache holds
    uint32_t block_slot = 0;     // index of its block in the SM's block table
    uint32_t lslot = 0;          // slot within its sub-partition: id.slot / sub_partitions

    // ---- identity
    uint64_t age = 0;            // dispatch sequence number (policies)
    uint64_t sass_until = 0;     // an imported instruction's stall count holds the next until then (rare:
                                 // pipes.sass_stall_counts)
    WarpId id;
    // The last closed interval not yet handed to the observer (merged with the
    // next one when equal); only used when there is an observer.
    bool pend_valid = false;
    StallReason pend_state = StallReason::NoInstruction;
    uint32_t pend_pc = 0;
    uint64_t pend_start = 0, pend_end = 0;
};

}  // namespace simt::timing
