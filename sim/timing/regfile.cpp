// regfile.cpp: the bank-conflict cost of one instruction (see regfile.hpp).
#include "sim/timing/regfile.hpp"

#include <algorithm>

namespace simt::timing {

BankReads bank_reads(const DecodedInst& d, ReuseCache& reuse, const GpuConfig::RegFile& spec, uint64_t& hits) {
    BankReads out;
    for (int i = 0; i < d.nread; ++i) {
        const uint16_t r = d.read_reg[i];
        if (spec.reuse_cache && reuse[d.read_slot[i]] == r) { ++hits; continue; }
        bool seen = false;
        for (uint32_t j = 0; j < out.n; ++j) seen |= out.reg[j] == r;
        if (!seen) {
            out.bank[out.n] = uint8_t(r % std::max(spec.banks, 1u));
            out.slot[out.n] = scoreboard_slot(r);
            out.reg[out.n++] = r;
        }
    }
    for (uint32_t i = 0; i < out.n; ++i)
        for (uint32_t j = 0; j < i; ++j) out.distinct &= out.bank[i] != out.bank[j];
    reuse = d.reuse_after;
    return out;
}

uint32_t bank_conflict_cycles(const DecodedInst& d, ReuseCache& reuse, const GpuConfig::RegFile& spec,
                              RegFileStats& stats) {
    if (!spec.model_banks || spec.banks == 0) return 0;
    // The distinct registers read from a bank (not served by the reuse cache).
    const BankReads br = bank_reads(d, reuse, spec, stats.reuse_hits);
    const auto& distinct = br.reg;
    const uint32_t nd = br.n;
    stats.operand_reads += nd;
    // The busiest bank's reads; no bank can exceed reads_per_bank with fewer reads in all.
    const uint32_t per = std::max(spec.reads_per_bank, 1u);
    if (nd <= per) return 0;
    const uint32_t banks = std::min<uint32_t>(spec.banks, 64);
    std::array<uint8_t, 64> per_bank;  // only the entries of these banks are used
    for (uint32_t j = 0; j < nd; ++j) per_bank[distinct[j] % banks] = 0;
    uint32_t worst = 0;
    for (uint32_t j = 0; j < nd; ++j) worst = std::max<uint32_t>(worst, ++per_bank[distinct[j] % banks]);
    uint32_t extra = (worst + per - 1) / per - 1;
    stats.bank_conflict_cycles += extra;
    return extra;
}

void BankModel::compute(uint32_t prev, uint32_t pc, Memo& m) const {
    ReuseCache reuse;
    if (prev == kNoPc) clear_reuse(reuse);
    else reuse = code_[prev].reuse_after;
    m.prev = prev;
    m.cost = RegFileStats{};
    m.reads = bank_reads(code_[pc], reuse, spec_, m.cost.reuse_hits);
    m.cost.operand_reads = m.reads.n;
}

}  // namespace simt::timing
