// regfile.hpp: register-file bank conflicts and the operand reuse cache.
//
// A sub-partition's register file has regfile.banks banks (register r lives
// in bank r % banks), each serving reads_per_bank operand reads per cycle.
// An instruction whose distinct source registers need more reads from one
// bank than that waits ceil(reads / reads_per_bank) - 1 extra cycles before
// dispatch (warp state dispatch_stall; the scheduler's issue slot is held).
// The reuse cache (as on Volta and later): a source register that was read
// in the same operand slot by the previous instruction the warp issued is
// served from the cache, not a bank. (Real hardware sets reuse flags in the
// compiled code; this approximates them as "always when possible".)
//
// Left out: write-port conflicts, the operand collector's queues.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/decode.hpp"
#include "sim/timing/stats.hpp"

#include <array>
#include <cstdint>

namespace simt::timing {

using ReuseCache = std::array<uint16_t, kReuseSlots>;  // register last read per operand slot
constexpr uint16_t kNoReg = 0xffff;

inline void clear_reuse(ReuseCache& c) { c.fill(kNoReg); }

// Extra dispatch cycles of `d` for a warp whose reuse cache is `reuse`;
// updates the cache and the counters.
uint32_t bank_conflict_cycles(const DecodedInst& d, ReuseCache& reuse, const GpuConfig::RegFile& spec,
                              RegFileStats& stats);

}  // namespace simt::timing
