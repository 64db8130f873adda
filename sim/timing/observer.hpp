// observer.hpp: the typed event stream of a timed run.
//
// The timeline CSV writer, the viewer and tests subscribe here instead of
// reading the model's internals. Events arrive in simulation order
// (non-decreasing cycle for dispatch/issue/retire; a state interval is
// delivered when the model closes it, so intervals of different warps
// interleave, and an interval's delivery is not ordered against the issue
// events of other warps: a stage the model already knows may close before
// its end cycle is simulated, a wait for a pipe only when it is settled).
// When RunOptions::observer is null nothing is built or called.
//
// Contract:
//   * Every resident cycle of every warp is covered by exactly one interval:
//     for each warp, its intervals are delivered in order, contiguous, from
//     its dispatch cycle to its retire cycle (on_warp_retired's cycle).
//   * Consecutive intervals of one warp differ in state or pc (run-length encoded).
//   * An interval's pc is the instruction the warp is trying to issue, except
//     barrier (the `bar`) and drain (the `exit`).
#pragma once

#include "sim/timing/stats.hpp"

#include <cstdint>

namespace simt::timing {

// Where a warp lives.
struct WarpId {
    uint64_t warp = 0;           // global warp id: block * warps_per_block + warp_in_block
    uint64_t block = 0;          // linear block index
    uint32_t sm = 0;
    uint32_t sub_partition = 0;  // scheduler within the SM
    uint32_t slot = 0;           // warp slot within the SM
};

struct StateInterval {
    WarpId id;
    uint64_t start = 0;          // [start, end) in cycles
    uint64_t end = 0;
    StallReason state = StallReason::Selected;
    uint32_t pc = 0;
};

struct IssueEvent {
    WarpId id;
    uint64_t cycle = 0;          // the cycle the instruction issued (state selected)
    uint32_t pc = 0;
    uint32_t active = 0;         // lanes of the SIMT-stack top
    uint32_t exec = 0;           // active lanes whose guard held
    isa::Pipe pipe = isa::Pipe::Alu;
    uint64_t complete = 0;       // cycle its result is ready (memory: the last sector)
};

class Observer {
public:
    virtual ~Observer() = default;
    virtual void on_block_dispatched(uint64_t /*cycle*/, uint64_t /*block*/, uint32_t /*sm*/) {}
    virtual void on_block_retired(uint64_t /*cycle*/, uint64_t /*block*/, uint32_t /*sm*/) {}
    virtual void on_warp_dispatched(uint64_t /*cycle*/, const WarpId&) {}  // its slot is taken
    virtual void on_warp_launched(uint64_t /*cycle*/, const WarpId&) {}    // its states start
    virtual void on_warp_retired(uint64_t /*cycle*/, const WarpId&) {}  // its slot is free from `cycle`
    virtual void on_interval(const StateInterval&) {}
    virtual void on_issue(const IssueEvent&) {}
    virtual void on_finish(const Stats&) {}                          // after the run, with the final stats
};

}  // namespace simt::timing
