// lower.cpp: the SASS -> trace mapping table, the memory, uniform and control-flow families, and
// the lowering loop (see lower.hpp; the other families in lower_int.cpp and lower_fp.cpp).
#include "isa/sass/lower_ctx.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>

namespace simt::isa::sass {
namespace low {
namespace {

void s2r(Ctx& c) {
    const std::string sp = special(c.raw(1));
    if (sp.empty()) return c.fail("special register " + c.raw(1));
    c.emit((c.mods[0] == "S2UR" ? "umov " : "mov ") + c.reg(0) + ", " + sp);
}

void cs2r(Ctx& c) {
    if (c.raw(1) == "SRZ") return c.emit("cs2r " + c.reg(0) + ", 0");
    if (c.raw(1) == "SR_CLOCKLO") return c.emit(c.has("32") ? "mov " + c.reg(0) + ", %clock" : "cs2r " + c.reg(0) + ", %clock64");
    c.fail("special register " + c.raw(1));
}

// LDC/ULDC[.64] d, c[0x0][X]: one mov per word.
void ldc(Ctx& c) {
    const std::string op = c.mods[0] == "ULDC" ? "umov " : "mov ";
    const std::string d = c.reg(0);
    c.emit(op + d + ", " + c.value(1));
    if (!c.has("64")) return;
    const std::string s = c.raw(1);
    uint32_t off = 0;
    if (!cbank_offset(s, off)) return c.fail("a constant operand indexed by a register");
    const std::string hi = c.env.cbank(off + 4);
    if (hi.empty()) return c.fail("reads the word after " + s + ", which is not a kernel parameter");
    c.emit(op + d.substr(0, d[0] == 'u' ? 2 : 1) + std::to_string(std::stoul(d.substr(d[0] == 'u' ? 2 : 1)) + 1) + ", " + hi);
}

// The width suffix of a memory instruction: "", ".v2", ".v4".
std::string width(Ctx& c) {
    for (size_t i = 1; i < c.mods.size(); ++i) {
        const std::string& m = c.mods[i];
        if (m == "64") return ".v2";
        if (m == "128") return ".v4";
        if (m == "U8" || m == "S8" || m == "U16" || m == "S16") { c.fail("8- and 16-bit accesses"); return ""; }
    }
    return "";
}

void load(Ctx& c) {
    const std::string& b = c.mods[0];
    const std::string space = b == "LDG" || b == "LD" ? "global" : b == "LDS" ? "shared" : "local";
    const std::string w = width(c);
    c.emit("ld." + space + w + " " + c.reg(0) + ", " + c.mem(1, space == "global", space == "shared"));
}

void store(Ctx& c) {
    const std::string& b = c.mods[0];
    const std::string space = b == "STG" || b == "ST" ? "global" : b == "STS" ? "shared" : "local";
    const std::string w = width(c);
    c.emit("st." + space + w + " " + c.mem(0, space == "global", space == "shared") + ", " + (w.empty() ? c.value(1) : c.reg(1)));
}

namespace {

// A 64-bit atomic's register-pair operand i (RZ: a temporary pair of zeros).
std::string pair_operand(Ctx& c, size_t i) {
    if (strip_reuse(c.raw(i)) != "RZ") return c.reg(i);
    const std::string p = "r" + std::to_string(c.t.pair);
    c.emit("mov " + p + ", 0");
    c.emit("mov r" + std::to_string(c.t.pair + 1) + ", 0");
    return p;
}

// ATOMG/REDG/ATOM/RED .E.ADD.64, .ADD.F64, .EXCH.64, .CAS.64: the global 64-bit atomics on register pairs.
// Operand o is the destination pair (after ATOMG's predicate result PT, o = 1).
void atomic64(Ctx& c, std::string op, bool red, bool shared, size_t o) {
    if (shared) return c.fail("64-bit shared-memory atomics");
    if (op == "add") op += c.has("F64") ? ".f64" : ".u64";
    else if (op == "exch" || op == "cas") op += ".b64";
    else return c.fail("64-bit atomic " + op);
    if (red && op != "add.u64" && op != "add.f64") return c.fail("64-bit reduction " + op);
    const std::string head = (red ? "red.global." : "atom.global.") + op + " ";
    if (red) return c.emit(head + c.mem(0, true) + ", " + pair_operand(c, 1));
    const std::string b = pair_operand(c, o + 2);
    const std::string cc = op == "cas.b64" ? ", " + pair_operand(c, o + 3) : "";
    // An old value nobody reads (RZ, as ptxas writes some atomicAdd whose result is unused) goes to the
    // temporary pair (read as b or c first, then written: the atomic reads its operands before it returns).
    const std::string d = strip_reuse(c.raw(o)) == "RZ" ? "r" + std::to_string(c.t.pair) : c.reg(o);
    c.emit(head + d + ", " + c.mem(o + 1, true) + ", " + b + cc);
}

}  // namespace

// RED/REDG/ATOMG/ATOMS/ATOM .E.OP[.F32]...: red/atom.SPACE.op.
void atomic(Ctx& c) {
    const std::string& b = c.mods[0];
    const bool red = b == "RED" || b == "REDG";
    const bool shared = b == "ATOMS";
    static const std::map<std::string, std::string> ops = {{"ADD", "add"}, {"MIN", "min"}, {"MAX", "max"}, {"AND", "and"},
                                                           {"OR", "or"}, {"XOR", "xor"}, {"EXCH", "exch"}, {"CAS", "cas"}};
    std::string op;
    for (size_t i = 1; i < c.mods.size(); ++i)
        if (ops.count(c.mods[i])) op = ops.at(c.mods[i]);
    if (op.empty() && shared && c.has("POPC") && c.has("INC")) {   // ATOMS.POPC.INC.32 RZ, [addr]
        if (strip_reuse(c.raw(0)) != "RZ") return c.fail("ATOMS.POPC.INC with a result");
        return c.emit("red.shared.popc.inc " + c.mem(1, false, true));
    }
    if (op.empty()) return c.fail("this atomic operation");
    // ATOMG's first operand may be its predicate result (PT: none); a real one is not modelled.
    const size_t o = !red && c.n() > 0 && is_pred_word(c.raw(0)) ? 1 : 0;
    if (o && c.raw(0) != "PT") return c.fail("an atomic's predicate result");
    if (c.has("64") || c.has("F64")) return atomic64(c, op, red, shared, o);
    if (c.has("F32")) op += ".f32";
    else if (c.has("U32") && (op == "min" || op == "max")) op += ".u32";
    const std::string head = (red ? "red." : "atom.") + std::string(shared ? "shared." : "global.") + op + " ";
    if (red) return c.emit(head + c.mem(0, !shared, shared) + ", " + c.value(1));
    const std::string d = strip_reuse(c.raw(o)) == "RZ" ? c.tmp() : c.reg(o);
    c.emit(head + d + ", " + c.mem(o + 1, !shared, shared) + ", " + c.value(o + 2) + (op == "cas" ? ", " + c.value(o + 3) : ""));
}

// The value of an integer immediate operand ("0x1f", "31"; RZ is "0"); false for anything else.
bool immediate(const std::string& v, uint32_t& out) {
    if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0]))) return false;
    out = uint32_t(std::stoul(v, nullptr, 0));
    return true;
}

// SHFL as PTX's shfl.sync: b's low 5 bits give the source lane j by the mode; c packs the clamp (bits
// 0..4) and the segment mask (bits 8..12): maxLane = (lane & seg) | (clamp & ~seg), and the source is
// in range (Pd) when j <= maxLane (UP: j >= maxLane); out of range, the lane reads its own value.
// The lane's source j' (j or its own lane) is computed first, so the shuffle itself is a shfl.idx by
// j' (the last instruction, as the timing model folds it). `lop3 ..., 0xe2` is (x & seg) | (y & ~seg).
void shfl_exact(Ctx& c, const std::string& mode) {
    const std::string p = c.pred(0), d = c.reg(1), a = c.value(2), b = c.value(3), cc = c.value(4);
    const std::string b5 = "r" + std::to_string(c.t.pair), j = "r" + std::to_string(c.t.pair + 1), m = c.tmp();
    // the predicate: Pd itself unless PT or the guard reads it (the guard must hold until the shuffle)
    const bool direct = p != "pt" && c.guard.find(p.substr(p[0] == '!')) == std::string::npos;
    const std::string s = direct ? p : c.tmp_pred(0);
    uint32_t bi = 0, ci = 0;
    const bool c_imm = immediate(cc, ci);
    std::string bval = b5, seg = m;
    if (immediate(b, bi)) bval = std::to_string(bi & 31);
    else c.emit("and " + b5 + ", " + b + ", 31");
    if (c_imm) seg = std::to_string((ci >> 8) & 31);
    else c.emit("bfe " + m + ", " + cc + ", 0x508");   // bits 8..12
    static const std::map<std::string, std::string> source = {{"up", "isub "}, {"down", "iadd "}, {"xor", "xor "}};
    if (mode == "idx") c.emit("lop3 " + j + ", %laneid, " + seg + ", " + bval + ", 0xe2");   // (lane & seg) | (b & ~seg)
    else c.emit(source.at(mode) + j + ", %laneid, " + bval);
    std::string max_lane = m;
    if (c_imm && seg == "0") max_lane = std::to_string(ci & 31);
    else if (c_imm) c.emit("lop3 " + m + ", %laneid, " + seg + ", " + std::to_string(ci & 31) + ", 0xe2");
    else {
        c.emit("lop3 " + m + ", %laneid, " + m + ", " + cc + ", 0xe2");
        c.emit("and " + m + ", " + m + ", 31");
    }
    c.emit((mode == "up" ? "isetp.ge " : "isetp.le ") + s + ", " + j + ", " + max_lane);
    c.emit("sel " + j + ", " + j + ", %laneid, " + s);
    c.emit("shfl.idx " + d + ", " + a + ", " + j);
    if (!direct && p != "pt") c.emit("pand " + p + ", " + s + ", pt");
}

// SHFL.MODE Pd, d, a, b, c. The compiler's usual form (Pd = PT, c = 0x1f, or 0 for UP: the whole warp)
// is one trace shuffle, whose rule (the own value for a source lane outside the warp) is PTX's there;
// a register b is masked to its low 5 bits first. Other forms: shfl_exact.
void shfl(Ctx& c) {
    static const std::map<std::string, std::string> modes = {{"DOWN", "down"}, {"UP", "up"}, {"BFLY", "xor"}, {"IDX", "idx"}};
    if (c.n() != 5 || !modes.count(c.mods.size() > 1 ? c.mods[1] : "")) return c.fail("unexpected form");
    const std::string mode = modes.at(c.mods[1]), cc = c.value(4);
    uint32_t ci = 0;
    if (c.raw(0) != "PT" || !immediate(cc, ci) || ci != (mode == "up" ? 0u : 31u)) return shfl_exact(c, mode);
    const std::string d = c.reg(1), a = c.value(2), b = c.value(3);
    uint32_t bi = 0;
    if (immediate(b, bi)) return c.emit("shfl." + mode + " " + d + ", " + a + ", " + std::to_string(bi & 31));
    if (mode == "idx") return c.emit("shfl.idx " + d + ", " + a + ", " + b);   // (reads b & 31 itself)
    const std::string t = c.tmp();
    c.emit("and " + t + ", " + b + ", 31");
    c.emit("shfl." + mode + " " + d + ", " + a + ", " + t);
}

void vote(Ctx& c) {
    if (c.n() != 3) return c.fail("unexpected form");
    const std::string q = c.pred(2);
    if (strip_reuse(c.raw(0)) != "RZ") c.emit("vote.ballot " + c.reg(0) + ", " + q);
    if (c.raw(1) != "PT") c.emit((c.has("ALL") ? "vote.all " : "vote.any ") + c.pred(1) + ", " + q);
    if (c.out.empty()) c.emit("nop");
}

// UIADD3[.X] d, [UPco,] a, b, c[, UPci, UPci]: as IADD3, the uniform predicates in spare vector
// predicates (Temps::uniform_pred), the carry-out's sum in a uniform temporary.
void uiadd3(Ctx& c) {
    const CarryForm f = carry_form(c);
    if (f.values.size() != 3 || f.outs.size() > 1 || (!f.outs.empty() && !f.ins.empty())) return c.fail("this uniform carry form");
    const std::string d = c.reg(0);
    std::vector<std::string> v;
    for (size_t i : f.values) v.push_back(c.value(i));
    if (f.outs.empty()) {
        c.emit("uiadd3 " + d + ", " + v[0] + ", " + v[1] + ", " + v[2]);
        return carry_in(c, d, f.ins, true);
    }
    const auto zero = std::find(v.begin(), v.end(), "0");
    if (zero == v.end()) return c.fail("a carry-out of three uniform sources");
    v.erase(zero);
    const std::string t = c.tmp_uniform();
    c.emit("uiadd3 " + t + ", " + v[0] + ", " + v[1] + ", 0");
    c.emit("usetp.lt " + c.pred(f.outs[0]) + ", " + t + ", " + v[0]);
    c.emit("umov " + d + ", " + t);
}

// UIMAD.WIDE[.U32] d, a, b, c: the uniform pair d:d+1 = a * b + the pair c:c+1 (URZ: 0), a and b
// sign-extended without .U32. Through two uniform temporaries, d written last (it may be a or c):
// the high word is the unsigned product's, plus a's sign word times b and b's times a (the signed
// product modulo 2^64), plus the low word's carry (`usetp` into a spare predicate, `@p uiadd3`).
void uimad_wide(Ctx& c) {
    if (c.n() != 4) return c.fail("unexpected form");
    const std::string add = strip_reuse(c.raw(3));
    if (add != "URZ" && !is_ureg(add)) return c.fail("a UIMAD.WIDE addend " + add);
    const std::string lo = add == "URZ" ? "0" : lower_word(add);
    const std::string hi = add == "URZ" ? "0" : "ur" + std::to_string(std::stoul(add.substr(2)) + 1);
    if (lo != "0" && !c.guard.empty()) return c.fail("a guarded UIMAD.WIDE with an addend");
    const std::string d = c.reg(0), a = c.value(1), x = c.value(2), tl = c.tmp_uniform(0), th = c.tmp_uniform(1);
    c.emit("uimad.hi.u32 " + th + ", " + a + ", " + x + ", " + hi);
    if (!c.has("U32")) {
        c.emit("usar " + tl + ", " + a + ", 31");
        c.emit("uimad " + th + ", " + tl + ", " + x + ", " + th);
        c.emit("usar " + tl + ", " + x + ", 31");
        c.emit("uimad " + th + ", " + a + ", " + tl + ", " + th);
    }
    c.emit("uimad " + tl + ", " + a + ", " + x + ", " + lo);
    if (lo != "0") {
        const std::string p = c.tmp_pred(0);
        c.emit("usetp.lt " + p + ", " + tl + ", " + lo);
        c.emit("@" + p + " uiadd3 " + th + ", " + th + ", 1, 0");
    }
    c.emit("umov " + d + ", " + tl);
    c.emit("umov ur" + std::to_string(std::stoul(d.substr(2)) + 1) + ", " + th);
}

void uniform_alu(Ctx& c) {
    const std::string& b = c.mods[0];
    if (b == "UMOV") return c.emit("umov " + c.reg(0) + ", " + c.value(1));
    if (b == "UIADD3") return uiadd3(c);
    if (b == "UIMAD" && c.mods.size() == 1) return c.emit("uimad " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2) + ", " + c.value(3));
    if (b == "ULOP3") return c.emit("ulop3 " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2) + ", " + c.value(3) + ", " + c.value(4));
    if (b == "USHF" && c.has("L") && !c.has("HI")) return c.emit("ushl " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2));
    if (b == "USHF" && c.has("R") && c.has("HI") && c.n() == 4)   // the high word shifted right: usar / ushr
        return c.emit((c.has("S32") ? "usar " : "ushr ") + c.reg(0) + ", " + c.value(3) + ", " + c.value(2));
    if (b == "UIMAD" && c.has("WIDE")) return uimad_wide(c);
    if (b == "ULEA" && c.mods.size() == 1 && c.n() == 4) {   // ULEA d, a, b, sh: (a << sh) + b through a uniform temporary
        const std::string t = c.tmp_uniform();
        c.emit("ushl " + t + ", " + c.value(1) + ", " + c.value(3));
        return c.emit("uiadd3 " + c.reg(0) + ", " + t + ", " + c.value(2) + ", 0");
    }
    c.fail("this uniform-datapath form");
}

// BRA.DIV mask, T: taken when the warp is diverged, some lane of the mask (~URZ: all 32) not active.
// The active lanes are a ballot of pt, computed unguarded (a guard would drop lanes from it); the
// result is the same in every lane, so the branch never splits the warp.
void branch_div(Ctx& c) {
    if (c.n() != 2) return c.fail("unexpected form");
    const std::string g = c.guard.empty() ? "" : c.guard.substr(1, c.guard.size() - 2);
    c.guard.clear();
    const std::string t = c.tmp(), s = c.tmp_pred(0);
    c.emit("vote.ballot " + t + ", pt");
    c.emit("lop3 " + t + ", " + t + ", " + c.value(0) + ", 0, 0x0c");   // mask & ~active
    c.emit("isetp.ne " + s + ", " + t + ", 0");
    if (!g.empty()) c.emit("pand " + s + ", " + s + ", " + g);
    c.guard = "@" + s + " ";
    c.emit("bra L_" + c.raw(1));
}

void branch(Ctx& c) {
    if (c.has("DIV")) return branch_div(c);
    if (c.mods.size() > 1 && !c.has("U")) return c.fail("branch form ." + c.mods[1]);
    if (c.n() == 2) {   // @g BRA Pq, target: taken where g and q hold
        const std::string q = c.pred(0);
        if (c.guard.empty()) { c.guard = "@" + q + " "; return c.emit("bra L_" + c.raw(1)); }
        const std::string g = c.guard.substr(1, c.guard.size() - 2), s = c.tmp_pred();
        c.guard.clear();
        c.emit("pand " + s + ", " + g + ", " + q);
        c.guard = "@" + s + " ";
        return c.emit("bra L_" + c.raw(1));
    }
    c.emit("bra L_" + c.raw(0));
}

// VOTEU.ANY, UFLO.U32, REDUX.SUM: the warp-aggregated atomic's collectives. Their uniform result
// lives in a vector register (the same value in every executing lane) that later reads of the
// uniform register take, until an ordinary instruction writes that register.
void warp_uniform(Ctx& c) {
    if (c.n() < 2 || !is_ureg(c.raw(0))) return c.fail("unexpected form");
    const std::string& b = c.mods[0];
    const std::string d = "r" + std::to_string(c.t.single + (b == "REDUX" ? kReduxAlias : kVoteAlias));
    c.used_temps = true;
    if (b == "VOTEU") {
        if (!c.has("ANY") || c.n() != 3 || c.raw(1) != "UPT") return c.fail("this VOTEU form");
        c.emit("vote.ballot " + d + ", " + c.pred(2));
    } else if (b == "UFLO") {
        if (!c.has("U32")) return c.fail("signed UFLO");
        c.emit("flo " + d + ", " + c.value(1));
    } else {
        if (!c.has("SUM") || c.n() != 2) return c.fail("this REDUX operation");
        c.emit("redux.sum " + d + ", " + c.value(1));
    }
    c.alias[c.raw(0)] = d;
}

void call(Ctx& c) { c.emit("call L_" + c.raw(0)); }

void ret(Ctx& c) { c.emit("ret"); }

void exit_(Ctx& c) { c.emit("exit"); }

void nop(Ctx& c) { c.emit("nop"); }

void bar(Ctx& c) {
    if (!c.has("SYNC") || c.n() != 1 || std::stoul(c.raw(0), nullptr, 16) != 0) return c.fail("a barrier other than BAR.SYNC 0x0");
    c.emit("bar");
}

void bmov(Ctx& c) {   // the convergence-barrier saves around calls: a register copy of B is 0 here
    if (is_reg(c.raw(0))) return c.emit("mov " + c.reg(0) + ", 0");
    c.emit("nop");
}

struct Rule {
    std::string_view sass;    // base opcode
    std::string_view trace;   // what it becomes
    std::string_view note;
    void (*lower)(Ctx&);
};

// The one SASS -> trace table (isa/README.md §7.2 prints it).
constexpr Rule kRules[] = {
    {"MOV", "`mov`", "", mov},
    {"IMAD", "`imad`, `imad.hi[.u32]`, `imad.wide[.u32]`", "`IMAD.MOV` is `imad d, 0, 0, a` (the FMA-side move keeps its pipe); a constant or uniform pair addend (`c[0x0][X]`, `URn`) goes through a temporary pair; `IMAD.X` adds its carry-in; `IMAD.HI`'s addend is the pair c:c+1 (the high word of a * b + c:c+1: `imad.wide` into the temporary pair + `mov`; `RZ`: `imad.hi`); a carry-out of `.HI`/`.WIDE.U32` is the 64-bit unsigned compare of sum and addend (`usetp`, `isetp.eq`, `pand`, `por`)", imad},
    {"IADD3", "`iadd3`", "a carry-out (one source `RZ`) is computed by `usetp` into its predicate; two carry-outs (three sources): one `iadd3` + `usetp` per addition; each carry-in of `.X` adds `@P iadd d, d, 1`; a negated source adds an `isub`", iadd3},
    {"VIADD", "`iadd`", "", viadd},
    {"IABS", "`isub` + `imax`", "", iabs},
    {"DADD", "`dadd`", "pairs, uniform pairs (`UR6`: `ur6`) or fp64 immediates; no modifiers", fp64},
    {"DMUL", "`dmul`", "", fp64},
    {"DFMA", "`dfma`", "", fp64},
    {"LEA", "`lea`, `lea.hi`", "a carry-out as IADD3's (`shl`, `iadd3`, `usetp`); `.X` carry-ins likewise; `.SX32` takes `sar` for the high word", lea},
    {"LOP3", "`lop3`", "a predicate destination adds `isetp.ne p, d, 0`", lop3},
    {"SHF", "`shl`, `shr`, `sar`, `lea.hi`", "the funnel shifts by a 32-bit word; `.W` (shift mod 32, as the trace's) for `.L` and `.R.HI`; `.R.U64` by an immediate n: `lea.hi` by 32 - n", shf},
    {"ISETP", "`isetp.CMP`, `usetp.CMP` (+ `pand`/`por`/`pxor`)", "the combining predicate adds one instruction; `.EX` (the high words of a 64-bit compare, the low words' result in the last operand): `isetp.eq` + `pand` (+ the strict compare and `por`), into spare predicates", setp},
    {"PLOP3", "`pand`/`por`/`pxor`; three predicates: `sel` + `lop3` + `isetp.ne`", "one destination; `PT`/`!PT` sources folded; a function of two predicates is one instruction, of three any table exactly: each predicate as all ones or zeros in a temporary (`sel`), the table itself by `lop3`, then `isetp.ne`", plop3},
    {"SGXT", "`bfe` (`.U32`), `shl` + `sar`", "", sgxt},
    {"P2R", "`sel` (+ `or`)", "`P2R d, PR, RZ, mask`: one `sel` per predicate of the mask", p2r},
    {"VIADDMNMX", "`iadd` + `imin`/`imax`/`umin`/`umax`", "", viaddmnmx},
    {"FSETP", "`fsetp.CMP` (+ `pand`/`por`/`pxor`)", "`NEU` is `ne`; `LTU`/`LEU`/`GTU`/`GEU` are the negated ordered `ge`/`gt`/`le`/`lt` into a spare predicate", setp},
    {"FADD", "`fadd`, `fadd.rz/rm/rp`", "`.FTZ` ignored; `.SAT` adds `fmax d, d, 0.0` + `fmin d, d, 1.0` (clamps to [0, 1], NaN to 0)", fp_arith},
    {"FMUL", "`fmul`, `fmul.rz/rm/rp`", "`.FTZ` ignored; `.RZ`/`.RM`/`.RP` are the directed-rounding forms; `.SAT` as FADD's", fp_arith},
    {"FFMA", "`ffma`, `ffma.rz/rm/rp`", "`.FTZ` ignored; `.SAT` as FADD's (`expf`'s range reduction)", fp_arith},
    {"FMNMX", "`fmin`, `fmax`", "`PT` min, `!PT` max", fmnmx},
    {"IMNMX", "`imin`, `imax`, `umin`, `umax`", "", imnmx},
    {"VIMNMX", "`imin`, `imax`, `umin`, `umax`", "", imnmx},
    {"SEL", "`sel`", "", sel},
    {"FSEL", "`sel`", "", sel},
    {"I2FP", "`i2fp`, `u2fp`", "", i2f},
    {"I2F", "`i2f[.rz/rm/rp]`, `u2f[.rz/rm/rp]`; `.F64`: `i2d`, `u2d`, `i2d.s64`, `u2d.u64`; `.S64`/`.U64`: `i2f.s64`, `u2f.u64[.rp]`", "the directed roundings (`I2F.U32.RP`: the division's reciprocal seed) as their own forms", i2f},
    {"F2I", "`f2i`, `f2u`, `f2i.s64`, `f2u.u64`", "`.TRUNC`, `.NTZ`, `.FTZ` are what the trace's forms do", f2i},
    {"F2F", "`d2f`, `f2d`", "`.F32.F64`, `.F64.F32`", f2f},
    {"FCHK", "`fchk`", "the division's range check: conservative (flags every case the fast path might round wrong; both paths give the correctly rounded quotient)", fchk},
    {"MUFU", "`ex2 lg2 rsqrt rcp sqrt`, `sin.turns`, `cos.turns`", "MUFU.SIN/COS take x/2π (turns): their own forms, one SFU instruction as in SASS", mufu},
    {"POPC", "`popc`", "", unary},
    {"FLO", "`flo`", "", unary},
    {"BREV", "`brev`", "", unary},
    {"PRMT", "`prmt`", "default mode only", prmt},
    {"HFMA2", "`mov`", "only `HFMA2.MMA d, -RZ, RZ, h0, h1` (a 32-bit constant)", hfma2},
    {"S2R", "`mov` of a special", "variable latency (`pipes.s2r_latency`)", s2r},
    {"S2UR", "`umov` of a special", "variable latency (`pipes.s2r_latency`)", s2r},
    {"CS2R", "`cs2r`", "`SRZ` zeroes a pair", cs2r},
    {"LDC", "`mov` (`.64`: two)", "the word's value: a parameter's `$uniform`, `%ntid.*`, `%nctaid.*`", ldc},
    {"ULDC", "`umov` (`.64`: two)", "", ldc},
    {"UMOV", "`umov`", "", uniform_alu},
    {"UIADD3", "`uiadd3`", "a carry-out into a uniform predicate `UPn`, held in a spare vector predicate (the same in every lane: `usetp`), the sum through a uniform temporary; `.X` carry-ins as IADD3's (`@p uiadd3 d, d, 1, 0`); a `@UPn` guard reads that predicate", uniform_alu},
    {"UIMAD", "`uimad`; `.WIDE[.U32]`: `uimad.hi.u32` + `uimad` + `umov`", "`.WIDE` through two uniform temporaries: a signed product adds each factor's sign word times the other (`usar`, `uimad`); a uniform pair addend `URn` the low word's carry (`usetp`, `@p uiadd3`)", uniform_alu},
    {"ULOP3", "`ulop3`", "", uniform_alu},
    {"USHF", "`ushl`, `ushr`, `usar`", "`.L` and `.R.{U32,S32}.HI`", uniform_alu},
    {"ULEA", "`ushl` + `uiadd3`", "through a uniform register above the kernel's; `.HI` unsupported", uniform_alu},
    {"LDG", "`ld.global[.v2/.v4] [rN.64 + off]`", "a flat address", load},
    {"LD", "`ld.global`", "generic addresses are taken as global", load},
    {"STG", "`st.global[.v2/.v4]`", "", store},
    {"ST", "`st.global`", "", store},
    {"LDS", "`ld.shared[.v2/.v4]`", "", load},
    {"STS", "`st.shared[.v2/.v4]`", "", store},
    {"LDL", "`ld.local[.v2/.v4]`", "R1 (the stack pointer) starts at `.local`", load},
    {"STL", "`st.local[.v2/.v4]`", "", store},
    {"RED", "`red.global.OP`", "", atomic},
    {"REDG", "`red.global.OP`", "", atomic},
    {"ATOMG", "`atom.global.OP`", "", atomic},
    {"ATOM", "`atom.global.OP`", "", atomic},
    {"ATOMS", "`atom.shared.OP`", "", atomic},
    {"SHFL", "`shfl.down/up/xor/idx`; else `shfl.idx` by a computed lane", "in-range predicate `PT` and c = 0x1f (`UP`: 0): one shuffle, a register b masked to its 5 bits (`and`); other forms exactly as PTX's shfl.sync: the source lane from b and the range from c's clamp and segment mask (`and`, `bfe`, `lop3`, `isetp`), the in-range predicate into Pd, the own lane where out of range (`sel`), then `shfl.idx` (issued as one unless another instruction reads that Pd)", shfl},
    {"VOTE", "`vote.ballot`, `vote.any/all`", "", vote},
    {"VOTEU", "`vote.ballot`", "`.ANY UR, UPT, P`: the result in a vector register that reads of UR take", warp_uniform},
    {"UFLO", "`flo`", "`.U32`, on such a register", warp_uniform},
    {"REDUX", "`redux.sum`", "`.SUM`, likewise", warp_uniform},
    {"BRA", "`bra`; `.DIV`: `vote.ballot` + `lop3` + `isetp.ne` + `bra`", "`@g BRA Pq, T` adds `pand`; `BRA.DIV mask, T` (the compiler's slow path for a collective in a diverged warp) is taken when a lane of the mask (`~URZ`: all 32) is not active: the ballot of `pt`, the same in every lane", branch},
    {"CALL", "`call`", "", call},
    {"RET", "`ret`", "", ret},
    {"EXIT", "`exit`", "", exit_},
    {"BAR", "`bar`", "`BAR.SYNC 0x0` only", bar},
    {"BSSY", "`nop`", "reconvergence comes from the post-dominators", nop},
    {"BSYNC", "`nop`", "", nop},
    {"WARPSYNC", "`nop`", "`.COLLECTIVE` too (see `ENDCOLLECTIVE`)", nop},
    {"ENDCOLLECTIVE", "`nop`", "ends the slow path that `BRA.DIV` takes (`WARPSYNC.COLLECTIVE`, the shuffle, `ENDCOLLECTIVE`), where the hardware gathers the mask's lanes for the shuffle: here the lanes that the post-dominator reconvergence keeps together run it, and a partner lane not among them gives the reader's own value, as in the fast path's shuffle, so both paths compute the same (a max reduction over the active lanes exactly; CUDA leaves a sum over absent lanes undefined)", nop},
    {"BMOV", "`mov d, 0` / `nop`", "", bmov},
    {"NOP", "`nop`", "", nop},
};

const Rule* find_rule(const std::string& base) {
    for (const Rule& r : kRules)
        if (r.sass == base) return &r;
    return nullptr;
}

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        const size_t d = s.find('.', start);
        out.push_back(s.substr(start, d - start));
        if (d == std::string::npos) return out;
        start = d + 1;
    }
}

// The highest register, and the predicates, the kernel names.
Temps temporaries(const Kernel& k) {
    uint32_t max_reg = 0, max_ureg = 0;
    std::set<int> preds;
    for (const Inst& in : k.code) {
        std::vector<std::string> words = in.operands;
        words.push_back(in.guard);
        for (const std::string& o : words) {
            for (size_t i = 0; i + 1 < o.size(); ++i) {
                const bool start = i == 0 || !std::isalnum(static_cast<unsigned char>(o[i - 1]));
                if (start && o[i] == 'U' && i + 2 < o.size() && o[i + 1] == 'R' && std::isdigit(static_cast<unsigned char>(o[i + 2])))
                    max_ureg = std::max<uint32_t>(max_ureg, uint32_t(std::strtoul(o.c_str() + i + 2, nullptr, 10)));
                if (!start || !std::isdigit(static_cast<unsigned char>(o[i + 1]))) continue;
                const uint32_t n = std::min<uint32_t>(255, uint32_t(std::strtoul(o.c_str() + i + 1, nullptr, 10)));
                if (o[i] == 'R') max_reg = std::max(max_reg, n);
                if (o[i] == 'P') preds.insert(o[i + 1] - '0');
            }
        }
    }
    Temps t;
    t.pair = (max_reg + 2) & ~1u;   // above the kernel's own registers (and their pairs), even
    t.single = t.pair + 2;
    for (int p = 6; p >= 0; --p)
        if (!preds.count(p)) t.preds.push_back(p);
    t.uniform = max_ureg + 2;       // above the kernel's uniform registers and their pairs
    return t;
}

std::string guard_of(const std::string& g, const Temps& t) {
    if (g.empty() || g == "PT" || g == "UPT") return "";
    const bool neg = g[0] == '!';
    const std::string b = neg ? g.substr(1) : g;
    if (b == "PT" || b == "UPT") return "@!pt ";   // never: lowered below to a nop
    if (b.size() == 3 && b[0] == 'U' && b[1] == 'P' && b[2] >= '0' && b[2] <= '6') {   // UPn: its vector predicate
        const int p = t.uniform_pred(b[2] - '0');
        return p < 0 ? "?" : "@" + std::string(neg ? "!" : "") + "p" + std::to_string(p) + " ";
    }
    if (b.size() != 2 || b[0] != 'P' || b[1] < '0' || b[1] > '6') return "?";
    return "@" + std::string(neg ? "!" : "") + "p" + b.substr(1) + " ";
}

}  // namespace
}  // namespace low

using namespace low;

Lowered lower(const Kernel& k, const Env& env) {
    Lowered out;
    const Temps t = temporaries(k);
    out.regs = t.pair;   // the kernel's own registers (rounded up to a pair); temporaries add theirs
    out.kernel_regs = t.pair;
    std::map<std::string, std::string> alias;
    std::set<std::string> targets;
    for (const Inst& in : k.code)
        if ((in.opcode.rfind("BRA", 0) == 0 || in.opcode.rfind("CALL", 0) == 0 || in.opcode.rfind("BSSY", 0) == 0) && !in.operands.empty())
            targets.insert(in.operands.back());
    for (size_t i = 0; i < k.code.size(); ++i) {
        const Inst& in = k.code[i];
        char label[16];
        std::snprintf(label, sizeof label, "0x%x", in.addr);
        if (targets.count(label)) out.lines.push_back({std::string("L_") + label + ":", i});
        Ctx c{in, env, t, alias, split_dots(in.opcode), guard_of(in.guard, t), {}, {}};
        const Rule* r = find_rule(c.mods[0]);
        auto stub = env.stubs.find(in.opcode);
        if (stub == env.stubs.end()) stub = env.stubs.find(c.mods[0]);
        if (stub != env.stubs.end()) c.emit("nop");
        else if (!r) c.fail("no lowering for " + c.mods[0]);
        else if (c.guard == "@!pt ") { c.guard.clear(); c.emit("nop"); }
        else if (c.guard == "?") c.fail("a guard @" + in.guard + " without a spare predicate to hold it");
        else {
            try {
                r->lower(c);
            } catch (const std::logic_error&) {   // an operand number std::stoul cannot read
                c.fail("a malformed operand");
            }
        }
        if (!c.error.empty()) {
            out.unsupported.push_back({i, c.error});
            continue;
        }
        for (std::string& s : c.out) out.lines.push_back({std::move(s), i});
        if (c.used_temps) out.regs = t.single + kSlots;
        if (!in.operands.empty() && is_ureg(in.operands[0]) && c.mods[0] != "VOTEU" && c.mods[0] != "UFLO" && c.mods[0] != "REDUX")
            alias.erase(in.operands[0]);
    }
    return out;
}

std::string markdown_rules() {
    std::ostringstream os;
    os << "| SASS | trace | notes |\n|---|---|---|\n";
    for (const Rule& r : kRules) os << "| `" << r.sass << "` | " << r.trace << " | " << r.note << " |\n";
    return os.str();
}

}  // namespace simt::isa::sass
