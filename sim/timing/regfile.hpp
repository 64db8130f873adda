// regfile.hpp: register-file bank conflicts and the operand reuse cache.
//
// A sub-partition's register file has regfile.banks banks (register r lives
// in bank r % banks), each serving reads_per_bank operand reads per cycle.
// An instruction whose distinct source registers need more reads from one
// bank than that needs ceil(reads / reads_per_bank) - 1 extra cycles
// (bank_conflict_cycles: the cost alone; read_ports.hpp times the reads of
// all instructions on the ports, which decides what holds the scheduler).
// The reuse cache (as on Volta and later), one per scheduler: a source register
// that was read in the same operand slot by the scheduler's previous instruction,
// issued by the same warp, is served from the cache, not a bank. Another warp's
// issue in between empties it (measured on the H200: dependent FFMA chains from
// 16 warps conflict, 0.50 issue/clk, while a warp issuing back to back does not). (Real hardware sets reuse flags in the
// compiled code; this approximates them as "always when possible".)
//
// The cache's content after an instruction depends only on that instruction
// (DecodedInst::reuse_after), so the cost of an instruction depends only on
// the pair (previous instruction of the warp, this one): BankModel computes
// it once per pair it meets (remembering the last predecessor of each pc)
// and a warp only keeps the pc of its previous instruction.
//
// Left out: write-port conflicts, the operand collector's queues.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/decode.hpp"
#include "sim/timing/stats.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace simt::timing {

using ReuseCache = std::array<uint16_t, kReuseSlots>;  // register last read per operand slot (kNoReg: none)

// The distinct registers an instruction reads from the banks (not from the reuse cache).
struct BankReads {
    uint8_t n = 0;
    bool distinct = true;                     // no two reads in one bank (they cannot conflict with each other)
    std::array<uint16_t, kReuseSlots> reg{};
    std::array<uint16_t, kReuseSlots> slot{};  // scoreboard_slot(reg) (read_ports.hpp looks its readiness up)
    std::array<uint8_t, kReuseSlots> bank{};  // reg % regfile.banks
};

inline void clear_reuse(ReuseCache& c) { c.fill(kNoReg); }

// Extra dispatch cycles of `d` for a warp whose reuse cache is `reuse`;
// updates the cache and the counters.
uint32_t bank_conflict_cycles(const DecodedInst& d, ReuseCache& reuse, const GpuConfig::RegFile& spec,
                              RegFileStats& stats);
// The registers d reads from the banks for a warp whose reuse cache is `reuse`
// (all of its distinct reads when the cache is off); updates the cache.
BankReads bank_reads(const DecodedInst& d, ReuseCache& reuse, const GpuConfig::RegFile& spec, uint64_t& hits);

constexpr uint32_t kNoPc = 0xffffffffu;  // a warp that has issued nothing yet (empty reuse cache)

// The bank reads of every instruction of a program, by (previous pc, pc).
class BankModel {
public:
    BankModel(const std::vector<DecodedInst>& code, const GpuConfig::RegFile& spec)
        : code_(code), spec_(spec), memo_(2 * code.size()) {}
    // The bank reads of the instruction at pc for a warp whose previous instruction
    // was at prev (kNoPc: none); counts the reads and reuse hits (read_ports.hpp
    // times them).
    const BankReads& reads(uint32_t prev, uint32_t pc, RegFileStats& stats) {
        // Two entries per pc: an empty reuse cache (another warp issued in between)
        // and the latest predecessor of this warp, so alternating between them
        // does not recompute.
        Memo& m = memo_[2 * size_t(pc) + (prev != kNoPc)];
        if (m.prev != prev) compute(prev, pc, m);
        stats.operand_reads += m.cost.operand_reads;
        stats.reuse_hits += m.cost.reuse_hits;
        return m.reads;
    }
    bool enabled() const { return spec_.model_banks && spec_.banks != 0; }

private:
    struct Memo {
        uint32_t prev = kNoPc - 1;  // the predecessor `cost` is for (kNoPc - 1: none yet)
        RegFileStats cost;
        BankReads reads;
    };
    void compute(uint32_t prev, uint32_t pc, Memo& m) const;

    const std::vector<DecodedInst>& code_;
    const GpuConfig::RegFile& spec_;
    std::vector<Memo> memo_;  // per pc: [2 pc] after no instruction of this warp, [2 pc + 1] after one
};

}  // namespace simt::timing
