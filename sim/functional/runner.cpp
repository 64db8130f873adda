// runner.cpp: the functional launch loop (see runner.hpp).
#include "sim/functional/runner.hpp"

#include "sim/functional/fragment.hpp"

namespace simt::func {
namespace {

// One round: every warp that can run executes one instruction. Returns
// whether any warp ran.
bool round(Executor& ex, Block& block, FunctionalResult& r, DynInst& di, const WarpObserver* observer) {
    bool progress = false;
    for (Warp& w : block.warps) {
        if (w.done() || w.at_barrier) continue;
        ex.step(block, w, di);
        progress = true;
        ++r.warp_instructions;
        r.thread_instructions += lane_count(di.exec);
        ++r.pc_warp_instructions[di.pc];
        r.pc_thread_instructions[di.pc] += lane_count(di.exec);
        r.pc_active_lanes[di.pc] += lane_count(di.active);
        r.divergent_branches += di.diverged;
        if (observer) (*observer)(w, di);
    }
    return progress;
}

[[noreturn]] void deadlock(const isa::Program& p, const Block& block) {
    std::string state;
    for (const Warp& w : block.warps) {
        state += "\n  warp " + std::to_string(w.warp_in_block) + ": ";
        if (w.done()) state += "done";
        else state += "pc " + std::to_string(w.next_pc()) + (w.at_barrier ? " at barrier" : " runnable");
    }
    throw Error(SourceLoc{p.path, 0, 0}, "deadlock in block " + std::to_string(block.index) + ":" + state);
}

}  // namespace

FunctionalResult run_functional(const isa::Program& program, GlobalMemory& memory, ExecLimits limits,
                                const WarpObserver* observer) {
    Executor ex(program, memory, limits);
    FunctionalResult r;
    r.pc_warp_instructions.assign(program.code.size(), 0);
    r.pc_thread_instructions.assign(program.code.size(), 0);
    r.pc_active_lanes.assign(program.code.size(), 0);
    DynInst di;
    const uint64_t blocks = launch_blocks(program.launch);
    for (uint64_t b = 0; b < blocks; ++b) {
        std::unique_ptr<Block> block = ex.make_block(b);
        while (!block->done()) {
            const bool progress = round(ex, *block, r, di, observer);
            if (block->done()) break;
            if (block->barrier_ready()) { block->release_barrier(); continue; }
            if (!progress) deadlock(program, *block);
        }
    }
    return r;
}

}  // namespace simt::func
