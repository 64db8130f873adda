// lower.cpp: the SASS -> trace mapping table and its lowering functions (see lower.hpp).
#include "isa/sass/lower.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>

namespace simt::isa::sass {
namespace {

// Temporaries above the kernel's registers: the pair rT:rT+1, then single rT+2 and its slots.
enum Slot : uint32_t { kTmp = 0, kVoteAlias = 1, kReduxAlias = 2, kNegated = 3, kNot0 = 4, kNot1 = 5, kSlots = 6 };

struct Temps {
    uint32_t pair = 0;   // rT:rT+1 (even)
    uint32_t single = 0; // rT+2
    std::vector<int> preds;   // predicates the kernel never names
    uint32_t uniform = 0;     // a uniform register above the kernel's (urU)
    // The vector predicate holding the uniform predicate UPn (the same value in every lane; the spare
    // predicates after the first, which the sequences' temporaries take), or -1.
    int uniform_pred(int n) const { return size_t(n) + 1 < preds.size() ? preds[size_t(n) + 1] : -1; }
};

// One instruction being lowered: its parts, the emitted lines, the first failure.
struct Ctx {
    const Inst& in;
    const Env& env;
    const Temps& t;
    std::map<std::string, std::string>& alias;   // uniform registers a warp collective wrote, kept in a vector register
    std::vector<std::string> mods;   // opcode split at '.', mods[0] the base
    std::string guard;               // "@p0 " or ""
    std::vector<std::string> out;
    std::string error;

    bool has(const char* m) const { return std::find(mods.begin() + 1, mods.end(), m) != mods.end(); }
    size_t n() const { return in.operands.size(); }
    const std::string& raw(size_t i) const { return in.operands[i]; }
    void fail(const std::string& why) { if (error.empty()) error = why; }
    void emit(const std::string& s) { out.push_back(guard + s); }
    std::string value(size_t i, bool fp = false);
    std::string bitwise_not(const std::string& s, bool fp);
    std::string pred(size_t i);
    std::string reg(size_t i);
    std::string mem(size_t i, bool flat_ok, bool shared = false);
    bool used_temps = false;
    bool negated_source = false;   // an integer source -Rx already took the negation temporary
    uint32_t nots = 0;             // integer sources ~Rx, each in its own temporary
    std::string tmp(uint32_t slot = kTmp) { used_temps = true; return "r" + std::to_string(t.single + slot); }
    std::string tmp_pred(size_t k = 0) {
        if (k >= t.preds.size()) fail("needs a spare predicate and the kernel uses all of P0..P6");
        return "p" + std::to_string(k < t.preds.size() ? t.preds[k] : 0);
    }
    std::string tmp_uniform() {
        if (t.uniform >= 63) fail("needs a spare uniform register and the kernel uses UR62");
        return "ur" + std::to_string(std::min<uint32_t>(t.uniform, 62));
    }
};

std::string strip_reuse(std::string s) {
    const size_t p = s.find(".reuse");
    if (p != std::string::npos) s.erase(p, 6);
    return s;
}

bool is_reg(const std::string& s) { return s.size() > 1 && s[0] == 'R' && std::isdigit(static_cast<unsigned char>(s[1])); }
bool is_ureg(const std::string& s) { return s.size() > 2 && s[0] == 'U' && s[1] == 'R' && std::isdigit(static_cast<unsigned char>(s[2])); }

std::string lower_word(const std::string& s) {
    std::string r = s;
    for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

// A SASS float immediate ("1", "-2", "0.5", "1.2e-06", "+INF", "-QNAN") as its fp32 bits in hex.
bool float_bits(const std::string& s, std::string& out) {
    float f;
    if (s == "+INF" || s == "INF") f = INFINITY;
    else if (s == "-INF") f = -INFINITY;
    else if (s.find("NAN") != std::string::npos) f = s[0] == '-' ? -NAN : NAN;
    else {
        char* end = nullptr;
        f = std::strtof(s.c_str(), &end);
        if (!end || *end) return false;
    }
    uint32_t b;
    std::memcpy(&b, &f, 4);
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", b);
    out = buf;
    return true;
}

std::string special(const std::string& s) {
    static const std::map<std::string, std::string> m = {
        {"SR_TID.X", "%tid.x"}, {"SR_TID.Y", "%tid.y"}, {"SR_TID.Z", "%tid.z"},
        {"SR_CTAID.X", "%ctaid.x"}, {"SR_CTAID.Y", "%ctaid.y"}, {"SR_CTAID.Z", "%ctaid.z"},
        {"SR_LANEID", "%laneid"}, {"SR_CgaCtaId", "0"}, {"SR_CLOCKLO", "%clock"}, {"SR_SMID", "%smid"}, {"SR_VIRTID", "%smid"}, {"SR_VIRTUALSMID", "%smid"},
    };
    auto it = m.find(s);
    return it == m.end() ? "" : it->second;
}

// The byte offset of "c[0x0][0x160]" (c[0x0][RZ] is 0); false for a register-indexed or other bank.
bool cbank_offset(const std::string& s, uint32_t& off) {
    if (s.rfind("c[0x0][", 0) != 0 || s.back() != ']') return false;
    const std::string inner = s.substr(7, s.size() - 8);
    if (inner == "RZ") { off = 0; return true; }
    if (inner.rfind("0x", 0) != 0 || inner.find_first_not_of("0123456789abcdefx") != std::string::npos) return false;
    off = uint32_t(std::stoul(inner, nullptr, 16));
    return true;
}

std::string Ctx::value(size_t i, bool fp) {
    if (i >= n()) { fail("expected more operands"); return "0"; }
    std::string s = strip_reuse(raw(i));
    std::string pre;
    if (s[0] == '~') return bitwise_not(s.substr(1), fp);
    if (s[0] == '-') pre = "-", s = s.substr(1);
    bool abs = s.size() > 2 && s.front() == '|' && s.back() == '|';
    if (abs) s = s.substr(1, s.size() - 2);
    if ((!pre.empty() || abs) && !fp && !(s[0] == '0' || std::isdigit(static_cast<unsigned char>(s[0])))) {
        if (abs || negated_source || !(is_reg(s) || is_ureg(s))) {
            fail("a negated or absolute integer operand '" + raw(i) + "'");
            return "0";
        }
        negated_source = true;   // -Rx of an integer instruction: 0 - Rx in its own temporary, first
        used_temps = true;
        const std::string t = "r" + std::to_string(this->t.single + kNegated);
        out.push_back(guard + "isub " + t + ", 0, " + lower_word(s));
        return t;
    }
    std::string v;
    if (s == "RZ" || s == "URZ") v = "0";
    else if (alias.count(s)) v = alias.at(s);
    else if (is_reg(s) || is_ureg(s)) v = lower_word(s);
    else if (s.rfind("c[", 0) == 0) {
        uint32_t off = 0;
        if (!cbank_offset(s, off)) { fail("a constant operand indexed by a register or in another bank: " + s); return "0"; }
        v = env.cbank(off);
        if (v.empty()) { fail("reads " + s + ", which is neither a kernel parameter nor a launch constant"); return "0"; }
    } else if (!special(s).empty()) v = special(s);
    else if (fp && std::isdigit(static_cast<unsigned char>(s[0])) == 0 && s != "INF" && s != "+INF" && s.find("NAN") == std::string::npos) {
        fail("unexpected operand '" + raw(i) + "'");
        return "0";
    } else if (fp) {
        if (!float_bits((s[0] == '+' ? s.substr(1) : s), v)) { fail("unreadable float '" + raw(i) + "'"); return "0"; }
    } else if (std::isdigit(static_cast<unsigned char>(s[0]))) v = s;
    else { fail("unexpected operand '" + raw(i) + "'"); return "0"; }
    if (abs) v = "|" + v + "|";
    if (!pre.empty() && fp) v = "-" + v;
    else if (!pre.empty()) v = "-" + v;
    return v;
}

// ~Rx (~URx, ~RZ) of an integer instruction: `not` into its own temporary first.
std::string Ctx::bitwise_not(const std::string& s, bool fp) {
    if (fp || !(s == "RZ" || s == "URZ" || is_reg(s) || is_ureg(s)) || nots >= 2) {
        fail("the operand '~" + s + "'");
        return "0";
    }
    if (s == "RZ" || s == "URZ") return "0xffffffff";
    const std::string t = tmp(nots++ ? kNot1 : kNot0);
    out.push_back(guard + "not " + t + ", " + (alias.count(s) ? alias.at(s) : lower_word(s)));
    return t;
}

std::string Ctx::pred(size_t i) {
    if (i >= n()) { fail("expected more operands"); return "pt"; }
    std::string s = raw(i);
    std::string neg = s[0] == '!' ? "!" : "";
    if (!neg.empty()) s = s.substr(1);
    if (s == "PT" || s == "UPT") return neg + "pt";
    if (s.size() == 2 && s[0] == 'P' && s[1] >= '0' && s[1] <= '6') return neg + "p" + s.substr(1);
    if (s.size() == 3 && s[0] == 'U' && s[1] == 'P' && s[2] >= '0' && s[2] <= '6') {
        const int p = t.uniform_pred(s[2] - '0');
        if (p >= 0) return neg + "p" + std::to_string(p);
        fail("needs a spare predicate for " + s + " and the kernel uses the others");
        return "pt";
    }
    fail("expected a predicate, found '" + raw(i) + "'");
    return "pt";
}

std::string Ctx::reg(size_t i) {
    if (i >= n()) { fail("expected more operands"); return "r0"; }
    const std::string s = strip_reuse(raw(i));
    if (is_reg(s) || is_ureg(s)) return lower_word(s);
    fail("expected a register, found '" + raw(i) + "'");
    return "r0";
}

// "[R2.64+0x10]", "desc[UR4][R2.64]", "[R21.X4+0x420]", "[R1+0xc]", "[0x10]".
std::string Ctx::mem(size_t i, bool flat_ok, bool shared) {
    if (i >= n()) { fail("expected a memory operand"); return "[0]"; }
    std::string s = raw(i);
    if (s.rfind("desc[", 0) == 0) s = s.substr(s.find(']') + 1);
    if (s.size() < 2 || s.front() != '[' || s.back() != ']') { fail("unexpected memory operand '" + raw(i) + "'"); return "[0]"; }
    s = s.substr(1, s.size() - 2);
    std::string base = s, off;
    const size_t plus = s.find_first_of("+-", 1);
    if (plus != std::string::npos) base = s.substr(0, plus), off = s.substr(plus);
    if (off.rfind("+-", 0) == 0) off = off.substr(1);   // "[R2.64+-0x4]": a negative offset
    if (shared && env.shared_base) {   // addresses in the shared window: the block's shared memory starts at shared_base
        const long long o = (off.empty() ? 0 : std::stoll(off, nullptr, 16)) - (long long)env.shared_base;
        off = (o < 0 ? "-" : "+") + std::to_string(o < 0 ? -o : o);
    }
    if (base.rfind("0x", 0) == 0) {
        const long long a = std::stoll(base, nullptr, 16) + (off.empty() ? 0 : std::stoll(off, nullptr, 0));
        return "[" + std::to_string(a) + "]";
    }
    std::string r = base;
    std::string scale;
    if (r.size() > 3 && r.compare(r.size() - 3, 3, ".64") == 0) {
        if (!flat_ok) { fail("a 64-bit address outside global memory"); return "[0]"; }
        r = lower_word(r.substr(0, r.size() - 3)) + ".64";
    } else if (r.find(".X") != std::string::npos) {
        scale = "*" + r.substr(r.find(".X") + 2);
        r = lower_word(r.substr(0, r.find(".X")));
    } else if (is_reg(r)) {
        if (flat_ok) { fail("a 32-bit global address"); return "[0]"; }
        r = lower_word(r);
    } else if (is_ureg(r) && !flat_ok) {   // [URx + off]: the uniform address through a vector temporary
        const std::string t = tmp();
        out.push_back(guard + "mov " + t + ", " + lower_word(r));
        r = t;
    } else { fail("unexpected memory operand '" + raw(i) + "'"); return "[0]"; }
    if (r == "rz") return "[" + (off.empty() ? std::string("0") : std::to_string(std::stoll(off, nullptr, 0))) + "]";
    if (!off.empty()) off = std::string(" ") + off[0] + " " + off.substr(1);
    return "[" + r + scale + off + "]";
}

// ---- lowering functions, one per family

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

bool is_pred_word(const std::string& s) {
    std::string b = s[0] == '!' ? s.substr(1) : s;
    if (b.rfind("UP", 0) == 0) b = b.substr(1);   // a uniform predicate UPn, UPT
    return b == "PT" || (b.size() == 2 && b[0] == 'P' && std::isdigit(static_cast<unsigned char>(b[1])));
}

// The operands of an instruction with carries: d, [carry-outs], values, [carry-ins] (IADD3, LEA, IMAD.X).
struct CarryForm {
    size_t dst = 0;
    std::vector<size_t> outs, values, ins;
};

CarryForm carry_form(const Ctx& c) {
    CarryForm f;
    size_t i = 1;
    while (i < c.n() && is_pred_word(c.raw(i))) f.outs.push_back(i++);
    while (i < c.n() && !is_pred_word(c.raw(i))) f.values.push_back(i++);
    while (i < c.n()) f.ins.push_back(i++);
    return f;
}

// Adds the carry-in predicates (operand indices `ins`) to d: `@P iadd d, d, 1` each.
void carry_in(Ctx& c, const std::string& d, const std::vector<size_t>& ins, bool uniform = false) {
    const std::string add1 = uniform ? "uiadd3 " + d + ", " + d + ", 1, 0" : "iadd " + d + ", " + d + ", 1";
    for (size_t i : ins) {
        const std::string p = c.pred(i);
        if (p == "!pt") continue;
        if (p == "pt") { c.emit(add1); continue; }
        const std::string saved = c.guard;
        if (!saved.empty()) {   // guarded: the carry applies where the guard and the carry hold
            const std::string s = c.tmp_pred();
            c.emit("pand " + s + ", " + saved.substr(1, saved.size() - 2) + ", " + p);
            c.guard = "@" + s + " ";
        } else {
            c.guard = "@" + p + " ";
        }
        c.emit(add1);
        c.guard = saved;
    }
}

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
        // a constant pair (c[0x0][X]) or RZ: the addend through the temporary pair
        std::string lo = "0", hi = "0";
        if (add != "RZ") {
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

// DADD/DMUL/DFMA on register pairs or fp64 immediates.
void fp64(Ctx& c) {
    const std::string m = lower_word(c.mods[0]);
    const size_t k = m == "dfma" ? 3 : 2;
    if (c.n() != k + 1 || c.mods.size() > 1) return c.fail("this fp64 form");
    std::string s = m + " " + c.reg(0);
    for (size_t i = 1; i <= k; ++i) {
        const std::string r = strip_reuse(c.raw(i));
        if (r == "RZ") s += ", 0.0";
        else if (is_reg(r)) s += ", " + lower_word(r);
        else if (is_ureg(r)) s += ", " + lower_word(r);   // a uniform pair URn:URn+1
        else if (std::isdigit(static_cast<unsigned char>(r[0])) && r.find("0x") != 0)
            s += ", " + r + (r.find_first_of(".e") == std::string::npos ? ".0" : "");
        else return c.fail("the fp64 operand '" + c.raw(i) + "'");
    }
    c.emit(s);
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

// PLOP3.LUT Pd, Pe, a, b, c, LUT, LUT2: Pd = LUT(a, b, c) as LOP3's (bit 4a + 2b + c), Pe by LUT2.
// The constant sources (PT, !PT) are folded; what is left must be a function of two predicates.
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
    if (vars.size() > 2) return c.fail("a PLOP3 of three predicates");
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
    if (op.empty()) return c.fail("this atomic operation");
    if (c.has("64")) return c.fail("64-bit atomics");
    if (c.has("F32")) op += ".f32";
    else if (c.has("U32") && (op == "min" || op == "max")) op += ".u32";
    const std::string head = (red ? "red." : "atom.") + std::string(shared ? "shared." : "global.") + op + " ";
    if (red) return c.emit(head + c.mem(0, !shared, shared) + ", " + c.value(1));
    const std::string d = strip_reuse(c.raw(0)) == "RZ" ? c.tmp() : c.reg(0);
    c.emit(head + d + ", " + c.mem(1, !shared, shared) + ", " + c.value(2) + (op == "cas" ? ", " + c.value(3) : ""));
}

void shfl(Ctx& c) {
    static const std::map<std::string, std::string> modes = {{"DOWN", "down"}, {"UP", "up"}, {"BFLY", "xor"}, {"IDX", "idx"}};
    if (c.n() != 5 || !modes.count(c.mods.size() > 1 ? c.mods[1] : "")) return c.fail("unexpected form");
    if (c.raw(0) != "PT") return c.fail("a shuffle's in-range predicate");
    c.emit("shfl." + modes.at(c.mods[1]) + " " + c.reg(1) + ", " + c.value(2) + ", " + c.value(3));
}

void vote(Ctx& c) {
    if (c.n() != 3) return c.fail("unexpected form");
    const std::string q = c.pred(2);
    if (strip_reuse(c.raw(0)) != "RZ") c.emit("vote.ballot " + c.reg(0) + ", " + q);
    if (c.raw(1) != "PT") c.emit((c.has("ALL") ? "vote.all " : "vote.any ") + c.pred(1) + ", " + q);
    if (c.out.empty()) c.emit("nop");
}

// ".rz", ".rm", ".rp" for a directed-rounding modifier (.RN and none: "").
std::string rounding(const Ctx& c) {
    return c.has("RZ") ? ".rz" : c.has("RM") ? ".rm" : c.has("RP") ? ".rp" : "";
}

void fp_arith(Ctx& c) {
    if (c.has("SAT")) return c.fail("saturation (.SAT)");
    const std::string m = lower_word(c.mods[0]) + rounding(c);
    const size_t k = c.mods[0] == "FFMA" ? 3 : 2;
    std::string s = m + " " + c.reg(0);
    for (size_t i = 1; i <= k; ++i) s += ", " + c.value(i, true);
    c.emit(s);
}

void fmnmx(Ctx& c) {
    const std::string p = c.pred(3);
    if (p != "pt" && p != "!pt") return c.fail("a predicate-selected min/max");
    c.emit(std::string(p == "pt" ? "fmin " : "fmax ") + c.reg(0) + ", " + c.value(1, true) + ", " + c.value(2, true));
}

void imnmx(Ctx& c) {
    const std::string p = c.pred(3);
    if (p != "pt" && p != "!pt") return c.fail("a predicate-selected min/max");
    const std::string u = c.has("U32") ? "u" : "i";
    c.emit(u + (p == "pt" ? "min " : "max ") + c.reg(0) + ", " + c.value(1) + ", " + c.value(2));
}

void sel(Ctx& c) {
    const bool fp = c.mods[0] == "FSEL";
    c.emit("sel " + c.reg(0) + ", " + c.value(1, fp) + ", " + c.value(2, fp) + ", " + c.pred(3));
}

// I2F with a 64-bit destination (.F64) or source (.S64/.U64): the conversions to and from pairs.
void i2f_wide(Ctx& c) {
    const bool u = c.has("U32") || c.has("U64"), wide_src = c.has("S64") || c.has("U64");
    if (!rounding(c).empty() && !(c.has("U64") && c.has("RP") && !c.has("F64"))) return c.fail("this rounding of a 64-bit conversion");
    if (c.has("F64")) return c.emit(std::string(wide_src ? (u ? "u2d.u64 " : "i2d.s64 ") : (u ? "u2d " : "i2d ")) + c.reg(0) + ", " + c.reg(1));
    c.emit(std::string(u ? "u2f.u64" : "i2f.s64") + (c.has("RP") ? ".rp " : " ") + c.reg(0) + ", " + c.reg(1));
}

void i2f(Ctx& c) {
    if (c.has("F16") || c.has("S16") || c.has("U16") || c.has("S8") || c.has("U8")) return c.fail("this conversion");
    if (c.mods[0] == "I2F" && (c.has("F64") || c.has("S64") || c.has("U64"))) return i2f_wide(c);
    if (c.has("F64") || c.has("S64") || c.has("U64")) return c.fail("this conversion");
    const bool u = c.has("U32");
    if (c.mods[0] == "I2FP") return c.emit((u ? "u2fp " : "i2fp ") + c.reg(0) + ", " + c.value(1));
    c.emit((u ? "u2f" : "i2f") + rounding(c) + " " + c.reg(0) + ", " + c.value(1));
}

void f2i(Ctx& c) {
    if (c.has("F64") || c.has("F16")) return c.fail("this conversion");
    if (c.has("U64") || c.has("S64")) return c.emit((c.has("U64") ? "f2u.u64 " : "f2i.s64 ") + c.reg(0) + ", " + c.value(1, true));
    c.emit((c.has("U32") ? "f2u " : "f2i ") + c.reg(0) + ", " + c.value(1, true));
}

// F2F.F32.F64 / F2F.F64.F32: between fp32 and fp64 (round to nearest).
void f2f(Ctx& c) {
    if (c.mods.size() < 3 || !rounding(c).empty()) return c.fail("this conversion");
    if (c.mods[1] == "F32" && c.mods[2] == "F64") return c.emit("d2f " + c.reg(0) + ", " + c.reg(1));
    if (c.mods[1] == "F64" && c.mods[2] == "F32") return c.emit("f2d " + c.reg(0) + ", " + c.value(1, true));
    c.fail("this conversion");
}

void mufu(Ctx& c) {
    static const std::map<std::string, std::string> f = {{"EX2", "ex2"}, {"LG2", "lg2"}, {"RSQ", "rsqrt"}, {"RCP", "rcp"},
                                                         {"SQRT", "sqrt"}, {"SIN", "sin"}, {"COS", "cos"}};
    if (c.mods.size() < 2 || !f.count(c.mods[1])) return c.fail("this MUFU function");
    const std::string fn = f.at(c.mods[1]);
    if (fn == "sin" || fn == "cos") return c.emit(fn + ".turns " + c.reg(0) + ", " + c.value(1, true));   // MUFU.SIN/COS take x / 2pi
    c.emit(fn + " " + c.reg(0) + ", " + c.value(1, true));
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

// HFMA2.MMA d, -RZ, RZ, h0, h1: the compiler's way to load a 32-bit constant as two halves.
void hfma2(Ctx& c) {
    if (c.n() != 5 || c.raw(1) != "-RZ" || c.raw(2) != "RZ") return c.fail("half-precision arithmetic");
    auto half = [&](const std::string& s) -> uint32_t {
        float f = std::strtof(s.c_str(), nullptr);
        if (s.find("INF") != std::string::npos) f = s[0] == '-' ? -INFINITY : INFINITY;
        uint32_t b;
        std::memcpy(&b, &f, 4);
        const uint32_t sign = (b >> 16) & 0x8000;
        int e = int((b >> 23) & 0xff) - 127 + 15;
        uint32_t m = b & 0x7fffff;
        if (f == 0) return sign;
        if (e >= 31) return sign | 0x7c00;
        if (e <= 0) {   // subnormal half
            m |= 0x800000;
            const uint32_t shift = uint32_t(14 - e);
            uint32_t r = m >> shift;
            if (((m >> (shift - 1)) & 1) && ((m & ((1u << (shift - 1)) - 1)) || (r & 1))) ++r;
            return sign | r;
        }
        uint32_t r = uint32_t(e) << 10 | m >> 13;
        if ((m & 0x1000) && ((m & 0xfff) || (r & 1))) ++r;
        return sign | r;
    };
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", half(c.raw(4)) | half(c.raw(3)) << 16);   // the first printed is the high half
    c.emit("mov " + c.reg(0) + ", " + buf);
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

void uniform_alu(Ctx& c) {
    const std::string& b = c.mods[0];
    if (b == "UMOV") return c.emit("umov " + c.reg(0) + ", " + c.value(1));
    if (b == "UIADD3") return uiadd3(c);
    if (b == "UIMAD" && c.mods.size() == 1) return c.emit("uimad " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2) + ", " + c.value(3));
    if (b == "ULOP3") return c.emit("ulop3 " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2) + ", " + c.value(3) + ", " + c.value(4));
    if (b == "USHF" && c.has("L") && !c.has("HI")) return c.emit("ushl " + c.reg(0) + ", " + c.value(1) + ", " + c.value(2));
    if (b == "USHF" && c.has("R") && c.has("HI") && c.n() == 4)   // the high word shifted right: usar / ushr
        return c.emit((c.has("S32") ? "usar " : "ushr ") + c.reg(0) + ", " + c.value(3) + ", " + c.value(2));
    if (b == "UIMAD" && c.has("WIDE") && c.has("U32") && c.n() == 4 && c.raw(3) == "URZ") {   // a * b as a uniform pair
        const std::string d = c.reg(0), a = c.value(1), x = c.value(2), t = c.tmp_uniform();
        c.emit("uimad.hi.u32 " + t + ", " + a + ", " + x + ", 0");
        c.emit("uimad " + d + ", " + a + ", " + x + ", 0");
        return c.emit("umov ur" + std::to_string(std::stoul(d.substr(2)) + 1) + ", " + t);
    }
    if (b == "ULEA" && c.mods.size() == 1 && c.n() == 4) {   // ULEA d, a, b, sh: (a << sh) + b through a uniform temporary
        const std::string t = c.tmp_uniform();
        c.emit("ushl " + t + ", " + c.value(1) + ", " + c.value(3));
        return c.emit("uiadd3 " + c.reg(0) + ", " + t + ", " + c.value(2) + ", 0");
    }
    c.fail("this uniform-datapath form");
}

void branch(Ctx& c) {
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
    {"IMAD", "`imad`, `imad.hi[.u32]`, `imad.wide[.u32]`", "`IMAD.MOV` is `imad d, 0, 0, a` (the FMA-side move keeps its pipe); a constant-pair addend goes through a temporary pair; `IMAD.X` adds its carry-in; `IMAD.HI`'s addend is the pair c:c+1 (the high word of a * b + c:c+1: `imad.wide` into the temporary pair + `mov`; `RZ`: `imad.hi`); a carry-out of `.HI`/`.WIDE.U32` is the 64-bit unsigned compare of sum and addend (`usetp`, `isetp.eq`, `pand`, `por`)", imad},
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
    {"PLOP3", "`pand`/`por`/`pxor`", "`PT`/`!PT` sources folded; a function of at most two predicates, one destination", plop3},
    {"SGXT", "`bfe` (`.U32`), `shl` + `sar`", "", sgxt},
    {"P2R", "`sel` (+ `or`)", "`P2R d, PR, RZ, mask`: one `sel` per predicate of the mask", p2r},
    {"VIADDMNMX", "`iadd` + `imin`/`imax`/`umin`/`umax`", "", viaddmnmx},
    {"FSETP", "`fsetp.CMP` (+ `pand`/`por`/`pxor`)", "`NEU` is `ne`; `LTU`/`LEU`/`GTU`/`GEU` are the negated ordered `ge`/`gt`/`le`/`lt` into a spare predicate", setp},
    {"FADD", "`fadd`, `fadd.rz/rm/rp`", "`.FTZ` ignored", fp_arith},
    {"FMUL", "`fmul`, `fmul.rz/rm/rp`", "`.FTZ` ignored; `.RZ`/`.RM`/`.RP` are the directed-rounding forms", fp_arith},
    {"FFMA", "`ffma`, `ffma.rz/rm/rp`", "`.FTZ` ignored", fp_arith},
    {"FMNMX", "`fmin`, `fmax`", "`PT` min, `!PT` max", fmnmx},
    {"IMNMX", "`imin`, `imax`, `umin`, `umax`", "", imnmx},
    {"VIMNMX", "`imin`, `imax`, `umin`, `umax`", "", imnmx},
    {"SEL", "`sel`", "", sel},
    {"FSEL", "`sel`", "", sel},
    {"I2FP", "`i2fp`, `u2fp`", "", i2f},
    {"I2F", "`i2f[.rz/rm/rp]`, `u2f[.rz/rm/rp]`; `.F64`: `i2d`, `u2d`, `i2d.s64`, `u2d.u64`; `.S64`/`.U64`: `i2f.s64`, `u2f.u64[.rp]`", "the directed roundings (`I2F.U32.RP`: the division's reciprocal seed) as their own forms", i2f},
    {"F2I", "`f2i`, `f2u`, `f2i.s64`, `f2u.u64`", "`.TRUNC`, `.NTZ`, `.FTZ` are what the trace's forms do", f2i},
    {"F2F", "`d2f`, `f2d`", "`.F32.F64`, `.F64.F32`", f2f},
    {"MUFU", "`ex2 lg2 rsqrt rcp sqrt`, `sin.turns`, `cos.turns`", "MUFU.SIN/COS take x/2π (turns): their own forms, one SFU instruction as in SASS", mufu},
    {"POPC", "`popc`", "", unary},
    {"FLO", "`flo`", "", unary},
    {"BREV", "`brev`", "", unary},
    {"PRMT", "`prmt`", "default mode only", prmt},
    {"HFMA2", "`mov`", "only `HFMA2.MMA d, -RZ, RZ, h0, h1` (a 32-bit constant)", hfma2},
    {"S2R", "`mov` of a special", "", s2r},
    {"S2UR", "`umov` of a special", "", s2r},
    {"CS2R", "`cs2r`", "`SRZ` zeroes a pair", cs2r},
    {"LDC", "`mov` (`.64`: two)", "the word's value: a parameter's `$uniform`, `%ntid.*`, `%nctaid.*`", ldc},
    {"ULDC", "`umov` (`.64`: two)", "", ldc},
    {"UMOV", "`umov`", "", uniform_alu},
    {"UIADD3", "`uiadd3`", "a carry-out into a uniform predicate `UPn`, held in a spare vector predicate (the same in every lane: `usetp`), the sum through a uniform temporary; `.X` carry-ins as IADD3's (`@p uiadd3 d, d, 1, 0`); a `@UPn` guard reads that predicate", uniform_alu},
    {"UIMAD", "`uimad`; `.WIDE.U32` (addend `URZ`): `uimad.hi.u32` + `uimad` + `umov`", "", uniform_alu},
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
    {"SHFL", "`shfl.down/up/xor/idx`", "the in-range predicate must be `PT`", shfl},
    {"VOTE", "`vote.ballot`, `vote.any/all`", "", vote},
    {"VOTEU", "`vote.ballot`", "`.ANY UR, UPT, P`: the result in a vector register that reads of UR take", warp_uniform},
    {"UFLO", "`flo`", "`.U32`, on such a register", warp_uniform},
    {"REDUX", "`redux.sum`", "`.SUM`, likewise", warp_uniform},
    {"BRA", "`bra`", "`@g BRA Pq, T` adds `pand`", branch},
    {"CALL", "`call`", "", call},
    {"RET", "`ret`", "", ret},
    {"EXIT", "`exit`", "", exit_},
    {"BAR", "`bar`", "`BAR.SYNC 0x0` only", bar},
    {"BSSY", "`nop`", "reconvergence comes from the post-dominators", nop},
    {"BSYNC", "`nop`", "", nop},
    {"WARPSYNC", "`nop`", "", nop},
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

Lowered lower(const Kernel& k, const Env& env) {
    Lowered out;
    const Temps t = temporaries(k);
    out.regs = t.pair;   // the kernel's own registers (rounded up to a pair); temporaries add theirs
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
