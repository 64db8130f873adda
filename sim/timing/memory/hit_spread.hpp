// hit_spread.hpp: the spread of an L2 read hit's latency (memory.l2_slices.hit_spread_cycles).
//
// The H200's L2 hits do not all take the same time: one warp chasing random lines of a warm 16 MB
// span (calib/kernels/latdist.cu, [CALIB-L2-2026]) measures p10 / p25 / p50 / p75 / p90 306 / 314 /
// 328 / 348 / 357 cycles per hop, a uniform spread about 64 cycles wide (its quartiles fall within 2
// cycles of a uniform one's), from the slice's distance on the crossbar and the arbitration on the
// way. A warp load of N lines waits for the slowest: 2 / 4 / 8 / 16 lines take 340 / 353 / 365 /
// 383 cycles where one takes 331, the expected maximum of N such draws plus the L1TEX's one missed
// line per cycle (l1.hpp, memory.l1_miss_line_cycles). So a hit's latency is l2.hit_latency -
// width / 2 + a deterministic draw in [0, width) from a hash of its line and request: the mean stays
// l2.hit_latency, less half a cycle (the draws' mean is (width - 1) / 2), so a dependent chase
// measures the same; every sector of a line in one request arrives together, and the same inputs
// give the same draws.
// Left out: what the spread depends on (slice distance, load); misses keep dram.latency_spread_cycles.
#pragma once

#include "sim/timing/memory/server.hpp"

#include <cstdint>

namespace simt::timing {

class HitSpread {
public:
    // `latency`: the configured mean (l2.hit_latency); `width`: l2_slices.hit_spread_cycles.
    HitSpread(uint32_t latency, uint32_t width) : low_(latency - width / 2), width_(width) {}
    // The latency of a hit on a sector's line in request `req` (`sector` / `spl` is the line:
    // computed only when the spread is on).
    uint64_t latency(uint64_t sector, uint32_t spl, uint64_t req) const {
        if (width_ == 0) return low_;
        return low_ + mix_bits(sector / spl * 0x9e3779b97f4a7c15ull ^ mix_bits(req + 0x51ed27u)) % width_;
    }

private:
    uint32_t low_;    // the lowest latency: the mean less half the width
    uint32_t width_;
};

}  // namespace simt::timing
