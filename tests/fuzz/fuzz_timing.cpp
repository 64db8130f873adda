// fuzz_timing.cpp: libFuzzer target: any text -> assembler -> the timing model
// on a tiny machine (configs/rtx4060.yaml cut to 2 SMs), with budgets of 5,000
// warp instructions and 200,000 cycles. Every outcome must be Stats or a
// simt::Error (see fuzz_assembler.cpp).
#include "fuzz_util.hpp"
#include "isa/assembler.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/gpu.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const simt::GpuConfig& tiny_config() {
    static const simt::GpuConfig c = simt::load_config(
        std::string(SIMT_SOURCE_DIR) + "/configs/rtx4060.yaml",
        {"sm.count=2", "max_warp_instructions=5000", "max_cycles=200000"});
    return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const simt::GpuConfig& config = tiny_config();
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const simt::isa::Program p = simt::isa::assemble_text(text, "fuzz.isa", "/nonexistent-fuzz-dir");
        if (!simt::fuzz::small_enough(p)) return 0;
        simt::func::GlobalMemory memory(p, "/nonexistent-fuzz-dir");
        simt::timing::Simulator sim(config, p, memory);
        (void)sim.run();
    } catch (const simt::Error&) {
    }
    return 0;
}
