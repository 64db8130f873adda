// decode.cpp: Instruction -> DecodedInst (see decode.hpp).
#include "sim/timing/decode.hpp"

#include "isa/sass/reader.hpp"

#include <algorithm>

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

// Whether two trace instructions come from one imported SASS instruction (they share its line).
bool same_sass(const isa::Instruction& a, const isa::Instruction& b) {
    return a.sass_ctrl && b.sass_ctrl && a.loc.line == b.loc.line && a.loc.file == b.loc.file;
}

// The end of the SASS instruction whose lowering starts at pc (pc + 1 for a trace instruction).
size_t bundle_end(const std::vector<isa::Instruction>& code, size_t pc) {
    size_t end = pc + 1;
    while (end < code.size() && same_sass(code[pc], code[end])) ++end;
    return end;
}

// The stall count of each imported SASS instruction (its control bits, isa::Instruction::sass_ctrl),
// on the last of the trace instructions it lowered to (they share its SASS line).
void mark_sass_stalls(const isa::Program& program, std::vector<DecodedInst>& out) {
    const auto& code = program.code;
    for (size_t pc = 0; pc < code.size(); ++pc) {
        if (!code[pc].sass_ctrl) continue;
        if (bundle_end(code, pc) == pc + 1) out[pc].sass_stall = uint8_t(isa::sass::Control::unpack(code[pc].sass_ctrl).stall);
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

// The branch targets of a program (an instruction a label names).
std::vector<bool> branch_targets(const isa::Program& program) {
    std::vector<bool> target(program.code.size(), false);
    for (const isa::Instruction& in : program.code)
        for (const isa::Operand& o : in.ops)
            if (o.kind == isa::OperandKind::Label && o.value < target.size()) target[o.value] = true;
    return target;
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
    const std::vector<bool> target = branch_targets(program);
    for (size_t pc = 0; pc < code.size(); ++pc) {
        const bool sass = code[pc].sass_ctrl != 0;
        if (bundle_end(code, pc) != pc + 1) continue;   // (not the last of a SASS instruction's)
        const bool hint = sass ? !isa::sass::Control::unpack(code[pc].sass_ctrl).yield
                               : out[pc].pipe != isa::Pipe::Branch && !is_counter_step(code[pc]);
        out[pc].yields = hint && next_waits_in_flight(program, out, pc, target);
    }
}

// By scoreboard slot: whether some instruction reads the register before its own SASS instruction
// (its bundle of trace instructions) writes it. The lowering's temporaries are not.
std::vector<bool> read_outside(const isa::Program& program) {
    const auto& code = program.code;
    std::vector<bool> out(kNumScoreboardRegs, false);
    std::vector<uint16_t> written;
    for (size_t pc = 0, end = 0; pc < code.size(); pc = end) {
        end = bundle_end(code, pc);
        written.clear();
        for (size_t k = pc; k < end; ++k) {
            for (int i = 0; i < code[k].regs.nsrc; ++i) {
                const uint16_t r = scoreboard_slot(code[k].regs.src[i]);
                if (std::find(written.begin(), written.end(), r) == written.end()) out[r] = true;
            }
            for (int i = 0; i < code[k].regs.ndst; ++i) written.push_back(scoreboard_slot(code[k].regs.dst[i]));
        }
    }
    return out;
}

// A trace instruction that can be part of a folded SASS instruction: fixed latency on a math pipe,
// no memory, no SM unit, no special-register read.
bool foldable(const DecodedInst& d, const isa::Instruction& in) {
    return d.lat == isa::Lat::Fixed && d.mem == MemKind::None && d.unit == Unit::Math && d.pipe != isa::Pipe::Branch &&
           !reads_s2r(in);
}

// The member whose pipe the folded instruction takes: the first on a floating-point, IMAD or uniform
// pipe (IMAD.X's imad, not its carry-in add), else the first on the integer ALU (IADD3's iadd3, not
// the isub of a negated source), else the first.
size_t principal(const std::vector<DecodedInst>& out, size_t pc, size_t end) {
    using P = isa::Pipe;
    for (size_t k = pc; k < end; ++k)
        if (out[k].pipe == P::Fma || out[k].pipe == P::Imad || out[k].pipe == P::Fp64 || out[k].pipe == P::Uniform) return k;
    for (size_t k = pc; k < end; ++k)
        if (out[k].pipe == P::Alu) return k;
    return pc;
}

// Folds members [pc, end) of one SASS instruction into out[pc]: it checks the registers any member
// reads before a member writes them and the registers they write that are read outside the
// instruction, and writes those with its latency; false (nothing changed) where a member cannot fold
// or the registers do not fit. The last member may be the instruction's own memory access or branch
// (LDS [UR4+0x4] as mov + ld.shared, BRA on two predicates as pand + bra): then the folded
// instruction is that one, with the registers of all, when the ones before write nothing read outside.
bool fold(const isa::Program& program, std::vector<DecodedInst>& out, size_t pc, size_t end, const std::vector<bool>& target,
          const std::vector<bool>& read_outside) {
    const auto& code = program.code;
    if (end - pc - 1 > 127) return false;  // (DecodedInst::fold)
    const bool tail = !foldable(out[end - 1], code[end - 1]);
    if (tail && out[end - 1].lat == isa::Lat::Emul) return false;
    std::vector<uint16_t> src, dst, written;  // (as scoreboard_slot)
    auto has = [](const std::vector<uint16_t>& v, uint16_t r) { return std::find(v.begin(), v.end(), r) != v.end(); };
    std::vector<std::pair<uint16_t, uint8_t>> reads;  // general-register reads from outside, with their slot
    for (size_t k = pc; k < end; ++k) {
        const bool helper = tail && k + 1 < end;
        if (((k + 1 < end || !tail) && !foldable(out[k], code[k])) || (k > pc && target[k])) return false;
        for (int i = 0; i < out[k].nread; ++i) {
            const uint16_t r = out[k].read_reg[i];
            const bool seen = std::any_of(reads.begin(), reads.end(), [r](const auto& x) { return x.first == r; });
            if (!seen && !has(written, scoreboard_slot(r)) && reads.size() < kReuseSlots) reads.emplace_back(r, out[k].read_slot[i]);
        }
        for (int i = 0; i < code[k].regs.nsrc; ++i) {
            const uint16_t r = scoreboard_slot(code[k].regs.src[i]);
            if (!has(written, r) && !has(src, r)) src.push_back(r);
        }
        for (int i = 0; i < code[k].regs.ndst; ++i) {
            const uint16_t r = scoreboard_slot(code[k].regs.dst[i]);
            if (helper && read_outside[r]) return false;  // (it would wait for the access)
            if (!has(written, r)) written.push_back(r);
            if (!has(dst, r) && read_outside[r]) dst.push_back(r);  // (a temporary only its bundle reads: none)
        }
    }
    size_t ncheck = src.size();
    for (uint16_t r : dst) ncheck += !has(src, r);
    DecodedInst h = out[tail ? end - 1 : pc];
    if (ncheck > h.check.size() || dst.size() > h.dst.size()) return false;
    h.ncheck = h.ndst = 0;
    for (uint16_t r : src) h.check[h.ncheck++] = r;
    h.nsrc = h.ncheck;
    for (uint16_t r : dst) {
        if (!has(src, r)) h.check[h.ncheck++] = r;
        h.dst[h.ndst++] = r;
    }
    h.nread = 0;
    h.reuse_after.fill(kNoReg);
    for (const auto& [r, slot] : reads) {
        h.read_reg[h.nread] = r;
        h.read_slot[h.nread++] = slot;
        h.reuse_after[slot] = r;
    }
    if (!tail) {
        const DecodedInst& p = out[principal(out, pc, end)];
        h.op = p.op;
        h.pipe = p.pipe;
        h.throttle = p.throttle;
    }
    h.yields = out[end - 1].yields;
    h.sass_stall = out[end - 1].sass_stall;
    h.fold = uint8_t(end - pc - 1);
    out[pc] = h;
    return true;
}

// Imported SASS: a SASS instruction that lowered to several trace instructions (a carry-out or
// carry-in, a 64-bit compare, a negated source: isa/sass/lower.hpp) issues once, on one pipe, as
// the GPU issues it (Sm::issue steps the others with it). Unfolded, IADD3 with a carry-out took
// three issue slots and stream_read's loop twice the SASS's instructions.
void fold_sass_bundles(const isa::Program& program, std::vector<DecodedInst>& out) {
    const auto& code = program.code;
    const std::vector<bool> target = branch_targets(program);
    const std::vector<bool> outside = read_outside(program);
    for (size_t pc = 0, end = 0; pc < code.size(); pc = end) {
        end = bundle_end(code, pc);
        if (end - pc > 1) fold(program, out, pc, end, target, outside);
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
    fold_sass_bundles(program, out);
    return out;
}

}  // namespace simt::timing
