// distributor.hpp: the compute work distributor, which hands a launch's blocks to the SMs.
//
// It hands out at most one block every `launch.block_dispatch_cycles` cycles GPU-wide
// (fractional): a block given to an SM at cycle t starts (its warps may begin their
// block_launch_cycles) at max(t, when the distributor is next free). On the H200 the cost is
// 0.60 ns per block whatever the block size up to 512 threads ([CALIB-DISPATCH-2026]
// blk_empty / blk_ffma16), so a kernel of 65,536 small blocks spends about 40 us handing them
// out: one element per thread launches are bound by it, grid-stride loops are not.
// The SM's slot is taken when the block is handed over (no other block could use it while the
// distributor is behind), so resident warps wait as no_instruction until their start.
// Fragment launches (graphics: the rasterizer hands warps to SMs, not the CTA distributor) are
// not limited here.
// Leaves out: per-GPC distributors, priorities between concurrent kernels.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace simt::timing {

class BlockDistributor {
public:
    explicit BlockDistributor(double cycles_per_block) : interval_(std::max(cycles_per_block, 0.0)) {}

    // The cycle a block handed to an SM at t may start; the distributor is busy until then + its interval.
    uint64_t hand_out(uint64_t t) {
        if (interval_ <= 0) return t;
        const double start = std::max(free_at_, double(t));
        free_at_ = start + interval_;
        return uint64_t(std::ceil(start));
    }

private:
    double interval_;
    double free_at_ = 0;
};

}  // namespace simt::timing
