// fuzz_util.hpp: what the run targets (functional, timing) share: the size
// filter that keeps one input within the fuzzer's memory and time.
//
// The limits of isa/limits.hpp allow a trace 2 GiB of buffers and 64 MiB of
// .local per block, far more than one fuzz iteration may take (libFuzzer
// stops at 2 GiB RSS). Those limits have their own tests (tests/test_limits.cpp,
// tests/regress/); here larger programs are skipped, not run.
#pragma once

#include "isa/isa.hpp"

#include <cstdint>

namespace simt::fuzz {

inline bool small_enough(const isa::Program& p) {
    uint64_t bytes = 0;
    for (const isa::BufferDecl& b : p.buffers) bytes += b.bytes();
    const uint64_t block = p.shared_bytes + uint64_t(p.threads_per_block()) * p.local_bytes;
    return bytes <= (16u << 20) && block <= (8u << 20) && p.num_blocks() <= 4096;
}

}  // namespace simt::fuzz
