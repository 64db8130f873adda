// runner.hpp: runs a whole launch functionally (no timing) through the SIMT
// executor: blocks one after another, the warps of a block round-robin one
// instruction at a time, holding warps at `bar` until every unfinished warp of
// the block arrived. Used by `simt-sim --functional`, by the tests, and as the
// golden result the timing model must reproduce.
#pragma once

#include "sim/functional/executor.hpp"

#include <functional>

namespace simt::func {

struct FunctionalResult {
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;            // sum over warp instructions of popcount(exec)
    std::vector<uint64_t> pc_warp_instructions;  // per pc
    std::vector<uint64_t> pc_thread_instructions;// per pc: executing lanes (guard held)
    std::vector<uint64_t> pc_active_lanes;       // per pc: active lanes (guard or not)
    uint64_t divergent_branches = 0;             // branches that split their active lanes
};

using WarpObserver = std::function<void(const Warp&, const DynInst&)>;

// Throws simt::Error on a runtime fault, an exhausted budget or a deadlock.
FunctionalResult run_functional(const isa::Program& program, GlobalMemory& memory, ExecLimits limits = {},
                                const WarpObserver* observer = nullptr);

}  // namespace simt::func
