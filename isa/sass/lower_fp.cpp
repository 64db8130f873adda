// lower_fp.cpp: the fp32, fp64, conversion and MUFU families of the SASS table (see lower_ctx.hpp).
#include "isa/sass/lower_ctx.hpp"

#include <cmath>
#include <cstring>

namespace simt::isa::sass::low {

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

namespace {

// ".rz", ".rm", ".rp" for a directed-rounding modifier (.RN and none: "").
std::string rounding(const Ctx& c) {
    return c.has("RZ") ? ".rz" : c.has("RM") ? ".rm" : c.has("RP") ? ".rp" : "";
}

}  // namespace

// FADD/FMUL/FFMA[.RZ/.RM/.RP][.SAT]: .SAT clamps the rounded result to [0, 1] with fmax then fmin,
// whose NaN rule (a NaN operand yields the other) turns a NaN into 0, as the hardware's saturation.
void fp_arith(Ctx& c) {
    const std::string m = lower_word(c.mods[0]) + rounding(c);
    const size_t k = c.mods[0] == "FFMA" ? 3 : 2;
    const std::string d = c.reg(0);
    std::string s = m + " " + d;
    for (size_t i = 1; i <= k; ++i) s += ", " + c.value(i, true);
    c.emit(s);
    if (!c.has("SAT")) return;
    c.emit("fmax " + d + ", " + d + ", 0.0");
    c.emit("fmin " + d + ", " + d + ", 1.0");
}

void fmnmx(Ctx& c) {
    const std::string p = c.pred(3);
    if (p != "pt" && p != "!pt") return c.fail("a predicate-selected min/max");
    c.emit(std::string(p == "pt" ? "fmin " : "fmax ") + c.reg(0) + ", " + c.value(1, true) + ", " + c.value(2, true));
}

namespace {

// I2F with a 64-bit destination (.F64) or source (.S64/.U64): the conversions to and from pairs.
void i2f_wide(Ctx& c) {
    const bool u = c.has("U32") || c.has("U64"), wide_src = c.has("S64") || c.has("U64");
    if (!rounding(c).empty() && !(c.has("U64") && c.has("RP") && !c.has("F64"))) return c.fail("this rounding of a 64-bit conversion");
    if (c.has("F64")) return c.emit(std::string(wide_src ? (u ? "u2d.u64 " : "i2d.s64 ") : (u ? "u2d " : "i2d ")) + c.reg(0) + ", " + c.reg(1));
    c.emit(std::string(u ? "u2f.u64" : "i2f.s64") + (c.has("RP") ? ".rp " : " ") + c.reg(0) + ", " + c.reg(1));
}

}  // namespace

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

// FCHK[.DIVIDE] P, a, b: whether the compiled fast division of a by b needs its slow path.
void fchk(Ctx& c) {
    if (c.n() != 3 || (c.mods.size() > 1 && !c.has("DIVIDE"))) return c.fail("this FCHK form");
    c.emit("fchk " + c.pred(0) + ", " + c.value(1, true) + ", " + c.value(2, true));
}

void mufu(Ctx& c) {
    static const std::map<std::string, std::string> f = {{"EX2", "ex2"}, {"LG2", "lg2"}, {"RSQ", "rsqrt"}, {"RCP", "rcp"},
                                                         {"SQRT", "sqrt"}, {"SIN", "sin"}, {"COS", "cos"}};
    if (c.mods.size() < 2 || !f.count(c.mods[1])) return c.fail("this MUFU function");
    const std::string fn = f.at(c.mods[1]);
    if (fn == "sin" || fn == "cos") return c.emit(fn + ".turns " + c.reg(0) + ", " + c.value(1, true));   // MUFU.SIN/COS take x / 2pi
    c.emit(fn + " " + c.reg(0) + ", " + c.value(1, true));
}

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

}  // namespace simt::isa::sass::low
