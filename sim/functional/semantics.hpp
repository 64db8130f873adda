// semantics.hpp: what every opcode computes, for one lane, on 32-bit words.
//
// The single definition of instruction semantics, shared by the SIMT executor
// (executor.cpp, which loops these over the 32 lanes of a warp) and the
// per-thread reference interpreter (reference.cpp). Follows the semantics
// column of isa/opcodes.def, including the defined results of division by
// zero and of out-of-range float-to-integer conversions.
//
// Floating point: fp32 arithmetic is IEEE single precision with round to
// nearest even (the build sets -ffp-contract=off, CMakeLists.txt, so no
// implicit fusion). ffma, fmin, fmax and the SFU functions sin, cos, ex2, lg2
// are our own (fpmath.hpp: correctly rounded ffma; sin/cos within 2^-22.8
// absolute for every argument, ex2/lg2 within 2^-22 relative), so results are
// the same bits on every host and libm; rcp, rsqrt, sqrt are IEEE division and
// square root. fadd, fsub, fmul and ffma give the canonical NaN 0x7fffffff for
// any NaN result. dfma uses std::fma on double. fabs/fneg act on the sign bit.
// fp64 values live in a register pair rN:rN+1: low word in rN, high in rN+1.
//
// Each Value opcode's lane function is lane_value<Op>() (branch-light, so the
// executor's 32-lane loops vectorise); value() dispatches on a runtime Op.
//
// Also here: the fp32 source modifiers (modified()), the bit operations of
// LOP3/LEA.HI/PRMT/POPC/FLO/BREV/BFE/BFI, multiply-high and wide multiply-add,
// dmin/dmax/dsetp, and every atomic operation (atom_op() reads it from the
// row's mnemonic, so the table stays the one list).
//
// Left out: denormal flushing, fp16, rounding-mode suffixes, 64-bit min/max/and/or/xor atomics
// and 64-bit shared-memory atomics (the ISA's 64-bit atomics are global add, exch and cas).
#pragma once

#include "isa/isa.hpp"
#include "sim/functional/fpmath.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

namespace simt::func::sem {

using isa::Op;

// How an interpreter handles an opcode.
enum class Kind : uint8_t {
    Value,      // R <- f(V, V, V)
    Select,     // sel R, V, V, Q
    Compare,    // P <- V CMP V
    PredLogic,  // P <- Q op Q
    Vote,       // collective over the warp's executing lanes
    Shuffle,    // collective over the warp's executing lanes
    Fp64,       // register pairs
    Wide,       // a 64-bit result in a pair from 32-bit sources (imad.wide, cs2r)
    Uniform,    // a uniform register from uniform values, once per warp (umov, uiadd3, uldc, ...)
    Load, Store, Atomic, Tex,
    Branch, Call, Ret, Barrier, Exit, Nop,
    Sleep,      // nanosleep: no effect on values; the timing model holds the warp
};

constexpr Kind kind_of(Op op) {
    switch (op) {
    case Op::Sel: return Kind::Select;
    case Op::Isetp: case Op::Usetp: case Op::Fsetp: case Op::Fchk: return Kind::Compare;
    case Op::Dsetp: case Op::Dmin: case Op::Dmax: return Kind::Fp64;
    case Op::ImadWide: case Op::ImadWideU: case Op::Cs2r: return Kind::Wide;
    case Op::Umov: case Op::Uiadd3: case Op::Uimad: case Op::Ulop3: case Op::Ushl: case Op::Uldc: return Kind::Uniform;
    case Op::Ushr: case Op::Usar: case Op::UimadHiU: return Kind::Uniform;
    case Op::Pand: case Op::Por: case Op::Pxor: case Op::Pnot: return Kind::PredLogic;
    case Op::VoteAny: case Op::VoteAll: case Op::VoteBallot: return Kind::Vote;
    case Op::ShflUp: case Op::ShflDown: case Op::ShflXor: case Op::ShflIdx: case Op::ReduxSum: return Kind::Shuffle;
    case Op::Dadd: case Op::Dmul: case Op::Dfma: case Op::F2d: case Op::D2f: return Kind::Fp64;
    case Op::I2d: case Op::U2d: case Op::L2d: case Op::Ul2d: case Op::L2f: case Op::Ul2f: case Op::Ul2fRp:
    case Op::F2l: case Op::F2ul: return Kind::Fp64;
    case Op::Tex: return Kind::Tex;
    case Op::Bra: return Kind::Branch;
    case Op::Call: return Kind::Call;
    case Op::Ret: return Kind::Ret;
    case Op::Bar: return Kind::Barrier;
    case Op::Exit: return Kind::Exit;
    case Op::Nop: return Kind::Nop;
    case Op::Nanosleep: return Kind::Sleep;
    default: break;
    }
    // Memory instructions by their table row.
    switch (isa::access_of(op)) {
    case isa::Access::Load: return Kind::Load;
    case isa::Access::Store: return Kind::Store;
    case isa::Access::Atomic: return Kind::Atomic;
    default: return Kind::Value;
    }
}

constexpr bool is_collective(Op op) {
    return kind_of(op) == Kind::Vote || kind_of(op) == Kind::Shuffle;
}

inline uint64_t pair(uint32_t lo, uint32_t hi) { return uint64_t(hi) << 32 | lo; }

// ---- integer division (defined for every input, see opcodes.def)
inline uint32_t idiv(uint32_t a, uint32_t b) {
    const int32_t x = int32_t(a), y = int32_t(b);
    if (y == 0) return 0xffffffffu;
    if (x == std::numeric_limits<int32_t>::min() && y == -1) return a;
    return uint32_t(x / y);
}
inline uint32_t irem(uint32_t a, uint32_t b) {
    const int32_t x = int32_t(a), y = int32_t(b);
    if (y == 0) return a;
    if (x == std::numeric_limits<int32_t>::min() && y == -1) return 0;
    return uint32_t(x % y);
}
inline uint32_t udiv(uint32_t a, uint32_t b) { return b == 0 ? 0xffffffffu : a / b; }
inline uint32_t urem(uint32_t a, uint32_t b) { return b == 0 ? a : a % b; }

// ---- conversions: truncate toward zero, saturate, NaN gives 0
inline uint32_t f2i(float x) {
    if (std::isnan(x)) return 0;
    if (x >= 2147483648.0f) return 0x7fffffffu;
    if (x <= -2147483648.0f) return 0x80000000u;
    return uint32_t(int32_t(x));
}
inline uint32_t f2u(float x) {
    if (std::isnan(x) || x <= 0.0f) return 0;
    if (x >= 4294967296.0f) return 0xffffffffu;
    return uint32_t(x);
}

inline uint32_t smin(uint32_t a, uint32_t b) { return int32_t(a) < int32_t(b) ? a : b; }
inline uint32_t smax(uint32_t a, uint32_t b) { return int32_t(a) > int32_t(b) ? a : b; }

// ---- bit manipulation (SASS LOP3, LEA.HI, PRMT, POPC, FLO, BREV; bfe/bfi as Kepler's BFE/BFI)
constexpr uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
    uint32_t r = 0;
    for (uint32_t i = 0; i < 8; ++i) {
        const uint32_t term = ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
        r |= term & (0u - ((lut >> i) & 1u));
    }
    return r;
}
constexpr uint32_t lea_hi(uint32_t a, uint32_t b, uint32_t c, uint32_t sh) {
    const uint64_t wide = (uint64_t(c) << 32 | a) << (sh & 31);
    return b + uint32_t(wide >> 32);
}
constexpr uint32_t popc(uint32_t m) {
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (m * 0x01010101u) >> 24;
}
constexpr uint32_t clz(uint32_t a) { return a == 0 ? 32 : uint32_t(std::countl_zero(a)); }
constexpr uint32_t flo(uint32_t a) { return a == 0 ? 0xffffffffu : 31 - uint32_t(std::countl_zero(a)); }
constexpr uint32_t brev(uint32_t a) {
    a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
    a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
    a = ((a >> 4) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4);
    a = ((a >> 8) & 0x00ff00ffu) | ((a & 0x00ff00ffu) << 8);
    return (a >> 16) | (a << 16);
}
// The low len bits set (len clamped to 32).
constexpr uint32_t low_bits(uint32_t len) { return len >= 32 ? 0xffffffffu : (1u << len) - 1; }
constexpr uint32_t bfe(uint32_t a, uint32_t ctl) {
    const uint32_t pos = ctl & 0xff, len = (ctl >> 8) & 0xff;
    return pos >= 32 ? 0 : (a >> pos) & low_bits(len);
}
constexpr uint32_t bfi(uint32_t a, uint32_t b, uint32_t ctl) {
    const uint32_t pos = ctl & 0xff, len = (ctl >> 8) & 0xff;
    if (pos >= 32) return b;
    const uint32_t mask = low_bits(len) << pos;
    return (b & ~mask) | ((a << pos) & mask);
}
constexpr uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
    const uint64_t bytes = uint64_t(b) << 32 | a;
    uint32_t r = 0;
    for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t s = (sel >> (4 * i)) & 0xf;
        uint32_t byte = uint32_t(bytes >> (8 * (s & 7))) & 0xff;
        if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
    }
    return r;
}
constexpr uint32_t mul_hi_s(uint32_t a, uint32_t b) { return uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32); }
constexpr uint32_t mul_hi_u(uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }
// imad.wide: a * b + c as 64 bits.
constexpr uint64_t mad_wide(isa::Op op, uint32_t a, uint32_t b, uint64_t c) {
    const uint64_t p = op == isa::Op::ImadWide ? uint64_t(int64_t(int32_t(a)) * int32_t(b)) : uint64_t(a) * b;
    return p + c;
}

// An fp32 source modifier (signature 'F'): |x| clears the sign bit, then -x flips it.
inline uint32_t modified(const isa::Operand& o, uint32_t v) {
    if (o.fabs) v &= 0x7fffffffu;
    if (o.fneg) v ^= 0x80000000u;
    return v;
}

// The value of an instruction's K or S immediate (lop3's table, lea's shift), 0 if it has none.
inline uint32_t imm_operand(const isa::Instruction& in) {
    const std::string_view sig = isa::info(in.op).signature;
    for (uint32_t i = 0; i < in.nops && 2 * i < sig.size(); ++i)
        if (sig[2 * i] == 'K' || sig[2 * i] == 'S') return in.ops[i].value;
    return 0;
}

// d = f(a, b, c) for the Kind::Value opcode O (0 for any other opcode); k is
// the instruction's K or S immediate (lop3's table, lea's shift).
template <Op O>
inline uint32_t lane_value(uint32_t a, uint32_t b, uint32_t c, uint32_t k = 0) {
    if constexpr (O == Op::Mov) return a;
    else if constexpr (O == Op::Iadd) return a + b;
    else if constexpr (O == Op::Isub) return a - b;
    else if constexpr (O == Op::Shl) return a << (b & 31);
    else if constexpr (O == Op::Shr) return a >> (b & 31);
    else if constexpr (O == Op::Sar) return uint32_t(int32_t(a) >> (b & 31));
    else if constexpr (O == Op::And) return a & b;
    else if constexpr (O == Op::Or) return a | b;
    else if constexpr (O == Op::Xor) return a ^ b;
    else if constexpr (O == Op::Not) return ~a;
    else if constexpr (O == Op::Imin) return smin(a, b);
    else if constexpr (O == Op::Imax) return smax(a, b);
    else if constexpr (O == Op::Umin) return a < b ? a : b;
    else if constexpr (O == Op::Umax) return a > b ? a : b;
    else if constexpr (O == Op::Idiv) return idiv(a, b);
    else if constexpr (O == Op::Irem) return irem(a, b);
    else if constexpr (O == Op::Udiv) return udiv(a, b);
    else if constexpr (O == Op::Urem) return urem(a, b);
    else if constexpr (O == Op::Fadd) return bits(canonical(f32(a) + f32(b)));
    else if constexpr (O == Op::Fsub) return bits(canonical(f32(a) - f32(b)));
    else if constexpr (O == Op::Fmul) return bits(canonical(f32(a) * f32(b)));
    else if constexpr (O == Op::Ffma) return bits(ffma(f32(a), f32(b), f32(c)));
    else if constexpr (O == Op::FaddRz) return bits(fadd_dir(f32(a), f32(b), Round::Zero));
    else if constexpr (O == Op::FaddRm) return bits(fadd_dir(f32(a), f32(b), Round::Down));
    else if constexpr (O == Op::FaddRp) return bits(fadd_dir(f32(a), f32(b), Round::Up));
    else if constexpr (O == Op::FmulRz) return bits(fmul_dir(f32(a), f32(b), Round::Zero));
    else if constexpr (O == Op::FmulRm) return bits(fmul_dir(f32(a), f32(b), Round::Down));
    else if constexpr (O == Op::FmulRp) return bits(fmul_dir(f32(a), f32(b), Round::Up));
    else if constexpr (O == Op::FfmaRz) return bits(ffma_dir(f32(a), f32(b), f32(c), Round::Zero));
    else if constexpr (O == Op::FfmaRm) return bits(ffma_dir(f32(a), f32(b), f32(c), Round::Down));
    else if constexpr (O == Op::FfmaRp) return bits(ffma_dir(f32(a), f32(b), f32(c), Round::Up));
    else if constexpr (O == Op::I2fRz) return bits(cvt_dir(double(int32_t(a)), Round::Zero));
    else if constexpr (O == Op::I2fRm) return bits(cvt_dir(double(int32_t(a)), Round::Down));
    else if constexpr (O == Op::I2fRp) return bits(cvt_dir(double(int32_t(a)), Round::Up));
    else if constexpr (O == Op::U2fRz) return bits(cvt_dir(double(a), Round::Zero));
    else if constexpr (O == Op::U2fRm) return bits(cvt_dir(double(a), Round::Down));
    else if constexpr (O == Op::U2fRp) return bits(cvt_dir(double(a), Round::Up));
    else if constexpr (O == Op::Fmin) return bits(fmin(f32(a), f32(b)));
    else if constexpr (O == Op::Fmax) return bits(fmax(f32(a), f32(b)));
    else if constexpr (O == Op::Fabs) return a & 0x7fffffffu;
    else if constexpr (O == Op::Fneg) return a ^ 0x80000000u;
    else if constexpr (O == Op::Imul) return a * b;
    else if constexpr (O == Op::Imad) return a * b + c;
    else if constexpr (O == Op::Sin) return bits(sin(f32(a)));
    else if constexpr (O == Op::Cos) return bits(cos(f32(a)));
    else if constexpr (O == Op::SinTurns) return bits(sin(f32(a) * 6.2831855f));
    else if constexpr (O == Op::CosTurns) return bits(cos(f32(a) * 6.2831855f));
    else if constexpr (O == Op::Ex2) return bits(ex2(f32(a)));
    else if constexpr (O == Op::Lg2) return bits(lg2(f32(a)));
    else if constexpr (O == Op::Rsqrt) return bits(1.0f / std::sqrt(f32(a)));
    else if constexpr (O == Op::Rcp) return bits(1.0f / f32(a));
    else if constexpr (O == Op::Sqrt) return bits(std::sqrt(f32(a)));
    else if constexpr (O == Op::I2f) return bits(float(int32_t(a)));
    else if constexpr (O == Op::U2f) return bits(float(a));
    else if constexpr (O == Op::F2i) return f2i(f32(a));
    else if constexpr (O == Op::F2u) return f2u(f32(a));
    else if constexpr (O == Op::Iadd3) return a + b + c;
    else if constexpr (O == Op::Lop3) return lop3(a, b, c, k);
    else if constexpr (O == Op::Lea) return (a << (k & 31)) + b;
    else if constexpr (O == Op::LeaHi) return lea_hi(a, b, c, k);
    else if constexpr (O == Op::Bfe) return bfe(a, b);
    else if constexpr (O == Op::Bfi) return bfi(a, b, c);
    else if constexpr (O == Op::Prmt) return prmt(a, b, c);
    else if constexpr (O == Op::ImulHi) return mul_hi_s(a, b);
    else if constexpr (O == Op::ImulHiU) return mul_hi_u(a, b);
    else if constexpr (O == Op::ImadHi) return mul_hi_s(a, b) + c;
    else if constexpr (O == Op::ImadHiU) return mul_hi_u(a, b) + c;
    else if constexpr (O == Op::Popc) return popc(a);
    else if constexpr (O == Op::Clz) return clz(a);
    else if constexpr (O == Op::Flo) return flo(a);
    else if constexpr (O == Op::Brev) return brev(a);
    else if constexpr (O == Op::I2fp) return bits(float(int32_t(a)));
    else if constexpr (O == Op::U2fp) return bits(float(a));
    else if constexpr (O == Op::Umov) return a;
    else if constexpr (O == Op::Uiadd3) return a + b + c;
    else if constexpr (O == Op::Uimad) return a * b + c;
    else if constexpr (O == Op::Ulop3) return lop3(a, b, c, k);
    else if constexpr (O == Op::Ushl) return a << (b & 31);
    else if constexpr (O == Op::Ushr) return a >> (b & 31);
    else if constexpr (O == Op::Usar) return uint32_t(int32_t(a) >> (b & 31));
    else if constexpr (O == Op::UimadHiU) return mul_hi_u(a, b) + c;
    else return 0;
}

// d = f(a, b, c) for every Kind::Value opcode.
inline uint32_t value(Op op, uint32_t a, uint32_t b, uint32_t c, uint32_t k = 0) {
    switch (op) {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc) \
    case Op::e: return lane_value<Op::e>(a, b, c, k);
#include "isa/opcodes.def"
#undef OP
    }
    return 0;
}

template <typename T>
bool compare_as(isa::Cmp cmp, T a, T b) {
    switch (cmp) {
    case isa::Cmp::Lt: return a < b;
    case isa::Cmp::Le: return a <= b;
    case isa::Cmp::Gt: return a > b;
    case isa::Cmp::Ge: return a >= b;
    case isa::Cmp::Eq: return a == b;
    case isa::Cmp::Ne: return a != b;   // true when either float is NaN
    default: return false;
    }
}

// fchk: may the fast division a / b be inexact (opcodes.def)? On the fp32 bit patterns.
inline bool fchk(uint32_t a, uint32_t b) {
    const int ea = int((a >> 23) & 0xff), eb = int((b >> 23) & 0xff);   // biased exponents
    if (eb == 0 || eb == 0xff || eb < 127 - 125 || eb > 127 + 125) return true;
    if (ea == 0xff || (ea == 0 && (a & 0x7fffffu))) return true;
    return ea != 0 && (ea - eb < -125 || ea - eb > 125);
}

// p = a CMP b for isetp (signed), usetp (unsigned) and fsetp (ordered fp32); fchk.
inline bool compare(Op op, isa::Cmp cmp, uint32_t a, uint32_t b) {
    if (op == Op::Fchk) return fchk(a, b);
    if (op == Op::Isetp) return compare_as(cmp, int32_t(a), int32_t(b));
    if (op == Op::Usetp) return compare_as(cmp, a, b);
    return compare_as(cmp, f32(a), f32(b));
}

// Predicate logic on lane masks (also works on single bits).
inline uint32_t pred_logic(Op op, uint32_t q1, uint32_t q2) {
    switch (op) {
    case Op::Pand: return q1 & q2;
    case Op::Por: return q1 | q2;
    case Op::Pxor: return q1 ^ q2;
    default: return ~q1;   // Pnot
    }
}

// dmin/dmax as fmin/fmax: a NaN operand yields the other, -0 orders below +0.
inline uint64_t dminmax(uint64_t a, uint64_t b, bool max) {
    const double x = f64(a), y = f64(b);
    if (std::isnan(x)) return b;
    if (std::isnan(y)) return a;
    if (x == y) {   // equal, or +0 and -0: the sign bits decide
        const bool xneg = a >> 63;
        return (max ? !xneg : xneg) ? a : b;
    }
    return ((x > y) == max) ? a : b;
}

// fp64: dadd, dmul, dfma, dmin, dmax on register-pair bit patterns.
inline uint64_t fp64(Op op, uint64_t a, uint64_t b, uint64_t c) {
    switch (op) {
    case Op::Dadd: return bits(f64(a) + f64(b));
    case Op::Dmul: return bits(f64(a) * f64(b));
    case Op::Dfma: return bits(std::fma(f64(a), f64(b), f64(c)));
    case Op::Dmin: return dminmax(a, b, false);
    case Op::Dmax: return dminmax(a, b, true);
    default: return 0;
    }
}
// p = a CMP b for dsetp (ordered fp64).
inline bool compare64(isa::Cmp cmp, uint64_t a, uint64_t b) { return compare_as(cmp, f64(a), f64(b)); }
inline uint64_t f2d(uint32_t a) { return bits(double(f32(a))); }
inline uint32_t d2f(uint64_t a) { return bits(float(f64(a))); }

// fp32 -> 64-bit integer: truncated toward zero, saturated, NaN gives 0.
inline uint64_t f2ul(float x) {
    if (std::isnan(x) || x <= 0.0f) return 0;
    if (x >= 18446744073709551616.0f) return ~0ull;
    return uint64_t(x);
}
inline uint64_t f2l(float x) {
    if (std::isnan(x)) return 0;
    if (x >= 9223372036854775808.0f) return 0x7fffffffffffffffull;
    if (x <= -9223372036854775808.0f) return 0x8000000000000000ull;
    return uint64_t(int64_t(x));
}
// u64 -> fp32 rounded toward +inf: the nearest float, one up when it lies below the integer.
inline uint32_t ul2f_rp(uint64_t a) {
    const float rn = float(a);
    const bool below = rn < 18446744073709551616.0f && uint64_t(rn) < a;
    return bits(below ? std::nextafter(rn, INFINITY) : rn);
}

// Is op a conversion from a 32-bit value to a pair (f2d, i2d, f2u.u64, ...)? Its result.
constexpr bool to_pair(Op op) { return op == Op::F2d || op == Op::I2d || op == Op::U2d || op == Op::F2l || op == Op::F2ul; }
inline uint64_t convert_to_pair(Op op, uint32_t a) {
    switch (op) {
    case Op::F2d: return f2d(a);
    case Op::I2d: return bits(double(int32_t(a)));
    case Op::U2d: return bits(double(a));
    case Op::F2l: return f2l(f32(a));
    default: return f2ul(f32(a));   // F2ul
    }
}
// Conversions from a pair: to a 32-bit value (d2f, i2f.s64, u2f.u64[.rp]) or to a pair (i2d.s64, u2d.u64).
constexpr bool from_pair_to_word(Op op) { return op == Op::D2f || op == Op::L2f || op == Op::Ul2f || op == Op::Ul2fRp; }
inline uint32_t convert_from_pair(Op op, uint64_t a) {
    switch (op) {
    case Op::D2f: return d2f(a);
    case Op::L2f: return bits(float(int64_t(a)));
    case Op::Ul2f: return bits(float(a));
    default: return ul2f_rp(a);   // Ul2fRp
    }
}
constexpr bool pair_to_pair(Op op) { return op == Op::L2d || op == Op::Ul2d; }
inline uint64_t convert_pair(Op op, uint64_t a) { return op == Op::L2d ? bits(double(int64_t(a))) : bits(double(a)); }

// The lane a shuffle in `lane` reads (operand b), or -1 outside the warp. The
// caller substitutes the reader's own value when the source is -1 or does not
// execute the shuffle.
inline int shuffle_source(Op op, uint32_t lane, uint32_t b) {
    uint64_t src = 0;
    switch (op) {
    case Op::ShflUp: if (b > lane) return -1; src = lane - b; break;
    case Op::ShflDown: src = uint64_t(lane) + b; break;
    case Op::ShflXor: src = lane ^ b; break;
    default: src = b & 31; break;   // ShflIdx
    }
    return src < isa::kWarpSize ? int(src) : -1;
}

// Vote result for one executing lane, given the masks of executing lanes and
// of lanes where q holds. Ballot returns the mask; any/all return 0 or 1.
inline uint32_t vote(Op op, uint32_t exec, uint32_t q) {
    switch (op) {
    case Op::VoteAny: return (q & exec) != 0;
    case Op::VoteAll: return (q & exec) == exec;
    default: return q & exec;   // VoteBallot
    }
}

// ---- atomics: the operation of an atom.* / red.* row, from its mnemonic's last part
enum class AtomOp : uint8_t { None, Add, AddF32, Min, Max, MinU, MaxU, And, Or, Xor, Exch, Cas, AddU64, AddF64, Exch64, Cas64, PopcInc };

constexpr AtomOp atom_op_of(std::string_view m) {
    if (!m.starts_with("atom.") && !m.starts_with("red.")) return AtomOp::None;
    const size_t space_end = m.find('.', m.find('.') + 1);
    if (space_end == std::string_view::npos) return AtomOp::None;
    const std::string_view s = m.substr(space_end + 1);
    if (s == "add") return AtomOp::Add;
    if (s == "add.f32") return AtomOp::AddF32;
    if (s == "min") return AtomOp::Min;
    if (s == "max") return AtomOp::Max;
    if (s == "min.u32") return AtomOp::MinU;
    if (s == "max.u32") return AtomOp::MaxU;
    if (s == "and") return AtomOp::And;
    if (s == "or") return AtomOp::Or;
    if (s == "xor") return AtomOp::Xor;
    if (s == "exch") return AtomOp::Exch;
    if (s == "cas") return AtomOp::Cas;
    if (s == "add.u64") return AtomOp::AddU64;
    if (s == "add.f64") return AtomOp::AddF64;
    if (s == "exch.b64") return AtomOp::Exch64;
    if (s == "cas.b64") return AtomOp::Cas64;
    if (s == "popc.inc") return AtomOp::PopcInc;
    return AtomOp::None;
}
constexpr AtomOp atom_op(Op op) { return atom_op_of(isa::mnemonic_of(op)); }

// Atomic read-modify-write: the new word from the old one, operand b and (cas) c.
inline uint32_t atomic(Op op, uint32_t old, uint32_t b, uint32_t c = 0) {
    switch (atom_op(op)) {
    case AtomOp::Add: return old + b;
    case AtomOp::AddF32: return bits(canonical(f32(old) + f32(b)));
    case AtomOp::Min: return smin(old, b);
    case AtomOp::Max: return smax(old, b);
    case AtomOp::MinU: return old < b ? old : b;
    case AtomOp::MaxU: return old > b ? old : b;
    case AtomOp::And: return old & b;
    case AtomOp::Or: return old | b;
    case AtomOp::Xor: return old ^ b;
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return old == b ? c : old;
    case AtomOp::PopcInc: return old + 1;   // (no operand b)
    case AtomOp::None: case AtomOp::AddU64: case AtomOp::AddF64: case AtomOp::Exch64: case AtomOp::Cas64: break;  // (atomic64)
    }
    return old;
}

// The 64-bit read-modify-write (atom.global.*.u64/f64/b64, red.global.add.u64/f64) on register pairs.
inline uint64_t atomic64(Op op, uint64_t old, uint64_t b, uint64_t c = 0) {
    switch (atom_op(op)) {
    case AtomOp::AddU64: return old + b;
    case AtomOp::AddF64: return bits(f64(old) + f64(b));
    case AtomOp::Exch64: return b;
    case AtomOp::Cas64: return old == b ? c : old;
    default: break;
    }
    return old;
}
constexpr bool is_float_add(Op op) {
    return atom_op(op) == AtomOp::AddF32 || atom_op(op) == AtomOp::AddF64;
}

// Where an atomic's operands are: the memory operand, then b (and c for cas);
// atom.* has a destination first, red.* none.
struct AtomOperands {
    uint32_t mem = 1, b = 2, c = 3;
    bool has_dst = true;
};
inline AtomOperands atom_operands(Op op) {
    const char k = isa::info(op).signature[0];
    const bool dst = k == 'R' || k == 'D';
    return dst ? AtomOperands{1, 2, 3, true} : AtomOperands{0, 1, 2, false};
}

// Texel coordinate along one axis: floor(t * n) wrapped into [0, n); a NaN or
// infinite coordinate gives texel 0.
inline uint64_t texel_coord(uint32_t t_bits, uint32_t n) {
    const double s = std::floor(double(f32(t_bits)) * n);
    if (!std::isfinite(s) || n == 0) return 0;
    double m = std::fmod(s, double(n));
    if (m < 0) m += n;
    return uint64_t(m);
}
// Byte offset of the texel at (u, v) in a width x height buffer of 4-byte texels.
inline uint64_t texel_offset(uint32_t width, uint32_t height, uint32_t u, uint32_t v) {
    return (texel_coord(v, height) * width + texel_coord(u, width)) * 4;
}

// Registers a thread needs: at least .regs, and every register the code names
// (pairs and quads included), so no operand can index past the register file.
inline uint32_t registers_needed(const isa::Program& p) {
    uint32_t need = p.regs_per_thread > 0 ? p.regs_per_thread : 1;
    for (const isa::Instruction& in : p.code) {
        const std::string_view sig = isa::info(in.op).signature;
        for (uint32_t i = 0; i < in.nops; ++i) {
            const isa::Operand& o = in.ops[i];
            const char kind = 2 * i < sig.size() ? sig[2 * i] : 'R';
            const uint32_t width = (kind == 'D' || kind == 'E' || kind == 'G') ? 2 : (kind == 'W' || kind == 'X') ? 4 : 1;
            if (o.kind == isa::OperandKind::Reg && o.value + width > need) need = o.value + width;
            const uint32_t mem_width = o.mem.flat ? 2 : 1;
            if (o.kind == isa::OperandKind::Mem && o.mem.index_reg >= 0 && uint32_t(o.mem.index_reg) + mem_width > need)
                need = uint32_t(o.mem.index_reg) + mem_width;
        }
    }
    return need;
}

// ---- memory access checks, shared by both interpreters

// Byte address of a memory operand before the space's base is added:
// index * scale + offset, with the index register read as signed.
inline int64_t mem_offset(const isa::MemRef& m, uint32_t index_value) {
    const int64_t idx = m.index_reg >= 0 ? int64_t(int32_t(index_value)) : 0;
    return idx * m.scale + m.offset;
}

inline std::string hex(int64_t v) {
    char buf[32];
    if (v < 0) std::snprintf(buf, sizeof buf, "-0x%llx", static_cast<unsigned long long>(-v));
    else std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// What the faulting access touched, for the message.
struct Region {
    std::string what;   // "buffer 'out'", ".shared", ".local"
    int64_t base = 0;   // first valid address
    uint64_t bytes = 0; // size
};

// Throws the out-of-bounds or misaligned fault of one lane, located at the
// instruction. `addr` is the full address (global) or the offset (shared, local).
[[noreturn]] inline void access_fault(const isa::Instruction& in, uint32_t lane, int64_t addr,
                                      uint32_t bytes, const Region& r) {
    const std::string mnem(isa::info(in.op).mnemonic);
    const bool inside = addr >= r.base && uint64_t(addr - r.base) + bytes <= r.bytes;
    std::string size = std::to_string(r.bytes) + " bytes";
    if (r.base != 0) size += " at " + hex(r.base);
    if (inside) {
        throw Error(in.loc, "misaligned " + mnem + ": lane " + std::to_string(lane) + " address " +
                                hex(addr) + " is not " + std::to_string(bytes) + "-byte aligned (" +
                                r.what + ", " + size + ")");
    }
    throw Error(in.loc, "out-of-bounds " + mnem + ": lane " + std::to_string(lane) + " address " +
                            hex(addr) + " (" + std::to_string(bytes) + " bytes) is outside " + r.what +
                            " (" + size + ")");
}

// True when [addr, addr + bytes) lies inside the region and addr is aligned to
// min(bytes, 16) (the region bases are aligned).
inline bool access_ok(int64_t addr, uint32_t bytes, int64_t base, uint64_t size) {
    if (addr < base || uint64_t(addr - base) + bytes > size) return false;
    return (uint64_t(addr) & (bytes - 1)) == 0;
}

}  // namespace simt::func::sem
