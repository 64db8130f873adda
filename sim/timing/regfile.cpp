// regfile.cpp: the bank-conflict cost of one instruction (see regfile.hpp).
#include "sim/timing/regfile.hpp"

#include <algorithm>

namespace simt::timing {

uint32_t bank_conflict_cycles(const DecodedInst& d, ReuseCache& reuse, const GpuConfig::RegFile& spec,
                              RegFileStats& stats) {
    if (!spec.model_banks || spec.banks == 0) return 0;
    std::array<uint16_t, kReuseSlots> distinct;
    uint32_t nd = 0;
    std::array<uint8_t, 64> per_bank{};
    uint32_t banks = std::min<uint32_t>(spec.banks, 64);
    uint32_t worst = 0;
    for (int i = 0; i < d.nread; ++i) {
        uint16_t r = d.read_reg[i];
        if (spec.reuse_cache && reuse[d.read_slot[i]] == r) { ++stats.reuse_hits; continue; }
        if (std::find(distinct.begin(), distinct.begin() + nd, r) != distinct.begin() + nd) continue;
        distinct[nd++] = r;
        ++stats.operand_reads;
        worst = std::max<uint32_t>(worst, ++per_bank[r % banks]);
    }
    clear_reuse(reuse);
    for (int i = 0; i < d.nread; ++i) reuse[d.read_slot[i]] = d.read_reg[i];
    uint32_t per = std::max(spec.reads_per_bank, 1u);
    uint32_t cycles = worst ? (worst + per - 1) / per : 1;
    uint32_t extra = cycles - 1;
    stats.bank_conflict_cycles += extra;
    return extra;
}

}  // namespace simt::timing
