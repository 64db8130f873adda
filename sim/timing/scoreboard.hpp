// scoreboard.hpp: per-warp register readiness.
//
// One ready cycle per register (r0..r254 and p0..p6) and the stall reason a
// reader sees until then (wait for fixed-latency producers, short_scoreboard
// for MIO, long_scoreboard for L1TEX). An instruction may issue when every
// register it reads or writes is ready (RAW and WAW); reads happen at issue,
// so there is no WAR hazard.
#pragma once

#include "sim/timing/decode.hpp"

#include <array>
#include <cstdint>

namespace simt::timing {

class Scoreboard {
public:
    void reset() {
        ready_.fill(0);
        why_.fill(StallReason::Wait);
    }
    void set(uint16_t reg, uint64_t ready, StallReason why) {
        ready_[reg] = ready;
        why_[reg] = why;
    }
    // The cycle all of d's registers are ready, and the reason of the last one.
    uint64_t ready_for(const DecodedInst& d, StallReason& why) const {
        uint64_t at = 0;
        why = StallReason::Wait;
        for (int i = 0; i < d.ncheck; ++i) {
            uint16_t r = d.check[i];
            if (ready_[r] > at) { at = ready_[r]; why = why_[r]; }
        }
        return at;
    }
    uint64_t ready(uint16_t reg) const { return ready_[reg]; }

private:
    std::array<uint64_t, kNumScoreboardRegs> ready_{};
    std::array<StallReason, kNumScoreboardRegs> why_{};
};

}  // namespace simt::timing
