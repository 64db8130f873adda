// lower_operands.cpp: reading SASS operands into trace operands (see lower_ctx.hpp).
#include "isa/sass/lower_ctx.hpp"

#include <cmath>
#include <cstring>

namespace simt::isa::sass::low {

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

// The byte offset of "c[0x0][0x160]" (c[0x0][RZ] is 0); bank 4 (__device__ objects' addresses,
// "c[0x4][0x8]") as 4 << 16 | offset; false for a register-indexed or other bank.
bool cbank_offset(const std::string& s, uint32_t& off) {
    const bool bank4 = s.rfind("c[0x4][", 0) == 0;
    if ((s.rfind("c[0x0][", 0) != 0 && !bank4) || s.back() != ']') return false;
    const std::string inner = s.substr(7, s.size() - 8);
    if (inner == "RZ") { off = bank4 ? 4u << 16 : 0; return true; }
    if (inner.rfind("0x", 0) != 0 || inner.find_first_not_of("0123456789abcdefx") != std::string::npos) return false;
    off = uint32_t(std::stoul(inner, nullptr, 16)) | (bank4 ? 4u << 16 : 0);
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
    if ((s == "RZ" || s == "URZ") && fp && !pre.empty() && !abs) return "0x80000000";   // -RZ: -0.0 (as below)
    std::string v;
    if (s == "RZ" || s == "URZ") v = "0";
    else if (alias.count(s)) v = alias.at(s);
    else if (is_reg(s) || is_ureg(s)) v = lower_word(s);
    else if (s.rfind("c[", 0) == 0) {
        uint32_t off = 0;
        if (!cbank_offset(s, off)) { fail("a constant operand indexed by a register or in another bank: " + s); return "0"; }
        v = env.cbank(off);
        if (v.empty() && off >> 16 == 4) { fail("reads " + s + ", a __device__ object's address: needs the .elf dump beside the .sass (cuobjdump -elf)"); return "0"; }
        if (v.empty()) { fail("reads " + s + ", which is neither a kernel parameter nor a launch constant"); return "0"; }
    } else if (!special(s).empty()) v = special(s);
    else if (fp && std::isdigit(static_cast<unsigned char>(s[0])) == 0 && s != "INF" && s != "+INF" && s.find("NAN") == std::string::npos) {
        fail("unexpected operand '" + raw(i) + "'");
        return "0";
    } else if (fp) {
        // -x folds into the bits here: the trace reads "-0x3f800000" as a negative integer, not -1.0
        const std::string body = s[0] == '+' ? s.substr(1) : s;
        if (!float_bits(abs ? body : pre + body, v)) { fail("unreadable float '" + raw(i) + "'"); return "0"; }
        if (!abs) pre.clear();
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
    if (s.size() > 4 && s.compare(s.size() - 4, 4, "+URZ") == 0) s.resize(s.size() - 4);   // "[R6+URZ]": + 0
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

bool is_pred_word(const std::string& s) {
    std::string b = s[0] == '!' ? s.substr(1) : s;
    if (b.rfind("UP", 0) == 0) b = b.substr(1);   // a uniform predicate UPn, UPT
    return b == "PT" || (b.size() == 2 && b[0] == 'P' && std::isdigit(static_cast<unsigned char>(b[1])));
}

CarryForm carry_form(const Ctx& c) {
    CarryForm f;
    size_t i = 1;
    while (i < c.n() && is_pred_word(c.raw(i))) f.outs.push_back(i++);
    while (i < c.n() && !is_pred_word(c.raw(i))) f.values.push_back(i++);
    while (i < c.n()) f.ins.push_back(i++);
    return f;
}

// Adds the carry-in predicates (operand indices `ins`) to d: `@P iadd d, d, 1` each.
void carry_in(Ctx& c, const std::string& d, const std::vector<size_t>& ins, bool uniform) {
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

}  // namespace simt::isa::sass::low
