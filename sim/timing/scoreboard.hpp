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
    void reset() { entry_.fill(0); }
    // Registers are named by slot (DecodedInst::check, dst).
    void set(uint16_t slot, uint64_t ready, StallReason why) {
        entry_[slot] = (ready & kReadyMask) | uint64_t(why) << kWhyShift;
    }
    // The cycle all of d's registers are ready, and the reason of the last one.
    uint64_t ready_for(const DecodedInst& d, StallReason& why) const {
        uint64_t at = 0, last = 0;
        for (int i = 0; i < d.ncheck; ++i) {
            const uint64_t e = entry_[d.check[i]];
            if ((e & kReadyMask) > at) { at = e & kReadyMask; last = e; }
        }
        why = at ? StallReason(last >> kWhyShift) : StallReason::Wait;
        return at;
    }
    uint64_t ready(uint16_t slot) const { return entry_[slot] & kReadyMask; }

private:
    // One word per register: the ready cycle (56 bits, far beyond any run) and
    // the reason above it.
    static constexpr int kWhyShift = 56;
    static constexpr uint64_t kReadyMask = (1ull << kWhyShift) - 1;
    std::array<uint64_t, kNumScoreboardRegs> entry_{};
};

}  // namespace simt::timing
