// pipes.hpp: the execution pipes of one sub-partition.
//
// Each pipe class (fma, alu, sfu, fp64, lsu, tex, branch, imad, iadd, uniform) accepts
// one warp instruction every `interval` cycles on each of its datapaths (its
// initiation interval: 32 lanes / lanes per sub-partition; datapaths.hpp);
// `free_at` is the first cycle it accepts the next.
// Fixed-latency pipes (fma, alu, fp64) make their result ready `latency`
// cycles after issue, so a dependent instruction issues exactly `latency`
// cycles later. sfu.latency is the SFU's scoreboard release; branch.latency
// is the issue-to-issue distance after a taken or divergent branch.
// lsu.latency and tex.latency are not used: memory latencies come from
// GpuConfig::memory (see sim/timing/memory/).
// PipeWindows: the busy windows of each pipe, for the lazy accounting of
// warps that wait only for their pipe (see accounting.hpp).
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"
#include "sim/timing/datapaths.hpp"

#include <algorithm>
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
    s[int(isa::Pipe::Imad)] = p.imad;
    s[int(isa::Pipe::Iadd)] = p.iadd;
    s[int(isa::Pipe::Uniform)] = p.uniform;
    return s;
}

// Each pipe's busy windows as a warp waiting for it sees them: an issue
// picked at t that makes the pipe free at f > t + 1 throttles its waiting
// warps in [t + 1, f). Windows never overlap (an issue needs a free pipe);
// only the latest is kept, with the busy cycles of all earlier ones.
struct PipeWindows {
    struct Window {
        uint64_t start = 0, end = 0;  // the latest window [start, end)
        uint64_t before = 0;          // busy cycles of all earlier windows
    };
    std::array<Window, isa::kNumPipes> pipe{};
    // Busy cycles of pipe p before cycle t (t >= the end of every window but the latest).
    uint64_t busy_before(int p, uint64_t t) const {
        const Window& w = pipe[p];
        return w.before + (t <= w.start ? 0 : std::min(t, w.end) - w.start);
    }
    void open(int p, uint64_t from, uint64_t until) {
        Window& w = pipe[p];
        w.before += w.end - w.start;
        w.start = from;
        w.end = until;
    }
};

}  // namespace simt::timing
