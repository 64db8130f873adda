// functional_util.hpp: small helpers shared by the functional-layer tests.
#pragma once

#include "isa/assembler.hpp"
#include "sim/functional/memory.hpp"
#include "sim/functional/runner.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace simt::test {

inline isa::Program assemble(const std::string& text, const std::string& name = "t.isa") {
    return isa::assemble_text(text, name);
}

inline int buffer_index(const isa::Program& p, const std::string& name) {
    for (size_t i = 0; i < p.buffers.size(); ++i)
        if (p.buffers[i].name == name) return int(i);
    FAIL("no buffer " << name);
    return -1;
}

// The 32-bit words of a buffer.
inline std::vector<uint32_t> words(const isa::Program& p, const func::GlobalMemory& m, const std::string& name) {
    const int b = buffer_index(p, name);
    std::vector<uint32_t> out(p.buffers[size_t(b)].bytes() / 4);
    std::memcpy(out.data(), m.data(b), out.size() * 4);
    return out;
}

inline std::vector<float> floats(const isa::Program& p, const func::GlobalMemory& m, const std::string& name) {
    const int b = buffer_index(p, name);
    std::vector<float> out(p.buffers[size_t(b)].bytes() / 4);
    std::memcpy(out.data(), m.data(b), out.size() * 4);
    return out;
}

inline std::vector<double> doubles(const isa::Program& p, const func::GlobalMemory& m, const std::string& name) {
    const int b = buffer_index(p, name);
    std::vector<double> out(p.buffers[size_t(b)].bytes() / 8);
    std::memcpy(out.data(), m.data(b), out.size() * 8);
    return out;
}

// Assembles and runs a kernel through the SIMT executor; returns the memory.
struct Run {
    isa::Program program;
    func::GlobalMemory memory;
    func::FunctionalResult result;
    explicit Run(const std::string& text, func::ExecLimits limits = {})
        : program(assemble(text)), memory(program, "."), result(func::run_functional(program, memory, limits)) {}
    std::vector<uint32_t> u32(const std::string& name) const { return words(program, memory, name); }
    std::vector<float> f32(const std::string& name) const { return floats(program, memory, name); }
};

}  // namespace simt::test
