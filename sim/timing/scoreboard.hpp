// scoreboard.hpp: per-warp register readiness.
//
// One ready cycle per register (r0..r254 and p0..p6), the stall reason a
// reader sees until then (wait for fixed-latency producers, short_scoreboard
// for MIO, long_scoreboard for L1TEX) and the pipe that produced it. An
// instruction may issue when every register it reads or writes is ready (RAW
// and WAW). Reads happen at issue, except an L1TEX instruction's, which waits
// in the LSU queue (memory/lg_queue.hpp) and reads its registers when the tag
// stage takes it: until then each of them carries a read barrier, which a
// writer waits for (WAR, long_scoreboard) and a reader ignores. A register
// produced by another pipe than the reader's is ready `handoff` cycles later
// (the reader pipe's pipes.<pipe>.handoff: the cross-pipe forwarding cost).
#pragma once

#include "sim/timing/decode.hpp"

#include <array>
#include <cstdint>

namespace simt::timing {

class Scoreboard {
public:
    void reset() { entry_.fill(0); }
    // Registers are named by slot (DecodedInst::check, dst).
    void set(uint16_t slot, uint64_t ready, StallReason why, isa::Pipe pipe) {
        entry_[slot] = (ready & kReadyMask) | uint64_t(why) << kWhyShift | uint64_t(pipe) << kPipeShift;
    }
    // A read barrier: the register is read at `read` (> now); a writer waits until then. (Its value
    // was ready before the reading instruction issued, so a later reader does not wait.)
    void set_read_barrier(uint16_t slot, uint64_t read) {
        entry_[slot] = (read & kReadyMask) | uint64_t(StallReason::LongScoreboard) << kWhyShift | kReadBarrier;
    }
    // The cycle all of d's registers are ready for d (its pipe's `handoff`
    // added to those another pipe produced), and the reason of the last one.
    uint64_t ready_for(const DecodedInst& d, StallReason& why, uint32_t handoff = 0) const {
        uint64_t at = 0, last = 0, barriers = 0;
        if (handoff == 0) {  // (most pipes: no per-register pipe test)
            for (int i = 0; i < d.ncheck; ++i) {
                const uint64_t e = entry_[d.check[i]];
                barriers |= e;
                if (e & kReadBarrier) continue;
                if ((e & kReadyMask) > at) { at = e & kReadyMask; last = e; }
            }
        } else {
            for (int i = 0; i < d.ncheck; ++i) {
                const uint64_t e = entry_[d.check[i]];
                barriers |= e;
                if (e & kReadBarrier) continue;
                uint64_t r = e & kReadyMask;
                r += (r != 0 && isa::Pipe(e >> kPipeShift) != d.pipe) ? handoff : 0;
                if (r > at) { at = r; last = e; }
            }
        }
        if (barriers & kReadBarrier)  // (rare: a register an L1TEX instruction still has to read)
            for (int i = 0; i < d.ndst; ++i) {
                const uint64_t e = entry_[d.dst[i]];
                if ((e & kReadBarrier) && (e & kReadyMask) > at) { at = e & kReadyMask; last = e; }
            }
        why = at ? StallReason(uint8_t(last >> kWhyShift)) : StallReason::Wait;
        return at;
    }
    uint64_t ready(uint16_t slot) const { return entry_[slot] & kReadBarrier ? 0 : entry_[slot] & kReadyMask; }

private:
    // One word per register: the ready cycle (48 bits, far beyond any run), the
    // reason and the producing pipe above it.
    static constexpr int kWhyShift = 48;
    static constexpr int kPipeShift = 56;
    static constexpr uint64_t kReadyMask = (1ull << kWhyShift) - 1;
    static constexpr uint64_t kReadBarrier = 1ull << 63;  // above the pipe (isa::Pipe has few values)
    std::array<uint64_t, kNumScoreboardRegs> entry_{};
};

}  // namespace simt::timing
