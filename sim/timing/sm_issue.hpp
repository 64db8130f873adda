// sm_issue.hpp: the hot path of one issue (Sm::issue and what it calls for every
// instruction), inline in the scheduler's tick (sub_partition.cpp), where it runs
// once per warp instruction: no call frame of its own. Included by sm.cpp and
// sub_partition.cpp only; the rest of Sm is in sm.cpp.
#pragma once

#include "sim/functional/executor_step.hpp"
#include "sim/timing/sm.hpp"
#include "sim/timing/stall_counts.hpp"

#include <algorithm>

namespace simt::timing {

// A warp is outward while it drains (its retirement reaches the Gpu) or while its next
// instruction accesses memory or an SM unit (run_ahead.hpp).
[[gnu::always_inline]] inline void Sm::note_outward(TWarp& w) {
    const bool out = w.resident && (w.draining || cost_[w.pc].outward);
    if (out == w.outward) return;
    w.outward = out;
    outward_warps_ = out ? outward_warps_ + 1 : outward_warps_ - 1;
    sps_[w.id.sub_partition]->mark_outward(w.lslot, out);
}

// Next pc, branches, barrier and exit after w issued the instruction at pc.
[[gnu::always_inline]] inline void Sm::after_control(TWarp& w, const func::DynInst& dyn, uint32_t pc, uint64_t t) {
    if (dyn.warp_exited) {  // (w.fwarp->done() after the step)
        w.draining = true;
        w.hold_pc = pc;
        note_outward(w);
        release_barrier_if_ready(blocks_[w.block_slot], t);  // the others may all be waiting for this one
        return;
    }
    // Independent thread scheduling: a diverged warp's two sides alternate at each yielding
    // instruction (the NVIDIA Volta whitepaper: statements of the if and else branches "can be
    // interleaved in time"), as the scheduler alternates warps there (scheduler/cgy.cpp).
    const bool switched = interleave_paths_ && code_[pc].yields && !dyn.diverged && sides_keep_uniforms(w) &&
                          w.fwarp->switch_path();
    uint32_t next = w.fwarp->next_pc();
    if ((next != pc + 1 && !switched) || dyn.diverged) {
        w.branch_ready = t + ctx_.cfg.pipes.branch.latency;
        w.staged_until = std::max(w.staged_until, w.branch_ready);
    }
    if (dyn.sleep_ns) {
        w.sleep_until = t + sleep_cycles(dyn.sleep_ns);
        w.staged_until = std::max(w.staged_until, w.sleep_until);
    }
    w.pc = next;
    note_outward(w);
    if (sass_stall_counts_) w.sass_until = t + code_[pc].sass_stall;
    if (!issue_pending(w)) settle_operands(w);  // (else once its request completes, end_cycle)
    if (dyn.barrier) {
        w.at_barrier = true;
        w.hold_pc = pc;
        release_barrier_if_ready(blocks_[w.block_slot], t);
    }
}

[[gnu::always_inline]] inline void Sm::settle_operands(TWarp& w) {
    w.operand_ready = w.sb->ready_for(code_[w.pc], w.operand_why, cost_[w.pc].handoff);
    if (branch_waits_fixed_) branch_stall_count(w, code_[w.pc]);
    if (sass_stall_counts_) sass_stall_count(w);
}

// Executes and times w's next instruction (sm.hpp).
[[gnu::always_inline]] inline uint32_t Sm::issue(TWarp& w, uint64_t t, SubPartition& sp, uint32_t operand_delay) {
    const uint32_t pc = w.pc;
    const DecodedInst& d = code_[pc];
    const IssueCost& c = cost_[pc];
    func::DynInst& dyn = *share_.dyn;
    Outbox* const out = share_.outbox;
    if (out) out->steps.push_back(pc);
    share_.exec->step_inline(*w.fblock, *w.fwarp, dyn, func::StepEnv{true, t, index_, out ? &out->accesses : nullptr});
    if (d.fold) [[unlikely]] step_folded(w, d, pc, t);  // the rest of one imported SASS instruction

    // Counted per pc (the totals, pipe and issue-slot counts follow from these
    // at the end, Gpu::finish) and per SM.
    uint32_t active, exec;
    lane_counts(dyn.active, dyn.exec, active, exec);
    PcStats& ps = share_.stats->per_pc[pc];
    ++ps.issued;
    ps.thread_instructions += active;
    ps.thread_instructions_pred_on += exec;
    ++issued_;

    // Result time and pipe occupancy.
    uint64_t done = t + c.latency + operand_delay;
    if (!c.plain) done = unit_issue(w, d, c, dyn, t, sp, operand_delay);
    sp.pipes.take(ctx_.datapaths, int(d.pipe), t, c.busy);
    if (done != kPendingDone && done != kHeldDone)
        for (int i = 0; i < d.ndst; ++i) w.sb->set(d.dst[i], done, d.produces, d.pipe);
    if (branch_waits_fixed_ && d.lat == isa::Lat::Fixed && d.ndst) w.fixed_done = std::max(w.fixed_done, done);  // (stall_counts.hpp)

    share_.log->set(w, StallReason::Selected, pc, t);
    w.candidate = false;
    w.wake = t + c.slots;
    w.last_issue = t + 1;
    after_control(w, dyn, pc + d.fold, t);
    if (ctx_.observer) ctx_.observer->on_issue(IssueEvent{w.id, t, pc, dyn.active, dyn.exec, d.pipe, done});
    return c.slots;
}

}  // namespace simt::timing
