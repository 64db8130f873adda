// lower_int.cpp: the integer, compare, predicate and carry families of the SASS table (see lower_ctx.hpp).
#include "isa/sass/lower_ctx.hpp"

#include <cstring>

namespace simt::isa::sass::low {

namespace {

const std::map<std::string, std::string> kCmp = {{"LT", "lt"}, {"LE", "le"}, {"GT", "gt"}, {"GE", "ge"},
                                                 {"EQ", "eq"}, {"NE", "ne"}, {"NEU", "ne"}};

// The unordered fp compares (true when either operand is NaN) as the negated ordered opposite.
const std::map<std::string, std::string> kUnorderedNot = {{"LTU", "ge"}, {"LEU", "gt"}, {"GTU", "le"}, {"GEU", "lt"}};

// Pd = s BOOL q (s a temporary predicate holding the compare).
void combine(Ctx& c, const std::string& d, const std::string& s, const std::string& q, const std::string& boolop) {
    if ((q == "pt" && boolop == "AND") || (q == "!pt" && boolop != "AND")) return c.emit("pand " + d + ", " + s + ", pt");
    c.emit(std::string(boolop == "AND" ? "pand " : boolop == "OR" ? "por " : "pxor ") + d + ", " + s + ", " + q);
}

// ISETP.CMP[.U32].BOOL.EX Pd, PT, ahi, bhi, Pc, Plo: the high words of a 64-bit compare whose low
// words gave Plo (the same CMP, unsigned): hi strictly CMP, or hi equal and Plo (EQ: and; NE: or).
void setp_ex(Ctx& c, const std::string& cmp, const std::string& boolop) {
    if (c.n() != 6 || c.raw(1) != "PT") return c.fail("unexpected form of a 64-bit compare");
    const std::string d = c.pred(0), a = c.value(2), b = c.value(3), q = c.pred(4), lo = c.pred(5);
    if (d == "pt") return c.emit("nop");
    const std::string s = c.tmp_pred(0);
    if (cmp == "eq" || cmp == "ne") {
        c.emit("isetp." + cmp + " " + s + ", " + a + ", " + b);
        c.emit((cmp == "eq" ? "pand " : "por ") + s + ", " + s + ", " + lo);
    } else {
        const std::string s2 = c.tmp_pred(1), strict = cmp == "ge" ? "gt" : cmp == "le" ? "lt" : cmp;
        c.emit("isetp.eq " + s + ", " + a + ", " + b);
        c.emit("pand " + s + ", " + s + ", " + lo);
        c.emit((c.has("U32") ? "usetp." : "isetp.") + strict + " " + s2 + ", " + a + ", " + b);
        c.emit("por " + s + ", " + s + ", " + s2);
    }
    combine(c, d, s, q, boolop);
}

}  // namespace

// ISETP/FSETP.CMP[.U32].BOOL Pd, PT, a, b, Pc: Pd = (a CMP b) BOOL Pc.
void setp(Ctx& c) {
    const bool fp = c.mods[0] == "FSETP";
    std::string cmp, boolop;
    for (size_t i = 1; i < c.mods.size(); ++i) {
        if (kCmp.count(c.mods[i]) && cmp.empty()) cmp = kCmp.at(c.mods[i]);
        else if (fp && kUnorderedNot.count(c.mods[i]) && cmp.empty()) cmp = "!" + kUnorderedNot.at(c.mods[i]);
        else if (c.mods[i] == "AND" || c.mods[i] == "OR" || c.mods[i] == "XOR") boolop = c.mods[i];
        else if (c.mods[i] != "U32" && c.mods[i] != "FTZ" && c.mods[i] != "EX") return c.fail("modifier ." + c.mods[i]);
    }
    if (!cmp.empty() && !boolop.empty() && c.has("EX") && !fp) return setp_ex(c, cmp, boolop);
    if (cmp.empty() || boolop.empty() || c.n() != 5) return c.fail("unexpected form");
    if (c.raw(1) != "PT") return c.fail("a second predicate destination");
    if (cmp[0] == '!') {   // GEU ...: d = !(a lt b) BOOL q, the compare in a spare predicate
        const std::string d = c.pred(0), a = c.value(2, true), b = c.value(3, true), q = c.pred(4);
        if (d == "pt") return c.emit("nop");
        const std::string s = c.tmp_pred(0);
        c.emit("fsetp." + cmp.substr(1) + " " + s + ", " + a + ", " + b);
        return combine(c, d, "!" + s, q, boolop);
    }
    const std::string op = (fp ? "fsetp." : c.has("U32") ? "usetp." : "isetp.") + cmp;
    const std::string d = c.pred(0), a = c.value(2, fp), b = c.value(3, fp), q = c.pred(4);
    if (d == "pt") return c.emit("nop");
    const std::string comb = boolop == "AND" ? "pand" : boolop == "OR" ? "por" : "pxor";
    if ((q == "pt" && boolop == "AND") || (q == "!pt" && boolop != "AND")) return c.emit(op + " " + d + ", " + a + ", " + b);
    const std::string qbase = q[0] == '!' ? q.substr(1) : q;
    if (qbase != d) {
        c.emit(op + " " + d + ", " + a + ", " + b);
        return c.emit(comb + " " + d + ", " + d + ", " + q);
    }
    if (c.guard.empty() && q == d && boolop != "XOR") {   // d = cmp AND d: only where d holds (OR: where it does not)
        c.guard = (boolop == "AND" ? "@" : "@!") + d + " ";
        return c.emit(op + " " + d + ", " + a + ", " + b);
    }
    const std::string s = c.tmp_pred();
    c.emit(op + " " + s + ", " + a + ", " + b);
    c.emit(comb + " " + d + ", " + s + ", " + q);
}

namespace {

// Pc = the 64-bit sum in the pair rT:rT+1 is below the pair addend lo:hi (unsigned): the add's carry-out.
void carry_of_pair_sum(Ctx& c, const std::string& pc, const std::string& t_lo, const std::string& t_hi,
                       const std::string& lo, const std::string& hi) {
    const std::string s = c.tmp_pred(0);
    c.emit("usetp.lt " + pc + ", " + t_lo + ", " + lo);
    c.emit("isetp.eq " + s + ", " + t_hi + ", " + hi);
    c.emit("pand " + pc + ", " + s + ", " + pc);
    c.emit("usetp.lt " + s + ", " + t_hi + ", " + hi);
    c.emit("por " + pc + ", " + pc + ", " + s);
}

// The next register's name ("r12" -> "r13").
std::string next_reg(const std::string& r) { return "r" + std::to_string(std::stoul(r.substr(1)) + 1); }

// IMAD.HI[.U32] d, [Pco,] a, b, c: the high word of a * b + the 64-bit pair c:c+1 (c = RZ: 0), as
// imad.wide into the temporary pair; a carry-out of that 64-bit add by carry_of_pair_sum.
void imad_hi(Ctx& c) {
    const CarryForm f = carry_form(c);
    if (f.values.size() != 3 || f.outs.size() > 1 || !f.ins.empty()) return c.fail("this IMAD.HI form");
    const bool u = c.has("U32");
    const std::string d = c.reg(0), a = c.value(f.values[0]), b = c.value(f.values[1]);
    const std::string add = strip_reuse(c.raw(f.values[2]));
    if (add == "RZ") {
        c.emit((u ? "imad.hi.u32 " : "imad.hi ") + d + ", " + a + ", " + b + ", 0");
        if (!f.outs.empty()) c.emit("pxor " + c.pred(f.outs[0]) + ", pt, pt");   // a * b + 0 never carries
        return;
    }
    if (!is_reg(add) || std::stoul(add.substr(1)) % 2) return c.fail("an IMAD.HI addend other than RZ or an even register pair");
    if (!f.outs.empty() && !u) return c.fail("a carry-out of a signed IMAD.HI");
    const std::string t = "r" + std::to_string(c.t.pair), lo = lower_word(add);
    c.used_temps = true;
    c.emit((u ? "imad.wide.u32 " : "imad.wide ") + t + ", " + a + ", " + b + ", " + lo);
    if (!f.outs.empty()) carry_of_pair_sum(c, c.pred(f.outs[0]), t, next_reg(t), lo, next_reg(lo));
    c.emit("mov " + d + ", " + next_reg(t));
}

// IMAD.WIDE.U32 d, Pco, a, b, c: a * b + the pair c, its carry-out (c a register pair).
void imad_wide_carry(Ctx& c, const CarryForm& f) {
    const std::string add = strip_reuse(c.raw(f.values[2]));
    if (f.values.size() != 3 || f.outs.size() != 1 || !f.ins.empty() || !c.has("U32")) return c.fail("this IMAD.WIDE carry form");
    const std::string d = c.reg(0), a = c.value(f.values[0]), b = c.value(f.values[1]), pc = c.pred(f.outs[0]);
    if (add == "RZ") {
        c.emit("imad.wide.u32 " + d + ", " + a + ", " + b + ", 0");
        return c.emit("pxor " + pc + ", pt, pt");
    }
    if (!is_reg(add)) return c.fail("this IMAD.WIDE carry form");
    const std::string t = "r" + std::to_string(c.t.pair), lo = lower_word(add);
    c.used_temps = true;
    c.emit("imad.wide.u32 " + t + ", " + a + ", " + b + ", " + lo);
    carry_of_pair_sum(c, pc, t, next_reg(t), lo, next_reg(lo));
    c.emit("mov " + d + ", " + t);
    c.emit("mov " + next_reg(d) + ", " + next_reg(t));
}

}  // namespace

void imad(Ctx& c) {
    if (c.has("HI")) return imad_hi(c);
    if (c.has("WIDE") && !carry_form(c).outs.empty()) return imad_wide_carry(c, carry_form(c));
    if (c.has("X")) {   // IMAD.X d, a, b, c, Pci: the high word of a 64-bit multiply-add chain
        const CarryForm f = carry_form(c);
        if (!f.outs.empty() || f.values.size() != 3 || c.has("WIDE") || c.has("HI")) return c.fail("this IMAD.X form");
        const std::string d = c.reg(0);
        c.emit("imad " + d + ", " + c.value(f.values[0]) + ", " + c.value(f.values[1]) + ", " + c.value(f.values[2]));
        return carry_in(c, d, f.ins);
    }
    if (c.has("WIDE")) {
        const std::string op = c.has("U32") ? "imad.wide.u32 " : "imad.wide ";
        const std::string d = c.reg(0), a = c.value(1), b = c.value(2);
        std::string add = strip_reuse(c.n() > 3 ? c.raw(3) : "RZ");
        if (is_reg(add)) return c.emit(op + d + ", " + a + ", " + b + ", " + lower_word(add));
        // a uniform pair URn:URn+1, a constant pair (c[0x0][X]) or RZ: the addend through the temporary pair
        std::string lo = "0", hi = "0";
        if (is_ureg(add)) {
            lo = lower_word(add), hi = "ur" + std::to_string(std::stoul(add.substr(2)) + 1);
        } else if (add != "RZ" && add != "URZ") {
            uint32_t off = 0;
            if (!cbank_offset(add, off)) return c.fail("an addend " + add);
            lo = c.env.cbank(off), hi = c.env.cbank(off + 4);
            if (lo.empty() || hi.empty()) return c.fail("reads " + add + ", which is not a kernel parameter");
        }
        const uint32_t t = c.t.pair;
        c.used_temps = true;
        c.emit("mov r" + std::to_string(t) + ", " + lo);
        c.emit("mov r" + std::to_string(t + 1) + ", " + hi);
        return c.emit(op + d + ", " + a + ", " + b + ", r" + std::to_string(t));
    }
    const std::string d = c.reg(0);
    if (c.has("MOV")) return c.emit("imad " + d + ", 0, 0, " + c.value(3));
    c.emit("imad " + d + ", " + c.value(1) + ", " + c.value(2) + ", " + c.value(3));
}

namespace {

// IADD3 d, P1, [P2,] a, b, c: three nonzero sources, the carry of (a + b) in P1 and of (+ c) in P2
// (one carry-out: their or, exact where the sum carries at most once, as the compiler ensures).
void iadd3_two_carries(Ctx& c, const CarryForm& f, const std::string* v, int negated) {
    if (negated >= 0) return c.fail("a negated source with a carry-out of three sources");
    const std::string t = c.tmp(), sum = "r" + std::to_string(c.t.pair), d = c.reg(0);
    const std::string p1 = c.pred(f.outs[0]), p2 = f.outs.size() == 2 ? c.pred(f.outs[1]) : c.tmp_pred(0);
    c.emit("iadd3 " + t + ", " + v[0] + ", " + v[1] + ", 0");
    c.emit("usetp.lt " + p1 + ", " + t + ", " + v[0]);
    c.emit("iadd3 " + sum + ", " + t + ", " + v[2] + ", 0");
    c.emit("usetp.lt " + p2 + ", " + sum + ", " + t);
    if (f.outs.size() == 1) c.emit("por " + p1 + ", " + p1 + ", " + p2);
    c.emit("mov " + d + ", " + sum);
}

}  // namespace

// IADD3[.X] d, [Pco,] a, b, c[, Pci, Pci]: a negated source goes through isub (one at most); a
// carry-out (one source 0) is (x + y) <u x, or y >=u x for y - x; carry-ins add 1 each.
void iadd3(Ctx& c) {
    const CarryForm f = carry_form(c);
    if (f.values.size() != 3 || f.outs.size() > 2 || (!f.outs.empty() && !f.ins.empty())) return c.fail("this carry form");
    std::string v[3];
    int negated = -1;
    for (int i = 0; i < 3; ++i) {
        const std::string r = strip_reuse(c.raw(f.values[size_t(i)]));
        if (r.size() > 1 && r[0] == '-' && (is_reg(r.substr(1)) || is_ureg(r.substr(1)))) {
            if (negated >= 0 || c.has("X")) return c.fail("negated sources in a carry chain");
            negated = i;
            v[i] = lower_word(r.substr(1));
        } else {
            v[i] = c.value(f.values[size_t(i)]);
        }
    }
    const std::string d = c.reg(0);
    if (!f.outs.empty()) {
        std::vector<std::string> rest;   // the two sources other than one zero
        int zero = -1;
        for (int i = 0; i < 3; ++i) (zero < 0 && v[i] == "0" && i != negated) ? void(zero = i) : rest.push_back(v[i]);
        if (zero < 0 || f.outs.size() == 2) return iadd3_two_carries(c, f, v, negated);
        const std::string t = c.tmp(), pc = c.pred(f.outs[0]);
        if (negated >= 0) {
            const std::string x = v[negated], y = rest[0] == x ? rest[1] : rest[0];
            c.emit("isub " + t + ", " + y + ", " + x);
            c.emit("usetp.ge " + pc + ", " + y + ", " + x);
        } else {
            c.emit("iadd3 " + t + ", " + rest[0] + ", " + rest[1] + ", 0");
            c.emit("usetp.lt " + pc + ", " + t + ", " + rest[0]);
        }
        return c.emit("mov " + d + ", " + t);
    }
    if (negated >= 0) {
        const std::string t = c.tmp();
        c.emit("isub " + t + ", 0, " + v[negated]);
        v[negated] = t;
    }
    c.emit("iadd3 " + d + ", " + v[0] + ", " + v[1] + ", " + v[2]);
    carry_in(c, d, f.ins);
}

// LEA d, [Pco,] a, b, sh: (a << sh) + b, its carry (a << sh) + b <u (a << sh).
// LEA.HI[.X][.SX32] d, a, b, [c,] sh[, Pci]: lea.hi (.SX32: c is a's sign word) plus the carry-in.
void lea(Ctx& c) {
    const CarryForm f = carry_form(c);
    const std::string d = c.reg(0);
    if (c.has("HI")) {
        if (!f.outs.empty()) return c.fail("a carry-out of LEA.HI");
        std::string hi;
        if (c.has("SX32")) {
            if (f.values.size() != 3) return c.fail("unexpected form");
            hi = c.tmp();
            c.emit("sar " + hi + ", " + c.value(f.values[0]) + ", 31");
            c.emit("lea.hi " + d + ", " + c.value(f.values[0]) + ", " + c.value(f.values[1]) + ", " + hi + ", " + c.value(f.values[2]));
        } else {
            if (f.values.size() != 4) return c.fail("unexpected form");
            c.emit("lea.hi " + d + ", " + c.value(f.values[0]) + ", " + c.value(f.values[1]) + ", " + c.value(f.values[2]) + ", " +
                   c.value(f.values[3]));
        }
        return carry_in(c, d, f.ins);
    }
    if (f.values.size() != 3 || f.outs.size() > 1 || !f.ins.empty()) return c.fail("unexpected form");
    if (f.outs.empty()) return c.emit("lea " + d + ", " + c.value(f.values[0]) + ", " + c.value(f.values[1]) + ", " + c.value(f.values[2]));
    const std::string t = c.tmp(), sum = "r" + std::to_string(c.t.pair);
    c.emit("shl " + t + ", " + c.value(f.values[0]) + ", " + c.value(f.values[2]));
    c.emit("iadd3 " + sum + ", " + t + ", " + c.value(f.values[1]) + ", 0");
    c.emit("usetp.lt " + c.pred(f.outs[0]) + ", " + sum + ", " + t);
    c.emit("mov " + d + ", " + sum);
}

void lop3(Ctx& c) {
    if (c.n() == 7) {   // LOP3.LUT Pd, Rd, a, b, c, lut, PT: also Pd = result != 0
        const std::string rd = strip_reuse(c.raw(1)) == "RZ" ? c.tmp() : c.reg(1);
        c.emit("lop3 " + rd + ", " + c.value(2) + ", " + c.value(3) + ", " + c.value(4) + ", " + c.value(5));
        return c.emit("isetp.ne " + c.pred(0) + ", " + rd + ", 0");
    }
    if (c.n() != 6) return c.fail("unexpected form");
    c.emit("lop3 " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2) + ", " + c.value(3) + ", " + c.value(4));
}

namespace {

// The predicate instruction computing `d` = f(x, y) for the 2-input truth table t (bit 2x + y).
std::string pred_function(const std::string& d, const std::string& x, const std::string& y, uint32_t t) {
    auto neg = [](const std::string& p) { return p[0] == '!' ? p.substr(1) : "!" + p; };
    switch (t & 0xf) {
    case 0x0: return "pxor " + d + ", pt, pt";
    case 0xf: return "pand " + d + ", pt, pt";
    case 0x8: return "pand " + d + ", " + x + ", " + y;
    case 0x4: return "pand " + d + ", " + x + ", " + neg(y);
    case 0x2: return "pand " + d + ", " + neg(x) + ", " + y;
    case 0x1: return "pand " + d + ", " + neg(x) + ", " + neg(y);
    case 0xe: return "por " + d + ", " + x + ", " + y;
    case 0xd: return "por " + d + ", " + x + ", " + neg(y);
    case 0xb: return "por " + d + ", " + neg(x) + ", " + y;
    case 0x7: return "por " + d + ", " + neg(x) + ", " + neg(y);
    case 0x6: return "pxor " + d + ", " + x + ", " + y;
    case 0x9: return "pxor " + d + ", " + x + ", " + neg(y);
    case 0xc: return "pand " + d + ", " + x + ", pt";
    case 0x3: return "pand " + d + ", " + neg(x) + ", pt";
    case 0xa: return "pand " + d + ", " + y + ", pt";
    default: return "pand " + d + ", " + neg(y) + ", pt";   // 0x5
    }
}

// PLOP3 of three predicates: each as all ones or zeros in a register (`sel`), then the table itself
// (`lop3`: the same bit order) and `isetp.ne`; exact for any table, the destination written last.
void plop3_three(Ctx& c, const std::string& d, uint32_t lut) {
    const std::string r[3] = {"r" + std::to_string(c.t.pair), "r" + std::to_string(c.t.pair + 1), c.tmp()};
    for (size_t i = 0; i < 3; ++i) c.emit("sel " + r[i] + ", 0xffffffff, 0, " + c.pred(2 + i));
    char table[8];
    std::snprintf(table, sizeof table, "0x%02x", lut & 0xff);
    c.emit("lop3 " + r[0] + ", " + r[0] + ", " + r[1] + ", " + r[2] + ", " + table);
    c.emit("isetp.ne " + d + ", " + r[0] + ", 0");
}

}  // namespace

// PLOP3.LUT Pd, Pe, a, b, c, LUT, LUT2: Pd = LUT(a, b, c) as LOP3's (bit 4a + 2b + c), Pe by LUT2.
// The constant sources (PT, !PT) are folded into one pand/por/pxor where at most two predicates are
// left; three go through registers (plop3_three).
void plop3(Ctx& c) {
    if (c.n() != 7) return c.fail("unexpected form");
    const std::string dst[2] = {c.pred(0), c.pred(1)};
    const uint32_t luts[2] = {uint32_t(std::stoul(c.raw(5), nullptr, 16)), uint32_t(std::stoul(c.raw(6), nullptr, 16))};
    if (dst[0] != "pt" && dst[1] != "pt") return c.fail("two predicate destinations");
    const int which = dst[0] != "pt" ? 0 : 1;
    if (dst[which] == "pt") return c.emit("nop");
    std::vector<std::string> vars;   // the non-constant sources, a, b, c order
    int fixed[3] = {-1, -1, -1};     // 1 / 0 for PT / !PT
    for (int i = 0; i < 3; ++i) {
        const std::string p = c.pred(size_t(2 + i));
        if (p == "pt" || p == "!pt") fixed[i] = p == "pt";
        else vars.push_back(p);
    }
    if (vars.size() > 2) return plop3_three(c, dst[which], luts[which]);
    uint32_t t = 0;   // the table over (x, y) = the free sources in order
    for (uint32_t xy = 0; xy < 4; ++xy) {
        uint32_t bitsel = 0, v = 0;
        for (int i = 0; i < 3; ++i) {
            const uint32_t val = fixed[i] >= 0 ? uint32_t(fixed[i]) : vars.size() == 2 && v == 0 ? (xy >> 1) & 1 : xy & 1;
            if (fixed[i] < 0) ++v;
            bitsel |= val << (2 - i);
        }
        t |= ((luts[which] >> bitsel) & 1) << xy;
    }
    const std::string x = vars.size() > 0 ? vars[0] : "pt", y = vars.size() > 1 ? vars[1] : "pt";
    if (vars.size() == 1) t = (t & 2 ? 0xc : 0) | (t & 1 ? 0x3 : 0);   // f(x) only: bit 2x + y for both y
    else if (vars.empty()) t = t & 1 ? 0xf : 0;
    c.emit(pred_function(dst[which], x, y, t));
}

// P2R d, PR, RZ, mask: bit i of d is P_i for the bits of mask (P0..P6), 0 elsewhere.
void p2r(Ctx& c) {
    if (c.n() != 4 || c.raw(1) != "PR" || c.raw(2) != "RZ") return c.fail("unexpected form");
    const uint32_t mask = uint32_t(std::stoul(c.raw(3), nullptr, 16));
    if (mask == 0 || mask > 0x7f) return c.fail("a P2R mask of " + c.raw(3));
    const std::string d = c.reg(0), t = c.tmp();
    bool first = true;
    for (uint32_t i = 0; i < 7; ++i) {
        if (!(mask >> i & 1)) continue;
        c.emit("sel " + (first ? d : t) + ", " + std::to_string(1u << i) + ", 0, p" + std::to_string(i));
        if (!first) c.emit("or " + d + ", " + d + ", " + t);
        first = false;
    }
}

// VIADDMNMX[.U32] d, a, b, c, PT|!PT: min (PT) or max (!PT) of a + b and c.
void viaddmnmx(Ctx& c) {
    if (c.n() != 5) return c.fail("unexpected form");
    const std::string p = c.pred(4);
    if (p != "pt" && p != "!pt") return c.fail("a predicate-selected min/max");
    const std::string d = c.reg(0), t = c.tmp();
    c.emit("iadd " + t + ", " + c.value(1) + ", " + c.value(2));
    c.emit(std::string(c.has("U32") ? "u" : "i") + (p == "pt" ? "min " : "max ") + d + ", " + t + ", " + c.value(3));
}

// SGXT[.U32] d, a, n: the low n bits of a, sign- (SGXT) or zero-extended (.U32).
void sgxt(Ctx& c) {
    if (c.n() != 3 || !std::isdigit(static_cast<unsigned char>(c.raw(2)[0]))) return c.fail("unexpected form");
    const uint32_t n = uint32_t(std::stoul(c.raw(2), nullptr, 0));
    if (n == 0 || n > 32) return c.fail("a width of " + c.raw(2));
    const std::string d = c.reg(0), a = c.value(1);
    if (c.has("U32")) return c.emit("bfe " + d + ", " + a + ", " + std::to_string(n << 8));
    const std::string t = c.tmp(), sh = std::to_string(32 - n);
    c.emit("shl " + t + ", " + a + ", " + sh);
    c.emit("sar " + d + ", " + t + ", " + sh);
}

// SHF.{L,R}.{U32,S32,U64}[.HI] d, lo, sh, hi: the funnel shifts the compiler uses.
void shf(Ctx& c) {
    if (c.n() != 4) return c.fail("unexpected form");
    const std::string d = c.reg(0), lo = c.value(1), sh = c.value(2), hi = c.value(3);
    const bool left = c.has("L"), hiword = c.has("HI");
    // .W wraps the shift amount (mod 32), as the trace's shifts do: the forms below are exact for it;
    // without .W a shift register of 32 or more clamps (the compiler gives immediates below 32 there)
    if (c.has("W") && !((left && !hiword) || (!left && hiword))) return c.fail("this wrapping funnel shift (.W)");
    if (left && !hiword && (hi == "0" || c.has("U32"))) return c.emit("shl " + d + ", " + lo + ", " + sh);
    if (!left && hiword && c.has("S32")) return c.emit("sar " + d + ", " + hi + ", " + sh);
    if (!left && hiword && c.has("U32")) return c.emit("shr " + d + ", " + hi + ", " + sh);
    if (left && hiword && std::isdigit(static_cast<unsigned char>(sh[0]))) return c.emit("lea.hi " + d + ", " + lo + ", 0, " + hi + ", " + sh);
    if (!left && !hiword && c.has("U64") && std::isdigit(static_cast<unsigned char>(sh[0]))) {   // low word of (hi:lo) >> sh
        const unsigned long n = std::stoul(sh, nullptr, 0);
        if (n == 0 || n >= 32) return c.fail("a 64-bit shift by " + sh);
        return c.emit("lea.hi " + d + ", " + lo + ", 0, " + hi + ", " + std::to_string(32 - n));
    }
    c.fail("this funnel-shift form");
}

void mov(Ctx& c) { c.emit("mov " + c.reg(0) + ", " + c.value(1)); }

void imnmx(Ctx& c) {
    const std::string p = c.pred(3);
    if (p != "pt" && p != "!pt") return c.fail("a predicate-selected min/max");
    const std::string u = c.has("U32") ? "u" : "i";
    c.emit(u + (p == "pt" ? "min " : "max ") + c.reg(0) + ", " + c.value(1) + ", " + c.value(2));
}

namespace {

// An FSEL source with a modifier (-x, |x|, -|x|: sinf's FSEL R6, R2, -R2, !P2) as its bits in a
// temporary: the sign flipped, cleared or set (a select moves bits; no fp arithmetic).
std::string fsel_source(Ctx& c, size_t i, uint32_t slot) {
    const std::string v = c.value(i, true);
    if (v.empty() || (v[0] != '-' && v[0] != '|')) return v;
    const bool neg = v[0] == '-';
    std::string r = neg ? v.substr(1) : v;
    const bool abs = r.size() > 2 && r.front() == '|' && r.back() == '|';
    if (abs) r = r.substr(1, r.size() - 2);
    const std::string t = c.tmp(slot);
    if (neg && abs) c.emit("or " + t + ", " + r + ", 0x80000000");
    else if (abs) c.emit("and " + t + ", " + r + ", 0x7fffffff");
    else c.emit("xor " + t + ", " + r + ", 0x80000000");
    return t;
}

}  // namespace

void sel(Ctx& c) {
    if (c.mods[0] == "FSEL") {
        const std::string a = fsel_source(c, 1, kNot0), b = fsel_source(c, 2, kNot1);
        return c.emit("sel " + c.reg(0) + ", " + a + ", " + b + ", " + c.pred(3));
    }
    c.emit("sel " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2) + ", " + c.pred(3));
}

void unary(Ctx& c) {
    const std::string m = c.mods[0] == "FLO" ? "flo" : lower_word(c.mods[0]);
    if (c.mods[0] == "FLO" && !c.has("U32")) return c.fail("signed FLO");
    c.emit(m + " " + c.reg(0) + ", " + c.value(c.n() - 1));
}

void prmt(Ctx& c) {
    if (c.mods.size() > 1) return c.fail("a PRMT mode");
    c.emit("prmt " + c.reg(0) + ", " + c.value(1) + ", " + c.value(3) + ", " + c.value(2));
}

// IABS d, a: max(a, 0 - a) (IABS of INT_MIN is INT_MIN, as imax gives).
void iabs(Ctx& c) {
    if (c.n() != 2) return c.fail("unexpected form");
    const std::string a = c.value(1), t = c.tmp();
    c.emit("isub " + t + ", 0, " + a);
    c.emit("imax " + c.reg(0) + ", " + a + ", " + t);
}

void viadd(Ctx& c) { c.emit("iadd " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2)); }

}  // namespace simt::isa::sass::low
