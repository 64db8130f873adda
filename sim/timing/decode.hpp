// decode.hpp: each instruction of the program decoded once for the timing model.
//
// What the scheduler needs to know before issue, without looking at the
// Instruction again: the pipe, which unit gates issue (and the throttle
// reason when it is busy), the stall reason a dependent instruction sees,
// the registers the scoreboard checks (sources and destinations: RAW and
// WAW), and the general-register reads with their operand slot for the
// register-bank model.
#pragma once

#include "isa/isa.hpp"
#include "sim/timing/stats.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace simt::timing {

// The memory behaviour of an instruction.
enum class MemKind : uint8_t {
    None, GlobalLoad, GlobalStore, GlobalAtomic, LocalLoad, LocalStore, Tex,
    SharedLoad, SharedStore, SharedAtomic, Const, Shuffle,
};

// The unit whose availability gates issue (besides the sub-partition's pipe).
enum class Unit : uint8_t { Math, Branch, L1tex, Mio };

constexpr uint16_t kNumScoreboardRegs = isa::kNumPreds + isa::kMaxRegs + isa::kNumURegs;  // p0..p6, r0..r254, ur0..ur62

// A register's slot in the scoreboard: the predicates first, then r0, r1, ...
// so that a program's registers share few cache lines, then the uniform registers.
constexpr uint16_t scoreboard_slot(uint16_t reg) {
    if (reg >= isa::kURegBase) return uint16_t(isa::kNumPreds + isa::kMaxRegs + (reg - isa::kURegBase));
    return reg >= isa::kPredRegBase ? uint16_t(reg - isa::kPredRegBase) : uint16_t(reg + isa::kNumPreds);
}
constexpr uint32_t kReuseSlots = 16;  // 4 operands x up to 4 registers each
constexpr uint16_t kNoReg = 0xffff;   // an empty operand slot

struct DecodedInst {
    isa::Op op = isa::Op::Nop;
    isa::Pipe pipe = isa::Pipe::Alu;
    isa::Lat lat = isa::Lat::Fixed;
    MemKind mem = MemKind::None;
    Unit unit = Unit::Math;
    uint8_t bytes = 0;                          // per lane, memory instructions
    StallReason throttle = StallReason::MathPipeThrottle;  // while its pipe/unit is busy
    StallReason produces = StallReason::Wait;   // what a dependent instruction waits with
    uint8_t ncheck = 0;                         // scoreboard: sources then destinations, each register once
    bool yields : 1 = false;  // the scheduler should switch warps after it (scheduler/cgy.cpp): an imported
                              // SASS instruction whose yield bit is clear, else one whose next instruction
                              // waits for its fixed-latency result (where ptxas clears the bit)
    uint8_t fold : 7 = 0;     // imported SASS: the trace instructions after this one that the same SASS
                              // instruction lowered to, issued with it as one (decode.cpp, fold_sass_bundles)
    std::array<uint16_t, 12> check{};           //   (as scoreboard_slot)
    uint8_t nsrc = 0;                           // the first nsrc of check are read (an L1TEX instruction's read barrier)
    uint8_t ndst = 0;
    std::array<uint16_t, 4> dst{};              // written registers (as scoreboard_slot)
    uint8_t nread = 0;                          // general-register source reads (bank model)
    uint8_t sass_stall = 0;   // imported SASS: its stall count, on the last trace instruction of a SASS
                              // instruction (pipes.sass_stall_counts, stall_counts.hpp); 0 elsewhere
    std::array<uint16_t, kReuseSlots> read_reg{};
    std::array<uint8_t, kReuseSlots> read_slot{};
    std::array<uint16_t, kReuseSlots> reuse_after{};  // the reuse cache after it: its reads by slot, kNoReg elsewhere
    uint16_t divisor = kNoReg;  // an emulated division's divisor register (as scoreboard_slot), kNoReg: immediate
};
// (The one-byte fields fill the alignment gaps: 128 bytes, so code[pc] is a shift on every issue.)
static_assert(sizeof(DecodedInst) == 128, "DecodedInst: keep it at 128 bytes (or update this note)");

std::vector<DecodedInst> decode_program(const isa::Program& program);

// A read of a special register that SASS makes with S2R / S2UR (%tid, %ctaid, %laneid, %warpid, %smid):
// decoded as variable latency (Lat::Mio, its reader short_scoreboard), its latency pipes.s2r_latency.
bool reads_s2r(const isa::Instruction& in);

}  // namespace simt::timing
