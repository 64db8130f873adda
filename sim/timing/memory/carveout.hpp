// carveout.hpp: the per-kernel split of the unified L1 / shared-memory array.
//
// At launch the shared memory the resident blocks need (blocks per SM x the
// allocated shared memory per block, reserved bytes included) is rounded up to
// the next carve-out step of memory.carveout.steps_kb; the L1 gets the rest of
// memory.carveout.unified_bytes. That is what the CUDA driver does when a kernel
// states no carve-out preference [PG §20.8.3]: the smallest carve-out that keeps
// the occupancy. With unified_bytes 0 the L1 is memory.l1 for every kernel.
//
// Left out: cudaFuncAttributePreferredSharedMemoryCarveout (no ISA directive).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/stats.hpp"

#include <cstdint>

namespace simt::timing {

// The carve-out in bytes for resident blocks needing `shared` bytes in all.
inline uint32_t carveout_bytes(const GpuConfig::Memory::Carveout& c, uint64_t shared) {
    for (uint32_t kb : c.steps_kb)
        if (uint64_t(kb) * 1024 >= shared) return kb * 1024;
    return c.steps_kb.empty() ? 0 : c.steps_kb.back() * 1024;
}

// The kernel's L1: memory.l1 with its size set by the carve-out.
inline CacheSpec l1_spec(const GpuConfig& config, const OccupancyStats& occ) {
    CacheSpec l1 = config.memory.l1;
    const auto& c = config.memory.carveout;
    if (!c.unified_bytes) return l1;
    uint64_t shared = uint64_t(occ.blocks_per_sm) * occ.shared_per_block;
    l1.size_bytes = c.unified_bytes - carveout_bytes(c, shared);
    return l1;
}

}  // namespace simt::timing
