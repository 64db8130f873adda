// carveout.hpp: the per-kernel split of the unified L1 / shared-memory array.
//
// At launch the driver picks a shared-memory carve-out from memory.carveout.steps_kb;
// the L1 gets the rest of memory.carveout.unified_bytes. The programming guide says only
// that, with no carve-out preference, the driver keeps the occupancy [PG §20.8.3]. What
// an H200 picks (ncu launch__shared_mem_config_size on 40 kernels, calib/README.md
// "thirty-fourth pass") is the smallest step at or above the larger of
//   - the resident blocks' shared memory (blocks per SM x the allocated shared memory
//     per block, reserved bytes included), times carveout.shared_headroom when the
//     kernel declares shared memory (2 on the H200: 16 -> 32 KB, 24 -> 64, 40 -> 100);
//   - a floor by block size: carveout.floor_kb_1024 x 1024 / threads per block, at most
//     carveout.floor_cap_kb (H200: 8 KB for 1024 threads, 16 for 512, 32 for 256 or fewer).
// With floor_kb_1024 0 and shared_headroom 1 this is the smallest carve-out that keeps
// the occupancy. With unified_bytes 0 the L1 is memory.l1 for every kernel.
//
// Left out: cudaFuncAttributePreferredSharedMemoryCarveout (no ISA directive).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/stats.hpp"

#include <algorithm>
#include <cstdint>

namespace simt::timing {

// The carve-out in bytes for resident blocks needing `shared` bytes in all.
inline uint32_t carveout_bytes(const GpuConfig::Memory::Carveout& c, uint64_t shared) {
    for (uint32_t kb : c.steps_kb)
        if (uint64_t(kb) * 1024 >= shared) return kb * 1024;
    return c.steps_kb.empty() ? 0 : c.steps_kb.back() * 1024;
}

// The shared memory the driver sets aside for a kernel: its resident blocks' (with
// headroom when it declares any) or the floor for its block size, whichever is more.
inline uint64_t carveout_need(const GpuConfig::Memory::Carveout& c, const OccupancyStats& occ,
                              uint32_t declared_shared, uint32_t threads_per_block) {
    uint64_t need = uint64_t(occ.blocks_per_sm) * occ.shared_per_block;
    if (declared_shared) need *= c.shared_headroom;
    uint64_t floor = threads_per_block ? uint64_t(c.floor_kb_1024) * 1024 * 1024 / threads_per_block : 0;
    return std::max(need, std::min(floor, uint64_t(c.floor_cap_kb) * 1024));
}

// The kernel's L1: memory.l1 with its size set by the carve-out.
inline CacheSpec l1_spec(const GpuConfig& config, const OccupancyStats& occ, uint32_t declared_shared,
                         uint32_t threads_per_block) {
    CacheSpec l1 = config.memory.l1;
    const auto& c = config.memory.carveout;
    if (!c.unified_bytes) return l1;
    // The sets stay those of memory.l1 (the H200 and the RTX 4060 index their L1 with 4 [AS-H200]);
    // the carve-out changes the ways (224 KB: 448 of them). With the ways fixed instead, a 224 KB L1
    // had 32 sets and a 4 KB row stride put every row's line in one set (ho_matvec_thread's L1 hits
    // 87.8 -> 57.8 %, ncu 87.8 %).
    const uint64_t line = std::max(l1.line_bytes, 1u);
    const uint64_t sets = std::max<uint64_t>(1, l1.size_bytes / (line * std::max(l1.assoc, 1u)));
    l1.size_bytes = c.unified_bytes - carveout_bytes(c, carveout_need(c, occ, declared_shared, threads_per_block));
    l1.assoc = uint32_t(std::max<uint64_t>(1, l1.size_bytes / (sets * line)));
    return l1;
}

}  // namespace simt::timing
