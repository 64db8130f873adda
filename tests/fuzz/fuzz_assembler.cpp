// fuzz_assembler.cpp: libFuzzer target: any text -> the assembler.
//
// The promise under test: the assembler either returns a Program or throws
// simt::Error (located), for any bytes; never a crash, a hang, undefined
// behaviour (ASan/UBSan) or runaway memory. .include paths resolve against a
// directory that does not exist, so only absolute paths reach files.
#include "isa/assembler.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        simt::isa::Program p = simt::isa::assemble_text(text, "fuzz.isa", "/nonexistent-fuzz-dir");
        if (!p.code.empty()) (void)simt::isa::disassemble(p, 0);
    } catch (const simt::Error&) {
    }
    return 0;
}
