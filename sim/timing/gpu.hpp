// gpu.hpp: the public face of the timing model: run one kernel on one GPU.
//
// Execution-driven: at issue, each warp instruction is executed by the
// functional executor (sim/functional/executor.hpp), which yields its active
// lanes and memory addresses; the timing model decides *when* it issues and
// when its results are ready. One Simulator runs one launch; it holds no global
// state, so several can run in one process.
//
// Typical use:
//     simt::func::GlobalMemory mem(program, trace_dir);
//     simt::timing::Simulator sim(config, program, mem, {});
//     simt::timing::Stats stats = sim.run();
//
// Errors (simt::Error): a launch that can never fit on an SM (located at the
// program's .launch), resident blocks holding more than isa::kMaxResidentBytes,
// a deadlock (every unit's state is described), the cycle budget
// (GpuConfig::max_cycles), a functional fault or the instruction budget (from
// the executor).
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/observer.hpp"
#include "sim/timing/occupancy.hpp"  // compute_occupancy(config, program) without running
#include "sim/timing/stats.hpp"

#include <cstdint>
#include <functional>
#include <memory>

namespace simt::timing {

struct RunOptions {
    // Jump over cycles in which no scheduler can issue. false steps every
    // cycle and evaluates every scheduler; the Stats are identical either way.
    bool event_skipping = true;
    Observer* observer = nullptr;  // not owned; may be null
    // Called now and then (every few thousand simulated cycles) and once at the end.
    std::function<void(uint64_t cycle, uint64_t done_blocks, uint64_t total_blocks)> progress;
    // Host threads that tick the SMs (sim/timing/parallel/): every count gives
    // the same Stats, bit for bit. With an observer the run uses one thread
    // (its events come in the serial order). At most one thread per SM is used.
    unsigned threads = 1;
    // Untimed launches of the same kernel before the timed one, as a benchmark's warm-up: the
    // timed launch finds the L2 as the last of them left it (its lines, dirty ones too; the L1s
    // start empty, as a GPU invalidates them at each launch) and the global memory they wrote.
    // The Stats and the observer describe the timed launch alone (progress is reported for each).
    uint32_t warm_launches = 0;
    // On one thread with event skipping, an SM whose ticks touch nothing the others see
    // ticks ahead of them (sim/timing/run_ahead.hpp); the Stats are identical either way.
    bool run_ahead = true;
};

// The largest RunOptions::warm_launches accepted (--warm).
constexpr uint32_t kMaxWarmLaunches = 16;

// The --threads default: the host's cores for a large launch (at least two
// blocks per SM on a GPU of at least kManySms SMs), 1 otherwise, where a
// cycle's work (tens of microseconds per 100 SMs) is too small to share.
constexpr uint32_t kManySms = 32;
unsigned default_threads(const GpuConfig& config, const isa::Program& program);
// The largest --threads accepted.
constexpr unsigned kMaxThreads = 256;

class Gpu;  // the model (sim/timing/gpu_model.hpp)

class Simulator {
public:
    // Checks that one block fits an SM (throws simt::Error otherwise). The
    // references must outlive the Simulator.
    Simulator(const GpuConfig& config, const isa::Program& program, func::GlobalMemory& memory,
              RunOptions options = {});
    ~Simulator();
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    // Runs the launch to completion and returns what was measured. Call once.
    Stats run();

    // Cycles the top loop visited (< Stats::cycles when event skipping jumped);
    // for the benchmark, not part of Stats.
    uint64_t cycles_visited() const;

private:
    const GpuConfig& config_;
    const isa::Program& program_;
    func::GlobalMemory& memory_;
    RunOptions options_;
    std::unique_ptr<Gpu> gpu_;
};

}  // namespace simt::timing
