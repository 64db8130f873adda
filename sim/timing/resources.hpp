// resources.hpp: the SM resources a block holds (warp slots, block slots,
// registers, shared memory) and when they come back.
//
// A block takes its whole footprint (occupancy.hpp) when it is dispatched.
// sm.warp_release says what an exited warp gives back before its block ends:
// nothing (`block`), its warp slot (`slot`), or its slot and its registers
// (`slot_and_registers`, registers being allocated per warp [OCC]); the block
// slot and the shared memory always wait for the block's last warp. So a block
// whose warps finish unevenly lets the next one in earlier (issue 6 item 12:
// the H200 keeps more warps resident than per-block release allows).
//
// Left out: any delay between a release and the reuse of the resource.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/occupancy.hpp"

#include <algorithm>
#include <cstdint>

namespace simt::timing {

class SmResources {
public:
    SmResources(const GpuConfig::Sm& spec, const BlockFootprint& f) : spec_(spec), f_(f) {}

    bool fits() const {
        return warps_ + f_.warps <= spec_.max_warps && (!f_.counts_as_block || blocks_ < spec_.max_blocks) &&
               uint64_t(regs_) + f_.registers <= spec_.registers && uint64_t(shared_) + f_.shared <= spec_.shared_bytes;
    }
    void take_block() {
        warps_ += f_.warps;
        blocks_ += f_.counts_as_block ? 1 : 0;
        regs_ += f_.registers;
        shared_ += f_.shared;
    }
    // A warp exited; returns true when that gave something back (a block may fit now).
    bool release_warp() {
        if (spec_.warp_release == WarpRelease::Block) return false;
        warps_ -= 1;
        if (spec_.warp_release == WarpRelease::SlotAndRegisters) regs_ -= f_.registers / std::max(f_.warps, 1u);
        return true;
    }
    // The block's last warp exited: what its warps have not given back yet.
    void release_block() {
        if (spec_.warp_release == WarpRelease::Block) warps_ -= f_.warps;
        if (spec_.warp_release != WarpRelease::SlotAndRegisters) regs_ -= f_.registers;
        blocks_ -= f_.counts_as_block ? 1 : 0;
        shared_ -= f_.shared;
    }
    uint32_t blocks() const { return blocks_; }

private:
    const GpuConfig::Sm& spec_;
    const BlockFootprint& f_;
    uint32_t warps_ = 0, blocks_ = 0, regs_ = 0, shared_ = 0;
};

}  // namespace simt::timing
