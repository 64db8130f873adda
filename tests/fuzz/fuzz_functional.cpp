// fuzz_functional.cpp: libFuzzer target: any text -> assembler -> memory image
// -> the functional executor, with a budget of 5,000 warp instructions.
// Every outcome must be a result or a simt::Error (see fuzz_assembler.cpp).
#include "fuzz_util.hpp"
#include "isa/assembler.hpp"
#include "sim/functional/memory.hpp"
#include "sim/functional/runner.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const simt::isa::Program p = simt::isa::assemble_text(text, "fuzz.isa", "/nonexistent-fuzz-dir");
        if (!simt::fuzz::small_enough(p)) return 0;
        simt::func::GlobalMemory memory(p, "/nonexistent-fuzz-dir");
        simt::func::ExecLimits limits;
        limits.max_warp_instructions = 5000;
        simt::func::run_functional(p, memory, limits);
    } catch (const simt::Error&) {
    }
    return 0;
}
