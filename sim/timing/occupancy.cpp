// occupancy.cpp: theoretical occupancy and the "can never fit" checks.
#include "sim/timing/occupancy.hpp"

#include "isa/limits.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace simt::timing {

namespace {

uint32_t round_up(uint64_t v, uint32_t unit) {
    if (unit == 0) return static_cast<uint32_t>(v);
    return static_cast<uint32_t>((v + unit - 1) / unit * unit);
}

[[noreturn]] void never_fits(const isa::Program& p, const std::string& what) {
    throw Error(p.launch.loc, "kernel '" + p.kernel + "' can never run: " + what);
}

}  // namespace

BlockFootprint block_footprint(const GpuConfig& c, const isa::Program& p) {
    BlockFootprint f;
    f.warps = p.warps_per_block();
    f.threads = p.threads_per_block();
    uint32_t regs_per_warp = round_up(uint64_t(p.regs_per_thread) * isa::kWarpSize, c.sm.reg_alloc_unit);
    f.registers = regs_per_warp * f.warps;
    f.shared = round_up(uint64_t(p.shared_bytes) + c.sm.shared_reserved_per_block, c.sm.shared_alloc_unit);
    f.counts_as_block = p.launch.mode != isa::LaunchDecl::Mode::Fragment;
    return f;
}

OccupancyStats compute_occupancy(const GpuConfig& c, const isa::Program& p) {
    const auto& sm = c.sm;
    BlockFootprint f = block_footprint(c, p);
    auto num = [](uint64_t v) { return std::to_string(v); };
    if (f.counts_as_block && f.threads > sm.max_threads_per_block)
        never_fits(p, "a block of " + num(f.threads) + " threads exceeds sm.max_threads_per_block = " +
                          num(sm.max_threads_per_block));
    if (f.warps > sm.max_warps)
        never_fits(p, "a block of " + num(f.warps) + " warps exceeds sm.max_warps = " + num(sm.max_warps));
    if (p.regs_per_thread > sm.max_regs_per_thread)
        never_fits(p, ".regs " + num(p.regs_per_thread) + " exceeds sm.max_regs_per_thread = " +
                          num(sm.max_regs_per_thread));
    if (f.registers > sm.registers)
        never_fits(p, "a block needs " + num(f.registers) + " registers (" + num(f.warps) + " warps x " +
                          num(f.registers / std::max(1u, f.warps)) + "), more than sm.registers = " +
                          num(sm.registers));
    if (f.shared > sm.shared_bytes)
        never_fits(p, "a block needs " + num(f.shared) + " bytes of shared memory (.shared " +
                          num(p.shared_bytes) + " + reserved " + num(sm.shared_reserved_per_block) +
                          ", allocated in units of " + num(sm.shared_alloc_unit) + "), more than sm.shared_bytes = " +
                          num(sm.shared_bytes));

    constexpr uint32_t kNoLimit = std::numeric_limits<uint32_t>::max();
    OccupancyStats o;
    o.max_warps = sm.max_warps;
    o.regs_per_warp = f.warps ? f.registers / f.warps : 0;
    o.shared_per_block = f.shared;
    o.limit_warps = sm.max_warps / f.warps;
    o.limit_blocks = f.counts_as_block ? sm.max_blocks : kNoLimit;
    o.limit_registers = f.registers ? sm.registers / f.registers : kNoLimit;
    o.limit_shared = f.shared ? sm.shared_bytes / f.shared : kNoLimit;
    if (o.limit_blocks == 0) never_fits(p, "sm.max_blocks = 0");

    o.blocks_per_sm = o.limit_warps;
    o.limiter = OccupancyLimiter::Warps;
    auto consider = [&](uint32_t lim, OccupancyLimiter which) {
        if (lim < o.blocks_per_sm) { o.blocks_per_sm = lim; o.limiter = which; }
    };
    consider(o.limit_blocks, OccupancyLimiter::Blocks);
    consider(o.limit_registers, OccupancyLimiter::Registers);
    consider(o.limit_shared, OccupancyLimiter::SharedMemory);
    o.warps_per_sm = o.blocks_per_sm * f.warps;
    o.theoretical = sm.max_warps ? double(o.warps_per_sm) / double(sm.max_warps) : 0.0;
    return o;
}

void check_resident_memory(const GpuConfig& c, const isa::Program& p, const OccupancyStats& o) {
    const uint64_t threads = p.threads_per_block();
    const uint64_t per_block = p.shared_bytes + threads * p.local_bytes +
                               uint64_t(p.warps_per_block()) * p.regs_per_thread * isa::kWarpSize * 4;
    const uint64_t blocks = std::min<uint64_t>(uint64_t(o.blocks_per_sm) * c.sm.count, p.num_blocks());
    const uint64_t total = blocks * per_block;
    if (total <= isa::kMaxResidentBytes) return;
    auto num = [](uint64_t v) { return std::to_string(v); };
    never_fits(p, num(blocks) + " resident blocks (" + num(o.blocks_per_sm) + " per SM x " + num(c.sm.count) +
                      " SMs) would hold " + num(total) + " bytes of .shared, .local and registers, more than the " +
                      "limit of " + num(isa::kMaxResidentBytes >> 20) + " MiB; use less .local or .shared, or fewer SMs");
}

}  // namespace simt::timing
