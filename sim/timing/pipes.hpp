// pipes.hpp: the execution pipes of one sub-partition.
//
// Each pipe (fma, alu, sfu, fp64, lsu, tex, branch) accepts one warp
// instruction every `interval` cycles (its initiation interval: 32 lanes /
// lanes per sub-partition); `free_at` is the first cycle it accepts the next.
// Fixed-latency pipes (fma, alu, fp64) make their result ready `latency`
// cycles after issue, so a dependent instruction issues exactly `latency`
// cycles later. sfu.latency is the SFU's scoreboard release; branch.latency
// is the issue-to-issue distance after a taken or divergent branch.
// lsu.latency and tex.latency are not used: memory latencies come from
// GpuConfig::memory (see sim/timing/memory/).
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"

#include <array>
#include <cstdint>

namespace simt::timing {

using PipeSpecs = std::array<PipeSpec, isa::kNumPipes>;

inline PipeSpecs pipe_specs(const GpuConfig::Pipes& p) {
    PipeSpecs s{};
    s[int(isa::Pipe::Fma)] = p.fma;
    s[int(isa::Pipe::Alu)] = p.alu;
    s[int(isa::Pipe::Sfu)] = p.sfu;
    s[int(isa::Pipe::Fp64)] = p.fp64;
    s[int(isa::Pipe::Lsu)] = p.lsu;
    s[int(isa::Pipe::Tex)] = p.tex;
    s[int(isa::Pipe::Branch)] = p.branch;
    return s;
}

struct PipeState {
    std::array<uint64_t, isa::kNumPipes> free_at{};
};

}  // namespace simt::timing
