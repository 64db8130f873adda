// decode.cpp: Instruction -> DecodedInst (see decode.hpp).
#include "sim/timing/decode.hpp"

#include "isa/sass/reader.hpp"

namespace simt::timing {

namespace {

MemKind mem_kind(const isa::OpInfo& oi) {
    using isa::Access;
    using isa::Space;
    if (oi.pipe == isa::Pipe::Tex) return MemKind::Tex;
    switch (oi.space) {
        case Space::Global:
            return oi.access == Access::Load ? MemKind::GlobalLoad
                 : oi.access == Access::Store ? MemKind::GlobalStore : MemKind::GlobalAtomic;
        case Space::Local: return oi.access == Access::Load ? MemKind::LocalLoad : MemKind::LocalStore;
        case Space::Shared:
            return oi.access == Access::Load ? MemKind::SharedLoad
                 : oi.access == Access::Store ? MemKind::SharedStore : MemKind::SharedAtomic;
        case Space::Const: return MemKind::Const;
        case Space::None: break;
    }
    if (oi.pipe == isa::Pipe::Lsu) return MemKind::Shuffle;
    return MemKind::None;
}

// General-register reads with their operand slot (operand index * 4 + register of a pair/quad).
void collect_reads(const isa::Instruction& in, DecodedInst& d) {
    const isa::OpInfo& oi = isa::info(in.op);
    size_t k = 0;
    auto add = [&](uint32_t reg, uint32_t slot) {
        if (d.nread < kReuseSlots && reg < isa::kMaxRegs) {
            d.read_reg[d.nread] = uint16_t(reg);
            d.read_slot[d.nread] = uint8_t(slot % kReuseSlots);
            ++d.nread;
        }
    };
    for (char c : oi.signature) {
        if (c == ',') continue;
        const isa::Operand& o = in.ops[k];
        uint32_t slot = uint32_t(k) * 4;
        switch (c) {
            case 'V': case 'F': if (o.kind == isa::OperandKind::Reg) add(o.value, slot); break;
            case 'G': if (o.kind == isa::OperandKind::Reg) { add(o.value, slot); add(o.value + 1, slot + 1); } break;
            case 'E': add(o.value, slot); add(o.value + 1, slot + 1); break;
            case 'X': for (uint32_t i = 0; i < 4; ++i) add(o.value + i, slot + i); break;
            case 'M':
                if (o.mem.index_reg >= 0) add(uint32_t(o.mem.index_reg), slot);
                if (o.mem.flat) add(uint32_t(o.mem.index_reg) + 1, slot + 1);
                break;
            default: break;
        }
        ++k;
    }
}

// The stall count of each imported SASS instruction (its control bits, isa::Instruction::sass_ctrl),
// on the last of the trace instructions it lowered to (they share its SASS line).
void mark_sass_stalls(const isa::Program& program, std::vector<DecodedInst>& out) {
    const auto& code = program.code;
    for (size_t pc = 0; pc < code.size(); ++pc) {
        if (!code[pc].sass_ctrl) continue;
        const bool last = pc + 1 == code.size() || code[pc + 1].loc.line != code[pc].loc.line || code[pc + 1].loc.file != code[pc].loc.file;
        if (last) out[pc].sass_stall = uint8_t(isa::sass::Control::unpack(code[pc].sass_ctrl).stall);
    }
}

// A loop counter stepped by a constant (iadd rN, rN, imm): where the count is warp-uniform, as in
// every loop of the calibration twins, ptxas keeps it in a uniform register (UIADD3 URn), whose
// consumer does not make the warp yield. The twins write UR counters as rN (calib/traces/).
bool is_counter_step(const isa::Instruction& in) {
    return in.op == isa::Op::Iadd && in.ops[0].kind == isa::OperandKind::Reg && in.ops[1].kind == isa::OperandKind::Reg &&
           in.ops[0].value == in.ops[1].value && in.ops[2].kind == isa::OperandKind::Imm;
}

// Whether instruction b reads a general or predicate register that a writes (a uniform register's
// consumer waits in the uniform datapath).
bool writes_what_next_reads(const isa::Instruction& a, const isa::Instruction& b) {
    for (int i = 0; i < a.regs.ndst; ++i) {
        if (a.regs.dst[i] >= isa::kURegBase) continue;
        for (int j = 0; j < b.regs.nsrc; ++j)
            if (b.regs.src[j] == a.regs.dst[i]) return true;
    }
    return false;
}

// Whether the instruction after pc waits for a fixed-latency result of pc or of the instruction
// before it: a result still in flight, which is what a stall count of 3 or more waits for.
// (The instruction before pc counts only when pc is not a branch target: `target`.)
bool next_waits_in_flight(const isa::Program& program, const std::vector<DecodedInst>& out, size_t pc,
                          const std::vector<bool>& target) {
    const auto& code = program.code;
    if (pc + 1 >= code.size()) return false;
    if (out[pc].lat == isa::Lat::Fixed && writes_what_next_reads(code[pc], code[pc + 1])) return true;
    return pc > 0 && !target[pc] && out[pc - 1].lat == isa::Lat::Fixed && out[pc - 1].pipe != isa::Pipe::Branch &&
           !is_counter_step(code[pc - 1]) && writes_what_next_reads(code[pc - 1], code[pc + 1]);
}

// An instruction yields (scheduler/cgy.cpp) when the next one waits for a result in flight and the
// compiler says so: an imported SASS instruction with its yield bit clear (ptxas clears it on the
// instructions with a stall count of 3 or more in the H200 dumps, calib/results/warporder/), a
// hand-written one unless it is a branch or a loop counter's step. A SASS instruction lowered to several trace instructions
// yields on its last.
void mark_yields(const isa::Program& program, std::vector<DecodedInst>& out) {
    const auto& code = program.code;
    std::vector<bool> target(code.size(), false);
    for (const isa::Instruction& in : code)
        for (const isa::Operand& o : in.ops)
            if (o.kind == isa::OperandKind::Label && o.value < code.size()) target[o.value] = true;
    for (size_t pc = 0; pc < code.size(); ++pc) {
        const bool sass = code[pc].sass_ctrl != 0;
        if (sass && pc + 1 < code.size() && code[pc + 1].loc.line == code[pc].loc.line &&
            code[pc + 1].loc.file == code[pc].loc.file)
            continue;
        const bool hint = sass ? !isa::sass::Control::unpack(code[pc].sass_ctrl).yield
                               : out[pc].pipe != isa::Pipe::Branch && !is_counter_step(code[pc]);
        out[pc].yields = hint && next_waits_in_flight(program, out, pc, target);
    }
}

}  // namespace

// `mov` / `umov` of a special register that SASS reads with S2R / S2UR, a variable-latency read
// ([SASS-S2R] "S2R is a variable latency read of special registers"; calib/kernels/s2r.cu). Not
// %clock (CS2R.32 SR_CLOCKLO on sm_90: fixed), nor %ntid / %nctaid (constant bank), nor %pixel.
bool reads_s2r(const isa::Instruction& in) {
    if ((in.op != isa::Op::Mov && in.op != isa::Op::Umov) || in.ops[1].kind != isa::OperandKind::Special) return false;
    using S = isa::Special;
    switch (S(in.ops[1].value)) {
        case S::LaneId: case S::WarpId: case S::TidX: case S::TidY: case S::TidZ:
        case S::CtaidX: case S::CtaidY: case S::CtaidZ: case S::SmId: return true;
        default: return false;
    }
}

std::vector<DecodedInst> decode_program(const isa::Program& program) {
    std::vector<DecodedInst> out;
    out.reserve(program.code.size());
    for (const isa::Instruction& in : program.code) {
        const isa::OpInfo& oi = isa::info(in.op);
        DecodedInst d;
        d.op = in.op;
        d.pipe = oi.pipe;
        d.lat = oi.lat;
        d.mem = mem_kind(oi);
        d.bytes = oi.bytes;
        switch (d.mem) {
            case MemKind::None: d.unit = oi.pipe == isa::Pipe::Branch ? Unit::Branch : Unit::Math; break;
            case MemKind::SharedLoad: case MemKind::SharedStore: case MemKind::SharedAtomic:
            case MemKind::Const: case MemKind::Shuffle: d.unit = Unit::Mio; break;
            default: d.unit = Unit::L1tex; break;
        }
        // Special functions (MUFU) wait in the MIO queue in front of the unit: Nsight
        // Compute reports a busy MUFU as mio_throttle (its results as short_scoreboard).
        d.throttle = d.unit == Unit::Mio || oi.pipe == isa::Pipe::Sfu ? StallReason::MioThrottle
                   : d.mem == MemKind::Tex ? StallReason::TexThrottle
                   : d.unit == Unit::L1tex ? StallReason::LgThrottle
                   : StallReason::MathPipeThrottle;
        if (reads_s2r(in)) d.lat = isa::Lat::Mio;  // (plain: no unit, no memory access)
        d.produces = d.lat == isa::Lat::Mio ? StallReason::ShortScoreboard
                   : oi.lat == isa::Lat::L1tex || oi.lat == isa::Lat::L2 ? StallReason::LongScoreboard
                   : StallReason::Wait;
        // Each register once (a register both read and written is checked once).
        auto check = [&](uint16_t r) {
            const uint16_t slot = scoreboard_slot(r);
            for (int j = 0; j < d.ncheck; ++j)
                if (d.check[j] == slot) return;
            if (d.ncheck < d.check.size()) d.check[d.ncheck++] = slot;
        };
        for (int i = 0; i < in.regs.nsrc; ++i) check(in.regs.src[i]);
        d.nsrc = d.ncheck;
        for (int i = 0; i < in.regs.ndst; ++i) check(in.regs.dst[i]);
        for (int i = 0; i < in.regs.ndst && i < 4; ++i) d.dst[d.ndst++] = scoreboard_slot(in.regs.dst[i]);
        if (oi.lat == isa::Lat::Emul && in.ops[2].kind == isa::OperandKind::Reg)
            d.divisor = scoreboard_slot(uint16_t(in.ops[2].value));
        collect_reads(in, d);
        d.reuse_after.fill(kNoReg);
        for (int i = 0; i < d.nread; ++i) d.reuse_after[d.read_slot[i]] = d.read_reg[i];
        out.push_back(d);
    }
    mark_sass_stalls(program, out);
    mark_yields(program, out);
    return out;
}

}  // namespace simt::timing
