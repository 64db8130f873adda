// test_timing_util.hpp: helpers shared by the tests/test_timing_*.cpp files.
//
// small_config(): a small machine written out in C++ (1 SM, 4 schedulers,
// round latencies) so that the expected cycle counts can be worked out by
// hand; run(): assemble a program, build its memory and run it; Recorder: an
// observer keeping every event for the assertions.
#pragma once

#include "isa/assembler.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/gpu.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace simt::timing::test {

inline GpuConfig small_config() {
    GpuConfig c;
    c.name = "test machine";
    c.clock_mhz = 1000;
    c.sm = {1, 4, 64, 32, 1024, 65536, 256, 255, 65536, 128, 0};
    c.scheduler = {SchedPolicy::Gto, 4};
    c.regfile = {false, 2, 1, true};
    c.pipes.fma = {1, 4};
    c.pipes.alu = {2, 4};
    c.pipes.sfu = {8, 20};
    c.pipes.fp64 = {4, 8};
    c.pipes.lsu = {1, 4};
    c.pipes.tex = {1, 4};
    c.pipes.branch = {1, 6};
    // imad and iadd share the ALU's datapath (bit 1: each class otherwise gets its own, bit = class)
    c.pipes.imad = {2, 4, 0, 1u << int(isa::Pipe::Alu)};
    c.pipes.iadd = {2, 4, 0, 1u << int(isa::Pipe::Alu)};
    c.pipes.uniform = {1, 2};
    c.pipes.int_div_instructions = 16;
    c.pipes.int_div_latency = 100;
    c.memory.sector_bytes = 32;
    c.memory.l1 = {16384, 4, 128, 30};
    c.memory.l2 = {1 << 20, 16, 128, 200};
    c.memory.shared_latency = 20;
    c.memory.shared_banks = 32;
    c.memory.const_latency = 10;
    c.memory.tex_latency = 50;
    c.memory.atomic_latency = 20;
    c.memory.dram_latency = 500;
    c.memory.dram_bandwidth_gbs = 64;  // 64 bytes per cycle at 1000 MHz
    c.memory.max_outstanding_per_sm = 64;
    c.memory.l1_sectors_per_cycle = 4;
    c.launch = {0, 0.0};
    c.max_warp_instructions = 100'000'000;
    return c;
}

// Everything the observer saw.
struct Recorder : Observer {
    std::vector<IssueEvent> issues;
    std::vector<StateInterval> intervals;
    std::map<uint64_t, uint64_t> dispatched, launched, retired;  // warp -> cycle
    std::vector<std::pair<uint64_t, uint64_t>> blocks_dispatched, blocks_retired;  // (cycle, block)
    bool finished = false;
    void on_block_dispatched(uint64_t c, uint64_t b, uint32_t) override { blocks_dispatched.push_back({c, b}); }
    void on_block_retired(uint64_t c, uint64_t b, uint32_t) override { blocks_retired.push_back({c, b}); }
    void on_warp_dispatched(uint64_t c, const WarpId& id) override { dispatched[id.warp] = c; }
    void on_warp_launched(uint64_t c, const WarpId& id) override { launched[id.warp] = c; }
    void on_warp_retired(uint64_t c, const WarpId& id) override { retired[id.warp] = c; }
    void on_interval(const StateInterval& iv) override { intervals.push_back(iv); }
    void on_issue(const IssueEvent& e) override { issues.push_back(e); }
    void on_finish(const Stats&) override { finished = true; }
    // Issue cycles of one warp at one pc, in order.
    std::vector<uint64_t> issue_cycles(uint64_t warp, uint32_t pc) const {
        std::vector<uint64_t> v;
        for (const auto& e : issues)
            if (e.id.warp == warp && e.pc == pc) v.push_back(e.cycle);
        return v;
    }
};

struct RunResult {
    isa::Program program;
    Stats stats;
    uint64_t visited = 0;
};

inline RunResult run(const std::string& source, const GpuConfig& config, RunOptions options = {}) {
    RunResult r;
    r.program = isa::assemble_text(source, "test.isa");
    func::GlobalMemory memory(r.program, ".");
    Simulator sim(config, r.program, memory, options);
    r.stats = sim.run();
    r.visited = sim.cycles_visited();
    return r;
}

// `n` copies of `line`, one per line.
inline std::string repeat(const std::string& line, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += line + "\n";
    return s;
}

}  // namespace simt::timing::test
