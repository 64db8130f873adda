// test_timing_run_ahead.cpp: an SM that ticks ahead of the others (sim/timing/run_ahead.hpp)
// gives the Stats, the memory and the errors of the SMs ticked in step, cycle by cycle, on one
// thread and on several (sim/timing/parallel/: each SM runs ahead on its worker).
// (Every trace of traces/ is compared too: test_timing_accounting.cpp, check_traces.)
#include "isa/assembler.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/gpu.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

namespace {

using namespace simt;

struct Outcome {
    timing::Stats stats;
    std::string memory;  // every buffer as CSV
    std::string error;   // what the run threw ("" if nothing)
};

Outcome run(const std::string& source, const GpuConfig& config, bool ahead, unsigned threads = 1,
            uint64_t* visited = nullptr) {
    const isa::Program program = isa::assemble_text(source, "test.isa");
    func::GlobalMemory memory(program, ".");
    timing::RunOptions options;
    options.run_ahead = ahead;
    options.threads = threads;
    timing::Simulator sim(config, program, memory, options);
    Outcome o;
    try {
        o.stats = sim.run();
    } catch (const Error& e) {
        o.error = e.what();
    }
    if (visited) *visited = sim.cycles_visited();
    std::ostringstream csv;
    memory.dump_csv(csv);
    o.memory = csv.str();
    return o;
}

// Block b runs 64 - 8 b iterations of math (local to its SM), then, with `fault`, reaches a
// barrier in divergent code (block 7 first, block 0 last), else stores (outward).
std::string kernel(bool fault, int iterations = 64) {
    return std::string(R"(
.kernel staggered
.grid 8
.block 64
.buffer out u32 512 zero
    mov    r0, %tid.x
    mov    r2, %ctaid.x
    shl    r1, r2, 3
    mov    r4, 1.5
loop:
    ffma   r4, r4, r4, r4
    fmul   r5, r4, r4
    iadd   r1, r1, 1
    isetp.lt p1, r1, )" + std::to_string(iterations) + R"(
    @p1 bra loop
)") + (fault ? "    isetp.lt p0, r0, 16\n    @p0 bar\n" : "") +
           "    imad   r3, r2, 64, r0\n    st.global [out + r3*4], r5\n    exit\n";
}

}  // namespace

TEST_CASE("run ahead: the Stats and memory of the SMs ticked in step", "[timing][run_ahead]") {
    const GpuConfig rtx = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/rtx4060.yaml");
    const Outcome step = run(kernel(false), rtx, false);
    REQUIRE(step.error.empty());
    const Outcome ahead = run(kernel(false), rtx, true);
    CHECK(ahead.error.empty());
    CHECK(ahead.stats == step.stats);
    CHECK(ahead.memory == step.memory);
}

TEST_CASE("run ahead: the earliest fault in (cycle, SM) order ends the run, as in step", "[timing][run_ahead]") {
    const GpuConfig rtx = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/rtx4060.yaml");
    const Outcome step = run(kernel(true), rtx, false);
    CHECK(step.error.find("barrier in divergent code") != std::string::npos);
    CHECK(step.error.find("of block 7") != std::string::npos);
    CHECK(run(kernel(true), rtx, true).error == step.error);
}

TEST_CASE("run ahead on several threads: one thread's Stats, memory and first fault", "[timing][run_ahead][parallel]") {
    const GpuConfig rtx = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/rtx4060.yaml");
    const Outcome step = run(kernel(false), rtx, false);
    REQUIRE(step.error.empty());
    uint64_t in_step = 0, ahead = 0;
    run(kernel(false), rtx, false, 2, &in_step);
    for (unsigned n : {2u, 3u, 7u}) {
        INFO("threads " << n);
        const Outcome many = run(kernel(false), rtx, true, n, &ahead);
        CHECK(many.error.empty());
        CHECK(many.stats == step.stats);
        CHECK(many.memory == step.memory);
        CHECK(ahead < in_step);  // the SMs did run ahead: the top loop visited fewer cycles
        CHECK(run(kernel(true), rtx, true, n).error == run(kernel(true), rtx, false).error);
    }
}

TEST_CASE("run ahead on several threads: the instruction budget's error at the serial run's step", "[timing][run_ahead][parallel]") {
    GpuConfig rtx = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/rtx4060.yaml");
    rtx.sm.count = 4;  // a run-ahead margin (2 x 4 SMs x 4 x 4097) below the run's instructions
    const std::string long_loops = kernel(false, 20000);
    const Outcome all = run(long_loops, rtx, false);
    REQUIRE(all.error.empty());
    REQUIRE(all.stats.warp_instructions > 4 * 2 * 4 * 4097);
    // Crossed after the SMs ran ahead (far from it), and where only the cycle's own ticks are left.
    for (uint64_t budget : {all.stats.warp_instructions / 2, all.stats.warp_instructions - 1}) {
        INFO("budget " << budget);
        rtx.max_warp_instructions = budget;
        const Outcome serial = run(long_loops, rtx, false);
        CHECK(serial.error.find("instruction budget") != std::string::npos);
        CHECK(run(long_loops, rtx, true).error == serial.error);
        CHECK(run(long_loops, rtx, true, 2).error == serial.error);
        CHECK(run(long_loops, rtx, true, 3).error == serial.error);
    }
}
