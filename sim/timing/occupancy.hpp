// occupancy.hpp: how many blocks of a launch fit on one SM, and what limits them.
//
// Per block: warps = ceil(threads / 32); registers = regs_per_thread * 32
// rounded up to sm.reg_alloc_unit, per warp; shared memory = .shared +
// sm.shared_reserved_per_block rounded up to sm.shared_alloc_unit. The limit
// on resident blocks (sm.max_blocks) does not apply to fragment launches,
// whose blocks are single warps. Ties between limits are reported in the
// order warps, blocks, registers, shared_memory.
//
// Left out: the per-CTA rounding of the warp count to a multiple of the
// sub-partitions that cuda_occupancy.h applies to the register check, and the
// shared-memory carve-out choice (sm.shared_bytes is taken as configured).
#pragma once

#include "isa/isa.hpp"
#include "sim/config/config.hpp"
#include "sim/timing/stats.hpp"

namespace simt::timing {

// Per-block resource needs, as allocated.
struct BlockFootprint {
    uint32_t warps = 0;
    uint32_t threads = 0;
    uint32_t registers = 0;   // regs_per_warp * warps
    uint32_t shared = 0;      // allocated bytes
    bool counts_as_block = true;  // false for fragment launches (no max_blocks limit)
};

BlockFootprint block_footprint(const GpuConfig& config, const isa::Program& program);

// Theoretical occupancy; throws simt::Error (at the program's .launch) naming
// the limit when one block can never fit an SM.
OccupancyStats compute_occupancy(const GpuConfig& config, const isa::Program& program);

// Throws simt::Error (at the program's .launch) when the blocks resident on
// the whole chip at once would hold more than isa::kMaxResidentBytes of
// simulated shared, local and register memory.
void check_resident_memory(const GpuConfig& config, const isa::Program& program, const OccupancyStats& occupancy);

}  // namespace simt::timing
