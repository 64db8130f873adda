// context.hpp: what every unit of one run shares: the specs (read only), the
// functional executor, the L2, the counters and the GPU-wide event flags.
// It is owned by the Gpu (gpu.cpp); nothing in it is global.
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/executor.hpp"
#include "sim/timing/accounting.hpp"
#include "sim/timing/decode.hpp"
#include "sim/timing/memory/coalescer.hpp"
#include "sim/timing/memory/l2.hpp"
#include "sim/timing/observer.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/pipes.hpp"
#include "sim/timing/stats.hpp"

#include <vector>

namespace simt::timing {

struct Context {
    Context(const GpuConfig& config, const isa::Program& program, func::GlobalMemory& memory,
            Stats& stats, Observer* observer)
        : cfg(config),
          prog(program),
          code(decode_program(program)),
          pipes(pipe_specs(config.pipes)),
          footprint(block_footprint(config, program)),
          exec(program, memory, limits(config)),
          stats(stats),
          observer(observer),
          log(stats, observer),
          l2(config, stats.memory) {}

    static func::ExecLimits limits(const GpuConfig& c) {
        func::ExecLimits l;
        if (c.max_warp_instructions) l.max_warp_instructions = c.max_warp_instructions;
        return l;
    }

    // ---- specs
    const GpuConfig& cfg;
    const isa::Program& prog;
    const std::vector<DecodedInst> code;
    const PipeSpecs pipes;
    const BlockFootprint footprint;

    // ---- shared units and counters
    func::Executor exec;
    Stats& stats;
    Observer* observer;
    StateLog log;
    L2 l2;

    // ---- GPU-wide events raised by SMs
    uint64_t done_blocks = 0;
    bool dispatch_pending = false;   // a block retired: try to dispatch next cycle
    uint64_t last_retire = 0;        // cycle the latest warp left
    uint64_t next_age = 0;           // dispatch sequence of warps

    // ---- scratch, reused for every instruction (no allocation on the hot path)
    func::DynInst dyn;
    SectorList sectors;
};

}  // namespace simt::timing
