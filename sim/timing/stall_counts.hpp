// stall_counts.hpp: the compiler's stall counts at branches.
//
// Huerta et al. (arXiv 2503.20481) find that NVIDIA cores since Volta resolve
// fixed-latency dependences with stall counts the compiler writes into each
// instruction, not with a scoreboard. Within a basic block that is what the
// model's per-register ready times give. Across a branch the compiler does not
// know which instruction comes next (a loop's back edge, the two sides of a
// divergent branch, the reconvergence point), so it makes the branch wait
// until every fixed-latency result of the warp still in flight is written.
// With pipes.branch_waits_fixed a branch-pipe instruction (bra, call, ret,
// bar, exit) issues no earlier than the warp's latest fixed-latency result
// (state `wait`, as ncu counts a stall count).
//
// Left out: stall counts inside a basic block beyond true dependences, the
// yield bit, the dependence counters of variable-latency results (the
// scoreboard's short/long_scoreboard already plays their part).
#pragma once

#include "sim/timing/decode.hpp"
#include "sim/timing/warp.hpp"

namespace simt::timing {

// w's next instruction is `next`, its operands ready at w.operand_ready:
// a branch also waits for the warp's fixed-latency results in flight.
inline void branch_stall_count(TWarp& w, const DecodedInst& next) {
    if (next.pipe != isa::Pipe::Branch || w.fixed_done <= w.operand_ready) return;
    w.operand_ready = w.fixed_done;
    w.operand_why = StallReason::Wait;
}

}  // namespace simt::timing
