// executor_step.hpp: Executor::step's body, inline where a caller runs it once per warp
// instruction (the timing model's issue, sim/timing/sm_issue.hpp) and in executor.cpp's
// step(): the dispatch on the instruction's kind, its lanes' work out of line.
#pragma once

#include "isa/limits.hpp"
#include "sim/functional/executor.hpp"
#include "sim/functional/semantics.hpp"

#include <cassert>

namespace simt::func {

[[gnu::always_inline]] inline void Executor::step_inline(Block& block, Warp& warp, DynInst& out, const StepEnv& env) {
    assert(!warp.done() && !warp.at_barrier);
    const uint32_t pc = warp.stack.back().pc;
    if (executed_ >= limits_.max_warp_instructions) budget_exhausted(pc);
    ++executed_;
    clock_ = env.timed ? env.clock : warp.issued;
    smid_ = env.smid;
    defer_ = env.defer;
    ++warp.issued;
    const Decoded& d = decoded_[pc];
    const LaneMask active = warp.stack.back().mask;
    const LaneMask exec = active & ((d.guard < isa::kNumPreds ? warp.preds[d.guard] : ~LaneMask(0)) ^ d.guard_xor);
    out.pc = pc;
    out.active = active;
    out.exec = exec;
    out.diverged = out.barrier = out.warp_exited = false;
    out.sleep_ns = 0;
    switch (sem::Kind(d.kind)) {
    case sem::Kind::Value:
        value_lanes(block, warp, d, exec);
        warp.stack.back().pc = pc + 1;
        break;
    case sem::Kind::Branch:
    case sem::Kind::Ret: branch(warp, d, pc, exec, out); break;
    case sem::Kind::Call:
        if (warp.stack.size() >= isa::kMaxSimtStack) call_too_deep(warp, pc);
        warp.stack.back().pc = pc + 1;
        if (exec != 0) warp.stack.push_back(SimtEntry{d.target, d.rpc, exec});
        break;
    case sem::Kind::Exit:
        warp.stack.back().pc = pc + 1;
        exit_lanes(warp, exec);
        break;
    case sem::Kind::Barrier:
        if (exec != warp.live) divergent_barrier(warp, pc, exec);
        warp.at_barrier = true;
        out.barrier = true;
        warp.stack.back().pc = pc + 1;
        break;
    default:
        execute_lanes(block, warp, d, pc, exec, out);
        warp.stack.back().pc = pc + 1;
        break;
    }
    // settle(), unless the top entry plainly has more to do (the common case).
    const SimtEntry& top = warp.stack.back();
    if (top.mask == 0 || top.pc == top.rpc || top.pc >= reconv_.kernel_exit_pc()) settle(warp);
    out.warp_exited = warp.done();
}

}  // namespace simt::func
