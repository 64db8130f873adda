// reference.hpp: an independent per-thread scalar interpreter, the oracle the
// SIMT executor is tested against.
//
// No SIMT stack and no reconvergence analysis: each thread has its own pc and
// its own call stack (`ret` with an empty call stack finishes the thread).
// The threads of a block run one at a time, each until it reaches a barrier,
// exits, or reaches a warp-collective instruction (shfl.*, vote.*). When no
// thread can run:
//   * in each warp, the threads waiting at a collective with the lowest pc
//     execute it together (threads whose guard is false take part as inactive
//     lanes); lowest pc first approximates post-dominator reconvergence for
//     structured code, where code after a reconvergence point has higher pcs;
//   * otherwise every live thread of the block waits at a barrier, and all are
//     released.
// Instruction semantics come from semantics.hpp, shared with the executor.
// Each thread keeps its own copy of the warp's uniform registers, and %clock
// reads the thread's count of instructions passed (guarded off included):
// both equal the executor's in converged code, where compilers put them.
// Blocks run one after another. Programs with data races between threads
// (other than commutative atomics whose results are not used) may legitimately
// give results different from the SIMT executor's.
#pragma once

#include "isa/isa.hpp"
#include "sim/functional/memory.hpp"

#include <cstdint>
#include <vector>

namespace simt::func {

struct ReferenceLimits {
    uint64_t max_thread_instructions = 64'000'000'000ull;
};

struct ReferenceResult {
    uint64_t thread_instructions = 0;             // instructions whose guard held
    std::vector<uint64_t> pc_thread_instructions; // per pc, guard held
    std::vector<uint64_t> pc_active_lanes;        // per pc, guard or not
};

// Runs the whole launch on `memory` (which ends as the final global memory).
// Throws simt::Error on a runtime fault or an exhausted budget.
ReferenceResult run_reference(const isa::Program& program, GlobalMemory& memory, ReferenceLimits limits = {});

}  // namespace simt::func
