// context.hpp: what every unit of one run shares: the specs (read only), the
// functional executor, the L2, the counters and the GPU-wide event flags.
// It is owned by the Gpu (gpu.cpp); nothing in it is global.
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/executor.hpp"
#include "sim/timing/accounting.hpp"
#include "sim/timing/decode.hpp"
#include "sim/timing/memory/carveout.hpp"
#include "sim/timing/memory/coalescer.hpp"
#include "sim/timing/memory/l2.hpp"
#include "sim/timing/observer.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/pipes.hpp"
#include "sim/timing/regfile.hpp"
#include "sim/timing/stats.hpp"

#include <algorithm>
#include <vector>

namespace simt::timing {

// What issuing one instruction costs, from its decode and the config (fixed for the run).
struct IssueCost {
    uint32_t slots = 1;    // scheduler issue slots (an emulated division: int_div_instructions)
    uint32_t busy = 1;     // cycles its pipe is occupied
    uint32_t latency = 1;  // its result is ready `latency` cycles after issue (not memory accesses)
    uint32_t handoff = 0;  // extra cycles before it can read a register another pipe produced
    uint32_t dividend_latency = 0;  // an emulated division: from issue when the divisor was ready
                                    // `latency - dividend_latency` cycles earlier (0: latency)
    bool plain = true;     // no memory access, no SM unit (L1TEX, MIO), no division: Sm::issue's short path
    bool outward = false;  // a memory access or an SM unit: what other SMs may see (run_ahead.hpp)
};

// A 64-bit product (IMAD.WIDE's low word, IMAD.HI's high word) takes pipes.imad_wide_passes passes
// through the imad pipe and its own latency (calib/kernels/latency.cu, throughput.cu on an H100:
// IMAD.HI 9 cycles at a quarter of FFMA's rate, IMAD.WIDE's low word 8; IMAD 4 at half the rate).
inline void wide_multiply(isa::Op op, const GpuConfig::Pipes& cfg, IssueCost& c) {
    using isa::Op;
    const bool hi = op == Op::ImadHi || op == Op::ImadHiU || op == Op::ImulHi || op == Op::ImulHiU;
    const bool wide = op == Op::ImadWide || op == Op::ImadWideU;
    if (!hi && !wide) return;
    c.busy *= std::max(cfg.imad_wide_passes, 1u);
    const uint32_t lat = hi ? cfg.imad_hi_latency : cfg.imad_wide_latency;
    if (lat) c.latency = lat;
}

inline std::vector<IssueCost> issue_costs(const std::vector<DecodedInst>& code, const isa::Program& program,
                                          const PipeSpecs& pipes, const GpuConfig::Pipes& cfg) {
    std::vector<IssueCost> v;
    v.reserve(code.size());
    for (size_t pc = 0; pc < code.size(); ++pc) {
        const DecodedInst& d = code[pc];
        const PipeSpec& pipe = pipes[int(d.pipe)];
        IssueCost c;
        c.busy = std::max(pipe.interval, 1u);
        // (an emulated division's latency, measured as a chain of divisions, already has its handoffs)
        c.handoff = d.lat == isa::Lat::Emul ? 0 : pipe.handoff;
        switch (d.lat) {
            case isa::Lat::Fixed: case isa::Lat::Mio:
                c.latency = reads_s2r(program.code[pc]) ? cfg.s2r_latency : pipe.latency;
                wide_multiply(d.op, cfg, c);
                break;
            case isa::Lat::Emul:  // its MUFU-class instructions (I2F, RCP, F2I) occupy its pipe (the SFU)
                c.slots = std::max(cfg.int_div_instructions, 1u);
                c.busy = c.busy * std::max(cfg.int_div_mufu_instructions, 1u);
                c.latency = cfg.int_div_latency;
                c.dividend_latency = d.divisor == kNoReg ? 0 : cfg.int_div_dividend_latency;
                break;
            case isa::Lat::L1tex: case isa::Lat::L2: case isa::Lat::Ctrl: break;
        }
        c.outward = d.mem != MemKind::None || d.unit == Unit::L1tex || d.unit == Unit::Mio;
        c.plain = c.dividend_latency == 0 && !c.outward;
        v.push_back(c);
    }
    return v;
}

// Element pc: how many instructions before pc write a uniform register (size code + 1), so that a
// range of the code's uniform writes is a difference (Sm::sides_keep_uniforms).
inline std::vector<uint32_t> uniform_writes_before(const isa::Program& program) {
    std::vector<uint32_t> v(program.code.size() + 1, 0);
    for (size_t pc = 0; pc < program.code.size(); ++pc) {
        const isa::RegUse& r = program.code[pc].regs;
        bool writes = false;
        for (int i = 0; i < r.ndst; ++i) writes |= r.dst[i] >= isa::kURegBase;
        v[pc + 1] = v[pc] + (writes ? 1 : 0);
    }
    return v;
}

// Bit c: the program has an instruction of pipe class c.
inline uint32_t used_classes(const std::vector<DecodedInst>& code) {
    uint32_t m = 0;
    for (const DecodedInst& d : code) m |= 1u << int(d.pipe);
    return m;
}

struct Context {
    Context(const GpuConfig& config, const isa::Program& program, func::GlobalMemory& memory,
            Stats& stats, Observer* observer)
        : cfg(config),
          prog(program),
          code(decode_program(program)),
          pipes(pipe_specs(config.pipes)),
          datapaths(pipes, used_classes(code)),
          cost(issue_costs(code, program, pipes, config.pipes)),
          uniform_writes(uniform_writes_before(program)),
          footprint(block_footprint(config, program)),
          l1(l1_spec(config, compute_occupancy(config, program), program.shared_bytes, program.threads_per_block())),
          mem(memory),
          exec_memory(memory),
          exec(program, memory, limits(config)),
          stats(stats),
          observer(observer),
          log(stats, observer),
          l2(config, stats.memory),
          banks(code, config.regfile) {
        stats.memory.l1_bytes = l1.size_bytes;
        stats.memory.shared_carveout_bytes =
            config.memory.carveout.unified_bytes ? config.memory.carveout.unified_bytes - l1.size_bytes : 0;
    }

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
    const DatapathMap datapaths;     // which datapaths run each pipe class
    const std::vector<IssueCost> cost;  // per pc
    const std::vector<uint32_t> uniform_writes;  // uniform_writes_before(program)
    const BlockFootprint footprint;
    const CacheSpec l1;                 // the kernel's L1 after its shared-memory carve-out
    const func::GlobalMemory& mem;      // buffer bases (texture layout)
    func::GlobalMemory& exec_memory;    // what the executors read and write

    // ---- shared units and counters
    func::Executor exec;
    Stats& stats;
    Observer* observer;
    StateLog log;
    L2 l2;
    BankModel banks;                 // register-bank cost per (previous pc, pc)

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
