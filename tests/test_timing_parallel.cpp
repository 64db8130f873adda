// test_timing_parallel.cpp: --threads N (sim/timing/parallel/) gives the same
// Stats and the same memory as one thread, bit for bit, also where blocks race:
// atomics whose old values depend on their order, loads of what another block
// stores in the same cycle, %clock and %smid stored to memory.
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
};

Outcome run(const std::string& source, const GpuConfig& config, unsigned threads, bool skip = true) {
    const isa::Program program = isa::assemble_text(source, "test.isa");
    func::GlobalMemory memory(program, ".");
    timing::RunOptions options;
    options.threads = threads;
    options.event_skipping = skip;
    timing::Simulator sim(config, program, memory, options);
    Outcome o{sim.run(), ""};
    std::ostringstream csv;
    memory.dump_csv(csv);
    o.memory = csv.str();
    return o;
}

// Tickets from one counter (order-dependent old values), a value another block
// stored a moment ago, and the clock and SM of each store.
const char* kRacy = R"(
.kernel racy
.grid 264
.block 128
.buffer counter u32 1 zero
.buffer out u32 33792 zero
.buffer seen u32 33792 zero
.buffer when u32 33792 zero
    mov    r0, %tid.x
    imad   r1, %ctaid.x, %ntid.x, r0
    atom.global.add r2, [counter], 1
    st.global [out + r1*4], r2
    iadd   r3, r1, 128
    urem   r3, r3, 33792
    ld.global r4, [out + r3*4]
    st.global [seen + r1*4], r4
    mov    r5, %clock
    iadd   r5, r5, %smid
    st.global [when + r1*4], r5
    exit
)";

}  // namespace

TEST_CASE("parallel: 2, 3 and 7 threads give one thread's Stats and memory, with races between blocks", "[timing][parallel]") {
    const GpuConfig h200 = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/h200.yaml");
    const Outcome one = run(kRacy, h200, 1);
    REQUIRE(one.stats.warp_instructions > 0);
    for (unsigned n : {2u, 3u, 7u}) {
        INFO("threads " << n);
        const Outcome many = run(kRacy, h200, n);
        CHECK(many.stats == one.stats);
        CHECK(many.memory == one.memory);
    }
}

TEST_CASE("parallel: without event skipping too", "[timing][parallel]") {
    const GpuConfig rtx = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/rtx4060.yaml");
    const Outcome one = run(kRacy, rtx, 1, false);
    const Outcome two = run(kRacy, rtx, 2, false);
    CHECK(two.stats == one.stats);
    CHECK(two.memory == one.memory);
    CHECK(run(kRacy, rtx, 1, true).stats == one.stats);
}

TEST_CASE("parallel: the instruction budget and a fault end the run with the serial run's error", "[timing][parallel]") {
    GpuConfig h200 = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/h200.yaml");
    auto error = [&](const std::string& src, unsigned n) {
        try {
            run(src, h200, n);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    h200.max_warp_instructions = 5000;  // crossed in the middle of a cycle
    CHECK(error(kRacy, 1).find("instruction budget of 5000") != std::string::npos);
    CHECK(error(kRacy, 2) == error(kRacy, 1));
    h200.max_warp_instructions = 100'000'000;
    std::string fault = kRacy;
    fault.replace(fault.find("urem   r3, r3, 33792"), 20, "iadd   r3, r3, 33000");  // out of bounds for most blocks
    const std::string serial = error(fault, 1);
    CHECK(serial.find("outside") != std::string::npos);
    CHECK(error(fault, 3) == serial);
}

TEST_CASE("parallel: the default is one thread for a small GPU or launch, the cores for a full-chip one", "[timing][parallel]") {
    const GpuConfig h200 = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/h200.yaml");
    const GpuConfig rtx = load_config(std::string(SIMT_SOURCE_DIR) + "/configs/rtx4060.yaml");
    const isa::Program big = isa::assemble_text(kRacy, "big.isa");  // 264 blocks: 2 per H200 SM
    std::string tiny_src = kRacy;
    tiny_src.replace(tiny_src.find(".grid 264"), 9, ".grid 8");
    const isa::Program tiny = isa::assemble_text(tiny_src, "tiny.isa");
    CHECK(timing::default_threads(h200, big) >= 1);
    CHECK(timing::default_threads(h200, big) <= timing::kMaxThreads);
    CHECK(timing::default_threads(h200, tiny) == 1);
    CHECK(timing::default_threads(rtx, big) == 1);  // 24 SMs: a cycle's work is too small to share
}
