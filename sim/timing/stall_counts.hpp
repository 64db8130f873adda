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
// With pipes.sass_stall_counts (off by default) an imported SASS instruction's
// own stall count (bits 41..44 of its control word, isa::Instruction::sass_ctrl;
// Jia et al., "Dissecting the NVIDIA Turing T4 GPU via Microbenchmarking",
// arXiv 1903.07486, and Huerta et al. 2025 above) holds the warp: its next
// instruction issues no earlier than stall cycles after it (state `wait`). A
// SASS instruction lowered to several trace instructions counts its stall
// once, after the last of them (DecodedInst::sass_stall).
//
// Left out: the yield bit, the dependence counters of variable-latency results
// (the scoreboard's short/long_scoreboard already plays their part), stall
// counts of hand-written traces (they have none).
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

// w issued an instruction at cycle t and moved on: with its SASS stall count S the warp's next
// instruction waits until w.sass_until = t + S (a stall count of 1 is the next cycle: no constraint).
inline void sass_stall_count(TWarp& w) {
    const uint64_t until = w.sass_until;
    if (until <= w.operand_ready) return;
    w.operand_ready = until;
    w.operand_why = StallReason::Wait;
}

}  // namespace simt::timing
