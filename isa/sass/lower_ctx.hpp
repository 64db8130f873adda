// lower_ctx.hpp: what the SASS lowering's files share (internal to isa/sass/; see lower.hpp).
//
// Ctx is one SASS instruction being lowered: its opcode split at the dots, its guard, the trace lines
// it emits and its first failure; Temps the registers and predicates above the kernel's own that the
// sequences use. The family functions, one per row of the table in lower.cpp, live in
// lower_int.cpp (integer, compares, predicates, carries), lower_fp.cpp (fp32, fp64, conversions,
// MUFU) and lower.cpp (memory, uniform datapath, control flow); the operand readers in
// lower_operands.cpp.
#pragma once

#include "isa/sass/lower.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace simt::isa::sass::low {

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
    // The k-th uniform register above the kernel's (urU, urU+1).
    std::string tmp_uniform(uint32_t k = 0) {
        if (t.uniform + k >= 63) fail("needs a spare uniform register and the kernel uses UR62");
        return "ur" + std::to_string(std::min<uint32_t>(t.uniform + k, 62));
    }
};

// The operands of an instruction with carries: d, [carry-outs], values, [carry-ins] (IADD3, LEA, IMAD.X).
struct CarryForm {
    size_t dst = 0;
    std::vector<size_t> outs, values, ins;
};

// ---- operand readers and helpers (lower_operands.cpp)
std::string strip_reuse(std::string s);
bool is_reg(const std::string& s);
bool is_ureg(const std::string& s);
std::string lower_word(const std::string& s);
bool float_bits(const std::string& s, std::string& out);
std::string special(const std::string& s);
bool cbank_offset(const std::string& s, uint32_t& off);
bool is_pred_word(const std::string& s);
CarryForm carry_form(const Ctx& c);
void carry_in(Ctx& c, const std::string& d, const std::vector<size_t>& ins, bool uniform = false);

// ---- the family functions of the table: integer, compares, predicates (lower_int.cpp)
void setp(Ctx& c);
void imad(Ctx& c);
void iadd3(Ctx& c);
void lea(Ctx& c);
void lop3(Ctx& c);
void plop3(Ctx& c);
void p2r(Ctx& c);
void viaddmnmx(Ctx& c);
void sgxt(Ctx& c);
void shf(Ctx& c);
void imnmx(Ctx& c);
void sel(Ctx& c);
void unary(Ctx& c);
void prmt(Ctx& c);
void iabs(Ctx& c);
void viadd(Ctx& c);
void mov(Ctx& c);

// ---- fp32, fp64, conversions, MUFU (lower_fp.cpp)
void fp64(Ctx& c);
void fp_arith(Ctx& c);
void fmnmx(Ctx& c);
void i2f(Ctx& c);
void f2i(Ctx& c);
void f2f(Ctx& c);
void mufu(Ctx& c);
void fchk(Ctx& c);
void hfma2(Ctx& c);

}  // namespace simt::isa::sass::low
